"""Dense element attributes (`dense<...> : tensor<...>`) as NumPy arrays of the tensor's type.

MLIR writes a dense payload as nested lists of decimal numbers (exact: it falls back to hex when
decimal would not round-trip), as a splat (one value for every element), as hex bit patterns
(`0x7FC00000` for a float32 NaN), as (re, im) pairs for complex, or as one hex string holding the
raw little-endian buffer (`"0x0000803F..."`, a splat when it holds one element)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from ..shape import Shape
from .attrs import Dense, Hex, HexBytes
from .cursor import Cursor


def _bits_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(f"<u{dtype.itemsize}")


def _element(value: Any, ptype: PrimitiveType, dtype: np.dtype[Any]) -> Any:
    if isinstance(value, Hex):
        if ptype.is_complex:
            raise ValueError("a hex bit pattern for a complex element")
        bits = np.array(value.bits, dtype=_bits_dtype(dtype))
        return bits.view(dtype)[()]
    if isinstance(value, tuple):  # (re, im), each in the complex type's part type
        part = PrimitiveType.F32 if ptype is PrimitiveType.C64 else PrimitiveType.F64
        part_dtype = np.dtype(np.float32 if part is PrimitiveType.F32 else np.float64)
        re_, im = (_element(v, part, part_dtype) for v in value)
        return complex(float(re_), float(im))
    if isinstance(value, bool):
        return value
    return value


def dense_array(c: Cursor, attr: Dense, shape: Shape) -> np.ndarray:
    """The values of `attr` as an array of `shape`'s type and dimensions."""
    ptype = shape.element_type
    dtype = np.dtype(ptype.numpy_dtype)
    dims = shape.dimensions
    count = int(np.prod(dims)) if dims else 1
    payload = attr.payload
    try:
        if isinstance(payload, HexBytes):
            width = 2 * dtype.itemsize if ptype.is_complex else dtype.itemsize
            data = payload.data
            if len(data) == width:
                data = data * count
            if len(data) != width * count:
                raise ValueError(f"{len(payload.data)} bytes of hex for {count} elements of {width} bytes")
            if ptype is PrimitiveType.PRED:
                return np.frombuffer(data, np.uint8).astype(bool).reshape(dims)
            raw = np.frombuffer(data, _bits_dtype(dtype) if not ptype.is_complex else dtype)
            return raw.view(dtype).reshape(dims).copy()
        if isinstance(payload, list):
            flat = _flatten(payload)
            if len(flat) == 1 and count != 1:
                flat = flat * count
            if len(flat) != count:
                raise ValueError(f"{len(flat)} values for {count} elements")
            values = [_element(v, ptype, dtype) for v in flat]
        else:
            values = [_element(payload, ptype, dtype)] * count
        return _convert(values, ptype, dtype).reshape(dims)
    except (ValueError, OverflowError, TypeError) as e:
        raise c.error(f"the dense constant does not fit {shape}: {e}", attr.pos) from None


def _flatten(payload: list[Any]) -> list[Any]:
    out: list[Any] = []
    for p in payload:
        out.extend(_flatten(p) if isinstance(p, list) else [p])
    return out


def _convert(values: list[Any], ptype: PrimitiveType, dtype: np.dtype[Any]) -> np.ndarray:
    if ptype is PrimitiveType.PRED:
        return np.array([bool(v) for v in values], dtype=bool)
    if ptype.is_complex:
        return np.array(values, dtype=dtype)
    if ptype.is_floating_point:
        return np.array([float(v) for v in values], dtype=np.float64).astype(dtype)
    ints = [int(v) for v in values]
    wide = np.array(ints, dtype=object)
    if ptype.is_unsigned_integral:
        wide = wide % (1 << ptype.bit_width)  # MLIR may print an unsigned value as its signed bits
    else:
        half = 1 << (ptype.bit_width - 1)
        wide = (wide + half) % (2 * half) - half
    return np.array(
        wide.tolist() or [], dtype=np.int64 if not ptype.is_unsigned_integral else np.uint64
    ).astype(dtype)
