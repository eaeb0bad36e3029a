"""All-gather (page 003: AllGather, XLA's -start/-done forms) and reduce-scatter (ReduceScatter):
shape rules and builder functions (the kernels: all-gather's in collective_move_kernels.py,
reduce-scatter's in collective_kernels.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attr_kinds import COMPUTATION, INT_LIST, REPLICA_GROUPS
from ..ir.opcode import Opcode
from ..ir.services import spell
from ..layout import Layout
from ..shape import UNBOUNDED, Shape
from .array_rules import one_dimension, the_dimension
from .callee import embed, text
from .registry import AttrSpec, ShapeContext, builder_function, define, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaComputation, XlaOp

from .collective_common import (
    MODE_ATTR,
    NO_GROUPS,
    GroupMode,
    array_operands,
    collective_attrs,
    collective_base,
    global_ids_need_channel,
    group_mode,
    group_size,
    one_or_tuple,
    reducer,
    replica_groups,
    split_tuple,
    use_global_device_ids,
    with_layout,
)

Op = Opcode


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
                f"replica_groups={spell(REPLICA_GROUPS, ctx.attr('replica_groups', NO_GROUPS))}"
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
    check=global_ids_need_channel,
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
