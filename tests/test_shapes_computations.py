"""Builder functions and shape rules of the ops with windows, called computations, dimension
numbers and matrices: Reduce (variadic), ReduceWindow, SelectAndScatter, Map, Sort, TopK, Dot,
DotGeneral, Conv*, Gather, Scatter, Fft, TriangularSolve, Cholesky, BatchNorm*, Rng*. Good
cases give the documented result shapes (page 003's worked examples among them), build, print
and parse back equal, and run; bad cases give errors naming the op and the rule."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import hlo
from hlo import ops
from hlo.ir.attrs import ConvolutionDimensionNumbers
from hlo.ops.dot import DotDimensionNumbers, PrecisionConfig
from hlo.ops.gather_scatter import GatherDimensionNumbers, ScatterDimensionNumbers


def scalar_fn(name: str, t: str, op: Callable[..., Any], arity: int = 2) -> hlo.XlaComputation:
    b = hlo.XlaBuilder(name)
    params = [ops.Parameter(b, k, f"{t}[]", f"p{k}") for k in range(arity)]
    op(*params)
    return b.build()


ADD = scalar_fn("add", "f32", lambda x, y: ops.Add(x, y))
MAX = scalar_fn("max", "f32", lambda x, y: ops.Max(x, y))
GE = scalar_fn("ge", "f32", lambda x, y: ops.Ge(x, y))
LT = scalar_fn("lt", "f32", lambda x, y: ops.Lt(x, y))
S32_ADD = scalar_fn("iadd", "s32", lambda x, y: ops.Add(x, y))


def argmax_fn() -> hlo.XlaComputation:
    b = hlo.XlaBuilder("argmax")
    v0, i0 = ops.Parameter(b, 0, "f32[]", "v0"), ops.Parameter(b, 1, "s32[]", "i0")
    v1, i1 = ops.Parameter(b, 2, "f32[]", "v1"), ops.Parameter(b, 3, "s32[]", "i1")
    take = ops.Or(ops.Gt(v0, v1), ops.And(ops.Eq(v0, v1), ops.Lt(i0, i1)))
    ops.Tuple(b, [ops.Select(take, v0, v1), ops.Select(take, i0, i1)])
    return b.build()


def build(shapes: list[str], fn: Callable[..., Any]) -> tuple[hlo.XlaComputation, Any]:
    b = hlo.XlaBuilder("t")
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    out = fn(b, *params)
    return b.build(), out


GATHER_ROWS = GatherDimensionNumbers((1,), (0,), (0,), 1)
SCATTER_ROWS = ScatterDimensionNumbers((1,), (0,), (0,), 1)
NHWC = ConvolutionDimensionNumbers(0, 3, (1, 2), 2, 3, (0, 1), 0, 3, (1, 2))

GOOD: list[tuple[str, list[str], Callable[..., Any], str]] = [
    ("reduce", ["f32[4,6]"], lambda b, x: ops.Reduce(b, x, ops.ConstantR0(b, 0.0), ADD, [1]), "f32[4]"),
    ("reduce all", ["f32[4,6]"], lambda b, x: ops.ReduceAll(x, ops.ConstantR0(b, 0.0), ADD), "f32[]"),
    ("reduce variadic", ["f32[4,6]", "s32[4,6]"],
     lambda b, x, i: ops.Reduce(b, [x, i], [ops.ConstantR0(b, float("-inf")), ops.ConstantR0(b, 0)], argmax_fn(), [1]),
     "(f32[4], s32[4])"),
    # page 003: a 2x3 max pool with stride 2x3 over a 4x6 array
    ("reduce-window pool", ["f32[4,6]"],
     lambda b, x: ops.ReduceWindow(x, ops.ConstantR0(b, float("-inf")), MAX, [2, 3], [2, 3], "VALID"), "f32[2,2]"),
    ("reduce-window same", ["f32[5,5]"],
     lambda b, x: ops.ReduceWindow(x, ops.ConstantR0(b, 0.0), ADD, [3, 3], [2, 2], "SAME"), "f32[3,3]"),
    ("reduce-window dilated", ["f32[10]"],
     lambda b, x: ops.ReduceWindowWithGeneralPadding(x, ops.ConstantR0(b, 0.0), ADD, [3], [1], [2], [2], [(1, 1)]),
     "f32[17]"),
    ("select-and-scatter", ["f32[4,6]", "f32[2,2]"],
     lambda b, x, s: ops.SelectAndScatter(x, GE, [2, 3], [2, 3], "VALID", s, ops.ConstantR0(b, 0.0), ADD), "f32[4,6]"),
    ("map", ["f32[3]", "f32[3]"], lambda b, x, y: ops.Map(b, [x, y], ADD, [0]), "f32[3]"),
    ("sort", ["f32[3,5]"], lambda b, x: ops.Sort(x, LT), "f32[3,5]"),
    ("topk", ["f32[3,5]"], lambda b, x: ops.TopK(x, 2), "(f32[3,2], s32[3,2])"),
    ("dot mv", ["f32[3,4]", "f32[4]"], lambda b, x, y: ops.Dot(x, y), "f32[3]"),
    # page 003: DotGeneral with batch dimension 0
    ("dot-general batch", ["f32[2,2,2]", "f32[2,2,2]"],
     lambda b, x, y: ops.DotGeneral(x, y, DotDimensionNumbers((2,), (1,), (0,), (0,))), "f32[2,2,2]"),
    ("dot preferred", ["s8[2,3]", "s8[3,4]"],
     lambda b, x, y: ops.Dot(x, y, PrecisionConfig(), "s32"), "s32[2,4]"),
    ("conv valid", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda b, x, k: ops.Conv(x, k, [1, 1], "VALID"), "f32[1,3,3,3]"),
    ("conv same strided", ["f32[1,2,5,5]", "f32[3,2,3,3]"], lambda b, x, k: ops.Conv(x, k, [2, 2], "SAME"), "f32[1,3,3,3]"),
    ("conv nhwc dilated", ["f32[2,7,7,4]", "f32[3,3,2,6]"],
     lambda b, x, k: ops.ConvGeneralDilated(x, k, [1, 1], [(1, 1), (0, 0)], [1, 1], [2, 1], NHWC, feature_group_count=2),
     "f32[2,5,5,6]"),
    ("gather rows", ["f32[5,4]", "s32[3,1]"],
     lambda b, x, i: ops.Gather(x, i, GATHER_ROWS, [1, 4]), "f32[3,4]"),
    ("scatter rows", ["f32[5,4]", "s32[3,1]", "f32[3,4]"],
     lambda b, x, i, u: ops.Scatter(x, i, u, ADD, SCATTER_ROWS), "f32[5,4]"),
    ("fft", ["c64[4,8]"], lambda b, x: ops.Fft(x, "FFT", [8]), "c64[4,8]"),
    ("rfft", ["f32[4,8]"], lambda b, x: ops.Fft(x, "RFFT", [8]), "c64[4,5]"),
    ("irfft 2-d", ["c64[4,5]"], lambda b, x: ops.Fft(x, "IRFFT", [4, 8]), "f32[4,8]"),
    ("triangular-solve", ["f32[2,3,3]", "f32[2,3,4]"],
     lambda b, a, r: ops.TriangularSolve(a, r, True, True, False, "NO_TRANSPOSE"), "f32[2,3,4]"),
    ("cholesky", ["f64[2,3,3]"], lambda b, a: ops.Cholesky(a), "f64[2,3,3]"),
    ("batch-norm training", ["f32[2,3,4]", "f32[3]", "f32[3]"],
     lambda b, x, s, o: ops.BatchNormTraining(x, s, o, 1e-3, 1), "(f32[2,3,4], f32[3], f32[3])"),
    ("rng uniform", [], lambda b: ops.RngUniform(ops.ConstantR0(b, 0.0), ops.ConstantR0(b, 1.0), "f32[2,3]"), "f32[2,3]"),
    ("rng bits", ["u64[2]"], lambda b, s: ops.RngBitGenerator("THREE_FRY", s, "u32[5]"), "(u64[2], u32[5])"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "fn", "expected"), GOOD, ids=[g[0] for g in GOOD])
def test_good_cases_build_print_parse_and_run(name, shapes, fn, expected):
    computation, out = build(shapes, fn)
    assert out.shape.to_string(print_layout=False) == expected
    assert hlo.parse_module(computation.to_text()) == computation.module
    generator = np.random.default_rng(0)
    args = []
    for s in computation.parameter_shapes:
        dtype = np.dtype(s.element_type.numpy_dtype)
        if s.element_type.is_integral:
            args.append(generator.integers(0, 3, size=s.dimensions).astype(dtype))
        elif s.element_type.is_complex:
            args.append((generator.standard_normal(s.dimensions) + 1j).astype(dtype))
        else:
            args.append(generator.standard_normal(s.dimensions).astype(dtype))
    if name in ("triangular-solve", "cholesky"):
        eye = np.eye(3) * 4
        args[0] = (args[0] @ np.swapaxes(args[0], -1, -2) + eye).astype(args[0].dtype)
    result = hlo.run(computation, *args)
    leaves = result if isinstance(result, tuple) else (result,)
    shapes_out = out.shape.tuple_shapes if out.shape.is_tuple else (out.shape,)
    for value, shape in zip(leaves, shapes_out):
        assert value.shape == shape.dimensions and value.dtype == shape.element_type.numpy_dtype


def test_page_003_pool_values():
    x = np.array(
        [[10, 12, 8, 7, 5, 6], [3, 9, 15, 16, 1, 2], [11, 4, 13, 14, 0, 17], [18, 19, 20, 21, 22, 23]],
        np.float32,
    )
    computation, _ = build(["f32[4,6]"], GOOD[3][2])
    assert hlo.run(computation, x).tolist() == [[15, 16], [20, 23]]


BAD: list[tuple[str, list[str], Callable[..., Any], str]] = [
    ("reduce dims", ["f32[4,6]"], lambda b, x: ops.Reduce(b, x, ops.ConstantR0(b, 0.0), ADD, [2]), r"Reduce: dimensions=\[2\] contains 2, not a dimension of f32\[4,6\]"),
    ("reduce init type", ["f32[4,6]"], lambda b, x: ops.Reduce(b, x, ops.ConstantR0(b, 0), ADD, [1]), r"init value 0 must be a f32\[\] scalar"),
    ("reduce reducer type", ["s32[4,6]"], lambda b, x: ops.Reduce(b, x, ops.ConstantR0(b, 0), ADD, [1]), r"parameter 0 \(accumulator\) must be|parameter 1 must be s32\[\]"),
    ("reduce reducer arity", ["f32[4]", "f32[4]"], lambda b, x, y: ops.Reduce(b, [x, y], [ops.ConstantR0(b, 0.0)] * 2, ADD, [0]), r"must take 4 parameters"),
    ("reduce init count", ["f32[4]"], lambda b, x: ops.Reduce(b, [x], [], ADD, [0]), r"init_values must hold at least one XlaOp"),
    ("reduce-window rank", ["f32[4,6]"], lambda b, x: ops.ReduceWindow(x, ops.ConstantR0(b, 0.0), ADD, [2], [2], "VALID"), r"window_strides|window has 1 dimensions"),
    ("reduce-window padding", ["f32[4,6]"], lambda b, x: ops.ReduceWindow(x, ops.ConstantR0(b, 0.0), ADD, [2, 2], [1, 1], "FULL"), r'padding must be "SAME" or "VALID"'),
    ("select-and-scatter source", ["f32[4,6]", "f32[3,3]"], lambda b, x, s: ops.SelectAndScatter(x, GE, [2, 3], [2, 3], "VALID", s, ops.ConstantR0(b, 0.0), ADD), r"source\) must have one value per window, dimensions \[2, 2\]"),
    ("select-and-scatter select", ["f32[4,6]", "f32[2,2]"], lambda b, x, s: ops.SelectAndScatter(x, ADD, [2, 3], [2, 3], "VALID", s, ops.ConstantR0(b, 0.0), ADD), r"select=%add.* must be \(f32\[\], f32\[\]\) -> pred\[\]"),
    ("map arity", ["f32[3]"], lambda b, x: ops.Map(b, [x], ADD, [0]), r"must take 1 scalar parameters"),
    ("map dims", ["f32[3]", "f32[4]"], lambda b, x, y: ops.Map(b, [x, y], ADD, [0]), r"operand 1 must have the dimensions of operand 0"),
    ("sort comparator", ["f32[3,5]"], lambda b, x: ops.Sort(x, ADD), r"comparator .* must be \(f32\[\], f32\[\]\) -> pred\[\]"),
    ("sort dimension", ["f32[3,5]"], lambda b, x: ops.Sort(x, LT, 2), r"dimension 2 is out of range"),
    ("topk k", ["f32[3,5]"], lambda b, x: ops.TopK(x, 6), r"k=6 must be between 0 and the last dimension"),
    ("dot contracting", ["f32[3,4]", "f32[5]"], lambda b, x, y: ops.Dot(x, y), r"contracting dimension 1 of lhs \(4\) does not match contracting dimension 0 of rhs \(5\)"),
    ("dot rank-3 lhs contracts dimension 1", ["f32[2,3,4]", "f32[4]"], lambda b, x, y: ops.Dot(x, y), r"Dot.*contracting dimension 1 of lhs \(3\) does not match contracting dimension 0 of rhs \(4\)"),
    ("dot-general batch", ["f32[2,3]", "f32[3,3]"], lambda b, x, y: ops.DotGeneral(x, y, DotDimensionNumbers((1,), (0,), (0,), (0,))), r"a lhs dimension is repeated|batch dimension 0 of lhs \(2\) does not match"),
    ("conv features", ["f32[1,2,5,5]", "f32[3,4,3,3]"], lambda b, x, k: ops.Conv(x, k, [1, 1], "VALID"), r"kernel's input features \(4\) times feature_group_count=1 must equal the input features \(2\)"),
    ("conv groups", ["f32[1,4,5,5]", "f32[3,2,3,3]"], lambda b, x, k: ops.Conv(x, k, [1, 1], "VALID", feature_group_count=2), r"output features \(3\) must be divisible by feature_group_count=2"),
    ("gather index map", ["f32[5,4]", "s32[3,2]"], lambda b, x, i: ops.Gather(x, i, GATHER_ROWS, [1, 4]), r"start_index_map=\[0\] must have one entry per index vector element \(2"),
    ("gather slice", ["f32[5,4]", "s32[3,1]"], lambda b, x, i: ops.Gather(x, i, GATHER_ROWS, [1, 5]), r"slice_sizes\[1\]=5 must be between 0 and dimension 1"),
    ("gather collapsed", ["f32[5,4]", "s32[3,1]"], lambda b, x, i: ops.Gather(x, i, GATHER_ROWS, [2, 4]), r"slice_sizes\[0\]=2 must be at most 1"),
    ("scatter updates", ["f32[5,4]", "s32[3,1]", "f32[2,4]"], lambda b, x, i, u: ops.Scatter(x, i, u, ADD, SCATTER_ROWS), r"dimension 0 of updates .* must match dimension 0 of"),
    ("scatter combiner", ["f32[5,4]", "s32[3,1]", "f32[3,4]"], lambda b, x, i, u: ops.Scatter(x, i, u, S32_ADD, SCATTER_ROWS), r"to_apply=%iadd.*parameter 0 \(accumulator\)|parameter 1 must be f32\[\]"),
    ("scatter indices type", ["f32[5,4]", "f32[3,1]", "f32[3,4]"], lambda b, x, i, u: ops.Scatter(x, i, u, ADD, SCATTER_ROWS), r"scatter_indices\) must be of an integer type"),
    ("fft type", ["f32[8]"], lambda b, x: ops.Fft(x, "FFT", [8]), r"FFT takes a complex operand"),
    ("fft length", ["f32[4,8]"], lambda b, x: ops.Fft(x, "RFFT", [6]), r"last dimensions of f32\[4,8\].* must be fft_length=\[6\]"),
    ("fft kind", ["f32[4,8]"], lambda b, x: ops.Fft(x, "DCT", [8]), r"fft_type must be one of FFT, IFFT, RFFT, IRFFT"),
    ("triangular-solve square", ["f32[3,4]", "f32[3,4]"], lambda b, a, r: ops.TriangularSolve(a, r, True, True, False, "NO_TRANSPOSE"), r"must be square in its two minor dimensions"),
    ("triangular-solve side", ["f32[3,3]", "f32[4,3]"], lambda b, a, r: ops.TriangularSolve(a, r, True, True, False, "TRANSPOSE"), r"rows of b must match the size of a"),
    ("cholesky int", ["s32[3,3]"], lambda b, a: ops.Cholesky(a), r"must be floating point or complex"),
    ("batch-norm feature", ["f32[2,3,4]", "f32[4]", "f32[4]"], lambda b, x, s, o: ops.BatchNormTraining(x, s, o, 1e-3, 1), r"operand 1 \(scale\) must be f32\[3\]"),
    ("batch-norm index", ["f32[2,3,4]", "f32[3]", "f32[3]"], lambda b, x, s, o: ops.BatchNormTraining(x, s, o, 1e-3, 3), r"feature_index=3 must be a dimension"),
    ("rng types", [], lambda b: ops.RngUniform(ops.ConstantR0(b, 0), ops.ConstantR0(b, 1.0), "f32[2]"), r"parameters of rng must be f32\[\]"),
    ("rng normal ints", [], lambda b: ops.RngNormal(ops.ConstantR0(b, 0), ops.ConstantR0(b, 1), "s32[2]"), r"rng_normal produces floats"),
    ("rng bits state", ["f32[2]"], lambda b, s: ops.RngBitGenerator("PHILOX", s, "u32[4]"), r"state\) must be a vector of unsigned integers"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "fn", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_cases_say_what_and_where(name, shapes, fn, message):
    with pytest.raises(hlo.HloError) as info:
        build(shapes, fn)
    text = str(info.value)
    assert re.search(message, text), text
    assert "test_shapes_computations.py" in text  # the user's line


def rule_of(text: str) -> list[str]:
    """The verifier's messages for a module."""
    return [e.message for e in hlo.verify(hlo.parse_module(text), all_errors=True)]


def test_verifier_checks_called_computations():
    text = """HloModule m
add {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  ROOT r = f32[] add(a, a)
}
ENTRY e {
  x = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=add
}
"""
    messages = rule_of(text)
    assert any(
        "to_apply=%add: parameter 1 must be f32[], the element type of input 0" in m for m in messages
    ), messages
