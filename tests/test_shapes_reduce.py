"""Shape rules and builder functions of the reduce family: Reduce (variadic), ReduceAll,
ReduceWindow(WithGeneralPadding), SelectAndScatter(WithGeneralPadding), Map, Sort, TopK and
Scan, checked against XLA's shape inference and verifier. Tables of good cases (page 003's
worked examples among them, dynamic dimensions) and of bad ones (each constraint broken once,
with the message it must give), HLO text through the rules (the golden dumps' reductions, sorts
and windows among it), values of page 003's worked examples, and build -> print -> parse round
trips."""

# ruff: noqa: E501  (tables of cases, one per line, with the message each must give)
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import hlo
from hlo import ops
from hlo.ir.attrs import PaddingType
from shape_checks import rule_errors as shape_rule_errors

Fn = Callable[[list[Any], hlo.XlaBuilder], Any]
GOLDEN = sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo"))
FAMILIES = ("reduce", "reduce_window", "sort", "scan")


# -- called computations ----------------------------------------------------------------------
def computation(name: str, shapes: Sequence[str], body: Callable[..., Any]) -> hlo.XlaComputation:
    """A computation of parameters of `shapes`; `body(builder, *parameters)` adds its root."""
    b = hlo.XlaBuilder(name)
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    body(b, *params)
    return b.build()


def binary(name: str, t: str, op: Callable[..., Any]) -> hlo.XlaComputation:
    return computation(name, [f"{t}[]", f"{t}[]"], lambda b, x, y: op(x, y))


ADD = binary("add", "f32", ops.Add)
MAX = binary("max", "f32", ops.Max)
MIN = binary("min", "f32", ops.Min)
GE = binary("ge", "f32", ops.Ge)
LT = binary("lt", "f32", ops.Lt)
GT = binary("gt", "f32", ops.Gt)
S32_ADD = binary("iadd", "s32", ops.Add)
S32_GE = binary("ige", "s32", ops.Ge)
S32_LT = binary("ilt", "s32", ops.Lt)
BF16_ADD = binary("badd", "bf16", ops.Add)
C64_ADD = binary("cadd", "c64", ops.Add)
ADD_TO_PRED = binary("add_pred", "f32", lambda x, y: ops.Ne(ops.Add(x, y), x))
ADD1 = computation("add1", ["f32[]", "f32[]"], lambda b, x, y: ops.Tuple(b, [ops.Add(x, y)]))
ADD3 = computation("add3", ["f32[]"] * 3, lambda b, x, y, z: ops.Add(ops.Add(x, y), z))
FMA = computation("fma", ["f32[]"] * 3, lambda b, x, y, z: ops.Add(x, ops.Mul(y, z)))
NEG = computation("neg", ["f32[]"], lambda b, x: ops.Neg(x))
VEC_ADD = computation("vadd", ["f32[2]", "f32[2]"], lambda b, x, y: ops.Add(x, y))
ADD_TO_VEC = computation("add_vec", ["f32[]", "f32[]"], lambda b, x, y: ops.Broadcast(ops.Add(x, y), [2]))
MIXED_ACC = computation(
    "mixed_acc", ["s32[]", "f32[]"], lambda b, a, x: ops.Add(a, ops.ConvertElementType(x, "s32"))
)
GE3 = computation("ge3", ["f32[]"] * 3, lambda b, x, y, z: ops.Ge(x, y))
HALF_TUPLE = computation(
    "half", ["f32[]", "s32[]", "f32[]", "s32[]"], lambda b, v0, i0, v1, i1: ops.Tuple(b, [ops.Add(v0, v1)])
)
HALF_SCALAR = computation(
    "half_scalar", ["f32[]", "s32[]", "f32[]", "s32[]"], lambda b, v0, i0, v1, i1: ops.Add(v0, v1)
)


def argmax_fn(t: str = "f32") -> hlo.XlaComputation:
    """page 003's variadic reducer f(max, argmax, value, index): the larger value and its
    index (the lower index among equal values)."""

    def body(b: hlo.XlaBuilder, v0: Any, i0: Any, v1: Any, i1: Any) -> None:
        take = ops.Or(ops.Gt(v0, v1), ops.And(ops.Eq(v0, v1), ops.Lt(i0, i1)))
        ops.Tuple(b, [ops.Select(take, v0, v1), ops.Select(take, i0, i1)])

    return computation("argmax", [f"{t}[]", "s32[]", f"{t}[]", "s32[]"], body)


ARGMAX = argmax_fn()


def lt_on_first(types: Sequence[str]) -> hlo.XlaComputation:
    """A sort comparator over operands of `types` comparing operand 0 with less-than."""
    shapes = [f"{t}[]" for t in types for _ in range(2)]
    return computation("cmp", shapes, lambda b, *p: ops.Lt(p[0], p[1]))


def cumsum_step(t: str = "f32[3]") -> hlo.XlaComputation:
    """A scan step (x, carry) -> (x + carry, x + carry)."""
    return computation("step", [t, t], lambda b, x, c: ops.Tuple(b, [ops.Add(x, c), ops.Add(x, c)]))


# -- building ---------------------------------------------------------------------------------
def run(shapes: Sequence[str], fn: Fn) -> tuple[str, list[str], hlo.XlaBuilder, Any]:
    """Build fn(parameters of `shapes`, builder): the result shape without layout, the opcodes
    emitted (parameters and constants aside), the builder and the result op."""
    b = hlo.XlaBuilder("t")
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    result = fn(params, b)
    skipped = (hlo.Opcode.PARAMETER, hlo.Opcode.CONSTANT)
    emitted = [i.opcode.text for i in b.instructions if i.opcode not in skipped]
    return result.shape.to_string(print_layout=False), emitted, b, result


def f32(b: hlo.XlaBuilder, v: float = 0.0) -> Any:
    return ops.ConstantR0(b, v)


def s32(b: hlo.XlaBuilder, v: int = 0) -> Any:
    return ops.ConstantR0(b, np.int32(v))


def rule_errors(text: str) -> list[str]:
    """The family's instructions of `text` checked by their rules as the verifier does (dynamic
    dimensions compared too): the messages of those that fail."""
    return shape_rule_errors(text, FAMILIES, same_dynamic=True)


def module(body: str, computations: str = "") -> str:
    return "HloModule m\n" + computations + "ENTRY e {\n" + body + "\n}\n"


def round_trip(b: hlo.XlaBuilder, root: Any) -> None:
    """build -> print -> parse gives the same module (attributes in the parser's form), which
    verifies and satisfies the rules."""
    comp = b.build(root)
    text = comp.to_text()
    again = hlo.parse_module(text)
    assert again.to_text() == text
    assert [c.by_name for c in again.computations] == [c.by_name for c in comp.module.computations]
    assert hlo.verify(again, all_errors=True) == []
    assert rule_errors(text) == []


