"""Physical memory (XLA's IndexUtil and LayoutUtil::LinearIndexForNestedTiling, spec page 004).

An array of shape `s` lies in memory as page 004 describes: the logical array (padded by the legacy
`padded_dimensions` if the layout has them) is transposed into major-to-minor order, then every
tile in turn pads its dimensions to whole tiles, splits each into (tile count, tile size) and moves
the tile sizes to the minor end; `*` entries first merge a dimension into the next more minor one.
The physical buffer is that final array in row-major order, zero-padded at the end to a multiple of
`L(n)` (XLA applies the alignment only to tiled layouts), with `E(n)` bits per element (packed
least significant bits first, as XLA:CPU packs int4) or the type's byte width when `E` is unset.

`PhysicalPlan` is computed once per shape; `to_physical`/`from_physical` run it on whole arrays
(pad + reshape + transpose, no per-element loops) and `linear_index` on one index.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .dtypes import PrimitiveType
from .errors import ShapeError
from .layout import COMBINE_DIMENSION, Layout, PaddingValue, default_layout
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


def _layout_of(shape: Shape) -> Layout:
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
    layout = _layout_of(shape)
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
    layout = _layout_of(shape)
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
    layout = _layout_of(shape)
    bits = layout.element_size_in_bits
    if layout.tiles or bits % 8:
        return None
    return _strides(shape, bits // 8 if bits else shape.element_type.byte_width)


def _strides(shape: Shape, element_bytes: int) -> tuple[int, ...]:
    strides = [0] * len(shape.dimensions)
    stride = element_bytes
    for d in _layout_of(shape).minor_to_major:
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
    layout = _layout_of(shape)
    if not layout.tiles:
        return True
    untiled = shape.with_layout(layout.replace(tiles=(), tail_padding_alignment_in_elements=1))
    if plan(shape).physical_elements != plan(untiled).physical_elements:
        return False
    return bool(np.array_equal(physical_positions(shape), physical_positions(untiled)))


# -- one index ----------------------------------------------------------------------------
def _check_index(shape: Shape, index: Sequence[int], dims: tuple[int, ...]) -> tuple[int, ...]:
    idx = tuple(int(i) for i in index)
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


# -- whole arrays -------------------------------------------------------------------------
def _tile_forward(a: np.ndarray, step: TileStep) -> np.ndarray:
    a = a.reshape(step.padded_before[: step.prefix] + step.merged)
    pad = [(0, 0)] * step.prefix + [(0, g * t - m) for g, t, m in zip(step.grid, step.tile, step.merged)]
    if any(hi for _, hi in pad):
        a = np.pad(a, pad)
    k = len(step.tile)
    interleaved = step.padded_before[: step.prefix] + tuple(
        x for g, t in zip(step.grid, step.tile) for x in (g, t)
    )
    a = a.reshape(interleaved)
    axes = list(range(step.prefix))
    axes += [step.prefix + 2 * i for i in range(k)] + [step.prefix + 2 * i + 1 for i in range(k)]
    return a.transpose(axes)


def _tile_backward(a: np.ndarray, step: TileStep) -> np.ndarray:
    k = len(step.tile)
    axes = list(range(step.prefix))
    for i in range(k):
        axes += [step.prefix + i, step.prefix + k + i]
    a = a.transpose(axes)
    head = step.padded_before[: step.prefix]
    a = a.reshape(head + tuple(g * t for g, t in zip(step.grid, step.tile)))
    a = a[(slice(None),) * step.prefix + tuple(slice(0, m) for m in step.merged)]
    return a.reshape(step.before)


def _padding_scalar(layout: Layout, element_type: PrimitiveType) -> object:
    value = layout.padding_value
    dtype = element_type.numpy_dtype
    if value in (PaddingValue.ZERO_PAD, PaddingValue.UNKNOWN_PAD):
        return dtype.type(0)
    if value is PaddingValue.ONE_PAD:
        return dtype.type(1)
    high = value is PaddingValue.HIGHEST_PAD
    if element_type is PrimitiveType.PRED:
        return np.bool_(high)
    if element_type.is_floating_point and element_type.float_params.has_infinity:
        return dtype.type(np.inf if high else -np.inf)
    if element_type.is_floating_point or element_type.is_integral:
        info = np.finfo(dtype) if element_type.is_floating_point else np.iinfo(dtype)  # type: ignore[arg-type]
        return dtype.type(info.max if high else info.min)
    raise ShapeError(f"legacy padding value {value.value} is undefined for {element_type.text}")


def physical_elements(array: np.ndarray, shape: Shape) -> np.ndarray:
    """The physical buffer of `array` as a flat array of elements, padding included."""
    p = plan(shape)
    layout = _layout_of(shape)
    a = np.asarray(array)
    if p.storage_dims != p.dims:
        fill: Any = _padding_scalar(layout, shape.element_type)
        a = np.pad(a, [(0, s - d) for s, d in zip(p.storage_dims, p.dims)], constant_values=fill)
    a = a.transpose(p.order)
    for step in p.steps:
        a = _tile_forward(a, step)
    flat = a.reshape(-1)
    if flat.size < p.physical_elements:
        flat = np.concatenate([flat, np.zeros(p.physical_elements - flat.size, flat.dtype)])
    return flat


def logical_from_elements(flat: np.ndarray, shape: Shape) -> np.ndarray:
    """The inverse of `physical_elements`."""
    p = plan(shape)
    a = flat[: math.prod(p.final_dims)].reshape(p.final_dims)
    for step in reversed(p.steps):
        a = _tile_backward(a, step)
    inverse = np.argsort(p.order)
    a = a.transpose(inverse)
    if p.storage_dims != p.dims:
        a = a[tuple(slice(0, d) for d in p.dims)]
    return np.array(a, order="C")  # np.ascontiguousarray would turn a scalar into shape (1,)


def physical_positions(shape: Shape) -> np.ndarray:
    """For every logical element (an array of the shape's dimensions), its linear index."""
    p = plan(shape)
    return logical_from_elements(np.arange(p.physical_elements, dtype=np.int64), shape)


def _check_array(array: object, shape: Shape) -> np.ndarray:
    p = plan(shape)
    dtype = shape.element_type.numpy_dtype
    if isinstance(array, np.ndarray):
        if array.dtype != dtype:
            raise ShapeError(f"an array of dtype {array.dtype} does not match {shape} (dtype {dtype})")
        a = array
    else:
        try:
            a = np.asarray(array, dtype=dtype)
        except (TypeError, ValueError) as e:
            raise ShapeError(f"the value does not convert to {shape}: {e}") from None
    if a.shape != p.dims:
        raise ShapeError(f"an array of shape {list(a.shape)} does not match {shape}")
    return a


def _encode(flat: np.ndarray, element_type: PrimitiveType, bits: int) -> bytes:
    raw = (
        flat.view(np.uint8).reshape(flat.size, -1)
        if flat.size
        else np.zeros((0, element_type.byte_width), np.uint8)
    )
    if bits == 0:
        return raw.tobytes()
    _check_bits(element_type, bits)
    width = element_type.byte_width
    if bits % 8 == 0:
        out = np.zeros((flat.size, bits // 8), np.uint8)
        out[:, :width] = raw
        return out.tobytes()
    stream = np.unpackbits(raw, axis=1, bitorder="little")
    if stream.shape[1] < bits:
        stream = np.pad(stream, [(0, 0), (0, bits - stream.shape[1])])
    return np.packbits(stream[:, :bits].reshape(-1), bitorder="little").tobytes()


def _decode(data: bytes, element_type: PrimitiveType, bits: int, count: int) -> np.ndarray:
    dtype = element_type.numpy_dtype
    width = element_type.byte_width
    buf = np.frombuffer(data, np.uint8)
    if bits == 0:
        return buf[: count * width].copy().view(dtype)
    if bits % 8 == 0:
        raw = buf[: count * (bits // 8)].reshape(count, bits // 8)[:, :width]
        return np.ascontiguousarray(raw).view(dtype).reshape(count)
    stream = np.unpackbits(buf, bitorder="little")[: count * bits].reshape(count, bits)
    value_bits = element_type.bit_width if element_type.is_sub_byte else width * 8
    kept = stream[:, : min(bits, value_bits)]
    if kept.shape[1] < width * 8:  # ml_dtypes keeps sub-byte values in the low bits, high bits 0
        kept = np.pad(kept, [(0, 0), (0, width * 8 - kept.shape[1])])
    raw = np.packbits(kept, axis=1, bitorder="little")
    return np.ascontiguousarray(raw).view(dtype).reshape(count)


def _check_bits(element_type: PrimitiveType, bits: int) -> None:
    if bits < element_type.bit_width:
        raise ShapeError(
            f"E({bits}) is narrower than the {element_type.bit_width} bits of {element_type.text}"
        )


def to_physical(array: object, shape: Shape) -> bytes:
    """The bytes of `array` laid out as `shape` says; padding bytes are zero (legacy padding
    holds the layout's padding value)."""
    a = _check_array(array, shape)
    p = plan(shape)
    return _encode(np.ascontiguousarray(physical_elements(a, shape)), shape.element_type, p.element_bits)


def from_physical(data: bytes | bytearray | memoryview | np.ndarray, shape: Shape) -> np.ndarray:
    """The logical array held by the physical buffer `data` of `shape`."""
    p = plan(shape)
    buf = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
    if len(buf) != p.byte_size:
        raise ShapeError(f"a buffer of {len(buf)} bytes does not match {shape}, which takes {p.byte_size}")
    if p.element_bits:
        _check_bits(shape.element_type, p.element_bits)
    flat = _decode(buf, shape.element_type, p.element_bits, p.physical_elements)
    return logical_from_elements(flat, shape)
