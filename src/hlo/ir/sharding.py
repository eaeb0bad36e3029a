"""Shardings: how an instruction's value is laid out over devices (XLA's hlo_sharding.cc,
named_sharding.cc), and the `domain=` attribute of kDomain.

- HloSharding, the classic leaf: replicated, manual, unknown, unreduced, maximal (one device) or
  tiled over a device array, optionally with trailing subgroup dims (replicated/manual/... groups).
  Build tiled ones with `tile`, `partial_tile` and `subgroup`, which normalize as XLA does.
- NamedSharding, the mesh-based leaf: per-dimension lists of mesh axes.
- TupleSharding: a flat list of leaves, one per leaf of the tuple shape; may mix both kinds.
Metadata is carried but, as in XLA, is not part of a sharding's identity (equality, hashing).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from .mesh import AxisRef, Mesh
from .metadata import OpMetadata
from .sharding_normalize import group_minor_iota_dims_sorted, merge_subgroups
from .tile_assignment import TileAssignment

REDUCTION_OP_TYPE = "sdy::reduction_op"  # the OpMetadata op_type that carries a reduction op


class ShardingKind(enum.Enum):
    REPLICATED = "replicated"
    MANUAL = "manual"
    UNKNOWN = "unknown"
    UNREDUCED = "unreduced"
    MAXIMAL = "maximal"
    TILED = "tiled"


class SubgroupType(enum.Enum):
    """What the devices of a trailing tile dimension (`last_tile_dims={...}`) share."""

    MAXIMAL = "maximal"
    MANUAL = "manual"
    UNREDUCED = "unreduced"
    REPLICATED = "replicated"


class ReductionOp(enum.Enum):
    """How the partial values of an unreduced sharding combine."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"


@dataclass(frozen=True)
class ShardGroup:
    """`shard_as N` (shard_as=True) or `shard_like N`."""

    shard_as: bool
    group_id: int


Metadata = tuple[OpMetadata, ...]


