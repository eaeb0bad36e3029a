"""Kernels of the ops that call computations: call (and composite calls), while, conditional,
map, reduce and reduce-window. Each called computation is planned once, at planning time
(KernelContext.computation), and runs through the same engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.computations import lifted
from ..engine.reduction import reduce_fn, reduce_window_fn
from ..errors import EvalError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .registry import kernel

if TYPE_CHECKING:
    from ..engine.plan import KernelContext

Op = Opcode


@kernel(Op.CALL)
def call_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return ctx.computation(instr.attrs["to_apply"])


@kernel(Op.WHILE)
def while_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Run the body while the condition holds; with RunOptions.max_iterations, a loop that is
    still running after that many iterations is an error."""
    condition = ctx.computation(instr.attrs["condition"])
    body = ctx.computation(instr.attrs["body"])
    limit = ctx.options.max_iterations

    def run(state: Any) -> Any:
        count = 0
        while bool(condition(state)):
            if limit is not None and count >= limit:
                raise EvalError(
                    f"the loop is still running after {limit} iterations (max_iterations={limit})"
                )
            state = body(state)
            count += 1
        return state

    return run


@kernel(Op.CONDITIONAL)
def conditional_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """A pred selects true_computation or false_computation; an s32 index selects a branch, and
    an index out of range (negative too) runs the last branch, as XLA does."""
    if "branch_computations" in instr.attrs:
        branches = [ctx.computation(name) for name in instr.attrs["branch_computations"]]
    else:
        branches = [
            ctx.computation(instr.attrs["true_computation"]),
            ctx.computation(instr.attrs["false_computation"]),
        ]
        return lambda pred, on_true, on_false: branches[0](on_true) if bool(pred) else branches[1](on_false)
    last = len(branches) - 1

    def run(index: np.ndarray, *operands: Any) -> Any:
        k = int(index)
        k = k if 0 <= k < last else last
        return branches[k](operands[k])

    return run


@kernel(Op.MAP)
def map_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The scalar computation applied to whole arrays at once (it must be elementwise)."""
    apply = lifted(ctx, instr.attrs["to_apply"], "map")
    dims = instr.shape.dimensions
    out = np.dtype(instr.shape.element_type.numpy_dtype)
    return lambda *xs: np.broadcast_to(np.asarray(apply(*xs), dtype=out), dims)


kernel(Op.REDUCE)(reduce_fn)
kernel(Op.REDUCE_WINDOW)(reduce_window_fn)


@kernel(Op.FUSION)
def fusion_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Any fusion kind runs its fused computation."""
    return ctx.computation(_called(instr))


def _called(instr: Instruction) -> str:
    """The one computation `calls=` names."""
    calls = instr.attrs["calls"]
    return calls[0] if isinstance(calls, tuple) else calls  # type: ignore[no-any-return]


def _async_value(instr: Instruction, plan: Any, bound: tuple[Any, ...], params: int) -> tuple[Any, ...]:
    """((bound operands), result or None until every parameter is bound, context values...)."""
    result = plan(*bound) if len(bound) == params else None
    contexts = tuple(_zeros(s) for s in instr.shape.tuple_shapes[2:])
    return (bound, result, *contexts)


def _zeros(shape: Any) -> Any:
    if shape.is_tuple:
        return tuple(_zeros(s) for s in shape.tuple_shapes)
    if shape.is_array:
        return np.zeros(shape.dimensions, dtype=shape.element_type.numpy_dtype)
    from ..engine.values import TOKEN

    return TOKEN


@kernel(Op.ASYNC_START)
def async_start_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The wrapped computation runs as soon as all of its parameters are bound (on one device
    there is nothing to overlap)."""
    name = _called(instr)
    plan, params = ctx.computation(name), len(ctx.module.computation(name).parameters)
    return lambda *xs: _async_value(instr, plan, tuple(xs), params)


@kernel(Op.ASYNC_UPDATE)
def async_update_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    name = _called(instr)
    plan, params = ctx.computation(name), len(ctx.module.computation(name).parameters)

    def run(previous: tuple[Any, ...], *new: Any) -> tuple[Any, ...]:
        if not new:
            return previous
        return _async_value(instr, plan, tuple(previous[0]) + new, params)

    return run


@kernel(Op.ASYNC_DONE)
def async_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    plan = ctx.computation(_called(instr))
    return lambda previous: previous[1] if previous[1] is not None else plan(*previous[0])


@kernel(Op.SCAN)
def scan_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Step through the scan dimension (backwards with is_reverse): the computation takes the
    inputs' slices and the carries and returns the outputs' slices and the new carries (one call
    per step on whole slices)."""
    plan = ctx.computation(instr.attrs["to_apply"])
    (dim,) = instr.attrs["dimensions"]
    carries_count = instr.attrs["num_carries"]
    reverse = bool(instr.attrs.get("is_reverse", False))
    result = instr.shape
    results = result.tuple_shapes if result.is_tuple else (result,)
    outputs_count = len(results) - carries_count

    def run(*operands: Any) -> Any:
        inputs, carries = (
            operands[: len(operands) - carries_count],
            list(operands[len(operands) - carries_count :]),
        )
        length = inputs[0].shape[dim] if inputs else 0
        outputs = [np.empty(s.dimensions, dtype=s.element_type.numpy_dtype) for s in results[:outputs_count]]
        for step in range(length):
            t = length - 1 - step if reverse else step
            value = plan(*(np.take(x, t, axis=dim) for x in inputs), *carries)
            pieces = list(value) if isinstance(value, tuple) else [value]
            for out, piece in zip(outputs, pieces[:outputs_count]):
                index: list[Any] = [slice(None)] * out.ndim
                index[dim] = t
                out[tuple(index)] = piece
            carries = pieces[outputs_count:]
        values = [*outputs, *carries]
        return tuple(values) if result.is_tuple else values[0]

    return run
