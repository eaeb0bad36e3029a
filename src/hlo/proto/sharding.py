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
