"""Shape rules and builder functions of the elementwise ops: unary, binary (with XlaBuilder's
broadcasting), compare, select, clamp and the conversions. Tables of good cases (operand shapes
-> result shape, dynamic dimensions included) and bad ones (the error names the builder function,
the operand or attribute, and shows the shapes), page 003's worked examples, omitted result
shapes in text, and build -> text -> parse round trips."""

# ruff: noqa: E501  (tables of cases, one per line, with the message each must give)
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hlo
from hlo import ops
from hlo.ir.attrs import ComparisonDirection, ComparisonType
from hlo.ir.metadata import AccuracyMode, ResultAccuracy
from hlo.ops import binary_ops, elementwise

Fn = Callable[[list[Any]], Any]


def run(shapes: Sequence[str], fn: Fn) -> tuple[str, hlo.XlaBuilder]:
    """Build fn(parameters of `shapes`); the result shape without layout, and the builder."""
    b = hlo.XlaBuilder("t")
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    result = fn(params)
    return result.shape.to_string(print_layout=False), b


def assert_round_trip(module: hlo.HloModule) -> None:
    """The text parses back to the same instructions and prints the same. (The printer writes
    instructions in XLA's post order, which may differ from the order they were built in.)"""
    text = module.to_text()
    again = hlo.parse_module(text)
    assert again.to_text() == text
    assert [c.by_name for c in again.computations] == [c.by_name for c in module.computations]
    if [i.name for i in again.entry.instructions] == [i.name for i in module.entry.instructions]:
        assert again == module


def opcodes(b: hlo.XlaBuilder) -> list[str]:
    return [i.opcode.text for i in b.instructions if i.opcode is not hlo.Opcode.PARAMETER]


def unary(name: str, **kw: Any) -> Fn:
    return lambda p: getattr(ops, name)(p[0], **kw)


def binary(name: str, *args: Any) -> Fn:
    return lambda p: getattr(ops, name)(p[0], p[1], *args)


# -- unary ------------------------------------------------------------------------------------
UNARY_GOOD = [
    ("Abs", "f32[2,3]", "f32[2,3]"),
    ("Abs", "s8[4]", "s8[4]"),
    ("Abs", "c64[4]", "f32[4]"),  # the magnitude of a complex is real
    ("Abs", "c128[<=4]", "f64[<=4]"),
    ("Neg", "s32[?,2]", "s32[?,2]"),
    ("Neg", "u8[3]", "u8[3]"),
    ("Neg", "c64[]", "c64[]"),
    ("Not", "pred[3]", "pred[3]"),
    ("Not", "u16[3]", "u16[3]"),
    ("Exp", "bf16[3]", "bf16[3]"),
    ("Exp", "c64[3]", "c64[3]"),
    ("Log", "f16[<=3]", "f16[<=3]"),
    ("Log1p", "f32[2]", "f32[2]"),
    ("Expm1", "c128[2]", "c128[2]"),
    ("Logistic", "f32[2]", "f32[2]"),
    ("Sqrt", "c64[2]", "c64[2]"),
    ("Rsqrt", "f64[2]", "f64[2]"),
    ("Cbrt", "f32[2]", "f32[2]"),
    ("Sin", "f32[2]", "f32[2]"),
    ("Cos", "c64[2]", "c64[2]"),
    ("Tan", "f32[2]", "f32[2]"),
    ("Tanh", "f32[2]", "f32[2]"),
    ("Acos", "f32[2]", "f32[2]"),
    ("Acosh", "f32[2]", "f32[2]"),
    ("Asin", "f32[2]", "f32[2]"),
    ("Asinh", "c64[2]", "c64[2]"),
    ("Atanh", "f32[2]", "f32[2]"),
    ("Cosh", "f32[2]", "f32[2]"),
    ("Sinh", "f32[2]", "f32[2]"),
    ("Erf", "f32[2]", "f32[2]"),
    ("Floor", "f32[2]", "f32[2]"),
    ("Ceil", "bf16[2]", "bf16[2]"),
    ("Round", "f32[2]", "f32[2]"),
    ("RoundNearestEven", "f32[2]", "f32[2]"),
    ("Sign", "s32[2]", "s32[2]"),
    ("Sign", "f32[2]", "f32[2]"),
    ("Sign", "c64[2]", "c64[2]"),
    ("Clz", "s32[2]", "s32[2]"),
    ("Clz", "u64[2]", "u64[2]"),
    ("PopulationCount", "u8[2]", "u8[2]"),
    ("IsFinite", "f32[2,<=3]", "pred[2,<=3]"),
    ("IsFinite", "bf16[]", "pred[]"),
    ("Real", "c64[3]", "f32[3]"),
    ("Real", "f32[3]", "f32[3]"),
    ("Imag", "c128[3]", "f64[3]"),
    ("Imag", "f64[3]", "f64[3]"),
]


@pytest.mark.parametrize(("name", "operand", "expected"), UNARY_GOOD)
def test_unary_shapes(name: str, operand: str, expected: str) -> None:
    shape, b = run([operand], unary(name))
    assert shape == expected
    assert len(opcodes(b)) == 1


