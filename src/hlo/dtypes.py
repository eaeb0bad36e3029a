"""XLA's element types (xla_data.proto `PrimitiveType`) and the one bridge to NumPy dtypes.

Every type is a row of one table: its text name, proto number, bit width, category, NumPy dtype
(ml_dtypes for the narrow ones) and, for floats, XLA's `primitive_util` parameters. `token`,
`tuple`, `opaque`, `buffer` and `invalid` have no NumPy dtype: they hold no array elements.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from .errors import ShapeError


class Category(enum.Enum):
    PRED = "pred"
    SIGNED = "signed integer"
    UNSIGNED = "unsigned integer"
    FLOAT = "floating point"
    COMPLEX = "complex"
    TOKEN = "token"
    TUPLE = "tuple"
    OPAQUE = "opaque"
    BUFFER = "buffer"
    INVALID = "invalid"


class PrimitiveType(enum.IntEnum):
    """The proto enum; the member's value is its number in xla_data.proto."""

    PRIMITIVE_TYPE_INVALID = 0
    PRED = 1
    S1 = 30
    S2 = 26
    S4 = 21
    S8 = 2
    S16 = 3
    S32 = 4
    S64 = 5
    U1 = 31
    U2 = 27
    U4 = 22
    U8 = 6
    U16 = 7
    U32 = 8
    U64 = 9
    F16 = 10
    F32 = 11
    BF16 = 16
    F64 = 12
    F8E5M2 = 19
    F8E4M3 = 28
    F8E4M3FN = 20
    F8E4M3B11FNUZ = 23
    F8E3M4 = 29
    F8E5M2FNUZ = 24
    F8E4M3FNUZ = 25
    F8E8M0FNU = 33
    F6E3M2FN = 35
    F6E2M3FN = 36
    F4E2M1FN = 32
    C64 = 15
    C128 = 18
    TUPLE = 13
    OPAQUE_TYPE = 14
    TOKEN = 17
    BUFFER = 34

    # The properties below read the row of TYPE_TABLE; they are what the rest of `hlo` uses.
    @property
    def info(self) -> TypeInfo:
        return TYPE_TABLE[self]

    @property
    def text(self) -> str:
        """The lower-case name XLA prints (`f32`, `bf16`, `opaque`, ...)."""
        return TYPE_TABLE[self].text

    @property
    def bit_width(self) -> int:
        return TYPE_TABLE[self].bit_width

    @property
    def byte_width(self) -> int:
        """Bytes one unpacked element takes (sub-byte types take one byte unless packed)."""
        return TYPE_TABLE[self].byte_width

    @property
    def category(self) -> Category:
        return TYPE_TABLE[self].category

    @property
    def is_array_type(self) -> bool:
        """True for the types an array can hold (everything but token/tuple/opaque/buffer)."""
        return TYPE_TABLE[self].category not in _NON_ARRAY

    @property
    def is_integral(self) -> bool:
        return self.category in (Category.SIGNED, Category.UNSIGNED)

    @property
    def is_signed_integral(self) -> bool:
        return self.category is Category.SIGNED

    @property
    def is_unsigned_integral(self) -> bool:
        return self.category is Category.UNSIGNED

    @property
    def is_floating_point(self) -> bool:
        return self.category is Category.FLOAT

    @property
    def is_complex(self) -> bool:
        return self.category is Category.COMPLEX

    @property
    def is_sub_byte(self) -> bool:
        """XLA's IsSubByteNonPredType: an array type other than pred narrower than 8 bits."""
        return self.is_array_type and self is not PrimitiveType.PRED and self.bit_width < 8

    @property
    def has_numpy_dtype(self) -> bool:
        return TYPE_TABLE[self].dtype is not None

    @property
    def numpy_dtype(self) -> np.dtype:
        dtype = TYPE_TABLE[self].dtype
        if dtype is None:
            raise ShapeError(f"element type {self.text} holds no array elements: it has no NumPy dtype")
        return dtype

    @property
    def float_params(self) -> FloatParams:
        params = TYPE_TABLE[self].float_params
        if params is None:
            raise ShapeError(f"element type {self.text} is not a floating-point type")
        return params

    @property
    def complex_component_type(self) -> PrimitiveType:
        if self is PrimitiveType.C64:
            return PrimitiveType.F32
        if self is PrimitiveType.C128:
            return PrimitiveType.F64
        raise ShapeError(f"element type {self.text} is not a complex type")


