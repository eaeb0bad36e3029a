"""Kernels of the collectives: each device's thread deposits its value at the run's rendezvous
(runtime.replicas) and gets back its share, computed once per group in group order. On one
device a collective is its group of one. The group mode follows XLA's GetCollectiveOpGroupMode:
no channel_id: replica groups within each partition; a channel_id on an op without
use_global_device_ids (all-to-all, collective-permute, collective-broadcast): partition groups
within each replica; with use_global_device_ids=false: the listed replicas across every
partition; with use_global_device_ids=true: flattened device ids. This module has the meeting and
the reductions (all-reduce, reduce-scatter); the collectives that move data are
collective_move_kernels.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CollectiveError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.computations import lifted, recognise_reducer
from ..numerics.numerics import compute_dtype, is_float
from . import collectives  # noqa: F401  (defines the ops whose kernels these are)
from .collective_groups import Pattern, group_mode, participants
from .registry import kernel

if TYPE_CHECKING:
    from ..numerics.context import KernelContext

Op = Opcode
Combine = Callable[[list[Any]], list[Any]]


def meet(
    instr: Instruction,
    ctx: KernelContext,
    value: Any,
    combine: Combine,
    all_devices: bool = False,
    pattern: Pattern | None = None,
) -> Any:
    """This device's share of `combine(the group's values in group order)` (`pattern` says the
    same for backends that move buffers)."""
    state = ctx.state
    rendezvous = state.get("rendezvous")
    if rendezvous is None:
        return combine([value])[0]
    device, devices = state["device"], state["devices"]
    groups = () if all_devices else instr.attrs["replica_groups"].groups()
    group = participants(devices, device, group_mode(instr), groups, f"%{instr.name}")
    counts = state.setdefault("collective_counts", {})
    count = counts.get(instr.name, 0)
    counts[instr.name] = count + 1
    return rendezvous.exchange(instr, count, device, group, value, combine, pattern)


# -- reductions across devices ----------------------------------------------------------------
# Recognised reducers whose result does not depend on the order of folding, for integers.
_ORDER_FREE = {Op.ADD: "sum", Op.MULTIPLY: "prod", Op.MAXIMUM: "max", Op.MINIMUM: "min",
               Op.AND: "and", Op.OR: "or", Op.XOR: "xor"}  # fmt: skip


_IN_PLACE = {Op.ADD: np.add, Op.MULTIPLY: np.multiply}


def reduction(instr: Instruction, ctx: KernelContext, kind: str) -> Pattern:
    """The pattern of an all-reduce or reduce-scatter: its fold, and the reducer's name when
    the fold is order-free for integer arrays (wrapping sums and products, max/min, bitwise)."""
    known = recognise_reducer(ctx.module.computation(instr.attrs["to_apply"]))
    exact = _ORDER_FREE.get(known.opcode) if known is not None else None
    dim = instr.attrs["dimensions"][0] if kind == "reduce_scatter" else 0
    return Pattern(kind, dim=dim, fold=reducer(instr, ctx), exact=exact)


def reducer(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """Fold the devices' arrays in group order as XLA:CPU does: sums of bf16 in f32 rounded once,
    of f16 rounded at every step; max/min skip NaN. `fold(values, out=None)` writes into `out`
    when given."""
    computation = ctx.module.computation(instr.attrs["to_apply"])
    known = recognise_reducer(computation)
    if known is None:
        apply = lifted(ctx, instr.attrs["to_apply"], instr.opcode.text)

        def fold_any(values: list[np.ndarray], out: np.ndarray | None = None) -> np.ndarray:
            acc = values[0]
            for v in values[1:]:
                acc = np.asarray(apply(acc, v))
            return _into(acc, out)

        return fold_any
    opcode = known.opcode

    def fold(values: list[np.ndarray], out: np.ndarray | None = None) -> np.ndarray:
        dtype = values[0].dtype
        floats = is_float(dtype)
        if opcode in (Op.MAXIMUM, Op.MINIMUM) and floats:
            skip_nan = np.fmax if opcode is Op.MAXIMUM else np.fmin
            acc = np.full(values[0].shape, -np.inf if opcode is Op.MAXIMUM else np.inf, compute_dtype(dtype))
            for v in values:
                acc = skip_nan(acc, v.astype(acc.dtype))
            return _into(acc.astype(dtype), out)
        work = compute_dtype(dtype) if floats else dtype
        ufunc = _IN_PLACE.get(opcode)
        if ufunc is not None and work == dtype and len(values) > 1:  # one buffer, same order
            acc = ufunc(values[0], values[1], out=np.empty_like(values[0]) if out is None else out)
            for v in values[2:]:
                ufunc(acc, v, out=acc)
            return acc
        step_rounding = dtype == np.float16
        acc = values[0].astype(work)
        for v in values[1:]:
            acc = np.asarray(known.combine(acc, v.astype(work, copy=False)))
            if step_rounding:
                acc = acc.astype(dtype).astype(work)
        return _into(acc.astype(dtype), out)

    return fold


def check_same_sizes(values: list[Any]) -> None:
    """The members of a group must bring operands of one size: dynamic dimensions may differ
    from device to device only where XLA would fail too."""
    sizes = [tuple(np.shape(a) for a in as_list(v)) for v in values]
    if any(s != sizes[0] for s in sizes[1:]):
        shown = ", ".join(f"member {k}: {' '.join(str(list(x)) for x in s)}" for k, s in enumerate(sizes))
        raise CollectiveError(
            f"the group's operands have different sizes at run time ({shown}): they must agree"
        )


def _into(result: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    if out is None:
        return result
    out[...] = result
    return out


def as_list(value: Any) -> list[np.ndarray]:
    """The arrays of a device's value: one, or a tuple's (a collective of several operands)."""
    return list(value) if isinstance(value, tuple) else [value]


def like(template: Any, items: list[np.ndarray]) -> Any:
    """`items` as a value of the form of `template`: a tuple, or the one array."""
    return tuple(items) if isinstance(template, tuple) else items[0]


@kernel(Op.ALL_REDUCE, Op.ALL_REDUCE_START)
def all_reduce_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    pattern = reduction(instr, ctx, "reduce")
    fold = pattern.fold
    assert fold is not None

    def combine(values: list[Any]) -> list[Any]:
        check_same_sizes(values)
        per_operand = zip(*[as_list(v) for v in values])
        result = like(values[0], [fold(list(arrays)) for arrays in per_operand])
        return [result] * len(values)

    return lambda *xs: meet(instr, ctx, xs if len(xs) > 1 else xs[0], combine, pattern=pattern)


@kernel(Op.ALL_REDUCE_DONE)
def all_reduce_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda x: x


@kernel(Op.REDUCE_SCATTER)
def reduce_scatter_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    pattern = reduction(instr, ctx, "reduce_scatter")
    fold, dim = pattern.fold, pattern.dim
    assert fold is not None

    def combine(values: list[Any]) -> list[Any]:
        n = len(values)
        check_same_sizes(values)
        per_operand = [fold(list(arrays)) for arrays in zip(*[as_list(v) for v in values])]
        for r in per_operand:
            if r.ndim <= dim or r.shape[dim] % n:
                raise CollectiveError(
                    f"the operand's dimension {dim} has {r.shape[dim] if r.ndim > dim else 0} elements at "
                    f"run "
                    f"time, which do not split evenly among the {n} devices of the group"
                )
        pieces = [np.split(r, n, axis=dim) for r in per_operand]
        return [like(values[0], [p[k] for p in pieces]) for k in range(n)]

    return lambda *xs: meet(instr, ctx, xs if len(xs) > 1 else xs[0], combine, pattern=pattern)