UNARY_BAD = [
    (
        "Abs",
        "u32[2]",
        r"Abs: operand 0 must be a signed integer, floating-point or complex type: found u32\[2\]",
    ),
    ("Abs", "pred[2]", r"Abs: operand 0 must be a signed .*: found pred\[2\]"),
    ("Neg", "pred[2]", r"Neg: operand 0 must be an integer, floating-point or complex type: found pred\[2\]"),
    ("Not", "f32[2]", r"Not: operand 0 must be pred or an integer type: found f32\[2\]"),
    ("Exp", "s32[2]", r"Exp: operand 0 must be floating point or complex: found s32\[2\]"),
    ("Cbrt", "c64[2]", r"Cbrt: operand 0 must be floating point: found c64\[2\]"),
    ("Floor", "s32[2]", r"Floor: operand 0 must be floating point: found s32\[2\]"),
    ("Round", "c64[2]", r"Round: operand 0 must be floating point"),
    ("Erf", "c64[2]", r"Erf: operand 0 must be floating point"),
    ("Clz", "f32[2]", r"Clz: operand 0 must be an integer type: found f32\[2\]"),
    ("Clz", "pred[2]", r"Clz: operand 0 must be an integer type: found pred\[2\]"),
    ("PopulationCount", "f16[2]", r"PopulationCount: operand 0 must be an integer type"),
    (
        "Sign",
        "u32[2]",
        r"Sign: operand 0 must be a signed integer, floating-point or complex type: found u32",
    ),
    ("IsFinite", "c64[2]", r"IsFinite: operand 0 must be floating point: found c64\[2\]"),
    ("IsFinite", "s32[2]", r"IsFinite: operand 0 must be floating point"),
    ("Real", "s32[2]", r"Real: operand 0 must be floating point or complex: found s32\[2\]"),
    ("Imag", "u8[2]", r"Imag: operand 0 must be floating point or complex"),
    ("Tanh", "(f32[2])", r"Tanh: operand 0 must be an array: found \(f32\[2\]"),
]


@pytest.mark.parametrize(("name", "operand", "message"), UNARY_BAD)
def test_unary_errors(name: str, operand: str, message: str) -> None:
    with pytest.raises(hlo.ShapeError, match=message):
        run([operand], unary(name))


def test_unary_result_accuracy_is_kept_and_printed() -> None:
    b = hlo.XlaBuilder("t")
    x = ops.Parameter(b, 0, "f32[3]", "x")
    ops.Exp(x, ResultAccuracy(mode=AccuracyMode.HIGHEST))
    comp = b.build()
    assert "result_accuracy={mode=highest}" in comp.to_text()
    assert_round_trip(comp.module)
    with pytest.raises(TypeError):
        ops.Abs(x, ResultAccuracy(mode=AccuracyMode.HIGHEST))  # abs takes no accuracy


# -- binary -----------------------------------------------------------------------------------
BINARY_GOOD = [
    ("Add", ["f32[2,3]", "f32[2,3]"], (), "f32[2,3]", ["add"]),
    ("Add", ["f32[<=4]", "f32[4]"], (), "f32[<=4]", ["add"]),
    ("Add", ["f32[4]", "f32[<=4]"], (), "f32[<=4]", ["add"]),
    ("Add", ["f32[?]", "f32[4]"], (), "f32[4]", ["add"]),
    ("Add", ["f32[?,2]", "f32[?,2]"], (), "f32[?,2]", ["add"]),
    ("Add", ["f32[?]", "f32[1]"], (), "f32[?]", ["add"]),
    ("Add", ["f32[<=4]", "f32[?]"], (), "f32[<=4]", ["add"]),
    ("Add", ["pred[2]", "pred[2]"], (), "pred[2]", ["add"]),
    ("Add", ["f32[2]", "bf16[2]"], (), "f32[2]", ["add"]),  # inference lets precisions mix
    ("Add", ["bf16[2]", "f16[2]"], (), "bf16[2]", ["add"]),  # more range wins
    # a scalar is broadcast implicitly, statically
    ("Add", ["f32[]", "f32[2,3]"], (), "f32[2,3]", ["broadcast", "add"]),
    ("Add", ["f32[2,<=3]", "f32[]"], (), "f32[2,<=3]", ["broadcast", "add"]),
    # degenerate dimensions: reshape away the 1s, broadcast back
    (
        "Add",
        ["f32[2,1]", "f32[1,3]"],
        (),
        "f32[2,3]",
        ["reshape", "broadcast", "reshape", "broadcast", "add"],
    ),
    ("Add", ["f32[1,<=3]", "f32[2,<=3]"], (), "f32[2,<=3]", ["reshape", "broadcast", "add"]),
    ("Mul", ["f32[1]", "f32[<=5]"], (), "f32[<=5]", ["reshape", "broadcast", "multiply"]),
    # broadcast_dimensions maps the lower-rank operand (either side) into the other
    ("Add", ["f32[2,3]", "f32[3]"], ([1],), "f32[2,3]", ["broadcast", "add"]),
    ("Sub", ["f32[3]", "f32[2,3]"], ([1],), "f32[2,3]", ["broadcast", "subtract"]),
    ("Max", ["f32[2,3,4]", "f32[2,4]"], ([0, 2],), "f32[2,3,4]", ["broadcast", "maximum"]),
    (
        "Min",
        ["f32[2,3,4]", "f32[2,1]"],
        ([0, 2],),
        "f32[2,3,4]",
        ["broadcast", "reshape", "broadcast", "minimum"],
    ),
    (
        "Add",
        ["f32[2,1,4]", "f32[2,3]"],
        ([0, 1],),
        "f32[2,3,4]",
        ["reshape", "broadcast", "broadcast", "add"],
    ),
    ("Add", ["f32[<=2,3]", "f32[<=2]"], ([0],), "f32[<=2,3]", ["broadcast", "add"]),
    ("Add", ["f32[2,3]", "f32[2,3]"], ([0, 1],), "f32[2,3]", ["add"]),  # identity is allowed
    ("Div", ["s32[4]", "s32[4]"], (), "s32[4]", ["divide"]),
    ("Rem", ["u8[4]", "u8[4]"], (), "u8[4]", ["remainder"]),
    ("Pow", ["c64[4]", "c64[4]"], (), "c64[4]", ["power"]),
    ("Mulhi", ["s32[4]", "s32[4]"], (), "s32[4]", ["mulhi"]),
    ("Atan2", ["f32[4]", "f32[4]"], (), "f32[4]", ["atan2"]),
    ("Complex", ["f32[4]", "f32[4]"], (), "c64[4]", ["complex"]),
    ("Complex", ["f64[<=4]", "f64[4]"], (), "c128[<=4]", ["complex"]),
    ("Complex", ["f32[2,4]", "f32[4]"], ([1],), "c64[2,4]", ["broadcast", "complex"]),
    ("And", ["pred[4]", "pred[4]"], (), "pred[4]", ["and"]),
    ("Or", ["s8[4]", "s8[4]"], (), "s8[4]", ["or"]),
    ("Xor", ["u64[4]", "u64[]"], (), "u64[4]", ["broadcast", "xor"]),
    ("ShiftLeft", ["s32[4]", "s32[4]"], (), "s32[4]", ["shift-left"]),
    ("ShiftRightArithmetic", ["s16[4]", "s16[4]"], (), "s16[4]", ["shift-right-arithmetic"]),
    ("ShiftRightLogical", ["u32[4]", "u32[4]"], (), "u32[4]", ["shift-right-logical"]),
]