@dataclass(frozen=True)
class FloatParams:
    """XLA's primitive_util float parameters (std::numeric_limits conventions) and specials.

    significand_width counts the implicit leading bit; underflow_exponent is the smallest
    normal's exponent plus one (numeric_limits::min_exponent); overflow_exponent is max_exponent.
    """

    exponent_width: int
    significand_width: int
    exponent_bias: int
    underflow_exponent: int
    overflow_exponent: int
    has_infinity: bool = True
    has_nan: bool = True
    has_negative_zero: bool = True

    @property
    def finite_only(self) -> bool:
        """The `fn` suffix: no infinities."""
        return not self.has_infinity

    @property
    def unsigned_zero(self) -> bool:
        """The `uz` suffix (and e8m0fnu): no negative zero."""
        return not self.has_negative_zero


@dataclass(frozen=True)
class TypeInfo:
    text: str
    bit_width: int
    byte_width: int
    category: Category
    dtype: np.dtype | None
    float_params: FloatParams | None = None


_NON_ARRAY = (Category.TOKEN, Category.TUPLE, Category.OPAQUE, Category.BUFFER, Category.INVALID)
_P = PrimitiveType
_C = Category


def _dt(t: object) -> np.dtype:
    return np.dtype(t)  # type: ignore[call-overload,no-any-return]


# fn: finite (no infinities); uz: unsigned zero (no -0); e8m0fnu has neither sign nor zero.
_FN = {"has_infinity": False}
_FNUZ = {"has_infinity": False, "has_negative_zero": False}
_NO_SPECIALS = {"has_infinity": False, "has_nan": False}

TYPE_TABLE: dict[PrimitiveType, TypeInfo] = {
    _P.PRIMITIVE_TYPE_INVALID: TypeInfo("invalid", 0, 0, _C.INVALID, None),
    _P.PRED: TypeInfo("pred", 1, 1, _C.PRED, _dt(np.bool_)),
    _P.S1: TypeInfo("s1", 1, 1, _C.SIGNED, _dt(ml_dtypes.int1)),
    _P.S2: TypeInfo("s2", 2, 1, _C.SIGNED, _dt(ml_dtypes.int2)),
    _P.S4: TypeInfo("s4", 4, 1, _C.SIGNED, _dt(ml_dtypes.int4)),
    _P.S8: TypeInfo("s8", 8, 1, _C.SIGNED, _dt(np.int8)),
    _P.S16: TypeInfo("s16", 16, 2, _C.SIGNED, _dt(np.int16)),
    _P.S32: TypeInfo("s32", 32, 4, _C.SIGNED, _dt(np.int32)),
    _P.S64: TypeInfo("s64", 64, 8, _C.SIGNED, _dt(np.int64)),
    _P.U1: TypeInfo("u1", 1, 1, _C.UNSIGNED, _dt(ml_dtypes.uint1)),
    _P.U2: TypeInfo("u2", 2, 1, _C.UNSIGNED, _dt(ml_dtypes.uint2)),
    _P.U4: TypeInfo("u4", 4, 1, _C.UNSIGNED, _dt(ml_dtypes.uint4)),
    _P.U8: TypeInfo("u8", 8, 1, _C.UNSIGNED, _dt(np.uint8)),
    _P.U16: TypeInfo("u16", 16, 2, _C.UNSIGNED, _dt(np.uint16)),
    _P.U32: TypeInfo("u32", 32, 4, _C.UNSIGNED, _dt(np.uint32)),
    _P.U64: TypeInfo("u64", 64, 8, _C.UNSIGNED, _dt(np.uint64)),
    _P.F16: TypeInfo("f16", 16, 2, _C.FLOAT, _dt(np.float16), FloatParams(5, 11, 15, -13, 16)),
    _P.F32: TypeInfo("f32", 32, 4, _C.FLOAT, _dt(np.float32), FloatParams(8, 24, 127, -125, 128)),
    _P.BF16: TypeInfo("bf16", 16, 2, _C.FLOAT, _dt(ml_dtypes.bfloat16), FloatParams(8, 8, 127, -125, 128)),
    _P.F64: TypeInfo("f64", 64, 8, _C.FLOAT, _dt(np.float64), FloatParams(11, 53, 1023, -1021, 1024)),
    _P.F8E5M2: TypeInfo("f8e5m2", 8, 1, _C.FLOAT, _dt(ml_dtypes.float8_e5m2), FloatParams(5, 3, 15, -13, 16)),
    _P.F8E4M3: TypeInfo("f8e4m3", 8, 1, _C.FLOAT, _dt(ml_dtypes.float8_e4m3), FloatParams(4, 4, 7, -5, 8)),
    _P.F8E4M3FN: TypeInfo(
        "f8e4m3fn",
        8,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float8_e4m3fn),
        FloatParams(4, 4, 7, -5, 9, **_FN),
    ),
    _P.F8E4M3B11FNUZ: TypeInfo(
        "f8e4m3b11fnuz",
        8,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float8_e4m3b11fnuz),
        FloatParams(4, 4, 11, -9, 5, **_FNUZ),
    ),
    _P.F8E3M4: TypeInfo("f8e3m4", 8, 1, _C.FLOAT, _dt(ml_dtypes.float8_e3m4), FloatParams(3, 5, 3, -1, 4)),
    _P.F8E5M2FNUZ: TypeInfo(
        "f8e5m2fnuz",
        8,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float8_e5m2fnuz),
        FloatParams(5, 3, 16, -14, 16, **_FNUZ),
    ),
    _P.F8E4M3FNUZ: TypeInfo(
        "f8e4m3fnuz",
        8,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float8_e4m3fnuz),
        FloatParams(4, 4, 8, -6, 8, **_FNUZ),
    ),
    _P.F8E8M0FNU: TypeInfo(
        "f8e8m0fnu",
        8,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float8_e8m0fnu),
        FloatParams(8, 1, 127, -126, 128, **_FNUZ),
    ),
    _P.F6E3M2FN: TypeInfo(
        "f6e3m2fn",
        6,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float6_e3m2fn),
        FloatParams(3, 3, 3, -1, 5, **_NO_SPECIALS),
    ),
    _P.F6E2M3FN: TypeInfo(
        "f6e2m3fn",
        6,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float6_e2m3fn),
        FloatParams(2, 4, 1, 1, 3, **_NO_SPECIALS),
    ),
    _P.F4E2M1FN: TypeInfo(
        "f4e2m1fn",
        4,
        1,
        _C.FLOAT,
        _dt(ml_dtypes.float4_e2m1fn),
        FloatParams(2, 2, 1, 1, 3, **_NO_SPECIALS),
    ),
    _P.C64: TypeInfo("c64", 64, 8, _C.COMPLEX, _dt(np.complex64)),
    _P.C128: TypeInfo("c128", 128, 16, _C.COMPLEX, _dt(np.complex128)),
    _P.TUPLE: TypeInfo("tuple", 0, 0, _C.TUPLE, None),
    _P.OPAQUE_TYPE: TypeInfo("opaque", 0, 0, _C.OPAQUE, None),
    _P.TOKEN: TypeInfo("token", 0, 0, _C.TOKEN, None),
    _P.BUFFER: TypeInfo("buffer", 0, 0, _C.BUFFER, None),
}

