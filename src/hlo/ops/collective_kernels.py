"""Kernels of the collectives: each device's thread deposits its value at the run's rendezvous
(runtime.replicas) and gets back its share, computed once per group in group order. On one
device a collective is its group of one. The group mode follows XLA's GetCollectiveOpGroupMode:
no channel_id: replica groups within each partition; a channel_id on an op without
use_global_device_ids (all-to-all, collective-permute, collective-broadcast): partition groups
within each replica; with use_global_device_ids=false: the listed replicas across every
partition; with use_global_device_ids=true: flattened device ids."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CollectiveError, EvalError
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
    sizes = [tuple(np.shape(a) for a in _as_list(v)) for v in values]
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


def _as_list(value: Any) -> list[np.ndarray]:
    return list(value) if isinstance(value, tuple) else [value]


def _like(template: Any, items: list[np.ndarray]) -> Any:
    return tuple(items) if isinstance(template, tuple) else items[0]


@kernel(Op.ALL_REDUCE, Op.ALL_REDUCE_START)
def all_reduce_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    pattern = reduction(instr, ctx, "reduce")
    fold = pattern.fold
    assert fold is not None

    def combine(values: list[Any]) -> list[Any]:
        check_same_sizes(values)
        per_operand = zip(*[_as_list(v) for v in values])
        result = _like(values[0], [fold(list(arrays)) for arrays in per_operand])
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
        per_operand = [fold(list(arrays)) for arrays in zip(*[_as_list(v) for v in values])]
        for r in per_operand:
            if r.ndim <= dim or r.shape[dim] % n:
                raise CollectiveError(
                    f"the operand's dimension {dim} has {r.shape[dim] if r.ndim > dim else 0} elements at "
                    f"run "
                    f"time, which do not split evenly among the {n} devices of the group"
                )
        pieces = [np.split(r, n, axis=dim) for r in per_operand]
        return [_like(values[0], [p[k] for p in pieces]) for k in range(n)]

    return lambda *xs: meet(instr, ctx, xs if len(xs) > 1 else xs[0], combine, pattern=pattern)


# -- data movement across devices -------------------------------------------------------------
@kernel(Op.ALL_GATHER, Op.ALL_GATHER_START)
def all_gather_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    dim = instr.attrs["dimensions"][0]
    start = instr.opcode is Op.ALL_GATHER_START

    def combine(values: list[Any]) -> list[Any]:
        gathered = [np.concatenate(arrays, axis=dim) for arrays in zip(*[_as_list(v) for v in values])]
        return [_like(values[0], gathered)] * len(values)

    pattern = Pattern("gather", dim=dim)

    def run(*xs: np.ndarray) -> Any:
        value = xs if len(xs) > 1 else xs[0]
        result = meet(instr, ctx, value, combine, pattern=pattern)
        return (value, result) if start else result

    return run


@kernel(Op.ALL_GATHER_DONE)
def all_gather_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda started: started[1]


@kernel(Op.ALL_TO_ALL)
def all_to_all_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Split form (dimensions={d}): member j gets the j-th piece of every member, concatenated
    in group order; tuple form: member j gets operand j of every member."""
    dims = instr.attrs.get("dimensions")
    if dims:
        d = dims[0]

        def split_form(values: list[Any]) -> list[Any]:
            n = len(values)
            pieces = [np.split(v, n, axis=d) for v in values]
            return [np.concatenate([pieces[i][j] for i in range(n)], axis=d) for j in range(n)]

        return lambda x: meet(instr, ctx, x, split_form, pattern=Pattern("all_to_all", dim=d))

    def tuple_form(values: list[Any]) -> list[Any]:
        n = len(values)
        for v in values:
            if len(v) != n:
                raise CollectiveError(
                    f"the tuple form of all-to-all needs {n} operands per device: found {len(v)}"
                )
        return [tuple(values[i][j] for i in range(n)) for j in range(n)]

    return lambda *xs: meet(instr, ctx, tuple(xs), tuple_form)