@pytest.mark.parametrize(("name", "shapes", "args", "expected", "emitted"), BINARY_GOOD)
def test_binary_shapes_and_broadcasts(
    name: str, shapes: list[str], args: tuple[Any, ...], expected: str, emitted: list[str]
) -> None:
    shape, b = run(shapes, binary(name, *args))
    assert shape == expected
    assert opcodes(b) == emitted
    errors = hlo.verify(b.build().module, all_errors=True)
    mixed = len({s.split("[")[0] for s in shapes}) > 1  # f32 with bf16: inference allows it,
    assert [e.message.split(": ")[1] for e in errors] == (
        ["operands of one floating-point precision"] if mixed else []
    )


BINARY_BAD = [
    ("Add", ["f32[2]", "s32[2]"], (), r"Add: operand 1 \(rhs\) must have the element type of operand 0 \(lhs\): found f32\[2\]\{0\} and s32\[2\]"),
    ("Add", ["f32[2]", "f32[3]"], (), r"Add: the operands must have equal sizes or a size 1 in each dimension: found f32\[2\]\{0\} and f32\[3\]\{0\}, which differ in dimension 0"),
    ("Add", ["f32[<=2]", "f32[<=3]"], (), r"Add: the operands must have equal sizes .* found f32\[<=2\]"),
    ("Add", ["f32[2,3]", "f32[3]"], (), r"Add: operands of different ranks need broadcast_dimensions mapping the lower-rank operand 1 \(rhs\) into operand 0 \(lhs\): found f32\[3\]\{0\} and f32\[2,3\]"),
    ("Add", ["f32[2,3]", "f32[3]"], ([0],), r"Add: dimension 0 of operand 1 \(rhs\) f32\[3\]\{0\} maps to dimension 0 of operand 0 \(lhs\) f32\[2,3\]\{1,0\}: their sizes 3 and 2 must be equal or one of them 1"),
    ("Add", ["f32[2,3]", "f32[3]"], ([2],), r"Add: broadcast_dimensions=\[2\] contains 2, not a dimension of operand 0 \(lhs\) f32\[2,3\]"),
    ("Add", ["f32[2,3]", "f32[3]"], ([-1],), r"Add: broadcast_dimensions=\[-1\] contains -1"),
    ("Add", ["f32[2,3]", "f32[3]"], ([0, 1],), r"Add: broadcast_dimensions=\[0,1\] must have one entry per dimension of the lower-rank operand 1 \(rhs\): found f32\[3\]"),
    ("Add", ["f32[3,3,2]", "f32[3,3]"], ([1, 0],), r"Add: broadcast_dimensions=\[1,0\] must be strictly increasing"),
    ("Add", ["f32[2,3]", "f32[2,3]"], ([1, 0],), r"Add: broadcast_dimensions=\[1,0\] must be empty or the identity for operands of equal rank: found f32\[2,3\]"),
    ("Add", ["f32[2,3]", "f32[<=1]"], ([1],), r"Add: dimension 0 of operand 1 \(rhs\) f32\[<=1\]\{0\} maps to dimension 1 of operand 0 \(lhs\) f32\[2,3\]\{1,0\}: one is dynamic, the other static"),
    ("Add", ["f32[?]", "f32[]"], (), r"Add: broadcasting operands with unbounded dimensions is not supported .* found f32\[\?\]"),
    ("Add", ["(f32[2])", "f32[2]"], (), r"Add: operand 0 \(lhs\) must be an array: found \(f32\[2\]"),
    ("Sub", ["pred[2]", "pred[2]"], (), r"Sub: operand 0 \(lhs\) must be an integer, floating-point or complex type: found pred\[2\]"),
    ("Div", ["s32[2]", "pred[2]"], (), r"Div: operand 1 \(rhs\) must have the element type of operand 0"),
    ("Pow", ["pred[2]", "pred[2]"], (), r"Pow: operand 0 \(lhs\) must be an integer, floating-point or complex type"),
    ("Rem", ["pred[]", "pred[]"], (), r"Rem: operand 0 \(lhs\) must be an integer, floating-point or complex type"),
    ("Atan2", ["s32[2]", "s32[2]"], (), r"Atan2: operand 0 \(lhs\) must be floating point or complex: found s32\[2\]"),
    ("Complex", ["s32[2]", "s32[2]"], (), r"Complex: operand 0 \(lhs\) must be floating point: found s32\[2\]"),
    ("Complex", ["bf16[2]", "bf16[2]"], (), r"Complex: the operands must be two f32 \(giving c64\) or two f64 \(giving c128\): found bf16\[2\]"),
    ("Complex", ["f32[2]", "f64[2]"], (), r"Complex: the operands must be two f32 .*: found f32\[2\]\{0\} and f64\[2\]"),
    ("And", ["f32[2]", "f32[2]"], (), r"And: operand 0 \(lhs\) must be pred or an integer type: found f32\[2\]"),
    ("Or", ["c64[2]", "c64[2]"], (), r"Or: operand 0 \(lhs\) must be pred or an integer type"),
    ("Xor", ["bf16[2]", "bf16[2]"], (), r"Xor: operand 0 \(lhs\) must be pred or an integer type"),
    ("ShiftLeft", ["f32[2]", "f32[2]"], (), r"ShiftLeft: operand 0 \(lhs\) must be an integer type: found f32\[2\]"),
    ("ShiftRightArithmetic", ["pred[2]", "pred[2]"], (), r"ShiftRightArithmetic: operand 0 \(lhs\) must be an integer type"),
    ("ShiftRightLogical", ["f16[2]", "f16[2]"], (), r"ShiftRightLogical: operand 0 \(lhs\) must be an integer type"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "args", "message"), BINARY_BAD)
