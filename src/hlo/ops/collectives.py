"""Collectives across replicas and partitions (page 003: AllReduce, CrossReplicaSum,
CollectiveBroadcast, ReplicaId; XLA's PartitionId) and all-reduce's -start/-done forms. What every
collective shares is in collective_common.py; all-gather and reduce-scatter in all_gather.py,
all-to-all and ragged-all-to-all in exchange.py, collective-permute in collective_permute.py,
send/recv in send_recv.py (all imported at the bottom)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, COMPUTATION
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .callee import embed, text
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

from .collective_common import (
    MODE_ATTR,
    array_operands,
    collective_attrs,
    collective_base,
    global_ids_need_channel,
    group_mode,
    one_or_tuple,
    reducer,
    replica_groups,
    split_tuple,
    use_global_device_ids,
)

Op = Opcode


# -- all-reduce -------------------------------------------------------------------------------
for op in (Op.ALL_REDUCE, Op.ALL_REDUCE_START):
    define(
        op,
        *collective_base(),
        use_global_device_ids(),
        MODE_ATTR,
        AttrSpec("to_apply", COMPUTATION, required=True),
        check=global_ids_need_channel,
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
    from .registry import BUILDERS
    from .tuple_ops import Parameter

    builder = builder_of("CrossReplicaSum", operand)
    s = operand.shape
    if s.is_tuple and not s.tuple_shapes:
        raise builder.error("CrossReplicaSum", "a tuple operand must not be empty: found ()")
    element = s.tuple_shapes[0] if s.is_tuple else s
    scalar = Shape.scalar(element.element_type)
    sub = builder.sub_builder("sum")
    x, y = Parameter(sub, 0, scalar, "x"), Parameter(sub, 1, scalar, "y")
    BUILDERS["Or" if element.element_type is PrimitiveType.PRED else "Add"](x, y)
    return AllReduce(operand, sub.build(), replica_groups)


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
    from .handles import XlaOp

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


from . import all_gather, collective_permute, exchange, send_recv  # noqa: E402, F401  (the other collectives)


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.REPLICA_ID, Op.PARTITION_ID)
def device_id_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """On one device: replica 0, partition 0."""
    key = "replica" if instr.opcode is Op.REPLICA_ID else "partition"
    return lambda: np.array(ctx.state.get(key, 0), dtype=np.uint32)
