"""OpSharding (xla_data.proto) as the text of `sharding={...}` (XLA's HloSharding::ToString), so
the text parser builds the sharding IR."""

from __future__ import annotations

from typing import Any

_SIMPLE = {0: "replicated", 4: "manual", 5: "unknown", 6: "unreduced"}
_SUBGROUP = {0: "replicated", 1: "maximal", 4: "manual", 6: "unreduced"}


def sharding_text(p: Any) -> str:
    if p.type == 2:  # TUPLE
        return "{" + ", ".join(sharding_text(e) for e in p.tuple_shardings) + "}"
    return "{" + _inner(p) + _shard_group(p) + "}"


def _shard_group(p: Any) -> str:
    if not p.is_shard_group:
        return ""
    return f" shard_{'like' if p.shard_group_type == 1 else 'as'} {p.shard_group_id}"


def _inner(p: Any) -> str:
    if p.type in _SIMPLE:
        return _SIMPLE[p.type]
    if p.type == 1:  # MAXIMAL
        return f"maximal device={p.tile_assignment_devices[0]}"
    dims = ",".join(map(str, p.tile_assignment_dimensions))
    if p.iota_reshape_dims:
        devices = "<=[" + ",".join(map(str, p.iota_reshape_dims)) + "]"
        perm = list(p.iota_transpose_perm)
        if perm and perm != list(range(len(perm))):
            devices += "T(" + ",".join(map(str, perm)) + ")"
    else:
        devices = ",".join(map(str, p.tile_assignment_devices))
    text = f"devices=[{dims}]{devices}"
    if p.replicate_on_last_tile_dim:
        text += " last_tile_dim_replicate"
    if p.last_tile_dims:
        text += " last_tile_dims={" + ", ".join(_SUBGROUP[t] for t in p.last_tile_dims) + "}"
    return text


_TYPES = {"replicated": 0, "maximal": 1, "manual": 4, "unknown": 5, "unreduced": 6}
_SUBGROUP_NUMBERS = {"replicated": 0, "maximal": 1, "manual": 4, "unreduced": 6}


def sharding_to_proto(sharding: Any, p: Any) -> None:
    """Fill OpSharding `p` from an hlo.ir.sharding value (HloSharding::ToProto)."""
    from ..errors import HloError
    from ..ir.sharding import HloSharding, TupleSharding

    if isinstance(sharding, TupleSharding):
        p.type = 2
        for e in sharding.elements:
            sharding_to_proto(e, p.tuple_shardings.add())
        return
    if not isinstance(sharding, HloSharding):
        raise HloError(f"writing a {type(sharding).__name__} as an OpSharding is not supported yet")
    kind = sharding.kind.value
    if sharding.shard_group is not None:
        p.is_shard_group = True
        p.shard_group_id = sharding.shard_group.group_id
        p.shard_group_type = 0 if sharding.shard_group.shard_as else 1
    if kind == "maximal":
        p.type = 1
        p.tile_assignment_devices.append(sharding.device)
        return
    if kind in _TYPES:
        p.type = _TYPES[kind]
        return
    p.type = 3  # OTHER: tiled
    ta = sharding.tile_assignment
    assert ta is not None  # a tiled sharding has one
    p.tile_assignment_dimensions.extend(ta.dims)
    if ta.iota is not None:
        p.iota_reshape_dims.extend(ta.iota.reshape_dims)
        p.iota_transpose_perm.extend(ta.iota.transpose_perm)
    else:
        p.tile_assignment_devices.extend(ta.devices)
    p.replicate_on_last_tile_dim = sharding.replicate_on_last_tile_dim
    p.last_tile_dims.extend(_SUBGROUP_NUMBERS[t.value] for t in sharding.subgroup_types)