def _permute(instr: Instruction) -> Combine:
    pairs: Sequence[tuple[int, int]] = instr.attrs["source_target_pairs"]

    def combine(values: list[Any]) -> list[Any]:
        # the group is every replica (or partition) in id order: position = id
        sources = {target: source for source, target in pairs}
        out = []
        for k in range(len(values)):
            s = sources.get(k)
            out.append(values[s] if s is not None and s < len(values) else _zeros_like(values[k]))
        return out

    return combine


def _zeros_like(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_zeros_like(v) for v in value)
    return np.zeros_like(value)


@kernel(Op.COLLECTIVE_PERMUTE, Op.COLLECTIVE_PERMUTE_START)
def collective_permute_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Each device gets the value of the device whose pair targets it, zeros if none does."""
    combine = _permute(instr)
    pattern = Pattern("permute", pairs=tuple(tuple(p) for p in instr.attrs["source_target_pairs"]))
    start = instr.opcode is Op.COLLECTIVE_PERMUTE_START
    contexts = instr.shape.tuple_shapes[2:] if start else ()

    def run(*xs: Any) -> Any:
        value = xs[0] if len(xs) == 1 else tuple(xs)
        result = meet(instr, ctx, value, combine, all_devices=True, pattern=pattern)
        if not start:
            return result
        return (value, result, *(np.zeros(s.dimensions, s.element_type.numpy_dtype) for s in contexts))

    return run


@kernel(Op.COLLECTIVE_PERMUTE_DONE)
def collective_permute_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda started: started[1]


@kernel(Op.COLLECTIVE_BROADCAST)
def collective_broadcast_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Every member gets the value of the first device of its group (operand 0: XLA's result
    shape). XLA:CPU has no runtime for a dynamic root (`has_dynamic_root=true`): neither has hlo."""
    if instr.attrs.get("has_dynamic_root"):
        raise EvalError(
            f"%{instr.name}: collective-broadcast with has_dynamic_root=true does not run (as on XLA:CPU)"
        )
    pattern = Pattern("broadcast")
    return lambda *xs: meet(instr, ctx, xs[0], lambda v: [v[0]] * len(v), pattern=pattern)


@kernel(Op.RAGGED_ALL_TO_ALL)
def ragged_all_to_all_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Member i sends rows input[input_offsets[u] : + send_sizes[u]] to member j, which finds
    them at rows output_offsets[u] of its output, for every update u of member j (offsets and
    sizes along dimension 0; the metadata operands hold n x k updates, rank 1 or [n, k], member j's
    k updates the j-th run of k, as XLA's ragged-all-to-all); rows no member sends keep the
    output's values."""

    def combine(values: list[Any]) -> list[Any]:
        n = len(values)
        outputs = [np.array(v[1], copy=True) for v in values]
        for i, (data, _, in_off, send, out_off, _) in enumerate(values):
            updates = in_off.size
            if updates % n or send.size != updates or out_off.size != updates:
                raise CollectiveError(
                    f"ragged-all-to-all: the offsets and sizes of device position {i} must hold k updates "
                    f"for each of the {n} members: found offsets of shape {list(in_off.shape)}"
                )
            per_member = updates // n
            for u, (start, size, at) in enumerate(
                zip(in_off.ravel().tolist(), send.ravel().tolist(), out_off.ravel().tolist())
            ):
                if size == 0:
                    continue
                j = u // per_member
                if (
                    start < 0
                    or size < 0
                    or start + size > data.shape[0]
                    or at < 0
                    or at + size > outputs[j].shape[0]
                ):
                    raise CollectiveError(
                        f"member {i} sends rows {start}..{start + size} to rows {at}..{at + size} of member "
                        f"{j}: out of range of input {list(data.shape)} / output {list(outputs[j].shape)}"
                    )
                outputs[j][at : at + size] = data[start : start + size]
        return outputs

    return lambda *xs: meet(instr, ctx, xs, combine)
