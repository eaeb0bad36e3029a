"""Scatter in full generality (page 003's formal definitions, batching dimensions included), on
whole arrays. An update whose window does not fit in the operand is skipped, whole (XLA:CPU);
the update computation combines: add, multiply, maximum, minimum, and/or/xor through
`ufunc.at` (hlo.numerics.combine_at), replacement through fancy assignment (later updates win),
any other computation lifted to arrays and applied in rounds, each round taking at most one
update per operand element, in update order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .combine_at import Combiner
from .indexing import IndexMap, starts_of

_POSITIONS_BLOCK = 1 << 21  # updated elements per combine_at call: 16 MB of int64 positions
# Updated elements per call when windows are runs combined a run at a time: their values and the
# temporaries stay in the caches (1 MB of f32: the embedding gradient's scatter 64 -> 31 ms).
_RUNS_BLOCK = 1 << 18


def scatter(
    operands: Sequence[np.ndarray],
    indices: np.ndarray,
    updates: Sequence[np.ndarray],
    m: IndexMap,
    update_window_dims: Sequence[int],
    inserted: Sequence[int],
    combine_at: Combiner | None,
    apply: Callable[..., Any] | None,
) -> list[np.ndarray]:
    """XLA's Scatter. `combine_at(flat_operand, positions, values)` (one row per update)
    updates in place for a recognised single-operand computation; otherwise `apply` (the
    lifted computation of 2N parameters) runs in rounds."""
    operand = operands[0]
    rank = operand.ndim
    if combine_at is not None and not m.operand_batching:
        return [_scatter_in_blocks(operand, indices, updates[0], m, update_window_dims, inserted, combine_at)]
    starts = starts_of(indices, m, rank)
    batch_shape = starts.shape[:-1]
    update = updates[0]
    scatter_dims = [d for d in range(update.ndim) if d not in update_window_dims]
    order = scatter_dims + list(update_window_dims)
    window_operand_dims = [d for d in range(rank) if d not in inserted and d not in m.operand_batching]
    sizes = [1] * rank
    for u, d in zip(update_window_dims, window_operand_dims):
        sizes[d] = update.shape[u]
    count = int(np.prod(batch_shape, dtype=np.int64))
    window = int(np.prod(sizes, dtype=np.int64))
    # a start past either end never fits; clipping it first keeps start + size from wrapping
    # around int64 (an index of s64's or u64's maximum)
    flat_starts = np.clip(starts.reshape(count, rank), -1, np.array(operand.shape, np.int64))
    fits = np.all((flat_starts >= 0) & (flat_starts + np.array(sizes) <= np.array(operand.shape)), axis=1)
    # linear positions of every window element of every fitting update
    strides = np.array([int(np.prod(operand.shape[d + 1 :], dtype=np.int64)) for d in range(rank)], np.int64)
    offsets = np.zeros(sizes, dtype=np.int64)
    for d in range(rank):
        view = [1] * rank
        view[d] = sizes[d]
        offsets = offsets + (np.arange(sizes[d]) * strides[d]).reshape(view)
    # (the mask only where some update does not fit: a copy of every update and position less)
    everywhere = bool(fits.all())
    rows = [np.transpose(u, order).reshape(count, window) for u in updates]
    results = [o.copy().reshape(-1) for o in operands]
    if combine_at is not None:
        # In blocks of updates, in update order (what ufunc.at and assignment do within one
        # call): the int64 positions of every updated element at once were 128 MB for an
        # embedding gradient's 65536 rows of 256, 1.3x the live set.
        block = max(1, _POSITIONS_BLOCK // max(1, window))
        for first in range(0, count, block):
            part = slice(first, first + block)
            kept = flat_starts[part] if everywhere else flat_starts[part][fits[part]]
            if len(kept) and window:
                values = rows[0][part] if everywhere else rows[0][part][fits[part]]
                combine_at(results[0], (kept @ strides)[:, None] + offsets.reshape(1, window), values)
        return [r.reshape(o.shape) for r, o in zip(results, operands)]
    kept = flat_starts if everywhere else flat_starts[fits]
    positions = (kept @ strides)[:, None] + offsets.reshape(1, window)  # one row per update
    values = [r if everywhere else r[fits] for r in rows]
    if positions.size:
        assert apply is not None
        in_rounds(results, positions.reshape(-1), [v.reshape(-1) for v in values], apply)
    return [r.reshape(o.shape) for r, o in zip(results, operands)]


_STARTS_BLOCK = 1 << 16  # updates whose start indices are made at once (int64: 2 MB for rank 4)


def _scatter_in_blocks(
    operand: np.ndarray,
    indices: np.ndarray,
    update: np.ndarray,
    m: IndexMap,
    update_window_dims: Sequence[int],
    inserted: Sequence[int],
    combine_at: Combiner,
) -> np.ndarray:
    """`scatter` for one operand with a recognised combiner and no batching dimensions: the
    start indices, their check and the flat positions made a block of updates at a time, in
    update order (the same positions and order as the whole-array form, whose int64 starts
    were 51 MB, clipped in another 51, for the 1.6M scalar updates of XLA's optimized max-pool
    gradient)."""
    w = _windows(operand.shape, indices, update, m, update_window_dims, inserted)
    result = operand.copy().reshape(-1)
    if not w.possible:
        return result.reshape(operand.shape)
    offsets = w.offsets.reshape(1, w.window)
    runs = getattr(combine_at, "runs", None) if w.window >= 2 and w.run else None
    block = max(1, min(_STARTS_BLOCK, (_RUNS_BLOCK if runs else _POSITIONS_BLOCK) // w.window))
    for first in range(0, w.count, block):
        starts, fits = w.starts(first, block)
        values = w.rows[first : first + block]
        if not fits.all():
            starts, values = starts[fits], values[fits]
        if not len(starts):
            continue
        if runs is not None:
            runs(result, starts, w.window, values)
        else:
            combine_at(result, starts[:, None] + offsets, values)
    return result.reshape(operand.shape)


def scatter_loop_arguments(
    operand: np.ndarray,
    indices: np.ndarray,
    update: np.ndarray,
    m: IndexMap,
    update_window_dims: Sequence[int],
    inserted: Sequence[int],
) -> tuple[Any, ...]:
    """What a compiled scatter loop (hlo.numerics.scatter_tier) takes for `_scatter_in_blocks`'s
    cases: the result (a flat copy of the operand); the index vectors, one row per update (int64
    when they are u64, clamped as `_Windows.starts` clamps them; any other integer type as it
    is); per vector element the highest start that fits in its operand dimension and that
    dimension's stride; the updates as C-contiguous rows of the window; the window's element
    offsets from its start; whether those are one run of consecutive elements; and whether any
    update can fit at all."""
    w = _windows(operand.shape, indices, update, m, update_window_dims, inserted)
    result = operand.copy().reshape(-1)
    vectors = w.vectors
    if vectors.dtype == np.uint64:  # the only unsigned type whose values int64 cannot hold
        vectors = np.minimum(vectors, np.uint64(np.iinfo(np.int64).max)).astype(np.int64)
    highest = np.array([w.shape[d] - w.sizes[d] for d in m.to_operand], np.int64)
    strides = np.array([w.strides[d] for d in m.to_operand], np.int64)
    rows = np.ascontiguousarray(w.rows)
    return (
        result,
        np.ascontiguousarray(vectors),
        highest,
        strides,
        rows,
        w.offsets.reshape(-1),
        w.run,
        w.possible,
    )


@dataclass(frozen=True)
class _Windows:
    """A scatter's windows in the flat operand (one operand, no batching dimensions): their
    sizes per operand dimension, the element offsets of a window from its start, the updates as
    rows of a window, and the index vectors they start at."""

    shape: tuple[int, ...]
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    offsets: np.ndarray
    rows: np.ndarray
    vectors: np.ndarray
    m: IndexMap

    @property
    def window(self) -> int:
        return int(np.prod(self.sizes, dtype=np.int64))

    @property
    def run(self) -> bool:
        """Whether a window is one run of consecutive elements (whole trailing dimensions and
        part of the one before)."""
        return bool(np.array_equal(self.offsets.reshape(-1), np.arange(self.window)))

    @property
    def count(self) -> int:
        return len(self.vectors)

    @property
    def possible(self) -> bool:
        """Whether any update can fit: dimensions no index addresses start at 0, so a window
        longer than one of them never fits."""
        fixed = all(
            self.sizes[d] <= self.shape[d] for d in range(len(self.shape)) if d not in self.m.to_operand
        )
        return fixed and self.window > 0 and self.count > 0

    def starts(self, first: int, block: int) -> tuple[np.ndarray, np.ndarray]:
        """The flat start positions of updates [first, first + block) (int64) and whether each
        window fits."""
        v = self.vectors[first : first + block]
        if v.dtype == np.uint64:  # the only unsigned type whose values int64 cannot hold
            v = np.minimum(v, np.uint64(np.iinfo(np.int64).max))
        v = v.astype(np.int64)
        positions = np.zeros(len(v), np.int64)
        fits = np.ones(len(v), bool)
        for k, d in enumerate(self.m.to_operand):
            # clipped to [-1, n] first: start + size cannot wrap around (s64's maximum)
            start = np.clip(v[:, k], -1, self.shape[d])
            fits &= (start >= 0) & (start <= self.shape[d] - self.sizes[d])
            positions += start * self.strides[d]
        return positions, fits


def _windows(
    operand_shape: tuple[int, ...],
    indices: np.ndarray,
    update: np.ndarray,
    m: IndexMap,
    update_window_dims: Sequence[int],
    inserted: Sequence[int],
) -> _Windows:
    """The windows of a scatter of `update` at `indices` into an operand of `operand_shape`."""
    rank = len(operand_shape)
    scatter_dims = [d for d in range(update.ndim) if d not in update_window_dims]
    window_operand_dims = [d for d in range(rank) if d not in inserted]
    sizes = [1] * rank
    for u, d in zip(update_window_dims, window_operand_dims):
        sizes[d] = update.shape[u]
    window = int(np.prod(sizes, dtype=np.int64))
    strides = [int(np.prod(operand_shape[d + 1 :], dtype=np.int64)) for d in range(rank)]
    offsets = np.zeros(sizes, dtype=np.int64)
    for d in range(rank):
        view = [1] * rank
        view[d] = sizes[d]
        offsets = offsets + (np.arange(sizes[d]) * strides[d]).reshape(view)
    ivd = m.index_vector_dim
    vectors = indices[..., None] if ivd == indices.ndim else np.moveaxis(indices, ivd, -1)
    count = int(np.prod(vectors.shape[:-1], dtype=np.int64))
    vectors = vectors.reshape(count, vectors.shape[-1])
    rows = np.transpose(update, scatter_dims + list(update_window_dims)).reshape(count, window)
    return _Windows(tuple(operand_shape), tuple(sizes), tuple(strides), offsets, rows, vectors, m)


def in_rounds(
    results: list[np.ndarray], positions: np.ndarray, values: list[np.ndarray], apply: Callable[..., Any]
) -> None:
    """Apply the computation to (current, update) pairs, the k-th update of each position in
    round k, so updates to one element combine in order."""
    order = np.argsort(positions, kind="stable")
    sorted_positions = positions[order]
    first = np.r_[True, sorted_positions[1:] != sorted_positions[:-1]]
    group_start = np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
    occurrence = np.empty(len(order), dtype=np.int64)
    occurrence[order] = np.arange(len(order)) - group_start
    for k in range(int(occurrence.max()) + 1):
        pick = occurrence == k
        at = positions[pick]
        current = [r[at] for r in results]
        new = apply(*current, *[v[pick] for v in values])
        new = new if isinstance(new, tuple) else (new,)
        for r, v in zip(results, new):
            r[at] = v
