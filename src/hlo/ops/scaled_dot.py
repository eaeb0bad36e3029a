"""Scaled-dot: a dot of block-scaled operands (XLA's verifier checks of the scales,
XlaBuilder::ScaledDot)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape
from .array_rules import ints_text
from .dot_common import (
    DotDimensionNumbers,
    PrecisionConfig,
    add_dot,
    check_dot_dimensions,
    dimension_attrs,
    dot_dimension_attrs,
    dot_result,
    precision_attrs,
)
from .registry import ShapeContext, builder_function, define, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from .handles import XlaOp

Op = Opcode

define(Op.SCALED_DOT, *dot_dimension_attrs(), *precision_attrs(2))


def _is_no_op_scale(x: Shape, scale: Shape) -> bool:
    """XLA's IsNoOpScale: a bf16 scale of a bf16 operand, all its sizes 1 (a scalar too), stands
    for "not scaled" when the operand has a size other than 1."""
    return (
        scale.element_type is x.element_type is PrimitiveType.BF16
        and all(n == 1 for n in scale.dimensions)
        and any(n != 1 for n in x.dimensions)
    )


def _check_scale(k: int, side: str, x: Shape, scale: Shape, contracting: tuple[int, ...]) -> None:
    """XLA's ScalesShapeVerifier: the scale has the operand's rank, the operand exactly one
    contracting dimension, and each operand size is a multiple of the scale's."""
    if _is_no_op_scale(x, scale):
        return
    if scale.rank != x.rank:
        raise ShapeError(
            f"operand {k + 2} ({side}_scale) must have the rank of operand {k} ({side}): found {scale} "
            f"and {x}"
        )
    if len(contracting) != 1:
        raise ShapeError(
            f"{side}_contracting_dims={ints_text(contracting)} must name exactly one dimension when "
            f"{side} is scaled"
        )
    for d, (n, m) in enumerate(zip(x.dimensions, scale.dimensions)):
        if UNBOUNDED in (n, m):
            continue
        if m == 0 or n % m:
            raise ShapeError(
                f"dimension {d} of operand {k} ({side}, {x}) must be a multiple of dimension {d} of "
                f"operand {k + 2} ({side}_scale, {scale})"
            )


@shape_rule(Op.SCALED_DOT)
def scaled_dot_shape(ctx: ShapeContext) -> Shape:
    """A dot of block-scaled operands (lhs, rhs, lhs_scale, rhs_scale): the scales as XLA's
    verifier checks them, the result as InferDotOpShape of lhs and rhs."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    lhs_scale, rhs_scale = array_operand(ctx, 2, "lhs_scale"), array_operand(ctx, 3, "rhs_scale")
    dn = DotDimensionNumbers.of(ctx.attrs)
    check_dot_dimensions(ctx.opcode.text, lhs, rhs, dn)
    _check_scale(0, "lhs", lhs, lhs_scale, dn.lhs_contracting_dimensions)
    _check_scale(1, "rhs", rhs, rhs_scale, dn.rhs_contracting_dimensions)
    if lhs_scale.rank == 0 and rhs_scale.rank == 0:
        raise ShapeError(
            f"at least one of the scales must not be a scalar: found {lhs_scale} and {rhs_scale}"
        )
    return dot_result(ctx, lhs, rhs, dn)


@builder_function
def ScaledDot(
    lhs: XlaOp,
    rhs: XlaOp,
    lhs_scale: XlaOp,
    rhs_scale: XlaOp,
    dimension_numbers: DotDimensionNumbers | Mapping[str, Sequence[int]],
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """A dot of block-scaled operands, each multiplied by its scale broadcast over blocks
    (XlaBuilder::ScaledDot)."""
    builder = builder_of("ScaledDot", lhs, rhs, lhs_scale, rhs_scale)
    attrs = dimension_attrs(builder, "ScaledDot", dimension_numbers)
    operands = {"lhs": lhs, "rhs": rhs, "lhs_scale": lhs_scale, "rhs_scale": rhs_scale}
    return add_dot("ScaledDot", Op.SCALED_DOT, operands, attrs, precision_config, preferred_element_type)
