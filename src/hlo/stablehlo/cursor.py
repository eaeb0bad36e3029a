"""A character cursor over MLIR text: the lexical layer of the StableHLO reader.

MLIR's grammar is context dependent (`4x4xf32` is one dimension list inside `tensor<...>` but
`[1] x [0]` is three tokens in a dot_general), so the parsers read characters through this cursor
instead of a token stream. Every error carries the place (`file:line:col`) it was found at.
"""

from __future__ import annotations

import re

from ..errors import ParseError, Span

_WS = re.compile(r"(?:\s+|//[^\n]*)+")
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_$.\-]*")
_VALUE = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#\d+)?")
_SYMBOL = re.compile(r"@[A-Za-z_][A-Za-z0-9_$.\-]*")
_INT = re.compile(r"[-+]?(?:0x[0-9A-Fa-f]+|\d+)")
_NUMBER = re.compile(r"[-+]?(?:0x[0-9A-Fa-f]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|inf|nan)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2}|.)")


class StableHloError(ParseError):
    """StableHLO text that cannot be read or converted: malformed MLIR, an unknown dialect or op,
    a type HLO has no equivalent for. Rendered as `file:line:col: error: ...`."""


def unescape(body: str) -> str:
    """An MLIR string literal's body with `\\n`, `\\"` and `\\XX` (hex byte) escapes decoded."""

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if len(e) == 2:
            return chr(int(e, 16))
        return {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(e, e)

    raw = _ESCAPE.sub(one, body)
    try:  # hex escapes are bytes of UTF-8 text
        return raw.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return raw


class Cursor:
    """A position in `text`; the `skip`/`at`/`eat`/`expect` methods skip whitespace and `//`
    comments first."""

    def __init__(self, text: str, filename: str = "<string>") -> None:
        self.text = text
        self.filename = filename
        self.pos = 0

    # -- places and errors --------------------------------------------------------------------
    def span(self, pos: int | None = None, length: int = 1) -> Span:
        return Span(self.text, self.pos if pos is None else pos, length, self.filename)

    def error(self, message: str, pos: int | None = None) -> StableHloError:
        return StableHloError(message, self.span(pos))

    def found(self) -> str:
        """What the text holds at the cursor, for messages."""
        self.skip()
        if self.pos >= len(self.text):
            return "the end of the text"
        m = re.compile(r"\S{1,20}").match(self.text, self.pos)
        return repr(m.group()) if m else repr(self.text[self.pos])

    # -- reading ------------------------------------------------------------------------------
    def skip(self) -> None:
        m = _WS.match(self.text, self.pos)
        if m:
            self.pos = m.end()

    def at_end(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def at(self, literal: str) -> bool:
        self.skip()
        return self.text.startswith(literal, self.pos)

    def at_word(self, word: str) -> bool:
        """The bare identifier `word` (not a prefix of a longer one) is next."""
        self.skip()
        m = _BARE.match(self.text, self.pos)
        return m is not None and m.group() == word

    def eat(self, literal: str) -> bool:
        if self.at(literal):
            self.pos += len(literal)
            return True
        return False

    def eat_word(self, word: str) -> bool:
        if self.at_word(word):
            self.pos += len(word)
            return True
        return False

    def expect(self, literal: str, what: str | None = None) -> None:
        if not self.eat(literal):
            raise self.error(f"expected {what or repr(literal)}, found {self.found()}")

    def match(self, pattern: re.Pattern[str], what: str) -> str:
        self.skip()
        m = pattern.match(self.text, self.pos)
        if m is None:
            raise self.error(f"expected {what}, found {self.found()}")
        self.pos = m.end()
        return m.group()

    def peek_match(self, pattern: re.Pattern[str]) -> str | None:
        self.skip()
        m = pattern.match(self.text, self.pos)
        return None if m is None else m.group()

    def bare(self, what: str = "an identifier") -> str:
        return self.match(_BARE, what)

    def value_name(self) -> str:
        return self.match(_VALUE, "an SSA value (%name)")

    def at_value(self) -> bool:
        return self.peek_match(_VALUE) is not None

    def symbol(self) -> str:
        """`@name` or `@"quoted name"`, without the `@`."""
        self.skip()
        if self.text.startswith('@"', self.pos):
            self.pos += 1
            return self.string()
        return self.match(_SYMBOL, "a symbol (@name)")[1:]

    def string(self) -> str:
        return unescape(self.match(_STRING, "a string")[1:-1])

    def integer(self) -> int:
        return int(self.match(_INT, "an integer"), 0)

    def number_text(self) -> str:
        return self.match(_NUMBER, "a number")

    def at_number(self) -> bool:
        return self.peek_match(_NUMBER) is not None

    def balanced(self, open_: str, close: str) -> str:
        """The text from an `open_` at the cursor to its matching `close` (both included);
        strings inside are skipped whole."""
        self.skip()
        start = self.pos
        if not self.text.startswith(open_, start):
            raise self.error(f"expected {open_!r}, found {self.found()}")
        depth, i, n = 0, start, len(self.text)
        while i < n:
            c = self.text[i]
            if c == '"':
                m = _STRING.match(self.text, i)
                if m is None:
                    raise self.error("unterminated string", i)
                i = m.end()
                continue
            if c == open_:
                depth += 1
            elif c == close and not (close == ">" and self.text[i - 1] == "-"):  # not `->`
                depth -= 1
                if depth == 0:
                    self.pos = i + 1
                    return self.text[start : i + 1]
            i += 1
        raise self.error(f"no {close!r} closes this {open_!r}", start)
