"""Select-and-scatter (page 003): in each window of the operand, `select` picks one element
(scanning the window in XLA:CPU's order of window positions, hlo.numerics.window_order, as
XLA:CPU rewrites select-and-scatter into a variadic reduce-window; a candidate replaces the
current pick unless select(pick, candidate) holds); each source value is combined into the
output at its window's pick with `scatter`, the output starting at the init value, windows in
row-major order (so the combinations into one element happen in window order, as XLA:CPU's
loop does them).

The scan is one shifted pass per window position over all windows at once
(hlo.numerics.window_fold.passes: padding is never picked). The scatter runs in rounds: a
window's round is how many earlier windows picked the same element, found by comparing each
window's pick with its overlapping earlier neighbours', so each round combines into distinct
elements and each element takes its values in window order.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product
from typing import Any

import numpy as np

from ..ir.attrs import Window
from .combine_at import Combiner
from .scatter import in_rounds
from .window_fold import Slices, output_dims, passes

_NEIGHBOURS_LIMIT = 40  # earlier overlapping neighbours compared per window; above, sort instead


def select_and_scatter(
    operand: np.ndarray,
    source: np.ndarray,
    init: np.ndarray,
    window: Window,
    select: Callable[..., Any],
    combine_at: Combiner | None,
    apply: Callable[..., Any] | None,
) -> np.ndarray:
    grid = output_dims(operand.shape, window)
    targets = _picks(operand, window, grid, select)
    out = np.full(operand.size, init, dtype=operand.dtype)
    valid = targets >= 0
    updates = source.reshape(grid)
    offsets = _earlier_neighbours(window)
    if offsets is None:  # long overlapping windows: order each element's updates by sorting
        _combine(out, targets[valid], updates[valid], combine_at, apply, distinct=False)
        return out.reshape(operand.shape)
    everywhere = bool(valid.all())
    rank = np.zeros(grid, dtype=np.int8)  # (at most _NEIGHBOURS_LIMIT earlier neighbours)
    for delta in offsets:
        here = tuple(slice(d, None) if d >= 0 else slice(None, d) for d in delta)
        there = tuple(slice(None, -d if d > 0 else None) if d >= 0 else slice(-d, None) for d in delta)
        same = targets[here] == targets[there]
        rank[here] += same if everywhere else same & valid[here]
    rounds = int(rank.max(initial=0)) + 1
    # Slabs of the windows' leading dimension, one after the other (a slab's windows all come
    # before the next slab's in row-major order, so each element still takes its values in
    # window order), bound the temporaries of the rounds to a slab's.
    lead = grid[0] if grid else 1
    per = max(1, _SLAB_WINDOWS // max(1, targets.size // max(1, lead)))
    for a in range(0, lead, per):
        block = slice(a, a + per) if grid else Ellipsis
        t, u, k = targets[block], updates[block], rank[block]
        v = None if everywhere else valid[block]
        for r in range(rounds):
            pick = k == r
            if v is not None:
                pick &= v
            _combine(out, t[pick], u[pick], combine_at, apply, distinct=True)
    return out.reshape(operand.shape)


_SLAB_WINDOWS = 1 << 18  # windows combined per slab (their positions and values: 3 MB)


def _picks(
    operand: np.ndarray, window: Window, grid: tuple[int, ...], select: Callable[..., Any]
) -> np.ndarray:
    """Per window, the flat operand index of the element `select` picks (-1 for a window of
    padding only): the scan of page 003, one window position at a time over every window."""
    steps = list(passes(operand.shape, window))
    picked_value = np.zeros(grid, dtype=operand.dtype)
    picked = np.full(grid, -1, dtype=np.int8 if len(steps) < 128 else np.int32)  # which step
    have: np.ndarray | None = np.zeros(grid, dtype=bool)  # None once every window has a pick
    for step, (out, at) in enumerate(steps):
        candidate = operand[at]
        current = picked_value[out]
        take = np.asarray(select(current, candidate), dtype=bool)
        if have is not None:
            take &= have[out]  # the first real element is taken without asking select
        np.logical_not(take, out=take)
        _copy_where(current, candidate, take)
        _copy_where(picked[out], step, take)
        if have is not None:
            have[out] = True
            have = None if have.all() else have
    return _flat_targets(operand.shape, grid, steps, picked)


def _copy_where(dst: np.ndarray, src: np.ndarray | int, take: np.ndarray) -> None:
    """np.copyto(dst, src, where=take) without a branch per element: a max-pool's picks are data,
    mispredicted half the time (a [64,6,24,24] pool's scan 1.8 -> 0.3 ms). Values move as bits
    (NaN payloads and signs kept, as a copy keeps them); a step number as dst - (dst - step) *
    take, exact in wrapping integers."""
    if dst.dtype.kind in "iu" and isinstance(src, int):
        np.subtract(dst, np.multiply(np.subtract(dst, src, dtype=dst.dtype), take, dtype=dst.dtype), out=dst)
        return
    size = dst.dtype.itemsize
    if not isinstance(src, np.ndarray) or src.dtype != dst.dtype or size not in (1, 2, 4, 8):
        np.copyto(dst, src, where=take)
        return
    bits = np.dtype(f"u{size}")
    mask = np.empty(take.shape, bits)
    np.copyto(mask, take, casting="unsafe")  # (0 or 1)
    np.negative(mask, out=mask)  # (0 or all ones)
    target = dst.view(bits)
    np.bitwise_and(mask, np.bitwise_xor(target, src.view(bits)), out=mask)
    np.bitwise_xor(target, mask, out=target)


def _flat_targets(
    shape: tuple[int, ...], grid: tuple[int, ...], steps: list[tuple[Slices, Slices]], picked: np.ndarray
) -> np.ndarray:
    """The flat operand index of each window's pick from the step that picked it: per axis a
    (step, window index) -> coordinate table, gathered only along axes where steps differ."""
    # (int32 flat indices where they fit: half the memory of every array of positions after)
    index_type = np.int32 if math.prod(shape) < 2**31 else np.int64
    targets = np.zeros(grid, dtype=index_type)
    if not steps:
        return targets - 1
    stride = 1
    for a in reversed(range(len(shape))):
        table = np.zeros((len(steps), grid[a]), dtype=index_type)
        for step, (out, at) in enumerate(steps):
            table[step, out[a]] = np.arange(at[a].start, at[a].stop, at[a].step) * stride
        view = [1] * len(grid)
        view[a] = grid[a]
        index = np.arange(grid[a]).reshape(view)
        if (table == table[:1]).all():
            targets += table[0][index]  # the same along this axis for every step
        else:
            targets += table[picked, index]  # (the int8 picks index as they are: no intp copy)
        stride *= shape[a]
    targets[picked < 0] = -1
    return targets


def _earlier_neighbours(window: Window) -> list[tuple[int, ...]] | None:
    """The window-index offsets of the earlier (row-major) windows that can overlap a window;
    None when there are too many to compare."""
    reach = []
    for d in window.dimensions:
        span = (d.size - 1) * d.window_dilation + 1
        reach.append(max(-(-span // d.stride) - 1, 0))  # windows this far apart can overlap
    count = 1
    for c in reach:
        count *= 2 * c + 1
    if count // 2 > _NEIGHBOURS_LIMIT:
        return None
    ranges = [range(-c, c + 1) for c in reach]
    return [delta for delta in product(*ranges) if any(delta) and next(d for d in delta if d) > 0]


def _combine(
    out: np.ndarray,
    targets: np.ndarray,
    updates: np.ndarray,
    combine_at: Combiner | None,
    apply: Callable[..., Any] | None,
    distinct: bool,
) -> None:
    """Combine updates into `out` at `targets`, in order: a recognised combiner in place; another
    computation at once when the targets are `distinct`, else in rounds of distinct targets."""
    if targets.size == 0:
        return
    if combine_at is not None:
        combine_at(out, targets, updates)
    elif distinct:
        assert apply is not None
        out[targets] = np.asarray(apply(out[targets], updates)).astype(out.dtype, copy=False)
    else:
        assert apply is not None
        results = [out]
        in_rounds(results, targets, [updates], apply)
        out[:] = results[0]
