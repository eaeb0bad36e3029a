"""Elementwise ops on complex values as XLA:CPU computes them, where that is not NumPy's answer
(each rule pinned by fixtures from XLA:CPU in tests/golden/ops/exact_complex.npz).

These functions take the operands unflushed and a `flush` flag: XLA:CPU's FTZ/DAZ modes touch
only the float arithmetic inside each formula, not the values an op passes through (a complex
maximum returns one of its operands bit for bit, subnormal parts included).
"""

from __future__ import annotations

import numpy as np

from .numerics import flush_denormals


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
