"""pow and cbrt of subnormal inputs as XLA:CPU computes them. Its implementations normalize a
subnormal argument by a multiplication, which the CPU's flush-to-zero mode turns into a zero,
and go on with the exponent they subtracted: what comes out is a fixed rule, read off XLA:CPU's
results (jaxlib 0.10.2; tests/golden/ops/exact_subnormal_inputs.npz, made by
tools/make_exactness_fixtures.py, random subnormals of both signs against every class of
exponent):

- f32 pow(x, y) with x subnormal is pow(+-2^-150, y), the sign of x kept: 2^(-150 y) rounded to
  f32, negated for an odd integer y when x < 0, NaN for a non-integer y when x < 0; a subnormal
  result is flushed to zero (pow of normal bases keeps subnormal results). bf16 bases go
  through f32 and follow it.
- f32 cbrt of any subnormal is -5.5951735e-16 (bits 0xa6214518), whatever its sign; f64 cbrt of a
  subnormal is a zero of its sign.
f64 pow of a subnormal base is close to pow(+-2^-1075, y) but not correctly rounded, and atan2
of subnormal operands has no such rule: both are left to libm (docs/SEMANTICS.md).
"""

from __future__ import annotations

import numpy as np

_F32_CBRT = np.uint32(0xA6214518).view(np.float32)


def _subnormal(x: np.ndarray) -> np.ndarray:
    return (x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)


def cbrt(x: np.ndarray) -> np.ndarray:
    """XLA:CPU's cbrt: libm's, and the rule above for subnormal inputs."""
    result = np.cbrt(x)
    if x.dtype not in (np.float32, np.float64):
        return result
    sub = _subnormal(x)
    if not sub.any():
        return result
    fixed = _F32_CBRT if x.dtype == np.float32 else np.copysign(np.zeros_like(x), x)
    return np.where(sub, fixed, result).astype(x.dtype, copy=False)


def power_of_subnormal_bases(a: np.ndarray, b: np.ndarray, result: np.ndarray) -> np.ndarray:
    """`result` (pow(a, b) of f32 operands) with the rule above where `a` is subnormal."""
    if a.dtype != np.float32:
        return result
    sub = _subnormal(a)
    if not sub.any():
        return result
    y = np.broadcast_to(b, result.shape).astype(np.float64)
    magnitude = np.exp2(-150.0 * y)
    whole = np.isinf(y) | (np.floor(y) == y)  # infinities count as even integers
    odd = whole & ~np.isinf(y) & (np.mod(y, 2) == 1)
    negative = np.broadcast_to(np.signbit(a), result.shape)
    ruled = np.where(negative, np.where(whole, np.where(odd, -magnitude, magnitude), np.nan), magnitude)
    with np.errstate(over="ignore"):
        ruled32 = ruled.astype(np.float32)
    ruled32 = np.where(
        np.abs(ruled32) < np.finfo(np.float32).tiny, np.copysign(np.float32(0), ruled32), ruled32
    )
    return np.where(np.broadcast_to(sub, result.shape), ruled32, result).astype(np.float32, copy=False)
