"""A matrix [m, k] times a vector (n = 1, no batch) as XLA:CPU computes it: its row-major GEMV
emitter keeps, per row, one vector register of FMA chains (8 lanes f32, 4 f64; lane l takes the
elements l, l + lanes, ... of the first k - k mod lanes) and one more chain over the rest, adds
the lanes up (neighbours first for rows in a tile of as many rows as lanes, tiles being 8 rows
and the last m mod 8; halving for the others), then the last chain (read from its LLVM IR;
measured bit for bit with jaxlib 0.10.2 up to [8192, 512] and [3, 20000]). The native image's
loop (hlo.numerics.fma_loop) or NumPy computes it."""

from __future__ import annotations

import numpy as np

from . import fma_loop, subnormals
from .fma import fma
from .numerics import flush_denormals

TILE_ROWS = 8


def applies(dtype: np.dtype, batch: int, rows: int, cols: int, k: int) -> bool:
    """Whether a [batch, rows, k] x [batch, k, cols] product is a matrix times a vector (f32
    and f64; the caller checks that both are stored in order)."""
    return batch == 1 and cols == 1 and rows > 1 and k > 1 and dtype in (np.float32, np.float64)


def lanes(dtype: np.dtype) -> int:
    return fma_loop.LANES[8 * dtype.itemsize]


def pairwise_rows(dtype: np.dtype, m: int) -> np.ndarray:
    """Which rows add their lanes neighbours first: those in a tile of as many rows as lanes."""
    tile = np.where(np.arange(m) < m - m % TILE_ROWS, TILE_ROWS, m % TILE_ROWS)
    return np.asarray(tile == lanes(dtype))


def matrix_vector_dot(w: np.ndarray, x: np.ndarray, flush: bool) -> np.ndarray:
    """w [m, k] times x [k] (contiguous, flushed already), as XLA:CPU."""
    software = flush and not subnormals.active()  # (the machine code cannot flush each step)
    if not software:
        made = fma_loop.rows(w, x)
        if made is not None:
            return made
    with np.errstate(all="ignore"):
        return _numpy(w, x, flush)


def _numpy(w: np.ndarray, x: np.ndarray, flush: bool) -> np.ndarray:
    m, k = w.shape
    width = lanes(w.dtype)
    main = k - k % width
    step = flush_denormals if flush else (lambda v: v)
    acc = np.zeros((m, width), w.dtype)
    blocks = w[:, :main].reshape(m, main // width, width)
    for s in range(main // width):
        acc = step(fma(blocks[:, s, :], np.broadcast_to(x[s * width : (s + 1) * width], (m, width)), acc))
    rest = np.zeros(m, w.dtype)
    for i in range(main, k):
        rest = step(fma(w[:, i], np.broadcast_to(x[i], m), rest))
    v = [acc[:, j] for j in range(width)]
    pairs, halves = list(v), list(v)
    while len(pairs) > 1:
        pairs = [step(pairs[j] + pairs[j + 1]) for j in range(0, len(pairs), 2)]
        half = len(halves) // 2
        halves = [step(halves[j] + halves[j + half]) for j in range(half)]
    total = np.where(pairwise_rows(w.dtype, m), pairs[0], halves[0])
    return step(total + rest)
