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
from .window_fold import fold_window

BASE = 16
Values = tuple[np.ndarray, ...]
Apply = Callable[..., Any]  # 2N arrays -> one array or a tuple of N


def scan_axis(shape: Sequence[int], window: Window, short: bool = False) -> tuple[int, bool, bool] | None:
    """(axis, forward, exclusive) when XLA:CPU would rewrite this reduce-window as a scan: one
    non-trivial window dimension, as long as the axis, stride 1, no dilation, padded by all but
    one element (inclusive) or all of them (exclusive) on one side; the axis longer than 16.
    With `short`, also a forward scan of 2-16 elements (the reduce-windows the rewrite leaves,
    which XLA's optimized text holds): XLA:CPU folds each window from its first element, so it
    is a running fold too."""
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
        if d.size != n or not (forward or reverse) or (n <= BASE and not (short and forward and n > 1)):
            return None
        exclusive = (d.padding_low if forward else d.padding_high) == n
        found = (axis, forward, exclusive)
    return found


def _plain(
    apply: Apply, xs: Values, inits: Values, low: int, high: int, size: int, running: np.ufunc | None
) -> Values:
    """A reduce-window along the last axis (window `size` as long as the axis, stride 1,
    padding low/high), folded in order with padding skipped."""
    n = xs[0].shape[-1]
    if high == 0 and low in (n - 1, n) and size == n and n > 0:
        if running is not None and len(xs) == 1:
            return (_accumulated(running, xs[0], inits[0], exclusive=low == n),)
        return _prefix(apply, xs, inits, exclusive=low == n)
    # a window reaching forward from each element: no running form (f(x_j, f(x_j+1, ...)) is
    # another order), so one shifted pass per window position (hlo.numerics.window_fold)
    lead = xs[0].ndim - 1
    window = Window((*(WindowDimension(1),) * lead, WindowDimension(size, 1, low, high)))
    return fold_window(apply, xs, inits, window)


def _accumulated(ufunc: np.ufunc, x: np.ndarray, init: np.ndarray, exclusive: bool) -> np.ndarray:
    """_prefix for a reducer that is one NumPy ufunc whose steps need nothing more (no software
    flushing): `ufunc.accumulate` is that running fold, one step after another in the element
    type (not pairwise, unlike `ufunc.reduce`), started from f(init, x_0)."""
    first = 1 if exclusive else 0
    out = np.empty((*x.shape[:-1], x.shape[-1] + first), dtype=init.dtype)
    if exclusive:
        out[..., 0] = init
    body = out[..., first:]
    n = x.shape[-1]
    if 1 < n <= SHORT and x.dtype == body.dtype and x.size >= SHORT_ROWS * n:
        _short_rows(ufunc, x.reshape(-1, n), init, out.reshape(-1, n + first)[:, first:])  # (views of `out`)
        return out
    body[...] = x
    body[..., 0] = ufunc(init, x[..., 0])
    ufunc.accumulate(body, axis=-1, dtype=body.dtype, out=body)
    return out


SHORT = 64  # axes up to this long are scanned a step per position, not by ufunc.accumulate
SHORT_ROWS = 1 << 12  # rows per pass of _short_rows: 256 KB of f32 rows of 16, in the cache


def _short_rows(ufunc: np.ufunc, x: np.ndarray, init: np.ndarray, out: np.ndarray) -> None:
    """`out` (a view of [rows, n]) = the running fold of each row of `x` from `init`, one step
    per position over a block of rows at a time: the same steps in the same order as
    `ufunc.accumulate` along the rows, which calls its loop once per row of 16 (76 ms for
    the 1M rows of a [4096, 4096] cumulative sum's tiles; so, 35 ms)."""
    for a in range(0, x.shape[0], SHORT_ROWS):
        xs, o = x[a : a + SHORT_ROWS], out[a : a + SHORT_ROWS]
        ufunc(init, xs[:, 0], out=o[:, 0])
        for j in range(1, x.shape[1]):
            ufunc(o[:, j - 1], xs[:, j], out=o[:, j])


def _prefix(apply: Apply, xs: Values, inits: Values, exclusive: bool) -> Values:
    """A forward scan: output j folds the init value and elements 0..j (0..j-1 when exclusive)
    in order, which is exactly the running fold acc_j = f(acc_j-1, x_j): one step per
    element position (the windowed form would take n(n+1)/2)."""
    lead = xs[0].shape[:-1]
    n = xs[0].shape[-1]
    first = 1 if exclusive else 0
    # element positions first, so that each step reads and writes contiguous arrays (the same
    # steps in the same order; the results are returned as views in the operand's axis order)
    columns = [np.ascontiguousarray(np.moveaxis(x, -1, 0)) for x in xs]
    outs = [np.empty((n + first, *lead), dtype=i.dtype) for i in inits]
    acc: Values = tuple(np.broadcast_to(i, lead) for i in inits)
    for o, a in zip(outs, acc):
        if exclusive:
            o[0] = a
    for j in range(n):
        acc = _tuple(apply(*acc, *(c[j] for c in columns)))
        for o, a in zip(outs, acc):
            o[j + first] = a
    return tuple(np.moveaxis(o, 0, -1) for o in outs)


def scan(
    apply: Apply, xs: Values, inits: Values, forward: bool, exclusive: bool, running: np.ufunc | None = None
) -> Values:
    """The scan of the last axis of each of `xs` with `apply` (2N arrays -> N of them) as
    XLA:CPU runs it; n + 1 results when exclusive. `running`: the reducer as a NumPy ufunc
    whose `accumulate` computes its running fold exactly (or None)."""
    n = xs[0].shape[-1]
    if n <= BASE:
        low, high = (n - (0 if exclusive else 1), 0) if forward else (0, n - (0 if exclusive else 1))
        return _plain(apply, xs, inits, low, high, n, running)
    padded_length = -(-n // BASE) * BASE
    lead = xs[0].shape[:-1]
    if padded_length != n:
        xs = tuple(
            np.concatenate([x, np.broadcast_to(i.astype(x.dtype), (*lead, padded_length - n))], axis=-1)
            for x, i in zip(xs, inits)
        )
    columns = padded_length // BASE
    tiles = tuple(x.reshape(*lead, columns, BASE) for x in xs)
    outer = _plain(apply, tiles, inits, BASE - 1 if forward else 0, 0 if forward else BASE - 1, BASE, running)
    totals = tuple(o[..., -1] if forward else o[..., 0] for o in outer)
    carry = scan(apply, totals, inits, forward, exclusive=True, running=running)
    carry = tuple((c[..., :columns] if forward else c[..., 1:])[..., None] for c in carry)
    if running is not None and len(outer) == 1 and outer[0].dtype == carry[0].dtype:
        # into the row scans, which are this function's own (no second array the operand's size
        # to fault in and fill)
        combined: Values = (running(outer[0], carry[0], out=outer[0]),)
    else:
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
