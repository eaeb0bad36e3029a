"""Reduce with one operand in XLA:CPU's order. XLA:CPU rewrites a reduce over a dimension
longer than 32 before running it (TreeReductionRewriter, window 32): a reduce-window with
windows of min(n, 32) and the same stride on each reduced dimension, padded "SAME" (the padding
split low/high, skipped by the window fold), then a reduce of that, rewritten again while a
reduced dimension is longer than 32. Each window and each final reduce folds sequentially from
the init value in row-major order, in the element type (a bf16 sum rounds to bf16 at each
step). The init value is thus folded in once per window and level.

Verified bit for bit against XLA:CPU for reductions of up to 2048 elements per result (see
tests/golden/ops/exact_sums.npz). From 4096 elements on, XLA:CPU runs f32 and f64 add-reduces
in its vector kernels instead (hlo.numerics.vector_sum and column_sum, which the reduce kernel
picks first); other long reduces (bf16 and f16 sums, products) keep this rewrite, folded in
this order too (tests/golden/ops/exact_long_reduces.npz).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..ir.attrs import Window, WindowDimension
from .ordered_fold import fold_known_in_order, window_masks
from .windows import window_view

WINDOW = 32


def _same_padding(n: int, size: int) -> tuple[int, int]:
    """XLA's MakePadding for "SAME" with stride == size: the total split low then high."""
    out = -(-n // size)
    total = max((out - 1) * size + size - n, 0)
    return total // 2, total - total // 2


Step = Callable[[np.ndarray, np.ndarray], np.ndarray]
# a level of windows computed another way (its result, or None: folded here)
Level = Callable[[Step, np.ndarray, np.ndarray, tuple[int, ...]], "np.ndarray | None"]


def tree_reduce(
    step: Step, x: np.ndarray, init: np.ndarray, axes: Sequence[int], level: Level | None = None
) -> np.ndarray:
    """Reduce `axes` of `x` with the two-array function `step` in XLA:CPU's order (`level`: a
    level of the rewrite's windows computed in another order where it gives one)."""
    axes = tuple(sorted(axes))
    x = tree_windows(step, x, init, axes, level)
    kept = [d for d in range(x.ndim) if d not in axes]
    moved = np.transpose(x, [*kept, *axes])
    return fold_known_in_order(step, moved, init, len(axes), None, None)


def tree_windows(
    step: Step, x: np.ndarray, init: np.ndarray, axes: Sequence[int], level: Level | None = None
) -> np.ndarray:
    """The rewrite's reduce-windows: `x` with every reduced dimension cut to 32 or less (each
    window folded from the init value), ready for the final reduce."""
    while any(x.shape[d] > WINDOW for d in axes):
        other = level(step, x, init, tuple(axes)) if level is not None else None
        if other is not None:
            x = other
            continue
        dims = []
        for d, n in enumerate(x.shape):
            if d not in axes:
                dims.append(WindowDimension(1))
                continue
            size = min(n, WINDOW)
            low, high = _same_padding(n, size)
            dims.append(WindowDimension(size, size, low, high))
        window = Window(tuple(dims))
        view = window_view(x, window, np.zeros((), x.dtype))
        x = fold_known_in_order(step, view, init, x.ndim, window_masks(x.shape, window), None)
    return x
