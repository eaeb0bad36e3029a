"""Shape rule and builder functions of convolution (XLA's InferConvolveShape and the XlaBuilder
Conv family): tables of good cases (NCHW and NHWC dim labels, SAME/VALID, strides, negative
padding, lhs/rhs dilation, feature groups, batch groups, 0 to 3 spatial dimensions, preferred
types, dynamic dimensions) and of bad ones (each of XLA's constraints broken once), HLO text
checked through the rule (the golden dumps' convolutions among it), and build -> text -> parse
round trips."""

# ruff: noqa: E501  (tables of cases, one per line, with the message each must give)
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hlo
from hlo import ops
from hlo.ir.attrs import ConvolutionDimensionNumbers, Window
from hlo.ops.convolution import default_dimension_numbers
from hlo.ops.dot import PrecisionConfig
from shape_checks import assert_round_trip
from shape_checks import rule_errors as shape_rule_errors

Fn = Callable[[list[Any], hlo.XlaBuilder], Any]
GOLDEN = sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo"))

# dim_labels b01f_01io->b01f (TensorFlow's NHWC / HWIO)
NHWC = ConvolutionDimensionNumbers(0, 3, (1, 2), 2, 3, (0, 1), 0, 3, (1, 2))
NCHW = default_dimension_numbers(2)  # bf01_oi01->bf01
# fb01_io01->fb01: the weight gradient jax writes with batch groups (golden dump conv_transpose)
FB01 = ConvolutionDimensionNumbers(1, 0, (2, 3), 0, 1, (2, 3), 1, 0, (2, 3))
NCW = default_dimension_numbers(1)
NCDHW = default_dimension_numbers(3)


def run(shapes: Sequence[str], fn: Fn) -> tuple[str, hlo.XlaBuilder, Any]:
    """Build fn(parameters of `shapes`, builder): the result shape without layout, the builder
    and the result op."""
    b = hlo.XlaBuilder("t")
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    result = fn(params, b)
    return result.shape.to_string(print_layout=False), b, result


def rule_errors(text: str) -> list[str]:
    return shape_rule_errors(text, ("convolution",), same_dynamic=True)


def window_of(b: hlo.XlaBuilder, op: Any) -> str:
    """The printed window= and dim_labels= of the instruction `op`."""
    line = next(line for line in b.build(op).to_text().splitlines() if "convolution(" in line)
    return ", ".join(re.findall(r"(?:window|dim_labels)=(?:\{[^}]*\}|[^,\s]+)", line))


