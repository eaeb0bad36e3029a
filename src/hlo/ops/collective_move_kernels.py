"""Kernels of the collectives that move data across devices: all-gather, all-to-all and its
ragged form, collective-permute and collective-broadcast. Each device meets its group
(collective_kernels.meet) and gets back its share, computed once per group in group order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CollectiveError, EvalError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import collectives  # noqa: F401  (defines the ops whose kernels these are)
from .collective_groups import Pattern
from .collective_kernels import Combine, as_list, like, meet
from .registry import kernel

if TYPE_CHECKING:
    from ..numerics.context import KernelContext

Op = Opcode


@kernel(Op.ALL_GATHER, Op.ALL_GATHER_START)
def all_gather_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    dim = instr.attrs["dimensions"][0]
    start = instr.opcode is Op.ALL_GATHER_START

    def combine(values: list[Any]) -> list[Any]:
        gathered = [np.concatenate(arrays, axis=dim) for arrays in zip(*[as_list(v) for v in values])]
        return [like(values[0], gathered)] * len(values)

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
