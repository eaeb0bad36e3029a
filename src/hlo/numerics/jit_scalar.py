"""XLA:CPU's scalar arithmetic where a plain operator differs, as plain Python functions of one
element each, which the compiled loop tier (hlo.numerics.jit_codegen) compiles with numba. Each
one computes, per element, what hlo.numerics.numerics computes on arrays (the interpreter's
answer is the reference: the tier must give its bits). This module imports no numba: the
generated code wraps these functions itself, and without numba nothing calls them."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def int_div(a: Any, b: Any, low: Any, one: Any) -> Any:
    """Truncating division of two values of one wide type (int64 or uint64); x/0 is -1 (all
    ones unsigned), low/-1 is low (`low`: the element type's minimum, 0 unsigned)."""
    zero = one - one
    if b == zero:
        return zero - one
    if low != zero and a == low and b == zero - one:
        return a
    q = a // b  # floor division: one up where inexact and the signs differ
    if a - q * b != zero and (a < zero) != (b < zero):
        q = q + one
    return q


def int_rem(a: Any, b: Any, low: Any, one: Any) -> Any:
    """The remainder of truncating division (the dividend's sign); x%0 is x, x%-1 is 0."""
    zero = one - one
    if b == zero:
        return a
    if low != zero and b == zero - one:
        return zero
    q = a // b  # as int_div (no call: numba compiles each function alone)
    if a - q * b != zero and (a < zero) != (b < zero):
        q = q + one
    return a - q * b


def float_max(a: Any, b: Any) -> Any:
    """NaN-propagating maximum with -0 below +0 (numerics.maximum: NumPy's, ties of zeros by
    sign; a value that compares equal to zero ties, so a flushed subnormal too)."""
    if a != a:
        return a
    if b != b:
        return b
    if a == 0 and b == 0:
        return b if math.copysign(1.0, a) < 0 else a
    return a if a > b else b if b > a else a


def float_max_ftz(a: Any, b: Any, tiny: Any) -> Any:
    """float_max in the CPU's flush-to-zero mode, as the interpreter computes it on arrays:
    NumPy's maximum returns a subnormal winner flushed (the CPU reads it as zero), and a tie
    of two values equal to zero is their sum (-0 only if both are -0; flushed)."""
    if a != a:
        return a
    if b != b:
        return b
    if abs(a) < tiny and abs(b) < tiny:
        return a + b
    r = a if a > b else b if b > a else a
    if abs(r) < tiny:
        return r - r if math.copysign(1.0, r) > 0 else -(r - r)
    return r


def float_max_ftz_scalar(a: Any, b: Any, tiny: Any) -> Any:
    """float_max_ftz as the interpreter computes it on scalars: a tie of zeros keeps the
    operand the sign rule chooses as it is."""
    if a != a:
        return a
    if b != b:
        return b
    if abs(a) < tiny and abs(b) < tiny:
        return b if math.copysign(1.0, a) < 0 else a
    r = a if a > b else b if b > a else a
    if abs(r) < tiny:
        return r - r if math.copysign(1.0, r) > 0 else -(r - r)
    return r


def float_min_ftz(a: Any, b: Any, tiny: Any) -> Any:
    """float_min in the CPU's flush-to-zero mode on arrays (as float_max_ftz; a tie of zeros:
    the negated sum of the negations, +0 only if both are +0)."""
    if a != a:
        return a
    if b != b:
        return b
    if abs(a) < tiny and abs(b) < tiny:
        return -((-a) + (-b))
    r = a if a < b else b if b < a else a
    if abs(r) < tiny:
        return r - r if math.copysign(1.0, r) > 0 else -(r - r)
    return r


def float_min_ftz_scalar(a: Any, b: Any, tiny: Any) -> Any:
    """float_min_ftz on scalars (a tie keeps the chosen operand)."""
    if a != a:
        return a
    if b != b:
        return b
    if abs(a) < tiny and abs(b) < tiny:
        return a if math.copysign(1.0, a) < 0 else b
    r = a if a < b else b if b < a else a
    if abs(r) < tiny:
        return r - r if math.copysign(1.0, r) > 0 else -(r - r)
    return r


def float_min(a: Any, b: Any) -> Any:
    """NaN-propagating minimum with -0 below +0."""
    if a != a:
        return a
    if b != b:
        return b
    if a == 0 and b == 0:
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b if b < a else a


def float_sign(a: Any, one: Any, limit: Any) -> Any:
    """-1, 0 or 1; a zero (and what the CPU reads as zero: `limit` is the smallest normal in
    flush-to-zero mode, else the smallest subnormal) is kept, NaN propagates. Zero tests are
    magnitude tests against a limit, as a compiler may turn a test against 0 into a test of
    bits, which the CPU's mode would not see."""
    if abs(a) < limit or a != a:
        return a
    return one if a > 0 else -one


def flush(x: Any, tiny: Any) -> Any:
    """x, or a zero of its sign when the CPU's flush-to-zero mode reads it as zero (|x| below
    the smallest normal `tiny`): the interpreter's multiplication by one of a selected value."""
    if abs(x) < tiny:
        return x - x if math.copysign(1.0, x) > 0 else -(x - x)
    return x


def fma_nan_first(r: Any, a: Any, b: Any, c: Any) -> Any:
    """An FMA's result r with the interpreter's NaN rule (hlo.numerics.fma.nan_inputs_first):
    the first NaN of a, b, c where r is NaN (scalar FMAs pick another operand)."""
    if r == r:
        return r
    if a != a:
        return a
    if b != b:
        return b
    if c != c:
        return c
    return r


def negated_keep_nan(x: Any) -> Any:
    """-x as an FMA's negated operand (hlo.numerics.complex_steps.negated): a NaN keeps its sign."""
    return x if x != x else -x


def shift_left(a: Any, b: Any, bits: Any, ubits: Any) -> Any:
    """`a << b` in a wide type; 0 when b, read as unsigned (`ubits`: its bit mask), is at least
    the width."""
    if (b & ubits) >= bits:
        return a - a
    return a << b


def shift_right_logical(a: Any, b: Any, bits: Any, ubits: Any) -> Any:
    """Zero-filling right shift of a (already its bits as an unsigned wide value)."""
    if (b & ubits) >= bits:
        return a - a
    return a >> b


def shift_right_arithmetic(a: Any, b: Any, bits: Any, ubits: Any, last: Any) -> Any:
    """Sign-filling right shift of a (read as signed, int64) by b (uint64); past the width: the
    sign (`last`: the width - 1, an int64)."""
    if (b & ubits) >= bits:
        return a >> last
    return a >> np.int64(b)


def float_to_signed(x: Any, low: Any, top: Any, ilow: Any, ihigh: Any) -> Any:
    """Truncate and saturate to a signed type (NaN -> 0), as numerics._float_to_int: `top` is
    2^(bits-1) and `low` the type's minimum, as floats; the result is an int64."""
    if x != x:
        return np.int64(0)
    t = np.trunc(x)
    if t >= top:
        return np.int64(ihigh)
    if t < low:
        return np.int64(ilow)
    return np.int64(t)


def float_to_unsigned(x: Any, top: Any, ihigh: Any) -> Any:
    """Truncate and saturate to an unsigned type (NaN and negatives -> 0): a uint64."""
    if x != x:
        return np.uint64(0)
    t = np.trunc(x)
    if t >= top:
        return np.uint64(ihigh)
    if t < 0:
        return np.uint64(0)
    return np.uint64(t)


def round_half_away(x: Any, t: Any, one: Any) -> Any:
    """round() given t = trunc(x): halves away from zero (numerics.round_half_away)."""
    if abs(x - t) >= 0.5:  # (no call of float_sign: numba compiles each function alone)
        return t + (one if x > 0 else -one)
    return t
