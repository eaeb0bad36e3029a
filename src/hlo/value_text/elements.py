"""The text of literal elements exactly as XLA writes it (spec: notes/xla_printer.md §7.3):
`StrCat` for integers, `RoundTripFpToString` for floats, `(re, im)` for complex numbers.

Formatting is vectorized per element type: 16-bit and narrower floats go through a table of
every bit pattern, f32/f64 format each value once with Python's `%g` (the same correctly rounded
digits as C's) and re-parse them all with NumPy to decide between the short and the long form.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from .numbers import c_g

_P = PrimitiveType

# Types with signalling NaNs keep a NaN payload (XLA's NanPayloadBits: digits - 1 bits).
_SIGNALLING_NAN = frozenset([_P.F16, _P.BF16, _P.F32, _P.F64, _P.F8E5M2, _P.F8E4M3, _P.F8E3M4])
_UINT = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def nan_payload_bits(ptype: PrimitiveType) -> int:
    """Bits of NaN payload XLA keeps for `ptype` (0 for types without signalling NaNs)."""
    if ptype not in _SIGNALLING_NAN:
        return 0
    return ptype.float_params.significand_width - 1


def max_digits10(ptype: PrimitiveType) -> int:
    """std::numeric_limits<T>::max_digits10: the digits that always round-trip."""
    return math.ceil(1 + ptype.float_params.significand_width * math.log10(2))


def raw_bits(values: np.ndarray) -> np.ndarray:
    """The bit patterns of a float array as unsigned integers of the container's width."""
    return values.view(_UINT[values.dtype.itemsize * 8])


def _nan_text(negative: bool, payload: int, ptype: PrimitiveType) -> str:
    """`nan`, `-nan`, with `(0x..)` when the payload is not the plain quiet one."""
    text = "-nan" if negative else "nan"
    bits = nan_payload_bits(ptype)
    if bits and payload != 1 << (bits - 1):
        text += f"(0x{payload:x})"
    return text


# -- narrow floats: a table of every bit pattern ----------------------------------------
@functools.cache
def _table(ptype: PrimitiveType) -> np.ndarray:
    """The text of every bit pattern of a float type of at most 16 bits (an object array)."""
    width = 8 * ptype.byte_width
    patterns = np.arange(1 << width, dtype=np.uint64).astype(_UINT[width])
    with np.errstate(invalid="ignore"):
        values = patterns.view(ptype.numpy_dtype).astype(np.float64)
    digits = max_digits10(ptype)
    sign_bit = 1 << (ptype.bit_width - 1)
    mask = (1 << nan_payload_bits(ptype)) - 1
    # f8e8m0fnu has no sign bit: its NaN converts to a positive double.
    signed = ptype is not _P.F8E8M0FNU
    texts = []
    for pattern, value in zip(patterns.tolist(), values.tolist()):
        if math.isnan(value):
            texts.append(_nan_text(signed and bool(pattern & sign_bit), pattern & mask, ptype))
        else:
            texts.append(c_g(value, digits))
    return np.array(texts, dtype=object)


def _narrow_float_texts(values: np.ndarray, ptype: PrimitiveType) -> list[str]:
    patterns = raw_bits(values)
    if ptype.bit_width < 8:  # sub-byte types sit in the low bits of a byte
        patterns = patterns & np.uint8((1 << ptype.bit_width) - 1)
    return _table(ptype)[patterns].tolist()  # type: ignore[no-any-return]


