"""Collectives across replicas and partitions (page 003: AllReduce, CrossReplicaSum, AllGather,
ReduceScatter, CollectiveBroadcast, ReplicaId; XLA's PartitionId), their -start/-done forms, and
what every collective shares: replica groups, group modes and channel handles. all-to-all,
ragged-all-to-all and collective-permute are in exchange.py, send/recv in send_recv.py (both
imported at the bottom)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attrs import CollectiveMode
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.replica_groups import ExplicitReplicaGroups, IotaReplicaGroups, MeshAxesReplicaGroups, ReplicaGroups
from ..layout import Layout
from ..shape import UNBOUNDED, Shape
from ..text.attr_codecs import BOOL, COMPUTATION, INT, INT_LIST, EnumCodec, Simple
from ..text.sharding_codec import parse_replica_groups, print_replica_groups
from .array_rules import one_dimension, the_dimension
from .callee import embed, program, signature, text
from .registry import AttrSpec, ShapeContext, builder_function, define, if_true, kernel, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..engine.plan import KernelContext

Op = Opcode

REPLICA_GROUPS = Simple(parse_replica_groups, print_replica_groups)
MODE = EnumCodec(CollectiveMode, "a collective mode")
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
    shown = print_replica_groups(value)
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


# -- all-reduce -------------------------------------------------------------------------------
def _global_ids_need_channel(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
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
for op in (Op.ALL_REDUCE, Op.ALL_REDUCE_START):
    define(
        op,
        *collective_base(),
        use_global_device_ids(),
        MODE_ATTR,
        AttrSpec("to_apply", COMPUTATION, required=True),
        check=_global_ids_need_channel,
    )
define(Op.ALL_REDUCE_DONE)


@shape_rule(Op.ALL_REDUCE, Op.ALL_REDUCE_START)
def all_reduce_shape(ctx: ShapeContext) -> Shape:
    """The operands (one array, or a tuple of several), reduced across each group by to_apply
    (page 003, AllReduce); groups may differ in size."""
    arrays = array_operands(ctx)
    replica_groups(ctx, group_mode(ctx, True), uniform=False)
    reducer(ctx, arrays)
    return one_or_tuple(arrays)


@shape_rule(Op.ALL_REDUCE_DONE)
def all_reduce_done_shape(ctx: ShapeContext) -> Shape:
    return operand(ctx, 0, "the all-reduce-start")


def _all_reduce(
    op_name: str,
    opcode: Opcode,
    operand: XlaOp,
    computation: XlaComputation,
    groups: Any,
    channel: Any,
    shape_with_layout: Shape | None,
    global_ids: bool | None,
) -> XlaOp:
    from .tuple_ops import Tuple

    builder = builder_of(op_name, operand)
    operands = split_tuple(op_name, operand, same_type=True)
    attrs = collective_attrs(builder, op_name, groups, channel, global_ids)
    attrs["to_apply"] = embed(builder, op_name, computation, "computation")
    shape = one_or_tuple([o.shape for o in operands])
    if shape_with_layout is not None:
        # A one-element tuple layout applies to the single result (XlaBuilder's rule).
        given = shape_with_layout
        if given.is_tuple and len(given.tuple_shapes) == 1 and not shape.is_tuple:
            given = given.tuple_shapes[0]
        if given.is_array and shape.is_array:
            shape = shape.with_layout(given.layout)
        attrs["constrain_layout"] = True
    result = builder.add(op_name, opcode, operands, attrs, shape=shape)
    if operand.shape.is_tuple and not result.shape.is_tuple:
        return Tuple(builder, [result])
    return result


@builder_function
def AllReduce(
    operand: XlaOp,
    computation: XlaComputation,
    replica_groups: Any = (),
    channel_id: Any = None,
    shape_with_layout: Shape | None = None,
    use_global_device_ids: bool | None = None,
) -> XlaOp:
    """`computation` (a scalar reducer) applied across each replica group (page 003); a tuple
    operand is reduced element by element and gives a tuple."""
    return _all_reduce(
        "AllReduce", Op.ALL_REDUCE, operand, computation, replica_groups, channel_id,
        shape_with_layout, use_global_device_ids,
    )  # fmt: skip


@builder_function
def AllReduceTuple(
    operands: Sequence[XlaOp],
    computation: XlaComputation,
    replica_groups: Any = (),
    channel_id: Any = None,
    shape_with_layout: Shape | None = None,
    use_global_device_ids: bool | None = None,
) -> XlaOp:
    """AllReduce of the tuple of `operands`."""
    from .tuple_ops import Tuple

    builder = builder_of("AllReduceTuple", operands)
    return AllReduce(
        Tuple(builder, operands),
        computation,
        replica_groups,
        channel_id,
        shape_with_layout,
        use_global_device_ids,
    )


@builder_function
def AllReduceStart(
    operand: XlaOp,
    computation: XlaComputation,
    replica_groups: Any = (),
    channel_id: Any = None,
    shape_with_layout: Shape | None = None,
    use_global_device_ids: bool | None = None,
) -> XlaOp:
    """The asynchronous start of an AllReduce (XlaBuilder's BuildAllReduceStart)."""
    return _all_reduce(
        "AllReduceStart", Op.ALL_REDUCE_START, operand, computation, replica_groups, channel_id,
        shape_with_layout, use_global_device_ids,
    )  # fmt: skip


@builder_function
def AllReduceDone(operand: XlaOp) -> XlaOp:
    """The result of an AllReduceStart."""
    return builder_of("AllReduceDone", operand).add("AllReduceDone", Op.ALL_REDUCE_DONE, (operand,))


@builder_function
def CrossReplicaSum(operand: XlaOp, replica_groups: Any = ()) -> XlaOp:
    """AllReduce with an add reducer (or for pred), as page 003 defines it."""
    from ..builder import XlaBuilder
    from .registry import BUILDERS
    from .tuple_ops import Parameter

    builder = builder_of("CrossReplicaSum", operand)
    s = operand.shape
    if s.is_tuple and not s.tuple_shapes:
        raise builder.error("CrossReplicaSum", "a tuple operand must not be empty: found ()")
    element = s.tuple_shapes[0] if s.is_tuple else s
    scalar = Shape.scalar(element.element_type)
    sub = XlaBuilder("sum")
    x, y = Parameter(sub, 0, scalar, "x"), Parameter(sub, 1, scalar, "y")
    BUILDERS["Or" if element.element_type is PrimitiveType.PRED else "Add"](x, y)
    return AllReduce(operand, sub.build(), replica_groups)


# -- all-gather -------------------------------------------------------------------------------
for op in (Op.ALL_GATHER, Op.ALL_GATHER_START):
    define(
        op,
        *collective_base(),
        AttrSpec("dimensions", INT_LIST, required=True),
        use_global_device_ids(),
        check=one_dimension,
    )
define(Op.ALL_GATHER_DONE)


def gathered(arrays: Sequence[Shape], dim: int, shards: int) -> list[Shape]:
    """Each operand with dimension `dim` `shards` times larger; an unbounded size stays
    unbounded, a bounded one becomes static (XLA's InferAllGatherShape)."""
    out = []
    for s in arrays:
        size = s.dimensions[dim]
        dims, dynamic = list(s.dimensions), list(s.dynamic_dimensions)
        dims[dim], dynamic[dim] = (UNBOUNDED, True) if size == UNBOUNDED else (size * shards, False)
        out.append(s.replace(dimensions=tuple(dims), dynamic_dimensions=tuple(dynamic)))
    return out


def scattered(arrays: Sequence[Shape], dim: int, shards: int) -> list[Shape]:
    """Each operand with dimension `dim` `shards` times smaller; a dynamic size becomes
    unbounded (XLA's InferReduceScatterShape)."""
    out = []
    for k, s in enumerate(arrays):
        size = s.dimensions[dim]
        if size != UNBOUNDED and size % shards:
            raise ShapeError(
                f"operand {k}'s dimension {dim} must be divisible by the shard count {shards}: "
                f"found {text(s)}"
            )
        dims, dynamic = list(s.dimensions), list(s.dynamic_dimensions)
        dims[dim], dynamic[dim] = (UNBOUNDED, True) if dynamic[dim] else (size // shards, False)
        out.append(s.replace(dimensions=tuple(dims), dynamic_dimensions=tuple(dynamic)))
    return out


def _dimension(ctx: ShapeContext, arrays: Sequence[Shape]) -> int:
    dim = the_dimension(ctx)
    for k, s in enumerate(arrays):
        if not 0 <= dim < s.rank:
            raise ShapeError(f"dimensions={{{dim}}} must be a dimension of operand {k}: found {text(s)}")
    return dim


def _written_output(ctx: ShapeContext, count: int, start: bool) -> Shape | None:
    """The written result for operand 0 (of the gathered part of an all-gather-start)."""
    shape = ctx.shape
    if shape is None:
        return None
    if start:
        if not (shape.is_tuple and len(shape.tuple_shapes) == 2):
            raise ShapeError(f"the result must be (operands, gathered): found {text(shape)}")
        shape = shape.tuple_shapes[1]
    if count > 1:
        if not (shape.is_tuple and len(shape.tuple_shapes) == count):
            raise ShapeError(
                f"the result must be a tuple of {count} arrays, one per operand: found {text(shape)}"
            )
        shape = shape.tuple_shapes[0]
    return shape if shape.is_array else None


def shard_count(
    ctx: ShapeContext, arrays: Sequence[Shape], dim: int, gather: bool, start: bool = False
) -> int | None:
    """The shard count, from the written result (its dimension over the operand's, or the
    reverse), else from the group size; checked against the groups as XLA's verifier does."""
    mode = group_mode(ctx, True)
    groups = replica_groups(ctx, mode)
    size = group_size(ctx, groups, mode)
    out = _written_output(ctx, len(arrays), start)
    count: int | None = size
    if out is not None and len(out.dimensions) > dim:
        big, small = (out.dimensions[dim], arrays[0].dimensions[dim])
        if not gather:
            big, small = small, big
        if small > 0 and UNBOUNDED not in (big, small):
            count = -(-big // small)
    if count is None:
        if out is None:
            raise ShapeError(
                "the result shape must be written: without replica groups the shard count is the device count"
            )
        return None
    what = "gathered" if gather else "scattered"
    if groups and len(groups[0]) > 1:
        n = len(groups[0])
        if (count % n if mode is GroupMode.CROSS_REPLICA_AND_PARTITION else count != n) or count <= 0:
            raise ShapeError(
                f"the shard count must be the replica group size {n}: "
                f"found {count} ({what} dimension {dim}) for "
                f"replica_groups={print_replica_groups(ctx.attr('replica_groups', NO_GROUPS))}"
            )
    return count


def _gather_shape(ctx: ShapeContext, start: bool) -> Shape:
    arrays = array_operands(ctx)
    dim = _dimension(ctx, arrays)
    count = shard_count(ctx, arrays, dim, gather=True, start=start)
    if count is None:
        assert ctx.shape is not None
        return ctx.shape
    result = one_or_tuple(gathered(arrays, dim, count))
    return Shape.make_tuple((one_or_tuple(arrays), result)) if start else result


@shape_rule(Op.ALL_GATHER)
def all_gather_shape(ctx: ShapeContext) -> Shape:
    """Each operand concatenated across its group along dimensions={d} (page 003, AllGather);
    the shard count is the group size."""
    return _gather_shape(ctx, start=False)


@shape_rule(Op.ALL_GATHER_START)
def all_gather_start_shape(ctx: ShapeContext) -> Shape:
    """(operands, gathered)."""
    return _gather_shape(ctx, start=True)


@shape_rule(Op.ALL_GATHER_DONE)
def all_gather_done_shape(ctx: ShapeContext) -> Shape:
    start = operand(ctx, 0, "the all-gather-start")
    if not (start.is_tuple and len(start.tuple_shapes) == 2):
        raise ShapeError(f"operand 0 must be an all-gather-start's (operands, gathered): found {text(start)}")
    return start.tuple_shapes[1]


def _all_gather(
    op_name: str, opcode: Opcode, operand: XlaOp, dim: int, shards: int, groups: Any, channel: Any,
    layout: Layout | None, global_ids: bool | None,
) -> XlaOp:  # fmt: skip
    builder = builder_of(op_name, operand)
    operands = split_tuple(op_name, operand)
    if not isinstance(shards, int) or shards <= 0:
        raise builder.error(op_name, f"shard_count must be a positive int: found {shards!r}")
    shapes = [o.shape for o in operands]
    for k, s in enumerate(shapes):
        if not s.is_array or not 0 <= dim < s.rank:
            raise builder.error(
                op_name, f"all_gather_dimension {dim} must be a dimension of operand {k}: found {text(s)}"
            )
    result = with_layout(one_or_tuple(gathered(shapes, dim, shards)), layout)
    shape = Shape.make_tuple((one_or_tuple(shapes), result)) if opcode is Op.ALL_GATHER_START else result
    attrs = collective_attrs(builder, op_name, groups, channel, global_ids)
    attrs["dimensions"] = (dim,)
    if layout is not None:
        attrs["constrain_layout"] = True
    return builder.add(op_name, opcode, operands, attrs, shape=shape)


@builder_function
def AllGather(
    operand: XlaOp,
    all_gather_dimension: int,
    shard_count: int,
    replica_groups: Any = (),
    channel_id: Any = None,
    layout: Layout | None = None,
    use_global_device_ids: bool | None = None,
) -> XlaOp:
    """The operand concatenated across each replica group along `all_gather_dimension`, which
    grows `shard_count` (the group size) times (page 003)."""
    return _all_gather(
        "AllGather", Op.ALL_GATHER, operand, all_gather_dimension, shard_count, replica_groups,
        channel_id, layout, use_global_device_ids,
    )  # fmt: skip


@builder_function
def AllGatherTuple(
    operands: Sequence[XlaOp],
    all_gather_dimension: int,
    shard_count: int,
    replica_groups: Any = (),
    channel_id: Any = None,
    layout: Layout | None = None,
    use_global_device_ids: bool | None = None,
) -> XlaOp:
    """AllGather of several operands at once."""
    from .tuple_ops import Tuple

    builder = builder_of("AllGatherTuple", operands)
    return AllGather(
        Tuple(builder, operands), all_gather_dimension, shard_count, replica_groups, channel_id, layout,
        use_global_device_ids,
    )  # fmt: skip


@builder_function
def AllGatherStart(
    operand: XlaOp,
    all_gather_dimension: int,
    shard_count: int,
    replica_groups: Any = (),
    channel_id: Any = None,
    layout: Layout | None = None,
    use_global_device_ids: bool | None = None,
) -> XlaOp:
    """The asynchronous start of an AllGather: (operand, gathered) (BuildAllGatherStart)."""
    return _all_gather(
        "AllGatherStart", Op.ALL_GATHER_START, operand, all_gather_dimension, shard_count, replica_groups,
        channel_id, layout, use_global_device_ids,
    )  # fmt: skip


@builder_function
def AllGatherDone(operand: XlaOp) -> XlaOp:
    """The gathered result of an AllGatherStart."""
    return builder_of("AllGatherDone", operand).add("AllGatherDone", Op.ALL_GATHER_DONE, (operand,))


# -- reduce-scatter ---------------------------------------------------------------------------
define(
    Op.REDUCE_SCATTER,
    *collective_base(),
    use_global_device_ids(),
    AttrSpec("dimensions", INT_LIST, required=True),
    MODE_ATTR,
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_global_ids_need_channel,
)


@shape_rule(Op.REDUCE_SCATTER)
def reduce_scatter_shape(ctx: ShapeContext) -> Shape:
    """An all-reduce whose result is split along dimensions={d} into shard-count blocks, one per
    member of the group (page 003, ReduceScatter)."""
    arrays = array_operands(ctx)
    dim = _dimension(ctx, arrays)
    reducer(ctx, arrays)
    count = shard_count(ctx, arrays, dim, gather=False)
    if count is None:
        assert ctx.shape is not None
        return ctx.shape
    return one_or_tuple(scattered(arrays, dim, count))


@builder_function
def ReduceScatter(
    operand: XlaOp,
    computation: XlaComputation,
    scatter_dimension: int,
    shard_count: int,
    replica_groups: Any = (),
    channel_id: Any = None,
    layout: Layout | None = None,
    use_global_device_ids: bool | None = None,
) -> XlaOp:
    """AllReduce, then block i of `shard_count` along `scatter_dimension` to group member i
    (page 003)."""
    builder = builder_of("ReduceScatter", operand)
    operands = split_tuple("ReduceScatter", operand, same_type=True)
    if not isinstance(shard_count, int) or shard_count <= 0:
        raise builder.error("ReduceScatter", f"shard_count must be a positive int: found {shard_count!r}")
    shapes = [o.shape for o in operands]
    for k, s in enumerate(shapes):
        if not s.is_array or not 0 <= scatter_dimension < s.rank:
            raise builder.error(
                "ReduceScatter",
                f"scatter_dimension {scatter_dimension} must be a dimension of operand {k}: found {text(s)}",
            )
    try:
        shape = with_layout(one_or_tuple(scattered(shapes, scatter_dimension, shard_count)), layout)
    except ShapeError as e:
        raise builder.error("ReduceScatter", e.message) from None
    attrs = collective_attrs(builder, "ReduceScatter", replica_groups, channel_id, use_global_device_ids)
    attrs["dimensions"] = (scatter_dimension,)
    attrs["to_apply"] = embed(builder, "ReduceScatter", computation, "computation")
    if layout is not None:
        attrs["constrain_layout"] = True
    return builder.add("ReduceScatter", Op.REDUCE_SCATTER, operands, attrs, shape=shape)


# -- collective-broadcast ---------------------------------------------------------------------
define(Op.COLLECTIVE_BROADCAST, *collective_base(), AttrSpec("has_dynamic_root", BOOL, default=False))


@shape_rule(Op.COLLECTIVE_BROADCAST)
def collective_broadcast_shape(ctx: ShapeContext) -> Shape:
    """The root's operand, on every member of its group. With has_dynamic_root=true the last
    operand (rank 1, one element per data operand) says which member is the root."""
    replica_groups(ctx, group_mode(ctx, False), uniform=False)
    if not ctx.attr("has_dynamic_root", False):
        first = operand(ctx, 0, "the data")
        if not first.is_array:
            raise ShapeError(f"operand 0 must be an array: found {text(first)}")
        return first
    if len(ctx.operands) < 2:
        raise ShapeError(
            f"has_dynamic_root=true needs data operands and a root operand: found {len(ctx.operands)}"
        )
    *data, root = ctx.operands
    if not (root.is_array and root.rank == 1 and root.dimensions[0] == len(data)):
        raise ShapeError(
            f"the last operand (the dynamic root) must be rank 1 with one element per data operand "
            f"({len(data)}): found {text(root)}"
        )
    for k, s in enumerate(data):
        if not s.is_array:
            raise ShapeError(f"operand {k} must be an array: found {text(s)}")
    return one_or_tuple(data)


@builder_function
def CollectiveBroadcast(
    operands: XlaOp | Sequence[XlaOp],
    replica_groups: Any,
    channel_id: Any = None,
    has_dynamic_root: bool = False,
) -> XlaOp:
    """The first member's operand (or, with `has_dynamic_root`, the member the last operand, an
    s32 vector, names) broadcast to its whole replica group."""
    from ..builder import XlaOp

    ops = [operands] if isinstance(operands, XlaOp) else list(operands)
    builder = builder_of("CollectiveBroadcast", ops)
    if has_dynamic_root:
        root = ops[-1].shape
        if len(ops) < 2 or not (root.is_array and root.element_type is PrimitiveType.S32):
            raise builder.error(
                "CollectiveBroadcast",
                f"has_dynamic_root needs a last operand of type s32: found {len(ops)} operands",
            )
    attrs = collective_attrs(builder, "CollectiveBroadcast", replica_groups, channel_id)
    attrs["has_dynamic_root"] = bool(has_dynamic_root)
    return builder.add("CollectiveBroadcast", Op.COLLECTIVE_BROADCAST, ops, attrs)


# -- replica-id, partition-id -------------------------------------------------------------------
define(Op.REPLICA_ID)
define(Op.PARTITION_ID)


@shape_rule(Op.REPLICA_ID, Op.PARTITION_ID)
def device_id_shape(ctx: ShapeContext) -> Shape:
    """A u32[] scalar: this device's replica (partition) number."""
    if ctx.operands:
        raise ShapeError(f"expects no operands: found {len(ctx.operands)}")
    return Shape.scalar(PrimitiveType.U32)


@builder_function
def ReplicaId(builder: XlaBuilder) -> XlaOp:
    """This replica's id, a u32[] in [0, replica count) (page 003)."""
    return builder.add("ReplicaId", Op.REPLICA_ID)


@builder_function
def PartitionId(builder: XlaBuilder) -> XlaOp:
    """This partition's id, a u32[] in [0, partition count)."""
    return builder.add("PartitionId", Op.PARTITION_ID)


from . import exchange, send_recv  # noqa: E402, F401  (all-to-all, collective-permute; send/recv)


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.REPLICA_ID, Op.PARTITION_ID)
def device_id_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """On one device: replica 0, partition 0."""
    key = "replica" if instr.opcode is Op.REPLICA_ID else "partition"
    return lambda: np.array(ctx.state.get(key, 0), dtype=np.uint32)
