"""The three forms of a collective's replica groups (XLA's replica_group.cc), each able to list its
groups of device (or replica) ids explicitly.

- explicit lists `{{0,1},{2,3}}` (CollectiveDeviceList);
- iota `[G,S]<=[R]T(P)`: G groups of S ids, the rows of iota(G*S) reshaped to R, transposed by P
  (IotaReplicaGroupList; canonical at construction, printer notes §6.10);
- mesh axes `mesh['x'=2,'y'=2] {'y'}`: one group per position on the other axes, holding the devices
  along the listed axes (MeshAxesReplicaGroupList).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .mesh import AxisRef, Mesh, SubAxis, validate_axes
from .tile_assignment import IotaTileAssignment

__all__ = [
    "AxisRef",
    "ExplicitReplicaGroups",
    "IotaReplicaGroups",
    "Mesh",
    "MeshAxesReplicaGroups",
    "ReplicaGroups",
    "SubAxis",
]

Groups = tuple[tuple[int, ...], ...]


def _rows(array: np.ndarray, group_size: int) -> Groups:
    return tuple(tuple(row) for row in array.reshape(-1, group_size).tolist()) if array.size else ()


@dataclass(frozen=True)
class ExplicitReplicaGroups:
    """`{{0,1},{2,3}}`; `{}` (no groups) means all replicas in one group."""

    lists: Groups = ()

    def groups(self) -> Groups:
        return self.lists


@dataclass(frozen=True)
class IotaReplicaGroups:
    """`[num_groups,group_size]<=[reshape_dims]T(transpose_perm)`, canonical after construction
    (empty reshape dims mean the plain iota)."""

    num_groups: int
    group_size: int
    reshape_dims: tuple[int, ...] = ()
    transpose_perm: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        iota = IotaTileAssignment.create(
            (self.num_groups, self.group_size),
            self.reshape_dims or None,
            self.transpose_perm or None,
        )
        object.__setattr__(self, "reshape_dims", iota.reshape_dims)
        object.__setattr__(self, "transpose_perm", iota.transpose_perm)

    def array(self) -> np.ndarray:
        """The groups as a [num_groups, group_size] array."""
        return IotaTileAssignment(
            (self.num_groups, self.group_size), self.reshape_dims, self.transpose_perm
        ).array()

    def groups(self) -> Groups:
        return _rows(self.array(), self.group_size)


@dataclass(frozen=True)
class MeshAxesReplicaGroups:
    """`mesh[...] {axes}`: devices that differ only along `axes` form a group, ordered by the axes
    as listed (the first listed axis is the most major within a group)."""

    mesh: Mesh
    axes: tuple[AxisRef, ...] = ()

    def __post_init__(self) -> None:
        validate_axes(self.axes, self.mesh)

    @property
    def group_size(self) -> int:
        return math.prod(a.size(self.mesh) for a in self.axes)

    @property
    def num_groups(self) -> int:
        return self.mesh.num_devices // self.group_size

    def _reindexed_axes(self) -> tuple[list[int], list[int]]:
        """Split each mesh axis that has sub-axes in the list into pieces so that every listed
        (sub-)axis is one dimension: the new sizes, and the dimension of each listed axis
        (XLA's ComputeReindexedAxes)."""
        by_axis: dict[int, list[AxisRef]] = {}
        for a in self.axes:
            by_axis.setdefault(a.index, []).append(a)
        pieces: dict[int, tuple[list[int], list[int]]] = {}
        for index, refs in by_axis.items():
            full = self.mesh.axis_sizes[index]
            if len(refs) == 1 and refs[0].sub is None:
                pieces[index] = ([full], [0])
            elif len(refs) == 1:
                sub = refs[0].sub
                assert sub is not None
                pieces[index] = ([sub.pre_size, sub.size, full // sub.next_pre_size], [1])
            else:
                pieces[index] = _split_sub_axes(refs, full)
        sizes: list[int] = []
        offsets: list[int] = []
        for i, size in enumerate(self.mesh.axis_sizes):
            offsets.append(len(sizes))
            sizes += pieces[i][0] if i in pieces else [size]
        used: Counter[int] = Counter()
        grouped = []
        for a in self.axes:
            grouped.append(pieces[a.index][1][used[a.index]] + offsets[a.index])
            used[a.index] += 1
        return sizes, grouped

    def groups(self) -> Groups:
        if self.mesh.num_devices == 0:
            return ()
        sizes, grouped = self._reindexed_axes()
        others = [d for d in range(len(sizes)) if d not in grouped]
        devices = self.mesh.device_array().reshape(sizes).transpose(others + grouped)
        return _rows(devices, self.group_size)


def _split_sub_axes(refs: Sequence[AxisRef], full: int) -> tuple[list[int], list[int]]:
    """Pieces of one axis of size `full` cut at every listed sub-axis boundary, and the piece of
    each sub-axis in `refs` (which are all sub-axes: a whole axis would overlap them)."""
    order = sorted(range(len(refs)), key=lambda i: refs[i].pre_size)
    sizes: list[int] = []
    piece_of = [0] * len(refs)
    prefix = 1
    for i in order:
        sub = refs[i].sub
        assert sub is not None
        if sub.pre_size != prefix:
            sizes.append(sub.pre_size // prefix)
            prefix = sub.pre_size
        piece_of[i] = len(sizes)
        sizes.append(sub.size)
        prefix *= sub.size
    if prefix != full:
        sizes.append(full // prefix)
    return sizes, piece_of


ReplicaGroups = ExplicitReplicaGroups | IotaReplicaGroups | MeshAxesReplicaGroups
