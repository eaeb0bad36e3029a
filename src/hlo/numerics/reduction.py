"""Reductions: reduce and reduce-window over any computation. A recognised reducer (add, max,
...) folds with its ufunc in the working type (f32 for narrow floats) and folds the init value
in once; any other computation runs lifted to arrays as a pairwise tree over the reduced
elements (log2(n) calls of its plan), then meets the init values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.attrs import Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import numerics, subnormals
from .computations import accumulate_dtype, lifted, recognise_reducer, tree_reduce
from .context import KernelContext
from .windows import window_view


def reduction(
    instr: Instruction, ctx: KernelContext, computation: str
) -> Callable[[tuple[np.ndarray, ...], tuple[np.ndarray, ...], tuple[int, ...]], tuple[np.ndarray, ...]]:
    """fold(values, inits, axes): non-empty `values` reduced over `axes` with the computation."""
    module_computation = ctx.module.computation(computation)
    reducer = recognise_reducer(module_computation)
    flush = ctx.options.flush_denormals
    if reducer is not None:
        out = np.dtype(module_computation.root.shape.element_type.numpy_dtype)
        selects = reducer.opcode in (Opcode.MAXIMUM, Opcode.MINIMUM)

        def fold_known(
            values: tuple[np.ndarray, ...], inits: tuple[np.ndarray, ...], axes: tuple[int, ...]
        ) -> tuple[np.ndarray, ...]:
            work = values[0].astype(accumulate_dtype(values[0].dtype), copy=False)
            init = inits[0].astype(work.dtype, copy=False)
            if flush and not subnormals.active():
                work, init = numerics.flush_denormals(work), numerics.flush_denormals(init)
                result = numerics.flush_denormals(np.asarray(reducer.combine(init, reducer.fold(work, axes))))
            else:  # in flush-to-zero mode the CPU flushes sums and products, not a selected value
                result = np.asarray(reducer.combine(init, reducer.fold(work, axes)))
                if flush and selects and result.dtype.kind in "fc":
                    result = result * result.dtype.type(1)
            return (result.astype(out, copy=False),)

        return fold_known
    apply = lifted(ctx, computation, instr.opcode.text)

    def fold_any(
        values: tuple[np.ndarray, ...], inits: tuple[np.ndarray, ...], axes: tuple[int, ...]
    ) -> tuple[np.ndarray, ...]:
        kept = [d for d in range(values[0].ndim) if d not in axes]
        shape = [values[0].shape[d] for d in kept]
        flat = tuple(np.transpose(v, [*kept, *axes]).reshape(*shape, -1) for v in values)
        return tree_reduce(apply, flat, inits)

    return fold_any


def reduce_fn(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The kernel of reduce: N inputs, N init values; a tuple result when N > 1."""
    axes = tuple(instr.attrs["dimensions"])
    fold = reduction(instr, ctx, instr.attrs["to_apply"])

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


def reduce_window_fn(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The kernel of reduce-window: windows as strided views (padding filled with the init
    value), reduced over the window axes."""
    window: Window = instr.attrs["window"]
    fold = reduction(instr, ctx, instr.attrs["to_apply"])

    def run(*operands: np.ndarray) -> Any:
        n = len(operands) // 2
        values, inits = operands[:n], operands[n:]
        views = tuple(window_view(v, window, i) for v, i in zip(values, inits))
        rank = values[0].ndim
        axes = tuple(range(rank, 2 * rank))
        if views[0].size == 0:
            shape = views[0].shape[:rank]
            results = tuple(np.broadcast_to(i, shape) for i in inits)
        else:
            results = fold(views, inits, axes)
        return results if n > 1 else results[0]

    return run
