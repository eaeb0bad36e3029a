"""Physical memory: the spec's worked examples, XLA's IndexUtil/LayoutUtil/ShapeUtil tests, the
sub-byte packing XLA:CPU uses, legacy padding and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hlo import (
    Layout,
    PaddingValue,
    ParseError,
    Shape,
    ShapeError,
    Tile,
    byte_size,
    from_physical,
    linear_index,
    memory,
    multi_index,
    parse_shape,
    physical_bytes,
    to_physical,
)

from conftest import cases, ptype

P = parse_shape


def order_in_memory(values: np.ndarray, shape: Shape) -> list:
    """The logical values in the order they lie in memory (padding as None)."""
    positions = physical_bytes.physical_positions(shape)
    out: list = [None] * memory.physical_element_count(shape)
    for value, pos in zip(values.reshape(-1), positions.reshape(-1)):
        out[pos] = value
    return out


# -- the spec's worked examples -------------------------------------------------------------
LETTERS = np.array([[1, 2, 3], [4, 5, 6]], np.int32)  # a b c / d e f


def test_2x3_minor_to_major_0_1_is_a_d_b_e_c_f():
    s = P("s32[2,3]{0,1}")
    assert np.frombuffer(to_physical(LETTERS, s), np.int32).tolist() == [1, 4, 2, 5, 3, 6]


def test_2x3_minor_to_major_1_0_is_a_b_c_d_e_f():
    s = P("s32[2,3]{1,0}")
    assert np.frombuffer(to_physical(LETTERS, s), np.int32).tolist() == [1, 2, 3, 4, 5, 6]


def test_legacy_padding_3x5_example():
    # Page 000: the [2x3] array with padded_dimensions [3,5], zero padding, dimension 0 minor.
    s = Shape.array("s32", (2, 3), Layout((0, 1), padded_dimensions=(3, 5)))
    mem = np.frombuffer(to_physical(LETTERS, s), np.int32).tolist()
    assert mem == [1, 4, 0, 2, 5, 0, 3, 6, 0, 0, 0, 0, 0, 0, 0]
    assert byte_size(s) == 15 * 4
    assert linear_index(s, (1, 2)) == 7
    assert np.array_equal(from_physical(to_physical(LETTERS, s), s), LETTERS)
    with pytest.raises(ShapeError, match="padding"):
        multi_index(s, 2)


@pytest.mark.parametrize(
    "value,expected",
    [(PaddingValue.ONE_PAD, 1), (PaddingValue.LOWEST_PAD, -(2**31)), (PaddingValue.HIGHEST_PAD, 2**31 - 1)],
)
def test_legacy_padding_values(value, expected):
    s = Shape.array("s32", (2, 3), Layout((1, 0), padded_dimensions=(2, 4), padding_value=value))
    mem = np.frombuffer(to_physical(LETTERS, s), np.int32).tolist()
    assert mem == [1, 2, 3, expected, 4, 5, 6, expected]


def test_legacy_float_padding_uses_infinities():
    s = Shape.array(
        "f32", (1, 1), Layout((1, 0), padded_dimensions=(1, 2), padding_value=PaddingValue.LOWEST_PAD)
    )
    assert np.frombuffer(to_physical(np.ones((1, 1), np.float32), s), np.float32).tolist() == [1.0, -np.inf]


def test_tiled_3x5_example():
    s = P("f32[3,5]{1,0:T(2,2)}")
    assert linear_index(s, (2, 3)) == 17
    values = np.arange(15, dtype=np.float32).reshape(3, 5)
    assert order_in_memory(values, s) == [
        0, 1, 5, 6, 2, 3, 7, 8, 4, None, 9, None,
        10, 11, None, None, 12, 13, None, None, 14, None, None, None,
    ]  # fmt: skip
    assert byte_size(s) == 24 * 4
    mem = np.frombuffer(to_physical(values, s), np.float32)
    assert mem[[9, 11, 14, 15, 18, 19, 21, 22, 23]].tolist() == [0.0] * 9  # padding bytes are zero


def test_4x8_tiled_2x4_then_2x1_figure_2():
    s = P("f32[4,8]{1,0:T(2,4)(2,1)}")
    assert physical_bytes.physical_positions(s).tolist() == [
        [0, 2, 4, 6, 8, 10, 12, 14],
        [1, 3, 5, 7, 9, 11, 13, 15],
        [16, 18, 20, 22, 24, 26, 28, 30],
        [17, 19, 21, 23, 25, 27, 29, 31],
    ]


def test_combined_dimensions_example():
    # F32[2,7,8,11,10]{4,3,2,1,0} combined into F32[112,110]{1,0} and tiled by (2,3).
    combined = P("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}")
    flat = P("f32[112,110]{1,0:T(2,3)}")
    assert byte_size(combined) == byte_size(flat) == 112 * 111 * 4
    assert np.array_equal(
        physical_bytes.physical_positions(combined).reshape(112, 110), physical_bytes.physical_positions(flat)
    )
    values = np.random.default_rng(0).standard_normal((2, 7, 8, 11, 10)).astype(np.float32)
    assert to_physical(values, combined) == to_physical(values.reshape(112, 110), flat)
    assert np.array_equal(from_physical(to_physical(values, combined), combined), values)


# -- XLA's tests ------------------------------------------------------------------------------
@cases("layout/byte_sizes")
def test_byte_sizes(row):
    kind = row["kind"]
    if kind == "byte_size_of_primitive_type":
        assert ptype(row["element_type"]).byte_width == row["expected"]
        return
    if kind == "byte_strides_is_major_to_minor":
        got = memory.byte_strides_is_major_to_minor(
            row["byte_strides"], row["dimensions"], ptype(row["element_type"])
        )
        assert got == row["expected"]
        return
    s = P(row["shape"])
    if kind in ("byte_size_of", "array_size"):
        assert byte_size(s) == row["expected"]
    elif kind == "byte_size_of_elements_recursive":
        assert memory.byte_size_recursive(s) == row["expected"]
    elif kind == "array_data_size":
        assert memory.array_data_size(s) == row["expected"]
    elif kind == "unpacked_byte_strides":
        assert list(memory.unpacked_byte_strides(s)) == row["expected"]
    elif kind == "byte_strides":
        assert memory.byte_strides(s) is None and row["expected"] is None
    elif kind == "elements_in":
        assert s.element_count == row["expected"]
    elif kind == "is_zero_element_array":
        assert s.is_zero_element == row["expected"]
    elif kind == "change_element_type_element_size":
        changed = s.with_element_type(row["new_element_type"])
        assert changed.layout.element_size_in_bits == row["expected_element_size_in_bits"]
    elif kind == "max_split_size":
        assert memory.max_split_size(s, row["dim"]) == row["expected"]
    elif kind == "max_elements_in_per_split":
        assert memory.max_elements_in_per_split(s) == row["expected"]
    else:
        pytest.fail(f"untested kind {kind}")


@cases("layout/index_mapping")
def test_index_mapping(row):
    s = P(row["shape"])
    kind = row["kind"]
    if kind == "multi_to_linear":
        assert linear_index(s, row["multi_index"]) == row["linear_index"]
    elif kind == "linear_to_multi":
        assert list(multi_index(s, row["linear_index"])) == row["multi_index"]
    elif kind == "linear_roundtrip":
        for i in row["linear_indices"]:
            assert linear_index(s, multi_index(s, i)) == i
    elif kind == "bump_indices":
        index = tuple(row["start"])
        for expected in row["sequence"]:
            index = memory.bump_indices(s, index)
            assert list(index) == expected
        assert memory.bump_indices(s, index) is None
    else:
        pytest.fail(f"untested kind {kind}")


@cases("layout/tiling")
def test_tiling(row):
    kind = row["kind"]
    if kind in ("nested_tiling_linear_index", "tiled_linear_index_doc"):
        assert linear_index(P(row["shape"]), row["multi_index"]) == row["linear_index"]
    elif kind == "nested_tiling_delinearize":
        assert list(multi_index(P(row["shape"]), row["linear_index"])) == row["multi_index"]
    elif kind == "is_untiled_layout":
        rank = len(row["dimensions"])
        layout = Layout(tuple(range(rank - 1, -1, -1)), tiles=tuple(Tile(tuple(t)) for t in row["tiles"]))
        assert memory.is_effectively_untiled(Shape.array("f32", row["dimensions"], layout)) == row["expected"]
    elif kind == "validate_layout":
        if "shape" in row:
            assert row["valid"]
            P(row["shape"])
        else:
            assert not row["valid"]
            layout = Layout(tuple(row["minor_to_major"]), tiles=tuple(Tile(tuple(t)) for t in row["tiles"]))
            with pytest.raises(ShapeError, match=row["error_contains"]):
                Shape.array(row["element_type"], row["shape_dims"], layout)
    else:
        pytest.fail(f"untested kind {kind}")


# -- sub-byte packing, from XLA:CPU -----------------------------------------------------------
PACKING = json.loads((Path(__file__).parent / "golden" / "packing.json").read_text())["cases"]


@pytest.mark.parametrize("case", PACKING, ids=lambda c: c["shape"])
def test_packing_matches_xla_cpu(case):
    s = P(case["shape"])
    values = np.array(case["values"], np.float32).astype(s.element_type.numpy_dtype)
    assert to_physical(values, s).hex() == case["bytes"]
    back = from_physical(bytes.fromhex(case["bytes"]), s)
    assert back.dtype == values.dtype and np.array_equal(back.astype(np.float32), values.astype(np.float32))


def test_unpacked_sub_byte_types_take_a_byte_each():
    s = P("s4[3]{0}")
    assert byte_size(s) == 3
    values = np.array([-1, 2, -8], ml_dtypes.int4)
    assert np.array_equal(from_physical(to_physical(values, s), s), values)


def test_wide_element_size_pads_each_element():
    s = P("pred[3]{0:E(32)}")
    data = to_physical(np.array([True, False, True]), s)
    assert data == bytes([1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0])
    assert from_physical(data, s).tolist() == [True, False, True]


def test_pred_packed_to_bits():
    s = P("pred[10]{0:E(1)}")
    values = np.array([1, 0, 1, 1, 0, 0, 0, 1, 1, 0], bool)
    data = to_physical(values, s)
    assert data == bytes([0b10001101, 0b01])
    assert from_physical(data, s).tolist() == values.tolist()


def test_f6_packs_six_bits_each():
    s = P("f6e2m3fn[4]{0:E(6)}")
    values = np.array([1.0, -0.5, 7.5, 0.0], ml_dtypes.float6_e2m3fn)
    data = to_physical(values, s)
    assert len(data) == 3 == byte_size(s)
    assert np.array_equal(from_physical(data, s), values)


def test_tail_padding_alignment_applies_to_tiled_layouts():
    assert byte_size(P("f32[5]{0:T(2)L(4)}")) == 8 * 4
    assert byte_size(P("f32[5]{0:L(4)}")) == 5 * 4  # XLA's ArraySize ignores L(n) untiled
    s = P("f32[3]{0:T(2)L(8)}")
    assert (
        to_physical(np.array([1, 2, 3], np.float32), s)
        == np.array([1, 2, 3, 0, 0, 0, 0, 0], np.float32).tobytes()
    )


def test_scalar_and_zero_sized_arrays():
    s = P("f32[]")
    assert byte_size(s) == 4 and linear_index(s, ()) == 0
    assert from_physical(to_physical(np.float32(2.5), s), s) == np.float32(2.5)
    z = P("f32[0,3]{1,0:T(2,2)}")
    assert byte_size(z) == 0 and to_physical(np.zeros((0, 3), np.float32), z) == b""
    assert from_physical(b"", z).shape == (0, 3)


def test_tuple_token_and_opaque_sizes():
    assert byte_size(P("(f32[2], s32[], token[])")) == 24
    assert byte_size(P("token[]")) == 0
    assert byte_size(P("opaque[]"), pointer_size=4) == 4


def test_dynamic_dimensions_take_their_bound():
    s = P("f32[<=4,3]")
    assert byte_size(s) == 48
    with pytest.raises(ShapeError, match="unbounded"):
        byte_size(P("f32[?,3]"))


# -- bad input ----------------------------------------------------------------------------------
def test_index_out_of_range():
    with pytest.raises(
        ShapeError, match=r"index \[3, 0\] is out of range for f32\[3,5\].*dimension 0 has size 3"
    ):
        linear_index(P("f32[3,5]{1,0:T(2,2)}"), (3, 0))
    with pytest.raises(ShapeError, match=r"has 1 entries for .* of rank 2"):
        linear_index(P("f32[3,5]"), (1,))
    with pytest.raises(ShapeError, match="tile padding"):
        multi_index(P("f32[3,5]{1,0:T(2,2)}"), 9)
    with pytest.raises(ShapeError, match="outside the buffer"):
        multi_index(P("f32[3,5]"), 15)


def test_array_that_does_not_match():
    s = P("f32[3,5]")
    with pytest.raises(ShapeError, match=r"array of shape \[5, 3\] does not match f32\[3,5\]"):
        to_physical(np.zeros((5, 3), np.float32), s)
    with pytest.raises(ShapeError, match="dtype float64 does not match"):
        to_physical(np.zeros((3, 5)), s)
    with pytest.raises(ShapeError, match="buffer of 4 bytes does not match"):
        from_physical(b"1234", s)
    with pytest.raises(ShapeError, match="not an array shape"):
        to_physical(np.zeros(1), P("(f32[1])"))
    with pytest.raises(ShapeError, match="narrower than the 32 bits"):
        to_physical(np.zeros(2, np.float32), P("f32[2]{0:E(4)}"))


def test_invalid_layouts_are_rejected_when_made():
    with pytest.raises(ShapeError, match="not a permutation"):
        Shape.array("f32", (2, 3), Layout((0, 0)))
    with pytest.raises(ShapeError, match="invalid tiles"):
        Shape.array("f32", (2, 3), Layout((1, 0), tiles=(Tile((0, 2)),)))
    with pytest.raises(ShapeError, match="ends with '\\*'"):
        byte_size(P("f32[2,3]{1,0:T(2,*)}"))
    with pytest.raises(ParseError):
        P("f32[2,3]{1,0:T()}")
