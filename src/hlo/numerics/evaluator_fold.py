"""Reduces and reduce-windows as XLA's constant folding computes them. XLA folds an instruction
whose operands are constants (or broadcasts of constants, or iotas, one at least a constant) at
compile time with its HloEvaluator, not with XLA:CPU's kernels, and the evaluator's order is its
own (checked against XLA:CPU, jaxlib 0.10.2; tests/golden/ops/exact_constant_folds.npz, made by
tools/make_exactness_fixtures.py):

- a reduce of one float operand whose reducer is an add accumulates in f64, from the init value,
  element by element in row-major order, and rounds once to the element type (XLA:CPU's own
  kernels round every step, in a tree or the vector kernel's order). XLA:CPU's tree rewrite
  (hlo.numerics.tree_reduce) runs before the folding, so where it applies (f16, fewer than 4096
  elements) its reduce-windows are folded first, as below, and only its last reduce in f64;
- a float max/min reduce folds from the init value in row-major order: a NaN propagates (XLA:CPU's
  own kernels over 4096+ elements skip it) and a tie of zeros keeps the earlier one; shorter
  ones are split by the tree rewrite first, as for sums;
- a reduce-window folds each window from the init value in row-major order of the window
  positions, one step at a time in the element type, padding skipped (XLA:CPU's emitter may
  hoist a padding test and fold the last offset of a dimension after the others,
  hlo.numerics.window_order). A window over whole dimensions is a reduce by then.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.attrs import Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import numerics
from .computations import lifted, recognise_reducer
from .context import KernelContext
from .tree_reduce import tree_windows
from .vector_sum import MIN_ELEMENTS
from .window_fold import _axis_slices, output_dims


def add_in_f64(x: np.ndarray, init: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """A float add-reduce of `axes`: accumulated in f64 from the init value, row-major, then
    rounded once."""
    kept = [d for d in range(x.ndim) if d not in axes]
    lead = [x.shape[d] for d in kept]
    rows = np.transpose(x, [*kept, *sorted(axes)]).reshape(*lead, -1).astype(np.float64)
    start = np.broadcast_to(np.asarray(init, np.float64), (*lead, 1))
    # cumsum adds one element at a time (no pairwise regrouping), as the evaluator's loop
    total = np.cumsum(np.concatenate([start, rows], axis=-1), axis=-1)[..., -1]
    return np.asarray(total).astype(x.dtype)


def window_row_major(
    step: Callable[[np.ndarray, np.ndarray], Any], x: np.ndarray, init: np.ndarray, window: Window
) -> np.ndarray:
    """Reduce-window with `step` (a reducer of two arrays, in the element type): every window
    from the init value, its positions in row-major order, padding and holes skipped."""
    count = output_dims(x.shape, window)
    acc = np.array(np.broadcast_to(np.asarray(init, x.dtype), count))
    per_axis = [
        [_axis_slices(n, d, c, k) for k in range(d.size)]
        for n, d, c in zip(x.shape, window.dimensions, count)
    ]
    for index in itertools.product(*(range(d.size) for d in window.dimensions)):
        picked = [per_axis[a][k] for a, k in enumerate(index)]
        if any(p is None for p in picked):
            continue
        out = tuple(p[0] for p in picked if p is not None)
        at = tuple(p[1] for p in picked if p is not None)
        acc[out] = np.asarray(step(acc[out], x[at])).astype(acc.dtype, copy=False)
    return acc


def _evaluator_max(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The evaluator's maximum: a NaN operand (the first one first), else `b` only when `a < b`
    (a tie of zeros keeps `a`)."""
    return np.where(np.isnan(a) | ~(a < b) & ~np.isnan(b), a, b)


def _evaluator_min(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(a) | ~(b < a) & ~np.isnan(b), a, b)


