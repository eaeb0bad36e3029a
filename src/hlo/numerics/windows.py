"""Windows over arrays, as views: padding with interior (base) dilation, and the strided,
dilated windows of reduce-window, select-and-scatter and convolution
(`numpy.lib.stride_tricks.sliding_window_view`, no copies until a kernel reduces them)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..ir.attrs import Window


def pad(x: np.ndarray, fill: np.ndarray | float, config: Sequence[tuple[int, int, int]]) -> np.ndarray:
    """Pad's semantics for (low, high, interior) per dimension: `interior` fills go between
    elements, then `low`/`high` fills at the edges; negative edges crop."""
    if all(lo == 0 and hi == 0 and mid == 0 for lo, hi, mid in config):
        return x
    spread = [n + max(n - 1, 0) * mid for n, (_, _, mid) in zip(x.shape, config)]
    full = [max(lo, 0) + s + max(hi, 0) for (lo, hi, _), s in zip(config, spread)]
    out = np.full(full, fill, dtype=x.dtype)
    at = tuple(slice(max(lo, 0), max(lo, 0) + s, mid + 1) for (lo, _, mid), s in zip(config, spread))
    out[at] = x
    crop = tuple(slice(max(-lo, 0), f - max(-hi, 0)) for (lo, hi, _), f in zip(config, full))
    return out[crop]


def padded(x: np.ndarray, window: Window, fill: np.ndarray | float) -> np.ndarray:
    """`x` with a window's padding and base dilation applied."""
    return pad(x, fill, [(d.padding_low, d.padding_high, d.base_dilation - 1) for d in window.dimensions])


def windows(
    x: np.ndarray, sizes: Sequence[int], strides: Sequence[int], dilations: Sequence[int]
) -> np.ndarray:
    """A view of shape (positions..., window...) over the trailing len(sizes) axes of `x` (any
    leading axes are kept in front): position p, offset k reads x[p*stride + k*dilation]."""
    lead = x.ndim - len(sizes)
    spans = [(s - 1) * d + 1 for s, d in zip(sizes, dilations)]
    if any(span > n for span, n in zip(spans, x.shape[lead:])) or any(s == 0 for s in sizes):
        positions = [max((n - span) // st + 1, 0) for n, span, st in zip(x.shape[lead:], spans, strides)]
        return np.zeros((*x.shape[:lead], *positions, *sizes), dtype=x.dtype)
    view = sliding_window_view(x, spans, axis=tuple(range(lead, x.ndim)))
    pick = (
        (slice(None),) * lead
        + tuple(slice(None, None, st) for st in strides)
        + tuple(slice(None, None, d) for d in dilations)
    )
    return view[pick]


def window_view(x: np.ndarray, window: Window, fill: np.ndarray | float) -> np.ndarray:
    """All the windows of reduce-window over `x`: shape (output dims..., window dims...)."""
    dims = window.dimensions
    return windows(
        padded(x, window, fill),
        [d.size for d in dims],
        [d.stride for d in dims],
        [d.window_dilation for d in dims],
    )
