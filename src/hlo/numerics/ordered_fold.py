"""Folding in XLA:CPU's order: each result starts from its init value and takes the reduced
elements one by one in row-major order, as f(accumulator, element). In a reduce-window only the
operand's own elements are taken: padding and the holes of base dilation are skipped, not
folded in as init values (XLA:CPU; an index sum shows the init value counted once). The order
matters for reducers that are not associative (an argmax whose tie-break or NaN rule depends
on which operand comes first, a subtraction) and for float sums, which round at every step in
the reducer's type (a bf16 sum rounds to bf16 after each addition).

Each step runs the reducer once on whole arrays (one element of every window or reduced row at
a time) and reads the elements through views: nothing of the size of all the windows together
is ever made.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ir.attrs import Window
from . import subnormals

ACCUMULATE_ELEMENTS = 1 << 16  # folds of sums this small run as one accumulate


def fold_in_order(
    apply: Callable[..., Any],
    values: tuple[np.ndarray, ...],
    inits: tuple[np.ndarray, ...],
    axes: int,
    masks: Sequence[np.ndarray] | None = None,
) -> tuple[np.ndarray, ...]:
    """Reduce the trailing `axes` axes of each of `values` (views are fine) with `apply`, a
    computation of 2N parameters lifted to arrays; results have the leading axes' shape.
    `masks` (one per reduced axis, shape (leading axis, reduced axis), or None for all) say
    which elements are real: the others are skipped."""
    lead = values[0].shape[: values[0].ndim - axes]
    reduced = values[0].shape[values[0].ndim - axes :]
    acc = tuple(np.broadcast_to(i, lead) for i in inits)
    for index in np.ndindex(*reduced):
        at = (Ellipsis, *index)
        step = apply(*acc, *(v[at] for v in values))
        new = tuple(np.asarray(s) for s in (step if isinstance(step, tuple) else (step,)))
        if masks is not None:
            real = _real(masks, index, len(lead))
            new = tuple(np.where(real, n, a) for n, a in zip(new, acc))
        acc = new
    return tuple(np.array(a, dtype=i.dtype) for a, i in zip(acc, inits))  # owned, 0-d stays 0-d


def _real(masks: Sequence[np.ndarray], index: tuple[int, ...], rank: int) -> np.ndarray:
    """Which windows hold a real element at window offset `index` (broadcastable to them)."""
    real = np.ones((1,) * rank, dtype=bool)
    first = rank - len(masks)  # the masks belong to the last leading axes
    for d, (mask, k) in enumerate(zip(masks, index)):
        view = [1] * rank
        view[first + d] = mask.shape[0]
        real = real & mask[:, k].reshape(view)
    return real


def window_masks(shape: Sequence[int], window: Window) -> list[np.ndarray] | None:
    """Per dimension, (output position, window offset) -> whether that element of the window is
    one of the operand's (not padding, not a base-dilation hole); None when all are."""
    if all(d.padding_low == d.padding_high == 0 and d.base_dilation == 1 for d in window.dimensions):
        return None  # every window lies inside the operand (no arrays of positions needed)
    masks = []
    everywhere = True
    for n, d in zip(shape, window.dimensions):
        spread = (n - 1) * d.base_dilation + 1 if n else 0
        padded = spread + d.padding_low + d.padding_high
        span = (d.size - 1) * d.window_dilation + 1
        count = max((padded - span) // d.stride + 1, 0) if padded >= span else 0
        position = np.arange(count)[:, None] * d.stride + np.arange(d.size)[None, :] * d.window_dilation
        q = position - d.padding_low  # the coordinate in the base-dilated operand
        mask = (q >= 0) & (q < spread) & (q % d.base_dilation == 0)
        everywhere = everywhere and bool(mask.all())
        masks.append(mask)
    return None if everywhere else masks


_CONTIGUOUS_COPY_LIMIT = 256 << 20  # bytes of window view copied to make each step contiguous


def fold_known_in_order(
    combine: Callable[[np.ndarray, np.ndarray], np.ndarray],
    view: np.ndarray,
    init: np.ndarray,
    axes: int,
    masks: Sequence[np.ndarray] | None,
    flush: Callable[[np.ndarray], np.ndarray] | None,
) -> np.ndarray:
    """fold_in_order for a reducer known as a NumPy function of two arrays, computed in the
    element type itself (so bf16 and f16 round after every step, as XLA:CPU's reducer does);
    `flush` (XLA:CPU's flush-to-zero, or None) applies to each element and each partial
    result."""
    lead = view.shape[: view.ndim - axes]
    if (
        getattr(combine, "plain_add", False)
        and masks is None
        and flush is None
        and view.size <= ACCUMULATE_ELEMENTS
        and view.dtype == init.dtype
        and view.dtype in (np.float32, np.float64)
        and subnormals.active()
    ):
        return accumulated(view, init, axes)
    acc = np.array(np.broadcast_to(init, lead))
    if flush is not None:
        acc = flush(acc)
    if view.ndim > axes and view.nbytes <= _CONTIGUOUS_COPY_LIMIT:
        # window elements first, each a contiguous array: the same steps in the same order, on
        # arrays the CPU streams through instead of strided views (a window of 32: 32x faster)
        order = [*range(view.ndim - axes, view.ndim), *range(view.ndim - axes)]
        view = np.moveaxis(np.ascontiguousarray(np.transpose(view, order)), range(axes), range(-axes, 0))
    for index in np.ndindex(*view.shape[view.ndim - axes :]):
        at = (Ellipsis, *index)
        x = view[at]
        new = np.asarray(combine(acc, flush(x) if flush is not None else x)).astype(acc.dtype, copy=False)
        if flush is not None:
            new = flush(new)
        acc = new if masks is None else np.where(_real(masks, index, len(lead)), new, acc)
    return acc


def accumulated(view: np.ndarray, init: np.ndarray, axes: int) -> np.ndarray:
    """A sum of the last `axes` dimensions from `init` in row-major order, as the steps of
    fold_known_in_order make it, in one call: NumPy's accumulate adds strictly one element after
    another (unlike its reduce, pairwise along a row), each sum rounded in the element type and
    flushed by the CPU's mode as each step's (a step cost ~6 us of Python: a [128,10] column
    sum's tree rewrite takes 36)."""
    lead = view.shape[: view.ndim - axes]
    rows = np.empty((*lead, 1 + math.prod(view.shape[view.ndim - axes :])), view.dtype)
    rows[..., 0] = init
    rows[..., 1:] = view.reshape(*lead, rows.shape[-1] - 1)
    return np.add.accumulate(rows, axis=-1)[..., -1]
