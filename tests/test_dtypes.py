"""Element types against XLA's primitive_util tests and the proto enum."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo import PrimitiveType, ShapeError
from hlo.dtypes import Category, array_types, cast_preserves_values, from_numpy_dtype, from_text

from conftest import cases, load, ptype

ISSUE_TYPES = [
    "pred",
    "s1",
    "s2",
    "s4",
    "s8",
    "s16",
    "s32",
    "s64",
    "u1",
    "u2",
    "u4",
    "u8",
    "u16",
    "u32",
    "u64",
    "f16",
    "bf16",
    "f32",
    "f64",
    "c64",
    "c128",
    "f8e5m2",
    "f8e4m3",
    "f8e4m3fn",
    "f8e4m3b11fnuz",
    "f8e5m2fnuz",
    "f8e4m3fnuz",
    "f8e3m4",
    "f8e8m0fnu",
    "f6e3m2fn",
    "f6e2m3fn",
    "f4e2m1fn",
    "token",
    "tuple",
    "opaque",
]


@cases("layout/primitive_types", "primitive_type_enum")
def test_proto_enum(row):
    t = PrimitiveType[row["enum"]]
    assert int(t) == row["number"]
    if row["text_name"] is None:
        assert t is PrimitiveType.PRIMITIVE_TYPE_INVALID and from_text("invalid") is None
    else:
        assert t.text == row["text_name"] and from_text(row["text_name"]) is t


def test_every_type_of_the_issue_exists():
    assert all(from_text(name) is not None for name in ISSUE_TYPES)


@cases("layout/primitive_types", "float_type_params")
def test_float_params(row):
    p = ptype(row["element_type"]).float_params
    assert (p.exponent_width, p.significand_width, p.exponent_bias) == (
        row["exponent_width"],
        row["significand_width"],
        row["exponent_bias"],
    )
    assert (p.underflow_exponent, p.overflow_exponent) == (
        row["underflow_exponent"],
        row["overflow_exponent"],
    )


@pytest.mark.parametrize("t", [t for t in PrimitiveType if t.is_floating_point], ids=lambda t: t.text)
def test_float_params_agree_with_ml_dtypes(t):
    p = t.float_params
    info = ml_dtypes.finfo(t.numpy_dtype)
    assert info.nmant + 1 == p.significand_width
    assert info.minexp + 1 == p.underflow_exponent
    assert info.maxexp == p.overflow_exponent
    dtype = t.numpy_dtype
    assert bool(np.isinf(np.array(np.inf, np.float32).astype(dtype))) == p.has_infinity
    assert bool(np.isnan(np.array(np.nan, np.float32).astype(dtype))) == p.has_nan
    assert t.bit_width == info.bits


@cases("layout/primitive_types", "string_to_primitive_type")
def test_names_are_lower_case_only(row):
    got = from_text(row["text"])
    assert (got.text if got else None) == row["expected"]


@cases("layout/primitive_types", "cast_preserves_values")
def test_cast_preserves_values(row):
    source = ptype(row["from"])
    expected = set(row["preserving_to"])
    got = {t.text for t in array_types() if cast_preserves_values(source, t)}
    assert got == expected


@cases("layout/byte_sizes", "byte_size_of_primitive_type")
def test_byte_width(row):
    assert ptype(row["element_type"]).byte_width == row["expected"]


def test_categories_widths_and_dtypes():
    assert PrimitiveType.S4.category is Category.SIGNED and PrimitiveType.S4.bit_width == 4
    assert PrimitiveType.U1.is_unsigned_integral and PrimitiveType.U1.is_sub_byte
    assert not PrimitiveType.PRED.is_sub_byte and PrimitiveType.PRED.bit_width == 1
    assert PrimitiveType.F6E2M3FN.bit_width == 6 and PrimitiveType.F6E2M3FN.byte_width == 1
    assert PrimitiveType.C128.complex_component_type is PrimitiveType.F64
    assert PrimitiveType.BF16.numpy_dtype == np.dtype(ml_dtypes.bfloat16)
    assert PrimitiveType.S2.numpy_dtype == np.dtype(ml_dtypes.int2)
    assert PrimitiveType.F8E4M3FN.float_params.finite_only
    assert PrimitiveType.F8E4M3FNUZ.float_params.unsigned_zero
    assert not PrimitiveType.F8E5M2.float_params.finite_only
    assert not PrimitiveType.F4E2M1FN.float_params.has_nan


@pytest.mark.parametrize("t", array_types(), ids=lambda t: t.text)
def test_numpy_dtype_round_trip(t):
    assert from_numpy_dtype(t.numpy_dtype) is t
    assert t.numpy_dtype.itemsize == t.byte_width


@pytest.mark.parametrize(
    "name",
    [
        "token",
        "tuple",
        "opaque",
    ],
)
def test_non_array_types_have_no_dtype(name):
    t = ptype(name)
    assert not t.has_numpy_dtype and not t.is_array_type
    with pytest.raises(ShapeError, match=f"{name} holds no array elements"):
        _ = t.numpy_dtype


def test_unknown_numpy_dtype():
    with pytest.raises(ShapeError, match="no XLA element type"):
        from_numpy_dtype(np.dtype("U3"))


def test_every_row_is_used():
    kinds = {r["kind"] for r in load("layout/primitive_types")}
    assert kinds == {
        "float_type_params",
        "string_to_primitive_type",
        "cast_preserves_values",
        "primitive_type_enum",
    }
