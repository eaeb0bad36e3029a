"""Shape and layout strings: XLA's printer and parser tests, the issue's examples, bad input."""

from __future__ import annotations

import pytest

from hlo import COMBINE_DIMENSION, Layout, ParseError, Shape, Tile, parse_layout, parse_shape
from hlo.value_text.shape import print_program_shape, print_shape

from conftest import cases, load, structured_layout, structured_shape


@cases("layout/layout_strings", "layout_to_string")
def test_layout_to_string(row):
    layout = structured_layout(row["layout"])
    assert str(layout) == row["expected"]
    assert parse_layout(row["expected"]) == layout


@cases("layout/layout_strings", "tile_to_string")
def test_tile_to_string(row):
    assert str(Tile(tuple(row["tile"]))) == row["expected"]


@cases("layout/layout_strings", "shape_to_string_with_layout")
def test_shape_to_string_with_layout(row):
    shape = structured_shape(row["shape"])
    assert str(shape) == row["expected"]
    assert parse_shape(row["expected"]) == shape


@cases("layout/layout_strings", "shape_to_string")
def test_shape_to_string(row):
    shape = structured_shape(row["shape"])
    if "expected" in row:
        assert shape.to_string(print_layout=False) == row["expected"]
    if "expected_with_layout" in row:
        assert str(shape) == row["expected_with_layout"]
        assert parse_shape(row["expected_with_layout"]) == shape


@cases("layout/layout_strings", "program_shape_to_string")
def test_program_shape_to_string(row):
    params = [structured_shape(p) for p in row["parameters"]]
    result = structured_shape(row["result"])
    assert print_program_shape(params, row["parameter_names"], result) == row["expected"]


@cases("layout/shape_parse", "shape_parse")
def test_shape_parse(row):
    shape = parse_shape(row["text"])
    assert shape == structured_shape(row["expected"])
    assert parse_shape(str(shape)) == shape


@cases("layout/shape_parse", "shape_parse_error")
def test_shape_parse_error(row):
    with pytest.raises(ParseError) as e:
        parse_shape(row["text"])
    assert e.value.span is not None
    if row.get("error_contains") == "Dimensions size is 3, but minor to major size is 1.":
        assert row["error_contains"] in e.value.message


ISSUE_EXAMPLES = [
    "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
    "(f32[2]{0}, s32[])",
    "token[]",
    "f32[<=4,?]{1,0}",
    "s4[128]{0:E(4)}",
    "()",
    "((f32[1]{0}, ()), opaque[], token[])",
    "f32[0,3]{1,0}",
    "u32[]{:T(128)}",
    "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
    "pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}",
    "f32[10]{0:#(u32)*(u16)}",
    "f32[4,4]{1,0:D(D,C+~)}",
    "f32[2,3]{0,1:T(2,128)L(1024)E(32)S(5)M(8)}",
    "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, /*index=5*/f32[6]{0}, f32[7]{0})",
]


@pytest.mark.parametrize("text", ISSUE_EXAMPLES)
def test_round_trip(text):
    shape = parse_shape(text)
    assert str(shape) == text
    assert parse_shape(str(shape)) == shape


def test_parts_of_a_tiled_shape():
    s = parse_shape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}")
    assert s.dimensions == (8, 1, 1280, 16384)
    assert s.layout == Layout((3, 2, 0, 1), tiles=(Tile((8, 128)), Tile((2, 1))), memory_space=1)
    assert parse_shape("f32[<=4,?]").dynamic_dimensions == (True, True)
    assert parse_shape("f32[2,*]{1,0:T(*,2)}".replace("*]", "3]")).layout.tiles[0].dimensions == (
        COMBINE_DIMENSION,
        2,
    )


def test_missing_layout_is_filled_with_the_default():
    assert parse_shape("f32[2,3]") == Shape.array("f32", (2, 3))
    assert str(parse_shape("f32[2,3]")) == "f32[2,3]{1,0}"
    assert parse_shape("f32[2,3]").to_string(print_layout=False) == "f32[2,3]"


def test_memory_space_zero_is_not_printed():
    assert str(parse_shape("f32[2]{0:S(0)}")) == "f32[2]{0}"


BAD = [
    ("f32[2,3", "expected ',' or ']'", 8),
    ("f32[2,3]{1,1}", "not a permutation", 9),
    ("f32[2,3]{0}", "Dimensions size is 2, but minor to major size is 1", 9),
    ("f33[2]", "expected a primitive type", 1),
    ("f32[2]{0:T(0)}", "invalid tiles", 7),
    ("f32[2]{0:T(2)X(1)}", "expected '}' to end the layout", 14),
    ("f32[-2]", "negative", 5),
    ("(f32[2], s32[]", "expected ')'", 15),
    ("f32[2]{0:#(s32)}", "unsigned integer type", 12),
    ("token[3]", "no dimensions", 1),
    ("f32[2] junk", "expected the end of the shape", 8),
    ("f32[99999999999999999999]", "expected a dimension size", 5),
    ("", "expected a primitive type", 1),
]


@pytest.mark.parametrize("text,message,column", BAD)
def test_bad_strings_say_what_and_where(text, message, column):
    with pytest.raises(ParseError) as e:
        parse_shape(text)
    assert message in e.value.message
    assert e.value.span.column == column
    rendered = str(e.value)
    assert rendered.startswith(f"<shape>:1:{column}: error: ")
    assert rendered.splitlines()[-1].index("^") == column - 1


def test_every_kind_is_tested():
    assert {r["kind"] for r in load("layout/layout_strings")} == {
        "layout_to_string",
        "tile_to_string",
        "shape_to_string_with_layout",
        "shape_to_string",
        "program_shape_to_string",
    }
    assert print_shape(parse_shape("f32[2]"), False) == "f32[2]"
