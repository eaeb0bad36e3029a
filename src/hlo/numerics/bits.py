"""Bit-level arithmetic of XLA's element types, done on whole arrays: bit patterns of any type
(sub-byte ones included), count-leading-zeros, population count, the high half of a product,
the total order of floats, bitcast-convert and reduce-precision.

Bit patterns travel as uint64 arrays holding the type's `bit_width` low bits, so one code path
serves s4 and f8 as well as s64 and f64.
"""

from __future__ import annotations

import numpy as np

from ..dtypes import PrimitiveType

_U64 = np.dtype(np.uint64)


def _container(dtype: np.dtype) -> np.dtype:
    """The unsigned integer type of the same storage size (a sub-byte type sits in one byte)."""
    return np.dtype(f"u{dtype.itemsize}")


def bit_pattern(x: np.ndarray, bits: int) -> np.ndarray:
    """The `bits` low bits of each element's storage, as uint64."""
    u = x.view(_container(x.dtype)).astype(_U64)
    if bits < 64:
        u &= np.uint64((1 << bits) - 1)
    return u


def from_bit_pattern(u: np.ndarray, t: PrimitiveType) -> np.ndarray:
    """Elements of type `t` whose low `bit_width` bits are `u` (the inverse of bit_pattern)."""
    dtype = np.dtype(t.numpy_dtype)
    bits = t.bit_width
    if bits < 64:
        u = u & np.uint64((1 << bits) - 1)
    stored = u.astype(_container(dtype))
    if t.is_signed_integral and bits < 8 * dtype.itemsize and dtype.kind == "i":
        # a narrow signed type stored sign-extended in a full NumPy integer
        shift = 8 * dtype.itemsize - bits
        signed = stored.view(np.dtype(f"i{dtype.itemsize}"))
        return np.asarray(((signed << shift) >> shift).astype(dtype))
    return np.asarray(stored).view(dtype)  # a 0-d operation gives a NumPy scalar: keep arrays


# -- counting ---------------------------------------------------------------------------------
def count_leading_zeros(x: np.ndarray, bits: int) -> np.ndarray:
    """Zeros above the highest set bit, within the type's width."""
    u = bit_pattern(x, bits)
    length = np.zeros(u.shape, dtype=np.int64)
    for shift in (32, 16, 8, 4, 2, 1):
        high = u >= np.uint64(1 << shift)
        length += np.where(high, shift, 0)
        u = np.where(high, u >> np.uint64(shift), u)
    length += (u > 0).astype(np.int64)
    return (bits - length).astype(x.dtype)


def population_count(x: np.ndarray, bits: int) -> np.ndarray:
    """Set bits; a signed sub-byte type counts the bits of its sign-extended byte, as XLA:CPU
    (popcnt of s4 -1 is 8, wrapping to -8)."""
    if x.dtype.kind == "i" and bits < 8 * x.dtype.itemsize:
        bits = 8 * x.dtype.itemsize
    return np.bitwise_count(bit_pattern(x, bits)).astype(x.dtype)


# -- multiplication ---------------------------------------------------------------------------
def multiply_high(a: np.ndarray, b: np.ndarray, bits: int) -> np.ndarray:
    """The high `bits` bits of the 2*bits-bit product (signed or unsigned as the type)."""
    dtype = a.dtype
    signed = dtype.kind == "i"
    if bits <= 32:
        wide = np.int64 if signed else np.uint64
        product = a.astype(wide) * b.astype(wide)
        return (product >> wide(bits)).astype(dtype)  # type: ignore[no-any-return]
    ua, ub = a.view(np.uint64), b.view(np.uint64)
    mask, k32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    a_lo, a_hi, b_lo, b_hi = ua & mask, ua >> k32, ub & mask, ub >> k32
    lo_lo, hi_lo, lo_hi, hi_hi = a_lo * b_lo, a_hi * b_lo, a_lo * b_hi, a_hi * b_hi
    cross = (lo_lo >> k32) + (hi_lo & mask) + (lo_hi & mask)
    high = hi_hi + (hi_lo >> k32) + (lo_hi >> k32) + (cross >> k32)
    if signed:  # two's complement correction of the unsigned product
        high = high - np.where(a < 0, ub, np.uint64(0)) - np.where(b < 0, ua, np.uint64(0))
    return high.view(dtype) if signed else high


