"""Float sums in the order of XLA:CPU's vectorized reduce (YNNPACK, jaxlib 0.10.2) over reduced
dimensions that are not consecutive, and over several trailing dimensions cut into tiles. Read
off XLA:CPU's results (tests/golden/ops/exact_split_sums.npz, made by
tools/make_exactness_fixtures.py, family split_sums; inputs where every grouping gives
different bits).

YNNPACK's driver hands its kernels one contiguous run of reduced elements per call and adds
each call's sum to the result, which starts as the init value:
- when the innermost dimension is reduced, the kernel of hlo.numerics.vector_sum sums the
  trailing run of reduced dimensions (from zero, `+ 0`), one row per kept index and per index
  of the other reduced dimensions;
- when it is kept, the kernel of hlo.numerics.column_sum sums the innermost run of reduced
  dimensions as rows, the trailing run of kept dimensions as columns;
- the result is then `c = init`, `c = c + sum` for each index of the remaining reduced
  dimensions in row-major order.
With more than one thread in its pool (vector_sum.tiled), YNNPACK also cuts an operand into
tiles of 128 KiB, filled innermost dimension first. When a reduced dimension has to be cut,
XLA:CPU may then sum tile by tile into partial sums and sum those again (on two threads: for a
sum over trailing dimensions, when there are at most 3 results). Modelled here: the
non-consecutive sums whose reduced dimensions fit in one tile, and all of them without tiles
(`split_sum`), and the tiled trailing sums whose innermost dimension fits in a tile
(`tiled_sum`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import column_sum
from .vector_sum import (
    CHUNK_BYTES,
    MIN_ELEMENTS,
    SPLIT_RESULTS,
    VECTOR_BYTES,
    Flush,
    _add,
    _kernel,
    tiled,
    trailing,
)

MAX_RUNS = 7  # alternating runs of reduced and kept dimensions YNNPACK takes (8: the tree rewrite)


def applies(dtype: np.dtype, shape: Sequence[int], axes: Sequence[int]) -> bool:
    """Whether this add-reduce (size-1 dimensions dropped) has reduced dimensions that are not
    consecutive, goes to the vector kernel (4096+ elements in the operand or the result) and
    is modelled: the dimensions from the outermost reduced one inward fit in 128 KiB. Seen
    with 8 runs of reduced and kept dimensions: XLA:CPU's tree rewrite instead."""
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or not axes:
        return False
    axes = sorted(axes)
    if axes == list(range(axes[0], axes[-1] + 1)):
        return False  # consecutive: hlo.numerics.vector_sum or column_sum
    runs = 1 + sum((d in axes) != (d + 1 in axes) for d in range(len(shape) - 1))
    if runs > MAX_RUNS:
        return False  # XLA:CPU keeps it to its tree rewrite (hlo.numerics.tree_reduce)
    tile = int(np.prod(shape[axes[0] :], dtype=np.int64)) * dtype.itemsize
    if tile > CHUNK_BYTES and tiled():
        return False  # a reduced dimension cut into tiles: the order depends on the threads
    size = int(np.prod(shape, dtype=np.int64))
    results = size // max(int(np.prod([shape[d] for d in axes], dtype=np.int64)), 1)
    return max(size, results) >= MIN_ELEMENTS


def _runs(ndim: int, reduced: set[int], innermost_reduced: bool) -> tuple[list[int], list[int]]:
    """(inner, cols): the dimensions the kernel takes per call. With the innermost dimension
    reduced, `inner` is the trailing run of reduced dimensions and `cols` is empty; otherwise
    `cols` is the trailing run of kept dimensions and `inner` the run of reduced ones above it."""
    d = ndim - 1
    cols: list[int] = []
    if not innermost_reduced:
        while d >= 0 and d not in reduced:
            cols.insert(0, d)
            d -= 1
    inner: list[int] = []
    while d >= 0 and d in reduced:
        inner.insert(0, d)
        d -= 1
    return inner, cols


def _short(rows: np.ndarray) -> np.ndarray:
    """`_kernel` of the last axis of `rows` (any leading axes, views welcome) when it holds at
    most one vector (W lanes) and nothing is flushed in software, without the kernel's padding
    to whole chains (a 2x2 pooling sum has millions of 2-element rows). Each element is its own
    lane, the other lanes zeros, so the kernel's halving adds the same pairs as halving the
    smallest power of two of lanes that holds them, the zero lanes left out; its zero start
    turns -0 into +0, which one `+ 0` at the end gives as well (no sum of other values is -0)."""
    count = rows.shape[-1]
    width = 1 << max(count - 1, 0).bit_length()
    lanes = rows
    while width > 1:
        half = width // 2
        if count > half:  # lanes half.. hold elements: add them to their partners
            head = lanes[..., : count - half] + lanes[..., half:count]
            lanes = (
                np.concatenate([head, lanes[..., count - half : half]], axis=-1) if count < width else head
            )
            count = half
        width = half
    return np.add(lanes[..., 0], rows.dtype.type(0), order="C")  # C order: reshaped as a view


