"""The tile-assignment rewrites behind XLA's HloSharding::Subgroup and PartialTile (hlo_sharding.cc):
merging subgroup dims, and regrouping an iota so each replication group is sorted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .tile_assignment import TileAssignment

T = TypeVar("T")


def merge_subgroups(
    tiles: TileAssignment, types: Sequence[T], order: Sequence[T]
) -> tuple[TileAssignment, tuple[T, ...]]:
    """Drop size-1 subgroup dims and merge the dims of each type into one, types in `order`;
    unchanged when there is nothing to do (one dim per type, one type)."""
    data_dims = tiles.ndims - len(types)
    by_type: dict[T, list[int]] = {t: [] for t in order}
    removed: list[int] = []
    needs_merging = False
    for i, t in enumerate(types):
        dim = data_dims + i
        if tiles.dims[dim] == 1:
            removed.append(dim)
            needs_merging = True
            continue
        needs_merging |= bool(by_type[t])
        by_type[t].append(dim)
    needs_merging |= sum(1 for dims in by_type.values() if dims) > 1
    if not needs_merging:
        return tiles, tuple(types)
    perm = list(range(data_dims))
    merged_shape = list(tiles.dims[:data_dims])
    merged_types: list[T] = []
    for t in order:
        dims = by_type[t]
        if not dims:
            continue
        perm += dims
        size = 1
        for d in dims:
            size *= tiles.dims[d]
        merged_shape.append(size)
        merged_types.append(t)
    full_perm = perm + removed
    if tiles.iota is not None:
        iota = tiles.iota.transpose(full_perm)
        if iota is not None:
            return TileAssignment.make_iota(merged_shape, iota.reshape_dims, iota.transpose_perm), tuple(
                merged_types
            )
    array = tiles.array().transpose(full_perm).reshape(merged_shape)
    return TileAssignment.from_array(array), tuple(merged_types)


def group_minor_iota_dims_sorted(
    dims: Sequence[int], perm: Sequence[int], group_size: int
) -> tuple[list[int], list[int]] | None:
    """Reshape dims and transpose of an iota whose minor-most `group_size` elements (one
    replication group) come out sorted, splitting one reshape dim if needed; None if impossible
    (XLA's GroupMinorIotaDimsSorted)."""
    grouped = 0
    split: tuple[int, int] | None = None
    for dim in reversed(perm):
        size = dims[dim]
        if size <= group_size:
            if group_size % size:
                return None
            group_size //= size
            grouped += 1
        else:
            if size % group_size:
                return None
            split = (dim, size // group_size)
            grouped += 1
            group_size = 1
            break
    if split is None:
        new_dims, new_perm = list(dims), list(perm)
    else:
        at, major = split
        new_dims = [*dims[:at], major, dims[at] // major, *dims[at + 1 :]]
        new_perm = []
        for p in perm:
            new_perm.append(p if p <= at else p + 1)
            if p == at:
                new_perm.append(at + 1)
    tail = len(new_perm) - grouped
    new_perm[tail:] = sorted(new_perm[tail:])
    return new_dims, new_perm