# -- ordering ---------------------------------------------------------------------------------
def total_order_key(x: np.ndarray, bits: int) -> np.ndarray:
    """An int64 key ordering floats as XLA's TOTALORDER comparison does:
    -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN. Whole-byte types get a key of their own
    width, in one pass: the bits as a signed integer, with the magnitude bits of negative values
    flipped (the same order, -magnitude - 1)."""
    if x.dtype.itemsize * 8 == bits and bits in (8, 16, 32, 64):
        signed = np.dtype(f"i{bits // 8}")
        i = np.asarray(x).view(signed)
        key = np.asarray(i >> (bits - 1))  # one new array, the rest in place (top-k's memory)
        key &= signed.type((1 << (bits - 1)) - 1)
        key ^= i
        return key
    u = bit_pattern(x, bits)
    sign = (u >> np.uint64(bits - 1)).astype(bool)
    magnitude = (u & np.uint64((1 << (bits - 1)) - 1)).astype(np.int64)
    return np.where(sign, -magnitude - 1, magnitude)


# -- bitcast-convert ---------------------------------------------------------------------------
def bitcast_convert(x: np.ndarray, source: PrimitiveType, target: PrimitiveType) -> np.ndarray:
    """Reinterpret the bits: the same width keeps the shape; a narrower target adds a minor
    dimension of source/target bits (the low bits first, as on a little-endian CPU); a wider
    target consumes the minor dimension."""
    sb, tb = source.bit_width, target.bit_width
    if source.is_complex or target.is_complex:  # no integer holds c128's bits: view the bytes
        return _bitcast_bytes(x, np.dtype(target.numpy_dtype), sb, tb)
    u = bit_pattern(x, sb)
    if sb == tb:
        return from_bit_pattern(u, target)
    if sb > tb:
        k = sb // tb
        shifts = np.arange(k, dtype=np.uint64) * np.uint64(tb)
        pieces = (u[..., None] >> shifts) & np.uint64((1 << tb) - 1)
        return from_bit_pattern(pieces, target)
    shifts = np.arange(u.shape[-1], dtype=np.uint64) * np.uint64(sb)
    combined = np.bitwise_or.reduce(u << shifts, axis=-1) if u.shape[-1] else np.zeros(u.shape[:-1], _U64)
    return from_bit_pattern(np.asarray(combined, dtype=_U64), target)


def _bitcast_bytes(x: np.ndarray, target: np.dtype, sb: int, tb: int) -> np.ndarray:
    """bitcast_convert between whole-byte types by viewing the memory (little-endian: the low
    bytes are the first piece, as bit_pattern's low bits)."""
    x = np.array(x, order="C")  # np.ascontiguousarray would make a 0-d array 1-d
    if sb == tb:
        return x.view(target)
    if sb > tb:
        return x.reshape((*x.shape, 1)).view(target)
    return x.view(target).reshape(x.shape[:-1])


# -- reduce-precision ---------------------------------------------------------------------------
def reduce_precision(x: np.ndarray, t: PrimitiveType, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """Round the mantissa to `mantissa_bits` (to nearest, ties to even), then send exponents out
    of an `exponent_bits` range to infinity or zero, on the type's own bits, as XLA does. NaN
    stays NaN unless no mantissa bit is left (then +inf)."""
    bits = t.bit_width
    import ml_dtypes

    info = ml_dtypes.finfo(x.dtype)  # type: ignore[no-untyped-call]
    src_mantissa = int(info.nmant)
    src_exponent = bits - src_mantissa - 1
    u = bit_pattern(x, bits)
    if mantissa_bits < src_mantissa:
        last = np.uint64(1 << (src_mantissa - mantissa_bits))
        bias = (last >> np.uint64(1)) - np.uint64(1)
        last_bit = (u & last) >> np.uint64(src_mantissa - mantissa_bits)
        u = (u + last_bit + bias) & ~(last - np.uint64(1))
    if exponent_bits < src_exponent:
        sign_mask = np.uint64(1 << (bits - 1))
        exp_mask = np.uint64(((1 << src_exponent) - 1) << src_mantissa)
        exponent_bias = (1 << (src_exponent - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exponent = u & exp_mask
        overflows = exponent > np.uint64((exponent_bias + reduced_bias) << src_mantissa)
        underflows = exponent <= np.uint64((exponent_bias - reduced_bias) << src_mantissa)
        signed_zero = u & sign_mask
        u = np.where(overflows, signed_zero | exp_mask, u)
        u = np.where(underflows, signed_zero, u)
    result = from_bit_pattern(u, t)
    nan = np.isnan(x.astype(np.float32) if x.dtype.itemsize < 4 else x)
    if nan.any():  # NaN stays NaN (XLA:CPU; its evaluator makes it +inf when no mantissa is left)
        result = np.where(nan, x, result)
    return np.asarray(result)
