"""Matrix products as XLA:CPU computes them on YNNPACK: f32 and f64 dots whose lhs is stored
[batch, m, k] and whose rhs is [batch, k, n] or [batch, n, k], with m and n above 1 and one of
m, n, k at least 8 (XLA's IsDotSupportedByYnn). What fixes the bits:

- The kernel (hlo.numerics.ynn_kernels) is chosen once for m = 2048 and the real n and k; its
  `tile_k` (1, 2 or 4) is how many running sums each result has, product k going to sum
  k mod tile_k, each an FMA chain from +0, joined as s0 + s1 or (s0 + s1) + (s2 + s3).
- The rhs is packed (its columns in blocks) unless a kernel with one sum that reads it as it
  is costs at most twice as much and the lhs has at most 10 of its row blocks; unpacked, each
  result is one sum (tile_k 1).
- k is cut into chunks whose rhs part fits 128 KiB: each chunk summed from zero, then added to
  the result (`chunk + result`); the k mod tile_k last products are one more chunk, padded
  with zeros to tile_k.
- The output is cut into tiles for threads (by rows and columns only: the order of a sum does
  not depend on the thread count), and each tile takes the cheapest kernel of the same tile_k
  for its own size: an edge tile may get one whose products are rounded before they are added.

Read from XLA's YNNPACK emitter and XNNPACK's ynnpack sources (jaxlib 0.10.2), and measured
against XLA:CPU on an AVX-512 CPU (tests/golden/kernels/ynn_dots.npz)."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import fma_loop, subnormals
from .fma import fma
from .numerics import flush_denormals
from .ynn_kernels import Kernel, host_arches, select, table

PLANNED_ROWS = 2048  # the m YNNPACK plans a product for before it knows the lhs
CHUNK_BYTES = 128 * 1024  # the rhs part a chunk of k reads
MIN_LARGEST = 8  # one of m, n, k at least this


def applies(dtype: np.dtype, rows: int, cols: int, k: int) -> bool:
    """Whether XLA:CPU runs a [batch, rows, k] x [batch, k, cols] product of `dtype` (its
    operands stored as YNNPACK takes them: the caller checks) on YNNPACK, and this CPU's
    kernels are modelled."""
    return (
        dtype in (np.float32, np.float64)
        and rows > 1
        and cols > 1
        and k >= 1
        and max(rows, cols, k) >= MIN_LARGEST
        and host_arches() is not None
    )


def operands(
    lhs_rank: int,
    rhs_rank: int,
    lhs_batch: Sequence[int],
    lhs_contracting: Sequence[int],
    rhs_batch: Sequence[int],
    rhs_contracting: Sequence[int],
) -> bool | None:
    """Whether XLA hands YNNPACK the rhs transposed ([batch, n, k]); None where it does not run
    such a dot there. XLA's DotDecomposer first transposes the operands of a dot with several
    contracting or free dimensions, or batch dimensions not leading, to [batch, m, k] and
    [batch, k, n]; other dots keep their operands, and YNNPACK takes an lhs [batch, m, k] and an
    rhs [batch, k, n] or [batch, n, k]."""
    nb = len(lhs_batch)
    lhs_free = [d for d in range(lhs_rank) if d not in lhs_batch and d not in lhs_contracting]
    rhs_free = [d for d in range(rhs_rank) if d not in rhs_batch and d not in rhs_contracting]
    if not (
        len(lhs_contracting) == 1
        and len(lhs_free) <= 1
        and len(rhs_free) <= 1
        and tuple(lhs_batch) == tuple(rhs_batch) == tuple(range(nb))
    ):
        return False
    if (*lhs_batch, *lhs_free, *lhs_contracting) != tuple(range(lhs_rank)):
        return None
    if (*rhs_batch, *rhs_contracting, *rhs_free) == tuple(range(rhs_rank)):
        return False
    if (*rhs_batch, *rhs_free, *rhs_contracting) == tuple(range(rhs_rank)):
        return True
    return None


@dataclass(frozen=True)
class Plan:
    """What YNNPACK decides before it sees the values."""

    kernels: tuple[Kernel, ...]  # this CPU's, in YNNPACK's order
    tile_k: int
    packed_columns: int | None  # the packed rhs's column blocks; None: unpacked
    tile_rows: int  # a thread's tile of the output
    tile_cols: int

    def kernel(self, rows: int, cols: int, k: int) -> Kernel:
        """The kernel of an output tile of this size (YNNPACK's choice at run time)."""
        return _kernel_of(self, rows, cols, k)


@functools.lru_cache(maxsize=512)
def _kernel_of(plan: Plan, rows: int, cols: int, k: int) -> Kernel:
    whole = k - k % plan.tile_k
    return select(
        list(plan.kernels),
        rows,
        cols,
        whole,
        tile_k=plan.tile_k,
        packed_columns=plan.packed_columns,
        unaligned_b=plan.packed_columns is None,
    )[0]


@functools.lru_cache(maxsize=512)
def plan(dtype: np.dtype, rows: int, cols: int, k: int, rhs_transposed: bool, arches: frozenset[str]) -> Plan:
    """YNNPACK's plan for a [rows, k] x [k, cols] product (the rhs stored [n, k] when
    `rhs_transposed`: YNNPACK packs it whatever the costs) on CPUs with `arches`."""
    kernels = table(np.dtype(dtype), arches)
    size = np.dtype(dtype).itemsize
    best, cost = select(kernels, PLANNED_ROWS, cols, k)
    if best.tile_k == 1:
        plain, plain_cost = best, cost
    else:
        plain, plain_cost = select(kernels, PLANNED_ROWS, cols, k, tile_k=1, unaligned_b=True)
    pack = (
        not plain.unaligned_b
        or plain_cost > cost * np.float32(2)
        or rhs_transposed
        or math.ceil(rows / plain.block[0]) > 10
    )
    if pack:
        columns = best.block[1] * max(1, (CHUNK_BYTES // size) // (best.block[1] * k))
        tile_n = best.tile[1]
        columns = max(tile_n, min(-(-cols // tile_n) * tile_n, columns))
        tile_rows, tile_cols = _thread_tiles(rows, cols, k, columns)
        return Plan(tuple(kernels), best.tile_k, columns, tile_rows, tile_cols)
    tile_rows, tile_cols = _thread_tiles(rows, cols, k, max(64 // size, plain.block[1]))
    return Plan(tuple(kernels), 1, None, tile_rows, tile_cols)


def _thread_tiles(rows: int, cols: int, k: int, block_cols: int) -> tuple[int, int]:
    """The output tile each task of YNNPACK's scheduler computes: doubled along the shorter
    side (columns up to 4x the rows) from [min(rows, 16), min(cols, block_cols)] until it
    holds enough work (choose_split_factors)."""
    k = min(k, 1024)
    min_area, max_area, max_cost = min(rows, 64) * min(cols, 64), 256 * 256, 1024 * 64
    tr, tc = min(rows, 16), min(cols, block_cols)
    while True:
        if tr * tc >= min_area and ((tr + tc) * k >= max_cost or tr * tc >= max_area):
            break
        if (4 * tc <= tr or tr >= rows) and tc < cols:
            tc *= 2
        elif (tr <= 4 * tc or tc >= cols) and tr < rows:
            tr *= 2
        else:
            break
    return min(tr, 32768), min(tc, 65536)


def dot(a: np.ndarray, b: np.ndarray, rhs_transposed: bool, flush: bool) -> np.ndarray:
    """a [batch, m, k] times b [batch, k, n] (C-contiguous, one float type, flushed already)
    as YNNPACK sums it on this CPU."""
    arches = host_arches()
    assert arches is not None
    batch, rows, k = a.shape
    cols = b.shape[2]
    p = plan(a.dtype, rows, cols, k, rhs_transposed, arches)
    out = np.empty((batch, rows, cols), a.dtype)
    # the native loop where no product can meet two NaNs (which of them an FMA keeps depends
    # on LLVM's choice of instruction): elsewhere NumPy's FMA, which keeps the first, as the
    # compiled tier's does (hlo.numerics.jit_ynn_tile)
    native = bool(np.isfinite(a).all() and np.isfinite(b).all())
    with np.errstate(all="ignore"):
        for j in range(batch):
            _product(a[j], b[j], out[j], p, flush, native)
    return out


@dataclass(frozen=True)
class Tile:
    """An output tile, its kernel's arithmetic and its chunks' length."""

    rows: tuple[int, int]
    cols: tuple[int, int]
    step: int  # products a chunk (of the first k - k mod tile_k)
    fused: bool


def tiles(p: Plan, rows: int, cols: int, k: int, size: int) -> list[Tile]:
    """The output tiles of a [rows, k] x [k, cols] product of `size`-byte floats."""
    found = []
    whole = k - k % p.tile_k
    for j0 in range(0, cols, p.tile_cols):
        j1 = min(cols, j0 + p.tile_cols)
        columns = p.packed_columns or j1 - j0
        for i0 in range(0, rows, p.tile_rows):
            i1 = min(rows, i0 + p.tile_rows)
            kernel = p.kernel(i1 - i0, j1 - j0, k)
            blocks = CHUNK_BYTES // (columns * size * kernel.block[2])
            step = whole if blocks == 0 or whole <= kernel.block[2] * blocks else kernel.block[2] * blocks
            found.append(Tile((i0, i1), (j0, j1), max(step, 1), kernel.fused))
    return found


def _product(a: np.ndarray, b: np.ndarray, out: np.ndarray, p: Plan, flush: bool, native: bool) -> None:
    rows, k = a.shape
    cols = b.shape[1]
    whole = k - k % p.tile_k
    for tile in tiles(p, rows, cols, k, a.dtype.itemsize):
        (i0, i1), (j0, j1) = tile.rows, tile.cols
        total: np.ndarray | None = None
        spans = [(k0, min(whole, k0 + tile.step)) for k0 in range(0, whole, tile.step)]
        for span in spans + ([(whole, k)] if whole < k else []):
            chunk = _chunk(a[i0:i1], b[:, j0:j1], span, p.tile_k, (tile.fused, native), flush)
            total = add_first_nan(chunk, total, flush)
        assert total is not None
        out[i0:i1, j0:j1] = total


def add_first_nan(x: np.ndarray, y: np.ndarray | None, flush: bool) -> np.ndarray:
    """x + y, a NaN of x where both are NaN (the CPU's rule for its first operand; NumPy's
    loops may swap them: the compiled tier keeps this rule too)."""
    if y is None:
        return x
    out = x + y
    if np.isnan(out).any():
        out = np.where(np.isnan(x), x, out)
    return flush_denormals(out) if flush else out


def _chunk(
    a: np.ndarray, b: np.ndarray, span: tuple[int, int], tile_k: int, how: tuple[bool, bool], flush: bool
) -> np.ndarray:
    """The sum of products k0..k1 of a [m, k] and b [k, n] (k1 - k0 padded with zeros to a
    multiple of tile_k): tile_k running sums from +0, joined pairwise. `how`: FMAs, and
    whether by the native loop."""
    (k0, k1), rows, cols = span, a.shape[0], b.shape[1]
    length = -(-(k1 - k0) // tile_k) * tile_k
    if length != k1 - k0:  # (the last, short chunk)
        a = np.concatenate([a[:, k0:k1], np.zeros((rows, length - (k1 - k0)), a.dtype)], axis=1)
        b = np.concatenate([b[k0:k1], np.zeros((length - (k1 - k0), cols), b.dtype)])
        k0, k1 = 0, length
    sums = []
    for r in range(tile_k):
        lhs = np.ascontiguousarray(a[:, k0 + r : k1 : tile_k])
        rhs = np.ascontiguousarray(b[k0 + r : k1 : tile_k])
        sums.append(products_in_order(lhs, rhs, *how, flush))
    while len(sums) > 1:
        sums = [add_first_nan(sums[i], sums[i + 1], flush) for i in range(0, len(sums), 2)]
    return sums[0]


def products_in_order(a: np.ndarray, b: np.ndarray, fused: bool, native: bool, flush: bool) -> np.ndarray:
    """out[i, j] = a[i, 0] b[0, j] + ... in order from +0: FMAs (`fused`), else each product
    rounded before its add."""
    rows, cols = a.shape[0], b.shape[1]
    out = np.zeros((rows, cols), a.dtype)
    if not fused:
        for r in range(a.shape[1]):
            product = a[:, r : r + 1] * b[r]
            out = add_first_nan(out, flush_denormals(product) if flush else product, flush)
        return out
    if native and rows and not (flush and not subnormals.active()) and fma_loop.chains(a[0], b, out[0]):
        for i in range(1, rows):  # (the native loop runs here: the first row took it)
            fma_loop.chains(a[i], b, out[i])
        return out
    for r in range(a.shape[1]):
        out = fma(a[:, r : r + 1], b[r], out)
        if flush:
            out = flush_denormals(out)
    return out
