"""Complex abs, power and atan2 as XLA:CPU computes them, bit for bit: XLA's elemental emitter
works in polar form, |z| as max * sqrt(1 + (min/max)^2) (min where that is NaN) and arg z as
the C library's atan2, with its own real exp and log (hlo.numerics.xla_exp, xla_log) and the C
library's pow, cos and sin; LLVM fuses a multiply whose only use is an add into an FMA
(hlo.numerics.complex_steps).
"""

from __future__ import annotations

import numpy as np

from . import complex_steps as real_ops
from .complex_arith import divide_parts
from .complex_steps import Steps, negated, parts
from .numerics import make_complex


def modulus(a: np.ndarray, b: np.ndarray, step: Steps) -> np.ndarray:
    """|a + bi| as XLA writes it: max * sqrt(1 + r^2), r = min/max (an FMA), min where that
    is NaN (both zero, or both infinite)."""
    ax, ay = np.abs(a), np.abs(b)
    mx, mn = np.maximum(ax, ay), np.minimum(ax, ay)
    ratio = step(mn / mx)
    value = step(mx * step(np.sqrt(step.fma(ratio, ratio, a.dtype.type(1)))))
    return np.where(np.isnan(value), mn, value)


def abs_(z: np.ndarray, flush: bool) -> np.ndarray:
    step = Steps(flush)
    with np.errstate(all="ignore"):
        return modulus(*parts(z, step), step)


