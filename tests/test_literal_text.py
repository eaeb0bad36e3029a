"""Literal text against XLA: element formatting per type, brace layout, every constant of the
conformance files and golden dumps (parse, print, compare exactly), XLA's literal errors, the
custom-call `literal=` form, and the Literal value itself. Expected strings were checked with
XLA's own printer and parser (jax 0.10.2) where the notes left doubt."""

from __future__ import annotations

import math
import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from hlo import ParseError, PrimitiveType, ShapeError
from hlo.literal import Literal
from hlo.text import literal_dense
from hlo.text.lexer import Lexer
from hlo.text.literal_codec import (
    format_element,
    parse_literal,
    parse_untyped_literal,
    print_constant_operand,
    print_literal,
)
from hlo.text.reader import TextReader
from hlo.text.shape_codec import parse_shape
from hlo.text.tokens import Tok

from conftest import load

P = PrimitiveType
GOLDEN = Path(__file__).parent / "golden" / "dumps"


def parse(shape: str, text: str, max_depth: int = 8192) -> Literal:
    """`text` as the literal of a constant of `shape`; it must be the whole text."""
    r = TextReader(Lexer(text), max_depth=max_depth)
    literal = parse_literal(r, parse_shape(shape))
    assert r.lex.at(Tok.EOF), f"left over: {text[r.lex.peek().start :]}"
    return literal


def untyped(text: str, max_depth: int = 8192) -> Literal:
    r = TextReader(Lexer(text), max_depth=max_depth)
    literal = parse_untyped_literal(r)
    assert r.lex.at(Tok.EOF)
    return literal


def roundtrip(shape: str, text: str) -> str:
    return print_literal(parse(shape, text))


# -- element formatting -----------------------------------------------------------------
FORMATS = [
    # f32: %.6g when it reads back exactly, else %.9g
    (3.14, P.F32, "3.14"),
    (16777216, P.F32, "16777216"),
    (float(np.finfo(np.float32).max), P.F32, "3.40282347e+38"),
    (3.40282e38, P.F32, "3.40282e+38"),
    (0.1, P.F32, "0.1"),
    (1e-5, P.F32, "1e-05"),
    (123456789, P.F32, "123456792"),
    (1.4e-45, P.F32, "1.4013e-45"),
    (-0.0, P.F32, "-0"),
    (math.inf, P.F32, "inf"),
    (-math.inf, P.F32, "-inf"),
    (42, P.F32, "42"),
    (-5.123, P.F32, "-5.123"),
    # "1.00016e+10" is exactly the midpoint of these two floats: it reads back as the even one
    (10001599488, P.F32, "1.00015995e+10"),
    (10001600512, P.F32, "1.00016e+10"),
    # f64: %.15g, else %.17g
    (0.1, P.F64, "0.1"),
    (1 / 3, P.F64, "0.33333333333333331"),
    (1.7976931348623157e308, P.F64, "1.7976931348623157e+308"),
    (1.79769e308, P.F64, "1.79769e+308"),
    (5e-324, P.F64, "4.94065645841247e-324"),
    # narrow floats: max_digits10 digits of the value as a double
    (0.1, P.BF16, "0.1001"),
    (3.39e38, P.BF16, "3.39e+38"),
    (-65505, P.BF16, "-6.554e+04"),
    (500, P.BF16, "500"),
    (0.1, P.F16, "0.099976"),
    (500, P.F16, "500"),
    (65504, P.F16, "65504"),
    (448, P.F8E4M3FN, "448"),
    (0.1, P.F8E4M3FN, "0.102"),
    (1.125, P.F8E4M3FN, "1.12"),
    (57344, P.F8E5M2, "5.7e+04"),
    (2.0**-127, P.F8E8M0FNU, "5.9e-39"),
    (6, P.F4E2M1FN, "6"),
    (-0.0, P.F4E2M1FN, "-0"),
    (28, P.F6E3M2FN, "28"),
    (7.5, P.F6E2M3FN, "7.5"),
    # integers and pred
    (-8, P.S4, "-8"),
    (7, P.S4, "7"),
    (15, P.U4, "15"),
    (-(2**63), P.S64, "-9223372036854775808"),
    (2**64 - 1, P.U64, "18446744073709551615"),
    (-2147483648, P.S32, "-2147483648"),
    (True, P.PRED, "true"),
    (False, P.PRED, "false"),
    # complex: (re, im) with the component type's rule
    (1 + 2j, P.C64, "(1, 2)"),
    (complex(-math.inf, math.nan), P.C128, "(-inf, nan)"),
    (complex(0.1, -3.4028234663852886e38), P.C64, "(0.1, -3.40282347e+38)"),
]