def test_binary_errors(name: str, shapes: list[str], args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(hlo.ShapeError, match=message):
        run(shapes, binary(name, *args))


def test_builder_errors_point_at_the_callers_line() -> None:
    b = hlo.XlaBuilder("t")
    x = ops.Parameter(b, 0, "f32[2]", "x")
    y = ops.Parameter(b, 1, "s32[2]", "y")
    with pytest.raises(hlo.ShapeError) as e:
        ops.Add(x, y)  # the line the error points at
    assert e.value.span is not None
    assert "ops.Add(x, y)" in str(e.value)


def test_builder_rejects_operands_that_are_not_xlaops() -> None:
    b = hlo.XlaBuilder("t")
    x = ops.Parameter(b, 0, "f32[2]", "x")
    with pytest.raises(hlo.ShapeError, match=r"Add: rhs must be an XlaOp: found float"):
        ops.Add(x, 1.0)
    with pytest.raises(hlo.ShapeError, match=r"Add: broadcast_dimensions must be a sequence of ints"):
        ops.Add(x, x, ["a"])
    other = hlo.XlaBuilder("u")
    z = ops.Parameter(other, 0, "f32[2]", "z")
    with pytest.raises(hlo.ShapeError, match=r"Add: rhs \(z\) belongs to builder u, not t"):
        ops.Add(x, z)


def test_python_operators_build_elementwise_ops() -> None:
    b = hlo.XlaBuilder("t")
    x = ops.Parameter(b, 0, "f32[2]", "x")
    y = -(x * 2.0 + x) / x
    assert str(y.shape) == "f32[2]{0}"
    assert opcodes(b) == ["constant", "broadcast", "multiply", "add", "negate", "divide"]


# -- compare ----------------------------------------------------------------------------------
COMPARE_GOOD = [
    ("Eq", ["f32[2,3]", "f32[2,3]"], (), "pred[2,3]", "EQ", "FLOAT"),
    ("Ne", ["s32[<=3]", "s32[3]"], (), "pred[<=3]", "NE", "SIGNED"),
    ("Ge", ["u8[3]", "u8[]"], (), "pred[3]", "GE", "UNSIGNED"),
    ("Gt", ["pred[3]", "pred[3]"], (), "pred[3]", "GT", "UNSIGNED"),
    ("Le", ["c64[3]", "c64[3]"], (), "pred[3]", "LE", "FLOAT"),
    ("Lt", ["f32[2,3]", "f32[3]"], ([1],), "pred[2,3]", "LT", "FLOAT"),
    ("EqTotalOrder", ["f32[3]", "f32[3]"], (), "pred[3]", "EQ", "TOTALORDER"),
    ("NeTotalOrder", ["bf16[3]", "bf16[3]"], (), "pred[3]", "NE", "TOTALORDER"),
    ("GeTotalOrder", ["s32[3]", "s32[3]"], (), "pred[3]", "GE", "SIGNED"),  # ints: the usual order
    ("GtTotalOrder", ["f64[3]", "f64[3]"], (), "pred[3]", "GT", "TOTALORDER"),
    ("LeTotalOrder", ["u32[3]", "u32[3]"], (), "pred[3]", "LE", "UNSIGNED"),
    ("LtTotalOrder", ["f16[3]", "f16[]"], (), "pred[3]", "LT", "TOTALORDER"),
]


@pytest.mark.parametrize(("name", "shapes", "args", "expected", "direction", "kind"), COMPARE_GOOD)
def test_compare_functions(
    name: str, shapes: list[str], args: tuple[Any, ...], expected: str, direction: str, kind: str
) -> None:
    shape, b = run(shapes, binary(name, *args))
    assert shape == expected
    instr = b.instructions[-1]
    assert instr.attrs["direction"] is ComparisonDirection(direction)
    assert instr.attrs["type"] is ComparisonType(kind)
    assert_round_trip(b.build().module)


@pytest.mark.parametrize(
    ("args", "direction", "kind"),
    [
        (("GT",), "GT", "SIGNED"),
        ((ComparisonDirection.LE,), "LE", "SIGNED"),
        (([], "eq"), "EQ", "SIGNED"),
        (([], ComparisonDirection.NE, ComparisonType.SIGNED), "NE", "SIGNED"),
    ],
)
def test_compare_forms(args: tuple[Any, ...], direction: str, kind: str) -> None:
    shape, b = run(["s32[3]", "s32[3]"], lambda p: ops.Compare(p[0], p[1], *args))
    assert shape == "pred[3]"
    assert b.instructions[-1].attrs["direction"] is ComparisonDirection(direction)
    assert b.instructions[-1].attrs["type"] is ComparisonType(kind)


COMPARE_BAD = [
    (lambda p: ops.Compare(p[0], p[1], "GT", None, "FLOAT"), ["s32[3]", "s32[3]"], r"Compare: type=FLOAT must be SIGNED for operands of type s32: found s32\[3\]"),
    (lambda p: ops.Compare(p[0], p[1], (), "GT", "SIGNED"), ["f32[3]", "f32[3]"], r"Compare: type=SIGNED must be FLOAT or TOTALORDER for operands of type f32"),
    (lambda p: ops.Compare(p[0], p[1], (), "GT", "TOTALORDER"), ["c64[3]", "c64[3]"], r"Compare: type=TOTALORDER must be FLOAT for operands of type c64"),
    (lambda p: ops.Compare(p[0], p[1], (), "GT", "SIGNED"), ["u8[3]", "u8[3]"], r"Compare: type=SIGNED must be UNSIGNED for operands of type u8"),
    (lambda p: ops.Compare(p[0], p[1], (), "SIDEWAYS"), ["u8[3]", "u8[3]"], r"Compare: direction must be one of \['EQ'"),
    (lambda p: ops.Compare(p[0], p[1]), ["u8[3]", "u8[3]"], r"Compare: needs a comparison direction"),
    (lambda p: ops.Eq(p[0], p[1]), ["f32[3]", "s32[3]"], r"Eq: operand 1 \(rhs\) must have the element type of operand 0 \(lhs\): found f32\[3\]\{0\} and s32\[3\]"),
    (lambda p: ops.LtTotalOrder(p[0], p[1]), ["f32[3]", "f32[4]"], r"LtTotalOrder: the operands must have equal sizes or a size 1"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "shapes", "message"), COMPARE_BAD)
def test_compare_errors(fn: Fn, shapes: list[str], message: str) -> None:
    with pytest.raises(hlo.ShapeError, match=message):
        run(shapes, fn)


# -- select, clamp ----------------------------------------------------------------------------
TERNARY_GOOD = [
    ("Select", ["pred[4]", "s32[4]", "s32[4]"], "s32[4]", ["select"]),  # page 003
    ("Select", ["pred[]", "s32[4]", "s32[4]"], "s32[4]", ["broadcast", "select"]),  # page 003: a scalar pred
    ("Select", ["pred[3]", "f32[]", "f32[3]"], "f32[3]", ["broadcast", "select"]),
    ("Select", ["pred[]", "f32[]", "f32[]"], "f32[]", ["select"]),
    ("Select", ["pred[<=3]", "f32[3]", "f32[3]"], "f32[<=3]", ["select"]),
    ("Select", ["pred[3]", "f32[<=3]", "f32[3]"], "f32[<=3]", ["select"]),
    ("Select", ["pred[3]", "f32[?]", "f32[3]"], "f32[3]", ["select"]),
    ("Select", ["pred[?]", "f32[?]", "f32[?]"], "f32[?]", ["select"]),
    ("Select", ["pred[]", "(f32[2], s32[])", "(f32[2], s32[])"], "(f32[2], s32[])", ["conditional"]),
    ("Clamp", ["s32[]", "s32[3]", "s32[]"], "s32[3]", ["broadcast", "broadcast", "clamp"]),  # page 003
    ("Clamp", ["f32[3]", "f32[3]", "f32[3]"], "f32[3]", ["clamp"]),
    ("Clamp", ["f32[<=3]", "f32[<=3]", "f32[]"], "f32[<=3]", ["broadcast", "clamp"]),
    ("Clamp", ["f32[]", "f32[]", "f32[]"], "f32[]", ["clamp"]),
]


@pytest.mark.parametrize(("name", "shapes", "expected", "emitted"), TERNARY_GOOD)
def test_select_and_clamp(name: str, shapes: list[str], expected: str, emitted: list[str]) -> None:
    shape, b = run(shapes, lambda p: getattr(ops, name)(*p))
    assert shape == expected
    assert opcodes(b) == emitted
    assert_round_trip(b.build().module)


TERNARY_BAD = [
    ("Select", ["s32[4]", "s32[4]", "s32[4]"], r"Select: operand 0 \(pred\) must be of type pred: found s32\[4\]"),
    ("Select", ["pred[4]", "s32[4]", "f32[4]"], r"Select: operand 2 \(on_false\) must have the shape of operand 1 \(on_true\): found s32\[4\]\{0\} and f32\[4\]"),
    ("Select", ["pred[4]", "s32[4]", "s32[5]"], r"Select: the operands that are not scalars must have equal dimensions: found pred\[4\]\{0\}, s32\[4\]\{0\}, s32\[5\]"),
    ("Select", ["pred[]", "(f32[2])", "f32[2]"], r"Select: on_true and on_false must both be tuples or both arrays: found \(f32\[2\]"),
    ("Select", ["pred[2]", "(f32[2])", "(f32[2])"], r"Select: the first operand of conditional must be a scalar"),
    # the builder broadcasts scalar bounds first, so the instruction's rule sees them broadcast
    ("Clamp", ["f32[]", "s32[3]", "s32[]"], r"Clamp: operand 0 \(min\) must have the element type of operand 1 \(operand\): found f32\[3\]\{0\} and s32\[3\]"),
    ("Clamp", ["s32[3]", "s32[3]", "u32[3]"], r"Clamp: operand 2 \(max\) must have the element type of operand 1 \(operand\): found u32\[3\]\{0\} and s32\[3\]"),
    ("Clamp", ["s32[2]", "s32[3]", "s32[]"], r"Clamp: the operands that are not scalars must have equal dimensions"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "message"), TERNARY_BAD)
def test_select_and_clamp_errors(name: str, shapes: list[str], message: str) -> None:
    with pytest.raises(hlo.ShapeError, match=message):
        run(shapes, lambda p: getattr(ops, name)(*p))


SELECT_CLAMP_HLO_BAD = [
    # The HLO instructions themselves (no builder broadcasting): a scalar pred or bound is fine,
    # other scalars are not.
    ("p = pred[] parameter(0)\n a = f32[3] parameter(1)\n c = f32[] parameter(2)\n ROOT r = f32[3] select(p, a, c)",
     r"%r: operand 2 \(on_false\) must have the shape of operand 1 \(on_true\): found f32\[3\]\{0\} and f32\[\]"),
    ("p = pred[2] parameter(0)\n a = f32[3] parameter(1)\n ROOT r = f32[3] select(p, a, a)",
     r"%r: operand 0 \(pred\) must be a scalar or have the dimensions of the branches: found pred\[2\]"),
    ("p = f32[3] parameter(0)\n c = f32[] parameter(1)\n ROOT r = f32[] clamp(p, c, c)",
     r"%r: operand 0 \(min\) must be a scalar or have the shape of operand 1 \(operand\): found f32\[3\]\{0\} and f32\[\]"),
    ("p = f32[3] parameter(0)\n q = f32[3] parameter(1)\n ROOT r = f32[3] clamp(p, q, p)", None),
    ("p = pred[] parameter(0)\n a = f32[3] parameter(1)\n ROOT r = f32[3] select(p, a, a)", None),
]  # fmt: skip


@pytest.mark.parametrize(("body", "message"), SELECT_CLAMP_HLO_BAD)
def test_select_and_clamp_instructions_verify(body: str, message: str | None) -> None:
    module = hlo.parse_module(f"HloModule m\nENTRY e {{\n {body}\n}}\n")
    if message is None:
        assert hlo.verify(module, all_errors=True) == []
    else:
        with pytest.raises(hlo.VerifyError, match=message):
            hlo.verify(module)


# -- conversions ------------------------------------------------------------------------------
CONVERT_GOOD = [
    (lambda p: ops.ConvertElementType(p[0], "f32"), ["s32[3]"], "f32[3]", ["convert"]),  # page 003
    (lambda p: ops.ConvertElementType(p[0], hlo.PrimitiveType.S8), ["f32[<=3,?]"], "s8[<=3,?]", ["convert"]),
    (lambda p: ops.ConvertElementType(p[0], "pred"), ["c64[3]"], "pred[3]", ["real", "convert"]),  # XlaBuilder takes the real part
    (lambda p: ops.ConvertElementType(p[0], "c128"), ["c64[3]"], "c128[3]", ["convert"]),
    (lambda p: ops.ConvertElementType(p[0], "c64"), ["f32[3]"], "c64[3]", ["convert"]),
    # page 003's BitcastConvertType examples, and their kin
    (lambda p: ops.BitcastConvertType(p[0], "f16"), ["f32[10]"], "f16[10,2]", ["bitcast-convert"]),
    (lambda p: ops.BitcastConvertType(p[0], "f16"), ["f32[]"], "f16[2]", ["bitcast-convert"]),
    (lambda p: ops.BitcastConvertType(p[0], "f32"), ["f16[10,2]"], "f32[10]", ["bitcast-convert"]),
    (lambda p: ops.BitcastConvertType(p[0], "s32"), ["f32[<=10]"], "s32[<=10]", ["bitcast-convert"]),
    (lambda p: ops.BitcastConvertType(p[0], "u8"), ["s32[<=3]"], "u8[<=3,4]", ["bitcast-convert"]),
    (lambda p: ops.BitcastConvertType(p[0], "s4"), ["u8[3]"], "s4[3,2]", ["bitcast-convert"]),
    (lambda p: ops.BitcastConvertType(p[0], "s8"), ["pred[3]"], "s8[3]", ["bitcast-convert"]),  # a pred is stored in a byte
    (lambda p: ops.BitcastConvertType(p[0], "c64"), ["c128[2]"], "c64[2,2]", ["bitcast-convert"]),
    (lambda p: ops.StochasticConvertType(p[0], p[1], "bf16"), ["f32[3]", "u32[3]"], "bf16[3]", ["stochastic-convert"]),
    (lambda p: ops.StochasticConvertType(p[0], p[1], "s8"), ["f16[<=3]", "u16[<=3]"], "s8[<=3]", ["stochastic-convert"]),
    (lambda p: ops.ReducePrecision(p[0], 5, 10), ["f32[3]"], "f32[3]", ["reduce-precision"]),
    (lambda p: ops.ReducePrecision(p[0], 1, 0), ["bf16[<=3]"], "bf16[<=3]", ["reduce-precision"]),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "shapes", "expected", "emitted"), CONVERT_GOOD)
