"""Shape rules and builder functions of the dot family: dot (Dot, DotGeneral), ragged-dot
(RaggedDot) and scaled-dot (ScaledDot). Tables of good cases (page 003's examples, preferred
element types, dynamic dimensions, the three ragged modes) and bad ones (each rule of XLA's
InferDotOpShape, InferRaggedDotOpShape and scaled-dot verifier broken once), HLO text checked
through the rules (written and omitted result shapes, the golden dumps), build -> text -> parse
round trips, XlaOp's `@`, and DotGeneral against np.einsum."""

# ruff: noqa: E501  (tables of cases, one per line, with the message each must give)
from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hlo
from hlo import ops
from hlo.ir.attrs import Precision
from hlo.ops.dot import DotDimensionNumbers, PrecisionConfig, RaggedDotDimensionNumbers
from shape_checks import BuildFn, assert_round_trip, build_ops, entry_module
from shape_checks import rule_errors as shape_rule_errors

GOLDEN = sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo"))
MY_MODULES = ("dot", "ragged_dot", "scaled_dot")


def dn(
    lc: Sequence[int], rc: Sequence[int], lb: Sequence[int] = (), rb: Sequence[int] = ()
) -> DotDimensionNumbers:
    return DotDimensionNumbers(tuple(lc), tuple(rc), tuple(lb), tuple(rb))


def ragged(
    lc: Sequence[int],
    rc: Sequence[int],
    lhs_ragged: Sequence[int],
    rhs_group: Sequence[int] = (),
    lb: Sequence[int] = (),
    rb: Sequence[int] = (),
) -> RaggedDotDimensionNumbers:
    return RaggedDotDimensionNumbers(dn(lc, rc, lb, rb), tuple(lhs_ragged), tuple(rhs_group))


def rule_errors(text: str) -> list[str]:
    return shape_rule_errors(text, MY_MODULES)


F8 = "f8e4m3fn"
E8 = "f8e8m0fnu"

