"""Structural verification: every golden dump verifies clean; hand-broken modules fail with the
rule and the instruction named, pointing at the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from hlo import Opcode, VerifyError, parse_module, verify
from hlo.ir.frozen import FrozenDict
from hlo.ops.registry import REGISTRY, spec

GOLDEN = sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo"))

TEXT = """HloModule m

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  n = f32[4] negate(p)
  ROOT r = f32[] reduce(n, z), dimensions={0}, to_apply=add
}
"""


def test_every_opcode_has_a_schema():
    assert {op for op in Opcode} == {op for op in Opcode if spec(op) is REGISTRY[op]}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_dumps_verify_clean(path):
    assert verify(parse_module(path.read_text(), path.name), all_errors=True) == []


def broken(change):
    module = parse_module(TEXT, "m.hlo")
    entry = module.entry
    instructions = change(list(entry.instructions))
    return module.replace(
        computations=(module.computations[0], entry.replace(instructions=tuple(instructions)))
    )


def with_operands(instrs, name, operands):
    return [i.replace(operands=operands) if i.name == name else i for i in instrs]


CASES = [
    (
        "unique instruction names",
        r"%n: unique instruction names: n is defined twice",
        lambda ins: ins + [ins[2]],
    ),
    (
        "undefined operand",
        r"%n: operands defined before use: operand q does not exist",
        lambda ins: with_operands(ins, "n", ("q",)),
    ),
    (
        "use before definition (a cycle in text order)",
        r"%n: operands defined before use: operand r is used before it is defined",
        lambda ins: with_operands(ins, "n", ("r",)),
    ),
    (
        "missing computation",
        r"%r: called computations exist: computation nowhere does not exist",
        lambda ins: [i.with_attr("to_apply", "nowhere") if i.name == "r" else i for i in ins],
    ),
    (
        "parameter numbers",
        r"parameters numbered 0..n-1: parameter numbers are \[1\]",
        lambda ins: [i.replace(attrs=FrozenDict(parameter_number=1)) if i.name == "p" else i for i in ins],
    ),
    (
        "reducer arity",
        r"%r: called computation arity: add takes 2 parameters, reduce gives it 4",
        lambda ins: with_operands(ins, "r", ("n", "n", "z", "z")),
    ),
]


@pytest.mark.parametrize("what,message,change", CASES, ids=[c[0] for c in CASES])
def test_broken_modules_fail_with_the_rule(what, message, change):
    module = broken(change)
    with pytest.raises(VerifyError, match=message) as e:
        verify(module)
    assert e.value.span is None or e.value.span.filename == "m.hlo"


def test_error_points_at_the_instruction():
    module = broken(lambda ins: with_operands(ins, "n", ("q",)))
    with pytest.raises(VerifyError) as e:
        verify(module)
    assert str(e.value).startswith("m.hlo:12:3: error: %n: operands defined before use")
    assert str(e.value).splitlines()[1] == "  n = f32[4] negate(p)"


def test_all_errors_are_collected():
    module = broken(lambda ins: with_operands(with_operands(ins, "n", ("q",)), "r", ("n", "n", "z", "z")))
    assert len(verify(module, all_errors=True)) == 2


def test_missing_entry_and_root():
    module = parse_module(TEXT)
    with pytest.raises(VerifyError, match="one entry computation"):
        verify(module.replace(entry_name="nope"))
    entry = module.entry.replace(root_name="gone")
    with pytest.raises(VerifyError, match="one root: the root gone does not exist"):
        verify(module.replace(computations=(module.computations[0], entry)))
