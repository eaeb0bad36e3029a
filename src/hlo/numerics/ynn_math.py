"""YNNPACK's own log, log1p, erf and rsqrt (f32 and f64), bit for bit, for the ops XLA:CPU hands
to YNNPACK with a large reduce (numerics/ynn_fusion.py); its exp family is numerics/ynn_exp.py,
whose arithmetic (`Ops`: each op rounded once, subnormals flushed) these share.

- log: the exponent e from the bits (the CPU's getexp: 0 and flushed subnormals give -inf, a
  negative argument the default NaN, +qNaN), the mantissa m in [1, 2) halved (e + 1) above
  sqrt(2), r = m - 1; log = fma(e, ln 2, fma(r^2, P(r)/Q(r), r)), P and Q (f32: 3 and 3
  coefficients, f64: 6 and 7) as even and odd halves. log1p: the same of 1 + x, with r = x
  where e is 0.
- erf: f32 a polynomial in x^2 below 0.8, else 1 - exp(-x^2) * (one of two polynomials in |x|,
  split at 1.6), |x| clamped to 3.8 (so erf(inf) is 0.99999994); f64 x P(x^2)/Q(x^2) below 0.9,
  else 1 - exp(-x^2) R(|x|)/S(|x|), |x| clamped to 5.9216; the sign copied, plus +0.
- rsqrt: 1 / sqrt(x), two roundings (not the CPU's estimate XLA's own rsqrt refines).
Measured against XLA:CPU on 3.4 to 6.9 million arguments each (bit-pattern sweeps over the whole
range, random values, the edges): no difference.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .ynn_exp import Ops, exp_minus


def _values(dtype: type, *numbers: float) -> tuple[np.floating, ...]:
    return tuple(np.dtype(dtype).type(v) for v in numbers)


_LOG_P = {
    np.float32: _values(np.float32, -5.2293352783e-03, -3.3127889037e-01, -4.9999964237e-01),
    np.float64: _values(
        np.float64, -2.956046447212538203e-03, -6.691314126082094360e-02, -4.289980732181625789e-01,
        -1.110965361416291097e00, -1.242991301338429500e00, -4.999999999999990008e-01,
    ),
}  # fmt: skip
_LOG_Q = {
    np.float32: _values(np.float32, 3.9658042789e-01, 1.3292170763e00, 1.0),
    np.float64: _values(
        np.float64, 3.009181610003072455e-03, 7.942469932969810353e-02, 6.369060590899747742e-01,
        2.230802780023532605e00, 3.823696902394678077e00, 3.152649269343555716e00, 1.0,
    ),
}  # fmt: skip
_ERF32_P = _values(
    np.float32, -5.3975224728e-04, 3.3581661410e-04, 4.4070379809e-03, -2.6605917141e-02,
    1.1280037463e-01, -3.7612470984e-01, 1.1283792257e00,
)  # fmt: skip
_ERF32_Q = _values(
    np.float32, 4.4372659177e-03, -4.2624399066e-02, 1.8425463140e-01, -4.7879990935e-01,
    8.4492594004e-01, -1.0771834850e00, 9.9257355928e-01,
)  # fmt: skip
_ERF32_R = _values(
    np.float32, 1.7328218382e-04, -3.4217946231e-03, 2.9065947980e-02, -1.3891060650e-01,
    4.0989130735e-01, -7.6906991005e-01, 8.9860576391e-01,
)  # fmt: skip
_ERF64_P = _values(
    np.float64, 4.707472733925238136e-06, 3.014938943048711055e-04, 4.833419366839060254e-03,
    5.586134426461496910e-02, 2.245425768504930031e-01, 1.128379167095512559e00,
)  # fmt: skip
_ERF64_Q = _values(
    np.float64, 4.976158428165628768e-05, 1.342648224661756101e-03, 1.717640610916350632e-02,
    1.269488309955372762e-01, 5.323290108487849226e-01, 1.0,
)  # fmt: skip
_ERF64_R = _values(
    np.float64, 1.042556497169926936e-11, -6.304186434426881222e-04, -3.920088302332867466e-03,
    -3.103366730622623363e-03, 6.629233211348599386e-02, 3.689538153966010481e-01,
    9.764178805043777221e-01, 1.425066041265239392e00, 1.000000055826762768e00,
)  # fmt: skip
_ERF64_S = _values(
    np.float64, -1.117386819582624584e-03, -6.948208453039030758e-03, -6.058667712054027939e-03,
    1.140182429407544523e-01, 6.518376428169493364e-01, 1.792305339163592581e00,
    2.857670033198485893e00, 2.553445786610691215e00, 1.0,
)  # fmt: skip
_LN2 = 6.93147180559945309e-01


def _exponent(ops: Ops, y: np.ndarray) -> np.ndarray:
    """The CPU's getexp of flushed values: floor(log2 |y|); -inf at 0, inf at inf, NaN kept, and
    the default NaN (+qNaN) for a negative y."""
    wide = ops.dtype == np.float64
    unsigned = np.uint64 if wide else np.uint32
    mantissa_bits, bias = (52, 1023) if wide else (23, 127)
    bits = y.view(unsigned) >> unsigned(mantissa_bits)
    field = (bits & unsigned((1 << (8 * ops.dtype.itemsize - 1 - mantissa_bits)) - 1)).astype(np.int64)
    e = (field - bias).astype(ops.dtype)
    e = np.where(field == 0, ops.c(-np.inf), e)
    e = np.where(np.isinf(y), ops.c(np.inf), e)
    e = np.where(np.isnan(y), y, e)
    default = np.array(0x7FF8000000000000 if wide else 0x7FC00000, unsigned).view(ops.dtype)
    return np.where(y < 0, default, e).astype(ops.dtype)


def _log(ops: Ops, x: np.ndarray, plus_one: bool = False) -> np.ndarray:
    wide = ops.dtype == np.float64
    unsigned = np.uint64 if wide else np.uint32
    low, one_bits = (0x000FFFFFFFFFFFFF, 0x3FF0000000000000) if wide else (0x007FFFFF, 0x3F800000)
    x = ops.ftz(x)
    with np.errstate(all="ignore"):
        y = ops.add(x, ops.c(1)) if plus_one else x
        e = _exponent(ops, y)
        m = ((y.view(unsigned) & unsigned(low)) | unsigned(one_bits)).view(ops.dtype)
        large = m > ops.c(1.41421356237309504880)
        e = np.where(large, ops.add(e, ops.c(1)), e)
        m = np.where(large, ops.mul(m, ops.c(0.5)), m)
        r = ops.add(m, ops.c(-1))
        if plus_one:
            r = np.where(e == 0, x, r)
        r2 = ops.mul(r, r)
        kind = np.float64 if wide else np.float32
        ratio = ops.div(ops.poly(_LOG_P[kind], r, r2), ops.poly(_LOG_Q[kind], r, r2))
        return ops.fma(e, ops.c(_LN2), ops.fma(r2, ratio, r))


def _log1p(ops: Ops, x: np.ndarray) -> np.ndarray:
    return _log(ops, x, plus_one=True)


def _horner(ops: Ops, coefficients: tuple[np.floating, ...], x: np.ndarray) -> np.ndarray:
    y: np.ndarray = np.asarray(coefficients[0], ops.dtype)
    for c in coefficients[1:]:
        y = ops.fma(x, y, c)
    return y


def _erf(ops: Ops, x: np.ndarray) -> np.ndarray:
    wide = ops.dtype == np.float64
    x = ops.ftz(x)
    with np.errstate(all="ignore"):
        magnitude = np.abs(x)
        cap = ops.c(5.921591921591922159 if wide else 3.8)
        a = np.where(np.isnan(magnitude), magnitude, np.minimum(magnitude, cap))
        a2 = ops.mul(a, a)
        if wide:
            small = ops.mul(a, ops.div(_horner(ops, _ERF64_P, a2), _horner(ops, _ERF64_Q, a2)))
            tail = ops.div(_horner(ops, _ERF64_R, a), _horner(ops, _ERF64_S, a))
            split = ops.c(0.9)
        else:
            small = ops.mul(a, _horner(ops, _ERF32_P, a2))
            tail = np.where(a < ops.c(1.6), _horner(ops, _ERF32_Q, a), _horner(ops, _ERF32_R, a))
            split = ops.c(0.8)
        large = ops.add(ops.c(1), -ops.mul(exp_minus(ops, -a2, 0), tail))
        e = np.where(a < split, small, large).astype(ops.dtype)
        return np.copysign(e, x).astype(ops.dtype) + ops.c(0)  # (its kernel's fma(e, 1, 0))


def _rsqrt(ops: Ops, x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return ops.div(ops.c(1), np.sqrt(ops.ftz(x)))


FUNCTIONS: dict[str, Callable[[Ops, np.ndarray], np.ndarray]] = {
    "log": _log,
    "log-plus-one": _log1p,
    "erf": _erf,
    "rsqrt": _rsqrt,
}
