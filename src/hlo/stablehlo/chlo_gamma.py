"""lgamma, digamma, zeta and polygamma as XLA's CHLO legalization expands them (see
chlo_expand.py).

lgamma and digamma: Lanczos' approximation (g = 7, 9 terms) with Euler's reflection below 1/2.
zeta(x, q): Hurwitz's zeta by Euler-Maclaurin summation (ten terms of the series, then twelve
Bernoulli terms of the tail). polygamma(n, x): digamma for n = 0, else
(-1)^(n+1) n! zeta(n + 1, x)."""

from __future__ import annotations

import math

import numpy as np

from ..ir.attrs import ComparisonDirection as Dir
from ..ir.opcode import Opcode
from .chlo_expand import Expr, upcast
from .ops_table import Handler

Op_ = Opcode

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


# -- zeta, polygamma ------------------------------------------------------------------------------
# The tail's Bernoulli terms, B(2k) / (2k)! from the smallest (k = 12) to 1/12.
_ZETA = (-1.3954464685812522e-19, 5.5090028283602295e-18, -2.1748686985580617e-16,
         8.5860620562778452e-15, -3.3896802963225832e-13, 1.3382536530684679e-11,
         -5.2841901386874932e-10, 2.08767569878681e-08, -8.2671957671957675e-07,
         3.3068783068783071e-05, -0.0013888888888888889, 0.083333333333333329)  # fmt: skip
_TERMS = 10


def zeta(e: Expr, x: str, q: str) -> str:
    one = e.const(1.0)
    minus_x = e.op(Op_.NEGATE, x)
    a = q
    s = e.op(Op_.POWER, q, minus_x)
    for _ in range(1, _TERMS):
        a = e.add(a, one)
        s = e.add(s, e.op(Op_.POWER, a, minus_x))
    a = e.add(a, one)
    a_pow = e.op(Op_.POWER, a, minus_x)
    # The series has converged when the next term is below the sum's smallest subnormal step.
    tiny = float(np.finfo(e.shape.element_type.numpy_dtype).smallest_subnormal)
    converged = e.cmp(Dir.LT, e.op(Op_.ABS, a_pow), e.mul(e.op(Op_.ABS, s), e.const(tiny)))
    s_tail = e.add(s, e.div(e.mul(a_pow, a), e.sub(x, one)))
    inv_a2 = e.div(one, e.mul(a, a))
    t = e.const(_ZETA[0])
    for k, c in enumerate(_ZETA[1:], start=1):
        m = 24 - 2 * k
        factor = e.mul(e.add(x, e.const(float(m))), e.add(x, e.const(float(m - 1))))
        t = e.add(e.mul(factor, e.mul(inv_a2, t)), e.const(c))
    tail = e.mul(a_pow, e.add(e.mul(e.div(x, a), t), e.const(0.5)))
    value = e.select(converged, s, e.add(s_tail, tail))
    nan, inf, zero = e.const(math.nan), e.const(math.inf), e.const(0.0)
    value = e.select(e.cmp(Dir.LT, x, one), nan, value)
    q_nonpositive = e.cmp(Dir.LE, q, zero)
    x_fraction = e.cmp(Dir.NE, x, e.op(Op_.FLOOR, x))
    value = e.select(e.both(Op_.AND, q_nonpositive, x_fraction), nan, value)
    # At a pole of q (a non-positive integer): inf for even integer x, NaN otherwise.
    x_even = e.both(
        Op_.AND,
        e.cmp(Dir.EQ, x, e.op(Op_.FLOOR, x)),
        e.cmp(Dir.EQ, e.op(Op_.REMAINDER, x, e.const(2.0)), zero),
    )
    q_pole = e.both(Op_.AND, q_nonpositive, e.cmp(Dir.EQ, q, e.op(Op_.FLOOR, q)))
    value = e.select(q_pole, e.select(x_even, inf, nan), value)
    return e.select(e.cmp(Dir.EQ, x, one), inf, value)


def polygamma(e: Expr, n: str, x: str) -> str:
    zero, one, two = e.const(0.0), e.const(1.0), e.const(2.0)
    invalid = e.both(Op_.OR, e.cmp(Dir.NE, n, e.op(Op_.FLOOR, n)), e.cmp(Dir.LT, n, zero))
    sign = e.sub(e.mul(e.op(Op_.REMAINDER, n, two), two), one)
    n_plus_one = e.add(n, one)
    factorial = e.op(Op_.EXP, lgamma(e, n_plus_one))
    value = e.mul(e.mul(sign, factorial), zeta(e, n_plus_one, x))
    value = e.select(e.cmp(Dir.EQ, n, zero), digamma(e, x), value)
    return e.select(invalid, e.const(math.nan), value)


EXPANSIONS: dict[str, Handler] = {
    "lgamma": upcast(lgamma),
    "digamma": upcast(digamma),
    "zeta": upcast(zeta),
    "polygamma": upcast(polygamma),
}
