"""Reductions: reduce and reduce-window over any computation, in XLA:CPU's order wherever the
order can show: float reduces as its tree rewrite or its vector kernels run them
(hlo.numerics.tree_reduce, vector_sum, column_sum, split_sum; float sums over windows that
tile the operand as the reduce XLA:CPU makes of them; window rows XLA:CPU vectorizes in its
vector loop's order, hlo.numerics.window_vector), windows folded from the init value
(hlo.numerics.window_fold; variadic reduces: hlo.numerics.ordered_fold), scans as its scan
rewrite runs them (hlo.numerics.scan); a recognised reducer steps as its NumPy function in the
element type, any other computation runs lifted to arrays. Integer and predicate reduces with
a recognised reducer, where no order changes the result, are one NumPy reduce."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.attrs import Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import (
    column_sum,
    numerics,
    reduce_lanes,
    split_extreme,
    split_sum,
    subnormals,
    vector_extreme,
    window_vector,
)
from .column_extreme import column_extreme
from .computations import Reducer, accumulate_dtype, component_reducer, lifted, recognise_reducer
from .context import KernelContext
from .ordered_fold import fold_in_order
from .scan import scan, scan_axis
from .tree_reduce import tree_reduce, tree_windows
from .vector_sum import MIN_ELEMENTS, vector_sum
from .vector_sum import applies as vector_applies
from .window_fold import fold_window, fold_window_known

Values = tuple[np.ndarray, ...]


def _fast(reducer: Reducer) -> Callable[..., np.ndarray]:
    """A known reducer over integers or predicates, where the order cannot change the result:
    one NumPy reduce."""

    def fold(x: np.ndarray, init: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        work = x.astype(accumulate_dtype(x.dtype), copy=False)
        result = np.asarray(reducer.combine(init.astype(work.dtype), reducer.fold(work, axes)))
        return result.astype(x.dtype, copy=False)

    return fold


def reduce_fn(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The kernel of reduce: N inputs, N init values; a tuple result when N > 1."""
    axes = tuple(instr.attrs["dimensions"])
    name = instr.attrs["to_apply"]
    reducer = recognise_reducer(ctx.module.computation(name))
    flush = numerics.flush_denormals if ctx.options.flush_denormals else None
    exact_any_order = (
        reducer is not None
        and not instr.shape.element_type.is_floating_point
        and not (instr.shape.element_type.is_complex)
    )
    if exact_any_order:
        assert reducer is not None
        fast = _fast(reducer)

        def fold(values: Values, inits: Values, dims: tuple[int, ...]) -> Values:
            return (fast(values[0], inits[0], dims),)

    elif len(instr.operands) == 2:  # XLA:CPU's tree rewrite leaves variadic reduces alone
        step = _step(reducer, flush) if reducer is not None else lifted(ctx, name, instr.opcode.text)
        single = _single(reducer, step, instr.shape.element_type.is_floating_point, flush)

        def fold(values: Values, inits: Values, dims: tuple[int, ...]) -> Values:
            return (single(values[0], inits[0], dims),)

    else:
        apply = lifted(ctx, name, instr.opcode.text)

        def fold(values: Values, inits: Values, dims: tuple[int, ...]) -> Values:
            kept = [d for d in range(values[0].ndim) if d not in dims]
            moved = tuple(np.transpose(v, [*kept, *dims]) for v in values)  # views
            return fold_in_order(apply, moved, inits, len(dims))

    def run(*operands: np.ndarray) -> Any:
        n = len(operands) // 2
        values, inits = operands[:n], operands[n:]
        shape = [s for d, s in enumerate(values[0].shape) if d not in axes]
        if values[0].size == 0:
            results = tuple(np.broadcast_to(i, shape) for i in inits)
        elif all(values[0].shape[d] == 1 for d in axes):
            # XLA:CPU turns a reduce of one element per result into a reshape: the init value
            # is not applied (it is for two or more elements)
            results = tuple(v.reshape(shape).astype(i.dtype, copy=False) for v, i in zip(values, inits))
        else:
            results = fold(values, inits, axes)
        return results if n > 1 else results[0]

    return run