@pytest.mark.parametrize(("value", "ptype", "text"), FORMATS, ids=[f"{t.text}:{s}" for _, t, s in FORMATS])
def test_format_element(value, ptype, text):
    assert format_element(value, ptype) == text


def bits(ptype: PrimitiveType, pattern: int) -> np.ndarray:
    unsigned = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[ptype.byte_width]
    return np.array([pattern], dtype=unsigned).view(ptype.numpy_dtype)


NANS = [
    (P.F32, 0x7FC00000, "nan"),
    (P.F32, 0xFFC00000, "-nan"),
    (P.F32, 0x7F800001, "nan(0x1)"),
    (P.F32, 0xFFC00001, "-nan(0x400001)"),
    (P.F64, 0xFFF8000000000000, "-nan"),
    (P.F64, 0x7FF0000000000005, "nan(0x5)"),
    (P.BF16, 0xFFFF, "-nan(0x7f)"),
    (P.BF16, 0xFFBF, "-nan(0x3f)"),
    (P.BF16, 0x7FC0, "nan"),
    (P.F16, 0x7E00, "nan"),
    (P.F16, 0xFC01, "-nan(0x1)"),
    (P.F8E5M2, 0x7F, "nan(0x3)"),
    (P.F8E4M3, 0xFC, "-nan"),
    (P.F8E4M3, 0xFD, "-nan(0x5)"),
    (P.F8E4M3FN, 0x7F, "nan"),
    (P.F8E4M3FN, 0xFF, "-nan"),
    (P.F8E4M3FNUZ, 0x80, "-nan"),  # fnuz NaN converts to a negative double
    (P.F8E5M2FNUZ, 0x80, "-nan"),
    (P.F8E4M3B11FNUZ, 0x80, "-nan"),
    (P.F8E8M0FNU, 0xFF, "nan"),
]


@pytest.mark.parametrize(("ptype", "pattern", "text"), NANS, ids=[f"{t.text}:{s}" for t, _, s in NANS])
def test_format_nan(ptype, pattern, text):
    assert format_element(bits(ptype, pattern)[0], ptype) == text
    # and the text reads back to the same bits
    assert parse(f"{ptype.text}[1]", "{" + text + "}").array.tobytes() == bits(ptype, pattern).tobytes()


# -- brace layout -----------------------------------------------------------------------------
LAYOUTS = [
    ("f32[]", "42"),
    ("pred[]", "true"),
    ("pred[1]", "{1}"),
    ("f32[3]", "{1, 2, 3}"),
    ("f32[0]", "{}"),
    ("pred[2,3]", "{ { 0, 1, 0 }, { 1, 0, 1 } }"),
    ("f32[2,1]", "{ {1}, {2} }"),
    ("f32[2,0]", "{ {}, {} }"),
    ("f32[0,2]", "{  }"),
    ("s32[0,0]", "{  }"),
    ("s32[2,2,2]", "{ { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } }"),
    ("s32[1,2,3]", "{ { { 1, 2, 3 }, { 4, 5, 6 } } }"),
    ("s32[2,1,0]", "{ { {} }, { {} } }"),
    ("s32[3,0,2]", "{ {  }, {  }, {  } }"),
    ("f32[2,0,4,3]", "{ { /*i0=0*/ }, { /*i0=1*/ } }"),
    ("s32[1,2,0,3]", "{ { /*i0=0*/ { /*i1=0*/ }, { /*i1=1*/ } } }"),
    (
        "f32[2,2,1,2]",
        "{ { /*i0=0*/ { /*i1=0*/ { 1, 2 } }, { /*i1=1*/ { 3, 4 } } }, "
        "{ /*i0=1*/ { /*i1=0*/ { 5, 6 } }, { /*i1=1*/ { 7, 8 } } } }",
    ),
    (
        "f32[2,1,2,1,2]",
        "{ { /*i0=0*/ { /*i1=0*/ { /*i2=0*/ { 1, 2 } }, { /*i2=1*/ { 3, 4 } } } }, "
        "{ /*i0=1*/ { /*i1=0*/ { /*i2=0*/ { 5, 6 } }, { /*i2=1*/ { 7, 8 } } } } }",
    ),
    ("f32[1,1,1,1,1,1]", "{ { /*i0=0*/ { /*i1=0*/ { /*i2=0*/ { /*i3=0*/ {-1} } } } } }"),
    ("c64[2,2]", "{ { (1, -0.5), (inf, 2) }, { (3, 4), (5, 6) } }"),
    ("(f32[2,1], f32[2])", "( { {1}, {2} }, {2, 42} )"),
    ("()", "(  )"),
    ("((), (s32[]))", "( (  ), ( 1 ) )"),
]


