"""Shape rules and builder functions of the data-movement ops: broadcast, reshape, transpose,
reverse, iota, concatenate, slice, dynamic-slice, dynamic-update-slice, pad, the dynamic
dimension sizes, bitcast and copies. Tables of good cases (dynamic dimensions included) and bad
ones, page 003's worked examples, HLO text (omitted and written result shapes, the golden dumps)
and build -> text -> parse round trips."""

# ruff: noqa: E501  (tables of cases, one per line, with the message each must give)
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hlo
from hlo import ops
from hlo.ir.attrs import PaddingConfig, PaddingDimension
from hlo.ops.registry import spec
from shape_checks import BuildFn, assert_round_trip, build_ops, entry_module
from shape_checks import rule_errors as shape_rule_errors

GOLDEN = sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo"))
SRC = Path(hlo.__file__).parent / "ops"
MY_MODULES = (
    "elementwise",
    "compare",
    "convert",
    "ternary",
    "shape_ops",
    "reshape",
    "slicing",
    "concat_pad",
    "data_ops",
)


def rule_errors(text: str) -> list[str]:
    return shape_rule_errors(text, MY_MODULES)


# -- builder functions: good cases --------------------------------------------------------------
GOOD: list[tuple[str, list[str], BuildFn, str, list[str]]] = [
    # Broadcast (page 003: a scalar to {2, 3}) and BroadcastInDim (page 003's s32[2] examples)
    ("broadcast scalar", ["f32[]"], lambda p, b: ops.Broadcast(p[0], [2, 3]), "f32[2,3]", ["broadcast"]),
    ("broadcast dynamic", ["f32[<=2,3]"], lambda p, b: ops.Broadcast(p[0], [4]), "f32[4,<=2,3]", ["broadcast"]),
    ("broadcast none", ["s32[2]"], lambda p, b: ops.Broadcast(p[0], []), "s32[2]", ["broadcast"]),
    ("in-dim rows", ["s32[2]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 2], [1]), "s32[2,2]", ["broadcast"]),
    ("in-dim columns", ["s32[2]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 2], [0]), "s32[2,2]", ["broadcast"]),
    ("in-dim size 1", ["f32[1,3]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 3], [0, 1]), "f32[2,3]",
     ["broadcast", "reshape", "broadcast"]),
    ("in-dim bounded", ["f32[<=3]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 3], [1]), "f32[2,<=3]", ["broadcast"]),
    ("in-dim scalar", ["f32[]"], lambda p, b: ops.BroadcastInDim(p[0], [2], []), "f32[2]", ["broadcast"]),
    ("in-dim middle", ["f32[3]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 3, 4], [1]), "f32[2,3,4]", ["broadcast"]),
    # Reshape (page 003's v: f32[4x2x3]) and its dynamic dimensions
    ("reshape 24", ["f32[4,2,3]"], lambda p, b: ops.Reshape(p[0], [24]), "f32[24]", ["reshape"]),
    ("reshape 8x3", ["f32[4,2,3]"], lambda p, b: ops.Reshape(p[0], [8, 3]), "f32[8,3]", ["reshape"]),
    ("reshape to scalar", ["f32[1,1]"], lambda p, b: ops.Reshape(p[0], []), "f32[]", ["reshape"]),
    ("reshape from scalar", ["f32[]"], lambda p, b: ops.Reshape(p[0], [1, 1]), "f32[1,1]", ["reshape"]),
    ("reshape keeps bounded", ["f32[<=4,2,3]"], lambda p, b: ops.Reshape(p[0], [4, 6]), "f32[<=4,6]", ["reshape"]),
    ("reshape merges bounded", ["f32[4,<=6]"], lambda p, b: ops.Reshape(p[0], [24]), "f32[<=24]", ["reshape"]),
    ("reshape size-1 dynamic", ["f32[2,<=1]"], lambda p, b: ops.Reshape(p[0], [2]), "f32[<=2]", ["reshape"]),
    ("reshape split ambiguous", ["f32[<=6]"], lambda p, b: ops.Reshape(p[0], [2, 3]), "f32[2,3]", ["reshape"]),
    ("reshape inferred dim", ["f32[<=6]"], lambda p, b: ops.ReshapeWithInferredDimension(p[0], [2, 3], 1),
     "f32[2,<=3]", ["reshape"]),
    ("reshape unbounded", ["f32[?,2]"], lambda p, b: ops.Reshape(p[0], [4]), "f32[4]", ["reshape"]),
    ("reshape older form", ["f32[2,3]"], lambda p, b: ops.Reshape(p[0], [1, 0], [6]), "f32[6]", ["transpose", "reshape"]),
    ("reshape older identity", ["f32[2,3]"], lambda p, b: ops.Reshape(p[0], [0, 1], [3, 2]), "f32[3,2]", ["reshape"]),
    # Collapse (page 003's v012, v01, v12; the page swaps the last two results, XLA does not)
    ("collapse 012", ["f32[4,2,3]"], lambda p, b: ops.Collapse(p[0], [0, 1, 2]), "f32[24]", ["reshape"]),
    ("collapse 01", ["f32[4,2,3]"], lambda p, b: ops.Collapse(p[0], [0, 1]), "f32[8,3]", ["reshape"]),
    ("collapse 12", ["f32[4,2,3]"], lambda p, b: ops.Collapse(p[0], [1, 2]), "f32[4,6]", ["reshape"]),
    ("collapse one", ["f32[4,2,3]"], lambda p, b: ops.Collapse(p[0], [1]), "f32[4,2,3]", []),
    ("dynamic reshape", ["f32[6]", "s32[]", "s32[]"],
     lambda p, b: ops.DynamicReshape(p[0], p[1:], [2, 3], [True, False]), "f32[<=2,3]", ["dynamic-reshape"]),
    # Transpose, Rev
    ("transpose", ["f32[2,3,4]"], lambda p, b: ops.Transpose(p[0], [2, 0, 1]), "f32[4,2,3]", ["transpose"]),
    ("transpose dynamic", ["f32[<=2,?]"], lambda p, b: ops.Transpose(p[0], [1, 0]), "f32[?,<=2]", ["transpose"]),
    ("rev", ["f32[2,<=3]"], lambda p, b: ops.Rev(p[0], [0, 1]), "f32[2,<=3]", ["reverse"]),
    ("rev none", ["f32[2]"], lambda p, b: ops.Rev(p[0], []), "f32[2]", ["reverse"]),
    # Iota (page 003: s32[4, 8] along 0 and 1)
    ("iota 0", [], lambda p, b: ops.Iota(b, "s32[4,8]", 0), "s32[4,8]", ["iota"]),
    ("iota 1", [], lambda p, b: ops.Iota(b, hlo.parse_shape("s32[4,8]"), 1), "s32[4,8]", ["iota"]),
    ("iota rank 1", [], lambda p, b: ops.Iota(b, hlo.PrimitiveType.F32, 5), "f32[5]", ["iota"]),
    ("iota complex", [], lambda p, b: ops.Iota(b, "c64[3]", 0), "c64[3]", ["iota"]),
    # ConcatInDim (page 003: {2,3},{4,5},{6,7} and a 3x2 with a 1x2)
    ("concat 1-d", ["s32[2]", "s32[2]", "s32[2]"], lambda p, b: ops.ConcatInDim(b, p, 0), "s32[6]", ["concatenate"]),
    ("concat 2-d", ["s32[3,2]", "s32[1,2]"], lambda p, b: ops.ConcatInDim(b, p, 0), "s32[4,2]", ["concatenate"]),
    ("concat one", ["s32[3,2]"], lambda p, b: ops.ConcatInDim(b, p, 1), "s32[3,2]", ["concatenate"]),
    ("concat X and <=B", ["f32[2,3]", "f32[<=4,3]"], lambda p, b: ops.ConcatInDim(b, p, 0), "f32[<=6,3]", ["concatenate"]),
    ("concat bounded", ["f32[<=2,3]", "f32[<=4,3]"], lambda p, b: ops.ConcatInDim(b, p, 0), "f32[<=6,3]", ["concatenate"]),
    ("concat X and ?", ["f32[2,3]", "f32[?,3]"], lambda p, b: ops.ConcatInDim(b, p, 0), "f32[?,3]", ["concatenate"]),
    ("concat <=B and ?", ["f32[<=2,3]", "f32[?,3]"], lambda p, b: ops.ConcatInDim(b, p, 0), "f32[?,3]", ["concatenate"]),
    ("concat other <=X", ["f32[2,<=3]", "f32[2,3]"], lambda p, b: ops.ConcatInDim(b, p, 0), "f32[4,<=3]", ["concatenate"]),
    ("concat other ?", ["f32[2,?]", "f32[2,3]"], lambda p, b: ops.ConcatInDim(b, p, 0), "f32[4,3]", ["concatenate"]),
    ("concat other ? ?", ["f32[2,?]", "f32[2,?]"], lambda p, b: ops.ConcatInDim(b, p, 0), "f32[4,?]", ["concatenate"]),
    # Slice (page 003's examples), SliceInDim (XLA's f32[7,8,9] example)
    ("slice 1-d", ["f32[5]"], lambda p, b: ops.Slice(p[0], [2], [4]), "f32[2]", ["slice"]),
    ("slice 2-d", ["f32[4,3]"], lambda p, b: ops.Slice(p[0], [2, 1], [4, 3], [1, 1]), "f32[2,2]", ["slice"]),
    ("slice strided", ["f32[10]"], lambda p, b: ops.Slice(p[0], [1], [10], [3]), "f32[3]", ["slice"]),
    ("slice empty", ["f32[10]"], lambda p, b: ops.Slice(p[0], [4], [4], [2]), "f32[0]", ["slice"]),
    ("slice bounded", ["f32[<=10]"], lambda p, b: ops.Slice(p[0], [0], [5], [1]), "f32[<=5]", ["slice"]),
    ("slice one of bounded", ["f32[<=10]"], lambda p, b: ops.Slice(p[0], [2], [3], [1]), "f32[1]", ["slice"]),
    ("slice unbounded", ["f32[?]"], lambda p, b: ops.Slice(p[0], [0], [4], [1]), "f32[4]", ["slice"]),
    ("slice in dim", ["f32[7,8,9]"], lambda p, b: ops.SliceInDim(p[0], 2, 4, 1, 1), "f32[7,2,9]", ["slice"]),
    # DynamicSlice, DynamicUpdateSlice (page 003's examples), index vectors, dynamic dimensions
    ("dynamic-slice 1-d", ["f32[5]", "s32[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2]), "f32[2]", ["dynamic-slice"]),
    ("dynamic-slice 2-d", ["f32[4,3]", "s32[]", "s32[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 2]),
     "f32[2,2]", ["dynamic-slice"]),
    ("dynamic-slice u8 indices", ["f32[4,3]", "u8[]", "u8[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [4, 0]),
     "f32[4,0]", ["dynamic-slice"]),
    ("dynamic-slice vector", ["f32[4,3]", "s32[2]"], lambda p, b: ops.DynamicSlice(p[0], p[1], [2, 2]),
     "f32[2,2]", ["dynamic-slice"]),
    ("dynamic-slice whole dynamic", ["f32[<=4,3]", "s32[]", "s32[]"],
     lambda p, b: ops.DynamicSlice(p[0], p[1:], [4, 2]), "f32[<=4,2]", ["dynamic-slice"]),
    ("dynamic-slice part dynamic", ["f32[<=4,3]", "s32[]", "s32[]"],
     lambda p, b: ops.DynamicSlice(p[0], p[1:], [3, 2]), "f32[3,2]", ["dynamic-slice"]),
    ("dynamic-slice scalar", ["f32[]"], lambda p, b: ops.DynamicSlice(p[0], [], []), "f32[]", ["dynamic-slice"]),
    ("dus 1-d", ["f32[5]", "f32[2]", "s32[]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]),
     "f32[5]", ["dynamic-update-slice"]),
    ("dus 2-d", ["f32[4,3]", "f32[3,2]", "s32[]", "s32[]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]),
     "f32[4,3]", ["dynamic-update-slice"]),
    ("dus vector", ["f32[4,3]", "f32[3,2]", "s64[2]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2]),
     "f32[4,3]", ["dynamic-update-slice"]),
    ("dus dynamic operand", ["f32[<=4,3]", "f32[1,3]", "s32[]", "s32[]"],
     lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), "f32[<=4,3]", ["dynamic-update-slice"]),
    ("dus whole dynamic update", ["f32[4,3]", "f32[<=4,3]", "s32[]", "s32[]"],
     lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), "f32[<=4,3]", ["dynamic-update-slice"]),
    ("dus part dynamic update", ["f32[4,3]", "f32[<=2,3]", "s32[]", "s32[]"],
     lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), "f32[4,3]", ["dynamic-update-slice"]),
    # Pad: edge padding may be negative, interior padding goes between elements
    ("pad", ["f32[2,3]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(1, 2, 1), (-1, 0, 0)]), "f32[6,2]", ["pad"]),
    ("pad config", ["f32[2,3]", "f32[]"],
     lambda p, b: ops.Pad(p[0], p[1], PaddingConfig((PaddingDimension(0, 0, 2), PaddingDimension(-3, 1)))),
     "f32[4,1]", ["pad"]),
    ("pad interior of empty", ["f32[0]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(1, 1, 5)]), "f32[2]", ["pad"]),
    ("pad bounded", ["f32[<=3]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(0, 0, 1)]), "f32[<=5]", ["pad"]),
    ("pad unbounded", ["f32[?]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(1, 1, 1)]), "f32[?]", ["pad"]),
    ("pad in dim", ["f32[2,3]", "f32[]"], lambda p, b: ops.PadInDim(p[0], p[1], 1, 1, 2), "f32[2,6]", ["pad"]),
    # GetDimensionSize / SetDimensionSize (page 003: set_dimension_size(f32[10], five, 0))
    ("set size", ["f32[10]", "s32[]"], lambda p, b: ops.SetDimensionSize(p[0], p[1], 0), "f32[<=10]",
     ["set-dimension-size"]),
    ("set size dynamic", ["f32[<=10]", "s32[]"], lambda p, b: ops.SetDimensionSize(p[0], p[1], 0), "f32[<=10]",
     ["set-dimension-size"]),
    ("get size dynamic", ["f32[<=4,3]"], lambda p, b: ops.GetDimensionSize(p[0], 0), "s32[]", ["get-dimension-size"]),
    ("get size static", ["f32[<=4,3]"], lambda p, b: ops.GetDimensionSize(p[0], 1), "s32[]", ["constant"]),
    ("remove dynamic", ["f32[<=4,3]"], lambda p, b: ops.RemoveDynamicDimension(p[0], 0), "f32[4,3]",
     ["constant", "set-dimension-size"]),
    ("copy", ["(f32[2], s32[])"], lambda p, b: ops.Copy(p[0]), "(f32[2], s32[])", ["copy"]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "fn", "expected", "emitted"), GOOD, ids=[g[0] for g in GOOD])
def test_builder_shapes(name: str, shapes: list[str], fn: BuildFn, expected: str, emitted: list[str]) -> None:
    shape, got, b = build_ops(shapes, fn)
    assert shape == expected
    assert got == emitted
    if got:
        assert rule_errors(b.build().to_text()) == []


# -- builder functions: bad cases ---------------------------------------------------------------
BAD: list[tuple[list[str], BuildFn, str]] = [
    (["f32[2]"], lambda p, b: ops.Broadcast(p[0], [-1]), r"Broadcast: broadcast sizes \[-1\] must be static sizes >= 0: found -1"),
    (["f32[?]"], lambda p, b: ops.Broadcast(p[0], [2]), r"Broadcast: operand 0 must not have unbounded dimensions: found f32\[\?\]"),
    (["(f32[2])"], lambda p, b: ops.Broadcast(p[0], [2]), r"Broadcast: operand 0 must be an array: found \(f32\[2\]"),
    (["f32[2]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 2], []), r"BroadcastInDim: broadcast_dimensions=\[\] must have one entry per dimension of the operand f32\[2\]"),
    (["f32[2]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 2], [2]), r"BroadcastInDim: broadcast_dimensions=\[2\] contains 2, not a dimension of out_dim_size=\[2,2\]"),
    (["f32[2,2]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 2], [1, 0]), r"BroadcastInDim: broadcast_dimensions=\[1,0\] must be strictly increasing"),
    (["f32[3]"], lambda p, b: ops.BroadcastInDim(p[0], [2, 3], [0]), r"BroadcastInDim: dimension 0 of the operand f32\[3\]\{0\} must be 1 or the size 2 of output dimension 0"),
    (["f32[3]"], lambda p, b: ops.BroadcastInDim(p[0], [-1, 3], [1]), r"BroadcastInDim: out_dim_size=\[-1,3\] must be static sizes >= 0"),
    (["f32[<=1]"], lambda p, b: ops.BroadcastInDim(p[0], [3], [0]), r"BroadcastInDim: dimension 0 of f32\[<=1\]\{0\} must be a static 1 to be broadcast to f32\[<=3\]"),
    (["f32[4,2,3]"], lambda p, b: ops.Reshape(p[0], [5, 5]), r"Reshape: the result must have the operand's 24 elements: found f32\[4,2,3\]\{2,1,0\} and f32\[5,5\]\{1,0\} \(25 elements\)"),
    (["f32[4]"], lambda p, b: ops.Reshape(p[0], [-1]), r"Reshape: new_sizes=\[-1\] must be static sizes >= 0"),
    (["f32[<=6,4]"], lambda p, b: ops.Reshape(p[0], [4, 6]), r"Reshape: dynamic dimension 0 of f32\[<=6,4\]\{1,0\} would be both split and combined by new_sizes=\[4,6\]"),
    (["f32[2,<=1,3]"], lambda p, b: ops.Reshape(p[0], [6]), r"Reshape: dynamic dimension 1 of size 1 in f32\[2,<=1,3\]\{2,1,0\} must be the most major or most minor"),
    (["f32[?,<=2]"], lambda p, b: ops.Reshape(p[0], [4]), r"Reshape: an operand with both bounded and unbounded dimensions cannot be reshaped"),
    (["f32[2,3]"], lambda p, b: ops.Reshape(p[0], [1, 1], [6]), r"Reshape: dimensions=\[1,1\] must be a permutation of the 2 dimensions of f32\[2,3\]"),
    (["f32[2,3]"], lambda p, b: ops.Reshape(p[0], [0, 1], [6], [6]), r"Reshape: takes \(operand, new_sizes\) or \(operand, dimensions, new_sizes\)"),
    (["f32[6]"], lambda p, b: ops.ReshapeWithInferredDimension(p[0], [2, 3], 2), r"ReshapeWithInferredDimension: inferred_dimension=2 is not a dimension of new_sizes=\[2,3\]"),
    (["f32[4,2,3]"], lambda p, b: ops.Collapse(p[0], [0, 2]), r"Collapse: dimensions=\[0,2\] must be consecutive and in increasing order"),
    (["f32[4,2,3]"], lambda p, b: ops.Collapse(p[0], [1, 0]), r"Collapse: dimensions=\[1,0\] must be consecutive"),
    (["f32[4,2,3]"], lambda p, b: ops.Collapse(p[0], [2, 3]), r"Collapse: dimensions=\[2,3\] contains 3, not a dimension of f32\[4,2,3\]"),
    (["f32[6]", "f32[]", "s32[]"], lambda p, b: ops.DynamicReshape(p[0], p[1:], [2, 3], [True, False]), r"DynamicReshape: operand 1 \(the size of result dimension 0\) must be s32\[\]: found f32\[\]"),
    (["f32[6]", "s32[]"], lambda p, b: ops.DynamicReshape(p[0], p[1:], [2, 3], [True, False]), r"DynamicReshape: expects one size operand per dimension of the result f32\[<=2,3\]\{1,0\}: found 1"),
    (["f32[6]", "s32[]", "s32[]"], lambda p, b: ops.DynamicReshape(p[0], p[1:], [2, 3], [True]), r"DynamicReshape: new_size_bounds=\[2,3\] and dims_are_dynamic \(1 flags\) must have equal lengths"),
    (["f32[6]", "s32[]", "s32[]"], lambda p, b: ops.DynamicReshape(p[0], p[1:], [2, 4], [True, False]), r"DynamicReshape: the result must have the operand's 6 elements: found f32\[6\]\{0\} and f32\[<=2,4\]"),
    (["f32[2,3]"], lambda p, b: ops.Transpose(p[0], [0, 0]), r"Transpose: dimensions=\[0,0\] must be a permutation of the 2 dimensions of f32\[2,3\]"),
    (["f32[2,3]"], lambda p, b: ops.Transpose(p[0], [0]), r"Transpose: dimensions=\[0\] must be a permutation"),
    (["f32[2,3]"], lambda p, b: ops.Rev(p[0], [2]), r"Rev: dimensions=\[2\] contains 2, not a dimension of f32\[2,3\]"),
    (["f32[2,3]"], lambda p, b: ops.Rev(p[0], [1, 1]), r"Rev: dimensions=\[1,1\] repeats a dimension of f32\[2,3\]"),
    ([], lambda p, b: ops.Iota(b, "s32[4,8]", 2), r"Iota: iota_dimension=2 is not a dimension of the result s32\[4,8\]"),
    ([], lambda p, b: ops.Iota(b, "s32[4,8]", -1), r"Iota: iota_dimension=-1 is not a dimension"),
    ([], lambda p, b: ops.Iota(b, "s32[<=4]", 0), r"Iota: the shape must not have dynamic dimensions: found s32\[<=4\]"),
    ([], lambda p, b: ops.Iota(b, "pred[4]", 0), r"Iota: the result must be of an integer, floating-point or complex type: found pred\[4\]"),
    ([], lambda p, b: ops.Iota(b, "s32[]", 0), r"Iota: the result must be an array of rank 1 or more: found s32\[\]"),
    ([], lambda p, b: ops.Iota(b, "q32", 3), r"Iota: unknown element type 'q32'"),
    ([], lambda p, b: ops.ConcatInDim(b, [], 0), r"ConcatInDim: expects at least one operand"),
    (["f32[2,3]", "f32[2,3]"], lambda p, b: ops.ConcatInDim(b, p, 2), r"ConcatInDim: dimensions=\[2\] is not a dimension of operand 0 f32\[2,3\]"),
    (["f32[2,3]", "f32[6]"], lambda p, b: ops.ConcatInDim(b, p, 0), r"ConcatInDim: operand 1 must have the rank of operand 0: found f32\[2,3\]\{1,0\} and f32\[6\]"),
    (["f32[2,3]", "s32[2,3]"], lambda p, b: ops.ConcatInDim(b, p, 0), r"ConcatInDim: operand 1 must have the element type of operand 0: found f32\[2,3\]\{1,0\} and s32\[2,3\]"),
    (["f32[2,3]", "f32[2,4]"], lambda p, b: ops.ConcatInDim(b, p, 0), r"ConcatInDim: operand 1 must match operand 0 in every dimension but 0: found f32\[2,3\]\{1,0\} and f32\[2,4\]"),
    (["f32[2,3]", "f32[2,<=4]"], lambda p, b: ops.ConcatInDim(b, p, 0), r"ConcatInDim: operand 1 must match operand 0 in every dimension but 0"),
    (["f32[2,3]", "(f32[2,3])"], lambda p, b: ops.ConcatInDim(b, p, 0), r"ConcatInDim: operand 1 must be an array: found \(f32\[2,3\]"),
    (["f32[5]"], lambda p, b: ops.Slice(p[0], [-1], [2], [1]), r"Slice: slice= dimension 0 must start at 0 or later: found \[-1:2:1\] for f32\[5\]\{0\}"),
    (["f32[5]"], lambda p, b: ops.Slice(p[0], [0], [6], [1]), r"Slice: slice= dimension 0 must end within the dimension's size 5: found \[0:6:1\] for f32\[5\]\{0\}"),
    (["f32[<=5]"], lambda p, b: ops.Slice(p[0], [0], [6], [1]), r"Slice: slice= dimension 0 must end within the dimension's size 5: found \[0:6:1\] for f32\[<=5\]"),
    (["f32[5]"], lambda p, b: ops.Slice(p[0], [3], [2], [1]), r"Slice: slice= dimension 0 must not end before it starts: found \[3:2:1\] for f32\[5\]"),
    (["f32[5]"], lambda p, b: ops.Slice(p[0], [0], [2], [0]), r"Slice: slice= dimension 0 must have a positive stride: found \[0:2:0\] for f32\[5\]"),
    (["f32[5,2]"], lambda p, b: ops.Slice(p[0], [0], [2], [1]), r"Slice: slice= must give one \[start:limit:stride\] per dimension of f32\[5,2\]\{1,0\}: found 1"),
    (["f32[5]"], lambda p, b: ops.Slice(p[0], [0], [2, 3], [1]), r"Slice: start_indices=\[0\], limit_indices=\[2,3\] and strides=\[1\] must have equal lengths"),
    (["f32[5]"], lambda p, b: ops.SliceInDim(p[0], 0, 2, 1, 1), r"SliceInDim: dimno=1 is not a dimension of the operand f32\[5\]"),
    (["f32[4,3]", "s32[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 2]), r"DynamicSlice: expects one scalar start index per dimension of f32\[4,3\]\{1,0\}: found 1"),
    (["f32[4,3]", "f32[]", "f32[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 2]), r"DynamicSlice: operand 1 \(a start index\) must be an integer scalar: found f32\[\]"),
    (["f32[4,3]", "s32[]", "s64[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 2]), r"DynamicSlice: operand 2 \(a start index\) must have the type of operand 1: found s32\[\] and s64\[\]"),
    (["f32[4,3]", "s32[2,1]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 2]), r"DynamicSlice: expects 3 operands"),
    (["f32[4,3]", "s32[3]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 2]), r"DynamicSlice: operand 1 \(start indices\) must have one entry per dimension of f32\[4,3\]\{1,0\}: found s32\[3\]"),
    (["f32[4,3]", "f32[2]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 2]), r"DynamicSlice: operand 1 \(start indices\) must be of an integer type: found f32\[2\]"),
    (["f32[4,3]", "s32[]", "s32[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2]), r"DynamicSlice: dynamic_slice_sizes=\[2\] must give one size per dimension of f32\[4,3\]"),
    (["f32[4,3]", "s32[]", "s32[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [2, 4]), r"DynamicSlice: dynamic_slice_sizes=\[2,4\] must be sizes within the operand's: found 4 for dimension 1 of f32\[4,3\]"),
    (["f32[4,3]", "s32[]", "s32[]"], lambda p, b: ops.DynamicSlice(p[0], p[1:], [-1, 2]), r"DynamicSlice: dynamic_slice_sizes=\[-1,2\] must be sizes .*: found -1 for dimension 0 of f32\[4,3\]"),
    (["f32[4,3]", "f32[3]", "s32[]", "s32[]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), r"DynamicUpdateSlice: operand 1 \(update\) must have the rank of operand 0: found f32\[4,3\]\{1,0\} and f32\[3\]"),
    (["f32[4,3]", "s32[3,2]", "s32[]", "s32[]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), r"DynamicUpdateSlice: operand 1 \(update\) must have the element type of operand 0: found f32\[4,3\]\{1,0\} and s32\[3,2\]"),
    (["f32[4,3]", "f32[5,2]", "s32[]", "s32[]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), r"DynamicUpdateSlice: operand 1 \(update\) must fit in operand 0: found f32\[4,3\]\{1,0\} and f32\[5,2\]\{1,0\}, dimension 0"),
    (["f32[4,3]", "f32[3,2]", "s32[]", "pred[]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), r"DynamicUpdateSlice: operand 3 \(a start index\) must be an integer scalar: found pred\[\]"),
    (["f32[4,3]", "f32[3,2]", "s32[]"], lambda p, b: ops.DynamicUpdateSlice(p[0], p[1], p[2:]), r"DynamicUpdateSlice: expects one scalar start index per dimension of f32\[4,3\]\{1,0\}: found 1"),
    (["f32[2,3]", "f32[1]"], lambda p, b: ops.Pad(p[0], p[1], [(0, 0), (0, 0)]), r"Pad: operand 1 \(padding_value\) must be a scalar: found f32\[1\]"),
    (["f32[2,3]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(0, 0)]), r"Pad: padding= must give one low_high_interior per dimension of f32\[2,3\]\{1,0\}: found 1"),
    (["f32[2,3]", "s32[]"], lambda p, b: ops.Pad(p[0], p[1], [(0, 0), (0, 0)]), r"Pad: operand 1 \(padding_value\) must have the element type of operand 0: found f32\[2,3\]\{1,0\} and s32\[\]"),
    (["f32[2,3]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(0, 0, -1), (0, 0)]), r"Pad: padding= dimension 0 \(0_0_-1\) has negative interior padding"),
    (["f32[2,3]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(0, 0), (-2, -2)]), r"Pad: padding= dimension 1 \(-2_-2_0\) leaves a negative size for f32\[2,3\]"),
    (["f32[2,3]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(0,), (0, 0)]), r"Pad: padding_config entries must be \(low, high\) or \(low, high, interior\)"),
    (["f32[2,3]", "f32[]"], lambda p, b: ops.PadInDim(p[0], p[1], 2, 1, 1), r"PadInDim: dimno=2 is not a dimension of the operand f32\[2,3\]"),
    (["f32[2,3]"], lambda p, b: ops.GetDimensionSize(p[0], 2), r"GetDimensionSize: dimensions=\[2\] is not a dimension of operand 0 f32\[2,3\]"),
    (["f32[2,3]", "s64[]"], lambda p, b: ops.SetDimensionSize(p[0], p[1], 0), r"SetDimensionSize: operand 1 \(size\) must be s32\[\]: found s64\[\]"),
    (["f32[2,3]", "s32[1]"], lambda p, b: ops.SetDimensionSize(p[0], p[1], 0), r"SetDimensionSize: operand 1 \(size\) must be s32\[\]: found s32\[1\]"),
    (["f32[2,3]", "s32[]"], lambda p, b: ops.SetDimensionSize(p[0], p[1], -1), r"SetDimensionSize: dimensions=\[-1\] is not a dimension of operand 0 f32\[2,3\]"),
    (["f32[?,3]"], lambda p, b: ops.RemoveDynamicDimension(p[0], 0), r"RemoveDynamicDimension: dimension 0 of operand 0 f32\[\?,3\]\{1,0\} is unbounded"),
]  # fmt: skip


@pytest.mark.parametrize(("shapes", "fn", "message"), BAD)
def test_builder_errors(shapes: list[str], fn: BuildFn, message: str) -> None:
    with pytest.raises(hlo.ShapeError, match=message):
        build_ops(shapes, fn)


# -- HLO text ---------------------------------------------------------------------------------
OMITTED = """HloModule m

ENTRY e {
  x = f32[2,<=3] parameter(0)
  v = f32[] parameter(1)
  n = s32[] parameter(2)
  t = transpose(x), dimensions={1,0}
  r = reverse(x), dimensions={0}
  c = concatenate(x, x, x), dimensions={0}
  p = pad(x, v), padding=1_1x0_2_1
  g = get-dimension-size(x), dimensions={1}
  s = set-dimension-size(x, n), dimensions={0}
  k = copy(x)
  ROOT out = tuple(t, r, c, p, g, s, k)
}
"""


def test_omitted_result_shapes_are_inferred() -> None:
    m = hlo.parse_module(OMITTED)
    shapes = {i.name: i.shape.to_string(print_layout=False) for i in m.entry.instructions}
    assert shapes["t"] == "f32[<=3,2]"
    assert shapes["r"] == "f32[2,<=3]"
    assert shapes["c"] == "f32[6,<=3]"
    assert shapes["p"] == "f32[4,<=7]"
    assert shapes["g"] == "s32[]"
    assert shapes["s"] == "f32[<=2,<=3]"
    assert shapes["k"] == "f32[2,<=3]"
    assert hlo.verify(m, all_errors=True) == []
    again = hlo.parse_module(m.to_text())
    assert again.to_text() == m.to_text()


def test_a_scalar_broadcast_may_omit_its_shape() -> None:
    m = hlo.parse_module(entry_module("  x = f32[] parameter(0)\n  ROOT b = broadcast(x), dimensions={}"))
    assert str(m.entry.root.shape) == "f32[]"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "ROOT r = transpose(x), dimensions={0,0}",
            r"dimensions=\[0,0\] must be a permutation of the 2 dimensions",
        ),
        (
            "ROOT r = concatenate(x, y), dimensions={0}",
            r"operand 1 must match operand 0 in every dimension but 0",
        ),
        (
            "ROOT r = concatenate(x, x), dimensions={0,1}",
            r"dimensions= must hold exactly one dimension: found \[0,1\]",
        ),
        ("ROOT r = pad(x, v), padding=0_0", r"padding= must give one low_high_interior per dimension"),
        (
            "ROOT r = get-dimension-size(x), dimensions={5}",
            r"dimensions=\[5\] is not a dimension of operand 0",
        ),
        (
            "ROOT r = reverse(x), dimensions={2}",
            r"dimensions=\[2\] contains 2, not a dimension of f32\[2,3\]",
        ),
    ],
)
def test_omitted_shape_errors(line: str, message: str) -> None:
    text = entry_module(
        f"  x = f32[2,3] parameter(0)\n  y = f32[2,4] parameter(1)\n  v = f32[] parameter(2)\n  {line}"
    )
    with pytest.raises(hlo.ParseError, match=message):
        hlo.parse_module(text)


WRITTEN = [
    # HLO instruction forms the builder does not make: index vectors, written shapes
    ("ROOT r = f32[2,2] dynamic-slice(x, iv), dynamic_slice_sizes={2,2}", None),
    ("ROOT r = f32[2,3] dynamic-update-slice(x, u, iv)", None),
    ("ROOT r = f32[2,3] dynamic-update-slice(x, u, i, i)", None),
    ("ROOT r = f32[2,2] dynamic-slice(x, iv, i), dynamic_slice_sizes={2,2}", r"an index vector \(operand 1, s32\[2\]\{0\}\) must be the only start-index operand: found 2"),
    ("ROOT r = f32[2,2] dynamic-slice(x, i, iv), dynamic_slice_sizes={2,2}", r"operand 2 \(a start index\) must be an integer scalar: found s32\[2\]"),
    ("ROOT r = f32[2,2] dynamic-slice(x, i, i), dynamic_slice_sizes={2,2}", None),
    ("ROOT r = f32[1,2] slice(x), slice={[1:2], [0:3:2]}", None),
    ("ROOT r = f32[1,3] slice(x), slice={[1:2], [0:3:2]}", r"%r: gives f32\[1,2\]\{1,0\}, not f32\[1,3\]"),
    ("ROOT r = f32[3,2] reshape(x)", None),
    ("ROOT r = f32[3,3] reshape(x)", r"%r: the result must have the operand's 6 elements: found f32\[2,3\]\{1,0\} and f32\[3,3\]\{1,0\} \(9 elements\)"),
    ("ROOT r = s32[6] reshape(x)", r"%r: the result must be an array of the operand's element type"),
    ("ROOT r = f32[6] reshape(x), inferred_dimension=1", r"%r: inferred_dimension=1 is not a dimension of the result f32\[6\]"),
    ("ROOT r = f32[4,2,3] broadcast(x), dimensions={1,2}", None),
    ("ROOT r = f32[3,4,2] broadcast(x), dimensions={2,0}", None),
    ("ROOT r = f32[2,4,3] broadcast(x), dimensions={1,2}", r"%r: dimensions=\[1,2\] maps dimension 0 of operand f32\[2,3\]\{1,0\} to dimension 1 of the result f32\[2,4,3\]\{2,1,0\}: their sizes must be equal"),
    ("ROOT r = f32[2,3] broadcast(x), dimensions={0}", r"%r: dimensions=\[0\] must name one result dimension per dimension of operand f32\[2,3\]"),
    ("ROOT r = f32[2,3] broadcast(x), dimensions={0,2}", r"%r: dimensions=\[0,2\] contains 2, not a dimension of f32\[2,3\]"),
    ("ROOT r = f64[2,3] broadcast(x), dimensions={0,1}", r"%r: the result must be an array of the operand's element type"),
    ("ROOT r = s32[4] iota(), iota_dimension=0", None),
    ("ROOT r = s32[4] iota(), iota_dimension=1", r"%r: iota_dimension=1 is not a dimension of the result s32\[4\]"),
    ("ROOT r = u8[24] bitcast(x)", None),
    ("ROOT r = f32[3,2]{0,1} bitcast(x)", None),
    ("ROOT r = f32[7] bitcast(x)", r"%r: the result must hold the operand's 192 bits: found f32\[2,3\]\{1,0\} and f32\[7\]\{0\} \(224 bits\)"),
    ("ROOT r = f32[3,2] dynamic-reshape(x, i, i)", None),
    ("ROOT r = f32[3,2] dynamic-reshape(x, i, iv)", r"%r: operand 2 \(the size of result dimension 1\) must be s32\[\]: found s32\[2\]"),
    ("c = (f32[2,3], f32[2,3], u32[]) copy-start(x)\n  ROOT r = f32[2,3] copy-done(c)", None),
    ("ROOT r = f32[2,3] copy-done(t)", r"%r: the destination and source in operand 0 must have the same shape"),
    ("ROOT r = f32[2,3] copy-done(x)", r"%r: operand 0 must be the \(destination, source, context\) tuple of a copy-start"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "message"), WRITTEN)
def test_written_shapes_against_the_rules(line: str, message: str | None) -> None:
    text = entry_module(
        "  x = f32[2,3] parameter(0)\n  iv = s32[2] parameter(1)\n  i = s32[] parameter(2)\n"
        "  u = f32[1,3] parameter(3)\n  t = (f32[2,3], f32[3,2], u32[]) parameter(4)\n  " + line
    )
    errors = rule_errors(text)
    if message is None:
        assert errors == []
    else:
        assert len(errors) == 1 and re.search(message, errors[0]), errors


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_dumps_satisfy_the_rules(path: Path) -> None:
    """Every instruction XLA wrote (reshapes, broadcasts, bitcasts included) passes its rule."""
    assert rule_errors(path.read_text()) == []


def test_a_built_computation_prints_parses_back_and_satisfies_the_rules() -> None:
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "f32[4,6]", "x")
    n = ops.Parameter(b, 1, "s32[]", "n")
    d = ops.SetDimensionSize(x, n, 0)
    size = ops.GetDimensionSize(d, 0)
    iota = ops.ConvertElementType(ops.Iota(b, "s32[6]", 0), "f32")
    y = ops.Add(ops.Rev(d, [1]), ops.BroadcastInDim(iota, [4, 6], [1]))
    z = ops.Reshape(ops.Transpose(y, [1, 0]), [2, 3, 4])
    s = ops.Slice(z, [0, 0, 1], [2, 3, 3], [1, 2, 1])
    c = ops.ConcatInDim(b, [s, s], 1)
    p = ops.Pad(c, ops.ConstantR0(b, 0.0), [(0, 0, 0), (1, 1, 1), (0, -1, 0)])
    ds = ops.DynamicSlice(p, [size, size, size], [1, 2, 1])
    out = ops.DynamicUpdateSlice(p, ds, [n, n, n])
    ops.Tuple(b, [out, ops.Collapse(out, [0, 1]), ops.Broadcast(size, [3])])
    comp = b.build()
    assert_round_trip(comp, rule_errors)
    assert comp.result_shape.to_string(print_layout=False) == "(f32[2,9,<=1], f32[18,<=1], s32[3])"


def test_every_opcode_of_these_families_has_a_shape_rule() -> None:
    from hlo.ops import binary_ops, elementwise

    defined = set(elementwise.UNARY_BY_OPCODE) | set(binary_ops.BINARY_BY_OPCODE)
    for name in MY_MODULES:
        source = (SRC / f"{name}.py").read_text()
        defined |= {hlo.Opcode[m] for m in re.findall(r"define\(\s*Op\.(\w+)", source)}
    assert len(defined) >= 74
    for op in defined:
        assert spec(op).shape_rule is not None, op


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 12), st.data())
def test_slice_and_pad_sizes_match_python(size: int, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, size))
    limit = data.draw(st.integers(start, size))
    stride = data.draw(st.integers(1, 4))
    shape, _, _ = build_ops([f"f32[{size}]"], lambda p, b: ops.Slice(p[0], [start], [limit], [stride]))
    assert shape == f"f32[{len(range(start, limit, stride))}]"
    low, high, interior = (
        data.draw(st.integers(-size, 3)),
        data.draw(st.integers(0, 3)),
        data.draw(st.integers(0, 2)),
    )
    values: list[float] = []  # the padded vector built element by element
    for k in range(size):
        values += [0.0] * (interior if k else 0) + [1.0]
    values = [0.0] * max(low, 0) + values[max(-low, 0) :] + [0.0] * high
    expected = len(values)
    shape, _, _ = build_ops(
        [f"f32[{size}]", "f32[]"], lambda p, b: ops.Pad(p[0], p[1], [(low, high, interior)])
    )
    assert shape == f"f32[{expected}]"
