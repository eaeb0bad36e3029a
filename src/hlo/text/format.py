"""The test for "this string is a JSON dict" that decides whether a value is printed raw; number
formatting (C `%g`) lives in hlo.value_text.numbers."""

from __future__ import annotations

from ..value_text.numbers import c_g, six_digits
from .lexer import Lexer
from .tokens import Tok

__all__ = ["c_g", "lexes_as_json_dict", "six_digits"]


def lexes_as_json_dict(text: str) -> bool:
    """XLA's LexesAsJsonDict: the text is one brace-balanced `{...}` (comments and whitespace
    around it allowed), so it can be printed unquoted."""
    lexer = Lexer(text)
    if not lexer.at(Tok.LBRACE):
        return False
    try:
        lexer.raw_braced()
    except Exception:
        return False
    return lexer.at(Tok.EOF)