@pytest.mark.parametrize(("shape", "text"), LAYOUTS, ids=[s for s, _ in LAYOUTS])
def test_layout(shape, text):
    assert roundtrip(shape, text) == text


def test_layout_without_spaces_reads_the_same():
    assert roundtrip("f32[2,2,1,2]", "{{{{1,2}},{{3,4}}},{{{5,6}},{{7,8}}}}") == LAYOUTS[16][1]


# -- every constant of the conformance files and golden dumps ------------------------------------
_CONSTANT = re.compile(r"= (.+?) constant\((.*?)\)(?=, [a-z_\-]+=|\s*$)")


def constants(texts: list[str]) -> list[tuple[str, str]]:
    found = []
    for text in texts:
        for line in text.splitlines():
            m = _CONSTANT.search(line)
            if m:
                found.append((m.group(1), m.group(2)))
    return sorted(set(found))


ROUNDTRIP = constants([r["text"] for r in load("hlo_text/roundtrip")])
GOLDEN_CONSTANTS = constants([p.read_text() for p in sorted(GOLDEN.glob("*.hlo"))])


def test_conformance_has_constants():
    assert len(ROUNDTRIP) > 50
    assert ("bf16[2]{0}", "{-nan(0x7f), -nan(0x3f)}") in ROUNDTRIP


@pytest.mark.parametrize(("shape", "text"), ROUNDTRIP, ids=[f"{s} {t}"[:60] for s, t in ROUNDTRIP])
def test_roundtrip_constant(shape, text):
    literal = parse(shape, text)
    assert print_literal(literal) == text
    assert parse(shape, print_literal(literal)) == literal
    assert literal.is_elided == (text == "{...}")


@pytest.mark.parametrize(
    ("shape", "text"), GOLDEN_CONSTANTS, ids=[f"{s} {t}"[:60] for s, t in GOLDEN_CONSTANTS]
)
def test_golden_constant(shape, text):
    assert roundtrip(shape, text) == text


def test_elided_constant_stays_elided():
    literal = parse("f32[67,89]{1,0}", "{...}")
    assert literal.is_elided and literal.shape == parse_shape("f32[67,89]")
    assert print_literal(literal) == "{...}"
    assert print_constant_operand(literal, print_large_constants=True) == "{...}"
    assert parse("f32[3]", "{1, ...}").is_elided  # values before `...` are overwritten by XLA
    assert print_literal(parse("f32[0]", "{...}")) == "{}"  # nothing is lost without elements


# -- constant operands ----------------------------------------------------------------------------
def test_constant_operand_elision():
    ten = Literal.from_array(np.arange(10, dtype=np.float32))
    eleven = Literal.from_array(np.arange(11, dtype=np.float32))
    pair = Literal.make_tuple([Literal.scalar(1, "s32"), Literal.scalar(2, "s32")])
    assert print_constant_operand(ten, False) == "{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}"
    assert print_constant_operand(eleven, False) == "{...}"
    assert print_constant_operand(eleven, True).startswith("{0, 1, 2")
    assert print_constant_operand(pair, False) == "{...}"  # tuples only with large constants
    assert print_constant_operand(pair, True) == "( 1, 2 )"


