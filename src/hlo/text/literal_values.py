"""Parsed literal values stored as their element type the way XLA's parser stores them (spec:
notes/xla_parser.md §11.2-§11.4): range checks with XLA's messages, NaN signs and payloads, and
XLA's rounding (f16/bf16 through f32, as Eigen does; f8/f6/f4 straight from the double).

Everything works on whole arrays: the parser collects raw values (bool, int64, float64 or
complex128) and `store` converts them at once, naming the first value XLA would refuse.
"""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np

from ..dtypes import PrimitiveType
from ..value_text.elements import nan_payload_bits, raw_bits
from .format import six_digits

_P = PrimitiveType
_F64_QUIET = 1 << 51
_F64_PAYLOAD = (1 << 52) - 1


class Rejected(Exception):
    """The value at linear `index` cannot be stored; `message` is XLA's."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


def store(raw: np.ndarray, ptype: PrimitiveType, shape_text: str) -> np.ndarray:
    """`raw` (flat) as an array of `ptype`; `shape_text` names the literal in messages."""
    if ptype is _P.PRED:
        return raw.astype(np.bool_)
    if ptype.is_integral:
        return _store_int(raw, ptype)
    if ptype.is_floating_point:
        stored, bad, message = _store_float(raw, ptype, shape_text)
    else:
        stored, bad, message = _store_complex(raw, ptype, shape_text)
    if bad is not None:
        raise Rejected(bad, message)
    return stored


def _first(mask: np.ndarray) -> int | None:
    hits = np.flatnonzero(mask)
    return int(hits[0]) if len(hits) else None


# -- integers -----------------------------------------------------------------------------
def _store_int(raw: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    bits, name = ptype.bit_width, ptype.name
    if ptype.is_unsigned_integral:
        # XLA reinterprets the int64 as uint64, so u64 takes -1 as 2^64 - 1.
        unsigned = raw.view(np.uint64)
        hi = (1 << bits) - 1
        bad = _first(unsigned > np.uint64(hi))
        if bad is not None:
            raise Rejected(
                bad,
                f"value {int(raw[bad])} is out of range for literal's primitive type "
                f"{name} namely [0, {hi}].",
            )
        return unsigned.astype(ptype.numpy_dtype)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    bad = _first((raw < lo) | (raw > hi))
    if bad is not None:
        raise Rejected(
            bad,
            f"value {int(raw[bad])} is out of range for literal's primitive type {name} namely [{lo}, {hi}].",
        )
    return raw.astype(ptype.numpy_dtype)


# -- floats -------------------------------------------------------------------------------
def float_range(ptype: PrimitiveType) -> tuple[float, float]:
    """numeric_limits lowest() and max() (f8e8m0fnu's lowest is its smallest value, 2^-127)."""
    info = ml_dtypes.finfo(ptype.numpy_dtype)  # type: ignore[no-untyped-call]
    return float(info.min), float(info.max)


def round_to(values: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    """static_cast<T>(double) as XLA compiles it: f16 and bf16 through float (Eigen), the
    8-bit and narrower types straight from the double (ml_dtypes)."""
    dtype = ptype.numpy_dtype
    with np.errstate(all="ignore"):
        if ptype is _P.F64:
            return values.copy()
        single = values.astype(np.float32)
        out = single.astype(dtype)
        if ptype in (_P.F32, _P.F16, _P.BF16):
            return out
        # NumPy casts go through float: where that first rounding lands exactly on a midpoint
        # of the narrow type, round from the side the double lies on instead.
        inexact = np.flatnonzero(np.isfinite(values) & (single.astype(np.float64) != values))
        if len(inexact):
            near = single[inexact]
            midpoints = _midpoints(ptype)
            at = np.minimum(np.searchsorted(midpoints, near), len(midpoints) - 1)
            tie = midpoints[at] == near
            toward = np.where(values[inexact] > near, np.float32(np.inf), np.float32(-np.inf))
            nudged = np.nextafter(near, toward)
            out[inexact[tie]] = nudged[tie].astype(dtype)
            if ptype is _P.F8E8M0FNU:  # no zero: positive values too small for float are its minimum
                tiny = inexact[(near == 0) & (values[inexact] > 0)]
                raw_bits(out)[tiny] = 0
        return out


@functools.cache
def _midpoints(ptype: PrimitiveType) -> np.ndarray:
    """Every point halfway between neighbouring finite values of a narrow float type, and
    halfway past its largest values (where rounding overflows), sorted."""
    patterns = np.arange(1 << ptype.bit_width, dtype=np.uint8)
    with np.errstate(invalid="ignore"):
        finite = np.unique(patterns.view(ptype.numpy_dtype).astype(np.float64))
    finite = finite[np.isfinite(finite)]
    top, below = finite[-1], finite[-2]
    edge = top * 1.5 if ptype is _P.F8E8M0FNU else top + (top - below) / 2
    inner = (finite[:-1] + finite[1:]) / 2
    return np.unique(np.concatenate([inner, [edge, -edge]]))


def _nan_bits(sign: np.ndarray, payload: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    """XLA's NanWithSignAndPayload: all-ones exponent, the sign and the payload."""
    params = ptype.float_params
    exponent = ((1 << params.exponent_width) - 1) << (params.significand_width - 1)
    return (sign << np.uint64(ptype.bit_width - 1)) | np.uint64(exponent) | payload


def _check_nans(
    values: np.ndarray, ptype: PrimitiveType, shape_text: str
) -> tuple[np.ndarray, np.ndarray | None, int | None, str]:
    """(NaN mask, their bits for `ptype` or None, first bad index, its message)."""
    nan = np.isnan(values)
    if not nan.any():
        return nan, None, None, ""
    bits = values.view(np.uint64)
    payload = bits & np.uint64(_F64_PAYLOAD)
    width = nan_payload_bits(ptype)
    if not width:
        bad = _first(nan & (payload != np.uint64(_F64_QUIET)))
        if bad is None:
            return nan, None, None, ""
        return (
            nan,
            None,
            bad,
            (
                f"tries to set NaN payload 0x{int(payload[bad]):x} to a literal in shape {shape_text} "
                f"at linear index {bad}, but {ptype.text} does not support payloads"
            ),
        )
    payload = np.where(payload == np.uint64(_F64_QUIET), np.uint64(1 << (width - 1)), payload)
    mask = (1 << width) - 1
    bad = _first(nan & (payload > np.uint64(mask)))
    message = (
        ""
        if bad is None
        else (
            f"tries to set NaN payload 0x{int(payload[bad]):x} to a literal in shape {shape_text} at "
            f"linear index {bad}, but the NaN payload is out of range (0x{mask:x})"
        )
    )
    return nan, _nan_bits(bits >> np.uint64(63), payload, ptype), bad, message


def _with_nans(stored: np.ndarray, nan: np.ndarray, nan_bits: np.ndarray | None) -> np.ndarray:
    if nan_bits is not None:
        raw_bits(stored)[nan] = nan_bits[nan]
    return stored


def _store_float(
    values: np.ndarray, ptype: PrimitiveType, shape_text: str
) -> tuple[np.ndarray, int | None, str]:
    stored = round_to(values, ptype)
    lo, hi = float_range(ptype)
    with np.errstate(all="ignore"):
        # A finite value that rounds to inf or NaN is checked as written; others pass.
        overflow = np.isfinite(values) & ~np.isfinite(stored.astype(np.float64))
        overflow &= (values > hi) | (values < lo)
    bad_range = _first(overflow)
    nan, nan_bits, bad_nan, message = _check_nans(values, ptype, shape_text)
    if bad_range is not None and (bad_nan is None or bad_range < bad_nan):
        v = float(values[bad_range])
        return (
            stored,
            bad_range,
            (
                f"value {six_digits(v)} is out of range for literal's primitive type {ptype.name} "
                f"namely [{six_digits(lo)}, {six_digits(hi)}]."
            ),
        )
    return _with_nans(stored, nan, nan_bits), bad_nan, message


# -- complex ------------------------------------------------------------------------------
def _store_complex(
    values: np.ndarray, ptype: PrimitiveType, shape_text: str
) -> tuple[np.ndarray, int | None, str]:
    part = ptype.complex_component_type
    re, im = np.ascontiguousarray(values.real), np.ascontiguousarray(values.imag)
    lo, hi = float_range(part)
    # Each finite part is checked as written, without rounding, real part first.
    bad_parts = [
        (_first(np.isfinite(x) & ((x < lo) | (x > hi))), order, name, x)
        for order, name, x in ((0, "real", re), (1, "imaginary", im))
    ]
    nan, nan_bits, bad_nan, nan_message = _check_nans(re, part, shape_text)
    candidates = [
        (
            i,
            order,
            f"{name} part {six_digits(float(x[i]))} is out of range for literal's "
            f"primitive type {ptype.name}, namely [{six_digits(lo)}, {six_digits(hi)}].",
        )
        for i, order, name, x in bad_parts
        if i is not None
    ]
    if bad_nan is not None:
        candidates.append((bad_nan, 2, nan_message))
    stored = np.empty(values.shape, ptype.numpy_dtype)
    if candidates:
        index, _, message = min(candidates)
        return stored, index, message
    real = _with_nans(round_to(re, part), nan, nan_bits)
    # XLA's quirk: the imaginary part's NaN handling looks at the real part, so a NaN real part
    # makes the imaginary part the same NaN.
    imag = _with_nans(round_to(im, part), nan, nan_bits)
    stored.real, stored.imag = real, imag
    return stored, None, ""
