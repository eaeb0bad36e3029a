"""Map (page 003): a scalar computation applied to every element of its operands. Attributes,
the shape rule as XLA's InferMapShape plus the verifier's HandleMap, the builder function and the
kernel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import COMPUTATION, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.computations import lifted
from ..numerics.elementwise import sizes_checked
from ..shape import Shape
from .array_rules import int_tuple, ints_text
from .callee import embed, program, signature, text
from .reduce import no_mixed_precision, op_list, same_ignoring_precision
from .registry import AttrSpec, OpContext, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
FAMILY = "reduce"  # split out of reduce.py: pictures colour its ops as that family's


# -- attributes -------------------------------------------------------------------------------
def _map_dimensions(ctx: OpContext) -> tuple[int, ...] | None:
    # XLA prints map's dimensions as {0, ..., rank-1} of the result, whatever was written.
    return tuple(range(ctx.shape.rank)) if ctx.shape is not None and ctx.shape.is_array else None


def _map_finish(instr: Instruction) -> Instruction:
    """XLA's HloMapInstruction keeps dimensions {0..rank-1} of its result whatever the text says
    (the written ones only matter when the result shape is left to inference)."""
    if instr.shape.is_array:
        dims = tuple(range(instr.shape.rank))
        if instr.attrs.get("dimensions") != dims:
            return instr.with_attr("dimensions", dims)
    return instr


define(
    Op.MAP,
    AttrSpec("dimensions", INT_LIST, default=_map_dimensions),
    AttrSpec("to_apply", COMPUTATION, required=True),
    arity=None,
).finish = _map_finish


# -- map --------------------------------------------------------------------------------------
@shape_rule(Op.MAP)
def map_shape(ctx: ShapeContext) -> Shape:
    """The operands' dimensions with the element type the scalar computation returns; an operand
    may be a scalar of the others' element type (page 003's Map, XLA's InferMapShape)."""
    if not ctx.operands:
        raise ShapeError("map needs at least one operand")
    shapes = [array_operand(ctx, k, f"operand {k}") for k in range(len(ctx.operands))]
    shape, at = shapes[0], 0
    for k, s in enumerate(shapes[1:], 1):
        if s.equal(shape, ignore_layout=True, ignore_dynamic_dimensions=True, ignore_element_type=True):
            continue
        if same_ignoring_precision(s.element_type, shape.element_type) and (s.rank == 0 or shape.rank == 0):
            if s.rank != 0:
                shape, at = s, k
            continue
        raise ShapeError(
            f"operand {k} must have the dimensions of operand {at} (or be a scalar of its element type): "
            f"found {text(shape)} and {text(s)}"
        )
    written = ctx.attr("dimensions")
    dims = tuple(range(shape.rank) if written is None else written)
    if dims != tuple(range(shape.rank)):
        raise ShapeError(
            f"dimensions must be {ints_text(range(shape.rank))} (map applies to every dimension of "
            f"{text(shape)}): found {ints_text(dims)}"
        )
    label, params, result = program(ctx, "to_apply")
    sig = signature(params, result)
    if len(params) != len(shapes):
        raise ShapeError(f"{label} must take {len(shapes)} scalar parameters, one per operand: found {sig}")
    if not result.is_array or result.rank != 0:
        raise ShapeError(f"{label} must return a scalar: found {sig}")
    for k, (p, s) in enumerate(zip(params, shapes)):
        if not p.is_array or p.rank != 0:
            raise ShapeError(f"{label}: parameter {k} must be a scalar: found {sig}")
        if not same_ignoring_precision(p.element_type, s.element_type):
            raise ShapeError(
                f"{label}: parameter {k} must be {s.element_type.text}[] (operand {k} is {text(s)}): "
                f"found {sig}"
            )
    no_mixed_precision(ctx, "to_apply", [(f"operand {k}", s) for k, s in enumerate(shapes)])
    return Shape.array(result.element_type, shape.dimensions, dynamic_dimensions=shape.dynamic_dimensions)


@builder_function
def Map(
    builder: XlaBuilder,
    operands: XlaOp | Sequence[XlaOp],
    computation: XlaComputation,
    dimensions: Sequence[int],
    static_operands: Sequence[XlaOp] = (),
) -> XlaOp:
    """Apply a scalar computation to every element of the operands (page 003). A scalar operand
    is broadcast to the others' dimensions first, as XlaBuilder::Map does."""
    from .shape_ops import in_dim_broadcast

    inputs = op_list(builder, "Map", operands, "operands")
    if static_operands:
        raise builder.error(
            "Map", "static_operands are not supported (XLA's Map does not support them either)"
        )
    attrs = {
        "dimensions": int_tuple(builder, "Map", dimensions, "dimensions"),
        "to_apply": embed(builder, "Map", computation, "computation"),
    }
    context = ShapeContext(Op.MAP, tuple(x.shape for x in inputs), attrs, builder.program_shape)
    try:
        out = map_shape(context)
    except ShapeError as e:
        raise builder.error("Map", e.message) from None
    broadcast = tuple(
        x
        if x.shape.rank == out.rank
        else in_dim_broadcast("Map", out.replace(element_type=x.shape.element_type), x, ())
        for x in inputs
    )
    return builder.add("Map", Op.MAP, broadcast, attrs)


# -- kernel ----------------------------------------------------------------------------------
@kernel(Op.MAP)
def map_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The scalar computation applied to whole arrays at once (it must be elementwise)."""
    apply = lifted(ctx, instr.attrs["to_apply"], "map")
    dims = instr.shape.dimensions
    out = np.dtype(instr.shape.element_type.numpy_dtype)
    return sizes_checked(lambda *xs: np.broadcast_to(np.asarray(apply(*xs), dtype=out), dims), instr, ctx)
