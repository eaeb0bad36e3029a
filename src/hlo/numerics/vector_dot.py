"""A dot of two vectors (every free dimension of size 1, any batch) as XLA:CPU computes it: its
simplifier rewrites such a dot into a multiply and a reduce over the contracted elements. Up
to 32 of them the two run as one loop, whose adds take the products as FMAs, from 0 in order
(but as separate multiplies and adds for 5 to 8 elements where the batch is a multiple of 4,
the loop vectorized across the batch); from 33 on the reduce is XLA's reduce of the products
(its tree rewrite or its vector kernels: hlo.numerics.reduction.float_sum). One contracted
element stays a product. Bit for bit on f32; f64 batches of 4096 or more products with fewer
than 4096 a result, which XLA:CPU fuses into YNNPACK's reduce, are within rounding
(docs/SEMANTICS.md)."""

from __future__ import annotations

import numpy as np

from .fma import fma
from .numerics import flush_denormals
from .reduction import float_sum

FUSED_LOOP = 32  # at most this many elements: multiply and reduce in one loop


def applies(dtype: np.dtype, rows: int, cols: int, k: int) -> bool:
    """Whether a [batch, rows, k] x [batch, k, cols] product in `dtype` is a dot of vectors
    that XLA:CPU rewrites (f32 and f64; more than one contracted element)."""
    return rows == 1 and cols == 1 and k > 1 and dtype in (np.float32, np.float64)


def separate_multiplies(batch: int, k: int) -> bool:
    """Whether XLA:CPU's loop of up to 32 products adds them without FMAs: 5 to 8 products a
    result in batches of a multiple of 4 (the loop vectorized across the batch)."""
    return batch % 4 == 0 and 5 <= k <= 8


def vector_dot(a: np.ndarray, b: np.ndarray, flush: bool) -> np.ndarray:
    """sum(a * b) over the last axis of two [batch, k] arrays (flushed already), as XLA:CPU."""
    batch, k = a.shape
    with np.errstate(all="ignore"):
        if k > FUSED_LOOP:
            return float_sum(b * a, 1, flush)
        plain = separate_multiplies(batch, k)
        total = np.zeros(batch, a.dtype)
        for j in range(k):
            total = total + a[:, j] * b[:, j] if plain else fma(a[:, j], b[:, j], total)
            if flush:
                total = flush_denormals(total)
        return total
