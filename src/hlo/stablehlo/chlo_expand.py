"""CHLO's special functions as XLA's CHLO legalization expands them into elementwise HLO, operation
for operation (the order matters: it decides the float32 roundings), so that results match
XLA:CPU's. Narrow float types are computed in f32 and converted back, as XLA does.

erf_inv: Giles' single-precision polynomial in w = -log1p(-x^2) (two coefficient sets, w < 5 or
not); erfc: Cephes' rational approximations (1 - x T(x^2) for |x| < 1, exp(-x^2)/|x| P or R of
1/x^2 beyond); lgamma and digamma: Lanczos' approximation (g = 7, 9 terms) with Euler's
reflection below 1/2."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.attrs import ComparisonDirection as Dir
from ..ir.opcode import Opcode
from ..literal import Literal
from ..shape import Shape
from .convert import ComputationConverter
from .ops_table import Handler
from .syntax import Op

Op_ = Opcode


class Expr:
    """Elementwise HLO over one array shape, emitted into a computation."""

    def __init__(self, cc: ComputationConverter, shape: Shape, pos: int) -> None:
        self.cc, self.shape, self.pos = cc, shape, pos
        self.pred = Shape.array(PrimitiveType.PRED, shape.dimensions)
        self.constants: dict[float, str] = {}

    def const(self, value: float) -> str:
        """A splat of `value` (one per distinct value: XLA's conversion folds duplicates)."""
        key = float(np.array(value, dtype=self.shape.element_type.numpy_dtype))
        if key in self.constants and not math.isnan(key):
            return self.constants[key]
        self.constants[key] = self._const(value)
        return self.constants[key]

    def _const(self, value: float) -> str:
        scalar = Shape.array(self.shape.element_type, ())
        dtype = self.shape.element_type.numpy_dtype
        literal = Literal(scalar, np.array(value, dtype=dtype))
        c = self.cc.emit(Op_.CONSTANT, (), scalar, {"literal": literal}, self.pos)
        if not self.shape.dimensions:
            return c
        return self.cc.emit(Op_.BROADCAST, (c,), self.shape, {"dimensions": ()}, self.pos)

    def op(self, opcode: Opcode, *xs: str) -> str:
        return self.cc.emit(opcode, xs, self.shape, None, self.pos)

    def add(self, a: str, b: str) -> str:
        return self.op(Op_.ADD, a, b)

    def sub(self, a: str, b: str) -> str:
        return self.op(Op_.SUBTRACT, a, b)

    def mul(self, a: str, b: str) -> str:
        return self.op(Op_.MULTIPLY, a, b)

    def div(self, a: str, b: str) -> str:
        return self.op(Op_.DIVIDE, a, b)

    def cmp(self, direction: Dir, a: str, b: str) -> str:
        return self.cc.emit(Op_.COMPARE, (a, b), self.pred, {"direction": direction}, self.pos)

    def select(self, p: str, a: str, b: str) -> str:
        return self.cc.emit(Op_.SELECT, (p, a, b), self.shape, None, self.pos)

    def poly(self, x: str, coefficients: tuple[float, ...]) -> str:
        """Horner's rule, highest coefficient first: ((c0 x + c1) x + c2) ..."""
        p = self.const(coefficients[0])
        for c in coefficients[1:]:
            p = self.add(self.mul(p, x), self.const(c))
        return p


def upcast(fn: Callable[[Expr, str], str]) -> Handler:
    """Run `fn` in f32 for narrower float types (converting in and out), as XLA does."""

    def handler(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
        shape = op.result_types[0]
        x = ins[0]
        narrow = shape.element_type.bit_width < 32
        if narrow:
            shape = Shape.array(PrimitiveType.F32, shape.dimensions)
            x = cc.emit(Op_.CONVERT, (x,), shape, None, op.pos)
        out = fn(Expr(cc, shape, op.pos), x)
        if narrow:
            out = cc.emit(Op_.CONVERT, (out,), op.result_types[0], None, op.pos)
        return [out]

    return handler


def f32_only(name: str, fn: Callable[[Expr, str], str]) -> Handler:
    inner = upcast(fn)

    def handler(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
        if op.result_types[0].element_type is PrimitiveType.F64:
            raise cc.mc.error(f"chlo.{name} of f64 is not supported yet (f32 and narrower are)", op.name_pos)
        return inner(cc, op, ins)

    return handler


# -- erf_inv --------------------------------------------------------------------------------------
_ERFINV_SMALL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                 -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)  # fmt: skip
_ERFINV_LARGE = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                 -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)  # fmt: skip


def erf_inv(e: Expr, x: str) -> str:
    w = e.op(Op_.NEGATE, e.op(Op_.LOG1P, e.mul(x, e.op(Op_.NEGATE, x))))
    small = e.cmp(Dir.LT, w, e.const(5.0))
    w = e.select(small, e.sub(w, e.const(2.5)), e.sub(e.op(Op_.SQRT, w), e.const(3.0)))

    def coefficient(i: int) -> str:
        return e.select(small, e.const(_ERFINV_SMALL[i]), e.const(_ERFINV_LARGE[i]))

    p = coefficient(0)
    for i in range(1, 9):
        p = e.add(coefficient(i), e.mul(p, w))
    result = e.mul(p, x)
    at_one = e.cmp(Dir.EQ, e.op(Op_.ABS, x), e.const(1.0))
    return e.select(at_one, e.mul(x, e.const(math.inf)), result)


# -- erfc -----------------------------------------------------------------------------------------
_ERFC_P = (2.326819970068386e-2, -1.387039388740657e-1, 3.687424674597105e-1, -5.824733027278666e-1,
           6.210004621745983e-1, -4.944515323274145e-1, 3.404879937665872e-1, -2.741127028184656e-1,
           5.638259427386472e-1)  # fmt: skip
_ERFC_R = (-1.047766399936249e1, 1.297719955372516e1, -7.495518717768503e0,
           2.921019019210786e0, -1.015265279202700e0, 4.218463358204948e-1,
           -2.820767439740514e-1, 5.641895067754075e-1)  # fmt: skip
_ERF_T = (7.853861353153693e-5, -8.010193625184903e-4, 5.188327685732524e-3, -2.685381193529856e-2,
          1.128358514861418e-1, -3.761262582423300e-1, 1.128379165726710e0)  # fmt: skip
_MAXLOG = 88.72283905206835


def _erfc_large(e: Expr, x: str) -> str:
    x2 = e.mul(x, x)
    z = e.op(Op_.NEGATE, x2)
    ax = e.op(Op_.ABS, x)
    one = e.const(1.0)
    inv_x2 = e.div(one, x2)
    exp_z = e.op(Op_.EXP, z)
    scaled = e.mul(exp_z, e.div(one, ax))
    two = e.const(2.0)
    below_two = e.cmp(Dir.LT, ax, two)
    p = e.poly(inv_x2, _ERFC_P)
    r = e.poly(inv_x2, _ERFC_R)
    approx = e.mul(scaled, e.select(below_two, p, r))
    zero = e.const(0.0)
    clamped = e.select(e.cmp(Dir.LT, z, e.const(-_MAXLOG)), zero, approx)
    negative = e.cmp(Dir.LT, x, zero)
    return e.select(negative, e.sub(two, clamped), clamped)


def erfc(e: Expr, x: str) -> str:
    large = _erfc_large(e, x)
    one = e.const(1.0)
    small = e.sub(one, e.mul(x, e.poly(e.mul(x, x), _ERF_T)))
    return e.select(e.cmp(Dir.LT, e.op(Op_.ABS, x), one), small, large)


# -- lgamma, digamma ------------------------------------------------------------------------------
_G = 7.0
_BASE = 0.99999999999980993227684700473478
_LANCZOS = (676.520368121885098567009190444019, -1259.13921672240287047156078755283,
            771.3234287776530788486528258894, -176.61502916214059906584551354,
            12.507343278686904814458936853, -0.13857109526572011689554707,
            9.984369578019570859563e-6, 1.50563273514931155834e-7)  # fmt: skip


def _reflect(e: Expr, x: str) -> tuple[str, str, str, str]:
    """z = -x below 1/2 (where the reflection formula is used), x - 1 elsewhere."""
    half = e.const(0.5)
    reflect = e.cmp(Dir.LT, x, half)
    one = e.const(1.0)
    z = e.select(reflect, e.op(Op_.NEGATE, x), e.sub(x, one))
    return half, reflect, one, z


def _log_t(e: Expr, z: str) -> tuple[str, str]:
    g_half = e.const(_G + 0.5)
    t = e.add(g_half, z)
    log_t = e.add(e.const(math.log(_G + 0.5)), e.op(Op_.LOG1P, e.div(z, g_half)))
    return t, log_t


def lgamma(e: Expr, x: str) -> str:
    half, reflect, one, z = _reflect(e, x)
    a = e.const(_BASE)
    for i, c in enumerate(_LANCZOS):
        a = e.add(a, e.div(e.const(c), e.add(z, e.const(i + 1))))
    t, log_t = _log_t(e, z)
    r = e.mul(e.sub(e.add(z, half), e.div(t, log_t)), log_t)
    value = e.add(e.add(e.const((math.log(2) + math.log(math.pi)) / 2), r), e.op(Op_.LOG, a))
    ax = e.op(Op_.ABS, x)
    frac = e.sub(ax, e.op(Op_.FLOOR, ax))
    frac = e.select(e.cmp(Dir.LT, half, frac), e.sub(one, frac), frac)
    denom = e.op(Op_.LOG, e.op(Op_.SIN, e.mul(e.const(math.pi), frac)))
    reflected = e.sub(e.sub(e.const(math.log(math.pi)), denom), value)
    finite = e.cc.emit(Op_.IS_FINITE, (denom,), e.pred, None, e.pos)
    reflected = e.select(finite, reflected, e.op(Op_.NEGATE, denom))
    value = e.select(reflect, reflected, value)
    is_inf = e.cmp(Dir.EQ, e.op(Op_.ABS, x), e.const(math.inf))
    return e.select(is_inf, e.const(math.inf), value)


def digamma(e: Expr, x: str) -> str:
    _, reflect, _, z = _reflect(e, x)
    zero = e.const(0.0)
    a, a_prime = e.const(_BASE), zero
    for i, c in enumerate(_LANCZOS):
        coefficient = e.const(c)
        term = e.add(z, e.const(i + 1))
        a_prime = e.sub(a_prime, e.div(coefficient, e.mul(term, term)))
        a = e.add(a, e.div(coefficient, term))
    t, log_t = _log_t(e, z)
    value = e.sub(e.add(log_t, e.div(a_prime, a)), e.div(e.const(_G), t))
    reduced = e.add(x, e.op(Op_.ABS, e.op(Op_.FLOOR, e.add(x, e.const(0.5)))))
    pi = e.const(math.pi)
    pi_x = e.mul(pi, reduced)
    reflected = e.sub(value, e.div(e.mul(pi, e.op(Op_.COS, pi_x)), e.op(Op_.SIN, pi_x)))
    value = e.select(reflect, reflected, value)
    pole = e.cc.emit(
        Op_.AND, (e.cmp(Dir.LE, x, zero), e.cmp(Dir.EQ, x, e.op(Op_.FLOOR, x))), e.pred, None, e.pos
    )
    return e.select(pole, e.const(math.nan), value)


EXPANSIONS: dict[str, Handler] = {
    "erf_inv": f32_only("erf_inv", erf_inv),
    "erfc": f32_only("erfc", erfc),
    "lgamma": upcast(lgamma),
    "digamma": upcast(digamma),
}
