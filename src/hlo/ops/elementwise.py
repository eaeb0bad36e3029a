"""Elementwise ops (page 003: element-wise unary functions, element-wise binary arithmetic
operations, element-wise comparison operations): the element types each accepts, one shape rule
per family and the XlaBuilder functions, all generated from tables. Select, clamp and the
conversions live in ternary.py and convert.py (imported at the bottom)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attrs import ComparisonType
from ..ir.instruction import Instruction
from ..ir.metadata import ResultAccuracy
from ..ir.opcode import Opcode
from ..numerics import bits, complex_math, numerics
from ..numerics.elementwise import Math, elementwise_kernel
from ..shape import Shape
from .array_rules import dims_compatible, int_tuple, require_ops
from .broadcasting import elementwise_binary
from .registry import (
    BUILDERS,
    ShapeContext,
    builder_function,
    define,
    kernel,
    shape_rule,
)
from .rule_helpers import array_operand, builder_of
from .shape_ops import add_broadcast_sequence, broadcast_in_dim

if TYPE_CHECKING:
    from ..numerics.context import KernelContext
    from .handles import XlaOp

Op = Opcode
P = PrimitiveType


@dataclass(frozen=True)
class Types:
    """The element types an op accepts, and how a message names them."""

    text: str
    accepts: Callable[[PrimitiveType], bool]


ANY = Types("an array of any element type", lambda t: True)
FLOAT = Types("floating point", lambda t: t.is_floating_point)
FLOAT_OR_COMPLEX = Types("floating point or complex", lambda t: t.is_floating_point or t.is_complex)
INTEGRAL = Types("an integer type", lambda t: t.is_integral)
PRED_OR_INTEGRAL = Types("pred or an integer type", lambda t: t is P.PRED or t.is_integral)
ARITHMETIC = Types("an integer, floating-point or complex type", lambda t: t is not P.PRED)
SIGNED = Types(  # XLA's ElementIsSigned (floats count as signed), or complex
    "a signed integer, floating-point or complex type",
    lambda t: t.is_signed_integral or t.is_floating_point or t.is_complex,
)


def _by_width(fn: Callable[..., Any]) -> Math:
    """A bit-level op that needs the operand type's bit width."""
    return Math(lambda *xs: fn(*xs[:-1], xs[-1].bit_width), typed=True)


