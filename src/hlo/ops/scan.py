"""Scan: a computation stepped along one dimension with carries (XLA's scan op); its attributes,
shape rule, builder function and kernel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, COMPUTATION, INT, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .array_rules import ints_text, require_ops
from .callee import embed, program, signature, text
from .registry import AttrSpec, ShapeContext, builder_function, define, if_true, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


def _scan_checks(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if len(instr.attr("dimensions", ())) != 1:
        return "scan expects exactly one dimension"
    carries = instr.attr("num_carries", 0)
    if len(operands) < carries:
        return (
            f"scan expects at least {carries} operands to match the number of carries, "
            f"but has {len(operands)}"
        )
    return None


define(
    Op.SCAN,
    AttrSpec("dimensions", INT_LIST, required=True),
    AttrSpec("num_carries", INT, required=True),
    AttrSpec("is_reverse", BOOL, default=False, printed=if_true),
    AttrSpec("is_associative", BOOL),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_scan_checks,
)


def _without(shape: Shape, dim: int) -> Shape:
    return Shape.array(
        shape.element_type,
        shape.dimensions[:dim] + shape.dimensions[dim + 1 :],
        dynamic_dimensions=shape.dynamic_dimensions[:dim] + shape.dynamic_dimensions[dim + 1 :],
    )


def _with(shape: Shape, dim: int, size: int) -> Shape:
    return Shape.array(
        shape.element_type,
        shape.dimensions[:dim] + (size,) + shape.dimensions[dim:],
        dynamic_dimensions=shape.dynamic_dimensions[:dim] + (False,) + shape.dynamic_dimensions[dim:],
    )


def _scan_length(ctx: ShapeContext, inputs: Sequence[Shape], dim: int, carries: int) -> int:
    """The scan dimension's size: input 0's; without inputs, the written result's first output
    (XLA's GetScanDimSize)."""
    if inputs:
        return inputs[0].dimensions[dim]
    written = ctx.shape
    if written is not None:
        outputs = list(written.tuple_shapes) if written.is_tuple else [written]
        if len(outputs) > carries and outputs[0].is_array and dim < outputs[0].rank:
            return outputs[0].dimensions[dim]
    raise ShapeError("Cannot infer shape for scan with no inputs: write the result shape")


@shape_rule(Op.SCAN)
def scan_shape(ctx: ShapeContext) -> Shape:
    """The computation takes one slice of each input (the scan dimension removed) and the
    carries, and returns one slice of each output then the new carries; the result stacks the
    outputs' slices along the scan dimension and ends with the final carries (XLA's scan)."""
    carries = ctx.attr("num_carries", 0)
    dims = tuple(ctx.attr("dimensions", ()))
    if len(dims) != 1:
        raise ShapeError(f"dimensions= must hold exactly one dimension: found {ints_text(dims)}")
    (dim,) = dims
    if not 0 <= carries <= len(ctx.operands):
        raise ShapeError(f"num_carries={carries} must be between 0 and the {len(ctx.operands)} operands")
    count = len(ctx.operands) - carries
    inputs = [array_operand(ctx, k, f"input {k}") for k in range(count)]
    inits = list(ctx.operands[count:])
    if dim < 0:
        raise ShapeError(f"the scan dimension {dim} must not be negative")
    for k, s in enumerate(inputs):
        if dim >= s.rank:
            raise ShapeError(f"scan dimension {dim} is out of range for input {k} {text(s)}")
        if s.dimensions[dim] != inputs[0].dimensions[dim]:
            raise ShapeError(
                f"input {k} must have the scan dimension {dim} of input 0: found {text(inputs[0])} and "
                f"{text(s)}"
            )
    label, params, root = program(ctx, "to_apply")
    sig = signature(params, root)
    if len(params) != len(ctx.operands):
        raise ShapeError(
            f"{label} must take {len(ctx.operands)} parameters (a slice of each input, then the "
            f"carries): found {sig}"
        )
    if not inputs and ctx.shape is None:
        raise ShapeError("Cannot infer shape for scan with no inputs: write the result shape")
    for k, s in enumerate(inputs):
        if not params[k].compatible(_without(s, dim)):
            raise ShapeError(
                f"{label}: parameter {k} must be {text(_without(s, dim))}, a slice of input {k} "
                f"{text(s)} along dimension {dim}: found {sig}"
            )
    for k, init in enumerate(inits):
        if not params[count + k].compatible(init):
            raise ShapeError(
                f"{label}: parameter {count + k} must be {text(init)}, the shape of carry {k}: found {sig}"
            )
    pieces = list(root.tuple_shapes) if root.is_tuple else [root]
    if len(pieces) < carries:
        raise ShapeError(f"{label} must return at least the {carries} carries: found {sig}")
    outputs = len(pieces) - carries
    if not count and not outputs:
        raise ShapeError("scan has no inputs and no outputs")
    for k, init in enumerate(inits):
        if not pieces[outputs + k].compatible(init):
            raise ShapeError(
                f"{label} must return carry {k} as {text(init)}, the shape of its init value: found {sig}"
            )
    length = _scan_length(ctx, inputs, dim, carries)
    results = []
    for k, piece in enumerate(pieces):
        if k < outputs:
            if not piece.is_array or dim > piece.rank:
                raise ShapeError(
                    f"{label}: output {k} must be an array of rank {dim} or more to stack along "
                    f"dimension {dim}: found {sig}"
                )
            piece = _with(piece, dim, length)
        results.append(piece)
    written = ctx.shape
    if root.is_tuple or (written is not None and written.is_tuple):
        return Shape.make_tuple(results)
    return results[0]


@builder_function
def Scan(
    inputs: Sequence[XlaOp],
    inits: Sequence[XlaOp],
    computation: XlaComputation,
    scan_dimension: int,
    scan_dimension_size: int | None = None,
    is_reverse: bool = False,
    is_associative: bool | None = None,
) -> XlaOp:
    """XLA's Scan (not on page 003): `computation` maps (a slice of each input, the carries) to
    (a slice of each output, the new carries); the result is the tuple (outputs stacked along
    `scan_dimension`, final carries). `is_associative` None leaves it unspecified."""
    name = "Scan"
    builder = builder_of(name, inputs, inits)
    xs = tuple(inputs)
    carries = tuple(inits)
    require_ops(builder, name, inputs=xs, inits=carries)
    if not isinstance(scan_dimension, int) or isinstance(scan_dimension, bool):
        raise builder.error(name, f"scan_dimension must be an int: found {scan_dimension!r}")
    lengths = {x.shape.dimensions[scan_dimension] for x in xs if 0 <= scan_dimension < x.shape.rank}
    if scan_dimension_size is not None:
        lengths.add(int(scan_dimension_size))
    if len(lengths) > 1:
        raise builder.error(name, f"the inputs' scan dimension sizes must match: found {sorted(lengths)}")
    if not lengths and not xs:
        raise builder.error(
            name, "needs scan_dimension_size when there are no inputs (the size cannot be inferred)"
        )
    attrs: dict[str, Any] = {
        "dimensions": (scan_dimension,),
        "num_carries": len(carries),
        "is_reverse": bool(is_reverse),
        "to_apply": embed(builder, name, computation, "computation"),
    }
    if is_associative is not None:
        attrs["is_associative"] = bool(is_associative)
    _, root = builder.program_shape(attrs["to_apply"])
    pieces = list(root.tuple_shapes) if root.is_tuple else [root]
    outputs = len(pieces) - len(carries)
    length = next(iter(lengths), 0)
    shape = Shape.make_tuple(
        Shape.array(p.element_type, p.dimensions[:scan_dimension] + (length,) + p.dimensions[scan_dimension:])
        if k < outputs and p.is_array and 0 <= scan_dimension <= p.rank
        else p
        for k, p in enumerate(pieces)
    )
    return builder.add(name, Op.SCAN, (*xs, *carries), attrs, shape=shape)


@kernel(Op.SCAN)
def scan_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Step through the scan dimension (backwards with is_reverse): the computation takes the
    inputs' slices and the carries and returns the outputs' slices and the new carries (one call
    per step on whole slices)."""
    plan = ctx.computation(instr.attrs["to_apply"])
    (dim,) = instr.attrs["dimensions"]
    carries_count = instr.attrs["num_carries"]
    reverse = bool(instr.attrs.get("is_reverse", False))
    result = instr.shape
    results = result.tuple_shapes if result.is_tuple else (result,)
    outputs_count = len(results) - carries_count

    def run(*operands: Any) -> Any:
        inputs, carries = (
            operands[: len(operands) - carries_count],
            list(operands[len(operands) - carries_count :]),
        )
        length = inputs[0].shape[dim] if inputs else 0
        outputs = [np.empty(s.dimensions, dtype=s.element_type.numpy_dtype) for s in results[:outputs_count]]
        for step in range(length):
            t = length - 1 - step if reverse else step
            value = plan(*(np.take(x, t, axis=dim) for x in inputs), *carries)
            pieces = list(value) if isinstance(value, tuple) else [value]
            for out, piece in zip(outputs, pieces[:outputs_count]):
                index: list[Any] = [slice(None)] * out.ndim
                index[dim] = t
                out[tuple(index)] = piece
            carries = pieces[outputs_count:]
        values = [*outputs, *carries]
        return tuple(values) if result.is_tuple else values[0]

    return run
