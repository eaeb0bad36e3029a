"""XLA:CPU's own exp, and logistic through it, bit for bit (not the C library's: XLA emits these
as LLVM IR, and LLVM fuses its multiply-adds into FMAs).

f32 (f16 and bf16 computed in f32 and rounded once): Cephes' exp as Eigen writes it. The
argument is clamped to [-87.8, 88.8]; n = floor(x*log2(e) + 1/2) (an FMA), clamped to
[-127, 127]; r = x - n*C1 - n*C2 (ln 2 split in two, two FMAs); exp(r) = 1 + r + r^2 * p(r), p
of degree 5 by Horner's rule in FMAs; the result is that times 2^n built from its exponent bits
(n = -127 gives the bits of +0, so exp(-87.8) is 0).

f64: the rational form of Cephes' exp. The argument is clamped to [-708.39, 709.78]; n and
g = x - n*C1 - n*C2 as above (FMAs); with g2 = g*g, P = g * p(g2) (degree 2) and Q = q(g2)
(degree 3), exp(g) = 1 + 2P/(Q - P); the result is scaled by 2^n in four factors (Eigen's
ldexp: 2^(n>>2) three times, then the rest). Arguments below -708.39 give 0, above 709.78 inf.

logistic: XLA expands it into 1 / (1 + exp(-x)), each op in the element type (f16 rounds after
every op; bf16 computes in f32, rounded once, as XLA normalizes bf16 arithmetic to f32).

Where the reproduction needs an FMA of f32 values, the product and the sum are formed in f64,
where only a sum lying on a midpoint between two f32 values can round differently from one
rounding; those few elements are recomputed by hlo.numerics.fma. Each step of the reduction
that is exact in f64 (n*C1 and the subtraction of n*C2 for f32, n*C1 for f64) is computed
there without an FMA. Arrays are computed in blocks that stay in the cache."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..dtypes import PrimitiveType
from .fma import fma

BLOCK = 1 << 15  # elements per block: a block's temporaries stay in the core's L2


def f32(bits: int) -> np.float32:
    return np.float32(np.array(bits, np.uint32).view(np.float32)[()])


def f64(bits: int) -> np.float64:
    return np.float64(np.array(bits, np.uint64).view(np.float64)[()])


# f32: the clamp, log2(e), ln 2 = C1 + C2 (C1 with few bits), and p's coefficients, highest first
LO32, HI32 = np.float32(-87.8), np.float32(88.8)
LOG2E32, C1_32, C2_32 = f32(0x3FB8AA3B), f32(0x3F318000), f32(0xB95E8083)
P32 = tuple(f32(b) for b in (0x39506967, 0x3AB743CE, 0x3C088908, 0x3D2AA9C1, 0x3E2AAAAA, 0x3F000000))
# f64: the clamp, log2(e), ln 2 = C1 + C2, and the rational form's p and q, highest first
LO64, HI64 = f64(0xC086232BDD7ABCD2), f64(0x40862E42FEFA39EF)
LOG2E64, C1_64, C2_64 = f64(0x3FF71547652B82FE), f64(0x3FE62E4000000000), f64(0x3EB7F7D1CF79ABCA)
P64 = (f64(0x3F2089CDD5E44BE8), f64(0x3F9F06D10CCA2C7E), 1.0)
Q64 = (f64(0x3EC92EB6BC365FA0), f64(0x3F64AE39B508B6C0), f64(0x3FCD17099887E074), 2.0)


def blocked(fn: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """fn over x's elements, a block at a time (fn: flat array -> flat array of its dtype)."""
    flat = np.ascontiguousarray(x).reshape(-1)
    if flat.size <= BLOCK:
        return fn(flat).reshape(x.shape)
    out = np.empty_like(flat)
    for start in range(0, flat.size, BLOCK):
        out[start : start + BLOCK] = fn(flat[start : start + BLOCK])
    return out.reshape(x.shape)


def fma32(a: np.ndarray, b: np.ndarray | np.float32, c: np.ndarray | np.float32) -> np.ndarray:
    """a*b + c of f32 values rounded once (hlo.numerics.fma)."""
    return fma(a, np.asarray(b, np.float32), np.asarray(c, np.float32))