def sign(z: np.ndarray, flush: bool) -> np.ndarray:
    """z / |z| part by part (so -0 keeps its sign and inf + 1j gives nan + 0j), and z itself
    where |z| is zero (a subnormal z comes back unchanged)."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        re, im = parts(z, step)
        magnitude = modulus(re, im, step)
        unit = make_complex(step(re / magnitude), step(im / magnitude)).astype(z.dtype, copy=False)
        return np.asarray(np.where(magnitude == 0, z, unit))


def rsqrt(z: np.ndarray, flush: bool) -> np.ndarray:
    """1/sqrt|z| (cos(-t/2) + i sin(-t/2)), t = arg z, 1/sqrt|z| as rsqrt(max) sqrt(rsqrt(1 +
    r^2)) (rsqrt(min) where NaN); signed zeros at infinities, inf + NaN i at zero. hlo's real
    rsqrt is 1/sqrt(x) where XLA:CPU's is the CPU's estimate refined (docs/SEMANTICS.md): equal
    within rounding, the cases at infinities and zero bit for bit."""
    from .numerics import rsqrt as real_rsqrt

    step = Steps(flush)
    with np.errstate(all="ignore"):
        re, im = parts(z, step)
        t = re.dtype.type
        ax, ay = np.abs(re), np.abs(im)
        mx, mn = np.maximum(ax, ay), np.minimum(ax, ay)
        ratio = step(mn / mx)
        inverse = step(real_rsqrt(step.fma(ratio, ratio, t(1))))
        magnitude = step(step(real_rsqrt(mx)) * step(np.sqrt(inverse)))
        magnitude = np.where(np.isnan(magnitude), step(real_rsqrt(mn)), magnitude)
        half = step(step.library("atan2", np.arctan2, z.imag.copy(), z.real.copy()) * t(-0.5))
        real = step(magnitude * step.real(real_ops.cos, half))
        imag = step(magnitude * step.real(real_ops.sin, half))
        infinite = ((ay == np.inf) & np.isnan(re)) | (ax == np.inf)
        real = np.where(infinite, np.copysign(t(0), re), real)
        imag = np.where(infinite, -np.copysign(t(0), im), imag)
        zero = (re == 0) & (im == 0)
        real, imag = np.where(zero, t(np.inf), real), np.where(zero, t(np.nan), imag)
        return make_complex(real, imag).astype(z.dtype, copy=False)


def power(x: np.ndarray, y: np.ndarray, flush: bool) -> np.ndarray:
    """(a + bi)^(c + di) = |x|^c e^(-d arg x) (cos q + i sin q), q = c arg x + d log|x|; then
    the special cases in XLA's order: 0^c (c >= 0, d = 0) is 1 for c = 0 else 0; x^0 = 1;
    1^y = 1; inf^c (d = 0) is inf for c > 0 and 0 for c < 0."""
    step = Steps(flush)
    dtype = np.result_type(x, y)
    with np.errstate(all="ignore"):
        (a, b), (c, d) = parts(x, step), parts(y, step)
        t = a.dtype.type
        m = modulus(a, b, step)
        angle = step.library("atan2", np.arctan2, x.imag.copy(), x.real.copy())
        grown = step(step.library("power", np.power, m, y.real.copy()))
        coefficient = step(grown * step.real(real_ops.exp, step(-d * angle)))
        q = step.fma(c, angle, step(d * step.real(real_ops.log, m)))
        real = step(coefficient * step.real(real_ops.cos, q))
        imag = step(coefficient * step.real(real_ops.sin, q))
        one, zero, inf = t(1), t(0), t(np.inf)

        def put(where: np.ndarray, re: np.floating, im: np.floating) -> None:
            nonlocal real, imag
            real, imag = np.where(where, re, real), np.where(where, im, imag)

        real_exponent = d == 0
        zero_base = (m == 0) & real_exponent & (c >= 0)
        real, imag = np.where(zero_base, np.where(c == 0, one, zero), real), np.where(zero_base, zero, imag)
        put((c == 0) & real_exponent, one, zero)
        put((a == 1) & (b == 0), one, zero)
        infinite_base = (a == inf) & (b == 0) & real_exponent
        put(infinite_base & (c > 0), inf, zero)
        put(infinite_base & (c < 0), zero, zero)
        return make_complex(real, imag).astype(dtype, copy=False)


def atan2(y: np.ndarray, x: np.ndarray, flush: bool) -> np.ndarray:
    """-i log((x + iy) / sqrt(x^2 + y^2)) in complex arithmetic, the square root in polar form
    (sqrt(max) (1 + r^2)^(1/4) with the C library's pow; half the angle), the log as
    log|w| + i arg w."""
    step = Steps(flush)
    dtype = np.result_type(x, y)
    with np.errstate(all="ignore"):
        (xr, xi), (yr, yi) = parts(x, step), parts(y, step)
        sum_r = step(_square(xr, xi, step)[0] + _square(yr, yi, step)[0])
        sum_i = step(_square(xr, xi, step)[1] + _square(yr, yi, step)[1])
        root_r, root_i = _polar_sqrt(sum_r, sum_i, step)
        num_r = step(xr + step.fma(yr, yr.dtype.type(0), negated(yi)))
        num_i = step(xi + step.fma(yi, yi.dtype.type(0), yr))
        q_r, q_i = divide_parts(num_r, num_i, root_r, root_i, step)
        log_m = step.real(real_ops.log, modulus(q_r, q_i, step))
        arg = step.library("atan2", np.arctan2, q_i, q_r)
        zero = yr.dtype.type(0)
        real = step.fma(log_m, zero, arg)
        imag = step.fma(arg, zero, negated(log_m))
        return make_complex(real, imag).astype(dtype, copy=False)


def _square(re: np.ndarray, im: np.ndarray, step: Steps) -> tuple[np.ndarray, np.ndarray]:
    """(re + i im)^2: fma(re, re, -im^2) + 2 i (im re)."""
    cross = step(im * re)
    return step.fma(re, re, negated(step(im * im))), step(cross + cross)


def _polar_sqrt(re: np.ndarray, im: np.ndarray, step: Steps) -> tuple[np.ndarray, np.ndarray]:
    """sqrt(w) = sqrt|w| (cos(t/2) + i sin(t/2)), t = arg w, with XLA's cases at infinities."""
    t = re.dtype.type
    ax, ay = np.abs(re), np.abs(im)
    mx, mn = np.maximum(ax, ay), np.minimum(ax, ay)
    ratio = step(mn / mx)
    quarter = step.library("power", np.power, step.fma(ratio, ratio, t(1)), np.full_like(ratio, 0.25))
    root = step(step(np.sqrt(mx)) * step(quarter))
    root = np.where(np.isnan(root), mn, root)
    half = step(step.library("atan2", np.arctan2, im, re) * t(0.5))
    sin = step.real(real_ops.sin, half)
    real = step(root * step.real(real_ops.cos, half))
    imag = np.where(sin == 0, t(0), step(root * sin))
    im_infinite, re_plus_inf, re_minus_inf = ay == np.inf, re == np.inf, re == -np.inf
    real = np.where(re_minus_inf & (ay != np.inf) & ~np.isnan(im), t(0), real)
    real = np.where(im_infinite | re_plus_inf, t(np.inf), real)
    imag = np.where(np.isnan(root), t(np.nan), imag)
    imag = np.where(im_infinite | re_minus_inf, np.copysign(t(np.inf), im), imag)
    zero = root == 0
    return np.where(zero, t(0), real), np.where(zero, t(0), imag)
