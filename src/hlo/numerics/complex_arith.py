"""Complex multiply and divide as XLA:CPU computes them, bit for bit.

XLA's elemental emitter writes both as plain float arithmetic on the parts, and LLVM's code
generator fuses a multiply whose only use is an add or a subtract into that add (an FMA, one
rounding): for `fadd(p, q)` the first operand's multiply if it is one, else the second's; for
`fsub(p, q)` p's multiply as `fma(x, y, -q)`, else q's as `fma(-y, z, p)`. NumPy's complex
loops round differently (and their SIMD forms differ between builds), so the parts are computed
here with exact FMAs (hlo.numerics.fma).

Every intermediate is flushed as XLA:CPU's FTZ/DAZ modes would (hlo.numerics.complex_steps).
"""

from __future__ import annotations

import numpy as np

from .complex_steps import Steps, negated, parts
from .numerics import make_complex


def multiply(x: np.ndarray, y: np.ndarray, flush: bool) -> np.ndarray:
    """(a + bi)(c + di): real fma(a, c, -(b d)), imaginary fma(b, c, a d)."""
    return _multiply(x, y, flush, invariant=False)


def multiply_by_invariant(x: np.ndarray, y: np.ndarray, flush: bool) -> np.ndarray:
    """x * y where y is the same along the innermost loop of XLA:CPU's kernel (a broadcast of a
    scalar or of a column): LLVM then fuses the other product of the imaginary part, fma(a, d,
    b c)."""
    return _multiply(x, y, flush, invariant=True)


def _multiply(x: np.ndarray, y: np.ndarray, flush: bool, invariant: bool) -> np.ndarray:
    step = Steps(flush)
    with np.errstate(all="ignore"):
        (a, b), (c, d) = parts(x, step), parts(y, step)
        real = step.fma(a, c, negated(step(b * d)))
        imag = step.fma(a, d, step(b * c)) if invariant else step.fma(b, c, step(a * d))
        return make_complex(real, imag).astype(np.result_type(x, y), copy=False)


def divide(x: np.ndarray, y: np.ndarray, flush: bool) -> np.ndarray:
    """(a + bi)/(c + di) by Smith's method as XLA writes it (both ratios computed, the one with
    |c| < |d| picked), then C99 Annex G's fixes where that gives NaN in both parts: a zero
    divisor (infinities of the dividend's signs), an infinite dividend over a finite divisor,
    a finite dividend over an infinite divisor (signed zeros)."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        (a, b), (c, d) = parts(x, step), parts(y, step)
        real, imag = divide_parts(a, b, c, d, step)
        return make_complex(real, imag).astype(np.result_type(x, y), copy=False)


def divide_parts(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray, step: Steps
) -> tuple[np.ndarray, np.ndarray]:
    """The parts of (a + bi)/(c + di) (see `divide`), from parts flushed already."""
    # |c| < |d|: t = c/d, (a t + b)/(t c + d) and (b t - a)/(t c + d)
    t = step(c / d)
    den = step.fma(t, c, d)
    real_d = step(step.fma(a, t, b) / den)
    imag_d = step(step.fma(b, t, negated(a)) / den)
    # else: s = d/c, (b s + a)/(s d + c) and (b - a s)/(s d + c)
    s = step(d / c)
    den = step.fma(s, d, c)
    real_c = step(step.fma(b, s, a) / den)
    imag_c = step(step.fma(negated(a), s, b) / den)
    by_d = np.abs(c) < np.abs(d)
    real, imag = np.where(by_d, real_d, real_c), np.where(by_d, imag_d, imag_c)
    return _annex_g(a, b, c, d, real, imag, step)


def _annex_g(
    a: np.ndarray,
    b: np.ndarray,
    c: np.ndarray,
    d: np.ndarray,
    real: np.ndarray,
    imag: np.ndarray,
    step: Steps,
) -> tuple[np.ndarray, np.ndarray]:
    """Where Smith's quotient is NaN in both parts: the cases of C99's Annex G, in XLA's order
    (a zero divisor first, then an infinite dividend, then an infinite divisor)."""
    both_nan = np.isnan(real) & np.isnan(imag)
    if not both_nan.any():
        return real, imag
    one, zero = np.ones((), a.dtype), np.zeros((), a.dtype)
    inf = np.array(np.inf, a.dtype)
    finite_c, finite_d = np.abs(c) != inf, np.abs(d) != inf  # (NaN: neither finite nor infinite)
    inf_a, inf_b = np.abs(a) == inf, np.abs(b) == inf
    # a finite dividend over an infinite divisor: zeros with the signs of the exact quotient
    inf_c, inf_d = np.abs(c) == inf, np.abs(d) == inf
    finite_ab = (np.abs(a) != inf) & (np.abs(b) != inf) & ~np.isnan(a) & ~np.isnan(b)
    to_zero = finite_ab & (inf_c | inf_d)
    unit_c, unit_d = np.copysign(np.where(inf_c, one, zero), c), np.copysign(np.where(inf_d, one, zero), d)
    zero_real = step(step.fma(a, unit_c, step(b * unit_d)) * zero)
    zero_imag = step(step.fma(b, unit_c, negated(step(a * unit_d))) * zero)
    # an infinite dividend over a finite divisor: infinities
    to_inf = (inf_a | inf_b) & finite_c & finite_d & ~np.isnan(c) & ~np.isnan(d)
    unit_a, unit_b = np.copysign(np.where(inf_a, one, zero), a), np.copysign(np.where(inf_b, one, zero), b)
    inf_real = step(step.fma(unit_a, c, step(unit_b * d)) * inf)
    inf_imag = step(step.fma(unit_b, c, negated(step(unit_a * d))) * inf)
    # a zero divisor: the dividend's parts times an infinity of c's sign
    by_zero = ~(np.isnan(a) & np.isnan(b)) & (c == 0) & (d == 0)
    signed_inf = np.copysign(inf, c)
    fixed_real = np.where(to_zero, zero_real, real)
    fixed_imag = np.where(to_zero, zero_imag, imag)
    fixed_real = np.where(to_inf, inf_real, fixed_real)
    fixed_imag = np.where(to_inf, inf_imag, fixed_imag)
    fixed_real = np.where(by_zero, step(signed_inf * a), fixed_real)
    fixed_imag = np.where(by_zero, step(signed_inf * b), fixed_imag)
    return np.where(both_nan, fixed_real, real), np.where(both_nan, fixed_imag, imag)
