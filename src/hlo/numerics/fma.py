"""A fused multiply-add for NumPy arrays: `a*b + c` rounded once, as the FMA instructions that
XLA:CPU's generated code uses (its LLVM IR allows contraction, so LLVM fuses a multiply and the
add that reads it). NumPy has no such ufunc, and two roundings differ from one in the last bit;
the approximations of exp, log, tanh and erf that XLA:CPU emits are reproduced with this.

f32: the product is exact in f64 and the sum rounded there; only where that f64 sum lands on a
midpoint between two f32 values does the double rounding matter, and the sum's exact error
(Knuth's two-sum) decides the side. f64: the product's exact error (Dekker's two-product) and two
two-sums give the exact value as three doubles; the rare elements where their rounded sum could
be off (a tie in the last step, products that overflow or underflow the splitting) are computed
exactly with fractions. Results are exact everywhere, subnormal results included (callers flush
them as the CPU's mode does)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import fma_loop

_SPLIT = 134217729.0  # 2^27 + 1: Veltkamp's splitter for 53-bit doubles
_SPLIT_LIMIT = 2.0**995  # above: the splitter's product could overflow
_TINY = 2.0**-960  # below: a product's error term could underflow


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`a*b + c` rounded once to the operands' dtype (f32 or f64; broadcast as NumPy does)."""
    a, b, c = np.asarray(a), np.asarray(b), np.asarray(c)
    dtype = np.result_type(a, b, c)
    if dtype in (np.float32, np.float64):
        made = fma_loop.apply(a, b, c, dtype)  # the CPU's FMA, where the native image runs
        if made is not None:
            return made
    if dtype == np.float32:
        return nan_inputs_first(_fma32(a, b, c), a, b, c)
    if dtype == np.float64:
        return nan_inputs_first(
            _fma64(a.astype(np.float64), b.astype(np.float64), c.astype(np.float64)), a, b, c
        )
    raise TypeError(f"fma takes f32 or f64 arrays, not {dtype}")