# -- parse_ok cases ---------------------------------------------------------------------------------
PARSE_OK = [
    ("u64[]", "-1", "18446744073709551615"),
    ("u64[]", "9223372036854775808", "9223372036854775808"),
    ("bf16[]", "-65505", "-6.554e+04"),
    ("bf16[]", "3.39e+38", "3.39e+38"),
    ("f32[]", "3e+2", "300"),
    ("f32[]", "-4.2", "-4.2"),
    ("f32[1]", "{12345 /*bar*/}", "{12345}"),
    ("bf16[2]", "{-nan, -nan}", "{-nan, -nan}"),
    ("f32[]", "-0", "0"),  # XLA reads the integer -0 as +0; only -0.0 is negative
    ("f32[]", "-0.0", "-0"),
    ("f32[]", "9223372036854775808", "-9.22337204e+18"),  # the lexer's int64 wrap
    ("s32[]", "18446744073709551615", "-1"),
    ("f16[]", "65519.99", "65504"),
    ("f32[2]", "{1 2}", "{1, 2}"),  # commas are optional and may repeat
    ("f32[2]", "{,1,,2,}", "{1, 2}"),
    ("f32[2]", "5", "{5, 0}"),  # XLA records an error, reads on and accepts
    ("f32[2]", ",", "{0, 0}"),
    ("f32[<=4]", "{1, 2, 3, 4}", "{1, 2, 3, 4}"),
    ("(f32[], s32[])", "()", "( (  ), (  ) )"),  # XLA's default elements
    ("(f32[], s32[])", "(1 2)", "( 1, 2 )"),
    ("pred[3]", "{true, 2, 0}", "{1, 1, 0}"),
    ("s4[2]", "{-8, 7}", "{-8, 7}"),
    ("f32[2]", "{-.5, 1.}", "{-0.5, 1}"),
    ("f32[2,2]", "{{1, 2}, ...}", "{...}"),
]


@pytest.mark.parametrize(("shape", "text", "printed"), PARSE_OK, ids=[f"{s} {t}" for s, t, _ in PARSE_OK])
def test_parse_ok(shape, text, printed):
    assert roundtrip(shape, text) == printed


def test_dynamic_constant_shape_is_static():
    assert parse("f32[<=4]", "{1, 2, 3, 4}").shape == parse_shape("f32[4]")
    with pytest.raises(ParseError, match="unbounded"):
        parse("f32[?]", "{1}")


ROUNDING = [
    ("f8e4m3fn[]", "1.0625000000009095", "1.12"),  # f8 rounds straight from the double
    ("f8e4m3fn[]", "1.0625", "1"),
    ("f8e5m2[]", "1.1250000000009095", "1.2"),
    ("f16[]", "1.0004882812509095", "1"),  # f16 and bf16 round through float, as Eigen
    ("bf16[]", "1.0039062500009095", "1"),
    ("f8e8m0fnu[]", "1e-320", "5.9e-39"),
    ("f8e8m0fnu[]", "2.5e38", "1.7e+38"),
    ("f8e8m0fnu[2]", "{nan, -nan}", "{nan, nan}"),
    ("f4e2m1fn[3]", "{100, inf, nan}", "{6, 6, -0}"),
    ("f4e2m1fn[3]", "{-nan, -inf, 7}", "{0, -6, 6}"),
    ("c64[2]", "{(nan(0x3), 1), (1, nan(0x5))}", "{(nan(0x3), nan(0x3)), (1, nan)}"),
    ("bf16[1]", "{nan(0x8000000000000)}", "{nan}"),
]


@pytest.mark.parametrize(("shape", "text", "printed"), ROUNDING, ids=[f"{s} {t}" for s, t, _ in ROUNDING])
def test_conversion(shape, text, printed):
    assert roundtrip(shape, text) == printed


