"""What every collective shares: the attributes (channel_id, replica_groups, use_global_device_ids,
mode), XLA's group modes and replica-group checks, reducer checks, and the builder's arguments
(channel handles, replica groups, tuple operands). The ops are in collectives.py (all-reduce,
collective-broadcast, replica/partition id), all_gather.py (all-gather, reduce-scatter),
exchange.py (all-to-all, ragged-all-to-all, collective-permute) and send_recv.py."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, INT, REPLICA_GROUPS, enum_kind
from ..ir.attrs import CollectiveMode
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.replica_groups import ExplicitReplicaGroups, IotaReplicaGroups, MeshAxesReplicaGroups, ReplicaGroups
from ..ir.services import spell
from ..layout import Layout
from ..shape import Shape
from .array_rules import one_dimension
from .callee import program, signature, text
from .registry import AttrSpec, ShapeContext, if_true
from .rule_helpers import builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp


Op = Opcode

MODE = enum_kind(CollectiveMode, "a collective mode")
NO_GROUPS = ExplicitReplicaGroups(())


def channel_id() -> AttrSpec:
    return AttrSpec("channel_id", INT)


def collective_base() -> tuple[AttrSpec, ...]:
    return (
        channel_id(),
        AttrSpec("replica_groups", REPLICA_GROUPS, default=NO_GROUPS),
        AttrSpec("constrain_layout", BOOL, default=False, printed=if_true),
    )


def use_global_device_ids() -> AttrSpec:
    return AttrSpec("use_global_device_ids", BOOL, default=False, printed=if_true)


# -- group modes and replica groups -------------------------------------------------------------
class GroupMode(enum.Enum):
    """Which devices a collective's replica groups number (XLA's CollectiveOpGroupMode)."""

    CROSS_REPLICA = "replicas"
    CROSS_PARTITION = "partitions"
    CROSS_REPLICA_AND_PARTITION = "replicas (across all partitions)"
    FLATTENED_ID = "flattened device ids"


def group_mode(ctx: ShapeContext, has_global_ids_flag: bool) -> GroupMode:
    """From channel_id= and, for the ops that have it, use_global_device_ids=."""
    has_channel = ctx.attr("channel_id") is not None
    global_ids = bool(ctx.attr("use_global_device_ids", False))
    if not has_channel:
        if global_ids:
            raise ShapeError("use_global_device_ids=true needs a channel_id=: found none")
        return GroupMode.CROSS_REPLICA
    if not has_global_ids_flag:
        return GroupMode.CROSS_PARTITION
    return GroupMode.FLATTENED_ID if global_ids else GroupMode.CROSS_REPLICA_AND_PARTITION


def replica_groups(ctx: ShapeContext, mode: GroupMode, uniform: bool = True) -> tuple[tuple[int, ...], ...]:
    """The groups, which must number the n devices 0..n-1 once each, none empty, all of one size
    unless `uniform` is off (all-reduce) -- XLA's CheckReplicaGroups. No groups means one group
    of every device, except with flattened ids."""
    value: ReplicaGroups = ctx.attr("replica_groups", NO_GROUPS)
    groups = value.groups()
    shown = spell(REPLICA_GROUPS, value)
    if not groups:
        if mode is GroupMode.FLATTENED_ID:
            raise ShapeError("replica_groups= must list the groups when use_global_device_ids=true: found {}")
        return ()
    if any(not g for g in groups):
        raise ShapeError(f"replica_groups= must not hold an empty group: found {shown}")
    n = sum(len(g) for g in groups)
    seen: set[int] = set()
    for g in groups:
        for i in g:
            if not 0 <= i < n:
                raise ShapeError(
                    f"replica_groups= must number the {n} {mode.value} 0..{n - 1}: found {i} in {shown}"
                )
            if i in seen:
                raise ShapeError(
                    f"replica_groups= must name each of the {mode.value} once: found {i} twice in {shown}"
                )
            seen.add(i)
    if uniform and len({len(g) for g in groups}) > 1:
        raise ShapeError(f"replica_groups= must hold groups of one size: found {shown}")
    return groups


def group_size(ctx: ShapeContext, groups: tuple[tuple[int, ...], ...], mode: GroupMode) -> int | None:
    """How many devices take part in each group, when the instruction alone says it."""
    if not groups or mode is GroupMode.CROSS_REPLICA_AND_PARTITION:
        return None  # the replica count (times the partition count): module configuration
    return len(groups[0])


def array_operands(ctx: ShapeContext) -> tuple[Shape, ...]:
    if not ctx.operands:
        raise ShapeError("expects at least one operand: found none")
    for k, s in enumerate(ctx.operands):
        if not s.is_array:
            raise ShapeError(f"operand {k} must be an array: found {text(s)}")
    return ctx.operands


def one_or_tuple(shapes: Sequence[Shape]) -> Shape:
    return shapes[0] if len(shapes) == 1 else Shape.make_tuple(shapes)


def reducer(ctx: ShapeContext, arrays: Sequence[Shape]) -> None:
    """to_apply= must be (T[], T[]) -> T[] with T the operands' element type."""
    label, params, result = program(ctx, "to_apply")
    sig = signature(params, result)
    t = result.element_type
    if not (
        len(params) == 2 and result.is_scalar and all(p.is_scalar and p.element_type is t for p in params)
    ):
        raise ShapeError(f"{label} must be a reducer (T[], T[]) -> T[] of scalars: found {sig}")
    for k, s in enumerate(arrays):
        if s.element_type is not t:
            raise ShapeError(f"operand {k} must have the element type of {label}: found {text(s)} for {sig}")


