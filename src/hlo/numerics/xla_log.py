"""XLA:CPU's natural logarithm (`log`) and log(1 + x) (`log-plus-one`) of real floats, bit for bit.

f32 log is XLA:CPU's own approximation (Cephes' single-precision log as Eigen writes it): the
input, raised to the smallest normal, splits into a power of two and a mantissa in [1/2, 1);
a mantissa below sqrt(1/2) is doubled (the exponent lowered by one) so that x = mantissa - 1
lies in [sqrt(1/2) - 1, sqrt(2) - 1); log is then x - x^2/2 + x^3 P(x) + e ln 2, with P of
degree 8 evaluated as three interleaved parts of degree 2 joined by powers of x^3, and ln 2 in
two parts (0.693359375 and -2.12194440e-4). LLVM fuses each multiply and the add that reads it
into an FMA (hlo.numerics.fma here). Zero gives -inf, +inf itself, negative numbers and NaN a
NaN with every bit set.

f64 log is the C library's `log` (as XLA:CPU calls it) of the input with subnormals flushed:
XLA:CPU gives -inf for a subnormal of either sign, where glibc's log, called in the CPU's
flush-to-zero mode, scales a subnormal by 2^52 first (which that mode makes zero) and returns a
finite -745.13 (NaN for a negative one). NaN results of non-NaN inputs are the positive quiet
NaN, as XLA:CPU's are.

log1p (f32 and f64) is XLA's elemental emitter's formula: for |x| < sqrt(2) - 1,
x + (x^3 P(x)/Q(x) - x^2/2) with Cephes' degree-6 rational function (Horner, every step an
FMA), else log(1 + x) by the log above. f16 and bf16 are computed in f32 and rounded once (the
op's working type), as XLA:CPU does."""

from __future__ import annotations

import functools
import importlib.util
from typing import Any

import numpy as np

from . import libm, xla_log_loop
from .fma import fma as exact_fma

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)


def fma(a: Any, b: Any, c: Any) -> np.ndarray:
    """a*b + c rounded once (hlo.numerics.fma), for arrays and the constants below."""
    return exact_fma(a, b, c)


def _f32(bits: int) -> np.float32:
    return np.uint32(bits).view(np.float32)  # type: ignore[no-any-return]


def _f64(bits: int) -> np.float64:
    return np.uint64(bits).view(np.float64)  # type: ignore[no-any-return]


# (the constants by their bits, as XLA:CPU's IR holds them)
TINY32 = _f32(0x00800000)
SQRT_HALF32 = _f32(0x3F3504F3)
# P(x) as three parts of degree 2: (leading, middle, last) coefficients each
LOG_P32 = (
    (_f32(0x3D9021BB), _f32(0xBDEBD1B8), _f32(0x3DEF251A)),
    (_f32(0xBDFE5D4F), _f32(0x3E11E9BF), _f32(0xBE2AAE50)),
    (_f32(0x3E4CCEAC), _f32(0xBE7FFFFC), _f32(0x3EAAAAAA)),
)
LN2_HI32, LN2_LO32 = _f32(0x3F318000), _f32(0xB95E8083)
NAN32 = _f32(0xFFFFFFFF)  # what XLA:CPU's f32 log gives for negative and NaN inputs

# log1p's rational function: numerator P and denominator Q, highest power first (Q's is 1)
LOG1P_P32 = tuple(
    _f32(b) for b in (0x383DE04B, 0x3EFF40C5, 0x40D284FA, 0x41EF4B9C, 0x4273CC76, 0x426473AD, 0x41A05101)
)
LOG1P_Q32 = tuple(_f32(b) for b in (0x417101AD, 0x42A6185B, 0x435DC32D, 0x439A8CA3, 0x43586D8A, 0x42707982))
LOG1P_P64 = tuple(
    _f64(b)
    for b in (
        0x3F07BC0962B395CA, 0x3FDFE818A0FE1A83, 0x401A509F46F4FA53, 0x403DE9738B8CB9C9,
        0x404E798EB86C3351, 0x404C8E7597479A10, 0x40340A202D99830A,
    )
)  # fmt: skip
LOG1P_Q64 = tuple(
    _f64(b)
    for b in (
        0x402E20359E903E37, 0x4054C30B52213498, 0x406BB86590FCFB56, 0x407351945DC908A5,
        0x406B0DB13E48E066, 0x404E0F304466448E,
    )
)  # fmt: skip
LOG1P_SMALL32 = _f32(0x3ED413CD)  # sqrt(2) - 1: below, the rational function
LOG1P_SMALL64 = _f64(0x3FDA827999FCEF32)


COMPILED_MIN_ELEMENTS = 1 << 16  # below: the NumPy form (< ~30 ms), until the machine code exists


