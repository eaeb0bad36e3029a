"""Device meshes and references to their axes (XLA's mesh_and_axis.cc), shared by named shardings
and mesh-axes replica groups.

A mesh names the axes of an array of devices: `mesh['x'=2,'y'=4]` is `iota(8)` shaped `[2,4]`; a
non-iota mesh carries its device ids. An AxisRef points at one mesh axis, or at a sub-axis `'y':(2)2`
(the 2 devices of axis y whose stride is 2: y = pre_size x size x rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .tile_assignment import TileAssignment


@dataclass(frozen=True)
class SubAxis:
    """`:(pre_size)size`: the part of an axis with stride `pre_size` and `size` devices."""

    pre_size: int
    size: int

    def __post_init__(self) -> None:
        if self.pre_size < 1:
            raise ValueError(f"sub-axis pre-size must be >= 1, not {self.pre_size}")
        if self.size < 2:
            raise ValueError(f"sub-axis size must be > 1, not {self.size}")

    @property
    def next_pre_size(self) -> int:
        return self.pre_size * self.size


@dataclass(frozen=True)
class AxisRef:
    """Mesh axis number `index`, whole or the sub-axis `sub`."""

    index: int
    sub: SubAxis | None = None

    @property
    def pre_size(self) -> int:
        return self.sub.pre_size if self.sub is not None else 1

    def size(self, mesh: Mesh) -> int:
        return self.sub.size if self.sub is not None else mesh.axis_sizes[self.index]

    def text(self, mesh: Mesh) -> str:
        """`'name'` or `'name':(pre_size)size`, as XLA prints it (the name unescaped)."""
        sub = f":({self.sub.pre_size}){self.sub.size}" if self.sub is not None else ""
        return f"'{mesh.axis_names[self.index]}'{sub}"

    def validate(self, mesh: Mesh) -> None:
        """XLA's AxisRef::Validate: the axis exists and a sub-axis divides it strictly."""
        if not 0 <= self.index < mesh.num_axes:
            raise ValueError(
                f"Axis index must be less than number of axes. Axis index: {self.index}, "
                f"Number of axes: {mesh.num_axes}"
            )
        if self.sub is None:
            return
        axis_size = mesh.axis_sizes[self.index]
        if axis_size % self.sub.next_pre_size:
            raise ValueError(
                f"Sub-axis next_pre_size must divide the full axis size. Next pre-size: "
                f"{self.sub.next_pre_size}, Axis size: {axis_size}"
            )
        if self.sub.size >= axis_size:
            raise ValueError(
                f"Sub-axis size must be strictly less than the full axis size. Sub-axis size: "
                f"{self.sub.size}, Axis size: {axis_size}"
            )

    def can_merge(self, other: AxisRef) -> bool:
        """Consecutive sub-axes of one axis, this one major: they should be written as one."""
        return (
            self.index == other.index
            and self.sub is not None
            and other.sub is not None
            and self.sub.next_pre_size == other.sub.pre_size
        )

    def can_coexist_without_overlap(self, other: AxisRef) -> bool:
        if self.index != other.index:
            return True
        if self.sub is None or other.sub is None:
            return False
        a, b = self.sub, other.sub
        if a.next_pre_size > b.pre_size and b.next_pre_size > a.pre_size:
            return False
        return max(a.pre_size, b.pre_size) % min(a.next_pre_size, b.next_pre_size) == 0

    def __lt__(self, other: AxisRef) -> bool:
        """XLA's order: by axis, then a sub-axis with pre-size 1, the whole axis, other sub-axes."""
        if self.index != other.index:
            return self.index < other.index
        if self.sub is None:
            return other.pre_size > 1
        if other.sub is None:
            return self.pre_size == 1
        return (self.sub.pre_size, self.sub.size) < (other.sub.pre_size, other.sub.size)


