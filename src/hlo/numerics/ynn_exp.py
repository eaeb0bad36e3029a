"""YNNPACK's own f32 exp, expm1, tanh and logistic, bit for bit: the elementwise ops XLA:CPU
hands to YNNPACK with a large reduce (numerics/ynn_fusion.py) are computed by YNNPACK's kernels,
not by XLA's approximations (numerics/xla_exp.py). Softmax's exp(x - max) over 4096 or more
elements is one.

exp (YNNPACK's generic exp with FMAs; the same bits with AVX-512 and with AVX2+FMA3, whose f32
kernels it builds as consistent): x is clamped to [-88.0297, 88.7228]; b = round(x*log2(e))
as (x*log2e + 1.5*2^23) - 1.5*2^23 (separate roundings); r = x - b*ln2 in two FMAs (ln 2 split
in a high part of few bits and a low part); 2^b from b's bits (b = -127 gives +0, 128 gives
inf); expm1(r) = r + r^2 * p(r), p of degree 6 evaluated as even and odd halves in r^2 (FMAs);
exp(x) = fma(2^b, expm1(r), 2^b) (expm1: with 2^b - 1 as the addend), 2^b itself where that is
inf, so x >= 88.3763 overflows. Results below 2^-126 are flushed, as XLA's threads run.
tanh is e / (e + 2) with e = expm1(min(2x, 80)); logistic, which XLA expands before YNNPACK
sees it, 1 / (1 + exp(-x)). Measured against XLA:CPU on about 50 million exp arguments (every
61st f32 bit pattern in [-104, 89] and random rows) and 2 million each of expm1, tanh and
logistic: no difference.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .xla_exp import blocked, f32, fma32

_LO, _HI = f32(0xC2B00F34), f32(0x42B17218)
_LOG2E, _LN2_HI, _LN2_LO = f32(0x3FB8AA3B), f32(0x3F317200), f32(0x35BFBE8E)
_ROUND = np.float32(12582912.0)  # 1.5 * 2^23: adding and subtracting it rounds to an integer
_BIAS = np.float32(8388735.0)  # 2^23 + 127: b's bits then hold b + 127 in the low bits
_P = tuple(
    f32(b) for b in (0xB85127E0, 0x396ECCE9, 0x3AB93CAC, 0x3C08629E, 0x3D2AA994, 0x3E2AAAD2, 0x3EFFFFFE)
)
_TINY = np.float32(2.0**-126)


def _exp_minus(x: np.ndarray, minus: np.float32, flush: bool) -> np.ndarray:
    """exp(x) - minus (0 or 1) of flat f32 values, as YNNPACK computes it."""
    with np.errstate(all="ignore"):
        clamped = np.minimum(np.maximum(x, _LO), _HI)  # (NaN stays)
        b = (clamped * _LOG2E + _ROUND) - _ROUND
        r = fma32(b, -_LN2_HI, clamped)
        r = fma32(b, -_LN2_LO, r)
        scale = ((b + _BIAS).view(np.uint32) << np.uint32(23)).view(np.float32)
        scale = np.where(np.isnan(x), x, scale)
        r2 = r * r
        even = fma32(r2, _P[0], _P[2])
        odd = fma32(r2, _P[1], _P[3])
        even = fma32(r2, even, _P[4])
        odd = fma32(r2, odd, _P[5])
        even = fma32(r2, even, _P[6])
        small = fma32(r2, fma32(r, odd, even), r)  # expm1(r)
        y = fma32(scale, small, scale - minus)
        y = np.where(np.isinf(scale), scale, y).astype(np.float32)
    return _flushed(y, flush)


def _flushed(y: np.ndarray, flush: bool) -> np.ndarray:
    """Results below 2^-126 as the CPU's flush-to-zero mode gives them (a signed zero)."""
    if flush:
        tiny = np.abs(y) < _TINY
        y[tiny] = np.copysign(np.float32(0), y[tiny])
    return y


def exp(x: np.ndarray, flush: bool = True) -> np.ndarray:
    return blocked(lambda v: _exp_minus(v, np.float32(0), flush), np.asarray(x, np.float32))


def expm1(x: np.ndarray, flush: bool = True) -> np.ndarray:
    return blocked(lambda v: _exp_minus(v, np.float32(1), flush), np.asarray(x, np.float32))


def tanh(x: np.ndarray, flush: bool = True) -> np.ndarray:
    def rows(v: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            e = _exp_minus(np.minimum(v + v, np.float32(80)), np.float32(1), flush)
            return _flushed((e / (e + np.float32(2))).astype(np.float32), flush)

    return blocked(rows, np.asarray(x, np.float32))


def logistic(x: np.ndarray, flush: bool = True) -> np.ndarray:
    def rows(v: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            e = _exp_minus(-v, np.float32(0), flush)
            return _flushed((np.float32(1) / (np.float32(1) + e)).astype(np.float32), flush)

    return blocked(rows, np.asarray(x, np.float32))


_FUNCTIONS = {"exponential": exp, "exponential-minus-one": expm1, "tanh": tanh, "logistic": logistic}


def kernel(opcode_text: str, flush: bool) -> Callable[[np.ndarray], np.ndarray]:
    """The plan's kernel of an instruction YNNPACK computes (numerics/ynn_fusion.MARK)."""
    function = _FUNCTIONS[opcode_text]
    return lambda x: function(x, flush)
