"""Kernels of infeed/outfeed and send/recv on one device.

Infeed values come from the `infeed=` sequence given to `hlo.run` (in order; a run that asks for
more is an error naming the instruction); outfeed values are appended to the `outfeed=` list.
Send and recv pair up by channel id inside the module: send-done makes the value available,
recv-done takes it (page 003's order: a Send happens before its RecvDone)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.values import TOKEN, as_argument
from ..errors import EvalError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .registry import kernel

if TYPE_CHECKING:
    from ..engine.plan import KernelContext

Op = Opcode


@kernel(Op.INFEED)
def infeed_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    data_shape = instr.shape.tuple_shapes[0]

    def run(token: Any) -> tuple[Any, Any]:
        queue: deque[Any] | None = ctx.state.get("infeed")
        if not queue:
            raise EvalError(
                f"the infeed ran dry: this infeed wants a {data_shape} value; pass the values with "
                f"hlo.run(..., infeed=[...])"
            )
        return as_argument(queue.popleft(), data_shape, "the infeed value"), TOKEN

    return run


@kernel(Op.OUTFEED)
def outfeed_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    def run(value: Any, token: Any) -> Any:
        sink = ctx.state.get("outfeed")
        if sink is not None:
            sink.append(_copy(value))
        return TOKEN

    return run


def _copy(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_copy(v) for v in value)
    return np.array(value, copy=True) if isinstance(value, np.ndarray) else value


def _channel(ctx: KernelContext, instr: Instruction) -> deque[Any]:
    channels: dict[Any, deque[Any]] = ctx.state.setdefault("channels", {})
    return channels.setdefault(instr.attrs.get("channel_id"), deque())


@kernel(Op.SEND)
def send_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """(the data, a u32 context, a token); the data travels at send-done."""
    return lambda value, token: (value, np.zeros((), np.uint32), TOKEN)


@kernel(Op.SEND_DONE)
def send_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    def run(sent: tuple[Any, ...]) -> Any:
        _channel(ctx, instr).append(sent[0])
        return TOKEN

    return run


@kernel(Op.RECV)
def recv_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda token: (None, np.zeros((), np.uint32), TOKEN)


@kernel(Op.RECV_DONE)
def recv_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    data_shape = instr.shape.tuple_shapes[0]

    def run(started: tuple[Any, ...]) -> tuple[Any, Any]:
        queue = _channel(ctx, instr)
        if not queue:
            raise EvalError(
                f"nothing was sent on channel {instr.attrs.get('channel_id')} before this recv-done "
                f"(a send and its send-done must run first)"
            )
        return as_argument(queue.popleft(), data_shape, "the received value"), TOKEN

    return run


@kernel(Op.REPLICA_ID, Op.PARTITION_ID)
def device_id_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """On one device: replica 0, partition 0."""
    key = "replica" if instr.opcode is Op.REPLICA_ID else "partition"
    return lambda: np.array(ctx.state.get(key, 0), dtype=np.uint32)
