"""Running folds (reduce-windows that are scans: jax's cumulative sums, products, maxima) in
XLA:CPU's order. XLA:CPU rewrites a scan longer than 16 elements before running it
(ReduceWindowRewriter, base length 16): the axis is padded with the init value to a multiple of
16 and cut into rows of 16; each row is scanned from the init value; the rows' totals get an
exclusive scan (rewritten the same way when longer than 16); each element is then
f(row scan, carry). The init value is thus folded in twice, and float sums round in that
order (a bf16 cumulative sum rounds in bf16 at every step of it). Shorter scans are plain
reduce-windows (hlo.numerics.ordered_fold).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ir.attrs import Window, WindowDimension
from .ordered_fold import fold_in_order, window_masks
from .windows import windows

BASE = 16
Values = tuple[np.ndarray, ...]
Apply = Callable[..., Any]  # 2N arrays -> one array or a tuple of N


def scan_axis(shape: Sequence[int], window: Window) -> tuple[int, bool, bool] | None:
    """(axis, forward, exclusive) when XLA:CPU would rewrite this reduce-window as a scan: one
    non-trivial window dimension, as long as the axis, stride 1, no dilation, padded by all but
    one element (inclusive) or all of them (exclusive) on one side; the axis longer than 16."""
    found = None
    for axis, (n, d) in enumerate(zip(shape, window.dimensions)):
        if d.base_dilation != 1 or d.window_dilation != 1 or d.stride != 1 or d.window_reversal:
            return None
        if d.size == 1 and d.padding_low == 0 and d.padding_high == 0:
            continue
        if found is not None:
            return None
        forward = d.padding_low in (n - 1, n) and d.padding_high == 0
        reverse = d.padding_high in (n - 1, n) and d.padding_low == 0
        if d.size != n or not (forward or reverse) or n <= BASE:
            return None
        exclusive = (d.padding_low if forward else d.padding_high) == n
        found = (axis, forward, exclusive)
    return found


def _plain(apply: Apply, xs: Values, inits: Values, low: int, high: int, size: int) -> Values:
    """A reduce-window along the last axis (window `size`, stride 1, padding low/high), folded
    in order with padding skipped."""
    window = Window((WindowDimension(size, 1, low, high),))
    lead = xs[0].shape[:-1]
    views = []
    for x in xs:
        fill = np.zeros((), x.dtype)  # never read: padding is skipped
        edges = np.broadcast_to(fill, (*lead, low)), np.broadcast_to(fill, (*lead, high))
        views.append(windows(np.concatenate([edges[0], x, edges[1]], axis=-1), [size], [1], [1]))
    return fold_in_order(apply, tuple(views), inits, 1, window_masks(xs[0].shape[-1:], window))


def scan(apply: Apply, xs: Values, inits: Values, forward: bool, exclusive: bool) -> Values:
    """The scan of the last axis of each of `xs` with `apply` (2N arrays -> N of them) as
    XLA:CPU runs it; n + 1 results when exclusive."""
    n = xs[0].shape[-1]
    if n <= BASE:
        low, high = (n - (0 if exclusive else 1), 0) if forward else (0, n - (0 if exclusive else 1))
        return _plain(apply, xs, inits, low, high, n)
    padded_length = -(-n // BASE) * BASE
    lead = xs[0].shape[:-1]
    if padded_length != n:
        xs = tuple(
            np.concatenate([x, np.broadcast_to(i.astype(x.dtype), (*lead, padded_length - n))], axis=-1)
            for x, i in zip(xs, inits)
        )
    columns = padded_length // BASE
    tiles = tuple(x.reshape(*lead, columns, BASE) for x in xs)
    outer = _plain(apply, tiles, inits, BASE - 1 if forward else 0, 0 if forward else BASE - 1, BASE)
    totals = tuple(o[..., -1] if forward else o[..., 0] for o in outer)
    carry = scan(apply, totals, inits, forward, exclusive=True)
    carry = tuple((c[..., :columns] if forward else c[..., 1:])[..., None] for c in carry)
    combined = _tuple(apply(*outer, *carry))
    results = []
    for r, x, i in zip(combined, xs, inits):
        r = np.asarray(r).astype(x.dtype, copy=False).reshape(*lead, padded_length)[..., :n]
        if exclusive:
            edge = np.broadcast_to(i.astype(x.dtype), (*lead, 1))
            r = np.concatenate([edge, r] if forward else [r, edge], axis=-1)
        results.append(r)
    return tuple(results)


def _tuple(value: Any) -> Values:
    return tuple(value) if isinstance(value, tuple) else (value,)