def split_sum(x: np.ndarray, init: np.ndarray, axes: Sequence[int], flush: Flush) -> np.ndarray:
    """Sum the `axes` of `x` (f32 or f64; not consecutive, `applies`) and add `init`."""
    reduced = set(axes)
    rows_kernel = x.ndim - 1 in reduced
    inner, cols = _runs(x.ndim, reduced, rows_kernel)
    outer = [d for d in sorted(reduced) if d not in inner]
    kept = [d for d in range(x.ndim) if d not in reduced and d not in cols]
    shape = x.shape
    results = int(np.prod([shape[d] for d in kept], dtype=np.int64))
    slices = int(np.prod([shape[d] for d in outer], dtype=np.int64))
    length = int(np.prod([shape[d] for d in inner], dtype=np.int64))
    width = int(np.prod([shape[d] for d in cols], dtype=np.int64))
    zero = x.dtype.type(0)
    view = np.transpose(x, [*kept, *outer, *inner, *cols])
    if rows_kernel and flush is None and length <= VECTOR_BYTES // x.dtype.itemsize:
        # the inner run is x's trailing dimensions: merged without a copy
        sums = _short(view.reshape(*view.shape[: len(kept) + len(outer)], length))
    else:
        work = np.ascontiguousarray(view)
        if flush is not None:
            work = flush(work)
        if rows_kernel:
            sums = _kernel(work.reshape(results * slices, length), flush)
        else:
            sums = column_sum._kernel(work.reshape(results * slices, length, width), flush)
    sums = _add(sums, zero, flush).reshape(results, slices, width)  # + 0: each call starts from zero
    total = np.broadcast_to(init.astype(x.dtype), (results, width))
    for k in range(slices):  # one call after the other, from the init value
        total = _add(total, sums[:, k], flush)
    return total.astype(x.dtype, copy=False).reshape([shape[d] for d in range(x.ndim) if d not in reduced])


def tiled_applies(dtype: np.dtype, shape: Sequence[int], axes: Sequence[int]) -> bool:
    """Whether this add-reduce (size-1 dimensions dropped) is a sum over several trailing
    dimensions that XLA:CPU (on 2 threads) cuts into partial sums by tile: at most 3 results,
    more than 128 KiB each; modelled when the innermost dimension fits in a tile."""
    sizes = trailing(dtype, shape, axes)
    if sizes is None or len(axes) < 2:
        return False
    size, results = sizes
    area = CHUNK_BYTES // dtype.itemsize
    if not tiled() or results > SPLIT_RESULTS or size // max(results, 1) <= area or shape[-1] > area:
        return False
    inner, cut, block, _ = _tile(shape[len(shape) - len(axes) :], area)
    outer = size // max(results, 1) // (inner * shape[cut])
    return outer * -(-shape[cut] // block) <= area  # the partial sums fit in one tile themselves


def _tile(reduced: Sequence[int], area: int) -> tuple[int, int, int, int]:
    """YNNPACK's tile over the reduced dimensions, filled innermost first: (elements of the
    dimensions it holds whole, the dimension it cuts, that dimension's block, its position)."""
    inner = 1
    for k in range(len(reduced) - 1, -1, -1):
        if inner * reduced[k] > area:
            return inner, k, area // inner, k
        inner *= reduced[k]
    raise ValueError("the reduced dimensions fit in one tile")


def tiled_sum(x: np.ndarray, init: np.ndarray, axes: Sequence[int], flush: Flush) -> np.ndarray:
    """The reduce `tiled_applies` takes. YNNPACK's tile holds the reduced dimensions inside
    one dimension whole, `block` indices of that dimension and one index of each dimension
    outside it; each tile is summed by the kernel of hlo.numerics.vector_sum (from zero,
    `+ 0`), and the tiles' sums, in row-major order, are summed by it again and added to the
    init value. Read off XLA:CPU's results (the split_sums fixtures)."""
    rank = x.ndim - len(axes)
    reduced = x.shape[rank:]
    results = int(np.prod(x.shape[:rank], dtype=np.int64))
    area = CHUNK_BYTES // x.dtype.itemsize
    inner, _, block, cut = _tile(reduced, area)
    outer = int(np.prod(reduced[:cut], dtype=np.int64))
    length = reduced[cut]
    work = np.ascontiguousarray(x).reshape(results * outer, length, inner)
    if flush is not None:
        work = flush(work)
    whole = length // block
    parts = []
    if whole:
        sums = _kernel(work[:, : whole * block].reshape(results * outer * whole, block * inner), flush)
        parts.append(sums.reshape(results * outer, whole))
    if length > whole * block:
        parts.append(_kernel(work[:, whole * block :].reshape(results * outer, -1), flush)[:, None])
    zero = x.dtype.type(0)
    tiles = _add(np.concatenate(parts, axis=1), zero, flush).reshape(results, -1)
    total = _add(init.astype(x.dtype), _add(_kernel(tiles, flush), zero, flush), flush)
    return total.astype(x.dtype, copy=False).reshape(x.shape[:rank])
