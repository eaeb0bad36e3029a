"""XLA:CPU's arithmetic where NumPy differs (DESIGN.md, "Numerics to match"): integer division
and remainder by zero and on overflow, shifts past the bit width, saturating float-to-integer
conversion, round half away from zero, narrow floats computed in f32, and the flushing of
subnormal floats to zero. Kernels call these; nothing else in the engine re-decides them.

Every function takes and returns NumPy arrays of the exact element type (never NumPy's promoted
types) and must be called under `np.errstate(all="ignore")` (the engine runs kernels so).
"""

from __future__ import annotations

import functools

import numpy as np

from ..dtypes import PrimitiveType
from .subnormal_inputs import power_of_subnormal_bases

# Types NumPy cannot compute in directly: computed in float32 and rounded back, as XLA:CPU does
# for each op (bf16, f16 and the f8/f6/f4 types).
_WIDEN = {np.dtype(np.float16)}


@functools.cache
def is_ml_dtype(dtype: np.dtype) -> bool:
    """An ml_dtypes type (bf16, f8, f6, f4, sub-byte ints); their NumPy `kind` varies ('V', or
    'f' for float8_e5m2), so they are told apart by their module."""
    return dtype.type.__module__.split(".")[0] == "ml_dtypes"


@functools.cache
def compute_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype an elementwise float op computes in: float32 for the narrow floats."""
    if dtype.kind == "c" or (dtype.kind == "f" and dtype.itemsize >= 4 and not is_ml_dtype(dtype)):
        return dtype
    if dtype in _WIDEN or _is_ml_float(dtype):
        return np.dtype(np.float32)
    return dtype


def _is_ml_float(dtype: np.dtype) -> bool:
    """bf16, f8*, f6*, f4*."""
    if not is_ml_dtype(dtype):
        return False
    from ..dtypes import from_numpy_dtype

    return from_numpy_dtype(dtype).is_floating_point


def is_float(dtype: np.dtype) -> bool:
    return (dtype.kind == "f" and not is_ml_dtype(dtype)) or _is_ml_float(dtype)


# -- subnormals -------------------------------------------------------------------------------
def flush_denormals(x: np.ndarray) -> np.ndarray:
    """Subnormal f32/f64 values (and narrow floats whose value is subnormal in f32) become a zero
    of the same sign, as XLA:CPU's FTZ/DAZ modes make them."""
    dtype = x.dtype
    if dtype.kind == "c":
        return make_complex(flush_denormals(x.real.copy()), flush_denormals(x.imag.copy())).astype(dtype)
    if not is_float(dtype):
        return x
    work = compute_dtype(dtype)
    if dtype == np.float16:
        return x  # f16 subnormals are normal f32 values: kept
    tiny = np.finfo(work).tiny
    wide = x.astype(work, copy=False)
    small = np.abs(wide) < tiny
    if not small.any():
        return x
    flushed = np.where(small, np.copysign(np.zeros((), work), wide), wide)
    return flushed.astype(dtype)


# -- integer division -------------------------------------------------------------------------
def _signed_min(dtype: np.dtype) -> int | None:
    return int(np.iinfo(dtype).min) if dtype.kind == "i" else None


def int_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Truncating division; x/0 is -1 (all ones for unsigned), INT_MIN/-1 is INT_MIN."""
    dtype = a.dtype
    zero = b == 0
    bad = zero.copy()
    low = _signed_min(dtype)
    if low is not None:
        bad |= (a == low) & (b == -1)
    safe = np.where(bad, np.ones((), dtype), b)
    q = np.floor_divide(a, safe)
    if dtype.kind == "i":
        # floor -> truncate: one up where the division is inexact and the signs differ
        r = a - q * safe
        q = q + ((r != 0) & ((a < 0) != (safe < 0))).astype(dtype)
    minus_one = np.array(-1).astype(dtype)
    result = np.where(zero, minus_one, q)
    if low is not None:
        result = np.where((a == low) & (b == -1), a, result)
    return result.astype(dtype, copy=False)


def int_remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The remainder of truncating division (the dividend's sign); x%0 is x, INT_MIN%-1 is 0."""
    dtype = a.dtype
    zero = b == 0
    safe = np.where(zero, np.ones((), dtype), b)
    if dtype.kind == "i":
        safe = np.where(safe == -1, np.ones((), dtype), safe)  # x % -1 == 0 == x % 1
    r = np.fmod(a, safe)
    return np.where(zero, a, r).astype(dtype, copy=False)


