"""Infeed and outfeed: values to and from the host, ordered by tokens (page 003, Infeed; XLA's
Outfeed). An infeed's data shape is in no operand, so the instruction states it."""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import EvalError, ShapeError
from ..ir.attr_kinds import SHAPE, STRING
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.values import TOKEN, as_argument
from ..shape import Shape
from .callee import text, written
from .registry import AttrSpec, ShapeContext, builder_function, define, if_nonempty, kernel, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


def token_operand(ctx: ShapeContext, k: int) -> None:
    s = operand(ctx, k, "a token")
    if not s.is_token:
        raise ShapeError(f"operand {k} must be a token: found {text(s)}")


def _has_layout(shape: Shape) -> bool:
    return all(leaf.layout is not None for _, leaf in shape.leaves() if leaf.is_array)


# The token of a builder's last infeed / outfeed: XlaBuilder orders feeds the user did not order.
_LAST_TOKEN: dict[str, weakref.WeakKeyDictionary[XlaBuilder, XlaOp]] = {
    "infeed": weakref.WeakKeyDictionary(),
    "outfeed": weakref.WeakKeyDictionary(),
}


def _feed_token(builder: XlaBuilder, kind: str) -> XlaOp:
    from .tuple_ops import CreateToken

    token = _LAST_TOKEN[kind].get(builder)
    return token if token is not None else CreateToken(builder)


# -- infeed -----------------------------------------------------------------------------------
def _tuple_result(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    """Parse-time: the written result holds the data (XLA's parser reads it from element 0)."""
    if not instr.shape.is_tuple or not instr.shape.tuple_shapes:
        return f"the result must be a non-empty tuple (data, token[]): found {text(instr.shape)}"
    return None


define(Op.INFEED, AttrSpec("infeed_config", STRING, default="", printed=if_nonempty), check=_tuple_result)


@shape_rule(Op.INFEED)
def infeed_shape(ctx: ShapeContext) -> Shape:
    """(data, token[]) from a token; the data shape is the written result's element 0."""
    token_operand(ctx, 0)
    shape = written(ctx, "the data shape of an infeed is in no operand")
    if not (shape.is_tuple and len(shape.tuple_shapes) == 2 and shape.tuple_shapes[1].is_token):
        raise ShapeError(f"the result must be (data, token[]): found {text(shape)}")
    return Shape.make_tuple((shape.tuple_shapes[0], Shape.token()))


@builder_function
def InfeedWithToken(token: XlaOp, shape: Shape | str, config: str = "") -> XlaOp:
    """Read a value of `shape` (which must have a layout) from the device's infeed after
    `token`: the result is (data, token[])."""
    from .tuple_ops import as_shape

    builder = builder_of("InfeedWithToken", token)
    shape = as_shape(shape)
    if not _has_layout(shape):
        raise builder.error("InfeedWithToken", f"the shape must have a layout: found {shape}")
    result = Shape.make_tuple((shape, Shape.token()))
    return builder.add("InfeedWithToken", Op.INFEED, (token,), {"infeed_config": config}, shape=result)


@builder_function
def Infeed(builder: XlaBuilder, shape: Shape | str, config: str = "") -> XlaOp:
    """Read a value of `shape` from the device's infeed (page 003); infeeds of one builder are
    ordered by a token chain, as XlaBuilder orders them."""
    from .tuple_ops import GetTupleElement, as_shape

    shape = as_shape(shape)
    if not _has_layout(shape):
        raise builder.error("Infeed", f"the shape must have a layout: found {shape}")
    infeed = builder.add(
        "Infeed",
        Op.INFEED,
        (_feed_token(builder, "infeed"),),
        {"infeed_config": config},
        shape=Shape.make_tuple((shape, Shape.token())),
    )
    _LAST_TOKEN["infeed"][builder] = GetTupleElement(infeed, 1)
    return GetTupleElement(infeed, 0)


# -- outfeed ----------------------------------------------------------------------------------
define(
    Op.OUTFEED,
    AttrSpec(
        "outfeed_shape", SHAPE, default=lambda ctx: ctx.operand_shapes[0] if ctx.operand_shapes else None
    ),
    AttrSpec("outfeed_config", STRING, default="", printed=if_nonempty),
)


@shape_rule(Op.OUTFEED)
def outfeed_shape(ctx: ShapeContext) -> Shape:
    """token[]; outfeed_shape= (the laid-out shape sent) must match the data operand."""
    data = operand(ctx, 0, "the data")
    token_operand(ctx, 1)
    sent = ctx.attr("outfeed_shape", data)
    if not sent.compatible(data):
        raise ShapeError(f"outfeed_shape= must match operand 0 (the data): found {sent} and {text(data)}")
    return Shape.token()


def _outfeed(
    op_name: str, operand: XlaOp, token: XlaOp, shape_with_layout: Shape | str, config: str
) -> XlaOp:
    from .tuple_ops import as_shape

    builder = builder_of(op_name, operand)
    shape_with_layout = as_shape(shape_with_layout)
    if not _has_layout(shape_with_layout):
        raise builder.error(op_name, f"shape_with_layout must have a layout: found {shape_with_layout}")
    attrs = {"outfeed_shape": shape_with_layout, "outfeed_config": config}
    return builder.add(op_name, Op.OUTFEED, (operand, token), attrs)


@builder_function
def OutfeedWithToken(
    operand: XlaOp, token: XlaOp, shape_with_layout: Shape | str, outfeed_config: str = ""
) -> XlaOp:
    """Send `operand` to the host after `token`, laid out as `shape_with_layout`; a token."""
    return _outfeed("OutfeedWithToken", operand, token, shape_with_layout, outfeed_config)


@builder_function
def Outfeed(operand: XlaOp, shape_with_layout: Shape | str, outfeed_config: str = "") -> None:
    """Send `operand` to the host, laid out as `shape_with_layout` (void, as XlaBuilder's: it
    adds an empty tuple after the outfeed, which becomes the root if nothing follows)."""
    from .tuple_ops import Tuple

    builder = builder_of("Outfeed", operand)
    token = _outfeed("Outfeed", operand, _feed_token(builder, "outfeed"), shape_with_layout, outfeed_config)
    _LAST_TOKEN["outfeed"][builder] = token
    Tuple(builder, [])


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.INFEED)
def infeed_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The next value of the run's `infeed=` sequence (hlo.run), checked against the data shape;
    a run that asks for more than it was given is an error naming the instruction."""
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
    """Append a copy of the value to the run's `outfeed=` list (hlo.run), if one was given."""

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