def _single(
    reducer: Reducer | None, step: Callable[..., Any], floating: bool, flush: Callable[..., Any] | None
) -> Callable[..., np.ndarray]:
    """A reduce of one operand: XLA:CPU's vector kernels, else a NumPy extreme where the order
    cannot show, else its tree rewrite."""
    extreme = _extreme(reducer, flush) if floating else None
    adds = reducer is not None and reducer.opcode is Opcode.ADD
    picks = reducer is not None and reducer.opcode in (Opcode.MAXIMUM, Opcode.MINIMUM)

    def fold(x: np.ndarray, init: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        if adds or picks:
            vector = _vector_kernel(x, init, dims, flush, None if adds else reducer)
            if vector is not None:
                return vector
        fast = extreme(x, init, dims) if extreme is not None else None
        if fast is not None:
            return fast
        if not adds:
            return tree_reduce(step, x, init, dims)
        # the tree rewrite's windows and the final reduce summed as lanes where XLA:CPU does
        x = tree_windows(step, x, init, dims, reduce_lanes.tree_level)
        taken = reduce_lanes.lanes(x.dtype, x.shape, dims)
        return reduce_lanes.fold(step, x, init, dims, taken) if taken else tree_reduce(step, x, init, dims)

    return fold


def float_sum(x: np.ndarray, axis: int, flush: bool) -> np.ndarray:
    """An f32/f64 add-reduce of x over `axis` from 0, as a reduce instruction computes it here
    (XLA:CPU's vector kernels, else its tree rewrite): what a dot of two vectors becomes
    (hlo.numerics.vector_dot)."""
    adds = Reducer(Opcode.ADD, np.add, lambda a, axes: np.add.reduce(a, axis=axes))
    flush_fn = numerics.flush_denormals if flush else None
    single = _single(adds, _step(adds, flush_fn), True, flush_fn)
    return single(x, np.zeros((), x.dtype), (axis,))


def one_output_fn(instr: Instruction, ctx: KernelContext, k: int) -> Callable[..., Any] | None:
    """The kernel of a variadic reduce of which only output `k` is read, when that output's
    reducer is a known op of its own two parameters: XLA removes the unused outputs, so output
    k is reduced alone, as a reduce of one operand (its vector kernels, its tree rewrite). The
    other outputs are computed as before (dumps show them). None when this does not apply."""
    reducer = component_reducer(ctx.module.computation(instr.attrs["to_apply"]), k)
    if reducer is None or len(instr.operands) < 4:
        return None
    run_all = reduce_fn(instr, ctx)
    axes = tuple(instr.attrs["dimensions"])
    flush = numerics.flush_denormals if ctx.options.flush_denormals else None
    floating = instr.shape.tuple_shapes[k].element_type.is_floating_point
    exact_any_order = not floating and not instr.shape.tuple_shapes[k].element_type.is_complex
    single = _single(reducer, _step(reducer, flush), floating, flush)
    n = len(instr.operands) // 2

    def run(*operands: np.ndarray) -> Any:
        results = run_all(*operands)
        x, init = operands[k], operands[n + k]
        if exact_any_order or x.size == 0 or all(x.shape[d] == 1 for d in axes):
            return results  # no order shows, or no fold at all
        return (*results[:k], single(x, init, axes), *results[k + 1 :])

    return run


def _vector_kernel(
    x: np.ndarray,
    init: np.ndarray,
    dims: tuple[int, ...],
    flush: Callable[..., Any] | None,
    picks: Reducer | None = None,
) -> np.ndarray | None:
    """A float add-reduce (or, with `picks`, max/min reduce) that XLA:CPU hands to its vector
    kernels, in their order (None if it does not or it is not modelled). Their drivers drop
    dimensions of size 1 first, so a sum over the leading dimension of [n, 1] is a trailing sum
    there."""
    shape, axes = _without_ones(x.shape, dims)
    flat = x.reshape(shape) if shape != x.shape else x
    software = flush if flush is not None and not subnormals.active() else None
    if picks is not None:
        is_max = picks.opcode is Opcode.MAXIMUM
        results = x.size // max(int(np.prod([x.shape[d] for d in dims], dtype=np.int64)), 1)
        if vector_extreme.narrow_applies(x.dtype, x.size, results):
            return vector_extreme.narrow_extreme(x, init, dims, is_max)
        # flushed in software even when the CPU flushes: the kernels' selects do no arithmetic
        if vector_extreme.applies(flat.dtype, flat.shape, axes):
            result = vector_extreme.vector_extreme(flat, init, axes, is_max, flush)
        elif column_sum.applies(flat.dtype, flat.shape, axes):  # the strided kernel
            result = column_extreme(flat, init, axes, is_max, flush)
        elif split_extreme.applies(flat.dtype, flat.shape, axes):
            result = split_extreme.split_extreme(flat, init, axes, is_max, flush)
        else:
            return None
    elif vector_applies(flat.dtype, flat.shape, axes):  # the contiguous kernel
        result = vector_sum(flat, init, axes, software)
    elif column_sum.applies(flat.dtype, flat.shape, axes):  # the strided kernel
        result = column_sum.column_sum(flat, init, axes, software)
    elif split_sum.applies(flat.dtype, flat.shape, axes):  # reduced dimensions not consecutive
        result = split_sum.split_sum(flat, init, axes, software)
    elif split_sum.tiled_applies(flat.dtype, flat.shape, axes):  # trailing ones cut by tile
        result = split_sum.tiled_sum(flat, init, axes, software)
    else:
        return None
    return result.reshape([n for d, n in enumerate(x.shape) if d not in dims])


def _without_ones(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shape and reduced dimensions with dimensions of size 1 dropped (as the vector kernels'
    drivers drop them)."""
    axes = tuple(sum(1 for e in range(d) if shape[e] != 1) for d in dims if shape[d] != 1)
    return tuple(n for n in shape if n != 1), axes


def sums_in_vector_order(dtype: np.dtype, shape: tuple[int, ...], dims: tuple[int, ...]) -> bool:
    """Whether a float add-reduce runs in one of XLA:CPU's vector kernels' orders here (so not
    from the init value in row-major order: what the compiled tiers' emitters must not take)."""
    flat, axes = _without_ones(shape, dims)
    kernels = (vector_applies, column_sum.applies, split_sum.applies, split_sum.tiled_applies)
    return any(applies(dtype, flat, axes) for applies in kernels)


def reduce_window_fn(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The kernel of reduce-window: each window folded in XLA:CPU's order, one shifted pass per
    window position (hlo.numerics.window_fold: from the init value, the operand's elements one
    by one, padding and dilation holes skipped); scans (jax's cumulative reductions) in the order of XLA:CPU's
    rewrite of them (hlo.numerics.scan)."""
    window: Window = instr.attrs["window"]
    computation = ctx.module.computation(instr.attrs["to_apply"])
    reducer = recognise_reducer(computation)
    apply = None if reducer is not None else lifted(ctx, computation.name, instr.opcode.text)
    flush = numerics.flush_denormals if ctx.options.flush_denormals else None

    def run(*operands: np.ndarray) -> Any:
        n = len(operands) // 2
        values, inits = operands[:n], operands[n:]
        shape = values[0].shape
        running = _running(reducer, flush, values[0].dtype)
        found = scan_axis(shape, window, short=running is not None and n == 1)
        if found is not None:
            axis, forward, exclusive = found
            xs = tuple(np.moveaxis(v, axis, -1) for v in values)
            step = _step(reducer, flush) if reducer is not None else apply
            assert step is not None
            results = scan(step, xs, inits, forward, exclusive, running)
            scanned = tuple(np.moveaxis(r, -1, axis) for r in results)
            return scanned if n > 1 else scanned[0]
        if reducer is not None:
            if reducer.opcode is Opcode.ADD and n == 1:
                tiled = _window_as_reduce(values[0], inits[0], window, flush)
                if tiled is not None:
                    return tiled
                if window_vector.applies(values[0], window):
                    return window_vector.fold(values[0], inits[0], window, flush)
                if window_vector.rows_apply(values[0], window):
                    return window_vector.fold_rows(values[0], inits[0], window, flush)
            return fold_window_known(reducer.opcode, reducer.combine, values[0], inits[0], window, flush)
        assert apply is not None
        results = fold_window(apply, values, inits, window)
        return results if n > 1 else results[0]

    return run


def _window_as_reduce(
    x: np.ndarray, init: np.ndarray, window: Window, flush: Callable[..., Any] | None
) -> np.ndarray | None:
    """A float sum over windows that tile the operand (stride = size, no padding or dilation)
    of 4096+ elements: XLA:CPU hands it to YNNPACK as a reduce of the operand cut into windows
    (the elements past the last whole window left out), so it sums in that reduce's vector-kernel
    order (tests/golden/ops/exact_window_sums.npz). None when it is not such a window or that
    order is not modelled."""
    dims = window.dimensions
    if x.dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or x.size < MIN_ELEMENTS:
        return None
    if all(d.size == 1 for d in dims) or any(
        d.stride != d.size
        or d.padding_low
        or d.padding_high
        or d.base_dilation != 1
        or d.window_dilation != 1
        for d in dims
    ):
        return None
    counts = [n // d.size for n, d in zip(x.shape, dims)]
    whole = x[tuple(slice(0, c * d.size) for c, d in zip(counts, dims))]
    split = whole.reshape([v for c, d in zip(counts, dims) for v in (c, d.size)])
    return _vector_kernel(split, init, tuple(range(1, 2 * x.ndim, 2)), flush)


def _running(reducer: Reducer | None, flush: Callable[..., Any] | None, dtype: np.dtype) -> np.ufunc | None:
    """The ufunc whose `accumulate` is this reducer's running fold, step for step: a sum or
    product of numbers when no step needs software flushing (the CPU's mode flushes them)."""
    if reducer is None or reducer.opcode not in (Opcode.ADD, Opcode.MULTIPLY):
        return None
    if flush is not None and not subnormals.active():
        return None
    if not ((dtype.kind in "iufc" and not numerics.is_ml_dtype(dtype)) or numerics.is_float(dtype)):
        return None
    return np.add if reducer.opcode is Opcode.ADD else np.multiply


def _extreme(
    reducer: Reducer | None, flush: Callable[..., Any] | None
) -> Callable[..., np.ndarray | None] | None:
    """A float max or min reduce in one NumPy reduce: with -0 ordered below +0 (numerics.maximum)
    they are total orders on non-NaN values, so every order of folding gives the same value;
    the result is flushed as the steps would flush it. None (use the ordered fold) when a
    result is NaN, whose payload and sign depend on the order."""
    if reducer is None or reducer.opcode not in (Opcode.MAXIMUM, Opcode.MINIMUM):
        return None
    is_max = reducer.opcode is Opcode.MAXIMUM
    ufunc = np.maximum if is_max else np.minimum

    def fold(x: np.ndarray, init: np.ndarray, axes: tuple[int, ...]) -> np.ndarray | None:
        # Flushing is monotone (-0 below +0), so the extreme of the flushed values is the
        # flushed extreme: the result is flushed, not the operand (a pass and a copy saved).
        work = x.astype(accumulate_dtype(x.dtype), copy=False)
        r = np.asarray(ufunc.reduce(work, axis=axes))
        if np.isnan(r).any():
            return None
        zero = r == 0
        if zero.any():  # a tie of zeros: +0 wins a max if present, -0 a min
            wanted = (work == 0) & (np.signbit(work) != is_max)
            r = np.where(zero, np.where(np.any(wanted, axis=axes) == is_max, 0.0, -0.0), r).astype(r.dtype)
        result = np.asarray(reducer.combine(init.astype(r.dtype), r))
        if flush is not None:
            result = flush(result)
        return result.astype(x.dtype, copy=False)

    return fold


def _step(reducer: Reducer, flush: Callable[..., Any] | None) -> Callable[..., np.ndarray]:
    """One step of a known reducer in the element type, flushed as XLA:CPU flushes: by the CPU
    in its flush-to-zero mode (hlo.numerics.subnormals; a selected max/min value by a
    multiplication by one), else in software."""
    combine = reducer.combine
    selects = reducer.opcode in (Opcode.MAXIMUM, Opcode.MINIMUM)

    def step(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if flush is not None and not subnormals.active():
            a, b = flush(a), flush(b)
            return flush(np.asarray(combine(a, b)).astype(a.dtype, copy=False))
        result = np.asarray(combine(a, b)).astype(a.dtype, copy=False)
        if flush is not None and selects and result.dtype.kind in "fc":
            result = np.asarray(result * result.dtype.type(1))
        return result

    # (in the CPU's mode an add step is np.add alone: ordered_fold may run many as one)
    step.plain_add = reducer.opcode is Opcode.ADD  # type: ignore[attr-defined]
    return step