# -- errors -----------------------------------------------------------------------------------------
def constant_error_cases() -> list[tuple[str, str, str, str | None]]:
    cases = []
    for row in load("hlo_text/parse_errors"):
        name = row["name"]
        if not (name.startswith(("Constant", "Literal", "InvalidNanPayload")) or "TupleLiteral" in name):
            continue
        if "Untyped" in name:  # a custom-call literal=: test_untyped_literal_depth
            continue
        if "TupleLiteral" in name:
            m = re.search(r"= (\(.*?\)) constant\((.*)\)\s*$", row["text"], re.M)
        else:
            m = re.search(r"= (\S+) constant\((.*)\)\s*$", row["text"], re.M)
        assert m, name
        cases.append((name, m.group(1), m.group(2), row["error_contains"]))
    return cases


# XLA's messages for the cases the conformance file leaves without a fragment.
UNSTATED = {
    "ConstantC64Overflow": "real part 1e+100 is out of range for literal's primitive type C64, "
    "namely [-3.40282e+38, 3.40282e+38].",
    "ConstantC64Underflow": "imaginary part -1e+100 is out of range",
    "ConstantF64Overflow": "Constant is out of range for double (+/-1.79769e+308) and so is unparsable.",
    "ConstantF64Underflow": "Constant is out of range for double",
}
ERROR_CASES = constant_error_cases()


def test_error_cases_found():
    assert len(ERROR_CASES) >= 17


