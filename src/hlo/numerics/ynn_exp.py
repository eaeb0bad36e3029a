"""YNNPACK's own exp, expm1, tanh and logistic (f32 and f64), bit for bit: the elementwise ops
XLA:CPU hands to YNNPACK with a large reduce (numerics/ynn_fusion.py) are computed by
YNNPACK's kernels, not by XLA's approximations (numerics/xla_exp.py). Softmax's exp(x - max)
over 4096 or more elements is one. (log, log1p, erf, rsqrt: numerics/ynn_math.py.)

exp (YNNPACK's generic exp with FMAs; the same bits with AVX-512 and with AVX2+FMA3, whose
kernels it builds as consistent): x is clamped (f32 [-88.0297, 88.7228], f64 [-709.0896,
709.7827]); b = round(x*log2(e)) as (x*log2e + 1.5*2^p) - 1.5*2^p (separate roundings); r =
x - b*ln2 in two FMAs (ln 2 split in a high part of few bits and a low part); 2^b from b's bits
(the lowest b gives +0, the highest inf); expm1(r) = r + r^2 * p(r), p (degree 6 in f32, 10 in
f64) evaluated as even and odd halves in r^2 (FMAs); exp(x) = fma(2^b, expm1(r), 2^b) (expm1:
with 2^b - 1 as the addend), 2^b itself where that is inf, so f32 x >= 88.3763 (f64 x >=
709.4361) overflows. tanh is e / (e + 2) with e = expm1(min(2x, 80)) (f64: 300), plus +0;
logistic, which XLA expands before YNNPACK sees it, 1 / (1 + exp(-x)), the negate folded into
exp's input (a NaN keeps its sign). Inputs and results below the smallest normal are flushed,
as XLA's threads run. Measured against XLA:CPU on ~50 million f32 and ~17 million f64 exp
arguments (bit-pattern sweeps, random rows, the edges) and millions each of the others: no
difference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import subnormals
from .fma import fma
from .numerics import flush_denormals
from .xla_exp import blocked, f32

_P32 = (0xB85127E0, 0x396ECCE9, 0x3AB93CAC, 0x3C08629E, 0x3D2AA994, 0x3E2AAAD2, 0x3EFFFFFE)
_P64 = (
    2.119890244143296032e-09, 2.521079371356939368e-08, 2.755585399809175769e-07,
    2.755675838881680360e-06, 2.480158976814372031e-05, 1.984127071808468106e-04,
    1.388888888680978647e-03, 8.333333332743943569e-03, 4.166666666668113195e-02,
    1.666666666666796748e-01, 4.999999999999995559e-01,
)  # fmt: skip
F32 = {
    "lo": f32(0xC2B00F34), "hi": f32(0x42B17218), "log2e": f32(0x3FB8AA3B),
    "round": np.float32(12582912.0), "ln2_hi": f32(0x3F317200), "ln2_lo": f32(0x35BFBE8E),
    "bias": 127, "bits": 23, "p": tuple(f32(b) for b in _P32), "tanh_cap": np.float32(80),
}  # fmt: skip
F64 = {
    "lo": np.float64(-709.0895657128241), "hi": np.float64(709.782712893384),
    "log2e": np.float64(1.4426950408889634), "round": np.float64(1.5 * 2.0**52),
    "ln2_hi": np.float64(6.93147180369123816490e-01), "ln2_lo": np.float64(1.90821492927058770002e-10),
    "bias": 1023, "bits": 52, "p": tuple(np.float64(v) for v in _P64), "tanh_cap": np.float64(300),
}  # fmt: skip


class Ops:
    """Arithmetic of one float type as YNNPACK's kernels run it: each op rounded once (an FMA
    too), inputs and results below the smallest normal flushed to a signed zero (`flush`)."""

    def __init__(self, dtype: Any, flush: bool) -> None:
        self.dtype = np.dtype(dtype)
        self.flush = flush

    def c(self, value: float) -> np.floating:
        return self.dtype.type(value)

    def ftz(self, y: np.ndarray) -> np.ndarray:
        y = np.asarray(y, self.dtype)
        return flush_denormals(y) if self.flush else y

    def fma(self, a: Any, b: Any, c: Any) -> np.ndarray:
        return self.ftz(fma(np.asarray(a, self.dtype), np.asarray(b, self.dtype), np.asarray(c, self.dtype)))

    def mul(self, a: Any, b: Any) -> np.ndarray:
        return self.ftz(np.multiply(a, b, dtype=self.dtype))

    def add(self, a: Any, b: Any) -> np.ndarray:
        return self.ftz(np.add(a, b, dtype=self.dtype))

    def div(self, a: Any, b: Any) -> np.ndarray:
        return self.ftz(np.divide(a, b, dtype=self.dtype))

    def poly(self, coefficients: tuple[np.floating, ...], x: np.ndarray, x2: np.ndarray) -> np.ndarray:
        """YNNPACK's eval_polynomial: even and odd halves in x^2 (highest degree first)."""
        y0: Any = coefficients[0]
        y1: Any = coefficients[1]
        n = len(coefficients)
        for k in range(2, n, 2):
            y0 = self.fma(x2, y0, coefficients[k])
            if k + 1 < n:
                y1 = self.fma(x2, y1, coefficients[k + 1])
        return self.fma(x, y1, y0) if n % 2 else self.fma(x, y0, y1)