# -- shifts -----------------------------------------------------------------------------------
def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def shift_left(a: np.ndarray, b: np.ndarray, bits: int) -> np.ndarray:
    """`a << b`; 0 when b, read as unsigned, is at least the bit width."""
    big = b.astype(_unsigned(b.dtype)) >= bits
    amount = np.where(big, np.zeros((), b.dtype), b)
    return np.where(big, np.zeros((), a.dtype), np.left_shift(a, amount)).astype(a.dtype, copy=False)


def shift_right_logical(a: np.ndarray, b: np.ndarray, bits: int) -> np.ndarray:
    """Zero-filling right shift; 0 when b, read as unsigned, is at least the bit width."""
    u = _unsigned(a.dtype)
    big = b.astype(_unsigned(b.dtype)) >= bits
    amount = np.where(big, np.zeros((), b.dtype), b).astype(u)
    unsigned = a.view(u) if a.dtype != u else a
    if bits < 8 * a.dtype.itemsize:  # sub-byte types: only their own bits move
        unsigned = unsigned & np.array((1 << bits) - 1, dtype=u)
    shifted = np.right_shift(unsigned, amount)
    return np.where(big, np.zeros((), a.dtype), shifted.view(a.dtype) if a.dtype != u else shifted)


def shift_right_arithmetic(a: np.ndarray, b: np.ndarray, bits: int) -> np.ndarray:
    """Sign-filling right shift (unsigned values read as signed); past the width: the sign."""
    s = np.dtype(f"i{a.dtype.itemsize}")
    signed = a.view(s) if a.dtype.kind == "u" else a
    big = b.astype(_unsigned(b.dtype)) >= bits
    amount = np.where(big, np.array(bits - 1, b.dtype), b).astype(s)
    out = np.right_shift(signed, amount)
    return out.view(a.dtype) if a.dtype.kind == "u" else out


# -- rounding ---------------------------------------------------------------------------------
def round_half_away(x: np.ndarray) -> np.ndarray:
    """round(): halves away from zero (C's round), exact for every float."""
    t = np.trunc(x)
    frac = x - t  # exact in binary floating point
    return np.where(np.abs(frac) >= 0.5, t + np.sign(x), t).astype(x.dtype, copy=False)


# -- conversion -------------------------------------------------------------------------------
def convert(x: np.ndarray, to: PrimitiveType) -> np.ndarray:
    """ConvertElementType: floats to integers truncate and saturate (NaN -> 0), integers wrap,
    to pred is `!= 0`, pred is 0/1, narrow floats round to nearest even from f32."""
    target = np.dtype(to.numpy_dtype)
    source = x.dtype
    if source == target:
        return x
    if to is PrimitiveType.PRED:
        wide = x.astype(compute_dtype(source)) if is_float(source) else x
        return np.asarray(wide != 0)  # a 0-d comparison gives a NumPy scalar
    if source.kind == "c":
        return x.astype(target) if target.kind == "c" else convert(x.real.copy(), to)
    if is_float(source) and not is_float(target) and target.kind != "c":
        return _float_to_int(x.astype(compute_dtype(source), copy=False), target, to)
    integers = not is_float(source) and not is_float(target) and target.kind != "c"
    if integers and (is_ml_dtype(source) or is_ml_dtype(target)):
        return x.astype(np.int64).astype(target)  # between 4-bit and other ints: wrap via int64
    if source == np.float64 and (target == np.float16 or _is_ml_float(target)):
        return x.astype(np.float32).astype(target)  # XLA:CPU rounds f64 -> f16/bf16 via f32
    return x.astype(target)