def nan_inputs_first(result: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """A NaN result is the first NaN operand (a, then b, then c), as the CPU's vector FMA gives
    it (the native image's loop); the CPU's own NaN (negative) only where none is one (inf * 0)."""
    nan = np.isnan(result)
    if not nan.any():
        return result
    result = np.array(result, copy=True)
    for operand in (c, b, a):  # (the first operand last: it wins)
        pick = nan & np.isnan(operand)
        if pick.any():
            result[pick] = np.broadcast_to(operand, result.shape)[pick]
    return result


def _two_sum(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """s = fl(x + y) and the exact error x + y - s (Knuth; no branch, any order of magnitudes)."""
    s = x + y
    bb = s - x
    return s, (x - (s - bb)) + (y - bb)


_LOW29, _HALF29 = np.uint64((1 << 29) - 1), np.uint64(1 << 28)  # f64 bits below an f32's last bit


def _fma32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        s = np.multiply(a, b, dtype=np.float64)  # exact: 48 bits
        s += np.asarray(c, np.float64)
        result = np.asarray(s.astype(np.float32))
        # A double rounding can only go wrong where s is exactly an f32 midpoint: the f64 bits
        # below the f32's last one are 1000...0 (normal range), an odd multiple of 2^-150 below it
        tie = np.asarray((s.view(np.uint64) & _LOW29) == _HALF29)  # an array for 0-d operands too
        small = np.asarray(np.abs(s) < 2.0**-126)
        if small.any():
            tie[small] = np.mod(s[small] * 2.0**150, 2.0) == 1.0
        if tie.any():
            shape = result.shape
            pick = [np.broadcast_to(np.asarray(v, np.float64), shape)[tie] for v in (a, b, c)]
            product = pick[0] * pick[1]
            mid, err = _two_sum(product, pick[2])  # (mid: s again; err: exact - s)
            r = result[tie]
            above = r.astype(np.float64) > mid  # r is the neighbour above the midpoint
            inf = np.float32(np.inf)
            upper = np.where(above, r, np.nextafter(r, inf))
            lower = np.where(above, np.nextafter(r, -inf), r)
            # the exact value lies off the midpoint on err's side: the neighbour on that side
            result[tie] = np.where(err > 0, upper, np.where(err < 0, lower, r))
    return result


def _fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    a, b, c = np.broadcast_arrays(a, b, c)
    with np.errstate(all="ignore"):
        p = a * b
        # Dekker's two-product: p + e == a*b exactly (barring the ranges flagged below)
        ta = a * _SPLIT
        a_hi = ta - (ta - a)
        a_lo = a - a_hi
        tb = b * _SPLIT
        b_hi = tb - (tb - b)
        b_lo = b - b_hi
        e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
        s, t = _two_sum(p, c)
        u, v = _two_sum(t, e)
        r, w = _two_sum(s, u)
        result = np.array(r, dtype=np.float64)
        exact_zero = (r == 0) & (e == 0)  # the two-sums lose a zero's sign: IEEE's is p + c's
        result[exact_zero] = (p + c)[exact_zero]
        # exact = r + w + v; r is right unless w + v could reach half the step next to r
        # half the step to r's neighbours: a quarter of the step above where r is a power of two
        # (the step below it halves), else half of it (a quarter everywhere sent half the
        # elements of a Horner step with a small product to fractions)
        quarter_ulp = np.abs(np.spacing(r)) * 0.25
        power_of_two = (r.view(np.uint64) & np.uint64(0xFFFFFFFFFFFFF)) == 0
        reach = np.where(power_of_two, quarter_ulp, 2.0 * quarter_ulp)
        finite_in = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        hard = finite_in & (
            ~np.isfinite(p)
            | (np.abs(a) > _SPLIT_LIMIT)
            | (np.abs(b) > _SPLIT_LIMIT)
            | ((np.abs(p) < _TINY) & (a != 0) & (b != 0))
            | ((v != 0) & (np.abs(w) + np.abs(v) >= reach))
            | ~np.isfinite(r)
        )
        # inputs with inf or NaN: the naive result is IEEE's (inf*0 NaN, inf-inf NaN)
        special = ~finite_in
        result[special] = p[special] + c[special]
        # (an infinite c wins over a finite product, even one whose rounding overflows)
        infinite_c = np.isfinite(a) & np.isfinite(b) & np.isinf(c)
        result[infinite_c] = c[infinite_c]
    if hard.any():
        index = np.flatnonzero(hard)
        flat = result.reshape(-1)
        for i, x, y, z in zip(index, a.reshape(-1)[index], b.reshape(-1)[index], c.reshape(-1)[index]):
            flat[i] = exact_fma(float(x), float(y), float(z), 53, -1074)
        result = flat.reshape(result.shape)
    return result


def exact_fma(a: float, b: float, c: float, bits: int, min_exponent: int) -> float:
    """a*b + c of finite values rounded once (to nearest, ties to even) to a binary format of
    `bits` significand bits whose smallest step is 2**min_exponent; inf past its largest."""
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        # IEEE: an exact zero sum is +0 unless both addends are -0
        negative = (a * b == 0) and np.signbit(a) != np.signbit(b) and np.signbit(c)
        return -0.0 if negative else 0.0
    sign = -1.0 if exact < 0 else 1.0
    magnitude = abs(exact)
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1  # now 2**exponent <= magnitude < 2**(exponent + 1)
    step_exponent = max(exponent - bits + 1, min_exponent)
    scaled = magnitude / Fraction(2) ** step_exponent
    whole, rest = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * rest
    if twice > scaled.denominator or (twice == scaled.denominator and whole % 2 == 1):
        whole += 1
    try:
        return sign * float(Fraction(whole) * Fraction(2) ** step_exponent)
    except OverflowError:
        return sign * float("inf")
