"""What every reader of HLO text does with the lexer's tokens: expect one of a kind, read a 64-bit
integer, and keep count of nesting so that deep text is an error rather than a crash. The
layout, shape and attribute readers build on it (LayoutReader, ShapeReader, TextReader)."""

from __future__ import annotations

from .lexer import Lexer
from .tokens import Tok, Token, describe_token


class TokenReader:
    """A lexer with the checks of reading; `depth` guards deep nesting."""

    def __init__(self, lexer: Lexer, fill_missing_layouts: bool = True, max_depth: int = 8192) -> None:
        self.lex = lexer
        self.fill_missing_layouts = fill_missing_layouts  # (ShapeReader: default layouts for shapes without)
        self.max_depth = max_depth
        self.depth = 0

    def enter(self) -> None:
        """One level deeper into nested text (tuples, nested instructions, literals)."""
        self.depth += 1
        if self.depth > self.max_depth:
            raise self.lex.error(f"maximum recursion depth exceeded ({self.max_depth})")

    def leave(self) -> None:
        self.depth -= 1

    def expect(self, kind: Tok, what: str) -> Token:
        tok = self.lex.peek()
        if tok.kind is not kind:
            raise self.lex.error(f"expected {what}, found {describe_token(tok)}")
        return self.lex.next()

    def int64(self, what: str = "an integer") -> int:
        tok = self.expect(Tok.INT, what)
        assert isinstance(tok.value, int)
        if tok.value > 2**63 - 1:
            raise self.lex.error(f"{tok.text} does not fit in a 64-bit signed integer", tok)
        return tok.value

    def _ident_is(self, name: str) -> bool:
        tok = self.lex.peek()
        return tok.kind is Tok.IDENT and tok.text == name