def kernel(
    instr: Instruction, ctx: KernelContext, whole: bool, fallback: Callable[..., Any]
) -> Callable[..., Any] | None:
    """The kernel of a reduce or reduce-window that XLA constant-folds, in the evaluator's order,
    for the cases pinned (float add-reduces; reduce-windows of a known reducer; `whole`: a
    reduce-window over whole dimensions, which XLA makes a reduce first); None for the others.
    `fallback` (the op's own kernel) runs what XLA does not fold after all."""
    name = instr.attrs["to_apply"]
    reducer = recognise_reducer(ctx.module.computation(name))
    if len(instr.operands) != 2 or instr.shape.is_tuple:
        return None
    if reducer is None:  # any other reducer: a reduce-window's steps row-major, as its own
        if instr.opcode is not Opcode.REDUCE_WINDOW or whole:
            return None
        apply = lifted(ctx, name, instr.opcode.text)
        return lambda x, init: window_row_major(apply, x, init, instr.attrs["window"])
    floating = instr.shape.element_type.is_floating_point
    adds = (
        reducer.opcode is Opcode.ADD
        and floating
        and not numerics.is_ml_dtype(instr.shape.element_type.numpy_dtype)
    )
    if instr.opcode is Opcode.REDUCE:
        axes = tuple(instr.attrs["dimensions"])
        extreme = reducer.opcode in (Opcode.MAXIMUM, Opcode.MINIMUM)
        if floating and extreme and not numerics.is_ml_dtype(instr.shape.element_type.numpy_dtype):
            return _extreme_kernel(axes, reducer.opcode is Opcode.MAXIMUM, fallback)
        if not adds:
            return None
        combine = reducer.combine

        def reduce(x: np.ndarray, init: np.ndarray) -> np.ndarray:
            if not _folds(x, axes):
                return fallback(x, init)
            results = x.size // max(int(np.prod([x.shape[d] for d in axes])), 1)
            if x.dtype.itemsize < 4 or max(x.size, results) < MIN_ELEMENTS:
                # XLA:CPU's tree rewrite runs first (its vector kernels would take the others):
                # its windows are folded like any reduce-window, the last reduce in f64
                x = tree_windows(lambda a, b: np.asarray(combine(a, b)).astype(x.dtype), x, init, axes)
            return add_in_f64(x, init, axes)

        return reduce
    window: Window = instr.attrs["window"]
    if whole:
        if not adds:
            return None
        axes = tuple(a for a, d in enumerate(window.dimensions) if d.size != 1)

        def whole_window(x: np.ndarray, init: np.ndarray) -> np.ndarray:
            return add_in_f64(x, init, axes).reshape(output_dims(x.shape, window))

        return whole_window
    step: Callable[..., Any] = reducer.combine
    if floating and reducer.opcode is Opcode.MAXIMUM:
        step = _evaluator_max
    elif floating and reducer.opcode is Opcode.MINIMUM:
        step = _evaluator_min
    return lambda x, init: window_row_major(step, x, init, window)


def _extreme_kernel(axes: tuple[int, ...], is_max: bool, fallback: Callable[..., Any]) -> Callable[..., Any]:
    def reduce(x: np.ndarray, init: np.ndarray) -> np.ndarray:
        results = x.size // max(int(np.prod([x.shape[d] for d in axes])), 1)
        if not _folds(x, axes) or x.dtype.itemsize < 4 or max(x.size, results) < MIN_ELEMENTS:
            return fallback(x, init)  # XLA:CPU's tree rewrite first (the kernel gives that)
        return extreme_row_major(x, init, axes, is_max)

    return reduce


def extreme_row_major(x: np.ndarray, init: np.ndarray, axes: tuple[int, ...], is_max: bool) -> np.ndarray:
    """A float max/min reduce of `axes` as the evaluator folds it, from the init value in
    row-major order with `_evaluator_max`/`_evaluator_min`: the first NaN met, else the first
    element equal to the extreme (a tie of zeros keeps the earlier one), in one pass."""
    kept = [d for d in range(x.ndim) if d not in axes]
    lead = [x.shape[d] for d in kept]
    rows = np.transpose(x, [*kept, *sorted(axes)]).reshape(*lead, -1)
    start = np.broadcast_to(np.asarray(init, x.dtype), (*lead, 1))
    seq = np.concatenate([start, rows], axis=-1)
    nan = np.isnan(seq)
    extreme = (np.fmax if is_max else np.fmin).reduce(seq, axis=-1, keepdims=True)
    first = np.argmax(seq == extreme, axis=-1)[..., None]
    first_nan = np.argmax(nan, axis=-1)[..., None]
    value = np.where(nan.any(axis=-1, keepdims=True), first_nan, first)
    return np.take_along_axis(seq, value, axis=-1)[..., 0]


def _folds(x: np.ndarray, axes: tuple[int, ...]) -> bool:
    """Whether a reduce folds at all: XLA makes a reduce of one element per result a reshape."""
    return x.size > 0 and not all(x.shape[d] == 1 for d in axes)