@dataclass(frozen=True)
class HloSharding:
    """A classic (non-tuple) sharding. `device` is the device of a maximal sharding;
    `tile_assignment` the device array of a tiled one, whose trailing dims are the replication dim
    (`replicate_on_last_tile_dim`) or one dim per `subgroup_types` entry."""

    kind: ShardingKind
    device: int = 0
    tile_assignment: TileAssignment | None = None
    replicate_on_last_tile_dim: bool = False
    subgroup_types: tuple[SubgroupType, ...] = ()
    shard_group: ShardGroup | None = None
    reduction_op: ReductionOp = ReductionOp.SUM
    metadata: Metadata = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if (self.kind is ShardingKind.TILED) != (self.tile_assignment is not None):
            raise ValueError("exactly the tiled shardings have a tile assignment")

    # -- constructors (XLA's HloSharding::Replicate, SingleDevice, Tile, PartialTile, Subgroup) --
    @staticmethod
    def replicate(metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return HloSharding(ShardingKind.REPLICATED, metadata=tuple(metadata))

    @staticmethod
    def manual(metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return HloSharding(ShardingKind.MANUAL, metadata=tuple(metadata))

    @staticmethod
    def unknown(metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return HloSharding(ShardingKind.UNKNOWN, metadata=tuple(metadata))

    @staticmethod
    def unreduced(metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return HloSharding(ShardingKind.UNREDUCED, metadata=tuple(metadata))

    @staticmethod
    def maximal(device: int, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return HloSharding(ShardingKind.MAXIMAL, device=device, metadata=tuple(metadata))

    @staticmethod
    def tile(tiles: TileAssignment, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        return HloSharding(ShardingKind.TILED, tile_assignment=tiles, metadata=tuple(metadata))

    @staticmethod
    def partial_tile(tiles: TileAssignment, metadata: Sequence[OpMetadata] = ()) -> HloSharding:
        """Tiled with the last tile dim replicated; XLA sorts each replication group (keeping an
        iota where the groups are already sorted) and folds trivial cases."""
        md = tuple(metadata)
        group = tiles.dims[-1] if tiles.dims else 1
        if tiles.ndims == 1 or group == tiles.num_elements:
            return HloSharding.replicate(md)
        if group == 1:
            return HloSharding.tile(tiles.reshape(tiles.dims[:-1]), md)
        iota = tiles.iota
        if iota is not None:
            if iota.reshape_dims[iota.transpose_perm[-1]] == group:
                return HloSharding(
                    ShardingKind.TILED, tile_assignment=tiles, replicate_on_last_tile_dim=True, metadata=md
                )
            grouped = group_minor_iota_dims_sorted(iota.reshape_dims, iota.transpose_perm, group)
            if grouped is not None:
                sorted_tiles = TileAssignment.make_iota(tiles.dims, *grouped)
                return HloSharding(
                    ShardingKind.TILED,
                    tile_assignment=sorted_tiles,
                    replicate_on_last_tile_dim=True,
                    metadata=md,
                )
        devices = np.sort(tiles.array().reshape(-1, group), axis=1).reshape(tiles.dims)
        return HloSharding(
            ShardingKind.TILED,
            tile_assignment=TileAssignment.from_array(devices),
            replicate_on_last_tile_dim=True,
            metadata=md,
        )

    @staticmethod
    def subgroup(
        tiles: TileAssignment, types: Sequence[SubgroupType], metadata: Sequence[OpMetadata] = ()
    ) -> HloSharding:
        """Tiled with one trailing dim per subgroup type; XLA drops size-1 subgroup dims, merges
        dims of one type, orders the types, and folds a sharding that tiles no data dim."""
        md, types = tuple(metadata), tuple(types)
        if len(types) > tiles.ndims:
            raise ValueError(f"{len(types)} subgroup types for a {tiles.ndims}-d tile assignment")
        if not types:
            return HloSharding.tile(tiles, md)
        if len(set(types)) == 1 and math.prod(tiles.dims[: tiles.ndims - len(types)]) == 1:
            folded = {
                SubgroupType.MANUAL: HloSharding.manual,
                SubgroupType.REPLICATED: HloSharding.replicate,
                SubgroupType.UNREDUCED: HloSharding.unreduced,
            }.get(types[0])
            if folded is not None:
                return folded(md)
        tiles, types = merge_subgroups(tiles, types, list(SubgroupType))
        if not types:
            return HloSharding.tile(tiles, md)
        if types == (SubgroupType.REPLICATED,):
            return HloSharding.partial_tile(tiles, md)
        if types == (SubgroupType.MANUAL,) and tiles.num_elements == tiles.dims[-1]:
            return HloSharding.manual(md)
        if types[-1] is SubgroupType.REPLICATED:
            s = HloSharding.partial_tile(tiles, md)
            if s.kind is not ShardingKind.TILED:
                return s
            return replace(s, replicate_on_last_tile_dim=False, subgroup_types=types)
        return HloSharding(ShardingKind.TILED, tile_assignment=tiles, subgroup_types=types, metadata=md)

    # -- queries ------------------------------------------------------------------------------
    def device_array(self) -> np.ndarray:
        """The device of each tile: the tile assignment as an int64 array (trailing replication /
        subgroup dims included); a maximal sharding gives its one device as a 1-element array."""
        if self.tile_assignment is not None:
            return self.tile_assignment.array()
        if self.kind is ShardingKind.MAXIMAL:
            return np.array([self.device], dtype=np.int64)
        raise ValueError(f"a {self.kind.value} sharding has no device array")

    @property
    def num_data_dims(self) -> int:
        """Tile dims that split data dims (the tile assignment's rank minus the trailing ones)."""
        if self.tile_assignment is None:
            return 0
        return self.tile_assignment.ndims - len(self.subgroup_types) - int(self.replicate_on_last_tile_dim)

    def with_shard_group(self, group: ShardGroup | None) -> HloSharding:
        return replace(self, shard_group=group)

    def with_reduction_from_metadata(self) -> HloSharding:
        """Move `op_type="sdy::reduction_op"` metadata entries into `reduction_op` (the last wins,
        op_name MAX/MIN, else SUM), as XLA's HloSharding::FromProto does."""
        ops = [m for m in self.metadata if m.op_type == REDUCTION_OP_TYPE]
        if not ops:
            return self
        op = {"MAX": ReductionOp.MAX, "MIN": ReductionOp.MIN}.get(ops[-1].op_name, ReductionOp.SUM)
        return replace(
            self, reduction_op=op, metadata=tuple(m for m in self.metadata if m.op_type != REDUCTION_OP_TYPE)
        )


@dataclass(frozen=True)
class DimSharding:
    """The mesh axes one dimension is split over, major first; open (`?`) if not closed."""

    axes: tuple[AxisRef, ...] = ()
    is_closed: bool = True

    def sharded_size(self, mesh: Mesh) -> int:
        return math.prod(a.size(mesh) for a in self.axes)


@dataclass(frozen=True)
class NamedSharding:
    """A mesh sharding; validated at construction as XLA's VerifyNamedSharding (axes exist, do not
    overlap, are not mergeable neighbours; replicated/unreduced/manual axes sorted)."""

    mesh: Mesh
    dims: tuple[DimSharding, ...] = ()
    replicated_axes: tuple[AxisRef, ...] = ()
    unreduced_axes: tuple[AxisRef, ...] = ()
    manual_axes: tuple[AxisRef, ...] = ()
    reduction_op: ReductionOp = ReductionOp.SUM
    metadata: Metadata = field(default=(), compare=False)

    def __post_init__(self) -> None:
        seen: list[AxisRef] = []

        def track(axes: Sequence[AxisRef], what: str) -> None:
            for i, a in enumerate(axes):
                a.validate(self.mesh)
                if any(not a.can_coexist_without_overlap(b) for b in seen):
                    raise ValueError("Axes cannot coexist or axes overlap.")
                seen.append(a)
                if i and axes[i - 1].can_merge(a):
                    pair = f"{axes[i - 1].text(self.mesh)}, {a.text(self.mesh)}"
                    raise ValueError(f"Adjacent axes in {what} can be merged: {pair}")

        for d in self.dims:
            track(d.axes, "dimension sharding")
        for axes, name in (
            (self.replicated_axes, "Replicated"),
            (self.unreduced_axes, "Unreduced"),
            (self.manual_axes, "Manual"),
        ):
            if any(b < a for a, b in zip(axes, axes[1:])):
                raise ValueError(f"{name} axes must be sorted by mesh axis index and sub-axis pre-size.")
            track(axes, f"{name.lower()} axes")

    @property
    def is_maximal(self) -> bool:
        return self.mesh.is_maximal

    @property
    def is_replicated(self) -> bool:
        return (
            not self.is_maximal
            and all(d.sharded_size(self.mesh) == 1 for d in self.dims)
            and not self.unreduced_axes
            and not self.manual_axes
        )

    @property
    def is_manual(self) -> bool:
        return bool(self.manual_axes) and self.mesh.contains_all_axes_in_order(self.manual_axes)

    @property
    def is_unreduced(self) -> bool:
        return bool(self.unreduced_axes) and self.mesh.contains_all_axes_in_order(self.unreduced_axes)


Leaf = HloSharding | NamedSharding


@dataclass(frozen=True)
class TupleSharding:
    """One leaf sharding per leaf of a tuple shape, depth-first (XLA's flat tuple sharding)."""

    elements: tuple[Leaf, ...] = ()


Sharding = HloSharding | NamedSharding | TupleSharding


@dataclass(frozen=True)
class Domain:
    """`domain={kind="sharding", entry=..., exit=...}`: the shardings on the user (entry) and
    operand (exit) side of a kDomain instruction."""

    kind: str
    entry: Sharding
    exit: Sharding
