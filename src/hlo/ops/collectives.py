"""Collectives across replicas and partitions, their async -start/-done forms, send/recv and the
device-id ops."""

from __future__ import annotations

from ..ir.attrs import CollectiveMode
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.replica_groups import ExplicitReplicaGroups
from ..shape import Shape
from ..text.attr_codecs import BOOL, COMPUTATION, INT, INT_LIST, INT_LIST_LIST, EnumCodec, Simple
from ..text.sharding_codec import (
    parse_replica_groups,
    parse_source_target_pairs,
    print_replica_groups,
    print_source_target_pairs,
)
from .registry import AttrSpec, ShapeContext, define, if_nonempty, if_true, shape_rule
from .shape_ops import one_dimension

Op = Opcode

REPLICA_GROUPS = Simple(parse_replica_groups, print_replica_groups)
SOURCE_TARGET_PAIRS = Simple(parse_source_target_pairs, print_source_target_pairs)
MODE = EnumCodec(CollectiveMode, "a collective mode")


def channel_id() -> AttrSpec:
    return AttrSpec("channel_id", INT)


def collective_base() -> tuple[AttrSpec, ...]:
    return (
        channel_id(),
        AttrSpec("replica_groups", REPLICA_GROUPS, default=ExplicitReplicaGroups(())),
        AttrSpec("constrain_layout", BOOL, default=False, printed=if_true),
    )


def use_global_device_ids() -> AttrSpec:
    return AttrSpec("use_global_device_ids", BOOL, default=False, printed=if_true)


def _global_ids_need_channel(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if (
        instr.attr("use_global_device_ids")
        and instr.attr("channel_id") is None
        and instr.attr("mode") is None
    ):
        return "Cannot have use_global_device_ids=true without channel_id"
    return one_dimension(instr, operands) if instr.opcode is Op.REDUCE_SCATTER else None


# `mode=` is read and checked, then dropped, as XLA does; it is never printed.
MODE_ATTR = AttrSpec("mode", MODE, printed=lambda v, ctx: False)

for op in (Op.ALL_GATHER, Op.ALL_GATHER_START):
    define(
        op,
        *collective_base(),
        AttrSpec("dimensions", INT_LIST, required=True),
        use_global_device_ids(),
        check=one_dimension,
    )
for op in (Op.ALL_REDUCE, Op.ALL_REDUCE_START):
    define(
        op,
        *collective_base(),
        use_global_device_ids(),
        MODE_ATTR,
        AttrSpec("to_apply", COMPUTATION, required=True),
        check=_global_ids_need_channel,
    )
define(
    Op.REDUCE_SCATTER,
    *collective_base(),
    use_global_device_ids(),
    AttrSpec("dimensions", INT_LIST, required=True),
    MODE_ATTR,
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_global_ids_need_channel,
)
define(Op.ALL_TO_ALL, *collective_base(), AttrSpec("dimensions", INT_LIST), check=one_dimension)
define(
    Op.RAGGED_ALL_TO_ALL,
    *collective_base(),
    AttrSpec("dimensions", INT_LIST),
    check=one_dimension,
    arity=None,
)
define(Op.COLLECTIVE_BROADCAST, *collective_base(), AttrSpec("has_dynamic_root", BOOL, default=False))


def _in_place_permute(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if instr.attr("slice_sizes") and len(operands) != 4:
        return (
            "CollectivePermute and CollectivePermuteStart must have exactly four operands for "
            "dynamic-slice and in-place update."
        )
    return None


for op in (Op.COLLECTIVE_PERMUTE, Op.COLLECTIVE_PERMUTE_START):
    define(
        op,
        channel_id(),
        AttrSpec("source_target_pairs", SOURCE_TARGET_PAIRS, required=True),
        AttrSpec("slice_sizes", INT_LIST_LIST, printed=if_nonempty),
        check=_in_place_permute,
    )
for op in (Op.ALL_GATHER_DONE, Op.ALL_REDUCE_DONE, Op.COLLECTIVE_PERMUTE_DONE):
    define(op)


def _recv_shape(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if not instr.shape.is_tuple or not instr.shape.tuple_shapes:
        return "recv must have a non-empty tuple shape"
    return None


for op in (Op.SEND, Op.SEND_DONE, Op.RECV, Op.RECV_DONE):
    define(
        op,
        channel_id(),
        AttrSpec("is_host_transfer", BOOL, default=False, printed=if_true),
        check=_recv_shape if op is Op.RECV else None,
    )
define(Op.REPLICA_ID)
define(Op.PARTITION_ID)


@shape_rule(Op.REPLICA_ID, Op.PARTITION_ID)
def device_id_shape(ctx: ShapeContext) -> Shape:
    return Shape.scalar("u32")
