"""Complex sqrt, log and log1p as XLA:CPU computes them, bit for bit.

XLA rewrites these three into real ops before it compiles them (StableHLO's complex math
expander: accurate forms that avoid overflow and cancellation, with Dekker's exact squares and
Knuth's two-sums), then simplifies and fuses the result. Each step below is one op of that
rewritten program, rounded in the component type with its flushing; a multiply whose only use
is an add is an FMA, as LLVM emits it (hlo.numerics.complex_steps). The real log, log1p and
atan2 are hlo's real ops (XLA:CPU's log approximation, the C library's atan2).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import complex_steps as real_ops
from .complex_steps import Steps, negated, parts
from .numerics import make_complex

# Per component type: Dekker's splitter, log1p's threshold for the scaled form (sqrt(max) / 100),
# and sqrt's constants sqrt((1 + sqrt 2) / 2), sqrt 2, 1 / sqrt 2 and 1 / (2 sqrt((1 + sqrt 2) / 2)).
_SPLIT = {np.dtype(np.float32): "4097", np.dtype(np.float64): "134217729"}
_LARGE = {np.dtype(np.float32): "1.84467419e+17", np.dtype(np.float64): "1.3407807929942595e+152"}
_ROOT_CONSTANTS = {
    np.dtype(np.float32): ("1.09868407", "1.41421354", "0.707106769", "0.455089867"),
    np.dtype(np.float64): (
        "1.0986841134678098",
        "1.4142135623730951",
        "0.70710678118654746",
        "0.45508986056222733",
    ),
}


def _square_error(v: np.ndarray, square: np.ndarray, step: Steps) -> np.ndarray:
    """v*v - fl(v*v), exactly: v split into high and low halves (Dekker)."""
    big = step(v * v.dtype.type(_SPLIT[v.dtype]))
    high = step(big + step(v - big))
    low = step(v - high)
    cross = step(high * low)
    error = step(step(step.fma(high, high, negated(square)) + cross) + cross)
    return step.fma(low, low, error)


def _sum_error(a: np.ndarray, b: np.ndarray, total: np.ndarray, step: Steps) -> np.ndarray:
    """a + b - total where total = fl(a + b), exactly (Knuth's two-sum)."""
    b_part = step(total - a)
    return step(step(a - step(total - b_part)) + step(b - b_part))


def _scaled_log(mx: np.ndarray, mn: np.ndarray, step: Steps) -> np.ndarray:
    """log(mx) + log1p((mn/mx)^2)/2: log|z| without overflowing the squares."""
    t = mx.dtype.type
    ratio = step(mn / mx)
    ratio = np.where(mn == mx, t(1), step(ratio * ratio))
    return step.fma(step.real(real_ops.log1p, ratio), t(0.5), step.real(real_ops.log, mx))


def log(z: np.ndarray, flush: bool) -> np.ndarray:
    """log|z| + i atan2(y, x); near |z| = 1, log1p of x^2 + y^2 - 1 summed exactly (the larger
    square minus one first), halved."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        x, y = parts(z, step)
        t = x.dtype.type
        y2, x2 = step(y * y), step(x * x)
        y_larger = y2 > x2
        big, small = np.where(y_larger, y2, x2), np.where(y_larger, x2, y2)
        less_one = step(big + t(-1))
        first = step(less_one + small)
        y_error = _square_error(y, y2, step)
        second = step(first + y_error)
        x_error = _square_error(x, x2, step)
        third = step(second + x_error)
        error = step(step(big - big) + step(small - step(first - less_one)))
        error = step(error + step(y_error - step(second - first)))
        error = step(error + step(x_error - step(third - second)))
        total = step(third + error)
        near = step(step.real(real_ops.log1p, total) * t(0.5))
        ax, ay = np.abs(x), np.abs(y)
        far = _scaled_log(np.maximum(ax, ay), np.minimum(ax, ay), step)
        real = np.where(np.abs(total) < t(0.5), near, far)
        imag = step.library("atan2", np.arctan2, z.imag.copy(), z.real.copy())
        return make_complex(real, imag).astype(z.dtype, copy=False)


def log1p(z: np.ndarray, flush: bool) -> np.ndarray:
    """log|1 + z| + i atan2(y, x + 1): for large z the scaled log of |z|; near z = -1 half the
    log of |1 + z|^2; else half of log1p(2x + x^2 + y^2) with the sum and squares exact."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        x, y = parts(z, step)
        t = x.dtype.type
        ax, ay = np.abs(x), np.abs(y)
        mx = np.maximum(ax, ay)
        large = _scaled_log(mx, np.minimum(ax, ay), step)
        x1 = step(x + t(1))
        y2 = step(y * y)
        close = step(step.real(real_ops.log, step.fma(x1, x1, y2)) * t(0.5))
        two_x = step(x + x)
        first = step(two_x + y2)
        x2 = step(x * x)
        second = step(first + x2)
        y_error = _square_error(y, y2, step)
        third = step(second + y_error)
        x_error = _square_error(x, x2, step)
        fourth = step(third + x_error)
        error = step(_sum_error(two_x, y2, first, step) + _sum_error(first, x2, second, step))
        error = step(error + _sum_error(second, y_error, third, step))
        error = step(error + _sum_error(third, x_error, fourth, step))
        general = step(step.real(real_ops.log1p, step(fourth + error)) * t(0.5))
        near_minus_one = step(np.abs(x1) + ay) < t(0.2)
        real = np.where(near_minus_one, close, general)
        real = np.where(mx > t(_LARGE[x.dtype]), large, real)
        imag = step.library("atan2", np.arctan2, z.imag.copy(), x1)
        return make_complex(real, imag).astype(z.dtype, copy=False)


def _hypot(mx: np.ndarray, mn: np.ndarray, step: Steps) -> np.ndarray:
    """sqrt(mx^2 + mn^2) for mx >= mn >= 0 as mx sqrt(1 + r^2), r = mn/mx (mx + mx r^2/2 where
    that square root rounds to one; mx sqrt 2 where mx == mn)."""
    t = mx.dtype.type
    sqrt2 = t(_ROOT_CONSTANTS[mx.dtype][1])
    ratio = step(mn / mx)
    r2 = step(ratio * ratio)
    root = step(np.sqrt(step(r2 + t(1))))
    tiny = (root == t(1)) & (r2 > t(0))
    value = np.where(tiny, step.fma(step(mx * r2), t(0.5), mx), step(mx * root))
    return np.where(mx == mn, step(mx * sqrt2), value)


def sqrt(z: np.ndarray, flush: bool) -> np.ndarray:
    """The principal square root: the part of larger magnitude sqrt((|z| + |x|)/2), the other
    y/(2 that); where that overflows or vanishes, a form scaled by sqrt|x| or sqrt|y|; signs
    from x's and y's."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        x, y = parts(z, step)
        t = x.dtype.type
        c1, sqrt2, half_sqrt2, c2 = (t(c) for c in _ROOT_CONSTANTS[x.dtype])
        ax, ay = np.abs(x), np.abs(y)
        same = ax == ay
        x_smaller, x_larger = ax < ay, ax > ay
        u = np.where(same, t(1), np.where(x_smaller, step(ax / ay), step(ay / ax)))
        root_x, root_y = step(np.sqrt(ax)), step(np.sqrt(ay))
        modulus = _hypot(np.maximum(ax, ay), np.minimum(ax, ay), step)
        s = step(np.sqrt(step.fma(ax, t(0.5), step(modulus * t(0.5)))))
        unscaled = (s == 0) | (s == np.inf)  # then the scaled forms
        au = np.abs(u)
        hu = _hypot(np.maximum(au, t(1)), np.minimum(au, t(1)), step)
        root_1 = step(np.sqrt(step(hu + t(1))))
        root_u = step(np.sqrt(step(u + hu)))
        scaled = np.where(
            x_larger,
            step(root_x * step(root_1 * half_sqrt2)),
            step(root_y * step(root_u * half_sqrt2)),
        )
        first = np.where(same, step(root_x * c1), np.where(unscaled, scaled, s))
        ratio = np.where(same, t(1), np.where(x_smaller, step(root_x / root_y), step(root_y / root_x)))
        scaled = np.where(
            x_larger,
            step(step(root_y * ratio) / step(root_1 * sqrt2)),
            step(root_y / step(root_u * sqrt2)),
        )
        second = np.where(unscaled, scaled, step(ay / step(s * t(2))))
        second = np.where(same, step(root_y * c2), second)
        real = np.where(x >= 0, first, second)
        negative_y = y < 0
        imag = np.where(x < 0, _signed(first, negative_y), _signed(second, negative_y))
        return make_complex(real, imag).astype(z.dtype, copy=False)


def _signed(v: np.ndarray, negative: Any) -> np.ndarray:
    return np.where(negative, -v, v)
