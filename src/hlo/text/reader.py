"""The token-level reading helpers every text codec uses (on top of the lexer and the shape
reader): expect a token, read ints, lists, booleans, strings, enum names, with errors that say what
was expected and where."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TypeVar

from ..errors import ParseError
from .lexer import Lexer
from .shape_codec import ShapeReader
from .tokens import Tok, Token, describe_token

E = TypeVar("E", bound=Enum)
T = TypeVar("T")


class TextReader(ShapeReader):
    """A ShapeReader with the attribute-level helpers; `depth` guards deep nesting."""

    def __init__(self, lexer: Lexer, fill_missing_layouts: bool = True, max_depth: int = 8192) -> None:
        super().__init__(lexer, fill_missing_layouts, max_depth)

    # -- tokens -------------------------------------------------------------------------------
    def error(self, message: str, tok: Token | None = None) -> ParseError:
        return self.lex.error(message, tok)

    def ident(self, what: str = "an identifier") -> str:
        return self.expect(Tok.IDENT, what).text

    def keyword(self, word: str) -> bool:
        """Take the keyword `word` if it is next."""
        tok = self.lex.peek()
        if tok.kind is Tok.KEYWORD and tok.text == word:
            self.lex.next()
            return True
        return False

    def attribute_name(self, what: str = "an attribute name") -> str:
        return self.expect(Tok.ATTRIBUTE_NAME, what).text

    def string(self, what: str = "a string") -> str:
        return self.expect(Tok.STRING, what).text

    def boolean(self) -> bool:
        tok = self.lex.peek()
        if tok.kind is Tok.KEYWORD and tok.text in ("true", "false"):
            self.lex.next()
            return tok.text == "true"
        raise self.error(f"expected true or false, found {describe_token(tok)}")

    def int32(self, what: str = "an integer") -> int:
        tok = self.lex.peek()
        value = self.int64(what)
        if not -(2**31) <= value < 2**31:
            raise self.error(f"value {value} is out of range for a 32-bit integer", tok)
        return value

    def uint64_or_int64(self, what: str = "an integer") -> int:
        """An integer as the lexer reads it: up to 2**64 - 1 (for u64 literals)."""
        tok = self.expect(Tok.INT, what)
        assert isinstance(tok.value, int)
        return tok.value

    def number(self, what: str = "a number") -> float:
        """A decimal, an integer, `inf`, `-inf` or a NaN."""
        tok = self.lex.peek()
        if tok.kind in (Tok.DECIMAL, Tok.INT, Tok.NEG_INF):
            self.lex.next()
            assert isinstance(tok.value, (int, float))
            return float(tok.value)
        if tok.kind is Tok.KEYWORD and tok.text == "inf":
            self.lex.next()
            return float("inf")
        raise self.error(f"expected {what}, found {describe_token(tok)}")

    def enum(self, cls: type[E], what: str, case_insensitive: bool = False) -> E:
        """An enum member written as its value (an identifier)."""
        tok = self.lex.peek()
        if tok.kind is not Tok.IDENT:
            raise self.error(f"expected {what}, found {describe_token(tok)}")
        text = tok.text.lower() if case_insensitive else tok.text
        for member in cls:
            value = str(member.value)
            if (value.lower() if case_insensitive else value) == text:
                self.lex.next()
                return member
        choices = ", ".join(str(m.value) for m in cls)
        raise self.error(f"expected {what} ({choices}), found '{tok.text}'")

    def list_of(self, item: Callable[[], T], start: Tok, end: Tok, what: str) -> list[T]:
        """`start item (',' item)* end`, possibly empty."""
        self.expect(start, f"{start.value} to start {what}")
        items: list[T] = []
        if not self.lex.at(end):
            items.append(item())
            while self.lex.eat(Tok.COMMA):
                items.append(item())
        self.expect(end, f"',' or {end.value} in {what}")
        return items

    def int_list(self, what: str = "a list of integers") -> tuple[int, ...]:
        """`{1,2,3}` (may be empty)."""
        return tuple(self.list_of(lambda: self.int64(f"an integer in {what}"), Tok.LBRACE, Tok.RBRACE, what))

    def int_list_list(self, what: str = "a list of integer lists") -> tuple[tuple[int, ...], ...]:
        """`{{1,2},{3}}` (may be empty)."""
        return tuple(self.list_of(lambda: self.int_list(what), Tok.LBRACE, Tok.RBRACE, what))

    def bool_list(self, what: str = "a list of booleans") -> tuple[bool, ...]:
        return tuple(self.list_of(self.boolean, Tok.LBRACE, Tok.RBRACE, what))

    def shape_index(self) -> tuple[int, ...]:
        """`{}` or `{1,0}` (a trailing comma is allowed, as XLA)."""
        self.expect(Tok.LBRACE, "'{' to start a shape index")
        index: list[int] = []
        while not self.lex.at(Tok.RBRACE):
            index.append(self.int64("an integer in the shape index"))
            if not self.lex.eat(Tok.COMMA):
                break
        self.expect(Tok.RBRACE, "'}' to end the shape index")
        return tuple(index)

    def sub_attributes(self, parse_value: Callable[[str, Token], None], what: str) -> None:
        """`{ name=value name=value ... }` with optional commas between entries (metadata,
        domain, stack frames): `parse_value(name, name_token)` reads each value."""
        self.expect(Tok.LBRACE, f"'{{' to start {what}")
        seen: set[str] = set()
        while not self.lex.at(Tok.RBRACE):
            self.lex.eat(Tok.COMMA)
            tok = self.lex.peek()
            name = self.attribute_name(f"a sub-attribute of {what}")
            if name in seen:
                raise self.error(f"sub-attribute {name} of {what} appears twice", tok)
            seen.add(name)
            parse_value(name, tok)
        self.lex.next()
