"""Sign, remainder and clamp of constants as XLA's folders compute them, where their rules differ
from XLA:CPU's kernels (tests/golden/ops/exact_subnormal_folds.npz, made by
tools/make_fold_fixtures.py). StableHLO's folder works on exact values, subnormals kept
(hlo.runtime.mlir_folds says which ops it takes); XLA's evaluator, which folds what it leaves,
runs in the CPU's flush-to-zero mode."""

from __future__ import annotations

import numpy as np

from .numerics import flush_denormals


def folded_sign(x: np.ndarray) -> np.ndarray:
    """StableHLO's sign of floats without NaN (it folds no sign of a NaN): +0 for either zero,
    else 1 with the operand's sign, subnormals included."""
    one = np.copysign(np.ones_like(x), x)
    return np.where(x == 0, np.zeros_like(x), one)


def folded_remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """StableHLO's float remainder (APFloat's fmod), subnormal divisors kept; an invalid one
    (of an infinity, by zero) is the positive quiet NaN, a NaN operand passes."""
    with np.errstate(all="ignore"):
        r = np.fmod(a, b)
    invalid = np.isnan(r) & ~np.isnan(a) & ~np.isnan(b)
    if invalid.any():
        r = np.where(invalid, np.array(np.nan, r.dtype), r)
    return r


def evaluated_clamp(low: np.ndarray, x: np.ndarray, high: np.ndarray) -> np.ndarray:
    """XLA's evaluator's clamp, min(max(x, low), high) with the standard library's max and min
    (the first operand unless the other compares greater, resp. smaller), compared in the
    CPU's flush-to-zero mode: clamp(0, -0.0, 1) is -0.0, clamp(0, -1e-40, 1) is -1e-40."""
    work = np.float64 if x.dtype == np.float64 else np.float32
    lo, v, hi = (flush_denormals(np.asarray(t, work)) for t in (low, x, high))
    with np.errstate(invalid="ignore"):
        below = v < lo
        m = np.where(below, low, x)
        above = hi < np.where(below, lo, v)
    return np.asarray(np.where(above, high, m), x.dtype)
