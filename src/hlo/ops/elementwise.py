"""Elementwise ops: unary, binary and ternary arithmetic, comparison and conversions."""

from __future__ import annotations

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attrs import ComparisonDirection, ComparisonType
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import INT, EnumCodec
from .registry import AttrSpec, OpContext, ShapeContext, define, shape_rule

Op = Opcode

# Unary ops that take an optional result_accuracy= (transcendental functions).
UNARY_WITH_ACCURACY = (
    Op.ACOS, Op.ACOSH, Op.ASIN, Op.ASINH, Op.ATANH, Op.CBRT, Op.COS, Op.COSH, Op.ERF, Op.EXP, Op.EXPM1,
    Op.LOG, Op.LOG1P, Op.LOGISTIC, Op.RSQRT, Op.SIN, Op.SINH, Op.SQRT, Op.TAN, Op.TANH,
)  # fmt: skip
UNARY = (
    Op.ABS, Op.CEIL, Op.CLZ, Op.FLOOR, Op.IMAG, Op.IS_FINITE, Op.NEGATE, Op.NOT, Op.POPULATION_COUNT,
    Op.REAL, Op.ROUND_NEAREST_AFZ, Op.ROUND_NEAREST_EVEN, Op.SIGN,
)  # fmt: skip
BINARY = (
    Op.ADD, Op.ATAN2, Op.COMPLEX, Op.DIVIDE, Op.MAXIMUM, Op.MINIMUM, Op.MULHI, Op.MULTIPLY, Op.POWER,
    Op.REMAINDER, Op.SUBTRACT, Op.AND, Op.OR, Op.XOR, Op.SHIFT_LEFT, Op.SHIFT_RIGHT_ARITHMETIC,
    Op.SHIFT_RIGHT_LOGICAL,
)  # fmt: skip
TERNARY = (Op.CLAMP, Op.SELECT)

for op in UNARY_WITH_ACCURACY:
    define(op).accepts_result_accuracy = True
for op in UNARY + BINARY + TERNARY + (Op.CONVERT, Op.BITCAST_CONVERT, Op.STOCHASTIC_CONVERT):
    define(op)


def default_comparison_type(ctx: OpContext) -> ComparisonType:
    """FLOAT for floats and complex, SIGNED for signed ints, UNSIGNED for unsigned and pred."""
    if not ctx.operand_shapes:
        return ComparisonType.FLOAT
    return comparison_type_for(ctx.operand_shapes[0])


def comparison_type_for(shape: Shape) -> ComparisonType:
    et = shape.element_type
    if et.is_floating_point or et.is_complex:
        return ComparisonType.FLOAT
    if et.is_signed_integral:
        return ComparisonType.SIGNED
    return ComparisonType.UNSIGNED


define(
    Op.COMPARE,
    AttrSpec("direction", EnumCodec(ComparisonDirection, "a comparison direction"), required=True),
    AttrSpec(
        "type",
        EnumCodec(ComparisonType, "a comparison type"),
        default=default_comparison_type,
        printed=lambda v, ctx: not ctx.operand_shapes or v != default_comparison_type(ctx),
    ),
)

define(
    Op.REDUCE_PRECISION,
    AttrSpec("exponent_bits", INT, required=True),
    AttrSpec("mantissa_bits", INT, required=True),
)


# -- shape rules ------------------------------------------------------------------------------
def _array(ctx: ShapeContext, k: int) -> Shape:
    s = ctx.operands[k]
    if not s.is_array:
        raise ShapeError(f"{ctx.opcode.text}: operand {k} must be an array, not {s}")
    return s


def _same_dims(ctx: ShapeContext, a: Shape, b: Shape, what: str) -> None:
    if not a.compatible(b.with_element_type(a.element_type)):
        raise ShapeError(f"{ctx.opcode.text}: {what} must have the same dimensions, not {a} and {b}")


@shape_rule(*UNARY_WITH_ACCURACY, *UNARY)
def unary_shape(ctx: ShapeContext) -> Shape:
    s = _array(ctx, 0)
    et = s.element_type
    op = ctx.opcode
    if op is Op.IS_FINITE:
        if not et.is_floating_point:
            raise ShapeError(f"is-finite: the operand must be floating point, not {s}")
        return s.with_element_type(PrimitiveType.PRED)
    if op in (Op.REAL, Op.IMAG, Op.ABS) and et.is_complex:
        return s.with_element_type(et.complex_component_type)
    if op in (Op.REAL, Op.IMAG) and not et.is_floating_point:
        raise ShapeError(f"{op.text}: the operand must be floating point or complex, not {s}")
    if op in (Op.CLZ, Op.POPULATION_COUNT) and not et.is_integral:
        raise ShapeError(f"{op.text}: the operand must be an integer, not {s}")
    if op is Op.NOT and not (et.is_integral or et is PrimitiveType.PRED):
        raise ShapeError(f"not: the operand must be pred or an integer, not {s}")
    return s


@shape_rule(*BINARY)
def binary_shape(ctx: ShapeContext) -> Shape:
    a, b = _array(ctx, 0), _array(ctx, 1)
    _same_dims(ctx, a, b, "both operands")
    if ctx.opcode is Op.COMPLEX:
        return a.with_element_type(
            PrimitiveType.C128 if a.element_type is PrimitiveType.F64 else PrimitiveType.C64
        )
    if a.element_type is not b.element_type:
        raise ShapeError(f"{ctx.opcode.text}: the operands must have the same element type, not {a} and {b}")
    return a


@shape_rule(Op.COMPARE)
def compare_shape(ctx: ShapeContext) -> Shape:
    a, b = _array(ctx, 0), _array(ctx, 1)
    _same_dims(ctx, a, b, "both operands")
    return a.with_element_type(PrimitiveType.PRED)


@shape_rule(Op.SELECT)
def select_shape(ctx: ShapeContext) -> Shape:
    pred, on_true, on_false = ctx.operands
    if not on_true.compatible(on_false):
        raise ShapeError(f"select: the two branches must have the same shape, not {on_true} and {on_false}")
    if pred.element_type is not PrimitiveType.PRED:
        raise ShapeError(f"select: the predicate must be pred, not {pred}")
    return on_true


@shape_rule(Op.CLAMP)
def clamp_shape(ctx: ShapeContext) -> Shape:
    low, x, high = ctx.operands
    for bound in (low, high):
        if bound.element_type is not x.element_type or (bound.rank != 0 and not bound.compatible(x)):
            raise ShapeError(f"clamp: the bounds must be scalars or the operand's shape, not {bound} for {x}")
    return x