def test_conversions(fn: Fn, shapes: list[str], expected: str, emitted: list[str]) -> None:
    shape, b = run(shapes, fn)
    assert shape == expected
    assert opcodes(b) == emitted
    comp = b.build()
    assert_round_trip(comp.module)
    assert hlo.verify(comp.module, all_errors=True) == []


CONVERT_BAD = [
    (lambda p: ops.ConvertElementType(p[0], "f32"), ["(f32[3])"], r"ConvertElementType: converts arrays only: found \(f32\[3\]\{0\}\) to f32"),
    (lambda p: ops.ConvertElementType(p[0], "token"), ["f32[3]"], r"ConvertElementType: converts arrays only: found f32\[3\]\{0\} to token"),
    (lambda p: ops.ConvertElementType(p[0], "f31"), ["f32[3]"], r"ConvertElementType: unknown element type 'f31'"),
    (lambda p: ops.BitcastConvertType(p[0], "f32"), ["c64[3]"], r"BitcastConvertType: cannot reinterpret between complex and real types: found c64\[3\]\{0\} to f32"),
    (lambda p: ops.BitcastConvertType(p[0], "f32"), ["f16[10,3]"], r"BitcastConvertType: the last dimension of operand 0 must be 2, the number of f16 in one f32: found f16\[10,3\]\{1,0\}"),
    (lambda p: ops.BitcastConvertType(p[0], "f32"), ["f16[]"], r"BitcastConvertType: the last dimension of operand 0 must be 2, .*: found f16\[\]"),
    (lambda p: ops.BitcastConvertType(p[0], "u4"), ["f6e2m3fn[3]"], r"BitcastConvertType: the bit widths of f6e2m3fn \(6\) and u4 \(4\) must divide one another"),
    (lambda p: ops.BitcastConvertType(p[0], "u32"), ["s4[3]"], r"BitcastConvertType: the last dimension of operand 0 must be 8, the number of s4 in one u32: found s4\[3\]"),
    (lambda p: ops.BitcastConvertType(p[0], "f32"), ["(f32[3])"], r"BitcastConvertType: reinterprets arrays only"),
    (lambda p: ops.StochasticConvertType(p[0], p[1], "bf16"), ["f32[3]", "s32[3]"], r"StochasticConvertType: operand 1 \(random\) must be of an unsigned integer type: found s32\[3\]"),
    (lambda p: ops.StochasticConvertType(p[0], p[1], "bf16"), ["s32[3]", "u32[3]"], r"StochasticConvertType: operand 0 must be floating point: found s32\[3\]"),
    (lambda p: ops.StochasticConvertType(p[0], p[1], "bf16"), ["f32[3]", "u16[3]"], r"StochasticConvertType: operand 1 \(random\) must have the bit width of operand 0: found f32\[3\]\{0\} and u16\[3\]"),
    (lambda p: ops.StochasticConvertType(p[0], p[1], "bf16"), ["f32[3]", "u32[4]"], r"StochasticConvertType: operand 1 \(random\) must have the dimensions of operand 0: found f32\[3\]\{0\} and u32\[4\]"),
    (lambda p: ops.StochasticConvertType(p[0], p[1], "bf16"), ["f32[<=3]", "u32[3]"], r"StochasticConvertType: operand 1 \(random\) must have the dimensions of operand 0"),
    (lambda p: ops.ReducePrecision(p[0], 0, 3), ["f32[3]"], r"ReducePrecision: exponent_bits=0 must be at least 1"),
    (lambda p: ops.ReducePrecision(p[0], 8, -1), ["f32[3]"], r"ReducePrecision: mantissa_bits=-1 must not be negative"),
    (lambda p: ops.ReducePrecision(p[0], 8, 7), ["s32[3]"], r"ReducePrecision: operand 0 must be floating point: found s32\[3\]"),
]  # fmt: skip


