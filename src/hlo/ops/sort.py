"""Sorting: sort (variadic, any comparator) and top-k; their attributes, shape rules, builder
functions and kernels (the sorting algorithms live in hlo.numerics.sorting)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, COMPUTATION, INT, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.sorting import sort_fn, top_k
from ..shape import UNBOUNDED, Shape
from .array_rules import dims_compatible, one_dimension, require_ops, the_dimension
from .callee import embed, program, signature, text
from .reduce import first_op, maybe_tuple, op_list
from .registry import AttrSpec, ShapeContext, builder_function, define, if_true, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


define(
    Op.SORT,
    AttrSpec("dimensions", INT_LIST, required=True),
    AttrSpec("is_stable", BOOL, default=False, printed=if_true),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=one_dimension,
)


define(
    Op.TOP_K,
    AttrSpec("k", INT, required=True),
    AttrSpec("largest", BOOL, default=True),
    # absent in jaxlib 0.10's text (its XLA has no such attribute; topk is stable) and then
    # not printed; newer XLA writes it, and a given value prints back as given
    AttrSpec("is_stable", BOOL),
)


@shape_rule(Op.SORT)
def sort_shape(ctx: ShapeContext) -> Shape:
    """The operands' shapes (a tuple for several); the comparator takes (T0, T0, T1, T1, ...)
    scalars and returns pred[] (XLA's InferVariadicOpShape and its verifier's HandleSort)."""
    if not ctx.operands:
        raise ShapeError("sort needs at least one operand")
    shapes = [array_operand(ctx, k, f"operand {k}") for k in range(len(ctx.operands))]
    label, params, result = program(ctx, "to_apply")
    want = ", ".join(f"{s.element_type.text}[], {s.element_type.text}[]" for s in shapes)
    form = f"the comparator {label} must be ({want}) -> pred[]"
    sig = signature(params, result)
    if not result.compatible(Shape.scalar(PrimitiveType.PRED)):
        raise ShapeError(f"{form}: found the result {text(result)} in {sig}")
    if len(params) != 2 * len(shapes):
        raise ShapeError(f"{form}: found {len(params)} parameters in {sig}")
    for k, p in enumerate(params):
        t = shapes[k // 2].element_type
        # The verifier ignores floating-point precision here (CompatibleIgnoringFpPrecision).
        if (
            not p.is_array
            or p.rank != 0
            or not (p.element_type is t or (p.element_type.is_floating_point and t.is_floating_point))
        ):
            raise ShapeError(f"{form}: found parameter {k} {text(p)} for operand {k // 2} in {sig}")
    for k, s in enumerate(shapes[1:], 1):
        if not dims_compatible(s, shapes[0]):
            raise ShapeError(
                f"operand {k} must have the dimensions of operand 0 (keys): "
                f"found {text(shapes[0])} and {text(s)}"
            )
    dim = the_dimension(ctx)
    if not 0 <= dim < shapes[0].rank:
        raise ShapeError(
            f"dimension {dim} is out of range for {text(shapes[0])}: sort needs a dimension of it"
        )
    return maybe_tuple(list(ctx.operands))


@shape_rule(Op.TOP_K)
def topk_shape(ctx: ShapeContext) -> Shape:
    """(values, s32 indices), the last dimension cut to k (static), the others as the operand's
    (XLA's InferTopKShape)."""
    operand = array_operand(ctx, 0)
    k = ctx.attr("k")
    if operand.rank < 1:
        raise ShapeError(f"operand 0 must have at least one dimension: found {text(operand)}")
    last = operand.dimensions[-1]
    if k is None or k < 0 or last == UNBOUNDED or k > last:
        size = "?" if last == UNBOUNDED else last
        raise ShapeError(f"k={k} must be between 0 and the last dimension of {text(operand)} ({size})")
    dims = (*operand.dimensions[:-1], k)
    dynamic = (*operand.dynamic_dimensions[:-1], False)
    return Shape.make_tuple(
        (
            Shape.array(operand.element_type, dims, dynamic_dimensions=dynamic),
            Shape.array(PrimitiveType.S32, dims, dynamic_dimensions=dynamic),
        )
    )


@builder_function
def Sort(
    operands: XlaOp | Sequence[XlaOp],
    comparator: XlaComputation,
    dimension: int = -1,
    is_stable: bool = False,
) -> XlaOp:
    """Sort along `dimension` (-1: the last) by `comparator`; the other operands follow the
    keys' permutation (page 003). As in XLA, only -1 counts from the end."""
    builder = builder_of("Sort", first_op(operands))
    inputs = op_list(builder, "Sort", operands, "operands")
    if not isinstance(dimension, int | np.integer) or isinstance(dimension, bool):
        raise builder.error("Sort", f"dimension must be an int: found {dimension!r}")
    if dimension == -1 and inputs[0].shape.is_array:
        dimension = inputs[0].shape.rank - 1
    attrs = {
        "dimensions": (int(dimension),),
        "is_stable": bool(is_stable),
        "to_apply": embed(builder, "Sort", comparator, "comparator"),
    }
    return builder.add("Sort", Op.SORT, inputs, attrs)


@builder_function
def TopK(operand: XlaOp, k: int, largest: bool = True, is_stable: bool = True) -> XlaOp:
    """(the k largest (or smallest) values along the last dimension, their s32 indices); equal
    values keep their order when `is_stable` (page 003; XLA's default is stable)."""
    builder = builder_of("TopK", operand)
    require_ops(builder, "TopK", operand=operand)
    if not isinstance(k, int | np.integer) or isinstance(k, bool):
        raise builder.error("TopK", f"k must be an int: found {k!r}")
    attrs: dict[str, Any] = {"k": int(k), "largest": bool(largest)}
    if not is_stable:
        attrs["is_stable"] = False
    return builder.add("TopK", Op.TOP_K, (operand,), attrs)


@kernel(Op.SORT)
def sort_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    types = [s.element_type for s in ctx.operand_shapes(instr)]
    return sort_fn(instr.attrs["to_apply"], instr.attrs["dimensions"][0], ctx, types)


@kernel(Op.TOP_K)
def topk_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    k, largest = instr.attrs["k"], instr.attrs.get("largest", True)
    width = ctx.operand_shapes(instr)[0].element_type.bit_width
    return lambda x: top_k(x, k, largest, width)
