"""Bad HLO text: each mistake is an hlo.ParseError rendered as file:line:col with the line and a
caret; mutated texts never escape as anything but an HloError."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlo import HloError, ParseError, parse_module

GOOD = """HloModule m

ENTRY e {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p)
}
"""

BAD = [
    ("truncated in an opcode", GOOD[: GOOD.index("parameter") + 4], "unknown opcode: para", 4, 14),
    ("truncated in a shape", GOOD[: GOOD.index("f32[4] param") + 5], "expected ',' or ']'", 4, 12),
    (
        "truncated between lines",
        GOOD[: GOOD.index("  ROOT")],
        "expected '}' at the end of the instruction",
        5,
        1,
    ),
    (
        "truncated in operands",
        GOOD[: GOOD.index("negate(p)") + 8],
        "expected ',' or ')' after operand p",
        5,
        27,
    ),
    ("unknown opcode", GOOD.replace("negate(", "negat("), "unknown opcode: negat", 5, 19),
    (
        "unknown attribute",
        GOOD.replace("negate(p)", "negate(p), colour=1"),
        'unexpected attribute "colour"',
        5,
        30,
    ),
    ("malformed shape", GOOD.replace("f32[4] parameter", "f32[4 parameter"), "expected ',' or ']'", 4, 13),
    ("duplicate name", GOOD.replace("ROOT n", "ROOT p"), "instruction already exists: p", 5, 8),
    ("undefined operand", GOOD.replace("negate(p)", "negate(q)"), "instruction does not exist: q", 5, 26),
    ("wrong attribute type", GOOD.replace("negate(p)", "reverse(p), dimensions=true"), "'{'", 5, 42),
    (
        "wrong operand count",
        GOOD.replace("negate(p)", "negate(p, p)"),
        "expects 1 operands, but has 2",
        5,
        25,
    ),
    ("bad layout", GOOD.replace("f32[4] parameter", "f32[4]{1} parameter"), "not a permutation", 4, 13),
    (
        "control predecessor defined later",
        GOOD.replace("parameter(0)", "parameter(0), control-predecessors={n}"),
        "instruction 'n' is not defined",
        4,
        50,
    ),
    (
        "unterminated string",
        GOOD.replace("negate(p)", 'negate(p), metadata={op_name="x}'),
        "expected",
        5,
        None,
    ),
    ("garbage", "HloModule thi$ str1ng", "expected", 1, None),
    ("empty", "", "expected an instruction name", 1, 1),
]


@pytest.mark.parametrize("what,text,message,line,column", BAD, ids=[b[0] for b in BAD])
def test_errors_say_what_and_where(what, text, message, line, column):
    with pytest.raises(ParseError) as e:
        parse_module(text, "bad.hlo")
    assert message in e.value.message
    span = e.value.span
    assert span is not None and span.line == line
    if column is not None:
        assert span.column == column
    rendered = str(e.value).splitlines()
    assert rendered[0].startswith(f"bad.hlo:{line}:{span.column}: error: ")
    assert rendered[2].index("^") == span.column - 1


def test_deep_nesting_is_an_error_not_a_crash():
    text = (
        "HloModule m\nENTRY e {\n  ROOT r = f32[] "
        + "negate(" * 5000
        + "f32[] parameter(0)"
        + ")" * 5000
        + "\n}\n"
    )
    with pytest.raises(ParseError, match="nests too deeply"):
        parse_module(text)


CONFORMANCE = Path(__file__).parent / "conformance" / "hlo_text" / "roundtrip.jsonl"
TEXTS = [json.loads(line)["text"] for line in CONFORMANCE.read_text().splitlines()]
PUNCTUATION = "(){}[],=%#:\"'<>?*+~-0123456789abcfx _\n/"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_text_only_ever_raises_hlo_errors(data):
    text = data.draw(st.sampled_from(TEXTS))
    i = data.draw(st.integers(0, len(text) - 1))
    kind = data.draw(st.sampled_from(["truncate", "replace", "delete"]))
    if kind == "truncate":
        text = text[:i]
    elif kind == "replace":
        text = text[:i] + data.draw(st.sampled_from(PUNCTUATION)) + text[i + 1 :]
    else:
        j = data.draw(st.integers(i, min(len(text), i + 40)))
        text = text[:i] + text[j:]
    with contextlib.suppress(HloError):  # any other exception fails the test
        parse_module(text).to_text()