def _float_to_int(x: np.ndarray, target: np.dtype, to: PrimitiveType) -> np.ndarray:
    bits = to.bit_width
    signed = to.is_signed_integral
    low = -(2 ** (bits - 1)) if signed else 0
    high = 2 ** (bits - 1) - 1 if signed else 2**bits - 1
    top = float(2 ** (bits - 1) if signed else 2**bits)  # a power of two: exact in any float
    nan = np.isnan(x)
    t = np.trunc(np.where(nan, 0, x))
    too_big = t >= top
    too_small = t < low if signed else t < 0
    safe = np.where(too_big | too_small, 0, t)
    wide = np.dtype(np.int64) if signed else np.dtype(np.uint64)
    out = safe.astype(wide)
    out = np.where(too_big, np.array(high, dtype=wide), out)
    out = np.where(too_small, np.array(low, dtype=wide), out)
    return out.astype(target)


# -- elementwise functions where NumPy's answer differs from XLA's ------------------------------
def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NaN-propagating maximum with -0 < +0."""
    return _signed_zero_ties(np.maximum(a, b), a, b, take_negative=False)


def minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """NaN-propagating minimum with -0 < +0."""
    return _signed_zero_ties(np.minimum(a, b), a, b, take_negative=True)


def _signed_zero_ties(r: np.ndarray, a: np.ndarray, b: np.ndarray, take_negative: bool) -> np.ndarray:
    """`r` (NumPy's max or min of a and b) with ties of two zeros decided by sign, as XLA:CPU
    orders -0 below +0 (NumPy returns either). Only results that are zero can be wrong: one pass
    for operands with no zero result. Where both operands are zeros, the sum of two zeros has
    the sign the maximum needs (-0 only if both are -0) and the negated sum of the negations the
    sign the minimum needs (whole-array passes: no boolean indexing)."""
    if r.dtype.kind not in "fc":
        return r
    r = np.asarray(r)
    zero = r == 0
    if r.ndim == 0:
        if not zero:
            return r
        a, b = np.asarray(a), np.asarray(b)
        if a == 0 and b == 0:
            r = np.asarray(a if bool(np.signbit(a.real)) == take_negative else b)
        return r
    if not zero.any():
        return r
    if not take_negative and r.dtype.kind == "f" and (_positive_zeros(b) or _positive_zeros(a)):
        # max(x, +0), a ReLU: every zero result is +0 (x is a zero, or a subnormal read as one,
        # or below zero); cleared through a mask instead of the general tie's four passes
        bits = np.dtype(f"u{r.dtype.itemsize}")
        clear = zero.view(np.uint8).astype(bits)  # (0 or 1)
        np.negative(clear, out=clear)
        np.invert(clear, out=clear)
        target = r.view(bits)
        np.bitwise_and(target, clear, out=target)
        return r
    tie = np.logical_and(np.equal(a, 0), np.equal(b, 0))
    if r.dtype.kind == "c":  # complex zeros: pick the operand, as before (rare)
        a_wins = np.signbit(np.real(a)) == take_negative
        np.copyto(r, np.where(a_wins, a, b), where=tie)
        return r
    both = np.negative(np.add(np.negative(a), np.negative(b))) if take_negative else np.add(a, b)
    np.copyto(r, both, where=tie, casting="same_kind")
    return r


def _positive_zeros(x: np.ndarray) -> bool:
    """Whether `x` is one +0 broadcast (no stride moves: a broadcast constant)."""
    return (
        isinstance(x, np.ndarray)
        and x.size > 0
        and not any(x.strides)
        and x.dtype.kind == "f"
        and x.reshape(-1)[:1].view(np.dtype(f"u{x.dtype.itemsize}"))[0] == 0
    )


def sign(x: np.ndarray) -> np.ndarray:
    """-1, 0 or 1 with the sign of zero kept and NaN propagated; x/|x| for complex."""
    if x.dtype.kind == "c":
        magnitude = np.abs(x)
        return np.where(magnitude == 0, x, x / np.where(magnitude == 0, 1, magnitude))
    if x.dtype.kind == "f":
        return np.where(x == 0, x, np.sign(x))
    return np.sign(x)


def int_power(a: np.ndarray, b: np.ndarray, bits: int | None = None) -> np.ndarray:
    """XLA:CPU's integer power: exponentiation by squaring over the exponent's low 6 bits
    (wrapping); an exponent that is negative when read as signed (so an unsigned one with its top
    bit set) gives 1 for base 1, +-1 for base -1 (by parity) and 0 otherwise."""
    bits = bits or 8 * b.dtype.itemsize
    u = _unsigned(b.dtype)
    e = (b.view(u) if b.dtype != u else b) & np.array((1 << bits) - 1, dtype=u)
    e_low = e
    negative = ((e >> np.array(bits - 1, dtype=u)) & np.array(1, dtype=u)).astype(bool)
    acc = np.ones_like(a)
    base = a.copy()
    one = np.array(1, dtype=u)
    e_low = e_low & one
    for _ in range(6):
        acc = np.where((e & one).astype(bool), acc * base, acc)
        base = base * base
        e = e >> one
    # base 1 gives 1; base -1 (all ones, unsigned types too) gives +-1 by parity; others 0
    ua = _unsigned(a.dtype)
    all_ones = np.array((1 << bits) - 1, dtype=ua)
    minus_one = ((a.view(ua) if a.dtype != ua else a) & all_ones) == all_ones
    odd = (e_low & one).astype(bool)
    small = np.where(minus_one, np.where(odd, a, np.ones_like(a)), (a == 1).astype(a.dtype))
    return np.where(negative, small, acc)


def power(a: np.ndarray, b: np.ndarray, t: PrimitiveType | None = None) -> np.ndarray:
    if a.dtype.kind in "iu":
        return int_power(a, b, t.bit_width if t is not None else None)
    if a.dtype.kind == "c":
        return np.power(a, b)
    return power_of_subnormal_bases(a, b, np.power(a, b))


def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return int_divide(a, b) if a.dtype.kind in "iu" else np.divide(a, b)


def remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return int_remainder(a, b) if a.dtype.kind in "iu" else np.fmod(a, b)


def remainder_flushing_divisor(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """XLA:CPU's float remainder: a subnormal divisor counts as zero (NaN), a subnormal dividend
    is kept."""
    return remainder(a, flush_denormals(b) if b.dtype.kind == "f" else b)


def make_complex(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    """re + i*im without NumPy's inf*1j = nan+infj."""
    re, im = np.broadcast_arrays(re, im)
    out = np.empty(re.shape, dtype=np.complex128 if re.dtype == np.float64 else np.complex64)
    out.real, out.imag = re, im
    return out


def exp(x: np.ndarray) -> np.ndarray:
    """e^x of real floats, XLA:CPU's own (hlo.numerics.xla_exp; complex values:
    hlo.numerics.complex_functions)."""
    from .xla_exp import exp as real_exp

    return real_exp(x)


def rsqrt(x: np.ndarray) -> np.ndarray:
    """1/sqrt(x) of real floats as XLA:CPU computes it: the CPU's estimate refined on x86-64
    (hlo.numerics.xla_rsqrt)."""
    if x.dtype in (np.float32, np.float64):
        from .xla_rsqrt import rsqrt as xla_rsqrt

        return xla_rsqrt(x)
    return 1 / np.sqrt(x)


def logical_not(x: np.ndarray) -> np.ndarray:
    return np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)
