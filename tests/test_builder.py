"""The XlaBuilder core: parameters, constants, tuples, sub-computations, building, printing and
re-parsing, and errors that point at the user's line."""

from __future__ import annotations

import re

import numpy as np
import pytest

import hlo
from hlo import HloError, Opcode, ShapeError, ops


def test_build_prints_and_parses_back_equal():
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "f32[2,3]", "x")
    c = ops.ConstantR0(b, 1.5)
    t = ops.Tuple(b, [x, c])
    ops.GetTupleElement(t, 0)
    comp = b.build()
    text = comp.to_text()
    assert "ENTRY %f (x: f32[2,3]) -> f32[2,3]" in text
    assert hlo.parse_module(text) == comp.module
    assert comp.result_shape == hlo.parse_shape("f32[2,3]{1,0}")
    assert comp.parameter_shapes == (hlo.parse_shape("f32[2,3]{1,0}"),)


def test_build_with_an_explicit_root():
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "s32[]", "x")
    ops.ConstantR0(b, 7)
    comp = b.build(x)
    assert comp.computation.root.name == "x"


@pytest.mark.parametrize(
    ("value", "element_type", "expected"),
    [
        (1.5, None, "f32[]"),  # Python floats are f32, as ConstantR0<float>
        (3, None, "s32[]"),  # Python ints are s32
        (True, None, "pred[]"),
        (np.float64(2.0), None, "f64[]"),  # NumPy scalars keep their type
        (np.int8(-3), None, "s8[]"),
        (2, "bf16", "bf16[]"),
        (0.25, hlo.PrimitiveType.F8E4M3FN, "f8e4m3fn[]"),
    ],
)
def test_constant_r0_element_types(value, element_type, expected):
    b = hlo.XlaBuilder("c")
    c = ops.ConstantR0(b, value, element_type)
    assert str(c.shape) == expected


def test_constant_r1_r2_and_literal():
    b = hlo.XlaBuilder("c")
    assert str(ops.ConstantR1(b, [1.0, 2.0]).shape) == "f32[2]{0}"
    assert str(ops.ConstantR2(b, [[1, 2, 3], [4, 5, 6]]).shape) == "s32[2,3]{1,0}"
    literal = hlo.Literal.from_array(np.arange(6, dtype=np.uint16).reshape(3, 2))
    c = ops.ConstantLiteral(b, literal)
    assert str(c.shape) == "u16[3,2]{1,0}"
    comp = b.build(c)
    assert hlo.parse_module(comp.to_text()) == comp.module


def test_parameter_numbers_must_be_unique_and_dense():
    b = hlo.XlaBuilder("f")
    ops.Parameter(b, 0, "f32[]", "x")
    with pytest.raises(ShapeError, match=r"Parameter: parameter 0 is already defined as %x"):
        ops.Parameter(b, 0, "f32[]", "y")
    ops.Parameter(b, 2, "f32[]", "z")
    with pytest.raises(HloError, match=r"parameter numbers must be 0\.\.n-1, not \[0, 2\]"):
        b.build()


def test_operands_must_belong_to_the_builder():
    a, b = hlo.XlaBuilder("a"), hlo.XlaBuilder("b")
    x = ops.Parameter(a, 0, "f32[]", "x")
    with pytest.raises(ShapeError, match=r"Tuple: operand 0 \(x\) belongs to builder a, not b"):
        ops.Tuple(b, [x])


def test_empty_builder_cannot_build():
    with pytest.raises(HloError, match="has no instructions"):
        hlo.XlaBuilder("empty").build()


def test_shape_error_points_at_the_calling_line():
    b = hlo.XlaBuilder("f")
    t = ops.Tuple(b, [ops.Parameter(b, 0, "f32[2]", "x")])
    with pytest.raises(ShapeError) as info:
        ops.GetTupleElement(t, 4)  # the line the error must point at
    error = info.value
    assert error.span is not None
    rendered = str(error)
    first = rendered.splitlines()[0]
    assert re.match(r".*test_builder\.py:\d+:9: error: GetTupleElement: index=4 .*\(f32\[2\]\{0\}\)", first)
    assert "ops.GetTupleElement(t, 4)  # the line" in rendered.splitlines()[1]
    assert rendered.splitlines()[2].strip().startswith("^~~~")


def test_names_are_unique_and_chosen_names_are_kept():
    b = hlo.XlaBuilder("f")
    x = ops.Parameter(b, 0, "f32[]", "x")
    t1 = ops.Tuple(b, [x])
    t2 = ops.Tuple(b, [x])
    assert (t1.name, t2.name) == ("tuple", "tuple.1")
    assert len({i.name for i in b.build().computation.instructions}) == 3


def _identity(name: str, shape: str) -> hlo.XlaComputation:
    sub = hlo.XlaBuilder(name)
    ops.Parameter(sub, 0, shape, "p")
    return sub.build()


def test_sub_computations_are_embedded_with_unique_names():
    inner = _identity("id", "f32[]")
    # A computation that itself calls a computation named "id".
    mid = hlo.XlaBuilder("id")
    p = ops.Parameter(mid, 0, "f32[]", "p")
    mid.add("Call", Opcode.CALL, (p,), {"to_apply": mid.computation_ref(inner)})
    middle = mid.build()

    b = hlo.XlaBuilder("main")
    x = ops.Parameter(b, 0, "f32[]", "x")
    first = b.add("Call", Opcode.CALL, (x,), {"to_apply": b.computation_ref(inner)})
    b.add("Call", Opcode.CALL, (first,), {"to_apply": b.computation_ref(middle)})
    comp = b.build()
    names = [c.name for c in comp.module.computations]
    assert len(set(names)) == len(names) == 4
    assert names[-1] == "main"
    calls = {
        i.attrs["to_apply"]
        for c in comp.module.computations
        for i in c.instructions
        if i.opcode is Opcode.CALL
    }
    assert calls <= set(names) and len(calls) == 3
    assert hlo.parse_module(comp.to_text()) == comp.module
    assert hlo.verify(comp.module, all_errors=True) == []


def test_computation_ref_takes_built_computations_only():
    b = hlo.XlaBuilder("f")
    with pytest.raises(HloError, match="expected an XlaComputation"):
        b.computation_ref("add")  # type: ignore[arg-type]


def test_ops_namespace_lists_builder_functions():
    names = dir(ops)
    for name in ("Parameter", "ConstantR0", "ConstantLiteral", "Tuple", "GetTupleElement", "AfterAll"):
        assert name in names
    with pytest.raises(AttributeError, match="no builder function"):
        ops.NoSuchOp  # noqa: B018


def test_tokens():
    b = hlo.XlaBuilder("t")
    tok = ops.CreateToken(b)
    both = ops.AfterAll(b, [tok, ops.AfterAll(b, [])])
    assert both.shape.is_token
    x = ops.Parameter(b, 0, "f32[3]", "x")
    with pytest.raises(ShapeError, match=r"AfterAll: operand 1 must be a token: found f32\[3\]"):
        ops.AfterAll(b, [tok, x])
    assert str(ops.AddDependency(x, tok).shape) == "f32[3]{0}"
    assert str(ops.OptimizationBarrier(ops.Tuple(b, [x, x])).shape) == "(f32[3]{0}, f32[3]{0})"