@pytest.mark.parametrize(("fn", "shapes", "message"), CONVERT_BAD)
def test_conversion_errors(fn: Fn, shapes: list[str], message: str) -> None:
    with pytest.raises(hlo.ShapeError, match=message):
        run(shapes, fn)


def test_conj_is_built_from_real_imag_neg_complex() -> None:
    shape, b = run(["c64[3]"], lambda p: ops.Conj(p[0]))
    assert shape == "c64[3]"
    assert opcodes(b) == ["real", "imag", "negate", "complex"]


# -- HLO text: omitted result shapes, verification, round trips --------------------------------
OMITTED = """HloModule m

ENTRY e {
  x = f32[2,<=3] parameter(0)
  y = f32[2,3] parameter(1)
  z = c64[2,3] parameter(2)
  i = s32[2,3] parameter(3)
  a = add(x, y)
  n = negate(a)
  m = abs(z)
  re = real(z)
  f = is-finite(n)
  c = compare(x, y), direction=LT
  tc = compare(y, y), direction=GE, type=TOTALORDER
  s = select(c, x, y)
  k = clamp(y, y, y)
  cx = complex(y, y)
  sh = shift-right-logical(i, i)
  nt = not(i)
  pc = popcnt(i)
  ROOT t = tuple(a, n, m, re, f, c, tc, s, k, cx, sh, nt, pc)
}
"""