# -- builder arguments ------------------------------------------------------------------------
class ChannelType(enum.Enum):
    DEVICE_TO_DEVICE = "device_to_device"
    DEVICE_TO_HOST = "device_to_host"
    HOST_TO_DEVICE = "host_to_device"


@dataclass(frozen=True)
class ChannelHandle:
    """XLA's ChannelHandle: a channel number and its kind (send/recv check it)."""

    handle: int
    type: ChannelType = ChannelType.DEVICE_TO_DEVICE


def channel_number(
    builder: XlaBuilder, op_name: str, channel: Any, kind: ChannelType | None = None
) -> int | None:
    """A channel_id= from an int or ChannelHandle (of kind `kind`, when given)."""
    if channel is None:
        return None
    if isinstance(channel, ChannelHandle):
        if kind is not None and channel.type is not kind:
            raise builder.error(op_name, f"the channel must be {kind.value}: found {channel.type.value}")
        return channel.handle
    if isinstance(channel, int) and not isinstance(channel, bool):
        return channel
    raise builder.error(op_name, f"the channel must be an int or a ChannelHandle: found {channel!r}")


def as_replica_groups(builder: XlaBuilder, op_name: str, groups: Any) -> ReplicaGroups:
    """Lists of ids (XLA's ReplicaGroup protos) or any ReplicaGroups form (its device lists)."""
    if groups is None:
        return NO_GROUPS
    if isinstance(groups, ExplicitReplicaGroups | IotaReplicaGroups | MeshAxesReplicaGroups):
        return groups
    try:
        return ExplicitReplicaGroups(tuple(tuple(int(i) for i in g) for g in groups))
    except (TypeError, ValueError):
        raise builder.error(
            op_name, f"replica_groups must be lists of device ids: found {groups!r}"
        ) from None


def collective_attrs(
    builder: XlaBuilder, op_name: str, groups: Any, channel: Any, global_ids: bool | None = None
) -> dict[str, Any]:
    attrs: dict[str, Any] = {"replica_groups": as_replica_groups(builder, op_name, groups)}
    number = channel_number(builder, op_name, channel)
    if number is not None:
        attrs["channel_id"] = number
    if global_ids is not None:
        attrs["use_global_device_ids"] = bool(global_ids)
    return attrs


def split_tuple(op_name: str, operand: XlaOp, same_type: bool = False) -> list[XlaOp]:
    """A tuple operand's elements (XlaBuilder passes them as separate operands)."""
    from .tuple_ops import GetTupleElement

    builder = builder_of(op_name, operand)
    s = operand.shape
    if not s.is_tuple:
        return [operand]
    if not s.tuple_shapes:
        raise builder.error(op_name, "a tuple operand must not be empty: found ()")
    if same_type and len({e.element_type for e in s.tuple_shapes}) > 1:
        raise builder.error(
            op_name, f"the elements of a tuple operand must have one element type: found {text(s)}"
        )
    return [GetTupleElement(operand, i) for i in range(len(s.tuple_shapes))]


def with_layout(shape: Shape, layout: Layout | None) -> Shape:
    if layout is None:
        return shape
    if shape.is_tuple:
        return Shape.make_tuple(with_layout(s, layout) for s in shape.tuple_shapes)
    return shape.with_layout(layout)


def global_ids_need_channel(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    """Parse-time (XLA's parser checks it unless mode= is written)."""
    if (
        instr.attr("use_global_device_ids")
        and instr.attr("channel_id") is None
        and instr.attr("mode") is None
    ):
        return "use_global_device_ids=true needs a channel_id=: found none"
    return one_dimension(instr, operands) if instr.opcode is Op.REDUCE_SCATTER else None


# `mode=` is read and checked, then dropped, as XLA does; it is never printed.
MODE_ATTR = AttrSpec("mode", MODE, printed=lambda v, ctx: False)
