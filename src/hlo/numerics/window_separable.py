"""Reduce-window with max, min or logical or, one window dimension at a time. These reducers
are associative, commutative and idempotent, so a window's value does not depend on how its
elements are grouped: the max over a 3x3 window is the max over the row maxima of its three
rows. (For floats that holds for the value, not for NaN payloads or the choice between two
zeros: the callers settle those as before, hlo.numerics.window_fold.)

Why: the row-major passes of window_fold read the operand with the window's stride; with the
minor dimension strided, NumPy steps through short scalar loops (a 3x3/2 max-pool's 9 passes
were 3x slower than the folds here). Per dimension, the windows that lie inside the operand
are folded at stride 1 by whole shifted passes over the flat array (contiguous, SIMD; the
elements a shift carries across a row end belong to no window that is kept) and then
subsampled at the stride; the few windows hanging into the padding fold their real elements
directly. Leading dimensions the window does not touch are cut into blocks that stay in the
core's cache through all the dimensions' passes.
"""

from __future__ import annotations

import math

import numpy as np

from ..ir.attrs import Window, WindowDimension

BLOCK_BYTES = 1 << 20  # operand bytes per block (the core's L2): max-pool 5.6 ms, 6.6 at 256 KB, 12 at 64 KB


def applies(window: Window, shape: tuple[int, ...]) -> bool:
    """Whether the window has no dilation and every result has at least one window position."""
    if any(d.window_dilation != 1 or d.base_dilation != 1 for d in window.dimensions):
        return False
    return all(n > 0 for n in shape) and all(c > 0 for c in _counts(shape, window))


def fold(ufunc: np.ufunc, x: np.ndarray, init: np.ndarray, window: Window) -> np.ndarray:
    """The reduce-window of `x` with `ufunc` (maximum, minimum, logical_or), init included."""
    dims = window.dimensions
    counts = _counts(x.shape, window)
    lead = 0  # leading dimensions the window leaves alone: blocks
    while lead < len(dims) - 1 and _trivial(dims[lead]):
        lead += 1
    rows = math.prod(x.shape[:lead])
    body = x.shape[lead:]
    flat = np.ascontiguousarray(x).reshape(rows, *body)
    out = np.empty((rows, *counts[lead:]), x.dtype)
    step = max(1, BLOCK_BYTES // max(1, math.prod(body) * x.dtype.itemsize))
    touched = [a for a in range(len(body)) if not _trivial(dims[lead + a])]
    for r0 in range(0, rows, step):
        y = flat[r0 : r0 + step]
        for a in touched:
            y = _axis(ufunc, y, a + 1, dims[lead + a], counts[lead + a], init)
        out[r0 : r0 + step] = y
    if not _identity(ufunc, init):
        ufunc(out, init, out=out)
    return out.reshape(counts)


def _trivial(d: WindowDimension) -> bool:
    return d.size == 1 and d.stride == 1 and d.padding_low == 0 and d.padding_high == 0


def _counts(shape: tuple[int, ...], window: Window) -> tuple[int, ...]:
    return tuple(
        max((n + d.padding_low + d.padding_high - d.size) // d.stride + 1, 0)
        for n, d in zip(shape, window.dimensions)
    )


def _identity(ufunc: np.ufunc, init: np.ndarray) -> bool:
    """Whether folding `init` in changes nothing (-inf for a max, the smallest integer, ...)."""
    if init.dtype == np.bool_:
        return bool(init) == (ufunc is np.logical_and)
    lowest = -np.inf if init.dtype.kind == "f" else np.iinfo(init.dtype).min
    highest = np.inf if init.dtype.kind == "f" else np.iinfo(init.dtype).max
    value = init.item()
    return value == (lowest if ufunc is np.maximum else highest if ufunc is np.minimum else None)


def _axis(
    ufunc: np.ufunc, y: np.ndarray, a: int, d: WindowDimension, count: int, init: np.ndarray
) -> np.ndarray:
    """Fold dimension `a` of the contiguous `y` with one window dimension (no dilation)."""
    n, s, t, low = y.shape[a], d.size, d.stride, d.padding_low
    outer, inner = math.prod(y.shape[:a]), math.prod(y.shape[a + 1 :])
    src = y.reshape(outer, n, inner)
    z = np.empty((outer, count, inner), y.dtype)
    # the outputs whose window lies inside the operand: o*t - low >= 0 and o*t - low + s <= n
    lo = min(-(-low // t) if low > 0 else 0, count)
    hi = max(min((n - s + low) // t + 1, count), lo) if n >= s else lo
    if hi > lo:
        flat = src.reshape(-1)
        span = flat.size - (s - 1) * inner
        run = flat if s == 1 else np.empty(flat.size, y.dtype)
        if s > 1:
            ufunc(flat[:span], flat[inner : inner + span], out=run[:span])
            for k in range(2, s):
                ufunc(run[:span], flat[k * inner : k * inner + span], out=run[:span])
        first = lo * t - low
        z[:, lo:hi] = run.reshape(outer, n, inner)[:, first : first + t * (hi - lo - 1) + 1 : t]
    for o in (*range(lo), *range(hi, count)):  # windows reaching into the padding
        q0, q1 = max(o * t - low, 0), min(o * t - low + s, n)
        if q1 == q0 + 1:
            z[:, o] = src[:, q0]
        elif q1 > q0:  # pairwise: ufunc.reduce over a short axis costs 3x more here
            ufunc(src[:, q0], src[:, q0 + 1], out=z[:, o])
            for q in range(q0 + 2, q1):
                ufunc(z[:, o], src[:, q], out=z[:, o])
        else:
            z[:, o] = init  # all padding: the init value alone
    shape = list(y.shape)
    shape[a] = count
    return z.reshape(shape)
