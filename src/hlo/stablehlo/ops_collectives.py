"""The StableHLO collectives: all_reduce, reduce_scatter, all_gather, all_to_all (as XLA builds
it when the split and concat dimensions differ), collective_permute, collective_broadcast."""

from __future__ import annotations

from typing import Any

from ..ir.opcode import Opcode
from ..ir.replica_groups import ExplicitReplicaGroups
from ..shape import Shape
from .attrs import Dense, Struct, scalar
from .computation_converter import ComputationConverter
from .ops_table import one, rule
from .syntax import Op

Op_ = Opcode


# -- collectives ----------------------------------------------------------------------------------
def _rows(cc: ComputationConverter, value: Any) -> list[list[int]]:
    """A 2-D integer attribute (replica groups, source-target pairs) as rows, splats expanded."""
    if isinstance(value, Dense) and isinstance(value.type, Shape):
        from .dense import dense_array

        array = dense_array(cc.mc.c, value, value.type)
        return [[int(x) for x in row] for row in array.reshape(array.shape[0] if array.ndim else 1, -1)]
    return [[int(x) for x in row] for row in value]


def _groups(cc: ComputationConverter, value: Any) -> ExplicitReplicaGroups:
    if value is None:
        return ExplicitReplicaGroups(())
    return ExplicitReplicaGroups(tuple(tuple(x for x in row if x >= 0) for row in _rows(cc, value)))


def _collective_attrs(cc: ComputationConverter, op: Op) -> dict[str, Any]:
    a = op.attrs
    attrs: dict[str, Any] = {}
    if "replica_groups" in a:
        attrs["replica_groups"] = _groups(cc, a["replica_groups"])
    handle = a.get("channel_handle")
    if isinstance(handle, Struct) and int(scalar(handle.get("handle", 0))) > 0:
        attrs["channel_id"] = int(scalar(handle.get("handle")))
    if a.get("use_global_device_ids"):
        attrs["use_global_device_ids"] = True
    return attrs


@rule("stablehlo.all_reduce", "stablehlo.reduce_scatter", "stablehlo.all_gather", "stablehlo.all_to_all")
def _collective(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    short = op.name.split(".", 1)[1]
    attrs = _collective_attrs(cc, op)
    if short in ("all_reduce", "reduce_scatter"):
        attrs["to_apply"] = cc.region(op.regions[0], op.pos)
    if short == "reduce_scatter":
        attrs["dimensions"] = (int(scalar(op.attrs["scatter_dimension"])),)
    if short == "all_gather":
        attrs["dimensions"] = (int(scalar(op.attrs["all_gather_dim"])),)
    opcodes = {
        "all_reduce": Op_.ALL_REDUCE, "reduce_scatter": Op_.REDUCE_SCATTER, "all_gather": Op_.ALL_GATHER,
    }  # fmt: skip
    opcode = opcodes.get(short)
    if short == "all_to_all":
        return _all_to_all(cc, op, ins, attrs)
    assert opcode is not None
    return one(cc, op, opcode, ins, attrs)


def _all_to_all(cc: ComputationConverter, op: Op, ins: list[str], attrs: dict[str, Any]) -> list[str]:
    """HLO's array all-to-all splits and concatenates along one dimension; as XLA's conversion
    does, another concat dimension is an all-to-all along the split dimension, then a reshape
    that splits off the block index, a transpose that moves it before the concat dimension and a
    reshape that merges it in."""
    split, concat = int(scalar(op.attrs["split_dimension"])), int(scalar(op.attrs["concat_dimension"]))
    count = int(scalar(op.attrs["split_count"]))
    attrs["dimensions"] = (split,)
    shapes = [cc.shape(i) for i in ins]
    if len(ins) == 1:
        exchanged = [cc.emit(Op_.ALL_TO_ALL, ins, shapes[0], attrs, op.pos)]
    else:
        t = cc.emit(Op_.ALL_TO_ALL, ins, Shape.make_tuple(shapes), attrs, op.pos)
        exchanged = cc.unpack(t, op.pos)
    if split == concat:
        return exchanged
    out = []
    for value, shape, result in zip(exchanged, shapes, op.result_types):
        dims = list(shape.dimensions)
        blocks = [*dims[:split], count, dims[split] // count, *dims[split + 1 :]]
        reshaped = cc.emit(Op_.RESHAPE, (value,), Shape.array(shape.element_type, blocks), None, op.pos)
        target = concat if concat < split else concat + 1
        perm = [d for d in range(len(blocks)) if d != split]
        perm.insert(perm.index(target), split)
        moved = Shape.array(shape.element_type, [blocks[d] for d in perm])
        transposed = cc.emit(Op_.TRANSPOSE, (reshaped,), moved, {"dimensions": tuple(perm)}, op.pos)
        out.append(cc.emit(Op_.RESHAPE, (transposed,), result, None, op.pos))
    return out


@rule("stablehlo.collective_permute")
def _collective_permute(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    attrs = _collective_attrs(cc, op)
    rows = _rows(cc, op.attrs["source_target_pairs"])
    attrs["source_target_pairs"] = tuple((r[0], r[1]) for r in rows)
    return one(cc, op, Op_.COLLECTIVE_PERMUTE, ins, attrs)


@rule("stablehlo.collective_broadcast")
def _collective_broadcast(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    return one(cc, op, Op_.COLLECTIVE_BROADCAST, ins, _collective_attrs(cc, op))