def _exp32(x: np.ndarray) -> np.ndarray:
    z = np.minimum(np.maximum(x, LO32), HI32)  # (NaN stays NaN, as XLA's selects keep it)
    wide = z.astype(np.float64)
    # n = floor(fma(z, log2e, 1/2)): the f64 sum is exact wherever the f32 one is near an integer
    n = np.floor((wide * np.float64(LOG2E32) + 0.5).astype(np.float32))
    np.clip(n, -127, 127, out=n)
    n_wide = n.astype(np.float64)
    r = (wide - n_wide * np.float64(C1_32)).astype(np.float32)  # exact in f64: one rounding
    r = (r.astype(np.float64) - n_wide * np.float64(C2_32)).astype(np.float32)  # exact in f64
    p = fma32(r, P32[0], P32[1])
    for c in P32[2:]:
        p = fma32(p, r, c)
    y = fma32(p, r * r, r) + np.float32(1)
    with np.errstate(invalid="ignore"):
        scale = ((n.astype(np.int32) + 127) << 23).view(np.float32)  # 2^n; n = -127: +0
    return y * scale  # type: ignore[no-any-return]


def _fma64(a: np.ndarray, b: np.ndarray | float, c: np.ndarray | float) -> np.ndarray:
    return fma(a, np.float64(b), np.float64(c))


def _exp64(x: np.ndarray) -> np.ndarray:
    z = np.maximum(np.minimum(x, HI64), LO64)
    t = z * LOG2E64 + 0.5
    n = np.floor(t)
    # fma(z, log2e, 1/2) and the two roundings differ by an ulp at most: only near an integer
    # can their floors differ
    near = np.abs(t - np.round(t)) <= (np.abs(t) + 1.0) * 2.0**-50
    if near.any():
        n[near] = np.floor(_fma64(z[near], LOG2E64, 0.5))
    g = _fma64(n, -C2_64, z - n * C1_64)  # (n*C1 and the difference are exact; n's NaN kept)
    g2 = g * g
    p = _fma64(_fma64(g2, P64[0], P64[1]), g2, P64[2]) * g
    q = _fma64(_fma64(_fma64(g2, Q64[0], Q64[1]), g2, Q64[2]), g2, Q64[3])
    y = 2.0 * (p / (q - p)) + 1.0
    with np.errstate(invalid="ignore"):
        e = np.clip(n.astype(np.int64), -2099, 2099)  # (NaN: the conversion's minimum)
    b = e >> 2
    one = np.int64(0x3FF0000000000000)
    factor = ((b << 52) + one).view(np.float64)
    result: np.ndarray = y * factor * factor * factor * (((e - 3 * b) << 52) + one).view(np.float64)
    result[x < LO64] = 0.0
    result[x > HI64] = np.inf
    return result


def exp(x: np.ndarray) -> np.ndarray:
    """XLA:CPU's exp of an f32 or f64 array (see the module's docstring); large arrays as machine
    code where llvmlite is installed (hlo.numerics.xla_exp_loop)."""
    from . import xla_exp_loop

    if xla_exp_loop.takes(x.size):
        return xla_exp_loop.apply("exp", x)
    with np.errstate(all="ignore"):
        return blocked(_exp32 if x.dtype == np.float32 else _exp64, x)


def logistic(x: np.ndarray, t: PrimitiveType) -> np.ndarray:
    """1 / (1 + exp(-x)) of x in its working type (f32 for f16 and bf16); f16 rounds each step
    to f16, as XLA:CPU computes f16 arithmetic."""
    if x.dtype.kind == "c":
        from .numerics import exp as complex_exp

        return 1 / (1 + complex_exp(-x))  # type: ignore[no-any-return]
    from . import xla_exp_loop

    if t is not PrimitiveType.F16 and xla_exp_loop.takes(x.size):
        return xla_exp_loop.apply("logistic", x)
    one = x.dtype.type(1)
    e = exp(-x)
    if t is PrimitiveType.F16:
        sum_ = (one + e.astype(np.float16)).astype(np.float16)
        return (one / sum_.astype(x.dtype)).astype(np.float16).astype(x.dtype)  # type: ignore[no-any-return]
    return one / (one + e)  # type: ignore[no-any-return]
