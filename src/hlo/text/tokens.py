"""The kinds of token HLO text is made of (hlo_lexer.cc's TokKind), the words that are keywords,
and a token as the lexer gives it (with the value of a NaN token, and how a message names a
token): what the parser and every attribute codec match on."""

from __future__ import annotations

import enum
import struct
from typing import NamedTuple

from ..dtypes import PrimitiveType


class Tok(enum.Enum):
    EOF = "end of input"
    ERROR = "an invalid token"
    EQUAL = "'='"
    COMMA = "','"
    COLON = "':'"
    ASTERISK = "'*'"
    QUESTION = "'?'"
    OCTOTHORP = "'#'"
    PLUS = "'+'"
    TILDE = "'~'"
    LSQUARE = "'['"
    RSQUARE = "']'"
    LBRACE = "'{'"
    RBRACE = "'}'"
    LPAREN = "'('"
    RPAREN = "')'"
    ARROW = "'->'"
    LEQ = "'<='"
    DOTS = "'...'"
    KEYWORD = "a keyword"
    NEG_INF = "'-inf'"
    PRIMITIVE_TYPE = "a primitive type"
    NAME = "a name"
    ATTRIBUTE_NAME = "an attribute name"
    DIM_LABELS = "dim labels"
    DXD = "a DxD pattern"
    PAD = "a padding pattern"
    IDENT = "an identifier"
    STRING = "a string"
    INT = "an integer"
    DECIMAL = "a number"


KEYWORDS = frozenset(
    [
        "true",
        "false",
        "inf",
        "HloModule",
        "ENTRY",
        "ROOT",
        "FileLocations",
        "FileNames",
        "FunctionNames",
        "StackFrames",
        "maximal",
        "replicated",
        "manual",
        "last_tile_dim_replicate",
        "shard_as",
        "shard_like",
        "unknown",
        "unreduced",
    ]
)


class Token(NamedTuple):
    kind: Tok
    start: int
    end: int
    text: str = ""  # identifier/name/keyword/pattern text, or the unescaped string value
    value: int | float | PrimitiveType | None = None


# A NaN token's value: a double with the payload `nan(0x...)` gives, quiet by default.
NAN_PAYLOAD_MASK = (1 << 52) - 1
QUIET_NAN_PAYLOAD = 1 << 51


def nan_with_payload(negative: bool, payload: int) -> float:
    """A double NaN with the given sign and mantissa payload (XLA's NanWithSignAndPayload)."""
    bits = (int(negative) << 63) | (0x7FF << 52) | (payload & NAN_PAYLOAD_MASK)
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


def describe_token(tok: Token) -> str:
    """A token as an error message names it: its text, or what kind of token it is."""
    if tok.kind is Tok.EOF:
        return "the end of input"
    return f"'{tok.text}'" if tok.text else tok.kind.value
