"""Whole arrays to and from the bytes of their layout (spec page 004): the physical plan of
hlo.memory run forward (pad + reshape + transpose per tile, then packing to E(n) bits) or
backward, with no per-element loops."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .dtypes import PrimitiveType
from .errors import ShapeError
from .layout import Layout, PaddingValue
from .memory import TileStep, layout_of, plan
from .shape import Shape


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
    layout = layout_of(shape)
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
    from . import budget

    budget.check(max(p.byte_size, p.physical_elements * a.itemsize), f"the physical buffer of {shape}",
                 budget.default_budget())  # fmt: skip
    return _encode(np.ascontiguousarray(physical_elements(a, shape)), shape.element_type, p.element_bits)


def from_physical(data: bytes | bytearray | memoryview | np.ndarray, shape: Shape) -> np.ndarray:
    """The logical array held by the physical buffer `data` of `shape`."""
    p = plan(shape)
    if not isinstance(data, (bytes, bytearray, memoryview, np.ndarray)):
        raise ShapeError(f"from_physical takes bytes, a memoryview or an array: got {type(data).__name__}")
    buf = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
    if len(buf) != p.byte_size:
        raise ShapeError(f"a buffer of {len(buf)} bytes does not match {shape}, which takes {p.byte_size}")
    if p.element_bits:
        _check_bits(shape.element_type, p.element_bits)
    flat = _decode(buf, shape.element_type, p.element_bits, p.physical_elements)
    return logical_from_elements(flat, shape)