def exp_minus(ops: Ops, x: np.ndarray, minus: float) -> np.ndarray:
    """exp(x) - minus (0 or 1), as YNNPACK computes it (x already flushed)."""
    k = F32 if ops.dtype == np.float32 else F64
    unsigned = np.uint32 if ops.dtype == np.float32 else np.uint64
    with np.errstate(all="ignore"):
        clamped = np.minimum(np.maximum(x, k["lo"]), k["hi"])  # (NaN stays)
        b = ops.add(ops.add(ops.mul(clamped, k["log2e"]), k["round"]), -k["round"])
        r = ops.fma(b, -k["ln2_hi"], clamped)
        r = ops.fma(b, -k["ln2_lo"], r)
        biased = ops.add(b, ops.c(2.0 ** k["bits"] + k["bias"]))
        scale = (biased.view(unsigned) << unsigned(k["bits"])).view(ops.dtype)
        scale = np.where(np.isnan(x), x, scale)
        r2 = ops.mul(r, r)
        small = ops.fma(r2, ops.poly(k["p"], r, r2), r)  # expm1(r)
        y = ops.fma(scale, small, ops.add(scale, -ops.c(minus)))
        return np.where(np.isinf(scale), scale, y).astype(ops.dtype)


def _exp(ops: Ops, x: np.ndarray) -> np.ndarray:
    return exp_minus(ops, ops.ftz(x), 0)


def _expm1(ops: Ops, x: np.ndarray) -> np.ndarray:
    return exp_minus(ops, ops.ftz(x), 1)


def _tanh(ops: Ops, x: np.ndarray) -> np.ndarray:
    cap = (F32 if ops.dtype == np.float32 else F64)["tanh_cap"]
    twice = ops.mul(ops.ftz(x), ops.c(2))
    e = exp_minus(ops, np.where(np.isnan(twice), twice, np.minimum(twice, cap)), 1)
    return ops.div(e, ops.add(e, ops.c(2))) + ops.c(0)  # (its kernel's fma(t, 1, 0): -0 is +0)


def _logistic(ops: Ops, x: np.ndarray) -> np.ndarray:
    x = ops.ftz(x)
    negated = np.where(np.isnan(x), x, -x)  # (x * -1.0 in exp's input: a NaN keeps its sign)
    return ops.div(ops.c(1), ops.add(ops.c(1), exp_minus(ops, negated, 0)))


_LOOPS = {"exponential": "exp", "exponential-minus-one": "expm1", "tanh": "tanh", "logistic": "logistic"}
FUNCTIONS: dict[str, Callable[[Ops, np.ndarray], np.ndarray]] = {
    "exponential": _exp,
    "exponential-minus-one": _expm1,
    "tanh": _tanh,
    "logistic": _logistic,
}


def function(opcode_text: str, dtype: Any, flush: bool = True) -> Callable[[np.ndarray], np.ndarray]:
    """YNNPACK's function of an op (these, and ynn_math's) for arrays of one float type: the
    plan's kernel of an instruction YNNPACK computes (numerics/ynn_fusion.MARK)."""
    from .ynn_math import FUNCTIONS as MATH

    compute = FUNCTIONS.get(opcode_text) or MATH[opcode_text]
    ops = Ops(dtype, flush)
    loop = _LOOPS.get(opcode_text)

    def run(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, ops.dtype)
        if loop is not None:
            from . import ynn_exp_loop

            if ynn_exp_loop.takes(x.size):  # (machine code: the same steps, the CPU's FMA)
                if subnormals.active():  # (the CPU's mode flushes as the kernels run)
                    return ynn_exp_loop.apply(loop, x)
                return ops.ftz(ynn_exp_loop.apply(loop, ops.ftz(x)))
        return blocked(lambda v: compute(ops, v), x)

    return run