# -- builder functions: good cases --------------------------------------------------------------
GOOD: list[tuple[str, list[str], Fn, str, list[str]]] = [
    # Reduce: page 003's 1-D, 2-D and 3-D examples (add over one, two or all dimensions)
    ("reduce 1-d", ["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0]), "f32[]", ["reduce"]),
    ("reduce 2-d dim 0", ["f32[2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0]), "f32[3]", ["reduce"]),
    ("reduce 2-d dim 1", ["f32[2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [1]), "f32[2]", ["reduce"]),
    ("reduce 3-d dim 0", ["f32[4,2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0]), "f32[2,3]", ["reduce"]),
    ("reduce 3-d dim 2", ["f32[4,2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [2]), "f32[4,2]", ["reduce"]),
    ("reduce 3-d dims 0,1", ["f32[4,2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0, 1]), "f32[3]", ["reduce"]),
    ("reduce unsorted dims", ["f32[4,2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [2, 0]), "f32[2]", ["reduce"]),
    ("reduce no dims", ["f32[4,2]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, []), "f32[4,2]", ["reduce"]),
    ("reduce all", ["f32[4,2,3]"], lambda p, b: ops.ReduceAll(p[0], f32(b), ADD), "f32[]", ["reduce"]),
    ("reduce all scalar", ["f32[]"], lambda p, b: ops.ReduceAll(p[0], f32(b), ADD), "f32[]", ["reduce"]),
    ("reduce one-operand form", ["f32[4,6]"], lambda p, b: ops.Reduce(p[0], f32(b), MAX, [1]), "f32[4]", ["reduce"]),
    ("reduce sequences", ["f32[4,6]"], lambda p, b: ops.Reduce(b, [p[0]], [f32(b)], ADD, (1,)), "f32[4]", ["reduce"]),
    ("reduce s32", ["s32[4,6]"], lambda p, b: ops.Reduce(b, p[0], s32(b), S32_ADD, [0]), "s32[6]", ["reduce"]),
    ("reduce complex", ["c64[4]"], lambda p, b: ops.Reduce(b, p[0], ops.ConstantR0(b, np.complex64(0)), C64_ADD, [0]), "c64[]", ["reduce"]),
    ("reduce 1-tuple reducer", ["f32[4,6]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD1, [1]), "(f32[4])", ["reduce"]),
    # variadic reduce: page 003's argmax (value, index) pairs
    ("reduce argmax 1-d", ["f32[6]", "s32[6]"], lambda p, b: ops.Reduce(b, p, [f32(b, -np.inf), s32(b)], ARGMAX, [0]), "(f32[], s32[])", ["reduce"]),
    ("reduce argmax rows", ["f32[4,6]", "s32[4,6]"], lambda p, b: ops.Reduce(b, p, [f32(b, -np.inf), s32(b)], ARGMAX, [1]), "(f32[4], s32[4])", ["reduce"]),
    ("reduce argmax dynamic", ["f32[<=4,6]", "s32[<=4,6]"], lambda p, b: ops.Reduce(b, p, [f32(b, -np.inf), s32(b)], ARGMAX, [1]), "(f32[<=4], s32[<=4])", ["reduce"]),
    # dynamic dimensions: kept ones keep their dynamism, reduced ones go
    ("reduce bounded kept", ["f32[<=4,6]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [1]), "f32[<=4]", ["reduce"]),
    ("reduce bounded reduced", ["f32[<=4,6]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0]), "f32[6]", ["reduce"]),
    ("reduce unbounded", ["f32[?,6]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [1]), "f32[?]", ["reduce"]),
    ("reduce unbounded inputs", ["f32[?,6]", "s32[4,6]"], lambda p, b: ops.Reduce(b, p, [f32(b), s32(b)], ARGMAX, [1]), "(f32[?], s32[?])", ["reduce"]),
    # ReduceWindow: page 003's 2x3 max pool of a 4x6 input, and its 1-D min example (VALID, SAME)
    ("pool 2x3", ["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b, -np.inf), MAX, [2, 3], [2, 3], "VALID"), "f32[2,2]", ["reduce-window"]),
    ("window 1-d valid", ["f32[5]"], lambda p, b: ops.ReduceWindow(p[0], f32(b, np.inf), MIN, [3], [2], "VALID"), "f32[2]", ["reduce-window"]),
    ("window 1-d same", ["f32[5]"], lambda p, b: ops.ReduceWindow(p[0], f32(b, np.inf), MIN, [3], [2], "SAME"), "f32[3]", ["reduce-window"]),
    ("window stride 1 same", ["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 3], [1, 1], "SAME"), "f32[4,6]", ["reduce-window"]),
    ("window stride 1 valid", ["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 3], [1, 1], "VALID"), "f32[3,4]", ["reduce-window"]),
    ("window padding enum", ["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 3], [1, 1], PaddingType.SAME), "f32[4,6]", ["reduce-window"]),
    ("window larger than input", ["f32[2]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [3], [1], "VALID"), "f32[0]", ["reduce-window"]),
    ("window scalar", ["f32[]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [], [], "VALID"), "f32[]", ["reduce-window"]),
    ("window variadic", ["f32[4,6]", "s32[4,6]"], lambda p, b: ops.ReduceWindow(p, [f32(b, -np.inf), s32(b)], ARGMAX, [2, 3], [2, 3], "VALID"), "(f32[2,2], s32[2,2])", ["reduce-window"]),
    ("window 1-tuple reducer", ["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD1, [2, 3], [2, 3], "VALID"), "(f32[2,2])", ["reduce-window"]),
    ("window dilations", ["f32[10]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [3], [1], [2], [2], [(1, 1)]), "f32[17]", ["reduce-window"]),
    ("window strided dilated", ["f32[10,8]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [3, 2], [1, 2], [3, 1], [(0, 2), (1, 0)]), "f32[3,8]", ["reduce-window"]),
    ("window negative padding", ["f32[10]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2], [2], [], [], [(-2, -1)]), "f32[3]", ["reduce-window"]),
    ("window empty lists", ["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [], [], [], []), "f32[3,5]", ["reduce-window"]),
    ("window bounded", ["f32[<=4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 3], [1, 3], "VALID"), "f32[<=3,2]", ["reduce-window"]),
    ("window unbounded", ["f32[?,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 3], [1, 3], "VALID"), "f32[?,2]", ["reduce-window"]),
    # SelectAndScatter: max-pool gradients (page 003's figures), non-overlapping and overlapping
    ("select-and-scatter", ["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD), "f32[4,6]", ["select-and-scatter"]),
    ("select-and-scatter overlapping", ["f32[5,5]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [3, 3], [2, 2], "VALID", p[1], f32(b), ADD), "f32[5,5]", ["select-and-scatter"]),
    ("select-and-scatter same", ["f32[4,6]", "f32[2,3]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 2], "SAME", p[1], f32(b), ADD), "f32[4,6]", ["select-and-scatter"]),
    ("select-and-scatter general", ["f32[4,6]", "f32[3,3]"], lambda p, b: ops.SelectAndScatterWithGeneralPadding(p[0], GE, [2, 2], [2, 2], [(1, 1), (0, 0)], p[1], f32(b), ADD), "f32[4,6]", ["select-and-scatter"]),
    ("select-and-scatter s32", ["s32[4]", "s32[2]"], lambda p, b: ops.SelectAndScatter(p[0], S32_GE, [2], [2], "VALID", p[1], s32(b), S32_ADD), "s32[4]", ["select-and-scatter"]),
    ("select-and-scatter bounded", ["f32[<=4,6]", "f32[<=2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD), "f32[<=4,6]", ["select-and-scatter"]),
    # Map: page 003's Map(op1, op2, op3, computation), other result types, scalar operands
    ("map 3 operands", ["f32[2,3]", "f32[2,3]", "f32[2,3]"], lambda p, b: ops.Map(b, p, FMA, [0, 1]), "f32[2,3]", ["map"]),
    ("map unary", ["f32[4]"], lambda p, b: ops.Map(b, p[0], NEG, [0]), "f32[4]", ["map"]),
    ("map to pred", ["f32[4]", "f32[4]"], lambda p, b: ops.Map(b, p, GT, [0]), "pred[4]", ["map"]),
    ("map scalars", ["f32[]", "f32[]"], lambda p, b: ops.Map(b, p, ADD, []), "f32[]", ["map"]),
    ("map scalar operand", ["f32[2,3]", "f32[]"], lambda p, b: ops.Map(b, p, ADD, [0, 1]), "f32[2,3]", ["broadcast", "map"]),
    ("map scalar first", ["f32[]", "f32[2,3]", "f32[]"], lambda p, b: ops.Map(b, p, ADD3, [0, 1]), "f32[2,3]", ["broadcast", "broadcast", "map"]),
    ("map bounded", ["f32[<=4,3]", "f32[<=4,3]"], lambda p, b: ops.Map(b, p, ADD, [0, 1]), "f32[<=4,3]", ["map"]),
    ("map unbounded", ["f32[?]", "f32[3]"], lambda p, b: ops.Map(b, p, ADD, [0]), "f32[?]", ["map"]),
    # Sort: one operand (default: the last dimension), page 003's three operands sorted by the first
    ("sort", ["f32[3,5]"], lambda p, b: ops.Sort(p[0], LT), "f32[3,5]", ["sort"]),
    ("sort dimension 0", ["f32[3,5]"], lambda p, b: ops.Sort(p[0], LT, 0, True), "f32[3,5]", ["sort"]),
    ("sort variadic", ["s32[2]", "s32[2]", "f32[2]"], lambda p, b: ops.Sort(p, lt_on_first(["s32", "s32", "f32"])), "(s32[2], s32[2], f32[2])", ["sort"]),
    ("sort keys and values", ["f32[4,6]", "s32[4,6]"], lambda p, b: ops.Sort(p, lt_on_first(["f32", "s32"]), 0, is_stable=True), "(f32[4,6], s32[4,6])", ["sort"]),
    ("sort list of one", ["f32[3]"], lambda p, b: ops.Sort([p[0]], LT), "f32[3]", ["sort"]),
    ("sort bounded", ["f32[<=3,5]"], lambda p, b: ops.Sort(p[0], LT), "f32[<=3,5]", ["sort"]),
    # TopK: the last dimension cut to k; indices are s32
    ("topk", ["f32[3,5]"], lambda p, b: ops.TopK(p[0], 2), "(f32[3,2], s32[3,2])", ["topk"]),
    ("topk smallest", ["f32[3,5]"], lambda p, b: ops.TopK(p[0], 2, largest=False), "(f32[3,2], s32[3,2])", ["topk"]),
    ("topk 1-d", ["s32[8]"], lambda p, b: ops.TopK(p[0], 8), "(s32[8], s32[8])", ["topk"]),
    ("topk 0", ["f32[4]"], lambda p, b: ops.TopK(p[0], 0), "(f32[0], s32[0])", ["topk"]),
    ("topk dynamic batch", ["f32[<=3,5]"], lambda p, b: ops.TopK(p[0], 2), "(f32[<=3,2], s32[<=3,2])", ["topk"]),
    ("topk bounded last", ["f32[<=5]"], lambda p, b: ops.TopK(p[0], 3), "(f32[3], s32[3])", ["topk"]),
    # Scan (XLA's builder, not on page 003): always a tuple (outputs, carries)
    ("scan cumsum", ["f32[4,3]", "f32[3]"], lambda p, b: ops.Scan([p[0]], [p[1]], cumsum_step(), 0), "(f32[4,3], f32[3])", ["scan"]),
    ("scan dimension 1", ["f32[3,4]", "f32[3]"], lambda p, b: ops.Scan([p[0]], [p[1]], cumsum_step(), 1, is_reverse=True), "(f32[3,4], f32[3])", ["scan"]),
    ("scan no carries", ["f32[4,3]"], lambda p, b: ops.Scan([p[0]], [], computation("neg", ["f32[3]"], lambda b, x: ops.Neg(x)), 0), "(f32[4,3])", ["scan"]),
    ("scan no inputs", ["f32[3]"], lambda p, b: ops.Scan([], [p[0]], computation("dbl", ["f32[3]"], lambda b, c: ops.Tuple(b, [c, ops.Add(c, c)])), 0, 5, is_associative=False), "(f32[5,3], f32[3])", ["scan"]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "fn", "expected", "emitted"), GOOD, ids=[g[0] for g in GOOD])
def test_builder_shapes(name: str, shapes: list[str], fn: Fn, expected: str, emitted: list[str]) -> None:
    shape, got, b, result = run(shapes, fn)
    assert shape == expected
    assert got == emitted
    round_trip(b, result)


# -- builder functions: bad cases ---------------------------------------------------------------
BAD: list[tuple[list[str], Fn, str]] = [
    # Reduce: the reducer (arity, result, accumulator, values, init values), dimensions, inputs
    (["f32[4]", "f32[4]"], lambda p, b: ops.Reduce(b, p, [f32(b), f32(b)], ADD, [0]), r"Reduce: to_apply=%add must take 4 parameters \(T0\[\], T1\[\], T0\[\], T1\[\]\) for 2 inputs of reduce: found \(f32\[\], f32\[\]\) -> f32\[\]"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD3, [0]), r"Reduce: to_apply=%add3 must take 2 parameters \(T0\[\], T0\[\]\) for 1 input of reduce"),
    (["f32[4]", "s32[4]"], lambda p, b: ops.Reduce(b, p, [f32(b), s32(b)], HALF_SCALAR, [0]), r"Reduce: to_apply=%half_scalar must return a tuple of 2 scalars, one per input of reduce"),
    (["f32[4]", "s32[4]"], lambda p, b: ops.Reduce(b, p, [f32(b), s32(b)], HALF_TUPLE, [0]), r"Reduce: to_apply=%half must return 2 scalars, one per input of reduce: found \(f32\[\], s32\[\], f32\[\], s32\[\]\) -> \(f32\[\]\)"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD_TO_VEC, [0]), r"Reduce: to_apply=%add_vec must return scalars: found \(f32\[\], f32\[\]\) -> f32\[2\]"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), VEC_ADD, [0]), r"Reduce: to_apply=%vadd must return scalars"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD_TO_PRED, [0]), r"Reduce: to_apply=%add_pred: parameter 0 \(accumulator\) must be pred\[\], the type it returns"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), S32_ADD, [0]), r"Reduce: to_apply=%iadd: parameter 1 must be f32\[\], the element type of input 0: found \(s32\[\], s32\[\]\) -> s32\[\]"),
    (["c64[4]"], lambda p, b: ops.Reduce(b, p[0], ops.ConstantR0(b, np.complex64(0)), binary("zadd", "c128", ops.Add), [0]), r"parameter 1 must be c64\[\], the element type of input 0"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], s32(b), MIXED_ACC, [0]), r"Reduce: to_apply=%mixed_acc: parameter 1 must have the type of accumulator 0 \(s32\[\]\)"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], s32(b), ADD, [0]), r"Reduce: init value 0 must be a f32\[\] scalar \(the accumulator type of to_apply=%add, or another floating-point type\): found s32\[\]"),
    (["f32[4]", "f32[2]"], lambda p, b: ops.Reduce(b, p[0], p[1], ADD, [0]), r"Reduce: init value 0 must be a f32\[\] scalar .*found f32\[2\]"),
    (["f32[4]", "bf16[]"], lambda p, b: ops.Reduce(b, p[0], p[1], ADD, [0]), r"Reduce: to_apply=%add: parameter 1 must have the element type of operand 1 \(init value 0, bf16\[\]\); the verifier allows no mixed precision here"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), BF16_ADD, [0]), r"Reduce: to_apply=%badd: parameter 0 must have the element type of operand 0 \(input 0, f32\[4\]\); the verifier allows no mixed precision"),
    (["f32[4,6]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [2]), r"Reduce: dimensions=\[2\] contains 2, not a dimension of f32\[4,6\]"),
    (["f32[4,6]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [-1]), r"Reduce: dimensions=\[-1\] contains -1, not a dimension of f32\[4,6\]"),
    (["f32[4,6]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [1, 1]), r"Reduce: dimensions=\[1,1\] repeats a dimension of f32\[4,6\]"),
    (["f32[4,6]", "s32[4,5]"], lambda p, b: ops.Reduce(b, p, [f32(b), s32(b)], ARGMAX, [1]), r"Reduce: input 1 must have the dimensions of input 0: found f32\[4,6\] and s32\[4,5\]"),
    (["f32[4]", "s32[4]"], lambda p, b: ops.Reduce(b, p, [f32(b)], ARGMAX, [0]), r"Reduce: needs one init value per operand: found 2 and 1"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], [], ADD, [0]), r"Reduce: init_values must hold at least one XlaOp"),
    (["(f32[4])"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0]), r"Reduce: operand 0 \(input 0\) must be an array: found \(f32\[4\]"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), "add", [0]), r"Reduce: computation must be an XlaComputation"),
    (["f32[4]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0.5]), r"Reduce: dimensions_to_reduce must be a sequence of ints"),
    # ReduceWindow: the window (lengths, sizes, strides, dilations, padding), the reducer, the inputs
    (["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2], [2], "VALID"), r"ReduceWindow: window_dimensions=\[2\] and window_strides=\[2\] must have one entry per dimension of the operand f32\[4,6\]"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 2], [1], "VALID"), r"ReduceWindow: window_dimensions=\[2,2\] and window_strides=\[1\] must have one entry"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [0, 2], [1, 1], "VALID"), r"ReduceWindow: window dimension 0 must have a positive size and stride: found size 0 and stride 1"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 2], [1, -1], "SAME"), r"ReduceWindow: window dimension 1 must have a positive size and stride: found size 2 and stride -1"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 2], [1, 1], "FULL"), r'ReduceWindow: padding must be "SAME" or "VALID": found \'FULL\''),
    (["f32[?,6]"], lambda p, b: ops.ReduceWindow(p[0], f32(b), ADD, [2, 2], [1, 1], "SAME"), r'ReduceWindow: "SAME" padding needs bounded dimensions: found f32\[\?,6\]'),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [0, 2], [], [], [], []), r"ReduceWindowWithGeneralPadding: window dimension 0 must have a positive size: found 0 in window=\{size=0x2\}"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [1, 0], [], [], []), r"window dimension 1 must have a positive stride: found 0 in window=\{size=2x2 stride=1x0\}"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [], [0, 1], [], []), r"window dimension 0 must have a positive lhs_dilate: found 0"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [], [], [1, 0], []), r"window dimension 1 must have a positive rhs_dilate: found 0"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [], [], [], [(-3, -2), (0, 0)]), r"the padding -3_-2 of window dimension 0 leaves a negative size around 4 \(dilated 4\): window=\{size=2x2 pad=-3_-2x0_0\}"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [1, 1, 1], [], [], []), r"ReduceWindowWithGeneralPadding: window_strides has 3 entries for a window of 2 dimensions"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2, 2], [], [], [], [(0, 0)]), r"ReduceWindowWithGeneralPadding: padding has 1 entries for a window of 2 dimensions"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p[0], f32(b), ADD, [2], [], [], [], []), r"ReduceWindowWithGeneralPadding: the window has 1 dimensions for an operand of rank 2"),
    (["f32[4,6]", "s32[4,6]"], lambda p, b: ops.ReduceWindow(p, [f32(b), s32(b)], ADD, [2, 2], [1, 1], "VALID"), r"ReduceWindow: to_apply=%add must take 4 parameters"),
    (["f32[4,6]"], lambda p, b: ops.ReduceWindow(p[0], s32(b), ADD, [2, 2], [1, 1], "VALID"), r"ReduceWindow: init value 0 must be a f32\[\] scalar"),
    (["f32[4,6]", "s32[4,5]"], lambda p, b: ops.ReduceWindow(p, [f32(b), s32(b)], ARGMAX, [2, 2], [1, 1], "VALID"), r"ReduceWindow: window_dimensions=\[2,2\] and window_strides=\[1,1\] must have one entry|input 1 must have the dimensions of input 0"),
    (["f32[4,6]", "s32[6,4]"], lambda p, b: ops.ReduceWindowWithGeneralPadding(p, [f32(b), s32(b)], ARGMAX, [2, 2], [], [], [], []), r"ReduceWindowWithGeneralPadding: input 1 must have the dimensions of input 0: found f32\[4,6\] and s32\[6,4\]"),
    (["bf16[4,6]"], lambda p, b: ops.ReduceWindow(p[0], ops.ConvertElementType(f32(b), "bf16"), ADD, [2, 2], [1, 1], "VALID"), r"ReduceWindow: to_apply=%add: parameter 0 must have the element type of operand 0 \(input 0, bf16\[4,6\]\); the verifier allows no mixed precision here"),
    # SelectAndScatter: select (T, T) -> pred, scatter (T, T) -> T, the source, the init value
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE3, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD), r"SelectAndScatter: select=%ge3 must be \(f32\[\], f32\[\]\) -> pred\[\] for operand f32\[4,6\]: found 3 parameters"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], ADD, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD), r"SelectAndScatter: select=%add must be \(f32\[\], f32\[\]\) -> pred\[\] for operand f32\[4,6\]: found the result f32\[\]"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], S32_GE, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD), r"SelectAndScatter: select=%ige must be \(f32\[\], f32\[\]\) -> pred\[\] for operand f32\[4,6\]: found parameter 0 s32\[\]"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), GE), r"SelectAndScatter: scatter=%ge\S*: parameter 0 \(accumulator\) must be pred\[\], the type it returns"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD3), r"SelectAndScatter: scatter=%add3 must take 2 parameters"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), S32_ADD), r"SelectAndScatter: scatter=%iadd: parameter 1 must be f32\[\], the element type of input 0"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], s32(b), ADD), r"SelectAndScatter: init value 0 must be a f32\[\] scalar"),
    (["f32[4,6]", "f32[3,3]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD), r"SelectAndScatter: operand 1 \(source\) must have one value per window, dimensions \[2, 2\] for operand f32\[4,6\] and window=\{size=2x3 stride=2x3\}: found f32\[3,3\]"),
    (["f32[4,6]", "f32[2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), ADD), r"operand 1 \(source\) must have one value per window, dimensions \[2, 2\]"),
    (["f32[4]", "s32[2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2], [2], "VALID", p[1], s32(b), S32_ADD), r"SelectAndScatter: operand 1 \(source\) must have the element type of operand 0: found f32\[4\] and s32\[2\]"),
    (["f32[4,6]", "f32[2,2]", "f32[1]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], p[2], ADD), r"SelectAndScatter: init value 0 must be a f32\[\] scalar .*found f32\[1\]"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2], "VALID", p[1], f32(b), ADD), r"SelectAndScatter: window_dimensions=\[2,3\] and window_strides=\[2\] must have one entry per dimension"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatterWithGeneralPadding(p[0], GE, [2, 3], [2, 3], [(0, 0)], p[1], f32(b), ADD), r"SelectAndScatterWithGeneralPadding: padding has 1 entries for a window of 2 dimensions"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatterWithGeneralPadding(p[0], GE, [2, 0], [2, 3], [], p[1], f32(b), ADD), r"SelectAndScatterWithGeneralPadding: window dimension 1 must have a positive size"),
    (["f32[4,6]", "f32[2,2]"], lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [2, 3], "VALID", p[1], f32(b), "add"), r"SelectAndScatter: scatter must be an XlaComputation"),
    # Map: operands, dimensions, the computation's arity, scalars and types
    (["f32[3]"], lambda p, b: ops.Map(b, [p[0]], ADD, [0]), r"Map: to_apply=%add must take 1 scalar parameters, one per operand: found \(f32\[\], f32\[\]\) -> f32\[\]"),
    (["f32[3]", "f32[4]"], lambda p, b: ops.Map(b, p, ADD, [0]), r"Map: operand 1 must have the dimensions of operand 0 \(or be a scalar of its element type\): found f32\[3\] and f32\[4\]"),
    (["f32[]", "f32[3]", "f32[4]"], lambda p, b: ops.Map(b, p, ADD3, [0]), r"Map: operand 2 must have the dimensions of operand 1 .*: found f32\[3\] and f32\[4\]"),
    (["f32[3]", "s32[]"], lambda p, b: ops.Map(b, p, ADD, [0]), r"Map: operand 1 must have the dimensions of operand 0 \(or be a scalar of its element type\): found f32\[3\] and s32\[\]"),
    (["f32[2,3]", "f32[2,3]"], lambda p, b: ops.Map(b, p, ADD, [1]), r"Map: dimensions must be \[0,1\] \(map applies to every dimension of f32\[2,3\]\): found \[1\]"),
    (["f32[2,3]", "f32[2,3]"], lambda p, b: ops.Map(b, p, ADD, [1, 0]), r"Map: dimensions must be \[0,1\] .*found \[1,0\]"),
    (["f32[2,3]", "f32[2,3]"], lambda p, b: ops.Map(b, p, ADD, []), r"Map: dimensions must be \[0,1\] .*found \[\]"),
    (["f32[2]", "f32[2]"], lambda p, b: ops.Map(b, p, ADD_TO_VEC, [0]), r"Map: to_apply=%add_vec must return a scalar: found \(f32\[\], f32\[\]\) -> f32\[2\]"),
    (["f32[2]", "f32[2]"], lambda p, b: ops.Map(b, p, VEC_ADD, [0]), r"Map: to_apply=%vadd must return a scalar"),
    (["f32[2]", "f32[2]"], lambda p, b: ops.Map(b, p, computation("vs", ["f32[2]", "f32[]"], lambda b, x, y: ops.Reduce(b, x, y, ADD, [0])), [0]), r"Map: to_apply=%vs: parameter 0 must be a scalar"),
    (["f32[2]", "f32[2]"], lambda p, b: ops.Map(b, p, S32_ADD, [0]), r"Map: to_apply=%iadd: parameter 0 must be s32\[\]|parameter 0 must be f32\[\] \(operand 0 is f32\[2\]\)"),
    (["f32[2]", "f32[2]"], lambda p, b: ops.Map(b, p, BF16_ADD, [0]), r"Map: to_apply=%badd: parameter 0 must have the element type of operand 0 \(operand 0, f32\[2\]\); the verifier allows no mixed precision here"),
    (["f32[<=2]", "f32[]"], lambda p, b: ops.Map(b, p, ADD, [0]), r"Map: dimension 0 of the broadcast f32\[<=2\]\{0\} is new and must be static"),
    (["f32[2]"], lambda p, b: ops.Map(b, [p[0]], NEG, [0], [p[0]]), r"Map: static_operands are not supported"),
    ([], lambda p, b: ops.Map(b, [], NEG, []), r"Map: operands must hold at least one XlaOp"),
    # Sort: the comparator, the operands, the dimension
    (["f32[3,5]"], lambda p, b: ops.Sort(p[0], ADD), r"Sort: the comparator to_apply=%add must be \(f32\[\], f32\[\]\) -> pred\[\]: found the result f32\[\]"),
    (["f32[3,5]", "s32[3,5]"], lambda p, b: ops.Sort(p, LT), r"Sort: the comparator to_apply=%lt must be \(f32\[\], f32\[\], s32\[\], s32\[\]\) -> pred\[\]: found 2 parameters"),
    (["f32[3,5]", "s32[3,5]"], lambda p, b: ops.Sort(p, lt_on_first(["f32", "f32"])), r"Sort: the comparator .* found parameter 2 f32\[\] for operand 1"),
    (["s32[3]"], lambda p, b: ops.Sort(p[0], LT), r"Sort: the comparator to_apply=%lt must be \(s32\[\], s32\[\]\) -> pred\[\]: found parameter 0 f32\[\] for operand 0"),
    (["f32[3,5]", "s32[3,4]"], lambda p, b: ops.Sort(p, lt_on_first(["f32", "s32"])), r"Sort: operand 1 must have the dimensions of operand 0 \(keys\): found f32\[3,5\] and s32\[3,4\]"),
    (["f32[3,5]"], lambda p, b: ops.Sort(p[0], LT, 2), r"Sort: dimension 2 is out of range for f32\[3,5\]"),
    (["f32[3,5]"], lambda p, b: ops.Sort(p[0], LT, -2), r"Sort: dimension -2 is out of range for f32\[3,5\]"),
    (["f32[]"], lambda p, b: ops.Sort(p[0], LT), r"Sort: dimension -1 is out of range for f32\[\]"),
    (["f32[3]"], lambda p, b: ops.Sort(p[0], LT, 0.0), r"Sort: dimension must be an int"),
    (["(f32[3])"], lambda p, b: ops.Sort(p[0], LT), r"Sort: operand 0 must be an array"),
    # TopK: k within the last dimension, an operand of rank >= 1
    (["f32[3,5]"], lambda p, b: ops.TopK(p[0], 6), r"TopK: k=6 must be between 0 and the last dimension of f32\[3,5\] \(5\)"),
    (["f32[3,5]"], lambda p, b: ops.TopK(p[0], -1), r"TopK: k=-1 must be between 0 and the last dimension"),
    (["f32[3,?]"], lambda p, b: ops.TopK(p[0], 1), r"TopK: k=1 must be between 0 and the last dimension of f32\[3,\?\] \(\?\)"),
    (["f32[]"], lambda p, b: ops.TopK(p[0], 1), r"TopK: operand 0 must have at least one dimension: found f32\[\]"),
    (["f32[4]"], lambda p, b: ops.TopK(p[0], 1.0), r"TopK: k must be an int"),
    # Scan: the step computation against the inputs' slices and the carries
    (["f32[4,3]", "f32[3]"], lambda p, b: ops.Scan([p[0]], [p[1]], cumsum_step("f32[4]"), 0), r"Scan: to_apply=%step: parameter 0 must be f32\[3\], a slice of input 0 f32\[4,3\] along dimension 0"),
    (["f32[4,3]", "f32[4]"], lambda p, b: ops.Scan([p[0]], [p[1]], cumsum_step(), 0), r"Scan: to_apply=%step: parameter 1 must be f32\[4\], the shape of carry 0"),
    (["f32[4,3]", "f32[3]"], lambda p, b: ops.Scan([p[0]], [p[1]], computation("s", ["f32[3]", "f32[3]"], lambda b, x, c: ops.Tuple(b, [x, ops.Reduce(b, c, f32(b), ADD, [0])])), 0), r"Scan: to_apply=%s must return carry 0 as f32\[3\], the shape of its init value"),
    (["f32[4,3]", "f32[3]"], lambda p, b: ops.Scan([p[0]], [p[1]], NEG, 0), r"Scan: to_apply=%neg must take 2 parameters"),
    (["f32[4,3]", "f32[3]"], lambda p, b: ops.Scan([p[0]], [p[1]], cumsum_step(), 2), r"Scan: scan dimension 2 is out of range for input 0 f32\[4,3\]"),
    (["f32[4,3]", "f32[5,3]", "f32[3]"], lambda p, b: ops.Scan(p[:2], [p[2]], cumsum_step(), 0), r"Scan: the inputs' scan dimension sizes must match: found \[4, 5\]"),
    (["f32[3]"], lambda p, b: ops.Scan([], [p[0]], computation("c", ["f32[3]"], lambda b, c: ops.Tuple(b, [c, c])), 0), r"Scan: needs scan_dimension_size when there are no inputs"),
]  # fmt: skip


@pytest.mark.parametrize(("shapes", "fn", "message"), BAD)
def test_builder_errors(shapes: list[str], fn: Fn, message: str) -> None:
    with pytest.raises(hlo.HloError) as info:
        run(shapes, fn)
    text = str(info.value)
    assert re.search(message, text), text
    assert "test_shapes_reduce.py" in text  # the user's line


# -- page 003's worked examples, run ----------------------------------------------------------
def evaluate(shapes: Sequence[str], fn: Fn, *args: Any) -> Any:
    _, _, b, result = run(shapes, fn)
    return hlo.run(b.build(result), *args)


def test_reduce_examples_of_page_003() -> None:
    assert (
        evaluate(
            ["f32[4]"],
            lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0]),
            np.array([10, 11, 12, 13], np.float32),
        )
        == 46
    )
    x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    np.testing.assert_array_equal(
        evaluate(["f32[2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [0]), x), [5, 7, 9]
    )
    np.testing.assert_array_equal(
        evaluate(["f32[2,3]"], lambda p, b: ops.Reduce(b, p[0], f32(b), ADD, [1]), x), [6, 15]
    )
    cube = np.stack([x] * 4)  # 4x2x3: the values 1 to 6 repeated along dimension 0
    for dims, expected in (
        ([0], [[4, 8, 12], [16, 20, 24]]),
        ([2], [[6, 15]] * 4),
        ([0, 1], [20, 28, 36]),
        ([0, 1, 2], 84),
    ):
        got = evaluate(["f32[4,2,3]"], lambda p, b, d=dims: ops.Reduce(b, p[0], f32(b), ADD, d), cube)
        np.testing.assert_array_equal(got, expected)


def test_variadic_reduce_finds_the_maximum_and_its_index() -> None:
    values = np.array([[3, 9, 1, 9], [-1, -5, -2, -8]], np.float32)
    indices = np.broadcast_to(np.arange(4, dtype=np.int32), (2, 4)).copy()
    fn: Fn = lambda p, b: ops.Reduce(b, p, [f32(b, -np.inf), s32(b)], ARGMAX, [1])  # noqa: E731
    best, where = evaluate(["f32[2,4]", "s32[2,4]"], fn, values, indices)
    np.testing.assert_array_equal(best, [9, -1])
    np.testing.assert_array_equal(where, [1, 0])


@pytest.mark.parametrize(("padding", "expected"), [("VALID", [100, 1]), ("SAME", [1000, 10, 1])])
def test_reduce_window_min_example_of_page_003(padding: str, expected: list[float]) -> None:
    x = np.array([10000, 1000, 100, 10, 1], np.float32)
    fn: Fn = lambda p, b: ops.ReduceWindow(p[0], f32(b, np.finfo(np.float32).max), MIN, [3], [2], padding)  # noqa: E731
    np.testing.assert_array_equal(evaluate(["f32[5]"], fn, x), expected)


def test_reduce_window_2x3_pool_of_page_003() -> None:
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    fn: Fn = lambda p, b: ops.ReduceWindow(p[0], f32(b, -np.inf), MAX, [2, 3], [2, 3], "VALID")  # noqa: E731
    np.testing.assert_array_equal(evaluate(["f32[4,6]"], fn, x), [[8, 11], [20, 23]])


def test_sort_example_of_page_003() -> None:
    fn: Fn = lambda p, b: ops.Sort(p, lt_on_first(["s32", "s32", "f32"]))  # noqa: E731
    args = (np.array([3, 1], np.int32), np.array([42, 50], np.int32), np.array([-3.0, 1.1], np.float32))
    keys, first, second = evaluate(["s32[2]", "s32[2]", "f32[2]"], fn, *args)
    np.testing.assert_array_equal(keys, [1, 3])
    np.testing.assert_array_equal(first, [50, 42])
    np.testing.assert_array_equal(second, np.array([1.1, -3.0], np.float32))


def test_topk_and_map_values() -> None:
    values, indices = evaluate(
        ["f32[5]"], lambda p, b: ops.TopK(p[0], 2), np.array([1, 5, 3, 5, 0], np.float32)
    )
    np.testing.assert_array_equal(values, [5, 5])
    np.testing.assert_array_equal(indices, [1, 3])  # equal values: the lower index first
    x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    got = evaluate(
        ["f32[2,3]", "f32[2,3]", "f32[]"], lambda p, b: ops.Map(b, p, FMA, [0, 1]), x, x, np.float32(2)
    )
    np.testing.assert_array_equal(got, x + 2 * x)


def test_select_and_scatter_adds_the_source_at_each_windows_maximum() -> None:
    x = np.array([[1, 9, 3, 4], [5, 6, 2, 8]], np.float32)
    source = np.array([[2, 6]], np.float32)
    fn: Fn = lambda p, b: ops.SelectAndScatter(p[0], GE, [2, 3], [1, 1], "VALID", p[1], f32(b), ADD)  # noqa: E731
    got = evaluate(["f32[2,4]", "f32[1,2]"], fn, x, source)
    np.testing.assert_array_equal(got, [[0, 8, 0, 0], [0, 0, 0, 0]])  # 9 is picked by both windows


# -- HLO text ---------------------------------------------------------------------------------
CALLEES = """add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
lt2 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=LT
}
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v0, v1), direction=GT
  v = f32[] select(gt, v0, v1)
  i = s32[] select(gt, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
step {
  x = f32[3] parameter(0)
  c = f32[3] parameter(1)
  s = f32[3] add(x, c)
  ROOT t = (f32[3], f32[3]) tuple(s, s)
}
badd {
  a = bf16[] parameter(0)
  b = bf16[] parameter(1)
  ROOT c = bf16[] add(a, b)
}
neg1 {
  a = f32[] parameter(0)
  ROOT c = f32[] negate(a)
}
"""

OMITTED = """  arg = f32[4,6] parameter(0)
  d = f32[<=4,6] parameter(1)
  idx = s32[4,6] parameter(2)
  src = f32[2,2] parameter(3)
  z = f32[] constant(0)
  n = s32[] constant(0)
  r = reduce(arg, z), dimensions={1}, to_apply=add
  rd = reduce(d, z), dimensions={1}, to_apply=add
  var = reduce(arg, idx, z, n), dimensions={0}, to_apply=argmax
  w = reduce-window(arg, z), window={size=2x3 stride=2x3}, to_apply=add
  wd = reduce-window(d, z), window={size=2x1 pad=0_1x0_0}, to_apply=add
  ws = reduce-window(z, z), to_apply=add
  sas = select-and-scatter(arg, src, z), window={size=2x3 stride=2x3}, select=ge, scatter=add
  m = map(arg, arg), to_apply=add
  so = sort(arg, idx), dimensions={0}, to_apply=lt2
  top = topk(arg), k=2
  scn = scan(arg, r), dimensions={1}, num_carries=1, to_apply=step2
  ROOT out = tuple(r, rd, var, w, wd, ws, sas, m, so, top, scn)"""

STEP2 = """step2 {
  x = f32[4] parameter(0)
  c = f32[4] parameter(1)
  s = f32[4] add(x, c)
  ROOT t = (f32[4], f32[4]) tuple(s, s)
}
"""


def test_omitted_result_shapes_are_inferred() -> None:
    m = hlo.parse_module(module(OMITTED, CALLEES + STEP2))
    shapes = {i.name: i.shape.to_string(print_layout=False) for i in m.entry.instructions}
    assert shapes["r"] == "f32[4]"
    assert shapes["rd"] == "f32[<=4]"
    assert shapes["var"] == "(f32[6], s32[6])"
    assert shapes["w"] == "f32[2,2]"
    assert shapes["wd"] == "f32[<=4,6]"
    assert shapes["ws"] == "f32[]"
    assert shapes["sas"] == "f32[4,6]"
    assert shapes["m"] == "f32[4,6]"
    assert shapes["so"] == "(f32[4,6], s32[4,6])"
    assert shapes["top"] == "(f32[4,2], s32[4,2])"
    assert shapes["scn"] == "(f32[4,6], f32[4])"
    assert hlo.verify(m, all_errors=True) == []
    text = m.to_text()
    assert "%ws = f32[] reduce-window(f32[] %z, f32[] %z), to_apply=%add" in text  # no window= for rank 0
    assert "topk(f32[4,6]{1,0} %arg), k=2, largest=true\n" in text  # jaxlib 0.10's XLA: no is_stable
    assert "map(f32[4,6]{1,0} %arg, f32[4,6]{1,0} %arg), dimensions={0,1}, to_apply=%add" in text
    again = hlo.parse_module(text)
    assert again.to_text() == text
    assert rule_errors(text) == []


WRITTEN = [
    ("ROOT r = f32[6] reduce(x, z), dimensions={0}, to_apply=add", None),
    ("ROOT r = f32[4] reduce(x, z), dimensions={0}, to_apply=add", r"result shape: reduce of .* gives f32\[6\]\{0\}, not f32\[4\]"),
    ("ROOT r = f32[4] reduce(x, z), dimensions={1,1}, to_apply=add", r"dimensions=\[1,1\] repeats a dimension of f32\[4,6\]"),
    ("ROOT r = f32[4] reduce(x, z), dimensions={1}, to_apply=ge", r"to_apply=%ge: parameter 0 \(accumulator\) must be pred\[\], the type it returns"),
    ("ROOT r = (f32[6], s32[6]) reduce(x, i, z, n), dimensions={0}, to_apply=argmax", None),
    ("ROOT r = (f32[6], s32[6]) reduce(x, i, z, z), dimensions={0}, to_apply=argmax", r"init value 1 must be a s32\[\] scalar"),
    ("ROOT r = bf16[4] reduce(h, hz), dimensions={1}, to_apply=badd", None),
    ("ROOT r = bf16[4] reduce(h, hz), dimensions={1}, to_apply=add", r"to_apply=%add: parameter 0 must have the element type of operand 0 \(input 0, bf16\[4,6\]\); the verifier allows no mixed precision here"),
    ("ROOT r = f32[4] reduce(x, hz), dimensions={1}, to_apply=add", r"operands of one floating-point precision"),
    ("ROOT r = f32[2,2] reduce-window(x, z), window={size=2x3 stride=2x3}, to_apply=add", None),
    ("ROOT r = f32[2,2] reduce-window(x, z), window={size=2x3 stride=2x3 pad=0_0x0_0 lhs_dilate=1x1 rhs_dilate=1x1}, to_apply=add", None),
    ("ROOT r = f32[2,2] reduce-window(x, z), window={size=2 stride=2}, to_apply=add", r"the window has 1 dimensions for an operand of rank 2"),
    ("ROOT r = f32[4,6] reduce-window(x, z), to_apply=add", r"the window has 0 dimensions for an operand of rank 2"),
    ("ROOT r = f32[2,2] reduce-window(x, z), window={size=0x3 stride=2x3}, to_apply=add", r"window dimension 0 must have a positive size: found 0"),
    ("ROOT r = f32[2,2] reduce-window(x, z), window={size=2x3 pad=-5_0x0_0}, to_apply=add", r"the padding -5_0 of window dimension 0 leaves a negative size around 4"),
    ("ROOT r = bf16[3,4] reduce-window(x, hz), window={size=2x3}, to_apply=add", r"to_apply=%add: parameter 1 must have the element type of operand 1 \(init value 0, bf16\[\]\)"),
    ("ROOT r = f32[4,6] select-and-scatter(x, s, z), window={size=2x3 stride=2x3}, select=ge, scatter=add", None),
    ("ROOT r = f32[4,6] select-and-scatter(x, s, z), window={size=2x3 stride=2x3}, select=add, scatter=add", r"select=%add must be \(f32\[\], f32\[\]\) -> pred\[\] for operand f32\[4,6\]: found the result f32\[\]"),
    ("ROOT r = f32[4,6] select-and-scatter(x, x, z), window={size=2x3 stride=2x3}, select=ge, scatter=add", r"operand 1 \(source\) must have one value per window, dimensions \[2, 2\]"),
    ("ROOT r = f32[4,6] map(x, x), dimensions={0,1}, to_apply=add", None),
    ("ROOT r = f32[4,6] map(x, x), dimensions={5}, to_apply=add", None),  # XLA keeps {0,1} whatever is written
    ("ROOT r = f32[4,6] map(x, z), dimensions={0,1}, to_apply=add", None),
    ("ROOT r = f32[4,6] map(x), dimensions={0,1}, to_apply=add", r"called computation arity: add takes 2 parameters, map gives it 1"),
    ("ROOT r = bf16[4,6] map(h, h), dimensions={0,1}, to_apply=add", r"to_apply=%add: parameter 0 must have the element type of operand 0 \(operand 0, bf16\[4,6\]\)"),
    ("ROOT r = (f32[4,6], s32[4,6]) sort(x, i), dimensions={1}, to_apply=lt2", None),
    ("ROOT r = (f32[4,6], s32[4,6]) sort(x, i), dimensions={2}, to_apply=lt2", r"dimension 2 is out of range for f32\[4,6\]"),
    ("ROOT r = (f32[4,6], s32[4,6]) sort(x, i), dimensions={1}, to_apply=ge", r"called computation arity: ge takes 2 parameters, sort gives it 4"),
    ("ROOT r = (bf16[4,6], s32[4,6]) sort(h, i), dimensions={1}, to_apply=lt2", None),  # the verifier ignores fp precision here
    ("ROOT r = (f32[4,3], s32[4,3]) topk(x), k=3, largest=false", None),
    ("ROOT r = (f32[4,3], s32[4,3]) topk(x), k=7", r"k=7 must be between 0 and the last dimension of f32\[4,6\] \(6\)"),
    ("ROOT r = (f32[4,6], f32[4]) scan(x, c), dimensions={1}, num_carries=1, to_apply=step4", None),
    ("ROOT r = (f32[4,6], f32[4]) scan(x, c), dimensions={1}, num_carries=1, is_reverse=true, is_associative=true, to_apply=step4", None),
    ("ROOT r = (f32[5,4], f32[4]) scan(c), dimensions={0}, num_carries=1, to_apply=gen4", None),
    ("ROOT r = (f32[4,6], f32[4]) scan(x, c), dimensions={0}, num_carries=1, to_apply=step4", r"to_apply=%step4: parameter 0 must be f32\[6\], a slice of input 0 f32\[4,6\] along dimension 0"),
    ("ROOT r = (f32[4,6], f32[4]) scan(x, c), dimensions={-1}, num_carries=1, to_apply=step4", r"the scan dimension -1 must not be negative"),
]  # fmt: skip

EXTRA = """step4 {
  x = f32[4] parameter(0)
  c = f32[4] parameter(1)
  s = f32[4] add(x, c)
  ROOT t = (f32[4], f32[4]) tuple(s, s)
}
gen4 {
  c = f32[4] parameter(0)
  ROOT t = (f32[4], f32[4]) tuple(c, c)
}
"""


@pytest.mark.parametrize(("line", "message"), WRITTEN)
def test_written_shapes_are_verified(line: str, message: str | None) -> None:
    body = (
        "  x = f32[4,6] parameter(0)\n  i = s32[4,6] parameter(1)\n  s = f32[2,2] parameter(2)\n"
        "  h = bf16[4,6] parameter(3)\n  c = f32[4] parameter(4)\n  z = f32[] constant(0)\n"
        "  n = s32[] constant(0)\n  hz = bf16[] constant(0)\n  " + line
    )
    m = hlo.parse_module(module(body, CALLEES + EXTRA))
    errors = [e.message for e in hlo.verify(m, all_errors=True)]
    if message is None:
        assert errors == []
    else:
        assert len(errors) == 1 and re.search(message, errors[0]), errors


def test_map_keeps_dimensions_of_its_result() -> None:
    body = "  x = f32[4,6] parameter(0)\n  ROOT r = f32[4,6] map(x, x), dimensions={5}, to_apply=add"
    text = hlo.parse_module(module(body, CALLEES)).to_text()
    assert "dimensions={0,1}, to_apply=%add" in text


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ROOT r = reduce(x, z, z), dimensions={0}, to_apply=add", r"reduce expects an even number of operands, but has 3"),
        ("ROOT r = reduce-window(), to_apply=add", r"reduce-window expects at least one input and init operand"),
        ("ROOT r = reduce(x, z), dimensions={2}, to_apply=add", r"failed to infer shape for opcode: reduce, error: dimensions=\[2\] contains 2"),
        ("ROOT r = sort(x), dimensions={0,1}, to_apply=ge", r"dimensions= must hold exactly one dimension: found \[0,1\]"),
        ("ROOT r = scan(x), dimensions={0}, num_carries=2, to_apply=step", r"scan expects at least 2 operands to match the number of carries, but has 1"),
        ("ROOT r = scan(z), dimensions={0}, num_carries=1, to_apply=neg1", r"Cannot infer shape for scan with no inputs"),
        ("ROOT r = scan(z), dimensions={0}, num_carries=1, to_apply=add", r"to_apply=%add must take 1 parameters \(a slice of each input, then the carries\)"),
        ("ROOT r = topk(x)", r"attribute k is expected but not seen"),
    ],
)  # fmt: skip
def test_omitted_shape_errors(line: str, message: str) -> None:
    body = "  x = f32[4,6] parameter(0)\n  z = f32[] constant(0)\n  " + line
    with pytest.raises(hlo.ParseError, match=message):
        hlo.parse_module(module(body, CALLEES))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_dumps_satisfy_the_rules(path: Path) -> None:
    """Every reduction, window, sort, map, top-k and scan XLA wrote passes its rule with the
    shape XLA gave it (dynamic dimensions included)."""
    assert rule_errors(path.read_text()) == []


def test_a_built_computation_prints_parses_back_and_runs() -> None:
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "f32[4,6]", "x")
    iota = ops.Iota(b, "s32[4,6]", 1)
    best = ops.Reduce(b, [x, iota], [f32(b, -np.inf), s32(b)], ARGMAX, [1])
    pooled = ops.ReduceWindow(x, f32(b, -np.inf), MAX, [2, 3], [2, 3], "VALID")
    grads = ops.SelectAndScatter(x, GE, [2, 3], [2, 3], "VALID", pooled, f32(b), ADD)
    mapped = ops.Map(b, [x, f32(b, 2.0)], ADD, [0, 1])
    ordered = ops.Sort([x, iota], lt_on_first(["f32", "s32"]), 1, True)
    top = ops.TopK(x, 2)
    root = ops.Tuple(b, [best, pooled, grads, mapped, ordered, top])
    round_trip(b, root)
    data = np.arange(24, dtype=np.float32).reshape(4, 6)
    (value, index), pool, grad, plus, (keys, perm), (tv, ti) = hlo.run(b.build(root), data)
    np.testing.assert_array_equal(value, data.max(axis=1))
    np.testing.assert_array_equal(index, [5, 5, 5, 5])
    np.testing.assert_array_equal(pool, [[8, 11], [20, 23]])
    assert grad.sum() == pool.sum() and grad[1, 2] == 8
    np.testing.assert_array_equal(plus, data + 2)
    np.testing.assert_array_equal(keys, data)
    np.testing.assert_array_equal(perm, np.broadcast_to(np.arange(6), (4, 6)))
    np.testing.assert_array_equal(tv, data[:, [5, 4]])
    np.testing.assert_array_equal(ti, np.broadcast_to([5, 4], (4, 2)))
