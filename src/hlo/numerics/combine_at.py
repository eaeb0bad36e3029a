"""How scatter and select-and-scatter combine updates into their result in place, in update
order, for a recognised combiner: `ufunc.at` (add, multiply, maximum, ...) or replacement (later
updates win). Windows that are runs of consecutive elements (an embedding gradient's rows) are
combined a whole run at a time where no other window of the call shares an element with them —
the order cannot show there — and element by element through `ufunc.at` where one does."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .numerics import is_float, is_ml_dtype

Combiner = Callable[[np.ndarray, np.ndarray, np.ndarray], None]


class UfuncCombiner:
    """`combiner(flat, positions, values)`: each update combined into `flat` at its position
    (positions and values of one shape), in order; `combiner.runs(flat, starts, width,
    values)`: the same for windows of `width` consecutive elements from `starts` (values one
    row per window)."""

    def __init__(self, ufunc: np.ufunc | None) -> None:
        self.ufunc = ufunc  # None: replacement

    def __call__(self, flat: np.ndarray, positions: np.ndarray, values: np.ndarray) -> None:
        width = positions.shape[1] if positions.ndim == 2 else 0
        if width >= 2 and positions[0, -1] - positions[0, 0] == width - 1:  # rows of one run each
            self.runs(flat, positions[:, 0], width, values.reshape(len(positions), width))
        else:
            self._elements(flat, positions.reshape(-1), values.reshape(-1))

    def runs(self, flat: np.ndarray, starts: np.ndarray, width: int, values: np.ndarray) -> None:
        if width < 2 or (is_ml_dtype(flat.dtype) and not is_float(flat.dtype)) or not len(starts):
            positions = starts[:, None] + np.arange(width)
            self._elements(flat, positions.reshape(-1), values.reshape(-1))
            return
        order = np.argsort(starts, kind="stable")
        apart = np.diff(starts[order]) >= width  # neighbours in position order share no element
        alone = np.empty(len(starts), bool)
        alone[order] = np.r_[True, apart] & np.r_[apart, True]
        every = bool(alone.all())
        # a view whose row p is flat[p : p + width]: rows overlap, the picked ones do not, and
        # NumPy copies each as one run instead of indexing its elements
        rows = np.lib.stride_tricks.as_strided(
            flat, (flat.size - width + 1, width), (flat.itemsize, flat.itemsize)
        )
        picked = starts if every else starts[alone]
        new = values if every else values[alone]
        if self.ufunc is None:
            rows[picked] = new
        else:
            # in the element type: bf16 and f16 round after every update, as XLA:CPU's
            rows[picked] = self.ufunc(rows[picked], new.astype(flat.dtype, copy=False))
        if not every:
            shared = ~alone
            positions = starts[shared][:, None] + np.arange(width)
            self._elements(flat, positions.reshape(-1), values[shared].reshape(-1))

    def _elements(self, flat: np.ndarray, positions: np.ndarray, values: np.ndarray) -> None:
        ufunc = self.ufunc
        if ufunc is None:
            flat[positions] = values
        elif is_ml_dtype(flat.dtype) and not is_float(flat.dtype):  # s4, u4...: wrap through int64
            work = flat.astype(np.int64)
            ufunc.at(work, positions, values.astype(np.int64))
            flat[:] = work.astype(flat.dtype)
        else:
            # in the element type: bf16 and f16 round after every update, as XLA:CPU's
            ufunc.at(flat, positions, values.astype(flat.dtype, copy=False))


def ufunc_combiner(ufunc: np.ufunc | None) -> UfuncCombiner:
    """`ufunc.at` (in update order), or replacement when `ufunc` is None."""
    return UfuncCombiner(ufunc)