def validate_axes(axes: Sequence[AxisRef], mesh: Mesh) -> None:
    """XLA's ValidateSpanOfAxes: valid axes, no two overlapping, no mergeable neighbours."""
    for axis in axes:
        axis.validate(mesh)
    for i, a in enumerate(axes):
        if any(not a.can_coexist_without_overlap(b) for b in axes[i + 1 :]):
            raise ValueError("Axes cannot coexist or axes overlap.")
    for a, b in zip(axes, axes[1:]):
        if a.can_merge(b):
            raise ValueError(f"Adjacent axes can be merged: {a.text(mesh)}, {b.text(mesh)}")


_EMPTY = TileAssignment((0,), devices=())


@dataclass(frozen=True)
class Mesh:
    """Named axes over a device array. `Mesh()` is the empty mesh `mesh[]`; `Mesh.maximal(d)` the
    one-device `maximal_mesh[device_id=d]` (no axes)."""

    axis_names: tuple[str, ...] = ()
    devices: TileAssignment = field(default=_EMPTY)

    def __post_init__(self) -> None:
        if not self.axis_names:
            if self.devices.num_elements > 1:
                raise ValueError("a mesh without axes has at most one device")
            return
        if len(self.axis_names) != self.devices.ndims:
            raise ValueError(f"{len(self.axis_names)} axis names for a {self.devices.ndims}-d device array")
        if len(set(self.axis_names)) != len(self.axis_names):
            dup = next(n for n in self.axis_names if self.axis_names.count(n) > 1)
            raise ValueError(f"Mesh has duplicate axis names. Duplicate axis name: {dup}")
        if any(s < 1 for s in self.devices.dims):
            raise ValueError("mesh axis sizes must be positive")
        if self.devices.iota is None:
            ids = np.array(self.devices.devices, dtype=np.int64)
            if (ids < 0).any():
                raise ValueError(f"Mesh device ids must be non-negative. Device id: {int(ids[ids < 0][0])}")
            if np.array_equal(ids, np.arange(ids.size)):
                raise ValueError("Non-iota device assignment has iota device id list [0,1,2,3...].")
            if not np.array_equal(np.sort(ids), np.arange(ids.size)):
                raise ValueError("Device ids must be a permutation of [0,1,2,3...].")

    @staticmethod
    def iota(names: Sequence[str], sizes: Sequence[int]) -> Mesh:
        return Mesh(tuple(names), TileAssignment.make_iota(sizes))

    @staticmethod
    def maximal(device_id: int) -> Mesh:
        return Mesh((), TileAssignment((), devices=(device_id,)))

    @property
    def axis_sizes(self) -> tuple[int, ...]:
        return self.devices.dims if self.axis_names else ()

    @property
    def num_axes(self) -> int:
        return len(self.axis_names)

    @property
    def num_devices(self) -> int:
        return self.devices.num_elements

    @property
    def is_maximal(self) -> bool:
        return not self.axis_names and self.devices.num_elements == 1

    @property
    def maximal_device(self) -> int:
        return int(self.devices.array().ravel()[0])

    @property
    def is_simple_iota(self) -> bool:
        """Device ids `iota(n)` in mesh order: the text then omits `device_ids=`."""
        iota = self.devices.iota
        return iota is not None and len(iota.reshape_dims) == 1

    def device_array(self) -> np.ndarray:
        """The device ids, one array dimension per mesh axis (1-d without axes)."""
        return self.devices.array() if self.axis_names else self.devices.array().reshape(-1)

    def contains_all_axes_in_order(self, axes: Sequence[AxisRef]) -> bool:
        """Every axis of size > 1 once, whole, in mesh order (XLA's ContainsAllMeshAxesInOrder)."""
        k = 0
        for i, size in enumerate(self.axis_sizes):
            if k < len(axes) and axes[k].index == i:
                if axes[k].sub is not None:
                    return False
                k += 1
            elif size != 1:
                return False
        return k == len(axes)

    def all_axes(self) -> tuple[AxisRef, ...]:
        return tuple(AxisRef(i) for i in range(self.num_axes))
