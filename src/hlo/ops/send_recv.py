"""send / send-done / recv / recv-done: point-to-point transfers over a channel, between devices
or with the host (page 003: Send, Recv; xla_builder.h's WithToken and host variants). A transfer
in flight is a context (data, u32[] request id, token[]). Imported by collectives.py."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import EvalError, ShapeError
from ..ir.attr_kinds import BOOL
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.values import TOKEN, as_argument
from ..shape import Shape
from .callee import text, written
from .collective_common import ChannelType, channel_id, channel_number
from .io import token_operand
from .registry import AttrSpec, ShapeContext, builder_function, define, if_true, kernel, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
U32 = Shape.scalar(PrimitiveType.U32)


def _recv_shape(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    """Parse-time: XLA's parser reads the received shape from the written result's element 0."""
    if not instr.shape.is_tuple or not instr.shape.tuple_shapes:
        return f"the result must be a non-empty tuple (data, u32[], token[]): found {text(instr.shape)}"
    return None


for op in (Op.SEND, Op.SEND_DONE, Op.RECV, Op.RECV_DONE):
    define(
        op,
        channel_id(),
        AttrSpec("is_host_transfer", BOOL, default=False, printed=if_true),
        check=_recv_shape if op is Op.RECV else None,
    )


def context(data: Shape) -> Shape:
    return Shape.make_tuple((data, U32, Shape.token()))


def _is_context(s: Shape) -> bool:
    return (
        s.is_tuple
        and len(s.tuple_shapes) == 3
        and s.tuple_shapes[1].compatible(U32)
        and s.tuple_shapes[2].is_token
    )


def _context_operand(ctx: ShapeContext, of: str) -> Shape:
    s = operand(ctx, 0, f"the {of} context")
    if not _is_context(s):
        raise ShapeError(f"operand 0 must be a {of} context (data, u32[], token[]): found {text(s)}")
    return s


@shape_rule(Op.SEND)
def send_shape(ctx: ShapeContext) -> Shape:
    """(data, u32[], token[]) from (data, token)."""
    data = operand(ctx, 0, "the data")
    token_operand(ctx, 1)
    return context(data)


@shape_rule(Op.SEND_DONE)
def send_done_shape(ctx: ShapeContext) -> Shape:
    """token[], once the send context operand 0 completes."""
    _context_operand(ctx, "send")
    return Shape.token()


@shape_rule(Op.RECV)
def recv_shape(ctx: ShapeContext) -> Shape:
    """(data, u32[], token[]) from a token; the data shape is the written result's element 0."""
    token_operand(ctx, 0)
    shape = written(ctx, "the shape a recv receives is in no operand")
    if not _is_context(shape):
        raise ShapeError(f"the result must be (data, u32[], token[]): found {text(shape)}")
    return context(shape.tuple_shapes[0])


@shape_rule(Op.RECV_DONE)
def recv_done_shape(ctx: ShapeContext) -> Shape:
    """(data, token[]) from the recv context operand 0."""
    return Shape.make_tuple((_context_operand(ctx, "recv").tuple_shapes[0], Shape.token()))


# -- builder functions ------------------------------------------------------------------------
def _send(
    op_name: str, data: XlaOp, token: XlaOp, number: int | None, host: bool, shape: Shape | None = None
) -> XlaOp:
    builder = builder_of(op_name, data)
    attrs: dict[str, Any] = {"is_host_transfer": host}
    if number is not None:
        attrs["channel_id"] = number
    send = builder.add(
        op_name, Op.SEND, (data, token), attrs, shape=None if shape is None else context(shape)
    )
    return builder.add(op_name, Op.SEND_DONE, (send,), attrs)


def _recv(
    op_name: str, builder: XlaBuilder, token: XlaOp, shape: Shape, number: int | None, host: bool
) -> XlaOp:
    attrs: dict[str, Any] = {"is_host_transfer": host}
    if number is not None:
        attrs["channel_id"] = number
    recv = builder.add(op_name, Op.RECV, (token,), attrs, shape=context(shape))
    return builder.add(op_name, Op.RECV_DONE, (recv,), attrs)


