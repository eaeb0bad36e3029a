"""The HLO text lexer: XLA's token rules (hlo_lexer.cc), lexing lazily so the parser can switch
modes (a raw JSON dict after `backend_config=`) and every token keeps its offset for errors. The
token kinds are in `tokens.py`, string escapes in `escapes.py`."""

from __future__ import annotations

import math
import re

from .. import dtypes
from ..dtypes import PrimitiveType
from ..errors import ParseError, Span
from .escapes import c_unescape
from .tokens import KEYWORDS, NAN_PAYLOAD_MASK, QUIET_NAN_PAYLOAD, Tok, Token, nan_with_payload

_PUNCT = {
    "=": Tok.EQUAL, ",": Tok.COMMA, ":": Tok.COLON, "*": Tok.ASTERISK, "#": Tok.OCTOTHORP,
    "+": Tok.PLUS, "~": Tok.TILDE, "[": Tok.LSQUARE, "]": Tok.RSQUARE, "{": Tok.LBRACE,
    "}": Tok.RBRACE, "(": Tok.LPAREN, ")": Tok.RPAREN,
}  # fmt: skip

_COMMON = re.compile(r"([a-zA-Z_][a-zA-Z0-9_.\-]*)([:=])?|[=,:*#+~\[\]{}()]")
_SPACE = re.compile(r"(?:[ \t\n\r]+|//[^\n\r]*|/\*(?:[^*]|\*(?!/))*\*/)+")
_IDENT = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.\-]*")
_FLOAT = re.compile(r"-?(?:(?:\d+|\d+\.\d*|\d*\.\d+)[eE][+-]?\d+|(?:\d+\.\d*|\d*\.\d+))")
_DIM_LABELS = re.compile(r"[0-9bf?]{2,}_[0-9io?]{2,}->[0-9bf?]{2,}")
_DXD = re.compile(r"[0-9]+(?:x[0-9]+)+")
_PAD = re.compile(r"-?[0-9]+_-?[0-9]+(?:_[0-9]+)?(?:x-?[0-9]+_-?[0-9]+(?:_[0-9]+)?)*")
_INT = re.compile(r"-?\d+")
_NAN_PAYLOAD = re.compile(r"\(0x([0-9a-fA-F]+)\)")
_STRING = {'"': re.compile(r'"(?:[^"\\]|\\.)*"', re.S), "'": re.compile(r"'(?:[^'\\]|\\.)*'", re.S)}

_U64_MAX = 2**64 - 1
# Words with a fixed token: primitive types (not tuple/buffer) and keywords.
_WORD_KINDS: dict[str, tuple[Tok, object]] = {w: (Tok.KEYWORD, None) for w in KEYWORDS}
_WORD_KINDS.update(
    {
        t.text: (Tok.PRIMITIVE_TYPE, t)
        for t in PrimitiveType
        if t not in (PrimitiveType.TUPLE, PrimitiveType.BUFFER, PrimitiveType.PRIMITIVE_TYPE_INVALID)
    }
)


_SURROGATE = re.compile("[\ud800-\udfff]")


