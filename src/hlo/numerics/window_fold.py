"""Reduce-window as shifted passes: for each position of the window, in XLA:CPU's order, every
output folds in the one operand element it sees there, `acc[outputs] = f(acc[outputs],
x[inputs])`, where both sides are basic (strided) slices. This is XLA:CPU's fold (each output
folds its window sequentially from the init value, in the same order of window positions for
every output: row-major, or for windows padded in some dimension the last offset there after
all the others, hlo.numerics.window_order; padding and base-dilation holes skipped: an output
whose element at this position is not the operand's is left out of the pass), and nothing of
the size of all the windows together is ever made: a 3x3 max-pool is 9 passes over the output,
no window view, no copy of the padded operand.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..ir.attrs import Window, WindowDimension
from ..ir.opcode import Opcode
from . import numerics, subnormals, window_separable
from .ordered_fold import ACCUMULATE_ELEMENTS, accumulated
from .window_order import positions
from .windows import windows

Slices = tuple[slice, ...]
Flush = Callable[[np.ndarray], np.ndarray]


def output_dims(shape: Sequence[int], window: Window) -> tuple[int, ...]:
    """The number of window positions along each dimension (XLA's window output size)."""
    dims = []
    for n, d in zip(shape, window.dimensions):
        padded = ((n - 1) * d.base_dilation + 1 if n else 0) + d.padding_low + d.padding_high
        span = (d.size - 1) * d.window_dilation + 1
        dims.append(max((padded - span) // d.stride + 1, 0))
    return tuple(dims)


def _axis_slices(n: int, d: WindowDimension, count: int, k: int) -> tuple[slice, slice] | None:
    """For window offset `k` along one axis: (outputs, operand elements) as slices, the outputs
    whose element at offset k is one of the operand's, in order; None when there is none."""
    spread = (n - 1) * d.base_dilation + 1 if n else 0
    q = np.arange(count) * d.stride + k * d.window_dilation - d.padding_low  # base-dilated coordinate
    real = np.flatnonzero((q >= 0) & (q < spread) & (q % d.base_dilation == 0))
    if real.size == 0:
        return None
    # the real outputs are an arithmetic progression (q is affine in the output, and the holes
    # of base dilation are periodic), and so are the elements they read
    step = int(real[1] - real[0]) if real.size > 1 else 1
    first, last = int(real[0]), int(real[-1])
    start = int(q[first]) // d.base_dilation
    in_step = step * d.stride // d.base_dilation
    return slice(first, last + 1, step), slice(start, start + in_step * (real.size - 1) + 1, in_step or 1)


def passes(shape: Sequence[int], window: Window) -> tuple[tuple[Slices, Slices], ...]:
    """(output slices, operand slices) for each window position with real elements, in the
    order XLA:CPU folds window positions (row-major, or with the last offset of one dimension
    after all others: hlo.numerics.window_order). Kept per shape and window: a reduce-window runs
    the same passes every call, and XLA's tree rewrite makes windows of 32x10 = 320 positions
    whose slices took longer to work out than to fold (RESULTS.md, step 5)."""
    return _passes(tuple(shape), window)


@functools.lru_cache(maxsize=256)
def _passes(shape: tuple[int, ...], window: Window) -> tuple[tuple[Slices, Slices], ...]:
    return tuple(_each_pass(shape, window))


def _each_pass(shape: Sequence[int], window: Window) -> Iterator[tuple[Slices, Slices]]:
    count = output_dims(shape, window)
    per_axis = [
        [_axis_slices(n, d, c, k) for k in range(d.size)] for n, d, c in zip(shape, window.dimensions, count)
    ]
    for index in positions(shape, window, count):
        picked = [per_axis[a][k] for a, k in enumerate(index)]
        if all(p is not None for p in picked):
            yield tuple(p[0] for p in picked if p), tuple(p[1] for p in picked if p)


def fold_window(
    apply: Callable[..., Any], xs: tuple[np.ndarray, ...], inits: tuple[np.ndarray, ...], window: Window
) -> tuple[np.ndarray, ...]:
    """Reduce-window of `xs` with `apply`, a computation of 2N parameters lifted to arrays."""
    count = output_dims(xs[0].shape, window)
    accs = [np.array(np.broadcast_to(i, count)) for i in inits]
    for out, at in passes(xs[0].shape, window):
        step = apply(*(a[out] for a in accs), *(x[at] for x in xs))
        whole = all(o == slice(0, c, 1) for o, c in zip(out, count))
        results = step if isinstance(step, tuple) else (step,)
        for k, s in enumerate(results):
            if whole and _own(s, accs[k]) and not any(s is t for t in results[:k]):
                accs[k] = s  # a pass over every output: its new array is the accumulator (no copy)
            else:
                accs[k][out] = s
    return tuple(accs)


def _own(s: Any, acc: np.ndarray) -> bool:
    """Whether `s` is a new array of the accumulator's type and shape, no view of anything (of an
    operand, which a later pass's assignment into it would change)."""
    return (
        isinstance(s, np.ndarray)
        and s.base is None
        and s.flags.writeable
        and s.flags.c_contiguous
        and s.dtype == acc.dtype
        and s.shape == acc.shape
    )


_IN_PLACE: dict[Opcode, tuple[np.ufunc, np.ufunc]] = {  # (numbers, predicates)
    Opcode.ADD: (np.add, np.logical_or),
    Opcode.MULTIPLY: (np.multiply, np.logical_and),
    Opcode.AND: (np.bitwise_and, np.logical_and),
    Opcode.OR: (np.bitwise_or, np.logical_or),
    Opcode.XOR: (np.bitwise_xor, np.logical_xor),
    Opcode.MAXIMUM: (np.maximum, np.maximum),
    Opcode.MINIMUM: (np.minimum, np.minimum),
}


@functools.lru_cache(maxsize=256)
def _plain_row_major(shape: tuple[int, ...], window: Window) -> bool:
    """Whether every window lies inside the operand (no padding, no base dilation) and XLA:CPU
    folds its positions row-major (hlo.numerics.window_order)."""
    if any(d.padding_low or d.padding_high or d.base_dilation != 1 for d in window.dimensions):
        return False
    count = output_dims(shape, window)
    if 0 in count:
        return False
    return list(positions(shape, window, count)) == list(np.ndindex(*(d.size for d in window.dimensions)))


def fold_window_known(
    opcode: Opcode,
    combine: Callable[[np.ndarray, np.ndarray], np.ndarray],
    x: np.ndarray,
    init: np.ndarray,
    window: Window,
    flush: Flush | None,
) -> np.ndarray:
    """Reduce-window with a recognised reducer, computed in the element type (bf16 and f16
    round after every step, as XLA:CPU's reducer does); `flush` (XLA:CPU's flush-to-zero, or
    None) applies to every element and every partial result."""
    if flush is not None:
        init = flush(init)
    kind = init.dtype.kind
    in_place = opcode in _IN_PLACE and kind != "c" and numerics_ok(x.dtype)
    if opcode in _SELECTS and kind == "f" and in_place:
        # flushing is monotone in the order max/min use (-0 below +0), so the extreme of the
        # flushed elements is the flushed extreme: the operand is flushed only if needed below
        return _extremes(opcode, combine, x, init, window, flush)
    software = flush is not None and not subnormals.active()
    dims = window.dimensions
    sizes = [d.size for d in dims]
    if (
        opcode is Opcode.ADD
        and in_place
        and not software
        and x.dtype == init.dtype
        and x.dtype in (np.float32, np.float64)
        and math.prod(output_dims(x.shape, window)) * math.prod(sizes) <= ACCUMULATE_ELEMENTS
        and _plain_row_major(tuple(x.shape), window)
    ):
        # windows of the operand alone, folded row-major: the passes below, in one accumulate
        # per window (XLA's tree rewrite leaves 32x10 windows: 320 passes of ~1 us each)
        view = windows(x, sizes, [d.stride for d in dims], [d.window_dilation for d in dims])
        return accumulated(view, init, x.ndim)
    acc = np.array(np.broadcast_to(init, output_dims(x.shape, window)))
    if flush is not None and (software or not in_place or opcode in _SELECTS):
        # once for the operand, as each step would flush its element (in the CPU's mode a sum
        # or product treats a subnormal operand as zero by itself)
        x = flush(x)
    if not in_place or (software and opcode not in _SELECTS):
        # each partial result flushed in software (the CPU's mode is off), or a reducer with no
        # NumPy form in place: step by step, as the reducer computes
        for out, at in passes(x.shape, window):
            new = np.asarray(combine(acc[out], x[at])).astype(acc.dtype, copy=False)
            acc[out] = flush(new) if flush is not None else new
        return acc
    # the CPU's flush-to-zero mode flushes sums and products; a max/min only selects
    ufunc = _IN_PLACE[opcode][1 if acc.dtype == np.bool_ else 0]
    for out, at in passes(x.shape, window):
        view = acc[out]
        ufunc(view, x[at], out=view)
    return acc


_SELECTS = (Opcode.MAXIMUM, Opcode.MINIMUM)


def numerics_ok(dtype: np.dtype) -> bool:
    """Whether NumPy's ufunc in place gives the reducer's value for this element type (the
    ml_dtypes integer types wrap only through the general path)."""
    return dtype.kind in "biuf" or numerics.is_float(dtype)


def _extremes(
    opcode: Opcode,
    combine: Callable[[np.ndarray, np.ndarray], np.ndarray],
    x: np.ndarray,
    init: np.ndarray,
    window: Window,
    flush: Flush | None,
) -> np.ndarray:
    """A float max/min (f32, f64) by NumPy's ufunc in place: with -0 ordered below +0 it is a
    total order on non-NaN values, so any order gives the same value, save NumPy's choice
    between two zeros (+0 wins a max when present, -0 a min: decided by a second, boolean fold)
    and NaN results, whose payload depends on the order (folded again step by step with the
    reducer). `init` comes flushed."""
    ufunc = np.maximum if opcode is Opcode.MAXIMUM else np.minimum
    separable = window_separable.applies(window, x.shape)
    if separable:  # the same value, one window dimension at a time
        acc = window_separable.fold(ufunc, x, init, window)
    else:
        acc = np.array(np.broadcast_to(init, output_dims(x.shape, window)))
        for out, at in passes(x.shape, window):
            view = acc[out]
            ufunc(view, x[at], out=view)
    if flush is not None and subnormals.active():
        # one pass: the CPU's mode flushes a product (a NaN result is folded again below)
        np.multiply(acc, acc.dtype.type(1), out=acc)
    elif flush is not None:
        acc = flush(acc)
    nan = np.isnan(acc).any()
    zero = acc == 0
    if not nan and not zero.any():
        return acc
    if flush is not None and (nan or not subnormals.active()):
        # (in the CPU's mode the zero test below reads a subnormal as the zero of its sign it
        # flushes to: no flushed copy of the operand, 1.2 ms of a LeNet max-pool's 1.4)
        x = flush(x)
    if nan:
        again = np.array(np.broadcast_to(init, acc.shape))
        for out, at in passes(x.shape, window):
            again[out] = np.asarray(combine(again[out], x[at])).astype(acc.dtype, copy=False)
        return again
    is_max = opcode is Opcode.MAXIMUM
    init_wins = np.asarray((init == 0) & (np.signbit(init) != is_max))
    winner = (x == 0) & (np.signbit(x) != is_max)  # a zero of the winning sign seen:
    if separable:
        wanted = window_separable.fold(np.logical_or, winner, init_wins, window)
    else:
        wanted = np.array(np.broadcast_to(init_wins, acc.shape))
        for out, at in passes(x.shape, window):
            view = wanted[out]
            np.logical_or(view, winner[at], out=view)
    signed = np.where(wanted == is_max, acc.dtype.type(0), acc.dtype.type(-0.0))
    return np.where(zero, signed, acc)