@builder_function
def SendWithToken(operand: XlaOp, token: XlaOp, channel_handle: Any) -> XlaOp:
    """Send `operand` over a device-to-device channel after `token` (a send and its send-done);
    the send-done's token."""
    builder = builder_of("SendWithToken", operand)
    number = channel_number(builder, "SendWithToken", channel_handle, ChannelType.DEVICE_TO_DEVICE)
    return _send("SendWithToken", operand, token, number, host=False)


@builder_function
def Send(operand: XlaOp, channel_handle: Any) -> None:
    """Send `operand` to the Recv of the same channel in another computation (page 003); void,
    as XlaBuilder's (a fresh token orders it)."""
    from .tuple_ops import CreateToken

    builder = builder_of("Send", operand)
    number = channel_number(builder, "Send", channel_handle, ChannelType.DEVICE_TO_DEVICE)
    _send("Send", operand, CreateToken(builder), number, host=False)


@builder_function
def RecvWithToken(token: XlaOp, shape: Shape | str, channel_handle: Any) -> XlaOp:
    """Receive a value of `shape` over a device-to-device channel after `token`: the recv-done's
    (data, token[])."""
    from .tuple_ops import as_shape

    builder = builder_of("RecvWithToken", token)
    number = channel_number(builder, "RecvWithToken", channel_handle, ChannelType.DEVICE_TO_DEVICE)
    return _recv("RecvWithToken", builder, token, as_shape(shape), number, host=False)


@builder_function
def Recv(builder: XlaBuilder, shape: Shape | str, channel_handle: Any) -> XlaOp:
    """The value of `shape` the Send of the same channel sends (page 003): a recv, its recv-done
    and the data element."""
    from .tuple_ops import CreateToken, GetTupleElement, as_shape

    number = channel_number(builder, "Recv", channel_handle, ChannelType.DEVICE_TO_DEVICE)
    done = _recv("Recv", builder, CreateToken(builder), as_shape(shape), number, host=False)
    return GetTupleElement(done, 0)


@builder_function
def SendToHost(operand: XlaOp, token: XlaOp, shape_with_layout: Shape | str, channel_handle: Any) -> XlaOp:
    """Send an array to the host over a device-to-host channel, laid out as `shape_with_layout`
    (compatible with the operand); the send-done's token."""
    from .tuple_ops import as_shape

    builder = builder_of("SendToHost", operand)
    shape = as_shape(shape_with_layout)
    if not shape.is_array or shape.layout is None:
        raise builder.error("SendToHost", f"shape_with_layout must be an array with a layout: found {shape}")
    if not operand.shape.is_array or not shape.compatible(operand.shape):
        raise builder.error(
            "SendToHost", f"shape_with_layout must match the operand: found {shape} and {text(operand.shape)}"
        )
    number = channel_number(builder, "SendToHost", channel_handle, ChannelType.DEVICE_TO_HOST)
    return _send("SendToHost", operand, token, number, host=True, shape=shape)


@builder_function
def RecvFromHost(token: XlaOp, shape: Shape | str, channel_handle: Any) -> XlaOp:
    """Receive an array of `shape` (with a layout) from the host over a host-to-device channel:
    the recv-done's (data, token[])."""
    from .tuple_ops import as_shape

    builder = builder_of("RecvFromHost", token)
    shape = as_shape(shape)
    if not shape.is_array or shape.layout is None:
        raise builder.error("RecvFromHost", f"the shape must be an array with a layout: found {shape}")
    number = channel_number(builder, "RecvFromHost", channel_handle, ChannelType.HOST_TO_DEVICE)
    return _recv("RecvFromHost", builder, token, shape, number, host=True)


# -- kernels ---------------------------------------------------------------------------------
def _channel(ctx: KernelContext, instr: Instruction) -> deque[Any]:
    channels: dict[Any, deque[Any]] = ctx.state.setdefault("channels", {})
    return channels.setdefault(instr.attrs.get("channel_id"), deque())


@kernel(Op.SEND)
def send_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """(the data, a u32 context, a token); the data travels at send-done."""
    return lambda value, token: (value, np.zeros((), np.uint32), TOKEN)


@kernel(Op.SEND_DONE)
def send_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """On one device, send and recv pair up by channel id: send-done makes the value available
    to the recv-done of the same channel (page 003: a Send happens before its RecvDone)."""

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