class Lexer:
    """Lazily lexes `text`; `peek()`/`next()` give tokens, `lookahead(n)` looks further on."""

    def __init__(self, text: str, filename: str = "<string>") -> None:
        bad = _SURROGATE.search(text)
        if bad is not None:  # not a Unicode scalar value: no UTF-8 text holds one, none prints
            raise ParseError(
                f"the text holds a lone surrogate U+{ord(bad.group()):04X}, which is not UTF-8",
                Span(text, bad.start(), 1, filename),
            )
        self.text = text
        self.filename = filename
        self.pos = 0
        self.last_end = 0  # where the last token taken with next() ends
        self._buffer: list[Token] = []

    # -- token stream --------------------------------------------------------------------
    def peek(self) -> Token:
        if not self._buffer:
            self._buffer.append(self._lex())
        return self._buffer[0]

    def lookahead(self, n: int = 1) -> Token:
        """The n-th token after the current one."""
        while len(self._buffer) <= n:
            self._buffer.append(self._lex())
        return self._buffer[n]

    def next(self) -> Token:
        tok = self.peek()
        self._buffer.pop(0)
        self.last_end = tok.end
        return tok

    def mark(self) -> tuple[int, tuple[Token, ...], int]:
        """The lexer's state, to come back to with `reset` (the parser backtracks over an
        operand that turns out to be a nested instruction)."""
        return self.pos, tuple(self._buffer), self.last_end

    def reset(self, state: tuple[int, tuple[Token, ...], int]) -> None:
        self.pos, buffer, self.last_end = state
        self._buffer = list(buffer)

    def span_from(self, start: int) -> Span:
        """From offset `start` to the end of the last token taken."""
        return Span(self.text, start, max(1, self.last_end - start), self.filename)

    @property
    def kind(self) -> Tok:
        return self.peek().kind

    def at(self, *kinds: Tok) -> bool:
        """Whether the current token is of one of `kinds` (a call, so type checkers don't
        narrow it as they would a property)."""
        buffer = self._buffer
        if not buffer:
            buffer.append(self._lex())
        return buffer[0].kind in kinds

    def eat(self, kind: Tok) -> bool:
        """Take the current token if it is of `kind`."""
        buffer = self._buffer
        if not buffer:
            buffer.append(self._lex())
        if buffer[0].kind is kind:
            self.last_end = buffer.pop(0).end
            return True
        return False

    def skip_space(self) -> None:
        """Move past whitespace and comments (when no token is lexed ahead)."""
        if not self._buffer:
            m = _SPACE.match(self.text, self.pos)
            if m:
                self.pos = m.end()

    @property
    def buffered(self) -> bool:
        """Whether tokens were lexed ahead (then `pos` is past the current token)."""
        return bool(self._buffer)

    def skip_to(self, pos: int) -> None:
        """Continue lexing at `pos` (a fast path consumed the text before it)."""
        self._buffer.clear()
        self.pos = self.last_end = pos

    def span(self, tok: Token) -> Span:
        return Span(self.text, tok.start, max(1, tok.end - tok.start), self.filename)

    def error(self, message: str, tok: Token | None = None) -> ParseError:
        return ParseError(message, self.span(tok if tok is not None else self.peek()))

    def raw_braced(self) -> Token:
        """Lex a raw `{...}` JSON dict starting at the current '{' token, as XLA's LexJsonDict."""
        tok = self.peek()
        if tok.kind is not Tok.LBRACE:
            raise self.error("expects a JSON dict starting with '{'")
        pos, depth = tok.start + 1, 1
        text = self.text
        while pos < len(text) and depth:
            c = text[pos]
            if c == '"':
                m = _STRING['"'].match(text, pos)
                if m is None:
                    break
                pos = m.end()
                continue
            depth += (c == "{") - (c == "}")
            pos += 1
        if depth:
            raise self.error("unterminated JSON dict", tok)
        self._buffer.clear()
        self.pos = pos
        return Token(Tok.STRING, tok.start, pos, text[tok.start : pos])

    # -- lexing ----------------------------------------------------------------------------
    def _lex(self) -> Token:
        text = self.text
        m = _SPACE.match(text, self.pos)
        if m:
            self.pos = m.end()
        # The common tokens (identifiers, names, attribute names, punctuation) in one match.
        m = _COMMON.match(text, self.pos)
        if m is not None:
            word = m.group(1)
            if word is None:
                end = m.end()
                self.pos = end
                return Token(_PUNCT[text[end - 1]], end - 1, end)
            suffix = m.group(2)
            start = m.start(1)
            if suffix:
                end = m.end()
                self.pos = end
                return Token(Tok.NAME if suffix == ":" else Tok.ATTRIBUTE_NAME, start, end, word)
            fixed = _WORD_KINDS.get(word)
            if fixed is not None:
                end = m.end()
                self.pos = end
                return Token(fixed[0], start, end, word, fixed[1])  # type: ignore[arg-type]
            if word != "nan" and not (word[0] in "bf" and word.endswith("-")):
                end = m.end()
                self.pos = end
                return Token(Tok.IDENT, start, end, word)
        start = self.pos
        if start >= len(text):
            return Token(Tok.EOF, start, start)
        c = text[start]
        if (c.isalpha() and c.isascii()) or c == "_":
            return self._identifier(start)
        if c.isdigit() or c in "-?":
            if text.startswith("->", start):
                return self._tok(Tok.ARROW, start, start + 2)
            tok = self._number_or_pattern(start)
            if tok.kind is Tok.ERROR and c == "?":
                return self._tok(Tok.QUESTION, start, start + 1)
            return tok
        if c == "<":
            if text.startswith("<=", start):
                return self._tok(Tok.LEQ, start, start + 2)
            return self._tok(Tok.ERROR, start, start + 1)
        if c == "%":
            m = _IDENT.match(text, start + 1)
            if m is None:
                return self._tok(Tok.ERROR, start, start + 1)
            return self._tok(Tok.NAME, start, m.end(), m.group())
        if c in _PUNCT:
            return self._tok(_PUNCT[c], start, start + 1)
        if c == "/" and text.startswith("/*", start):
            return self._tok(Tok.ERROR, start, len(text), "unterminated comment")
        if c == "." and text.startswith("...", start):
            return self._tok(Tok.DOTS, start, start + 3)
        if c in "\"'":
            return self._string(start)
        return self._tok(Tok.ERROR, start, start + 1)

    def _tok(self, kind: Tok, start: int, end: int, text: str = "", value: object = None) -> Token:
        self.pos = end
        return Token(kind, start, end, text, value)  # type: ignore[arg-type]

    def _identifier(self, start: int) -> Token:
        text = self.text
        m = _IDENT.match(text, start)
        assert m is not None
        end = m.end()
        word = m.group()
        nxt = text[end : end + 1]
        if nxt == ":":
            return self._tok(Tok.NAME, start, end + 1, word)
        if nxt == "=":
            return self._tok(Tok.ATTRIBUTE_NAME, start, end + 1, word)
        ptype = dtypes.from_text(word)
        if ptype is not None and ptype not in (PrimitiveType.TUPLE, PrimitiveType.BUFFER):
            return self._tok(Tok.PRIMITIVE_TYPE, start, end, word, ptype)
        if word == "nan":
            return self._nan(start, end, negative=False)
        if word in KEYWORDS:
            return self._tok(Tok.KEYWORD, start, end, word)
        if word[0] in "bf" and word.endswith("-"):  # could be dim labels like b01f_01io->b01f
            m = _DIM_LABELS.match(text, start)
            if m:
                return self._tok(Tok.DIM_LABELS, start, m.end(), m.group())
        return self._tok(Tok.IDENT, start, end, word)

    def _nan(self, start: int, end: int, negative: bool) -> Token:
        payload = QUIET_NAN_PAYLOAD
        if self.text.startswith("(", end):
            m = _NAN_PAYLOAD.match(self.text, end)
            if m is None:
                return self._tok(Tok.ERROR, start, end + 1)
            payload = int(m.group(1), 16)
            if payload <= 0 or payload > NAN_PAYLOAD_MASK:
                return self._tok(Tok.ERROR, start, m.end(), "NaN payload out of range")
            end = m.end()
        return self._tok(Tok.DECIMAL, start, end, self.text[start:end], nan_with_payload(negative, payload))

    def _number_or_pattern(self, start: int) -> Token:
        text = self.text
        m = _FLOAT.match(text, start)
        if m:
            return self._tok(Tok.DECIMAL, start, m.end(), m.group(), float(m.group()))
        for kind, pattern in ((Tok.DIM_LABELS, _DIM_LABELS), (Tok.DXD, _DXD), (Tok.PAD, _PAD)):
            m = pattern.match(text, start)
            if m:
                return self._tok(kind, start, m.end(), m.group())
        m = _INT.match(text, start)
        if m:
            value = int(m.group())
            if not -(2**63) <= value <= _U64_MAX:
                return self._tok(Tok.ERROR, start, m.end(), "integer out of range")
            return self._tok(Tok.INT, start, m.end(), m.group(), value)
        if text.startswith("-inf", start):
            return self._tok(Tok.NEG_INF, start, start + 4, "-inf", -math.inf)
        if text.startswith("-nan", start):
            return self._nan(start, start + 4, negative=True)
        return self._tok(Tok.ERROR, start, start + 1)

    def _string(self, start: int) -> Token:
        m = _STRING[self.text[start]].match(self.text, start)
        if m is None:
            return self._tok(Tok.ERROR, start, len(self.text), "unterminated string")
        try:
            value = c_unescape(m.group()[1:-1])
        except ValueError as e:
            return self._tok(Tok.ERROR, start, m.end(), str(e))
        return self._tok(Tok.STRING, start, m.end(), value)
