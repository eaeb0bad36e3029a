"""LiteralProto <-> NumPy values (xla_data.proto's LiteralProto; XLA's Literal::CreateFromProto and
ToProto): the values of constants, snapshot arguments and results.

Values are stored in the order of the literal's layout (physical order): a literal with layout
{0,1} lists its elements column by column. 16-bit types are little-endian bytes, 8-bit and
smaller types one byte per element, complex numbers interleaved (real, imaginary)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import HloError
from ..literal import Literal
from ..shape import Shape
from .shapes import shape_from_proto, shape_to_proto

P = PrimitiveType
# element type -> (LiteralProto field, how it is stored: "repeated" values or "bytes")
FIELDS: dict[PrimitiveType, str] = {
    P.PRED: "preds",
    P.S1: "s1s",
    P.S2: "s2s",
    P.S4: "s4s",
    P.S8: "s8s",
    P.U1: "u1s",
    P.U2: "u2s",
    P.U4: "u4s",
    P.U8: "u8s",
    P.S16: "s16s",
    P.U16: "u16s",
    P.S32: "s32s",
    P.S64: "s64s",
    P.U32: "u32s",
    P.U64: "u64s",
    P.F16: "f16s",
    P.BF16: "bf16s",
    P.F32: "f32s",
    P.F64: "f64s",
    P.C64: "c64s",
    P.C128: "c128s",
    P.F4E2M1FN: "f4e2m1fns",
    P.F8E3M4: "f8e3m4s",
    P.F8E4M3B11FNUZ: "f8e4m3b11fnuzs",
    P.F8E4M3FN: "f8e4m3fns",
    P.F8E4M3FNUZ: "f8e4m3fnuzs",
    P.F8E4M3: "f8e4m3s",
    P.F8E5M2FNUZ: "f8e5m2fnuzs",
    P.F8E5M2: "f8e5m2s",
    P.F8E8M0FNU: "f8e8m0fnus",
}
_REPEATED = {P.PRED, P.S32, P.S64, P.U32, P.U64, P.F32, P.F64, P.C64, P.C128}


def literal_from_proto(p: Any, where: str = "literal") -> Literal:
    """The Literal a LiteralProto holds (a tuple literal for a tuple shape)."""
    shape = shape_from_proto(p.shape, f"{where}.shape")
    if shape.is_tuple:
        elements = [
            literal_from_proto(e, f"{where}.tuple_literals[{k}]") for k, e in enumerate(p.tuple_literals)
        ]
        if len(elements) != len(shape.tuple_shapes):
            raise HloError(f"{where}.tuple_literals: {len(elements)} elements for the tuple shape {shape}")
        return Literal(shape, tuple(elements))
    return Literal(shape, array_from_proto(p, shape, where))


def array_from_proto(p: Any, shape: Shape, where: str) -> np.ndarray:
    t = shape.element_type
    if t not in FIELDS:
        raise HloError(f"{where}: literals of type {t.text} are not supported")
    name = FIELDS[t]
    dtype = np.dtype(t.numpy_dtype)
    count = int(np.prod(shape.dimensions, dtype=np.int64))
    data = getattr(p, name)
    if t in _REPEATED:
        base = {P.C64: np.float32, P.C128: np.float64}.get(t, dtype)
        flat = np.asarray(list(data) if t is P.PRED else data, dtype=base)
        if t.is_complex and len(flat) % 2 == 0:
            pairs = flat
            flat = np.empty(len(pairs) // 2, dtype=dtype)
            flat.real, flat.imag = pairs[0::2], pairs[1::2]  # not re + 1j*im: 1j*inf gives a NaN real part
    else:
        raw = bytes(data)
        width = dtype.itemsize
        if len(raw) != count * width:
            raise HloError(f"{where}.{name}: {len(raw)} bytes for {count} elements of {shape}")
        flat = np.frombuffer(raw, dtype=dtype.newbyteorder("<") if width > 1 else dtype).astype(dtype)
    if flat.size != count:
        raise HloError(f"{where}.{name}: {flat.size} values for the {count} elements of {shape}")
    return to_logical(flat, shape)


def to_logical(flat: np.ndarray, shape: Shape) -> np.ndarray:
    """Row-major logical values from values in the layout's order."""
    dims = shape.dimensions
    layout = shape.layout
    if layout is None or not dims or list(layout.minor_to_major) == list(range(len(dims) - 1, -1, -1)):
        return flat.reshape(dims)
    major_to_minor = list(reversed(layout.minor_to_major))
    physical = flat.reshape([dims[d] for d in major_to_minor])
    return np.ascontiguousarray(physical.transpose(np.argsort(major_to_minor)))


def literal_to_proto(literal: Literal, p: Any) -> None:
    """Fill LiteralProto `p` (values in the layout's order)."""
    shape_to_proto(literal.shape, p.shape)
    if literal.shape.is_tuple:
        for e in literal.elements:
            literal_to_proto(e, p.tuple_literals.add())
        return
    array_to_proto(np.asarray(literal.value), literal.shape, p)


def array_to_proto(array: np.ndarray, shape: Shape, p: Any) -> None:
    t = shape.element_type
    layout = shape.layout
    if layout is not None and array.ndim > 1:
        array = array.transpose(list(reversed(layout.minor_to_major)))
    flat = np.ascontiguousarray(array).reshape(-1)
    name = FIELDS[t]
    if t in _REPEATED:
        if t.is_complex:
            pair = np.empty(flat.size * 2, dtype=flat.real.dtype)
            pair[0::2], pair[1::2] = flat.real, flat.imag
            flat = pair
        getattr(p, name).extend(flat.tolist())
    else:
        setattr(p, name, flat.astype(flat.dtype.newbyteorder("<")).tobytes())


def value_from_literal(literal: Literal) -> Any:
    """A NumPy array, or a tuple of them for a tuple literal (what the engine takes and gives)."""
    if literal.shape.is_tuple:
        return tuple(value_from_literal(e) for e in literal.elements)
    return literal.value