@pytest.mark.parametrize(("name", "shape", "text", "fragment"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_conformance_error(name, shape, text, fragment):
    with pytest.raises(ParseError) as info:
        parse(shape, text, max_depth=10)
    assert (fragment or UNSTATED[name]) in info.value.message


ERRORS = [
    # (shape, text, message, column of the offending token)
    (
        "f16[]",
        "-65520",
        "value -65520 is out of range for literal's primitive type F16 namely [-65504, 65504].",
        0,
    ),
    (
        "bf16[]",
        "1e100",
        "value 1e+100 is out of range for literal's primitive type BF16 namely [-3.38953e+38, 3.38953e+38].",
        0,
    ),
    ("u4[]", "-1", "value -1 is out of range for literal's primitive type U4 namely [0, 15].", 0),
    (
        "u8[]",
        "18446744073709551615",
        "value -1 is out of range for literal's primitive type U8 namely [0, 255].",
        0,
    ),
    ("s4[2]", "{1, 8}", "value 8 is out of range for literal's primitive type S4 namely [-8, 7].", 4),
    (
        "f8e4m3fn[3]",
        "{inf, -inf, 1000}",
        "value 1000 is out of range for literal's primitive type F8E4M3FN namely [-448, 448].",
        12,
    ),
    (
        "f8e8m0fnu[]",
        "0",
        "value 0 is out of range for literal's primitive type F8E8M0FNU namely [5.87747e-39, 1.70141e+38].",
        0,
    ),
    (
        "bf16[2]",
        "{1, nan(0x3ff)}",
        "tries to set NaN payload 0x3ff to a literal in shape bf16[2] at linear "
        "index 1, but the NaN payload is out of range (0x7f)",
        4,
    ),
    (
        "f8e4m3fn[1]",
        "{nan(0x1)}",
        "tries to set NaN payload 0x1 to a literal in shape f8e4m3fn[1] at linear "
        "index 0, but f8e4m3fn does not support payloads",
        1,
    ),
    ("f32[1,1]", "{{1} 2.5}", "expects nested array in rank 2, but sees 1", 5),
    ("pred[1,1]", "{{1} 1}", "expects nested array in rank 2, but sees 1", 5),
    ("s32[1,1]", "}", "unexpected '}' token", 0),
    ("f32[2,3]", "{{1,2,3},{4,5}}", "expects 3 elements in the [1]th element, but sees 2", 13),
    ("f32[2,3]", "{{1,2,3,4},{4,5,6}}", "expects 3 elements on the minor-most dimension, but sees more", 8),
    ("f32[]", "{1}", "expects nested array in rank 0, but sees larger", 0),
    ("f32[2]", "{1, (2, 3)}", "unexpected '(' in literal. Parens are only valid for complex literals", 4),
    ("f32[2,2]", "{{...}, {1, 2}}", "expects `...` at nest level 1, but sees it at nest level 2", 2),
    ("s32[2]", "{1.5, 2}", "expects integer for primitive type: S32", 1),
    ("pred[1]", "{1.5}", "expects integer for primitive type: PRED", 1),
    (
        "f32[2]",
        "{1, 2e400}",
        "Constant is out of range for double (+/-1.79769e+308) and so is unparsable.",
        4,
    ),
    ("c64[1]", "{(1 2)}", "expect comma after real part of complex literal", 4),
    ("c64[1]", "{(1, )}", "expects decimal or integer", 5),
    ("c64[1]", "{1}", "unsupported primitive type C64", 1),
    ("f32[2]", "{1, foo}", "unexpected token type in a literal", 4),
    ("(f32[], s32[])", "1", "expects '(' in front of tuple elements", 0),
    ("(f32[], s32[])", "(1, 2, 3)", "expects ')' at the end of the tuple with 2elements", 5),
    # a value XLA refuses comes before a structure error met later
    ("u4[1,2]", "{{16, 1, 2}}", "value 16 is out of range", 2),
    # a tolerated error comes before the error that stops XLA
    ("(f32[], s32[])", "(1 2 3)", "expects ',' to separate tuple elements", 3),
]


@pytest.mark.parametrize(
    ("shape", "text", "message", "column"), ERRORS, ids=[f"{s} {t}" for s, t, *_ in ERRORS]
)
def test_error(shape, text, message, column):
    with pytest.raises(ParseError) as info:
        parse(shape, text)
    assert message in info.value.message
    assert info.value.span is not None and info.value.span.offset == column


# -- custom-call literal= -----------------------------------------------------------------------------
UNTYPED = [
    ("s32[2]{0} {1, 2}", "s32[2]{0} {1, 2}"),
    ("f32[] 0.1", "f32[] 0.1"),
    ("s32[] 0", "s32[] 0"),
    (
        "( s32[4]{0} {4, 128, 128, 3}, pred[4]{0} {1, 0, 0, 0} )",
        "( s32[4]{0} {4, 128, 128, 3}, pred[4]{0} {1, 0, 0, 0} )",
    ),
    ("(s32[] 1 f32[] 2)", "( s32[] 1, f32[] 2 )"),
    ("()", "(  )"),
    ("((s32[] 1), ())", "( ( s32[] 1 ), (  ) )"),
    ("f32[2,2]{0,1} {{1, 2}, {3, 4}}", "f32[2,2]{0,1} { { 1, 2 }, { 3, 4 } }"),
]


@pytest.mark.parametrize(("text", "printed"), UNTYPED, ids=[t for t, _ in UNTYPED])
def test_untyped_literal(text, printed):
    literal = untyped(text)
    assert print_literal(literal, with_shape=True) == printed
    assert untyped(printed) == literal


def test_untyped_literal_has_no_tuple_shapes():
    # A `(` always starts a tuple of untyped literals, so a tuple shape cannot be written.
    with pytest.raises(ParseError, match="expects ',' to separate tuple elements"):
        untyped("(f32[], s32[]) (1, 2)")


def test_untyped_literal_depth():
    with pytest.raises(ParseError, match="maximum recursion depth exceeded"):
        untyped("(((((((((((s32[] 0)))))))))))", max_depth=10)
    assert untyped("((((((((s32[] 0))))))))", max_depth=10).elements[0].is_tuple


# -- fast reader == token-by-token reader -------------------------------------------------------------
TOKENS = [
    "1",
    "-1",
    "0",
    "-0",
    "-0.0",
    "007",
    "1.",
    "-.5",
    ".5",
    "+1",
    "1e5",
    "1E5",
    "1.e5",
    "1e+5",
    "1e-5",
    "1e",
    "e5",
    "inf",
    "-inf",
    "Inf",
    "infinity",
    "nan",
    "-nan",
    "NaN",
    "nan1",
    "inf5",
    "-inf5",
    "1_0",
    "1-2",
    "--1",
    "1.5.5",
    "0x10",
    "true",
    "false",
    "True",
    "2x3",
    "1_2",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1e400",
    "-1e400",
    "5e-324",
    "1e-400",
    "3.4028236e38",
    "65520",
    "300",
    "/*c*/ 1",
    "1 /*{*/",
    "é",
]


def read(shape: str, text: str) -> str:
    try:
        return print_literal(parse(shape, text))
    except ParseError as e:
        return f"error {e.message} at {e.span.offset if e.span else None}"


FAST_TYPES = ["f32", "f64", "bf16", "f8e4m3fn", "s32", "u8", "s64", "u64", "pred", "c64"]


@pytest.mark.parametrize("ptype", FAST_TYPES)
@pytest.mark.parametrize("token", TOKENS)
def test_fast_reader_agrees(ptype, token, monkeypatch):
    texts = ((f"{ptype}[3]", f"{{1, {token}, 0}}"), (f"{ptype}[2,2]", f"{{ {{1 {token}}}, {{0, 1}} }}"))
    if ptype == "c64":
        texts = (
            (f"{ptype}[3]", f"{{(1, 2), ({token}, 1), (0,{token})}}"),
            (f"{ptype}[2,2]", f"{{ {{(1, 1) ( {token} , 2 )}}, {{(0, 0), (1, -1)}} }}"),
        )
    for shape, text in texts:
        monkeypatch.setattr(literal_dense, "_FAST_MIN_ELEMENTS", 10**18)
        slow = read(shape, text)
        monkeypatch.setattr(literal_dense, "_FAST_MIN_ELEMENTS", 1)
        assert read(shape, text) == slow


COMPLEX_TEXTS = [
    "{(1,2)(3,4) (5, 6)}",
    "{5(1,2) (3, 4)}",
    "{(1, 2), (3, 4), 5}",
    "{(1, 2, 3), (3, 4), (5, 6)}",
    "{(1 2), (3, 4), (5, 6)}",
    "{((1, 2)), (3, 4), (5, 6)}",
    "{(1, 2), (3, 4), (nan(0x5), 6)}",
    "{(1, 2), (3, 4) /*(*/, (5, 6)}",
    "{(1, 2), (1e100, 4), (5, 6)}",
    "{(-0, -0.0), (.5, 4), (5, 6)}",
]


@pytest.mark.parametrize("text", COMPLEX_TEXTS)
def test_fast_reader_agrees_complex(text, monkeypatch):
    monkeypatch.setattr(literal_dense, "_FAST_MIN_ELEMENTS", 10**18)
    slow = read("c64[3]", text)
    monkeypatch.setattr(literal_dense, "_FAST_MIN_ELEMENTS", 1)
    assert read("c64[3]", text) == slow


# -- round trips of random values of every type ---------------------------------------------------------
def random_values(ptype: PrimitiveType, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    dtype = ptype.numpy_dtype
    count = math.prod(shape)
    if ptype is P.PRED:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if ptype.is_integral:
        info = ml_dtypes.iinfo(dtype)
        wide = np.int64 if info.min < 0 else np.uint64
        return rng.integers(int(info.min), int(info.max), shape, dtype=wide, endpoint=True).astype(dtype)
    if ptype.is_complex:
        part = ptype.complex_component_type
        re_ = random_values(part, shape, rng)
        im = random_values(part, shape, rng)
        # XLA copies a NaN real part into the imaginary part, and reads an imaginary NaN alone
        # through a plain double-to-float conversion (no payload).
        im[np.isnan(re_)] = re_[np.isnan(re_)]
        alone = np.isnan(im) & ~np.isnan(re_)
        im[alone] = np.copysign(np.array(np.nan, im.dtype), im[alone])
        out = np.empty(shape, dtype)
        out.real, out.imag = re_, im
        return out
    width = 8 * ptype.byte_width
    patterns = rng.integers(0, 1 << min(ptype.bit_width, 63), count, dtype=np.uint64)
    values = patterns.astype({8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[width]).view(dtype)
    with np.errstate(invalid="ignore"):
        values[(values == 0) & np.signbit(values.astype(np.float64))] = 0  # `-0` reads as +0 (XLA too)
    if ptype is P.F8E8M0FNU:  # XLA reads its own text of 2^-127, `5.9e-39`, as 2^-126
        values[values.view(np.uint8) == 0] = 1
    return values.reshape(shape)


TYPES = [t for t in P if t.is_array_type]


@pytest.mark.parametrize("ptype", TYPES, ids=[t.text for t in TYPES])
@pytest.mark.parametrize("shape", [(), (7,), (100,), (3, 40), (2, 3, 4, 5), (0, 3)])
def test_random_roundtrip(ptype, shape):
    rng = np.random.default_rng(hash((ptype.text, shape)) % 2**32)
    literal = Literal.from_array(random_values(ptype, shape, rng))
    text = print_literal(literal)
    assert parse(str(literal.shape), text) == literal, text
    with_shape = print_literal(literal, with_shape=True)
    assert untyped(with_shape) == literal


def test_large_constant_roundtrip():
    values = np.random.default_rng(0).standard_normal((200, 500)).astype(np.float32)
    literal = Literal.from_array(values)
    text = print_literal(literal)
    assert text.startswith("{ { ") and text.count("{") == 201
    assert parse("f32[200,500]", text) == literal


# -- the Literal value ------------------------------------------------------------------------------------
def test_literal_values():
    literal = Literal.from_array([[1, 2], [3, 4]], "s8")
    assert literal.shape == parse_shape("s8[2,2]{1,0}")
    assert literal[1, 0] == 3 and literal.to_numpy().dtype == np.int8
    assert not literal.array.flags.writeable
    assert Literal.from_array(np.float32(1.5)).shape == parse_shape("f32[]")
    assert Literal.scalar(True).element_type is P.PRED
    assert Literal.from_array([1.5]).element_type is P.F64
    pair = Literal.make_tuple([literal, Literal.scalar(2, "u4")])
    assert pair[1].array == 2 and pair.shape == parse_shape("(s8[2,2], u4[])")
    assert isinstance(pair.to_numpy(), tuple)
    assert str(pair) == "( s8[2,2]{1,0} { { 1, 2 }, { 3, 4 } }, u4[] 2 )"


def test_literal_equality_is_bitwise():
    a = Literal.from_array(np.array([0.0, np.nan], np.float32))
    assert a == Literal.from_array(np.array([0.0, np.nan], np.float32))
    assert a != Literal.from_array(np.array([-0.0, np.nan], np.float32))
    assert a != Literal.from_array(bits(P.F32, 0x7FC00001).repeat(2) * np.array([0, 1], np.float32))
    assert hash(a) == hash(Literal.from_array(np.array([0.0, np.nan], np.float32)))
    assert a != Literal.from_array(np.array([0.0, np.nan]))  # f64
    assert Literal.elided(parse_shape("f32[2]")) == Literal.elided(parse_shape("f32[2]"))
    assert Literal.elided(parse_shape("f32[2]")) != Literal.from_array(np.zeros(2, np.float32))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Literal.from_array([300], "s8"), "do not fit a s8 literal"),
        (lambda: Literal.from_array([1.5], "s32"), "holds integers"),
        (lambda: Literal.from_array([2], "pred"), "do not fit a pred literal"),
        (lambda: Literal.from_array(["a"], "f32"), "cannot make a f32 literal"),
        (lambda: Literal.from_array([1j], "f32"), "from complex values"),
        (lambda: Literal.scalar([1, 2], "f32"), "a scalar literal needs one value"),
        (lambda: Literal(parse_shape("f32[2]"), np.zeros(3, np.float32)), "not a float32 array of shape"),
        (lambda: Literal(parse_shape("f32[2]"), np.zeros(2)), "not a float64 array"),
        (lambda: Literal(parse_shape("f32[<=2]"), None), "dynamic dimensions"),
        (lambda: Literal(parse_shape("token[]"), None), "array or tuple values"),
        (lambda: Literal(parse_shape("(f32[])"), (Literal.scalar(1, "s32"),)), "do not match"),
    ],
)
def test_literal_validation(make, message):
    with pytest.raises(ShapeError, match=re.escape(message)):
        make()