_BY_TEXT = {info.text: t for t, info in TYPE_TABLE.items() if t is not _P.PRIMITIVE_TYPE_INVALID}
_BY_DTYPE = {info.dtype: t for t, info in TYPE_TABLE.items() if info.dtype is not None}


def from_text(name: str) -> PrimitiveType | None:
    """The type XLA names `name` (lower case only, as XLA), or None."""
    return _BY_TEXT.get(name)


def from_numpy_dtype(dtype: object) -> PrimitiveType:
    """The element type of a NumPy (or ml_dtypes) dtype."""
    try:
        return _BY_DTYPE[np.dtype(dtype)]  # type: ignore[call-overload]
    except (KeyError, TypeError):
        raise ShapeError(f"NumPy dtype {dtype} has no XLA element type") from None


def array_types() -> tuple[PrimitiveType, ...]:
    """Every type an array can hold, in proto-number order."""
    return tuple(sorted((t for t in PrimitiveType if t.is_array_type), key=int))


def cast_preserves_values(from_type: PrimitiveType, to_type: PrimitiveType) -> bool:
    """XLA's primitive_util::CastPreservesValues: a convert from `from_type` loses nothing."""
    if from_type is to_type:
        return True
    if to_type is _P.F8E8M0FNU:  # it has neither zero nor sign: no other type's values all fit
        return False
    if from_type is _P.PRED:
        return True
    if to_type is _P.PRED:
        return False
    if to_type.is_complex:
        component = from_type.complex_component_type if from_type.is_complex else from_type
        return cast_preserves_values(component, to_type.complex_component_type)
    if from_type.is_complex:
        return False
    if from_type.is_floating_point and to_type.is_floating_point:
        f, t = from_type.float_params, to_type.float_params
        return (
            (not f.has_infinity or t.has_infinity)
            and (not f.has_nan or t.has_nan)
            and (not f.has_negative_zero or t.has_negative_zero)
            and f.significand_width <= t.significand_width
            and f.exponent_width <= t.exponent_width
            and f.underflow_exponent - f.significand_width >= t.underflow_exponent - t.significand_width
            and f.overflow_exponent <= t.overflow_exponent
        )
    if not from_type.is_integral:
        return False
    # Non-sign bits of each integer type.
    from_bits = from_type.bit_width - (1 if from_type.is_signed_integral else 0)
    to_bits = to_type.bit_width - (1 if to_type.is_signed_integral else 0)
    if to_type.is_floating_point:
        t = to_type.float_params
        return from_bits <= t.significand_width and from_type.bit_width - 1 < t.overflow_exponent
    if from_type.is_signed_integral and to_type.is_unsigned_integral:
        return False
    return from_bits <= to_bits