# -- f32 / f64: %.{digits10}g if it parses back to the same value, else max_digits10 -------
def _parses_back_f32(texts: list[str], values: np.ndarray) -> np.ndarray:
    """absl::SimpleAtof(text) == value for each text. Parsing to double and then rounding to f32
    is exact unless the double lands exactly on a midpoint between two floats: those few are
    decided with exact rational arithmetic."""
    doubles = np.array([float(t) for t in texts], dtype=np.float64)
    with np.errstate(over="ignore"):
        floats = doubles.astype(np.float32)
    same = floats == values
    inexact = np.flatnonzero((floats.astype(np.float64) != doubles) & np.isfinite(doubles))
    if len(inexact):
        near = floats[inexact]
        up = doubles[inexact] > near.astype(np.float64)
        other = np.nextafter(near, np.where(up, np.float32(np.inf), np.float32(-np.inf)))
        ties = (near.astype(np.float64) + other.astype(np.float64)) / 2 == doubles[inexact]
        for k in np.flatnonzero(ties).tolist():
            i = int(inexact[k])
            exact = _round_tie(Fraction(texts[i]), near[k], other[k])
            same[i] = exact == values[i]
    return same  # type: ignore[no-any-return]


def _round_tie(exact: Fraction, a: np.float32, b: np.float32) -> np.float32:
    """`exact` rounded to f32 when it lies near the midpoint of adjacent floats a and b."""
    lo, hi = (a, b) if a < b else (b, a)
    mid = (Fraction(float(lo)) + Fraction(float(hi))) / 2
    if exact != mid:
        return lo if exact < mid else hi
    return lo if int(lo.view(np.uint32)) % 2 == 0 else hi


def _wide_float_texts(values: np.ndarray, ptype: PrimitiveType) -> list[str]:
    short, long = (6, 9) if ptype is _P.F32 else (15, 17)
    with np.errstate(invalid="ignore"):
        doubles = values.astype(np.float64).tolist()
    texts = _percent_g(doubles, short)
    if ptype is _P.F32:
        same = _parses_back_f32(texts, values)
    else:
        same = np.array([float(t) for t in texts], dtype=np.float64) == values
    redo = np.flatnonzero(~same).tolist()
    for i, text in zip(redo, _percent_g([doubles[i] for i in redo], long)):
        texts[i] = text
    nans = np.flatnonzero(np.isnan(values))
    if len(nans):
        bits = raw_bits(values)
        width = 8 * values.dtype.itemsize
        mask = (1 << nan_payload_bits(ptype)) - 1
        for i in nans.tolist():
            b = int(bits[i])
            texts[i] = _nan_text(bool(b >> (width - 1)), b & mask, ptype)
    return texts


def _percent_g(doubles: list[float], digits: int) -> list[str]:
    """`%.{digits}g` of each value (NaN unsigned), formatted in one C-level call."""
    if not doubles:
        return []
    return (f"%.{digits}g\n" * len(doubles) % tuple(doubles)).split("\n")[:-1]


# -- every element type ---------------------------------------------------------------
def _float_texts(values: np.ndarray, ptype: PrimitiveType) -> list[str]:
    if ptype in (_P.F32, _P.F64):
        return _wide_float_texts(values, ptype)
    return _narrow_float_texts(values, ptype)


def format_elements(values: np.ndarray, ptype: PrimitiveType) -> list[str]:
    """The text of each element of `values` (any shape, taken in row-major order) as XLA prints
    it inside an array literal (pred as 1/0)."""
    flat = np.ascontiguousarray(values).reshape(-1)
    if ptype is _P.PRED:
        return np.where(flat, "1", "0").tolist()  # type: ignore[no-any-return]
    if ptype.is_integral:
        wide = np.uint64 if ptype.is_unsigned_integral else np.int64
        return list(map(str, flat.astype(wide).tolist()))
    if ptype.is_floating_point:
        return _float_texts(flat, ptype)
    if ptype.is_complex:
        part = ptype.complex_component_type
        re = _float_texts(np.ascontiguousarray(flat.real), part)
        im = _float_texts(np.ascontiguousarray(flat.imag), part)
        return [f"({a}, {b})" for a, b in zip(re, im)]
    raise ShapeError(f"element type {ptype.text} has no literal text")


def format_element(value: object, element_type: PrimitiveType) -> str:
    """One element as XLA's Literal::GetAsString writes it (pred as true/false), after
    converting `value` to the element type."""
    array = np.asarray(value, dtype=element_type.numpy_dtype).reshape(1)
    if element_type is _P.PRED:
        return "true" if bool(array[0]) else "false"
    return format_elements(array, element_type)[0]