# -- builder functions: good cases --------------------------------------------------------------
GOOD: list[tuple[str, list[str], Fn, str]] = [
    # Conv: default dimension numbers (bf01_oi01->bf01), SAME/VALID as XLA's MakePadding
    ("valid", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), "f32[1,3,3,3]"),
    ("same", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "SAME"), "f32[1,3,5,5]"),
    ("same strided", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [2, 2], "SAME"), "f32[1,3,3,3]"),
    ("same even kernel", ["f32[1,1,10,9]", "f32[1,1,4,4]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "same"), "f32[1,1,10,9]"),
    # MakePadding's own example: base 10, window 5, stride 3 -> 4 outputs
    ("same stride 3", ["f32[1,1,10]", "f32[1,1,5]"], lambda p, b: ops.Conv(p[0], p[1], [3], "SAME"), "f32[1,1,4]"),
    ("valid strided", ["f32[2,3,9,8]", "f32[4,3,3,2]"], lambda p, b: ops.Conv(p[0], p[1], [2, 3], "VALID"), "f32[2,4,4,3]"),
    ("stride > window", ["f32[1,1,10]", "f32[1,1,2]"], lambda p, b: ops.Conv(p[0], p[1], [4], "VALID"), "f32[1,1,3]"),
    ("kernel > input", ["f32[1,1,2]", "f32[1,1,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "f32[1,1,0]"),
    ("same kernel > input", ["f32[1,1,2]", "f32[1,1,5]"], lambda p, b: ops.Conv(p[0], p[1], [1], "SAME"), "f32[1,1,2]"),
    ("zero-size input", ["f32[1,1,0]", "f32[1,1,1]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "f32[1,1,0]"),
    ("zero batch", ["f32[0,2,4]", "f32[3,2,2]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "f32[0,3,3]"),
    # NHWC / HWIO dimension numbers
    ("nhwc same", ["f32[2,8,8,3]", "f32[3,3,3,4]"], lambda p, b: ops.ConvWithGeneralDimensions(p[0], p[1], [1, 1], "SAME", NHWC), "f32[2,8,8,4]"),
    ("nhwc strided", ["f32[2,4,4,4]", "f32[3,3,4,8]"], lambda p, b: ops.ConvGeneral(p[0], p[1], [2, 2], [(1, 1), (1, 1)], NHWC), "f32[2,2,2,8]"),
    ("nhwc as dict", ["f32[2,7,7,4]", "f32[3,3,4,6]"],
     lambda p, b: ops.ConvWithGeneralDimensions(p[0], p[1], [1, 1], "VALID", {
         "input_batch_dimension": 0, "input_feature_dimension": 3, "input_spatial_dimensions": [1, 2],
         "kernel_input_feature_dimension": 2, "kernel_output_feature_dimension": 3, "kernel_spatial_dimensions": [0, 1],
         "output_batch_dimension": 0, "output_feature_dimension": 3, "output_spatial_dimensions": [1, 2]}), "f32[2,5,5,6]"),
    # the output laid out differently from the input: NCHW in, NHWC out
    ("nchw to nhwc", ["f32[2,3,6,5]", "f32[4,3,3,3]"],
     lambda p, b: ops.ConvGeneral(p[0], p[1], [1, 1], [], ConvolutionDimensionNumbers(0, 1, (2, 3), 1, 0, (2, 3), 0, 3, (1, 2))), "f32[2,4,3,4]"),
    # explicit padding, negative padding (removes elements), padding down to nothing
    ("general padding", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1, 1], [(2, 1), (0, 3)]), "f32[1,3,6,6]"),
    ("negative padding", ["f32[1,1,7]", "f32[1,1,3]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1], [(-1, -2)]), "f32[1,1,2]"),
    ("mixed padding", ["f32[1,1,7]", "f32[1,1,3]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [2], [(-3, 4)]), "f32[1,1,3]"),
    ("padded to zero", ["f32[1,1,3]", "f32[1,1,1]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1], [(-2, -1)]), "f32[1,1,0]"),
    # lhs (base) dilation: the transposed convolution; rhs (window) dilation: atrous
    ("lhs dilation", ["f32[1,4,4,2]", "f32[3,3,2,3]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [(2, 1), (2, 1)], [2, 2], [1, 1], NHWC), "f32[1,8,8,3]"),
    ("rhs dilation", ["f32[1,4,6,6]", "f32[3,4,2,2]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [(2, 1), (0, 1)], [1, 1], [2, 2], NCHW), "f32[1,3,7,5]"),
    ("both dilations", ["f32[1,1,5]", "f32[1,1,3]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [2], [(0, 0)], [3], [2], NCW), "f32[1,1,5]"),
    ("dilation and negative padding", ["f32[1,1,5]", "f32[1,1,2]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1], [(-2, -2)], [2], [3], NCW), "f32[1,1,2]"),
    ("window reversal", ["f32[128,7,7,16]", "f32[3,3,8,16]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [(1, 2), (1, 2)], [2, 2], [1, 1],
                                         ConvolutionDimensionNumbers(0, 3, (1, 2), 3, 2, (0, 1), 0, 3, (1, 2)),
                                         window_reversal=[True, True]), "f32[128,14,14,8]"),
    ("empty lists", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [], [], [], [], NCHW), "f32[1,3,3,3]"),
    # feature groups: grouped and depthwise (feature_group_count = input features)
    ("grouped", ["f32[2,4,6,6]", "f32[6,2,3,3]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [2, 2], [(1, 1), (1, 1)], 2), "f32[2,6,3,3]"),
    ("grouped nhwc", ["f32[2,7,7,4]", "f32[3,3,2,6]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [(1, 1), (0, 0)], [1, 1], [2, 1], NHWC, feature_group_count=2), "f32[2,5,5,6]"),
    ("depthwise", ["f32[1,6,5,5]", "f32[6,1,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 6), "f32[1,6,3,3]"),
    ("depthwise multiplier", ["f32[1,5,5,6]", "f32[3,3,1,12]"],
     lambda p, b: ops.ConvWithGeneralDimensions(p[0], p[1], [1, 1], "SAME", NHWC, feature_group_count=6), "f32[1,5,5,12]"),
    # batch groups: the output batch is the input batch / batch_group_count
    ("batch groups", ["f32[4,3,5,5]", "f32[6,3,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 1, 2), "f32[2,6,3,3]"),
    ("batch groups wgrad", ["f32[2,4,6,6]", "f32[2,6,3,3]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [(1, 0), (1, 0)], [1, 1], [2, 2], FB01, batch_group_count=2), "f32[6,2,3,3]"),
    ("batch groups = batch", ["f32[3,2,4]", "f32[6,2,2]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID", batch_group_count=3), "f32[1,6,3]"),
    # 0, 1 and 3 spatial dimensions
    ("0-d", ["f32[3,4]", "f32[5,4]"], lambda p, b: ops.Conv(p[0], p[1], [], "VALID"), "f32[3,5]"),
    ("0-d general", ["f32[4,3]", "f32[4,5]"],
     lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], ConvolutionDimensionNumbers(1, 0, (), 0, 1, (), 1, 0, ())), "f32[5,3]"),
    ("1-d", ["f32[2,3,9]", "f32[5,3,3]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [2], [(1, 1)]), "f32[2,5,5]"),
    ("3-d", ["f32[1,2,4,5,6]", "f32[3,2,2,2,2]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1, 1], "VALID"), "f32[1,3,3,4,5]"),
    ("3-d same strided", ["f32[1,2,4,5,6]", "f32[3,2,3,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [2, 2, 2], "SAME"), "f32[1,3,2,3,3]"),
    ("3-d dilated", ["f32[2,6,6,2,2]", "f32[3,3,2,2,3]"],
     lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1, 1], [(1, 0), (1, 0), (0, 0)], [1, 1, 2], [2, 2, 1],
                                         ConvolutionDimensionNumbers(0, 4, (1, 2, 3), 3, 4, (0, 1, 2), 0, 4, (1, 2, 3))), "f32[2,3,3,2,3]"),
    # element types: the preferred type, else the more precise operand type (no type check)
    ("preferred s32", ["s8[1,2,5,5]", "s8[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", preferred_element_type="s32"), "s32[1,3,3,3]"),
    ("preferred f32", ["bf16[1,2,5,5]", "bf16[3,2,3,3]"],
     lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", preferred_element_type=hlo.PrimitiveType.F32), "f32[1,3,3,3]"),
    ("preferred narrower", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", preferred_element_type="bf16"), "bf16[1,3,3,3]"),
    ("mixed precision", ["bf16[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), "f32[1,3,3,3]"),
    ("int and float", ["s32[1,2,5]", "f16[3,2,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "f16[1,3,3]"),
    ("complex", ["c64[1,2,5]", "f32[3,2,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "c64[1,3,3]"),
    ("s8 stays s8", ["s8[1,2,5]", "s8[3,2,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "s8[1,3,3]"),
    ("precision config", ["f32[1,2,5]", "f32[3,2,3]"],
     lambda p, b: ops.Conv(p[0], p[1], [1], "VALID", precision_config=PrecisionConfig(("highest", "default"))), "f32[1,3,3]"),
    # dynamic dimensions: batch and spatial dimensions of lhs, spatial dimensions of rhs
    ("dynamic batch", ["f32[<=4,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), "f32[<=4,3,3,3]"),
    ("dynamic batch groups", ["f32[<=4,3,5]", "f32[6,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID", batch_group_count=2), "f32[<=2,6,3]"),
    ("dynamic spatial", ["f32[1,2,<=5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "SAME"), "f32[1,3,<=5,5]"),
    ("dynamic spatial nhwc", ["f32[1,5,<=7,2]", "f32[3,3,2,4]"], lambda p, b: ops.ConvWithGeneralDimensions(p[0], p[1], [1, 2], "VALID", NHWC), "f32[1,3,<=3,4]"),
    ("dynamic input feature", ["f32[1,<=2,5]", "f32[3,2,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "f32[1,3,3]"),
    ("dynamic kernel spatial", ["f32[1,2,5,5]", "f32[3,2,3,<=3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), "f32[1,3,3,<=3]"),
    ("dynamic kernel input", ["f32[1,2,5]", "f32[3,<=2,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "f32[1,3,3]"),
    ("unbounded batch", ["f32[?,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), "f32[?,3,3,3]"),
    ("unbounded spatial", ["f32[1,2,?,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [2, 2], "VALID"), "f32[1,3,?,2]"),
    ("unbounded features", ["f32[1,?,5]", "f32[3,?,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), "f32[1,3,3]"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "fn", "expected"), GOOD, ids=[g[0] for g in GOOD])
def test_builder_shapes(name: str, shapes: list[str], fn: Fn, expected: str) -> None:
    shape, b, _ = run(shapes, fn)
    assert shape == expected
    text = b.build().to_text()
    assert rule_errors(text) == []
    again = hlo.parse_module(text)
    assert again.to_text() == text
    assert hlo.verify(again, all_errors=True) == []


@pytest.mark.parametrize(
    ("shapes", "fn", "printed"),
    [
        (["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "SAME"), "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"),
        (["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), "window={size=3x3}, dim_labels=bf01_oi01->bf01"),
        # even window: the odd padding element goes high (MakePadding)
        (["f32[1,1,10,9]", "f32[1,1,4,4]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "SAME"), "window={size=4x4 pad=1_2x1_2}, dim_labels=bf01_oi01->bf01"),
        (["f32[1,1,10]", "f32[1,1,5]"], lambda p, b: ops.Conv(p[0], p[1], [3], "SAME"), "window={size=5 stride=3 pad=2_2}, dim_labels=bf0_oi0->bf0"),
        # SAME never pads negatively: a stride that skips the tail leaves it unpadded
        (["f32[1,1,10]", "f32[1,1,1]"], lambda p, b: ops.Conv(p[0], p[1], [4], "SAME"), "window={size=1 stride=4}, dim_labels=bf0_oi0->bf0"),
        (["f32[2,8,8,3]", "f32[3,3,3,4]"], lambda p, b: ops.ConvWithGeneralDimensions(p[0], p[1], [1, 1], "SAME", NHWC), "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
        (["f32[1,4,4,2]", "f32[3,3,2,3]"], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [(2, 1), (2, 1)], [2, 2], [1, 1], NHWC),
         "window={size=3x3 pad=2_1x2_1 lhs_dilate=2x2}, dim_labels=b01f_01io->b01f"),
        (["f32[1,1,7,7]", "f32[1,1,2,2]"], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [2, 1], [(-1, 0), (0, 0)], [], [1, 3], NCHW, window_reversal=[False, True]),
         "window={size=2x2 stride=2x1 pad=-1_0x0_0 rhs_dilate=1x3 rhs_reversal=0x1}, dim_labels=bf01_oi01->bf01"),
        (["f32[2,4,6,6]", "f32[2,6,3,3]"], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [(1, 0), (1, 0)], [1, 1], [2, 2], FB01, batch_group_count=2),
         "window={size=3x3 pad=1_0x1_0 rhs_dilate=2x2}, dim_labels=fb01_io01->fb01"),
        (["f32[3,4]", "f32[5,4]"], lambda p, b: ops.Conv(p[0], p[1], [], "SAME"), "dim_labels=bf_oi->bf"),
    ],
)  # fmt: skip
def test_builder_windows_are_printed_as_xla_prints_them(shapes: list[str], fn: Fn, printed: str) -> None:
    _, b, op = run(shapes, fn)
    assert window_of(b, op) == printed


# -- builder functions: bad cases ---------------------------------------------------------------
X, K = "f32[1,4,5,5]", "f32[6,4,3,3]"
BAD: list[tuple[list[str], Fn, str]] = [
    # group counts
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 0), r"ConvGeneralDilated: feature_group_count must be a positive number: found 0"),
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 1, -1), r"batch_group_count must be a positive number: found -1"),
    (["f32[2,4,5,5]", "f32[6,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 2, 2), r"feature_group_count and batch_group_count cannot both be greater than 1: found 2 and 2"),
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 1.5), r"feature_group_count must be an int: found 1.5"),
    # kernel output features divisible by batch_group_count and by feature_group_count
    (["f32[4,4,5,5]", "f32[3,4,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 1, 2), r"the kernel's output features \(3\) must be divisible by batch_group_count=2: found f32\[4,4,5,5\]\{3,2,1,0\} and f32\[3,4,3,3\]"),
    (["f32[1,4,5,5]", "f32[3,2,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 2), r"the kernel's output features \(3\) must be divisible by feature_group_count=2"),
    # input batch divisible by batch_group_count
    (["f32[3,4,5,5]", "f32[6,4,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 1, 2), r"the input batch \(3\) must be divisible by batch_group_count=2"),
    (["f32[?,4,5,5]", "f32[6,4,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 1, 2), r"an unbounded input batch cannot be split into batch_group_count=2 groups"),
    # input features divisible by feature_group_count, and / feature_group_count = kernel input features
    (["f32[1,3,5,5]", "f32[6,1,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 2), r"the input features \(3\) must be divisible by feature_group_count=2"),
    (["f32[1,4,5,5]", "f32[6,4,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", 2), r"the kernel's input features \(4\) times feature_group_count=2 must equal the input features \(4\)"),
    (["f32[1,2,5,5]", "f32[3,4,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), r"the kernel's input features \(4\) times feature_group_count=1 must equal the input features \(2\)"),
    (["f32[1,4,5,5,1]", "f32[6,4,3,3,1]"], lambda p, b: ops.ConvWithGeneralDimensions(p[0], p[1], [1, 1, 1], "VALID", ConvolutionDimensionNumbers(0, 1, (2, 3, 4), 4, 0, (2, 3, 1), 0, 1, (2, 3, 4))),
     r"the kernel's input features \(1\) times feature_group_count=1 must equal the input features \(4\)"),
    (["f32[1,?,5]", "f32[3,?,3]"], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID", 3), r"the input features \(\?\) must be divisible by feature_group_count=3"),
    # the window: positive sizes, strides and dilations; padding leaving a size >= 0
    ([X, K], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1, 0], [(0, 0), (0, 0)]), r"window dimension 1 must have a positive stride: found 0 in window=\{size=3x3 stride=1x0\}"),
    ([X, K], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [], [0, 1], [], NCHW), r"window dimension 0 must have a positive lhs_dilate: found 0"),
    ([X, K], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1, 1], [], [], [1, -2], NCHW), r"window dimension 1 must have a positive rhs_dilate: found -2"),
    (["f32[1,4,5,5]", "f32[6,4,3,0]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1, 1], []), r"window dimension 1 must have a positive size: found 0"),
    (["f32[1,1,3]", "f32[1,1,1]"], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1], [(-2, -2)]), r"the padding -2_-2 of window dimension 0 leaves a negative size around 3 \(dilated 3\)"),
    (["f32[1,1,3]", "f32[1,1,1]"], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1], [(-3, -3)], [2], [1], NCW), r"the padding -3_-3 of window dimension 0 leaves a negative size around 3 \(dilated 5\)"),
    # dynamic kernel output features
    (["f32[1,4,5,5]", "f32[<=6,4,3,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), r"the kernel's output feature dimension 0 must not be dynamic: found f32\[<=6,4,3,3\]"),
    # dimension numbers: XLA's VerifyConvolution in the builder, then the rule's permutation checks
    (["f32[1,4,5,5]", "f32[6,4,3]"], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), r"ConvWithGeneralDimensions: lhs and rhs must have the same number of dimensions: found f32\[1,4,5,5\]\{3,2,1,0\} and f32\[6,4,3\]"),
    (["f32[4]", "f32[4]"], lambda p, b: ops.Conv(p[0], p[1], [], "VALID"), r"lhs and rhs need at least 2 dimensions \(batch and feature\)"),
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1], "VALID"), r"ConvWithGeneralDimensions: dimension_numbers.input_spatial_dimensions must have 2 entries \(rank - 2\): found \[2\]"),
    ([X, K], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1, 1, 1], []), r"ConvGeneralDilated: dimension_numbers.input_spatial_dimensions must have 2 entries"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], ConvolutionDimensionNumbers(0, 1, (2, 4), 1, 0, (2, 3), 0, 1, (2, 3))), r"dimension_numbers.input_spatial_dimensions\[1\]=4 is out of bounds for rank-4 operands"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], ConvolutionDimensionNumbers(0, 1, (2, 3), 1, 0, (2, -1), 0, 1, (2, 3))), r"dimension_numbers.kernel_spatial_dimensions\[1\]=-1 is out of bounds"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], ConvolutionDimensionNumbers(0, 1, (2, 3), 1, 0, (2, 3), 0, 1, (3, 3))), r"dim_labels= output dimension numbers must name each of the 4 dimensions exactly once: found \[0, 1, 3, 3\]"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], ConvolutionDimensionNumbers(0, 0, (2, 3), 1, 0, (2, 3), 0, 1, (2, 3))), r"dim_labels= input dimension numbers must name each of the 4 dimensions exactly once: found \[0, 0, 2, 3\]"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], ConvolutionDimensionNumbers(0, 1, (2, 3), 2, 0, (2, 3), 0, 1, (2, 3))), r"dim_labels= kernel dimension numbers must name each of the 4 dimensions exactly once: found \[2, 0, 2, 3\]"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], ConvolutionDimensionNumbers(0, 4, (2, 3), 1, 0, (2, 3), 0, 1, (2, 3))), r"dim_labels= input dimension numbers must be dimensions of a rank-4 array: found 4 in \[0, 4, 2, 3\]"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], "bf01_oi01->bf01"), r"dimension_numbers must be a ConvolutionDimensionNumbers: found 'bf01_oi01->bf01'"),
    ([X, K], lambda p, b: ops.ConvGeneral(p[0], p[1], [], [], {"input_batch": 0}), r"dimension_numbers has unknown fields \['input_batch'\]"),
    # list arguments: one entry per spatial dimension, or none
    ([X, K], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [1], [], [], [], NCHW), r"window_strides must have one entry per spatial dimension \(2, the kernel's \[3, 3\]\) or none: found 1"),
    ([X, K], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1, 1], [(0, 0)]), r"padding must have one entry per spatial dimension \(2, the kernel's \[3, 3\]\) or none: found 1"),
    ([X, K], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [], [], [1, 1, 1], [], NCHW), r"lhs_dilation must have one entry per spatial dimension"),
    ([X, K], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [], [], [], [2], NCHW), r"rhs_dilation must have one entry per spatial dimension"),
    ([X, K], lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [], [], [], [], NCHW, window_reversal=[True]), r"window_reversal must have one entry per spatial dimension"),
    ([X, K], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1, 1], [0, 0]), r"padding must be \(low, high\) pairs: found \[0, 0\]"),
    ([X, K], lambda p, b: ops.ConvWithGeneralPadding(p[0], p[1], [1, "2"], []), r"window_strides must be a sequence of ints"),
    # SAME / VALID
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "FULL"), r'Conv.*: padding must be "SAME" or "VALID": found \'FULL\''),
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1, 0], "SAME"), r"ConvWithGeneralDimensions: window_strides\[1\] must be positive: found 0"),
    ([X, K], lambda p, b: ops.ConvWithGeneralDimensions(p[0], p[1], [1], "SAME", NCHW), r"window_strides must have one entry per spatial dimension \(2\): found \[1\]"),
    (["f32[1,4,?,5]", K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "SAME"), r"SAME padding needs a static or bounded size for input spatial dimension 0"),
    # operands and types
    (["(f32[1,4,5,5])", K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID"), r"ConvWithGeneralDimensions: lhs must be an array: found \(f32\[1,4,5,5\]"),
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", preferred_element_type="q32"), r"ConvGeneralDilated: unknown element type 'q32'"),
    ([X, K], lambda p, b: ops.Conv(p[0], 3.0, [1, 1], "VALID"), r"rhs must be an XlaOp: found float"),
    ([X, K], lambda p, b: ops.Conv(p[0], p[1], [1, 1], "VALID", precision_config=PrecisionConfig(("high",))), r"precision_config needs 2 operand precisions: found 1"),
]  # fmt: skip


@pytest.mark.parametrize(("shapes", "fn", "message"), BAD)
def test_builder_errors(shapes: list[str], fn: Fn, message: str) -> None:
    with pytest.raises(hlo.ShapeError) as info:
        run(shapes, fn)
    text = str(info.value)
    assert re.search(message, text), text
    assert "test_shapes_convolution.py" in text  # the user's line


# -- HLO text ---------------------------------------------------------------------------------
def module(body: str) -> str:
    return "HloModule m\nENTRY e {\n" + body + "\n}\n"


PARAMS = (
    "  x = f32[2,4,6,6] parameter(0)\n  k = f32[6,2,3,3] parameter(1)\n  h = f32[2,6,6,4] parameter(2)\n"
    "  w = f32[3,3,4,8] parameter(3)\n  i8 = s8[2,4,6,6] parameter(4)\n  k8 = s8[6,4,3,3] parameter(5)\n"
    "  d = f32[<=2,4,<=6,6] parameter(6)\n  kd = f32[<=6,4,3,3] parameter(7)\n"
    "  sp = (f32[6,1,3,3], u16[6,1,3,3]) parameter(8)\n  t3 = (f32[6,2,3,3], u16[1], u16[1]) parameter(9)\n"
    "  v = f32[4,3] parameter(10)\n  m = f32[5,3] parameter(11)\n"
)
WRITTEN: list[tuple[str, str | None]] = [
    ("ROOT r = f32[2,6,4,4] convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=2", None),
    ("ROOT r = f32[2,6,4,4] convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01", r"the kernel's input features \(2\) times feature_group_count=1 must equal the input features \(4\)"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f", None),
    ("ROOT r = f32[2,3,3,8] convolution(h, w), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f", None),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3x3}, dim_labels=b01f_01io->b01f", r"gives f32\[2,4,4,8\]\{3,2,1,0\}, not f32\[2,6,6,8\]"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f", r"the window sizes \[3, 2\] must be the kernel's spatial sizes \[3, 3\]: found f32\[3,3,4,8\]\{3,2,1,0\} and window=\{size=3x2 pad=1_1x1_1\}"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3}, dim_labels=b01f_01io->b01f", r"the window must have one dimension per spatial dimension of dim_labels= \(2\): found 1 in window=\{size=3\}"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), dim_labels=b01f_01io->b01f", r"the window must have one dimension per spatial dimension of dim_labels= \(2\): found 0"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3}, dim_labels=b0f_0io->b0f", r"operand 0 \(lhs\) must have rank 3 \(batch, feature and the 1 spatial dimensions of dim_labels=\): found f32\[2,6,6,4\]"),
    ("ROOT r = f32[2,6,6] convolution(v, w), window={size=3x3}, dim_labels=b01f_01io->b01f", r"operand 0 \(lhs\) must have rank 4"),
    ("ROOT r = f32[2,6,6,8] convolution(h, v), window={size=3x3}, dim_labels=b01f_01io->b01f", r"operand 1 \(rhs\) must have rank 4 .*: found f32\[4,3\]"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3x3 stride=0x1}, dim_labels=b01f_01io->b01f", r"window dimension 0 must have a positive stride: found 0"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3x3 pad=-7_0x0_0}, dim_labels=b01f_01io->b01f", r"the padding -7_0 of window dimension 0 leaves a negative size around 6"),
    ("ROOT r = f32[2,6,6,8] convolution(h, w), window={size=3x3}, dim_labels=b01f_01io->b01f, feature_group_count=0", r"feature_group_count must be a positive number: found 0"),
    # preferred type: the written element type (s8 x s8 -> s32; f32 x f32 -> bf16)
    ("ROOT r = s32[2,6,4,4] convolution(i8, k8), window={size=3x3}, dim_labels=bf01_oi01->bf01", None),
    ("ROOT r = bf16[2,6,4,4] convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=2", None),
    ("ROOT r = f32[2,6,4,4] convolution(i8, k), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=2", None),
    # dynamic dimensions: batch and spatial follow lhs; a dynamic kernel output feature is an error
    ("ROOT r = f32[<=2,6,<=4,4] convolution(d, k8), window={size=3x3}, dim_labels=bf01_oi01->bf01", None),
    ("ROOT r = f32[2,6,4,4] convolution(d, k8), window={size=3x3}, dim_labels=bf01_oi01->bf01", r"gives f32\[<=2,6,<=4,4\]\{3,2,1,0\}, not f32\[2,6,4,4\]"),
    ("ROOT r = f32[2,6,4,4] convolution(x, kd), window={size=3x3}, dim_labels=bf01_oi01->bf01", r"the kernel's output feature dimension 0 must not be dynamic: found f32\[<=6,4,3,3\]"),
    # a sparse kernel: (values, metadata), 1:N sparsity multiplies the kernel's input features by N
    ("ROOT r = f32[2,6,4,4] convolution(x, sp), window={size=3x3}, dim_labels=bf01_oi01->bf01, sparsity_config={rhs={sparsity=1x4 dimension=1 stride=1}}", None),
    ("ROOT r = f32[2,6,4,4] convolution(x, sp), window={size=3x3}, dim_labels=bf01_oi01->bf01, sparsity_config={rhs={sparsity=2x4 dimension=1 stride=1}}", r"sparsity_config= rhs must be 1:N sparsity \(one non-zero per block\): found 2:4"),
    ("ROOT r = f32[2,6,4,4] convolution(x, t3), window={size=3x3}, dim_labels=bf01_oi01->bf01", r"operand 1 \(rhs\), if a tuple, must be the 2 elements \(kernel, metadata\) of a sparse kernel"),
    # every convolution_kind is checked as the forward convolution (XLA's verifier and parser)
    ("ROOT r = f32[2,6,4,4] convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=2, convolution_kind=dgrad", None),
    # no spatial dimensions: a matrix product of v's rows with m's rows
    ("ROOT r = f32[4,5] convolution(v, m), dim_labels=bf_oi->bf", None),
    ("ROOT r = f32[5,4] convolution(v, m), dim_labels=bf_oi->fb", None),
    ("ROOT r = f32[5,4] convolution(v, m), dim_labels=bf_oi->bf", r"gives f32\[4,5\]\{1,0\}, not f32\[5,4\]"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "message"), WRITTEN)
def test_written_shapes_against_the_rule(line: str, message: str | None) -> None:
    errors = rule_errors(module(PARAMS + "  " + line))
    if message is None:
        assert errors == []
    else:
        assert len(errors) == 1 and re.search(message, errors[0]), errors


def test_the_verifier_checks_convolutions() -> None:
    text = module(
        PARAMS
        + "  a = f32[2,6,4,4] convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=2\n"
        + "  b = f32[2,6,4,4] convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01\n"
        + "  ROOT t = (f32[2,6,4,4], f32[2,6,4,4]) tuple(a, b)"
    )
    messages = [e.message for e in hlo.verify(hlo.parse_module(text), all_errors=True)]
    assert len(messages) == 1, messages
    assert (
        "the kernel's input features (2) times feature_group_count=1 must equal the input features (4)"
        in (messages[0])
    )


OMITTED = """HloModule m

ENTRY e {
  x = bf16[2,4,6,6] parameter(0)
  k = f32[6,2,3,3] parameter(1)
  h = f32[<=2,7,7,4] parameter(2)
  w = f32[3,3,4,8] parameter(3)
  v = s32[4,3] parameter(4)
  m = s32[5,3] parameter(5)
  a = convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, feature_group_count=2
  b = convolution(h, w), window={size=3x3 pad=0_1x-1_0 lhs_dilate=2x1 rhs_dilate=1x2}, dim_labels=b01f_01io->b01f
  c = convolution(v, m), dim_labels=bf_oi->bf
  ROOT t = tuple(a, b, c)
}
"""


def test_omitted_result_shapes_are_inferred() -> None:
    m = hlo.parse_module(OMITTED)
    shapes = {i.name: i.shape.to_string(print_layout=False) for i in m.entry.instructions}
    assert shapes["a"] == "f32[2,6,3,3]"  # the more precise operand type
    assert shapes["b"] == "f32[<=2,12,2,8]"
    assert shapes["c"] == "s32[4,5]"
    assert m.entry.by_name["c"].attrs["window"] == Window()
    assert hlo.verify(m, all_errors=True) == []
    again = hlo.parse_module(m.to_text())
    assert again.to_text() == m.to_text()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ROOT r = convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01", r"the kernel's input features \(2\) times feature_group_count=1"),
        ("ROOT r = convolution(x, k), window={size=2x2}, dim_labels=bf01_oi01->bf01, feature_group_count=2", r"the window sizes \[2, 2\] must be the kernel's spatial sizes"),
        ("ROOT r = convolution(x, k), window={size=3x3}, dim_labels=bf01_oi01->bf01, feature_group_count=2, batch_group_count=2", r"cannot both be greater than 1"),
    ],
)  # fmt: skip
def test_omitted_shape_errors(line: str, message: str) -> None:
    text = module("  x = f32[2,4,6,6] parameter(0)\n  k = f32[6,2,3,3] parameter(1)\n  " + line)
    with pytest.raises(hlo.ParseError, match=message):
        hlo.parse_module(text)


CONV_GOLDEN = [p for p in GOLDEN if "convolution(" in p.read_text()]


def test_some_golden_dumps_have_convolutions() -> None:
    assert len(CONV_GOLDEN) >= 4


@pytest.mark.parametrize("path", CONV_GOLDEN, ids=lambda p: p.name)
def test_golden_convolutions_satisfy_the_rule(path: Path) -> None:
    """Every convolution XLA wrote (jax's grouped, depthwise, dilated, transposed and batch-grouped
    convolutions, before and after optimization) passes the rule with its written shape."""
    text = path.read_text()
    assert rule_errors(text) == []
    assert hlo.verify(hlo.parse_module(text), all_errors=True) == []


# -- round trip -------------------------------------------------------------------------------
def test_built_convolutions_print_parse_back_equal_and_verify() -> None:
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "f32[2,4,6,6]", "x")
    k = ops.Parameter(b, 1, "f32[6,2,3,3]", "k")
    h = ops.Parameter(b, 2, "bf16[<=2,6,6,4]", "h")
    w = ops.Parameter(b, 3, "bf16[3,3,4,8]", "w")
    v = ops.Parameter(b, 4, "s8[3,4]", "v")
    m = ops.Parameter(b, 5, "s8[5,4]", "m")
    wide = ops.Parameter(b, 6, "f32[4,3,5]", "wide")
    k1 = ops.Parameter(b, 7, "f32[6,3,2]", "k1")
    results = [
        ops.Conv(x, k, [2, 2], "SAME", feature_group_count=2),
        ops.ConvWithGeneralPadding(x, k, [1, 1], [(-1, 2), (0, 0)], 2),
        ops.ConvWithGeneralDimensions(h, w, [1, 2], "SAME", NHWC, preferred_element_type="f32"),
        ops.ConvGeneralDilated(
            h, w, [1, 1], [(2, 1), (1, 2)], [2, 2], [1, 2], NHWC,
            precision_config=PrecisionConfig(("highest", "high")), window_reversal=[True, False],
        ),
        ops.ConvGeneral(v, m, [], [], default_dimension_numbers(0), preferred_element_type="s32"),
        ops.Conv(wide, k1, [1], "VALID", batch_group_count=2),
    ]  # fmt: skip
    ops.Tuple(b, results)
    comp = b.build()
    text = comp.to_text()
    assert_round_trip(comp, rule_errors)
    assert [s.to_string(print_layout=False) for s in comp.result_shape.tuple_shapes] == [
        "f32[2,6,3,3]", "f32[2,6,5,4]", "f32[<=2,6,3,8]", "bf16[<=2,12,10,8]", "s32[3,5]", "f32[2,6,4]",
    ]  # fmt: skip
    assert "operand_precision={highest,high}" in text
    assert "rhs_reversal=1x0" in text


def test_built_convolutions_run() -> None:
    """The built instructions run (0 spatial dimensions: a matrix product; depthwise)."""
    b = hlo.XlaBuilder("f")
    v = ops.Parameter(b, 0, "f32[3,4]", "v")
    m = ops.Parameter(b, 1, "f32[5,4]", "m")
    ops.Conv(v, m, [], "VALID")
    rng = np.random.default_rng(0)
    a, c = rng.standard_normal((3, 4), np.float32), rng.standard_normal((5, 4), np.float32)
    np.testing.assert_allclose(hlo.run(b.build(), a, c), a @ c.T, rtol=1e-5)

    b = hlo.XlaBuilder("g")
    x = ops.Parameter(b, 0, "f32[1,3,5]", "x")
    k = ops.Parameter(b, 1, "f32[3,1,2]", "k")
    ops.Conv(x, k, [1], "VALID", feature_group_count=3)
    xs, ks = rng.standard_normal((1, 3, 5), np.float32), rng.standard_normal((3, 1, 2), np.float32)
    expected = np.stack([np.correlate(xs[0, f], ks[f, 0], "valid") for f in range(3)])[None]
    np.testing.assert_allclose(hlo.run(b.build(), xs, ks), expected, rtol=1e-5, atol=1e-6)


# -- the window arithmetic against counting window positions ---------------------------------
def _positions(size: int, window: int, stride: int, low: int, high: int, base: int, dilation: int) -> int:
    """Window positions counted one by one: the dilated base padded (or cut) at both ends, and
    each start (a multiple of stride) whose dilated window fits."""
    cells = ["x" if i % base == 0 else "." for i in range((size - 1) * base + 1)] if size else []
    cells = ["0"] * max(low, 0) + cells + ["0"] * max(high, 0)  # then negative padding cuts
    cells = cells[max(-low, 0) : len(cells) - max(-high, 0)]
    extent = (window - 1) * dilation + 1
    return sum(1 for start in range(0, len(cells), stride) if start + extent <= len(cells))


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 9), st.integers(1, 4), st.integers(1, 3), st.integers(-4, 3), st.integers(-4, 3),
    st.integers(1, 3), st.integers(1, 3),
)  # fmt: skip
def test_output_sizes_match_counted_window_positions(
    size: int, window: int, stride: int, low: int, high: int, base: int, dilation: int
) -> None:
    dilated = (size - 1) * base + 1 if size else 0
    shapes = [f"f32[1,1,{size}]", f"f32[1,1,{window}]"]
    fn: Fn = lambda p, b: ops.ConvGeneralDilated(p[0], p[1], [stride], [(low, high)], [base], [dilation], NCW)  # noqa: E731
    if low + dilated + high < 0:
        with pytest.raises(hlo.ShapeError, match="leaves a negative size"):
            run(shapes, fn)
        return
    shape, _, _ = run(shapes, fn)
    assert shape == f"f32[1,1,{_positions(size, window, stride, low, high, base, dilation)}]"
