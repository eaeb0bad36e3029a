"""Elementwise ops on complex values as XLA:CPU computes them, where that is not NumPy's answer
(each rule pinned by fixtures from XLA:CPU in tests/golden/ops/exact_complex.npz).

These functions take the operands unflushed and a `flush` flag: XLA:CPU's FTZ/DAZ modes touch
only the float arithmetic inside each formula, not the values an op passes through (a complex
maximum returns one of its operands bit for bit, subnormal parts included).
"""

from __future__ import annotations

import numpy as np

from .numerics import flush_denormals, make_complex


def _flushed(x: np.ndarray, flush: bool) -> np.ndarray:
    return flush_denormals(x) if flush else x


def maximum(a: np.ndarray, b: np.ndarray, flush: bool) -> np.ndarray:
    """XLA:CPU orders complex values by their real parts alone (not the spec's lexicographic
    order): a when re(a) >= re(b), else b, so equal real parts keep the first operand and a NaN
    real part in a gives b."""
    with np.errstate(invalid="ignore"):
        pick_a = _flushed(a.real.copy(), flush) >= _flushed(b.real.copy(), flush)
    return np.asarray(np.where(pick_a, a, b))


def minimum(a: np.ndarray, b: np.ndarray, flush: bool) -> np.ndarray:
    """As `maximum`, with re(a) <= re(b)."""
    with np.errstate(invalid="ignore"):
        pick_a = _flushed(a.real.copy(), flush) <= _flushed(b.real.copy(), flush)
    return np.asarray(np.where(pick_a, a, b))


def sign(x: np.ndarray, flush: bool) -> np.ndarray:
    """x / |x| part by part (so -0 keeps its sign and inf + 1j gives nan + 0j), and x itself
    where |x| is zero after flushing (a subnormal x comes back unchanged)."""
    magnitude = _flushed(np.abs(x), flush)
    zero = magnitude == 0
    safe = np.where(zero, 1, magnitude)
    with np.errstate(all="ignore"):
        parts = make_complex(_flushed(x.real / safe, flush), _flushed(x.imag / safe, flush))
    return np.asarray(np.where(zero, x, parts.astype(x.dtype)))


def atan2(y: np.ndarray, x: np.ndarray, flush: bool) -> np.ndarray:
    """XLA's complex atan2: -i * log((x + i y) / sqrt(x^2 + y^2)), in the operand type, with
    XLA's polar square root and log(|z|) + i arg(z) (their branch cuts: atan2(0, -2.5 + 0.5i)
    is -pi, not pi)."""
    with np.errstate(all="ignore"):
        y, x = _flushed(y, flush), _flushed(x, flush)
        ratio = (x + _times_i(y)) / _polar_sqrt(x * x + y * y)
        log = make_complex(np.log(np.abs(ratio)), np.arctan2(ratio.imag, ratio.real))
        result = _times_minus_i(log.astype(y.dtype))
    return np.asarray(_flushed(result, flush))


def _polar_sqrt(z: np.ndarray) -> np.ndarray:
    """sqrt(|z|) (cos(t/2) + i sin(t/2)) with t = arg z: XLA's complex square root."""
    half = np.arctan2(z.imag, z.real) * np.array(0.5, z.real.dtype)
    root = np.sqrt(np.abs(z))
    result = make_complex(root * np.cos(half), np.where(np.sin(half) == 0, np.sin(half), root * np.sin(half)))
    return np.where(root == 0, np.zeros((), z.dtype), result.astype(z.dtype))


def _times_i(z: np.ndarray) -> np.ndarray:
    """i*z without NumPy's (0+1j)*inf = nan + inf j."""
    return make_complex(-z.imag, z.real.copy()).astype(z.dtype)


def _times_minus_i(z: np.ndarray) -> np.ndarray:
    return make_complex(z.imag.copy(), -z.real).astype(z.dtype)


def power(a: np.ndarray, b: np.ndarray, flush: bool) -> np.ndarray:
    """XLA's complex power, (a^2 + b^2)^(c/2) * e^(-d atan2(b, a)) * (cos q + i sin q) with
    q = c atan2(b, a) + d/2 ln(a^2 + b^2) for (a + bi)^(c + di), computed in the component
    type (not NumPy's formula: far apart for large magnitudes); 0^(c + 0i) is 0 for c > 0,
    any other power of 0 is NaN."""
    dtype = a.dtype
    with np.errstate(all="ignore"):
        a, b = _flushed(a, flush), _flushed(b, flush)
        re, im, c, d = a.real, a.imag, b.real, b.imag
        squares = _flushed(re * re + im * im, flush)
        angle = np.arctan2(im, re)
        coeff = np.power(squares, c * 0.5) * np.exp(-d * angle)
        # a real exponent adds no log term (inf^0.5 is inf + 0i, not NaN from 0 * log(inf)),
        # and a zero sine gives a zero imaginary part whatever the magnitude
        q = c * angle + np.where(d == 0, 0, (d * 0.5) * np.log(squares))
        sin_q = np.sin(q)
        imag = np.where(sin_q == 0, sin_q, coeff * sin_q)
        result = make_complex(coeff * np.cos(q), imag).astype(dtype)
        zero_base = (squares == 0) & (d == 0) & (c >= 0)
        special = make_complex(np.where(c == 0, 1, 0).astype(re.dtype), np.zeros_like(re)).astype(dtype)
        result = np.where(zero_base, special, result)
        nan = np.array(complex(np.nan, np.nan), dtype)
        result = np.where((squares == 0) & ~zero_base, nan, result)  # 0^-1 is NaN, not inf
        # as C's pow: x^0 is 1 and 1^y is 1, NaN or infinite x and y included
        one = ((c == 0) & (d == 0)) | ((re == 1) & (im == 0))
        result = np.where(one, np.ones((), dtype), result)
    return np.asarray(_flushed(result, flush))