def log(x: np.ndarray) -> Any:
    """XLA:CPU's log of an f32 or f64 array (other types: NumPy's, e.g. complex)."""
    x = np.asarray(x)
    if x.dtype not in (F32, F64) or (x.dtype == F64 and libm.function("log", F64) is None):
        return np.log(x)
    if x.dtype == F64:  # (the C library's loop already: no machine code to compile)
        return log_f64(x)
    if compiled("log", x):
        return xla_log_loop.apply("log", x)
    return log_f32(x)


def log1p(x: np.ndarray) -> Any:
    """XLA:CPU's log(1 + x) of an f32 or f64 array (other types: NumPy's)."""
    x = np.asarray(x)
    if x.dtype not in (F32, F64) or (x.dtype == F64 and libm.function("log", F64) is None):
        return np.log1p(x)
    if compiled("log-plus-one", x):
        return xla_log_loop.apply("log-plus-one", x)
    if x.dtype == F32:
        return _log1p(x, LOG1P_P32, LOG1P_Q32, LOG1P_SMALL32, log_f32)
    return _log1p(x, LOG1P_P64, LOG1P_Q64, LOG1P_SMALL64, log_f64)


def compiled(op: str, x: np.ndarray) -> bool:
    """Whether machine code (hlo.numerics.xla_log_loop) computes x's elements: it is at hand
    (made ahead of time, or compiled already), or llvmlite is installed and x is large (loading
    llvmlite and compiling one op for one type take ~0.1 s, the NumPy form ~0.5 us an element)."""
    if xla_log_loop.ready(op, x.dtype):
        return True
    return llvmlite_installed() and x.size >= COMPILED_MIN_ELEMENTS


@functools.cache
def llvmlite_installed() -> bool:
    return importlib.util.find_spec("llvmlite") is not None


def log_f32(x: np.ndarray) -> np.ndarray:
    """The f32 approximation (module docstring), in the run's floating-point mode: a subnormal
    input is zero to its comparisons (the CPU's mode) or was flushed before (software)."""
    with np.errstate(all="ignore"):
        bits = np.maximum(x, TINY32).view(np.uint32)
        mantissa = ((bits & np.uint32(0x007FFFFF)) | np.uint32(0x3F000000)).view(np.float32)
        low = mantissa < SQRT_HALF32
        # (XLA adds 1 to the unbiased exponent and subtracts the doubling: integers, exact)
        e = ((bits >> np.uint32(23)).astype(np.int32) - (126 + low)).astype(np.float32)
        r = (mantissa - np.float32(1)) + np.where(low, mantissa, np.float32(0))
        z = r * r
        r3 = z * r
        parts = [fma(fma(r, a, b), r, c) for a, b, c in LOG_P32]
        p = fma(fma(parts[0], r3, parts[1]), r3, parts[2])
        tail = fma(p, r3, e * LN2_LO32)
        result = fma(e, LN2_HI32, fma(z, np.float32(-0.5), r) + tail)
        result = np.where(x > 0, result, NAN32)
        result[x == 0] = -np.inf
        result[x == np.inf] = np.inf
    return result


def log_f64(x: np.ndarray) -> np.ndarray:
    """The C library's log of x with subnormal inputs flushed (module docstring)."""
    with np.errstate(all="ignore"):
        flushed = np.where(np.abs(x) < np.finfo(np.float64).tiny, 0.0, x)
        result = libm.apply("log", [flushed])
        odd = np.isnan(result)
        if odd.any():
            result[odd & ~np.isnan(x)] = np.nan  # the positive quiet NaN, not the C library's
    return result


def _log1p(x: np.ndarray, p: tuple[Any, ...], q: tuple[Any, ...], small: Any, log_fn: Any) -> np.ndarray:
    """log(1 + x) by the rational function below `small` and by `log_fn` above (module
    docstring): each branch computed on its own elements only."""
    t = x.dtype.type
    with np.errstate(all="ignore"):
        near = np.abs(x) < small
        result = np.empty_like(x)
        far = ~near
        if far.any():
            result[far] = log_fn(x[far] + t(1))
        # Where |x| < 2^-25 (f32) or 2^-54 (f64), |x^3 P/Q - x^2/2| < x^2 is below half a step
        # of x, so the sum is x (flushed: the product by one): the exact FMA's slow cases
        # (products near underflow) are never reached.
        tiny = near & (np.abs(x) < (2.0**-25 if x.dtype == F32 else 2.0**-54))
        if tiny.any():
            result[tiny] = x[tiny] * t(1)
            near &= ~tiny
        if near.any():
            v = x[near]
            # (XLA's Horner starts from 0 * x + leading coefficient: that product is a zero here)
            num = fma(np.full_like(v, p[0]), v, p[1])
            for c in p[2:]:
                num = fma(num, v, c)
            den = v + q[0]
            for c in q[1:]:
                den = fma(den, v, c)
            v2 = v * v
            result[near] = v + fma(v2, t(-0.5), (v * v2) * (num / den))
    return result