# -- builder functions: good cases --------------------------------------------------------------
GOOD: list[tuple[str, list[str], BuildFn, str]] = [
    # Dot: page 003's table (and vector.matrix); XlaBuilder::Dot contracts lhs dimension 1 (0 for a vector) with rhs dimension 0
    ("dot vector.vector", ["f32[3]", "f32[3]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[]"),
    ("dot matrix.vector", ["f32[2,3]", "f32[3]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2]"),
    ("dot vector.matrix", ["f32[3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[4]"),
    ("dot matrix.matrix", ["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,4]"),
    ("dot rank-3 lhs (XLA: its dimension 1)", ["f32[2,3,4]", "f32[3,5]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,4,5]"),
    ("dot zero-size", ["f32[0,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[0,4]"),
    ("dot empty contraction", ["f32[2,0]", "f32[0,4]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,4]"),
    # element types: the more precise operand type, or the preferred one (any array type, as XLA since 2023)
    ("dot s8 x s8 -> s32", ["s8[2,3]", "s8[3,4]"], lambda p, b: ops.Dot(p[0], p[1], None, "s32"), "s32[2,4]"),
    ("dot s8 x s8", ["s8[2,3]", "s8[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "s8[2,4]"),
    ("dot bf16 x bf16 -> f32", ["bf16[2,3]", "bf16[3,4]"], lambda p, b: ops.Dot(p[0], p[1], preferred_element_type=hlo.PrimitiveType.F32), "f32[2,4]"),
    ("dot f32 x bf16", ["f32[2,3]", "bf16[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,4]"),
    ("dot bf16 x f16", ["bf16[2,3]", "f16[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "bf16[2,4]"),
    ("dot s8 x f32", ["s8[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,4]"),
    ("dot s32 x u8", ["s32[2,3]", "u8[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "s32[2,4]"),
    ("dot u32 x s32", ["u32[2,3]", "s32[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "s32[2,4]"),
    ("dot c64 x f64", ["c64[2,3]", "f64[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), "c64[2,4]"),
    ("dot s8 -> f32", ["s8[2,3]", "s8[3,4]"], lambda p, b: ops.Dot(p[0], p[1], None, "f32"), "f32[2,4]"),
    ("dot f32 -> bf16 (narrower)", ["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], None, "bf16"), "bf16[2,4]"),
    ("dot s32 -> s8 (narrower)", ["s32[2,3]", "s32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], None, "s8"), "s8[2,4]"),
    ("dot f8 -> f32", [f"{F8}[2,3]", "f8e5m2[3,4]"], lambda p, b: ops.Dot(p[0], p[1], None, "f32"), "f32[2,4]"),
    ("dot precision", ["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], PrecisionConfig(("highest", "high"))), "f32[2,4]"),
    ("dot precision dict", ["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], {"operand_precision": [Precision.HIGH] * 2, "algorithm": "ALG_DOT_F32_F32_F32"}), "f32[2,4]"),
    # DotGeneral: page 003's examples
    ("page 003 contracting", ["f32[2,3]", "f32[2,3]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [1])), "f32[2,2]"),
    ("page 003 batch", ["f32[2,2,2]", "f32[2,2,2]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [1], [0], [0])), "f32[2,2,2]"),
    ("batch matmul", ["f32[6,2,3]", "f32[6,3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [1], [0], [0])), "f32[6,2,4]"),
    ("batch matmul 2", ["f32[6,5,2,3]", "f32[6,5,3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([3], [2], [0, 1], [0, 1])), "f32[6,5,2,4]"),
    # batch dimensions anywhere (XLA no longer asks them to come first); the result takes them in lhs order
    ("batch last", ["f32[3,4,6]", "f32[4,5,6]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [0], [2], [2])), "f32[6,3,5]"),
    ("batch reordered", ["f32[7,6,3,4]", "f32[4,6,7,5]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([3], [0], [1, 0], [1, 2])), "f32[6,7,3,5]"),
    ("two contracting", ["f32[2,3,4,5]", "f32[2,5,4,6]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2, 3], [2, 1], [0], [0])), "f32[2,3,6]"),
    ("outer product", ["f32[3,4]", "f32[5]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([], [])), "f32[3,4,5]"),
    ("scalars", ["f32[]", "f32[]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([], [])), "f32[]"),
    ("scalar times vector", ["f32[]", "s32[3]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([], [])), "f32[3]"),
    ("batch only", ["f32[4,3]", "f32[4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([], [], [0], [0])), "f32[4,3]"),
    ("dict numbers", ["f32[2,3]", "f32[4,3]"], lambda p, b: ops.DotGeneral(p[0], p[1], {"lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": (1,)}), "f32[2,4]"),
    ("numpy ints", ["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn(np.array([1]), [np.int64(0)])), "f32[2,4]"),
    ("preferred + precision", ["bf16[2,3]", "bf16[3,4]"],
     lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [0]), PrecisionConfig((), "dot_bf16_bf16_f32"), "f32"), "f32[2,4]"),
    # dynamic dimensions: free ones keep their flags, paired ones need equal sizes (a bound counts as a size) or `?`
    ("dynamic free", ["f32[<=4,3]", "f32[3,<=5]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[<=4,<=5]"),
    ("dynamic contracting", ["f32[2,<=3]", "f32[<=3,5]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,5]"),
    ("dynamic contracting vs static", ["f32[2,<=3]", "f32[3,5]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,5]"),
    ("unbounded contracting", ["f32[2,?]", "f32[3,5]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[2,5]"),
    ("unbounded free", ["f32[?,3]", "f32[3,?]"], lambda p, b: ops.Dot(p[0], p[1]), "f32[?,?]"),
    ("unbounded lhs batch", ["f32[?,2,3]", "f32[4,3,5]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [1], [0], [0])), "f32[?,2,5]"),
    ("unbounded rhs batch (lhs's size)", ["f32[4,2,3]", "f32[?,3,5]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [1], [0], [0])), "f32[4,2,5]"),
    ("bounded batch", ["f32[<=4,2,3]", "f32[4,3,5]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [1], [0], [0])), "f32[<=4,2,5]"),
    # RaggedDot: the three modes of XLA's InferRaggedDotOpShape
    ("ragged non-contracting", ["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0])), "f32[11,7]"),
    ("ragged non-contracting group last", ["f32[11,5]", "f32[5,7,3]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [0], [0], [2])), "f32[11,7]"),
    ("ragged non-contracting batch", ["f32[2,11,5]", "f32[3,2,5,7]", "s32[2,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [2], [1], [0], [0], [1])), "f32[2,11,7]"),
    ("ragged non-contracting [g]", ["f32[2,11,5]", "f32[3,2,5,7]", "s64[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [2], [1], [0], [0], [1])), "f32[2,11,7]"),
    ("ragged second free dim", ["f32[4,11,5]", "f32[3,5,7]", "s32[4,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [1], [1], [0])), "f32[4,11,7]"),
    ("ragged contracting", ["f32[11,5]", "f32[5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [0], [1])), "f32[3,11,7]"),
    ("ragged contracting batch", ["f32[2,11,5]", "f32[2,5,7]", "s32[2,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [1], [2], [], [0], [0])), "f32[3,2,11,7]"),
    ("ragged contracting second", ["f32[11,4,5]", "f32[4,5,7]", "s32[4,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1, 2], [0, 1], [2])), "f32[3,11,7]"),
    ("ragged contracting dynamic groups", ["f32[11,5]", "f32[5,7]", "s32[<=3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [0], [1])), "f32[<=3,11,7]"),
    ("ragged batch", ["f32[4,11,5]", "f32[4,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [1], [0], [], [0], [0])), "f32[4,11,7]"),
    ("ragged second batch", ["f32[2,4,11,5]", "f32[2,4,5,7]", "s32[2,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([3], [2], [1], [], [0, 1], [0, 1])), "f32[2,4,11,7]"),
    ("ragged preferred", ["bf16[11,5]", "bf16[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0]), None, "f32"), "f32[11,7]"),
    ("ragged unbounded groups", ["f32[11,5]", "f32[3,5,7]", "s32[?]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0])), "f32[11,7]"),
    ("ragged dict", ["f32[11,5]", "f32[3,5,7]", "s32[3]"],
     lambda p, b: ops.RaggedDot(p[0], p[1], p[2], {"lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [1], "lhs_ragged_dimensions": [0], "rhs_group_dimensions": [0]}), "f32[11,7]"),
    ("ragged nested dict", ["f32[11,5]", "f32[3,5,7]", "s32[3]"],
     lambda p, b: ops.RaggedDot(p[0], p[1], p[2], {"dot_dimension_numbers": dn([1], [1]), "lhs_ragged_dimensions": [0], "rhs_group_dimensions": [0]}), "f32[11,7]"),
    # ScaledDot: lhs, rhs, lhs_scale, rhs_scale (XLA's triton scaled_dot test, smaller)
    ("scaled", [f"{F8}[8,64]", f"{F8}[64,16]", f"{E8}[8,2]", f"{E8}[2,16]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0]), None, "bf16"), "bf16[8,16]"),
    ("scaled default type", [f"{F8}[8,64]", f"{F8}[64,16]", f"{E8}[8,2]", f"{E8}[2,16]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), f"{F8}[8,16]"),
    ("scaled batch", [f"{F8}[3,8,64]", f"{F8}[3,64,16]", f"{E8}[3,8,2]", f"{E8}[3,2,16]"], lambda p, b: ops.ScaledDot(*p, dn([2], [1], [0], [0]), None, "f32"), "f32[3,8,16]"),
    ("scaled rhs unscaled (bf16 scalar)", [f"{F8}[8,64]", "bf16[64,16]", f"{E8}[8,2]", "bf16[]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), "bf16[8,16]"),
    ("scaled rhs unscaled (bf16 ones)", [f"{F8}[8,64]", "bf16[64,16]", f"{E8}[8,2]", "bf16[1,1]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), "bf16[8,16]"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "fn", "expected"), GOOD, ids=[g[0] for g in GOOD])
def test_builder_shapes(name: str, shapes: list[str], fn: BuildFn, expected: str) -> None:
    shape, emitted, b = build_ops(shapes, fn)
    assert shape == expected
    assert len(emitted) == 1
    # What the builder made prints, parses back the same, and verifies (the written type is
    # the preferred one for the verifier).
    comp = b.build()
    text = comp.to_text()
    assert hlo.parse_module(text).to_text() == text
    assert hlo.verify(comp.module, all_errors=True) == []
    assert rule_errors(text) == []


# -- builder functions: bad cases ---------------------------------------------------------------
BAD: list[tuple[list[str], BuildFn, str]] = [
    # operands
    (["(f32[2,3])", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1]), r"^Dot: operand 0 \(lhs\) must be an array: found \(f32\[2,3\]"),
    (["f32[2,3]", "token[]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [0])), r"^DotGeneral: operand 1 \(rhs\) must be an array: found token\[\]"),
    (["f32[2,3]"], lambda p, b: ops.Dot(p[0], np.ones((3, 4))), r"^Dot: rhs must be an XlaOp: found ndarray"),
    # ValidateDotDimensionNumbers: in range, each dimension once per side
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [0])), r"^DotGeneral: lhs_contracting_dims=\[2\] contains 2, not a dimension of lhs f32\[2,3\]"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [-1])), r"^DotGeneral: rhs_contracting_dims=\[-1\] contains -1, not a dimension of rhs f32\[3,4\]"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [0], [2], [1])), r"^DotGeneral: lhs_batch_dims=\[2\] contains 2, not a dimension of lhs"),
    (["f32[2,3]", "f32[3,2]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [0], [0], [5])), r"^DotGeneral: rhs_batch_dims=\[5\] contains 5, not a dimension of rhs f32\[3,2\]"),
    (["f32[]", "f32[3]"], lambda p, b: ops.Dot(p[0], p[1]), r"^Dot: lhs_contracting_dims=\[1\] contains 1, not a dimension of lhs f32\[\]"),
    (["f32[3,3]", "f32[3,3]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1, 1], [0, 1])), r"^DotGeneral: lhs_batch_dims=\[\] and lhs_contracting_dims=\[1,1\] must name each dimension of lhs f32\[3,3\]\{1,0\} at most once: \[1\] repeated"),
    (["f32[2,3]", "f32[2,3]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [0], [0], [0])), r"^DotGeneral: rhs_batch_dims=\[0\] and rhs_contracting_dims=\[0\] must name each dimension of rhs f32\[2,3\]\{1,0\} at most once: \[0\] repeated"),
    (["f32[2,2,3]", "f32[2,2,3]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [2], [0, 0], [0, 1])), r"^DotGeneral: lhs_batch_dims=\[0,0\] and lhs_contracting_dims=\[2\] must name each dimension .* \[0\] repeated"),
    # CheckDotDimensionConstraints: the lists pair up, paired sizes match
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1], [])), r"^DotGeneral: lhs_contracting_dims=\[1\] and rhs_contracting_dims=\[\] must have the same length: f32\[2,3\]\{1,0\} <dot> f32\[3,4\]\{1,0\}"),
    (["f32[3,4]", "f32[5]"], lambda p, b: ops.Dot(p[0], p[1]), r"^Dot: contracting dimension 1 of lhs \(4\) does not match contracting dimension 0 of rhs \(5\): f32\[3,4\]\{1,0\} <dot> f32\[5\]\{0\}"),
    (["f32[2,<=3]", "f32[4,5]"], lambda p, b: ops.Dot(p[0], p[1]), r"^Dot: contracting dimension 1 of lhs \(<=3\) does not match contracting dimension 0 of rhs \(4\)"),
    (["f32[2,<=3]", "f32[<=4,5]"], lambda p, b: ops.Dot(p[0], p[1]), r"^Dot: contracting dimension 1 of lhs \(<=3\) does not match contracting dimension 0 of rhs \(<=4\)"),
    (["f32[2,2,3]", "f32[2,3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [1], [0], [])), r"^DotGeneral: lhs_batch_dims=\[0\] and rhs_batch_dims=\[\] must have the same length"),
    (["f32[2,2,3]", "f32[5,3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([2], [1], [0], [0])), r"^DotGeneral: batch dimension 0 of lhs \(2\) does not match batch dimension 0 of rhs \(5\): f32\[2,2,3\]\{2,1,0\} <dot> f32\[5,3,4\]"),
    # builder arguments
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], {"lhs_contracting_dims": [1]}), r"^DotGeneral: dimension_numbers has unknown fields \['lhs_contracting_dims'\]"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], ([1], [0])), r"^DotGeneral: dimension_numbers must be a DotDimensionNumbers or a dict"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.DotGeneral(p[0], p[1], dn([1.0], [0])), r"^DotGeneral: lhs_contracting_dimensions must be a sequence of ints: found \[1.0\]"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], None, "f33"), r"^Dot: unknown element type 'f33'"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], None, hlo.PrimitiveType.TUPLE), r"^Dot: the preferred element type must be an array element type: found tuple"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], PrecisionConfig(("high",))), r"^Dot: precision_config needs 2 operand precisions: found 1"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], PrecisionConfig(("ultra", "high"))), r"^Dot: precision_config: 'ultra' is not a valid Precision"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], PrecisionConfig((), "dot_f99")), r"^Dot: precision_config: 'dot_f99' is not a valid DotAlgorithm"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], "highest"), r"^Dot: precision_config must be a PrecisionConfig: found 'highest'"),
    (["f32[2,3]", "f32[3,4]"], lambda p, b: ops.Dot(p[0], p[1], {"precision": ["high", "high"]}), r"^Dot: precision_config has unknown fields \['precision'\]"),
    # RaggedDot: one ragged lhs dimension, group_sizes [b..., x..., g] or [g], the rhs group dimension by mode
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [], [0])), r"^RaggedDot: lhs_ragged_dims=\[\] must name exactly one dimension of lhs f32\[11,5\]"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0, 1], [0])), r"^RaggedDot: lhs_ragged_dims=\[0,1\] must name exactly one dimension"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [2], [0])), r"^RaggedDot: lhs_ragged_dims=\[2\] contains 2, not a dimension of lhs f32\[11,5\]"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [2], [0], [0])), r"^RaggedDot: contracting dimension 1 of lhs \(5\) does not match contracting dimension 2 of rhs \(7\): f32\[11,5\]\{1,0\} <ragged-dot> f32\[3,5,7\]"),
    (["f32[11,5]", "f32[3,5,7]", "s32[]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0])), r"^RaggedDot: operand 2 \(group_sizes\) must have shape \[g\] or \[g\] for the non-contracting ragged dimension 0 of lhs f32\[11,5\]\{1,0\}: found s32\[\]"),
    (["f32[2,11,5]", "f32[3,2,5,7]", "s32[4,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [2], [1], [0], [0], [1])), r"^RaggedDot: operand 2 \(group_sizes\) must have shape \[2,g\] or \[g\] for the non-contracting ragged dimension 1 of lhs .*: found s32\[4,3\]"),
    (["f32[2,11,5]", "f32[3,2,5,7]", "s32[2,1,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [2], [1], [0], [0], [1])), r"^RaggedDot: operand 2 \(group_sizes\) must have shape \[2,g\] or \[g\]"),
    (["f32[2,11,5]", "f32[2,5,7]", "s32[2,11,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [1], [2], [], [0], [0])), r"^RaggedDot: operand 2 \(group_sizes\) must have shape \[2,g\] or \[g\] for the contracting ragged dimension 2"),
    (["f32[4,11,5]", "f32[4,5,7]", "s32[4,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [1], [0], [], [0], [0])), r"^RaggedDot: operand 2 \(group_sizes\) must have shape \[g\] or \[g\] for the batch ragged dimension 0"),
    (["f32[2,11,5]", "f32[3,2,5,7]", "s32[2,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [2], [1], [4], [0], [1])), r"^RaggedDot: rhs_group_dims=\[4\] contains 4, not a dimension of rhs f32\[3,2,5,7\]"),
    (["f32[2,11,5]", "f32[3,2,5,7]", "s32[2,3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [2], [1], [1], [0], [1])), r"^RaggedDot: rhs_group_dims=\[1\]: rhs dimension 1 is a batch or contracting dimension"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [1])), r"^RaggedDot: rhs_group_dims=\[1\]: rhs dimension 1 is a batch or contracting dimension"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [])), r"^RaggedDot: rhs_group_dims=\[\] must name exactly one dimension of rhs f32\[3,5,7\]\{2,1,0\}: the ragged dimension 0 of lhs is a non-contracting dimension"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0, 2])), r"^RaggedDot: rhs_group_dims=\[0,2\] must name exactly one dimension"),
    (["f32[11,5]", "f32[3,5,7]", "s32[4]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0])), r"^RaggedDot: rhs group dimension 0 \(3\) must have the number of groups of operand 2 \(group_sizes, s32\[4\]\{0\}\): 4"),
    (["f32[11,5]", "f32[3,5,7]", "s32[<=4]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0])), r"^RaggedDot: rhs group dimension 0 \(3\) must have the number of groups .*: <=4"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [1], [0])), r"^RaggedDot: rhs_group_dims=\[0\] must be empty: the ragged dimension 1 of lhs is a contracting dimension"),
    (["f32[4,11,5]", "f32[3,4,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([2], [2], [0], [0], [0], [1])), r"^RaggedDot: rhs_group_dims=\[0\] must be empty: the ragged dimension 0 of lhs is a batch dimension"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], {"lhs_ragged_dims": [0]}), r"^RaggedDot: dimension_numbers has unknown fields \['lhs_ragged_dims'\]"),
    (["f32[11,5]", "f32[3,5,7]", "s32[3]"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], dn([1], [1])), r"^RaggedDot: dimension_numbers must be a RaggedDotDimensionNumbers or a dict"),
    (["f32[11,5]", "f32[3,5,7]", "(s32[3])"], lambda p, b: ops.RaggedDot(p[0], p[1], p[2], ragged([1], [1], [0], [0])), r"^RaggedDot: operand 2 \(group_sizes\) must be an array"),
    # ScaledDot: the scales as XLA's verifier checks them
    ([f"{F8}[8,64]", f"{F8}[64,16]", f"{E8}[8]", f"{E8}[2,16]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), r"^ScaledDot: operand 2 \(lhs_scale\) must have the rank of operand 0 \(lhs\): found f8e8m0fnu\[8\]\{0\} and f8e4m3fn\[8,64\]"),
    ([f"{F8}[8,64]", f"{F8}[64,16]", f"{E8}[8,2]", f"{E8}[]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), r"^ScaledDot: operand 3 \(rhs_scale\) must have the rank of operand 1 \(rhs\)"),
    ([f"{F8}[8,64]", f"{F8}[64,16]", f"{E8}[8,3]", f"{E8}[2,16]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), r"^ScaledDot: dimension 1 of operand 0 \(lhs, f8e4m3fn\[8,64\]\{1,0\}\) must be a multiple of dimension 1 of operand 2 \(lhs_scale, f8e8m0fnu\[8,3\]"),
    ([f"{F8}[8,64]", f"{F8}[64,16]", f"{E8}[8,2]", f"{E8}[2,0]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), r"^ScaledDot: dimension 1 of operand 1 \(rhs, .*\) must be a multiple of dimension 1 of operand 3"),
    ([f"{F8}[8,4,16]", f"{F8}[4,16,16]", f"{E8}[8,2,2]", f"{E8}[2,2,16]"], lambda p, b: ops.ScaledDot(*p, dn([1, 2], [0, 1])), r"^ScaledDot: lhs_contracting_dims=\[1,2\] must name exactly one dimension when lhs is scaled"),
    (["bf16[8,64]", "bf16[64,16]", "bf16[]", "bf16[]"], lambda p, b: ops.ScaledDot(*p, dn([1], [0])), r"^ScaledDot: at least one of the scales must not be a scalar: found bf16\[\] and bf16\[\]"),
    ([f"{F8}[8,64]", f"{F8}[64,16]", f"{E8}[8,2]", f"{E8}[2,16]"], lambda p, b: ops.ScaledDot(*p, dn([1], [1])), r"^ScaledDot: contracting dimension 1 of lhs \(64\) does not match contracting dimension 1 of rhs \(16\): .* <scaled-dot> "),
]  # fmt: skip


@pytest.mark.parametrize(("shapes", "fn", "message"), BAD)
def test_builder_errors(shapes: list[str], fn: BuildFn, message: str) -> None:
    with pytest.raises(hlo.ShapeError) as info:
        build_ops(shapes, fn)
    # The message itself (str(error) also quotes the caller's source line).
    assert re.search(message, info.value.message), info.value.message
    assert "test_shapes_dot.py" in str(info.value)  # points at the caller's line


# -- values -------------------------------------------------------------------------------------
def test_page_003_examples_and_matmul_operator() -> None:
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "f32[2,3]", "x")
    y = ops.Parameter(b, 1, "f32[2,3]", "y")
    u = ops.Parameter(b, 2, "f32[2,2,2]", "u")
    w = ops.Parameter(b, 3, "f32[2,2,2]", "w")
    m = ops.Parameter(b, 4, "f32[3,4]", "m")
    v = ops.Parameter(b, 5, "f32[3]", "v")
    ops.Tuple(
        b,
        [
            ops.DotGeneral(x, y, dn([1], [1])),
            ops.DotGeneral(u, w, dn([2], [1], [0], [0])),
            x @ m,
            x @ v,
            v @ m,
        ],
    )
    comp = b.build()
    lhs = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    rhs = np.array([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], np.float32)
    batch = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], np.float32)
    eye = np.array([np.eye(2), np.eye(2)], np.float32)
    mat = np.arange(12, dtype=np.float32).reshape(3, 4)
    vec = np.array([1.0, -1.0, 2.0], np.float32)
    out = hlo.run(comp, lhs, rhs, batch, eye, mat, vec)
    assert out[0].tolist() == [[6.0, 12.0], [15.0, 30.0]]
    assert out[1].tolist() == batch.tolist()
    np.testing.assert_array_equal(out[2], lhs @ mat)
    np.testing.assert_array_equal(out[3], lhs @ vec)
    np.testing.assert_array_equal(out[4], vec @ mat)
    assert [i.opcode.text for i in comp.module.entry.instructions].count("dot") == 5


def test_a_scalar_dot_runs() -> None:
    b = hlo.XlaBuilder("f")
    v = ops.Parameter(b, 0, "f32[3]", "v")
    assert (v @ v).shape.to_string(print_layout=False) == "f32[]"
    vec = np.array([1.0, -1.0, 2.0], np.float32)
    assert hlo.run(b.build(), vec) == vec @ vec


def test_matmul_operator_is_dot() -> None:
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "s8[2,3]", "x")
    y = ops.Parameter(b, 1, "s8[3,4]", "y")
    z = x @ y
    assert z.shape.to_string(print_layout=False) == "s8[2,4]"
    dot = b.instructions[-1]
    assert dot.opcode is hlo.Opcode.DOT
    assert (dot.attr("lhs_contracting_dims"), dot.attr("rhs_contracting_dims")) == ((1,), (0,))
    with pytest.raises(hlo.ShapeError, match=r"Dot: contracting dimension 1 of lhs \(3\) does not match"):
        x @ x


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_dot_general_matches_einsum(data: st.DataObject) -> None:
    """Random batch/contracting/free splits in random dimension orders: the rule's shape is the
    kernel's and the values are np.einsum's."""
    nb, nc, nm, nn = (data.draw(st.integers(0, 2)) for _ in range(4))
    letters = "abcdefgh"
    batch, contract = letters[:nb], letters[nb : nb + nc]
    free_l, free_r = letters[nb + nc : nb + nc + nm], letters[nb + nc + nm : nb + nc + nm + nn]
    sizes = {c: data.draw(st.integers(1, 3)) for c in letters}
    lhs_axes = data.draw(st.permutations(batch + contract + free_l))
    rhs_axes = data.draw(st.permutations(batch + contract + free_r))
    numbers = dn(
        [lhs_axes.index(c) for c in contract],
        [rhs_axes.index(c) for c in contract],
        [lhs_axes.index(c) for c in batch],
        [rhs_axes.index(c) for c in batch],
    )
    rng = np.random.default_rng(len(lhs_axes) * 10 + len(rhs_axes))
    a = rng.integers(-4, 5, [sizes[c] for c in lhs_axes]).astype(np.float32)
    c_ = rng.integers(-4, 5, [sizes[c] for c in rhs_axes]).astype(np.float32)
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, hlo.Shape.array("f32", a.shape), "x")
    y = ops.Parameter(b, 1, hlo.Shape.array("f32", c_.shape), "y")
    out = ops.DotGeneral(x, y, numbers)
    # batch dimensions in the order listed, then the free ones in each operand's own order
    result = batch + "".join(c for c in lhs_axes if c in free_l) + "".join(c for c in rhs_axes if c in free_r)
    expected = np.einsum(f"{''.join(lhs_axes)},{''.join(rhs_axes)}->{result}", a, c_)
    assert out.shape.dimensions == expected.shape
    got = hlo.run(b.build(), a, c_)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


# -- HLO text -----------------------------------------------------------------------------------
PARAMS = (
    "  x = f32[2,3] parameter(0)\n  y = f32[3,4] parameter(1)\n  p = s8[2,3] parameter(2)\n"
    "  q = s8[3,4] parameter(3)\n  l = bf16[11,5] parameter(4)\n  r = bf16[3,5,7] parameter(5)\n"
    "  g = s32[3] parameter(6)\n  a = f8e4m3fn[8,64] parameter(7)\n  c = f8e4m3fn[64,16] parameter(8)\n"
    "  as = f8e8m0fnu[8,2] parameter(9)\n  cs = f8e8m0fnu[2,16] parameter(10)\n"
    "  d = f32[<=2,?] parameter(11)\n  k = f32[5,7] parameter(12)\n  e = f8e8m0fnu[3,2] parameter(13)\n"
)

WRITTEN = [
    ("ROOT o = f32[2,4] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}", None),
    ("ROOT o = s32[2,4] dot(p, q), lhs_contracting_dims={1}, rhs_contracting_dims={0}", None),
    ("ROOT o = s8[2,4] dot(p, q), lhs_contracting_dims={1}, rhs_contracting_dims={0}", None),
    ("ROOT o = bf16[2,4] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}", None),
    ("ROOT o = f32[2,4] dot(p, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}", None),
    ("ROOT o = f32[2,4] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={highest,default}, algorithm=dot_f32_f32_f32", None),
    ("ROOT o = f32[<=2,4] dot(d, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}", None),
    ("ROOT o = f32[2,3,3,4] dot(x, y), lhs_contracting_dims={}, rhs_contracting_dims={}", None),
    ("ROOT o = f32[4,2] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}", r"%o: gives f32\[2,4\]\{1,0\}, not f32\[4,2\]"),
    ("ROOT o = f32[2,4] dot(x, y), lhs_contracting_dims={0}, rhs_contracting_dims={0}", r"%o: contracting dimension 0 of lhs \(2\) does not match contracting dimension 0 of rhs \(3\): f32\[2,3\]\{1,0\} <dot> f32\[3,4\]\{1,0\}"),
    ("ROOT o = f32[2,4] dot(x, y), lhs_contracting_dims={1}", r"%o: lhs_contracting_dims=\[1\] and rhs_contracting_dims=\[\] must have the same length"),
    ("ROOT o = f32[11,7] ragged-dot(l, r, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}", None),
    ("ROOT o = bf16[11,7] ragged-dot(l, r, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}, operand_precision={high,high}", None),
    ("ROOT o = f32[3,11,7] ragged-dot(x, k, g), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1}", r"contracting dimension 1 of lhs \(3\) does not match contracting dimension 0 of rhs \(5\)"),
    ("ROOT o = f32[11,7] ragged-dot(l, r, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}", r"%o: rhs_group_dims=\[\] must name exactly one dimension"),
    ("ROOT o = bf16[8,16] scaled-dot(a, c, as, cs), lhs_contracting_dims={1}, rhs_contracting_dims={0}", None),
    ("ROOT o = f32[8,16] scaled-dot(a, c, as, cs), lhs_contracting_dims={1}, rhs_contracting_dims={0}, operand_precision={highest,highest}", None),
    ("ROOT o = bf16[8,16] scaled-dot(a, c, e, cs), lhs_contracting_dims={1}, rhs_contracting_dims={0}", r"%o: dimension 0 of operand 0 \(lhs, f8e4m3fn\[8,64\]\{1,0\}\) must be a multiple of dimension 0 of operand 2 \(lhs_scale, f8e8m0fnu\[3,2\]"),
    ("ROOT o = bf16[8,4] scaled-dot(a, c, as, cs), lhs_contracting_dims={1}, rhs_contracting_dims={0}", r"%o: gives bf16\[8,16\]\{1,0\}, not bf16\[8,4\]"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "message"), WRITTEN)
def test_written_shapes_against_the_rules(line: str, message: str | None) -> None:
    errors = rule_errors(entry_module(PARAMS + "  " + line))
    if message is None:
        assert errors == []
    else:
        assert len(errors) == 1 and re.search(message, errors[0]), errors


def test_the_verifier_takes_the_written_type_as_preferred() -> None:
    """XLA's verifier infers with the written element type as the preferred one: s8 x s8 may
    give s32 (the golden dot_general dump), f32 x f32 may give bf16."""
    text = entry_module(
        PARAMS
        + "  o1 = s32[2,4] dot(p, q), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
        + "  o2 = bf16[2,4] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
        + "  ROOT o3 = f32[11,7] ragged-dot(l, r, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, "
        + "lhs_ragged_dims={0}, rhs_group_dims={0}"
    )
    assert hlo.verify(hlo.parse_module(text), all_errors=True) == []


OMITTED = """HloModule m

ENTRY e {
  x = f32[<=2,3] parameter(0)
  y = bf16[3,4] parameter(1)
  p = s8[4,3] parameter(2)
  l = bf16[11,5] parameter(3)
  r = bf16[3,5,7] parameter(4)
  g = s32[<=3] parameter(5)
  k = bf16[5,7] parameter(6)
  a = f8e4m3fn[8,64] parameter(7)
  c = f8e4m3fn[64,16] parameter(8)
  as = f8e8m0fnu[8,2] parameter(9)
  cs = f8e8m0fnu[2,16] parameter(10)
  u = f32[2,10] parameter(11)
  v = f32[10,2] parameter(12)
  d1 = dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  d2 = dot(p, x), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  d3 = dot(u, v), lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={1}, rhs_contracting_dims={0}
  r1 = ragged-dot(l, r, g), lhs_contracting_dims={1}, rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}
  r2 = ragged-dot(l, k, g), lhs_contracting_dims={1}, rhs_contracting_dims={0}, lhs_ragged_dims={1}
  sd = scaled-dot(a, c, as, cs), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT out = tuple(d1, d2, d3, r1, r2, sd)
}
"""


def test_omitted_result_shapes_are_inferred() -> None:
    m = hlo.parse_module(OMITTED)
    shapes = {i.name: i.shape.to_string(print_layout=False) for i in m.entry.instructions}
    assert shapes["d1"] == "f32[<=2,4]"
    assert shapes["d2"] == "f32[4,<=2]"
    assert shapes["d3"] == "f32[2]"  # XLA's parser test InferDotShape
    assert shapes["r1"] == "bf16[11,7]"
    assert shapes["r2"] == "bf16[<=3,11,7]"
    assert shapes["sd"] == "f8e4m3fn[8,16]"
    assert hlo.verify(m, all_errors=True) == []
    again = hlo.parse_module(m.to_text())
    assert again.to_text() == m.to_text()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ROOT o = dot(x, y), lhs_contracting_dims={2}, rhs_contracting_dims={0}", r"lhs_contracting_dims=\[2\] contains 2"),
        ("ROOT o = dot(x, y), lhs_contracting_dims={0}, rhs_contracting_dims={0}", r"contracting dimension 0 of lhs \(2\) does not match"),
        ("ROOT o = dot(x, y), lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={0}", r"lhs_batch_dims=\[0\] and rhs_batch_dims=\[\] must have the same length"),
        ("ROOT o = ragged-dot(x, y, g), lhs_contracting_dims={1}, rhs_contracting_dims={0}", r"lhs_ragged_dims=\[\] must name exactly one dimension"),
        ("ROOT o = scaled-dot(x, y, y, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}", r"dimension 0 of operand 0 \(lhs, f32\[2,3\]\{1,0\}\) must be a multiple of dimension 0 of operand 2"),
    ],
)  # fmt: skip
def test_omitted_shape_errors(line: str, message: str) -> None:
    text = entry_module(
        f"  x = f32[2,3] parameter(0)\n  y = f32[3,4] parameter(1)\n  g = s32[3] parameter(2)\n  {line}"
    )
    with pytest.raises(hlo.ParseError, match=message):
        hlo.parse_module(text)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_dumps_satisfy_the_rules(path: Path) -> None:
    """Every dot XLA wrote (s8 x s8 -> s32 among them) passes its rule."""
    assert rule_errors(path.read_text()) == []


def test_a_built_computation_prints_parses_back_and_satisfies_the_rules() -> None:
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "bf16[4,11,5]", "x")
    w = ops.Parameter(b, 1, "bf16[3,5,7]", "w")
    g = ops.Parameter(b, 2, "s32[4,3]", "g")
    a = ops.Parameter(b, 3, "f8e4m3fn[8,64]", "a")
    s = ops.Parameter(b, 4, "f8e8m0fnu[8,2]", "s")
    m = ops.Parameter(b, 5, "bf16[64,16]", "m")
    r = ops.RaggedDot(x, w, g, ragged([2], [1], [1], [0]), PrecisionConfig(("highest", "default")), "f32")
    t = ops.DotGeneral(r, ops.ConvertElementType(w, "f32"), dn([2], [2], [], []), None, "f32")
    y = ops.ScaledDot(
        a,
        m,
        s,
        ops.ConvertElementType(ops.ConstantR0(b, 1.0), "bf16"),
        dn([1], [0]),
        PrecisionConfig((), "dot_bf16_bf16_f32"),
    )
    z = ops.Dot(ops.ConvertElementType(y, "f32"), ops.Transpose(ops.ConvertElementType(m, "f32"), [1, 0]))
    ops.Tuple(b, [t, z @ ops.ConvertElementType(m, "f32")])
    comp = b.build()
    text = comp.to_text()
    assert "operand_precision={highest,default}" in text and "algorithm=dot_bf16_bf16_f32" in text
    assert "lhs_ragged_dims={1}, rhs_group_dims={0}" in text
    assert_round_trip(comp, rule_errors)
    assert comp.result_shape.to_string(print_layout=False) == "(f32[4,11,3,5], f32[8,16])"