OMITTED_SHAPES = {
    "a": "f32[2,<=3]",
    "n": "f32[2,<=3]",
    "m": "f32[2,3]",
    "re": "f32[2,3]",
    "f": "pred[2,<=3]",
    "c": "pred[2,<=3]",
    "tc": "pred[2,3]",
    "s": "f32[2,<=3]",
    "k": "f32[2,3]",
    "cx": "c64[2,3]",
    "sh": "s32[2,3]",
    "nt": "s32[2,3]",
    "pc": "s32[2,3]",
}


def test_omitted_result_shapes_are_inferred() -> None:
    module = hlo.parse_module(OMITTED)
    shapes = {i.name: i.shape.to_string(print_layout=False) for i in module.entry.instructions}
    for name, expected in OMITTED_SHAPES.items():
        assert shapes[name] == expected, name
    assert hlo.verify(module, all_errors=True) == []
    assert_round_trip(module)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("r = add(x, i)", r"failed to infer shape for opcode: add, error: operand 1 \(rhs\) must have the element type of operand 0 \(lhs\)"),
        ("r = add(x, w)", r"operand 1 \(rhs\) must have the dimensions of operand 0 \(lhs\), as HLO has no implicit broadcasting: found f32\[2,3\]\{1,0\} and f32\[1,3\]"),
        ("r = exponential(i)", r"exponential, error: operand 0 must be floating point or complex: found s32\[2,3\]"),
        ("r = compare(x, x), direction=LT, type=SIGNED", r"type=SIGNED must be FLOAT or TOTALORDER"),
    ],
)  # fmt: skip
def test_omitted_shape_errors_name_the_rule(line: str, message: str) -> None:
    text = (
        "HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  i = s32[2,3] parameter(1)\n"
        f"  w = f32[1,3] parameter(2)\n  ROOT {line}\n}}\n"
    )
    with pytest.raises(hlo.ParseError, match=message):
        hlo.parse_module(text)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # HLO has no implicit broadcasting, though XLA's shape inference would broadcast these
        ("ROOT r = f32[2,3] add(x, w)", r"%r: operand 1 \(rhs\) must have the dimensions of operand 0 \(lhs\)"),
        ("ROOT r = f32[2,3] multiply(x, s)", r"%r: operand 1 \(rhs\) must have the dimensions of operand 0 \(lhs\).*f32\[\]"),
        ("ROOT r = f32[2,3] convert(i)", None),
        ("ROOT r = s32[2,3] abs(i)", None),
        ("ROOT r = f32[2,3] abs(i)", r"%r: result shape: abs of \(s32\[2,3\]\{1,0\}\) gives s32\[2,3\]\{1,0\}, not f32\[2,3\]"),
        ("ROOT r = f16[2,3,2] bitcast-convert(x)", None),
        ("ROOT r = f16[2,3] bitcast-convert(x)", r"%r: result shape: bitcast-convert .* gives f16\[2,3,2\]"),
        ("ROOT r = f32[2,3] reduce-precision(x), exponent_bits=0, mantissa_bits=3", r"%r: reduce-precision: exponent_bits=0 must be at least 1"),
        ("ROOT r = bf16[2,3] stochastic-convert(x, u)", None),
    ],
)  # fmt: skip
def test_instructions_verify_against_their_rules(line: str, message: str | None) -> None:
    text = (
        "HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  i = s32[2,3] parameter(1)\n"
        "  w = f32[1,3] parameter(2)\n  s = f32[] parameter(3)\n  u = u32[2,3] parameter(4)\n"
        f"  {line}\n}}\n"
    )
    module = hlo.parse_module(text)
    if message is None:
        assert hlo.verify(module, all_errors=True) == []
    else:
        with pytest.raises(hlo.VerifyError, match=message):
            hlo.verify(module)


