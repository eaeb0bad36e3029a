"""Float max/min reduces over dimensions that are not consecutive (a kept dimension between two
reduced ones), as XLA:CPU's vector kernel library (YNNPACK) runs them: an f32/f64 max or min
reduce of at least 4096 elements whose reducer is a plain maximum or minimum. The structure below
follows YNNPACK's reduce node (its tiling and its choice of kernel per tile); the kernels' own
rules are hlo.numerics.vector_extreme (a contiguous row) and hlo.numerics.column_extreme (rows of
columns). Checked against XLA:CPU with designed inputs (ties of zeros placed across chunks, NaN
at random positions, init values; tests/golden/ops/exact_split_extremes.npz and the split cases
of exact_vector_extremes.npz, made by tools/make_exactness_fixtures.py). Trailing and leading
reduces (vector_extreme, column_extreme) follow the same tiles save one exception those modules
keep: a trailing reduce with 4 or more results is not cut into chunks.

- Tiles: the dimensions, innermost first, share a tile of 128 KiB of elements: each takes as much
  of what is left as its extent allows (at least 1). When a reduced dimension does not fit whole,
  the reduce runs twice: first each tile of the reduced dimensions (chunks of that many slices)
  is reduced to a partial value from -inf (+inf for min), then the partial values are reduced
  again the same way, from the init value.
- Within a reduce, the tiles of the reduced dimensions come one after another into the result:
  `acc = step(value, acc)` from the init value (a NaN value is dropped, a tie keeps `acc`).
- Within a tile, the innermost reduced dimensions that are contiguous in memory form one row
  (the row kernel); one more reduced dimension is looped over; any other reduced dimension is
  an outer loop. With no contiguous reduced dimension and the kept dimensions contiguous, the
  looped dimension is read as rows of columns instead (the column kernel). Each kernel call's
  value comes into the result as above.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from . import column_extreme, vector_extreme
from .vector_sum import CHUNK_BYTES, MIN_ELEMENTS, Flush


def applies(dtype: np.dtype, shape: Sequence[int], axes: Sequence[int]) -> bool:
    """Whether an f32/f64 max/min reduce over dimensions that are not consecutive goes to the
    vector kernels (dimensions of size 1 already dropped)."""
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or not axes:
        return False
    if sorted(axes) == list(range(min(axes), max(axes) + 1)):
        return False  # consecutive: vector_extreme or column_extreme
    size = int(np.prod(shape, dtype=np.int64))
    results = size // max(int(np.prod([shape[d] for d in axes], dtype=np.int64)), 1)
    return max(size, results) >= MIN_ELEMENTS


def split_extreme(
    x: np.ndarray, init: np.ndarray, axes: Sequence[int], is_max: bool, flush: Flush
) -> np.ndarray:
    """Reduce `axes` of `x` (f32 or f64, no dimension of size 1) by max or min, as YNNPACK does."""
    kept = [d for d in range(x.ndim) if d not in axes]
    plain = (np.maximum if is_max else np.minimum).reduce(x, axis=tuple(axes))
    if flush is not None:
        plain = flush(plain)
    start = init.astype(x.dtype)
    odd = np.isnan(plain) | (plain == 0)  # only a NaN or a tie of zeros shows the order
    if odd.any():
        work = x if flush is None else flush(x)
        reduced = [d in axes for d in range(x.ndim)]
        fill = x.dtype.type(-np.inf if is_max else np.inf)
        splits = _splits(x.shape, x.dtype.itemsize)
        chunks = [s if reduced[d] else None for d, s in enumerate(splits)]
        if any(c is not None for c in chunks):  # partial values first
            work = _reduce(work, reduced, is_max, fill, chunks)
        ruled = _reduce(work, reduced, is_max, start, None).reshape(plain.shape)
        result = np.where(odd, ruled, vector_extreme.step(plain, start, is_max))
    else:
        result = vector_extreme.step(plain, start, is_max)
    if flush is not None:
        result = flush(result)
    return np.asarray(result).astype(x.dtype, copy=False).reshape([x.shape[d] for d in kept])


def _splits(
    shape: Sequence[int], itemsize: int, given: Sequence[int | None] | None = None
) -> list[int | None]:
    """Each dimension's tile extent, None where the whole dimension fits: innermost first, each
    takes what is left of the tile area, at least 1."""
    area = CHUNK_BYTES // itemsize
    so_far = 1
    out: list[int | None] = [None] * len(shape)
    for d in reversed(range(len(shape))):
        wanted = given[d] if given is not None else None
        s = wanted if wanted is not None else max(1, min(area // so_far, shape[d]))
        if s < shape[d]:
            out[d] = s
        so_far *= min(s, shape[d])
    return out


def _reduce(
    x: np.ndarray, reduced: list[bool], is_max: bool, start: np.ndarray, chunks: Sequence[int | None] | None
) -> np.ndarray:
    """One reduce node. With `chunks`, the partial reduce: reduced dimensions keep one value per
    chunk (size 1 where not cut). Without, the whole reduce, its tiles into `start`."""
    strides = [int(np.prod(x.shape[d + 1 :], dtype=np.int64)) for d in range(x.ndim)]
    out_shape = [
        (-(-n // c) if chunks is not None and (c := chunks[d]) is not None else 1) if reduced[d] else n
        for d, n in enumerate(x.shape)
    ]
    out_strides = [int(np.prod(out_shape[d + 1 :], dtype=np.int64)) for d in range(x.ndim)]
    acc = np.array(np.broadcast_to(np.asarray(start, x.dtype), out_shape))
    tiles = chunks if chunks is not None else _splits(x.shape, x.dtype.itemsize)
    spans = [
        [(i, min(i + (tiles[d] or n), n)) for i in range(0, n, tiles[d] or n)] if reduced[d] else [(0, n)]
        for d, n in enumerate(x.shape)
    ]
    for spans_of_tile in itertools.product(*spans):
        tile = x[tuple(slice(a, b) for a, b in spans_of_tile)]
        value = _tile(tile, reduced, is_max, strides, out_strides)
        where = tuple(
            (a // (chunks[d] or 1) if chunks is not None and out_shape[d] > 1 else 0)
            if reduced[d]
            else slice(None)
            for d, (a, _) in enumerate(spans_of_tile)
        )
        acc[where] = vector_extreme.step(value, acc[where], is_max)
    return acc


def _tile(
    tile: np.ndarray, reduced: list[bool], is_max: bool, strides: list[int], out_strides: list[int]
) -> np.ndarray:
    """A tile's value per result: its kernel calls, each merged as `step(value, acc)` from -inf
    (+inf for min). Strides are the whole operand's (in elements), as the kernels see them."""
    row: list[int] = []  # the row kernel's dimensions (contiguous)
    loop: list[int] = []  # the dimension looped over (or the column kernel's rows)
    outer: list[int] = []
    row_n, loop_n, loop_stride, cols, col_stride = 1, 1, 0, 1, 0
    for d in reversed(range(tile.ndim)):
        n = tile.shape[d]
        if n == 1:
            continue
        if reduced[d]:
            if row_n == strides[d]:
                row_n *= n
                row.append(d)
            elif loop_stride * loop_n == strides[d] or loop_n == 1:
                loop_stride = strides[d] if loop_n == 1 else loop_stride
                loop_n *= n
                loop.append(d)
            else:
                outer.append(d)
        elif out_strides[d] == cols and (col_stride * cols == strides[d] or cols == 1):
            col_stride = strides[d] if cols == 1 else col_stride
            cols *= n
        else:
            outer.append(d)
    columns = row_n == 1 and (cols == 1 or col_stride == 1)
    if columns:
        row, loop = loop, []
    kept = [d for d in range(tile.ndim) if not reduced[d]]
    calls = sorted(d for d in outer if reduced[d]) + sorted(loop)
    rest = [d for d in range(tile.ndim) if reduced[d] and d not in calls and d not in row]
    moved = np.transpose(tile, [*kept, *calls, *sorted(row), *rest])
    results = int(np.prod([tile.shape[d] for d in kept], dtype=np.int64))
    count = int(np.prod([tile.shape[d] for d in calls], dtype=np.int64))
    rows = np.ascontiguousarray(moved).reshape(results * count, -1)
    if columns:
        values = column_extreme.column_values(rows[:, :, None], is_max)[:, 0]
    else:
        values = vector_extreme.row_values(rows, is_max)
    values = values.reshape(results, count)
    fill = -np.inf if is_max else np.inf
    live = np.where(np.isnan(values), fill, values)  # a NaN value is dropped
    extreme = live.max(axis=1) if is_max else live.min(axis=1)
    first = (live == extreme[:, None]).argmax(axis=1)  # a tie keeps the earlier value
    merged = live[np.arange(results), first].astype(tile.dtype, copy=False)
    return merged.reshape([tile.shape[d] for d in kept])
