"""Elementwise ops (page 003: element-wise unary functions, element-wise binary arithmetic
operations, element-wise comparison operations): the element types each accepts, one shape rule
per family and the XlaBuilder functions, all generated from tables. This module holds the
element-type sets and the unary ops; the binary ops, select and clamp, and the conversions live
in binary_ops.py, ternary.py and convert.py (imported at the bottom)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.instruction import Instruction
from ..ir.metadata import ResultAccuracy
from ..ir.opcode import Opcode
from ..numerics import (
    bits,
    complex_expanded,
    complex_functions,
    complex_polar,
    numerics,
    subnormal_inputs,
    xla_erf,
    xla_exp,
    xla_expm1,
    xla_log,
    xla_tanh,
)
from ..numerics.elementwise import Math, elementwise_kernel
from ..shape import Shape
from .registry import (
    BUILDERS,
    ShapeContext,
    builder_function,
    define,
    kernel,
    shape_rule,
)
from .rule_helpers import array_operand, builder_of

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


def by_width(fn: Callable[..., Any]) -> Math:
    """A bit-level op that needs the operand type's bit width."""
    return Math(lambda *xs: fn(*xs[:-1], xs[-1].bit_width), typed=True)


# XLA:CPU's own approximations flush as its code does (hlo.numerics.odd_rational: tanh selects a
# subnormal input unflushed), so the kernel neither flushes nor changes the CPU's mode for them
FLUSHES_ITSELF: dict[str, Any] = {"flush": False, "on_bits": True}


# -- unary ops --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Unary:
    name: str  # the builder function (page 003)
    opcode: Opcode
    types: Types
    result: str = "same"  # "same"; "real": complex gives its component type; "pred"
    math: Math | None = None  # how the engine computes it


UNARY = (
    Unary(
        "Abs",
        Op.ABS,
        SIGNED,
        "real",
        math=Math(np.abs, flush=False, on_bits=True, complex_fn=complex_polar.abs_),
    ),
    Unary("Acos", Op.ACOS, FLOAT_OR_COMPLEX, math=Math(np.arccos)),
    Unary("Acosh", Op.ACOSH, FLOAT_OR_COMPLEX, math=Math(np.arccosh)),
    Unary("Asin", Op.ASIN, FLOAT_OR_COMPLEX, math=Math(np.arcsin)),
    Unary("Asinh", Op.ASINH, FLOAT_OR_COMPLEX, math=Math(np.arcsinh)),
    Unary("Atanh", Op.ATANH, FLOAT_OR_COMPLEX, math=Math(np.arctanh)),
    # no complex cbrt in XLA's backends; subnormal inputs by XLA:CPU's rule, not flushed
    Unary("Cbrt", Op.CBRT, FLOAT, math=Math(subnormal_inputs.cbrt, flush=False, libm=True)),
    Unary("Ceil", Op.CEIL, FLOAT, math=Math(np.ceil)),
    Unary("Clz", Op.CLZ, INTEGRAL, math=by_width(bits.count_leading_zeros)),
    Unary("Cos", Op.COS, FLOAT_OR_COMPLEX, math=Math(np.cos, libm=True, complex_fn=complex_functions.cos)),
    Unary("Cosh", Op.COSH, FLOAT_OR_COMPLEX, math=Math(np.cosh)),
    Unary("Erf", Op.ERF, FLOAT, math=Math(xla_erf.erf, libm=True)),
    Unary("Exp", Op.EXP, FLOAT_OR_COMPLEX, math=Math(numerics.exp, complex_fn=complex_functions.exp)),
    Unary(
        "Expm1",
        Op.EXPM1,
        FLOAT_OR_COMPLEX,
        math=Math(xla_expm1.expm1, typed=True, complex_fn=complex_functions.expm1),
    ),
    Unary("Floor", Op.FLOOR, FLOAT, math=Math(np.floor)),
    Unary("Imag", Op.IMAG, FLOAT_OR_COMPLEX, "real", math=Math(np.imag, flush=False, on_bits=True)),
    Unary("IsFinite", Op.IS_FINITE, FLOAT, "pred", math=Math(np.isfinite, flush=False, on_bits=True)),
    Unary("Log", Op.LOG, FLOAT_OR_COMPLEX, math=Math(xla_log.log, complex_fn=complex_expanded.log)),
    Unary("Log1p", Op.LOG1P, FLOAT_OR_COMPLEX, math=Math(xla_log.log1p, complex_fn=complex_expanded.log1p)),
    Unary(
        "Logistic",
        Op.LOGISTIC,
        FLOAT_OR_COMPLEX,
        math=Math(xla_exp.logistic, typed=True, complex_fn=complex_functions.logistic),
    ),
    Unary("Neg", Op.NEGATE, ARITHMETIC, math=Math(np.negative, flush=False, on_bits=True)),
    Unary("Not", Op.NOT, PRED_OR_INTEGRAL, math=Math(numerics.logical_not)),
    Unary("PopulationCount", Op.POPULATION_COUNT, INTEGRAL, math=by_width(bits.population_count)),
    Unary("Real", Op.REAL, FLOAT_OR_COMPLEX, "real", math=Math(np.real, flush=False, on_bits=True)),
    Unary("Round", Op.ROUND_NEAREST_AFZ, FLOAT, math=Math(numerics.round_half_away)),
    Unary("RoundNearestEven", Op.ROUND_NEAREST_EVEN, FLOAT, math=Math(np.rint)),
    Unary("Rsqrt", Op.RSQRT, FLOAT_OR_COMPLEX, math=Math(numerics.rsqrt, complex_fn=complex_polar.rsqrt)),
    Unary("Sign", Op.SIGN, SIGNED, math=Math(numerics.sign, selects=True, complex_fn=complex_polar.sign)),
    Unary("Sin", Op.SIN, FLOAT_OR_COMPLEX, math=Math(np.sin, libm=True, complex_fn=complex_functions.sin)),
    Unary("Sinh", Op.SINH, FLOAT_OR_COMPLEX, math=Math(np.sinh)),
    Unary("Sqrt", Op.SQRT, FLOAT_OR_COMPLEX, math=Math(np.sqrt, complex_fn=complex_expanded.sqrt)),
    Unary("Tan", Op.TAN, FLOAT_OR_COMPLEX, math=Math(np.tan, libm=True, complex_fn=complex_functions.tan)),
    Unary(
        "Tanh",
        Op.TANH,
        FLOAT_OR_COMPLEX,
        math=Math(xla_tanh.tanh, **FLUSHES_ITSELF, complex_fn=complex_functions.tanh),
    ),
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


@builder_function
def Conj(operand: XlaOp) -> XlaOp:
    """The complex conjugate: Complex(Real(x), Neg(Imag(x))), as XlaBuilder builds it."""
    f = BUILDERS
    return f["Complex"](f["Real"](operand), f["Neg"](f["Imag"](operand)))  # type: ignore[no-any-return]


from . import binary_ops, convert, ternary  # noqa: E402, F401  (the rest of the elementwise family)
