"""Select-and-scatter (page 003): in each window of the operand, `select` picks one element
(scanning the window in order, a candidate replaces the current pick unless select(pick,
candidate) holds); each source value is combined into the output at its window's pick with
`scatter`, the output starting at the init value. Windows are strided views (padding is never
picked); the scan runs once per window element, vectorized over all windows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.attrs import Window
from .indexing import Combiner, _in_rounds
from .windows import window_view


def select_and_scatter(
    operand: np.ndarray,
    source: np.ndarray,
    init: np.ndarray,
    window: Window,
    select: Callable[..., Any],
    combine_at: Combiner | None,
    apply: Callable[..., Any] | None,
) -> np.ndarray:
    positions = np.arange(operand.size, dtype=np.int64).reshape(operand.shape)
    values = window_view(operand, window, np.zeros((), operand.dtype))
    where = window_view(positions, window, np.array(-1, np.int64))
    count = source.size
    values = values.reshape(count, -1)
    where = where.reshape(count, -1)
    picked_value = values[:, 0].copy()
    picked = where[:, 0].copy()
    for k in range(1, values.shape[1]):
        candidate, at = values[:, k], where[:, k]
        have = picked >= 0
        keep = np.asarray(select(picked_value, candidate), dtype=bool)
        take = (at >= 0) & (~have | ~keep)
        picked = np.where(take, at, picked)
        picked_value = np.where(take, candidate, picked_value)
    out = np.full(operand.size, init, dtype=operand.dtype)
    valid = picked >= 0
    targets, updates = picked[valid], source.reshape(-1)[valid]
    if targets.size:
        if combine_at is not None:
            combine_at(out, targets, updates)
        else:
            assert apply is not None
            results = [out]
            _in_rounds(results, targets, [updates], apply)
            out = results[0]
    return out.reshape(operand.shape)