def test_a_built_computation_prints_parses_back_and_verifies() -> None:
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "f32[2,3]", "x")
    v = ops.Parameter(b, 1, "f32[3]", "v")
    k = ops.Parameter(b, 2, "s32[2,3]", "k")
    y = ops.Mul(ops.Add(x, v, [1]), ops.ConstantR0(b, 2.0))
    c = ops.GtTotalOrder(y, x)
    s = ops.Select(c, ops.Exp(y), ops.Neg(x))
    bits = ops.ShiftRightLogical(ops.BitcastConvertType(s, "s32"), k)
    f = ops.ConvertElementType(ops.And(bits, k), "f32")
    ops.Tuple(b, [ops.Clamp(ops.ConstantR0(b, 0.0), f, ops.ConstantR0(b, 1.0)), ops.IsFinite(s)])
    comp = b.build()
    text = comp.to_text()
    assert re.search(r"compare\(.*\), direction=GT, type=TOTALORDER", text)
    assert_round_trip(comp.module)
    assert hlo.verify(comp.module, all_errors=True) == []
    assert comp.result_shape.to_string(print_layout=False) == "(f32[2,3], pred[2,3])"


def test_every_elementwise_opcode_has_a_rule_and_a_builder_function() -> None:
    from hlo.ops.registry import BUILDERS, spec

    for row in elementwise.UNARY:
        assert spec(row.opcode).shape_rule is not None, row.opcode
        assert BUILDERS[row.name].__doc__
    for brow in binary_ops.BINARY:
        assert spec(brow.opcode).shape_rule is not None, brow.opcode
        assert BUILDERS[brow.name].__name__ == brow.name
    for name in ("Eq", "NeTotalOrder", "Compare", "Select", "Clamp", "ConvertElementType", "BitcastConvertType",
                 "StochasticConvertType", "ReducePrecision", "Conj"):  # fmt: skip
        assert name in BUILDERS


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.booleans(), st.booleans()), max_size=4))
def test_degenerate_broadcasting_matches_numpy(dims: list[tuple[int, bool, bool]]) -> None:
    lhs = tuple(n if keep else 1 for n, keep, _ in dims)
    rhs = tuple(n if keep else 1 for n, _, keep in dims)
    text = ",".join
    shape, b = run([f"f32[{text(map(str, lhs))}]", f"f32[{text(map(str, rhs))}]"], binary("Add"))
    assert shape == f"f32[{text(map(str, np.broadcast_shapes(lhs, rhs)))}]"
    assert hlo.verify(b.build().module, all_errors=True) == []