def _erf(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return erf(x)  # type: ignore[no-any-return]


# -- unary ops --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Unary:
    name: str  # the builder function (page 003)
    opcode: Opcode
    types: Types
    result: str = "same"  # "same"; "real": complex gives its component type; "pred"
    math: Math | None = None  # how the engine computes it


UNARY = (
    Unary("Abs", Op.ABS, SIGNED, "real", math=Math(np.abs, flush=False, on_bits=True)),
    Unary("Acos", Op.ACOS, FLOAT_OR_COMPLEX, math=Math(np.arccos)),
    Unary("Acosh", Op.ACOSH, FLOAT_OR_COMPLEX, math=Math(np.arccosh)),
    Unary("Asin", Op.ASIN, FLOAT_OR_COMPLEX, math=Math(np.arcsin)),
    Unary("Asinh", Op.ASINH, FLOAT_OR_COMPLEX, math=Math(np.arcsinh)),
    Unary("Atanh", Op.ATANH, FLOAT_OR_COMPLEX, math=Math(np.arctanh)),
    Unary("Cbrt", Op.CBRT, FLOAT, math=Math(np.cbrt)),  # no complex cbrt in XLA's backends
    Unary("Ceil", Op.CEIL, FLOAT, math=Math(np.ceil)),
    Unary("Clz", Op.CLZ, INTEGRAL, math=_by_width(bits.count_leading_zeros)),
    Unary("Cos", Op.COS, FLOAT_OR_COMPLEX, math=Math(np.cos)),
    Unary("Cosh", Op.COSH, FLOAT_OR_COMPLEX, math=Math(np.cosh)),
    Unary("Erf", Op.ERF, FLOAT, math=Math(_erf)),
    Unary("Exp", Op.EXP, FLOAT_OR_COMPLEX, math=Math(numerics.exp, real_ufunc=np.exp)),
    Unary("Expm1", Op.EXPM1, FLOAT_OR_COMPLEX, math=Math(np.expm1)),
    Unary("Floor", Op.FLOOR, FLOAT, math=Math(np.floor)),
    Unary("Imag", Op.IMAG, FLOAT_OR_COMPLEX, "real", math=Math(np.imag, flush=False, on_bits=True)),
    Unary("IsFinite", Op.IS_FINITE, FLOAT, "pred", math=Math(np.isfinite, flush=False, on_bits=True)),
    Unary("Log", Op.LOG, FLOAT_OR_COMPLEX, math=Math(np.log)),
    Unary("Log1p", Op.LOG1P, FLOAT_OR_COMPLEX, math=Math(np.log1p)),
    Unary("Logistic", Op.LOGISTIC, FLOAT_OR_COMPLEX, math=Math(numerics.logistic)),
    Unary("Neg", Op.NEGATE, ARITHMETIC, math=Math(np.negative, flush=False, on_bits=True)),
    Unary("Not", Op.NOT, PRED_OR_INTEGRAL, math=Math(numerics.logical_not)),
    Unary("PopulationCount", Op.POPULATION_COUNT, INTEGRAL, math=_by_width(bits.population_count)),
    Unary("Real", Op.REAL, FLOAT_OR_COMPLEX, "real", math=Math(np.real, flush=False, on_bits=True)),
    Unary("Round", Op.ROUND_NEAREST_AFZ, FLOAT, math=Math(numerics.round_half_away)),
    Unary("RoundNearestEven", Op.ROUND_NEAREST_EVEN, FLOAT, math=Math(np.rint)),
    Unary("Rsqrt", Op.RSQRT, FLOAT_OR_COMPLEX, math=Math(numerics.rsqrt)),
    Unary("Sign", Op.SIGN, SIGNED, math=Math(numerics.sign, selects=True, complex_fn=complex_math.sign)),
    Unary("Sin", Op.SIN, FLOAT_OR_COMPLEX, math=Math(np.sin)),
    Unary("Sinh", Op.SINH, FLOAT_OR_COMPLEX, math=Math(np.sinh)),
    Unary("Sqrt", Op.SQRT, FLOAT_OR_COMPLEX, math=Math(np.sqrt)),
    Unary("Tan", Op.TAN, FLOAT_OR_COMPLEX, math=Math(np.tan)),
    Unary("Tanh", Op.TANH, FLOAT_OR_COMPLEX, math=Math(np.tanh)),
)
UNARY_BY_OPCODE = {u.opcode: u for u in UNARY}
# Unary ops that take an optional result_accuracy= (the transcendental functions).
UNARY_WITH_ACCURACY = (
    Op.ACOS, Op.ACOSH, Op.ASIN, Op.ASINH, Op.ATANH, Op.CBRT, Op.COS, Op.COSH, Op.ERF, Op.EXP, Op.EXPM1,
    Op.LOG, Op.LOG1P, Op.LOGISTIC, Op.RSQRT, Op.SIN, Op.SINH, Op.SQRT, Op.TAN, Op.TANH,
)  # fmt: skip

for _u in UNARY:
    _spec = define(_u.opcode)
    _spec.accepts_result_accuracy = _u.opcode in UNARY_WITH_ACCURACY
    _spec.elementwise = True


@kernel(*UNARY_BY_OPCODE)
def unary_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    math = UNARY_BY_OPCODE[instr.opcode].math
    assert math is not None
    return elementwise_kernel(math, instr, ctx)


@shape_rule(*UNARY_BY_OPCODE)
def unary_shape(ctx: ShapeContext) -> Shape:
    row = UNARY_BY_OPCODE[ctx.opcode]
    s = array_operand(ctx, 0)
    et = s.element_type
    if not row.types.accepts(et):
        raise ShapeError(f"operand 0 must be {row.types.text}: found {s}")
    if row.result == "pred":
        return s.with_element_type(P.PRED)
    if row.result == "real" and et.is_complex:
        return s.with_element_type(et.complex_component_type)
    return s


def _unary_builder(row: Unary) -> Callable[..., XlaOp]:
    if row.opcode in UNARY_WITH_ACCURACY:

        def unary(operand: XlaOp, result_accuracy: ResultAccuracy | None = None) -> XlaOp:
            generic: dict[str, Any] = {} if result_accuracy is None else {"result_accuracy": result_accuracy}
            return builder_of(row.name, operand).add(row.name, row.opcode, (operand,), **generic)

    else:

        def unary(operand: XlaOp) -> XlaOp:  # type: ignore[misc]
            return builder_of(row.name, operand).add(row.name, row.opcode, (operand,))

    unary.__name__ = unary.__qualname__ = row.name
    unary.__doc__ = (
        f"Element-wise `{row.opcode.text}` of an array of {row.types.text} (page 003, {row.name})."
    )
    return unary


for _u in UNARY:
    builder_function(_unary_builder(_u))


# -- binary ops -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Binary:
    name: str
    opcode: Opcode
    types: Types  # checked on operand 0; operand 1 must have its type (floats may mix precision)
    math: Math | None = None  # how the engine computes it


BINARY = (
    Binary("Add", Op.ADD, ANY, math=Math(np.add)),
    Binary("Sub", Op.SUBTRACT, ARITHMETIC, math=Math(np.subtract)),
    Binary("Mul", Op.MULTIPLY, ANY, math=Math(np.multiply)),
    Binary("Div", Op.DIVIDE, ARITHMETIC, math=Math(numerics.divide, real_ufunc=np.divide)),
    Binary("Rem", Op.REMAINDER, ARITHMETIC, math=Math(numerics.remainder_flushing_divisor, flush=False)),
    Binary(
        "Pow",
        Op.POWER,
        ARITHMETIC,
        math=Math(numerics.power, flush=False, typed=True, complex_fn=complex_math.power),
    ),
    Binary("Max", Op.MAXIMUM, ANY, math=Math(numerics.maximum, selects=True, complex_fn=complex_math.maximum)),  # noqa: E501
    Binary("Min", Op.MINIMUM, ANY, math=Math(numerics.minimum, selects=True, complex_fn=complex_math.minimum)),  # noqa: E501
    Binary("Mulhi", Op.MULHI, ANY, math=_by_width(bits.multiply_high)),
    Binary(
        "Atan2", Op.ATAN2, FLOAT_OR_COMPLEX, math=Math(np.arctan2, flush=False, complex_fn=complex_math.atan2)
    ),
    Binary("Complex", Op.COMPLEX, FLOAT, math=Math(numerics.make_complex, flush=False)),
    Binary("And", Op.AND, PRED_OR_INTEGRAL, math=Math(np.bitwise_and)),
    Binary("Or", Op.OR, PRED_OR_INTEGRAL, math=Math(np.bitwise_or)),
    Binary("Xor", Op.XOR, PRED_OR_INTEGRAL, math=Math(np.bitwise_xor)),
    # XLA's shape inference only refuses pred here; its backends shift integers only.
    Binary("ShiftLeft", Op.SHIFT_LEFT, INTEGRAL, math=_by_width(numerics.shift_left)),
    Binary(
        "ShiftRightArithmetic",
        Op.SHIFT_RIGHT_ARITHMETIC,
        INTEGRAL,
        math=_by_width(numerics.shift_right_arithmetic),
    ),
    Binary(
        "ShiftRightLogical", Op.SHIFT_RIGHT_LOGICAL, INTEGRAL, math=_by_width(numerics.shift_right_logical)
    ),
)
BINARY_BY_OPCODE = {b.opcode: b for b in BINARY}
COMPLEX_OF = {(P.F32, P.F32): P.C64, (P.F64, P.F64): P.C128}

for _b in BINARY:
    define(_b.opcode).elementwise = True


@kernel(*BINARY_BY_OPCODE)
def binary_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    math = BINARY_BY_OPCODE[instr.opcode].math
    assert math is not None
    return elementwise_kernel(math, instr, ctx)


def comparison_type_for(shape: Shape) -> ComparisonType:
    """FLOAT for floats and complex, SIGNED for signed ints, UNSIGNED for unsigned and pred."""
    et = shape.element_type
    if et.is_floating_point or et.is_complex:
        return ComparisonType.FLOAT
    if et.is_signed_integral:
        return ComparisonType.SIGNED
    return ComparisonType.UNSIGNED


def infer_binary(opcode: Opcode, lhs: Shape, rhs: Shape, broadcast_dimensions: Sequence[int] = ()) -> Shape:
    """The result shape of a binary op (or compare) as XlaBuilder infers it, broadcasting included
    (XLA's InferBinaryOpShape)."""
    for k, s in enumerate((lhs, rhs)):
        if not s.is_array:
            raise ShapeError(f"operand {k} ({('lhs', 'rhs')[k]}) must be an array: found {s}")
    types = BINARY_BY_OPCODE[opcode].types if opcode in BINARY_BY_OPCODE else ANY
    if not types.accepts(lhs.element_type):
        raise ShapeError(f"operand 0 (lhs) must be {types.text}: found {lhs}")
    shape = elementwise_binary(lhs, rhs, broadcast_dimensions)
    if opcode is Op.COMPLEX:
        complex_type = COMPLEX_OF.get((lhs.element_type, rhs.element_type))
        if complex_type is None:
            raise ShapeError(
                f"the operands must be two f32 (giving c64) or two f64 (giving c128): found {lhs} and {rhs}"
            )
        return shape.with_element_type(complex_type)
    if opcode is Op.COMPARE:
        return shape.with_element_type(P.PRED)
    return shape


@shape_rule(*BINARY_BY_OPCODE)
def binary_shape(ctx: ShapeContext) -> Shape:
    """The HLO instruction: its operands have the result's dimensions (no implicit broadcast)."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    if not dims_compatible(lhs, rhs):
        raise ShapeError(
            f"operand 1 (rhs) must have the dimensions of operand 0 (lhs), as HLO has no implicit "
            f"broadcasting: found {lhs} and {rhs}"
        )
    shape = infer_binary(ctx.opcode, lhs, rhs)
    if ctx.opcode is Op.COMPARE:
        kind = ctx.attr("type") or comparison_type_for(lhs)
        et = rhs.element_type
        allowed = (
            (ComparisonType.FLOAT, ComparisonType.TOTALORDER)
            if et.is_floating_point
            else (comparison_type_for(rhs),)
        )
        if kind not in allowed:
            names = " or ".join(a.value for a in allowed)
            raise ShapeError(
                f"type={kind.value} must be {names} for operands of type {et.text}: found {lhs} and {rhs}"
            )
    return shape


def binary_op(
    op_name: str,
    opcode: Opcode,
    lhs: XlaOp,
    rhs: XlaOp,
    broadcast_dimensions: Sequence[int],
    attrs: dict[str, Any] | None = None,
) -> XlaOp:
    """XlaBuilder::BinaryOp: infer the result with broadcasting, make both operands that shape
    with explicit broadcasts, then add the instruction."""
    builder = builder_of(op_name, lhs, rhs)
    require_ops(builder, op_name, lhs=lhs, rhs=rhs)
    bd = int_tuple(builder, op_name, broadcast_dimensions, "broadcast_dimensions")
    try:
        shape = infer_binary(opcode, lhs.shape, rhs.shape, bd)
    except ShapeError as e:
        raise builder.error(op_name, e.message) from None
    lhs, rhs = broadcast_to_result(op_name, shape, (lhs, rhs), bd)
    return builder.add(op_name, opcode, (lhs, rhs), attrs)


def broadcast_to_result(
    op_name: str, shape: Shape, operands: tuple[XlaOp, ...], broadcast_dimensions: Sequence[int] = ()
) -> tuple[XlaOp, ...]:
    """Each operand broadcast to the dimensions of `shape`: a lower rank first mapped by
    `broadcast_dimensions` (BroadcastInDim), then size-1 dimensions expanded."""
    if any(o.shape.is_unbounded_dynamic for o in operands):
        if any(not dims_compatible(o.shape, shape) or o.shape.rank == 0 for o in operands):
            raise operands[0].builder.error(
                op_name,
                "broadcasting operands with unbounded dimensions is not supported (XLA emits "
                "mhlo.dynamic_broadcast_in_dim, which HLO cannot run): found "
                + ", ".join(str(o.shape) for o in operands),
            )
        return operands
    result = []
    for o in operands:
        if 0 < o.shape.rank < shape.rank:
            sizes = list(shape.dimensions)
            for k, d in enumerate(broadcast_dimensions):
                sizes[d] = o.shape.dimensions[k]
            o = broadcast_in_dim(op_name, o, sizes, broadcast_dimensions)
        if o.shape.dimensions != shape.dimensions:
            o = add_broadcast_sequence(op_name, shape, o)
        result.append(o)
    return tuple(result)


def _binary_builder(row: Binary) -> Callable[..., XlaOp]:
    def binary(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp:
        return binary_op(row.name, row.opcode, lhs, rhs, broadcast_dimensions)

    binary.__name__ = binary.__qualname__ = row.name
    binary.__doc__ = (
        f"Element-wise `{row.opcode.text}` (page 003, element-wise binary arithmetic operations); "
        "`broadcast_dimensions` maps the lower-rank operand into the other."
    )
    return binary


for _b in BINARY:
    builder_function(_binary_builder(_b))


@builder_function
def Conj(operand: XlaOp) -> XlaOp:
    """The complex conjugate: Complex(Real(x), Neg(Imag(x))), as XlaBuilder builds it."""
    f = BUILDERS
    return f["Complex"](f["Real"](operand), f["Neg"](f["Imag"](operand)))  # type: ignore[no-any-return]


from . import convert, ternary  # noqa: E402, F401  (the rest of the elementwise family)
