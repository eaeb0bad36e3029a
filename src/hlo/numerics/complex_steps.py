"""What XLA:CPU's complex formulas are made of (hlo.numerics.complex_arith, complex_functions,
complex_expanded, complex_polar): float steps rounded in the component type and flushed as its
FTZ/DAZ modes would, FMAs where LLVM fuses a multiply into the add that is its only use, and
hlo's real ops (XLA:CPU's exp, expm1 and log, the C library's sin, cos, atan2 and pow).

The formulas run with the CPU's mode off and flush each step in software (`Steps`), so one rule
holds on every platform; the real ops run as hlo's real kernels do, in the mode where it can be
set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from . import elementwise, libm, subnormals
from .fma import fma
from .numerics import flush_denormals


class Steps:
    """A formula's float steps with XLA:CPU's flushing: each result (and each operand read)
    loses its subnormals when `flush`."""

    def __init__(self, flush: bool) -> None:
        self.flush = flush

    def __call__(self, x: Any) -> np.ndarray:
        x = np.asarray(x)
        return flush_denormals(x) if self.flush else x

    def fma(self, a: Any, b: Any, c: Any) -> np.ndarray:
        return self(fma(a, b, c))

    def real(self, fn: Callable[..., Any], *xs: np.ndarray) -> np.ndarray:
        """A real op of hlo's on operands flushed already, as its kernel computes it (in the
        CPU's mode when flushing), its result flushed."""
        with subnormals.flushing_subnormals(self.flush):
            return self(fn(*xs))

    def library(self, op: str, fallback: Callable[..., np.ndarray], *xs: np.ndarray) -> np.ndarray:
        """hlo's real `op` of the C library (atan2, power) on operands as they are: the function
        reads them in the CPU's mode (a subnormal y of atan2 comes back unflushed)."""
        if not libm.takes(op, xs[0].dtype):
            return fallback(*xs)
        with subnormals.flushing_subnormals(self.flush):
            return elementwise.in_mode(op, list(xs), self.flush, lambda: fallback(*xs))


def negated(x: np.ndarray) -> np.ndarray:
    """-x for an FMA's negated operand: the instruction subtracts, so a NaN keeps its sign."""
    return np.where(np.isnan(x), x, -x)


def parts(z: np.ndarray, step: Steps) -> tuple[np.ndarray, np.ndarray]:
    """The real and imaginary parts of z, each flushed when the mode reads them so."""
    return step(z.real.copy()), step(z.imag.copy())


def exp(x: np.ndarray) -> np.ndarray:
    from .xla_exp import exp as xla_exp

    return xla_exp(x)


def expm1(x: np.ndarray) -> np.ndarray:
    from .xla_expm1 import expm1 as xla_expm1

    return xla_expm1(x, PrimitiveType.F32 if x.dtype == np.float32 else PrimitiveType.F64)


def log(x: np.ndarray) -> np.ndarray:
    from .xla_log import log as xla_log

    return xla_log(x)


def log1p(x: np.ndarray) -> np.ndarray:
    from .xla_log import log1p as xla_log1p

    return xla_log1p(x)


def sin(x: np.ndarray) -> np.ndarray:
    return libm.apply("sine", [x]) if libm.takes("sine", x.dtype) else np.sin(x)


def cos(x: np.ndarray) -> np.ndarray:
    return libm.apply("cosine", [x]) if libm.takes("cosine", x.dtype) else np.cos(x)
