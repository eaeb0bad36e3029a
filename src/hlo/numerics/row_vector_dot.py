"""A vector times a matrix stored [k, n] (m = 1, no batch) as XLA:CPU computes it: its
column-major GEMV emitter sums each result as one FMA chain from 0 in k order (measured with
jaxlib 0.10.2: bit for bit from k = 2 to 20,000 and n = 2 to 8,192). One column differs: where
n is 2 the first, where n is one more than a multiple of the vector width (8 f32, 4 f64) above
it the last, adds its products 1 to 7 without fusing them once k is 3 or more (LLVM's code for
the column the vector loop leaves over)."""

from __future__ import annotations

import numpy as np

from . import fma_loop, subnormals
from .fma import fma
from .numerics import flush_denormals

UNFUSED_STEPS = range(1, 8)  # the odd column's steps that are a multiply and an add


def applies(dtype: np.dtype, batch: int, rows: int, cols: int, k: int) -> bool:
    """Whether a [batch, rows, k] x [batch, k, cols] product is such a vector times a matrix
    (f32 and f64; the caller checks that the matrix is stored [k, n])."""
    return batch == 1 and rows == 1 and cols > 1 and k > 1 and dtype in (np.float32, np.float64)


def odd_column(dtype: np.dtype, n: int) -> int | None:
    """The column whose first steps are not fused, if any."""
    width = 8 if dtype == np.float32 else 4
    if n == 2:
        return 0
    if n > width and n % width == 1:
        return n - 1
    return None


def row_vector_dot(a: np.ndarray, b: np.ndarray, flush: bool) -> np.ndarray:
    """a [k] times b [k, n] (contiguous, flushed already), as XLA:CPU."""
    k, n = b.shape
    with np.errstate(all="ignore"):
        out = _chains(a, b, np.zeros(n, b.dtype), flush)
        odd = odd_column(b.dtype, n)
        if odd is not None and k >= 3:
            out[odd] = _odd_chain(a, np.ascontiguousarray(b[:, odd]), flush)
    return out


def _chains(a: np.ndarray, b: np.ndarray, out: np.ndarray, flush: bool) -> np.ndarray:
    """out[j] = fma(a[i], b[i, j], out[j]) for each i in turn: the native loop, or NumPy where
    it does not run or the CPU's mode cannot flush each step."""
    if not (flush and not subnormals.active()) and fma_loop.chains(a, b, out):
        return out
    for i in range(len(a)):
        out = fma(np.broadcast_to(a[i], out.shape), b[i], out)
        if flush:
            out = flush_denormals(out)
    return out


def _odd_chain(a: np.ndarray, column: np.ndarray, flush: bool) -> np.floating:
    """The odd column: its products 1-7 added after rounding, the rest fused."""
    head = min(len(column), UNFUSED_STEPS.stop)
    total = np.zeros(1, column.dtype)
    for i in range(head):
        product = a[i : i + 1], column[i : i + 1]
        total = total + product[0] * product[1] if i in UNFUSED_STEPS else fma(*product, total)
        if flush:
            total = flush_denormals(total)
    rest = np.ascontiguousarray(column[head:].reshape(-1, 1))
    return _chains(np.ascontiguousarray(a[head:]), rest, total, flush)[0]
