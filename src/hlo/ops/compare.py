"""Compare: the attribute schema (direction, and a comparison type defaulting from the operand
type), the kernel (IEEE or total-order comparisons, flushed as XLA:CPU flushes them) and the
builder functions Compare, Eq, Ne, Lt, ... (EqTotalOrder, ...). The shape rule is the binary ops'
(with a pred result)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..ir.attr_kinds import enum_kind
from ..ir.attrs import ComparisonDirection, ComparisonType
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import bits
from ..numerics.elementwise import Math, elementwise_kernel
from .array_rules import require_ops
from .elementwise import binary_op, binary_shape, comparison_type_for
from .registry import AttrSpec, OpContext, builder_function, define, kernel, shape_rule
from .rule_helpers import builder_of

if TYPE_CHECKING:
    from ..numerics.context import KernelContext
    from .handles import XlaOp

Op = Opcode


def default_comparison_type(ctx: OpContext) -> ComparisonType:
    if not ctx.operand_shapes or not ctx.operand_shapes[0].is_array:
        return ComparisonType.FLOAT
    return comparison_type_for(ctx.operand_shapes[0])


define(
    Op.COMPARE,
    AttrSpec("direction", enum_kind(ComparisonDirection, "a comparison direction"), required=True),
    AttrSpec(
        "type",
        enum_kind(ComparisonType, "a comparison type"),
        default=default_comparison_type,
        printed=lambda v, ctx: not ctx.operand_shapes or v != default_comparison_type(ctx),
    ),
)


_DIRECTIONS = {
    ComparisonDirection.EQ: np.equal,
    ComparisonDirection.NE: np.not_equal,
    ComparisonDirection.LT: np.less,
    ComparisonDirection.LE: np.less_equal,
    ComparisonDirection.GT: np.greater,
    ComparisonDirection.GE: np.greater_equal,
}


@kernel(Op.COMPARE)
def compare_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """FLOAT compares IEEE values (flushed as XLA:CPU flushes them); TOTALORDER compares the
    floats' total-order keys; integer types compare as their type."""
    compare = _DIRECTIONS[instr.attrs["direction"]]
    kind = instr.attrs["type"]
    width = ctx.operand_shapes(instr)[0].element_type.bit_width
    if kind is ComparisonType.TOTALORDER:
        return lambda a, b: compare(bits.total_order_key(a, width), bits.total_order_key(b, width))
    return elementwise_kernel(Math(compare), instr, ctx)

shape_rule(Op.COMPARE)(binary_shape)


# -- compare builder functions --------------------------------------------------------------
def _enum(builder_name: str, enum: Any, value: Any, what: str, lhs: XlaOp) -> Any:
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        for member in enum:
            if value.upper() in (member.value, member.name):
                return member
    raise lhs.builder.error(builder_name, f"{what} must be one of {[m.value for m in enum]}: found {value!r}")


@builder_function
def Compare(
    lhs: XlaOp,
    rhs: XlaOp,
    broadcast_dimensions: Sequence[int] | ComparisonDirection | str = (),
    direction: ComparisonDirection | str | None = None,
    comparison_type: ComparisonType | str | None = None,
) -> XlaOp:
    """Element-wise comparison giving pred (page 003, element-wise comparison operations);
    `Compare(lhs, rhs, direction)` or `Compare(lhs, rhs, broadcast_dimensions, direction[,
    comparison_type])`. Without a type: FLOAT, SIGNED or UNSIGNED by the operands' type."""
    bd: Any = broadcast_dimensions
    if isinstance(bd, ComparisonDirection | str) and direction is None:
        bd, direction = (), bd
    builder = builder_of("Compare", lhs, rhs)
    require_ops(builder, "Compare", lhs=lhs, rhs=rhs)
    if direction is None:
        raise builder.error("Compare", "needs a comparison direction (EQ, NE, GE, GT, LE, LT)")
    if comparison_type is None:
        kind = comparison_type_for(lhs.shape) if lhs.shape.is_array else ComparisonType.FLOAT
    else:
        kind = _enum("Compare", ComparisonType, comparison_type, "comparison_type", lhs)
    attrs = {"direction": _enum("Compare", ComparisonDirection, direction, "direction", lhs), "type": kind}
    return binary_op("Compare", Op.COMPARE, lhs, rhs, bd, attrs)


def _compare_builder(name: str, direction: ComparisonDirection, total_order: bool) -> Callable[..., XlaOp]:
    def compare(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp:
        builder = builder_of(name, lhs, rhs)
        require_ops(builder, name, lhs=lhs, rhs=rhs)
        kind = comparison_type_for(lhs.shape) if lhs.shape.is_array else ComparisonType.FLOAT
        if total_order and lhs.shape.is_array and lhs.shape.element_type.is_floating_point:
            kind = ComparisonType.TOTALORDER
        attrs = {"direction": direction, "type": kind}
        return binary_op(name, Op.COMPARE, lhs, rhs, broadcast_dimensions, attrs)

    order = " with a total order on floats (-NaN < -Inf < ... < +Inf < +NaN)" if total_order else ""
    compare.__name__ = compare.__qualname__ = name
    compare.__doc__ = f"Element-wise `{direction.value}` comparison giving pred{order} (page 003)."
    return compare


for _d in ComparisonDirection:
    _short = _d.value.capitalize()  # Eq, Ne, Ge, Gt, Le, Lt
    builder_function(_compare_builder(_short, _d, False))
    builder_function(_compare_builder(f"{_short}TotalOrder", _d, True))


