"""Physical memory (XLA's IndexUtil and LayoutUtil::LinearIndexForNestedTiling, spec page 004).

An array of shape `s` lies in memory as page 004 describes: the logical array (padded by the legacy
`padded_dimensions` if the layout has them) is transposed into major-to-minor order, then every
tile in turn pads its dimensions to whole tiles, splits each into (tile count, tile size) and moves
the tile sizes to the minor end; `*` entries first merge a dimension into the next more minor one.
The physical buffer is that final array in row-major order, zero-padded at the end to a multiple of
`L(n)` (XLA applies the alignment only to tiled layouts), with `E(n)` bits per element (packed
least significant bits first, as XLA:CPU packs int4) or the type's byte width when `E` is unset.

`PhysicalPlan` is computed once per shape; `to_physical`/`from_physical` (hlo.physical_bytes) run
it on whole arrays (pad + reshape + transpose, no per-element loops) and `linear_index` on one index.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .dtypes import PrimitiveType
from .errors import ShapeError
from .layout import COMBINE_DIMENSION, Layout, default_layout
from .shape import UNBOUNDED, Shape


@dataclass(frozen=True)
class TileStep:
    """One tile applied to an array of dims `before` (major to minor)."""

    before: tuple[int, ...]
    lead: int  # size-1 dimensions prepended because the tile has more dimensions than `before`
    prefix: int  # leading dimensions the tile leaves alone
    groups: tuple[tuple[int, ...], ...]  # the tiled dimensions merged (by '*') into each one
    tile: tuple[int, ...]  # tile size of each merged dimension

    @property
    def merged(self) -> tuple[int, ...]:
        return tuple(math.prod(g) for g in self.groups)

    @property
    def grid(self) -> tuple[int, ...]:
        return tuple(-(-m // t) for m, t in zip(self.merged, self.tile))

    @property
    def padded_before(self) -> tuple[int, ...]:
        return (1,) * self.lead + self.before

    @property
    def after(self) -> tuple[int, ...]:
        return self.padded_before[: self.prefix] + self.grid + self.tile


@dataclass(frozen=True)
class PhysicalPlan:
    shape: Shape
    dims: tuple[int, ...]  # logical dimensions (dynamic ones at their bound)
    storage_dims: tuple[int, ...]  # after the legacy padded_dimensions
    order: tuple[int, ...]  # logical dimensions, major to minor
    steps: tuple[TileStep, ...]
    element_bits: int  # E(n), or 0 for the type's byte width
    physical_elements: int  # elements of the buffer, all padding included

    @property
    def final_dims(self) -> tuple[int, ...]:
        return self.steps[-1].after if self.steps else tuple(self.storage_dims[d] for d in self.order)

    @property
    def element_type(self) -> PrimitiveType:
        return self.shape.element_type

    @property
    def byte_size(self) -> int:
        if self.element_bits:
            return -(-self.physical_elements * self.element_bits // 8)
        return self.physical_elements * self.element_type.byte_width


def layout_of(shape: Shape) -> Layout:
    return shape.layout if shape.layout is not None else default_layout(len(shape.dimensions))


def _tile_step(before: tuple[int, ...], tile: tuple[int, ...], shape: Shape) -> TileStep:
    lead = max(0, len(tile) - len(before))
    padded = (1,) * lead + before
    prefix = len(padded) - len(tile)
    groups: list[tuple[int, ...]] = []
    sizes: list[int] = []
    pending: list[int] = []
    for d, t in zip(padded[prefix:], tile):
        pending.append(d)
        if t != COMBINE_DIMENSION:
            groups.append(tuple(pending))
            sizes.append(t)
            pending = []
    if pending:
        raise ShapeError(
            f"tile ({','.join('*' if t == COMBINE_DIMENSION else str(t) for t in tile)}) of {shape} "
            "ends with '*': its most minor dimension has no more minor dimension to merge into"
        )
    return TileStep(before, lead, prefix, tuple(groups), tuple(sizes))


@functools.lru_cache(maxsize=4096)
def plan(shape: Shape) -> PhysicalPlan:
    """The physical plan of an array shape."""
    if not shape.is_array:
        raise ShapeError(f"{shape} is not an array shape: it has no element layout in memory")
    if UNBOUNDED in shape.dimensions:
        raise ShapeError(f"{shape} has an unbounded dimension: its memory size is unknown")
    layout = layout_of(shape)
    dims = shape.dimensions
    storage = layout.padded_dimensions or dims
    order = layout.major_to_minor
    cur = tuple(storage[d] for d in order)
    steps = []
    for tile in layout.tiles:
        step = _tile_step(cur, tile.dimensions, shape)
        steps.append(step)
        cur = step.after
    elements = math.prod(cur)
    if layout.tiles:  # XLA's ShapeUtil::ArraySize aligns the tail of tiled layouts only
        align = layout.tail_padding_alignment_in_elements
        elements = -(-elements // align) * align
    bits = layout.element_size_in_bits
    if bits == shape.element_type.byte_width * 8:
        bits = 0
    return PhysicalPlan(shape, dims, tuple(storage), order, tuple(steps), bits, elements)


# -- sizes --------------------------------------------------------------------------------
def byte_size(shape: Shape, pointer_size: int = 8) -> int:
    """Bytes of the physical buffer (XLA's ShapeUtil::ByteSizeOf / ArraySize): tile padding,
    sub-byte packing, `L(n)` and legacy padding included. A tuple is its index table of
    `pointer_size`-byte pointers, a token takes 0 bytes and an opaque value one pointer."""
    if shape.is_tuple:
        return pointer_size * len(shape.tuple_shapes)
    if shape.is_token:
        return 0
    if shape.is_opaque:
        return pointer_size
    if shape.is_buffer:
        assert shape.buffer_shape is not None
        return byte_size(shape.buffer_shape)
    return plan(shape).byte_size


def byte_size_recursive(shape: Shape) -> int:
    """Bytes of all array leaves of a shape (XLA's ByteSizeOfElementsRecursive)."""
    return sum(byte_size(s) for _, s in shape.leaves() if s.is_array)


def physical_element_count(shape: Shape) -> int:
    """Elements of the physical buffer, padding included."""
    return plan(shape).physical_elements


def array_data_size(shape: Shape) -> int:
    """Bytes up to and including the last element (XLA's ShapeUtil::ArrayDataSize)."""
    p = plan(shape)
    if 0 in p.dims:
        return 0
    size = linear_index(shape, tuple(d - 1 for d in p.dims)) + 1
    if p.element_bits:
        return -(-size * p.element_bits // 8)
    return size * shape.element_type.byte_width


def max_split_size(shape: Shape, dim: int) -> int:
    """The largest piece of logical dimension `dim` under the layout's split configs."""
    layout = layout_of(shape)
    size = shape.dimensions[dim]
    for split in layout.split_configs:
        if layout.major(split.dimension) == dim:
            bounds = (0, *split.split_indices, size)
            return max(b - a for a, b in zip(bounds, bounds[1:]))
    return size


def max_elements_in_per_split(shape: Shape) -> int:
    return math.prod(max_split_size(shape, d) for d in range(len(shape.dimensions)))


def unpacked_byte_strides(shape: Shape) -> tuple[int, ...]:
    """Bytes between neighbours along each logical dimension of an untiled layout, one whole
    byte per sub-byte element (XLA's ShapeUtil::UnpackedByteStrides)."""
    return _strides(shape, shape.element_type.byte_width)


def byte_strides(shape: Shape) -> tuple[int, ...] | None:
    """Byte strides of an untiled layout, or None when elements are not whole bytes or the
    layout is tiled (XLA's ShapeUtil::ByteStrides)."""
    layout = layout_of(shape)
    bits = layout.element_size_in_bits
    if layout.tiles or bits % 8:
        return None
    return _strides(shape, bits // 8 if bits else shape.element_type.byte_width)


def _strides(shape: Shape, element_bytes: int) -> tuple[int, ...]:
    strides = [0] * len(shape.dimensions)
    stride = element_bytes
    for d in layout_of(shape).minor_to_major:
        strides[d] = stride
        stride *= shape.dimensions[d]
    return tuple(strides)


def byte_strides_is_major_to_minor(
    strides: Sequence[int], dims: Sequence[int], element_type: PrimitiveType
) -> bool:
    """Whether `strides` are those of the default (major-to-minor) layout."""
    stride = element_type.byte_width
    for s, d in zip(reversed(strides), reversed(dims)):
        if s != stride:
            return False
        stride *= d
    return True


def is_effectively_untiled(shape: Shape) -> bool:
    """Whether the tiled layout puts every element where the untiled one would, with no padding
    (XLA's LayoutUtil::IsUntiledLayout); checks every element."""
    layout = layout_of(shape)
    if not layout.tiles:
        return True
    untiled = shape.with_layout(layout.replace(tiles=(), tail_padding_alignment_in_elements=1))
    if plan(shape).physical_elements != plan(untiled).physical_elements:
        return False
    from .physical_bytes import physical_positions

    return bool(np.array_equal(physical_positions(shape), physical_positions(untiled)))


# -- one index ----------------------------------------------------------------------------
def _check_index(shape: Shape, index: Sequence[int], dims: tuple[int, ...]) -> tuple[int, ...]:
    try:
        idx = tuple(operator.index(i) for i in index)
    except TypeError:
        raise ShapeError(f"an index of {shape} is a sequence of integers: got {index!r}") from None
    if len(idx) != len(dims):
        raise ShapeError(f"index {list(idx)} has {len(idx)} entries for {shape} of rank {len(dims)}")
    for k, (i, d) in enumerate(zip(idx, dims)):
        if not 0 <= i < d:
            raise ShapeError(f"index {list(idx)} is out of range for {shape}: dimension {k} has size {d}")
    return idx


def linear_index(shape: Shape, index: Sequence[int]) -> int:
    """Position of the element at logical `index` in the physical buffer, in elements."""
    p = plan(shape)
    idx = _check_index(shape, index, p.dims)
    return int(ravel_index(forward_index(p, idx), p.final_dims))


Index = tuple[Any, ...]  # of ints, or of NumPy integer arrays broadcast together


def forward_index(p: PhysicalPlan, index: Index, steps: int | None = None) -> Index:
    """The index in the tiled array after `steps` tiles (all by default) of the logical `index`;
    works on ints and, elementwise, on NumPy integer arrays."""
    cur = tuple(index[d] for d in p.order)
    for step in p.steps[:steps]:
        padded = (0,) * step.lead + cur
        tail = padded[step.prefix :]
        merged = []
        pos = 0
        for group in step.groups:
            value = tail[pos]
            for size in group[1:]:
                pos += 1
                value = value * size + tail[pos]
            pos += 1
            merged.append(value)
        cur = (
            padded[: step.prefix]
            + tuple(m // t for m, t in zip(merged, step.tile))
            + tuple(m % t for m, t in zip(merged, step.tile))
        )
    return cur


def ravel_index(index: Index, dims: tuple[int, ...]) -> Any:
    linear: Any = 0
    for i, d in zip(index, dims):
        linear = linear * d + i
    return linear


def multi_index(shape: Shape, linear: int) -> tuple[int, ...]:
    """The logical index of the element at physical position `linear` (the inverse of
    `linear_index`); a position that holds padding is an error."""
    p = plan(shape)
    total = math.prod(p.final_dims)
    if not 0 <= linear < total:
        what = "padding" if 0 <= linear < p.physical_elements else "outside the buffer"
        raise ShapeError(f"linear index {linear} of {shape} is {what}")
    cur = []
    rest = linear
    for d in reversed(p.final_dims):
        rest, r = divmod(rest, d)
        cur.append(r)
    idx = tuple(reversed(cur))
    for step in reversed(p.steps):
        k = len(step.tile)
        head, grid, within = idx[: step.prefix], idx[step.prefix : step.prefix + k], idx[step.prefix + k :]
        tail: list[int] = []
        for g, w, t, m, group in zip(grid, within, step.tile, step.merged, step.groups):
            value = g * t + w
            if value >= m:
                raise ShapeError(f"linear index {linear} of {shape} is tile padding")
            parts = []
            for size in reversed(group):
                value, r = divmod(value, size)
                parts.append(r)
            tail.extend(reversed(parts))
        padded = head + tuple(tail)
        idx = padded[step.lead :]
    logical = [0] * len(p.dims)
    for pos, d in enumerate(p.order):
        if idx[pos] >= p.dims[d]:
            raise ShapeError(f"linear index {linear} of {shape} is layout padding")
        logical[d] = idx[pos]
    return tuple(logical)


def bump_indices(shape: Shape, index: Sequence[int]) -> tuple[int, ...] | None:
    """The next index in row-major logical order (last dimension fastest), or None at the end
    (XLA's IndexUtil::BumpIndices)."""
    dims = shape.dimensions
    idx = list(index)
    for k in range(len(idx) - 1, -1, -1):
        if idx[k] + 1 < dims[k]:
            idx[k] += 1
            return tuple(idx)
        idx[k] = 0
    return None
