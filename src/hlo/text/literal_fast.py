"""A fast reader for large dense literals: the whole `{...}` text is checked and converted at
once with regular expressions and NumPy instead of one lexer token at a time.

It only accepts what it can read exactly as XLA does (plain numbers, true/false, inf, nan, index
comments, any commas) and the exact brace structure of the shape; for anything else (NaN
payloads, complex numbers, `...`, a value XLA refuses, any error) it returns None and
literal_dense.py reads the text again, token by token, to give XLA's result or error.
"""

from __future__ import annotations

import re

import numpy as np

from ..dtypes import PrimitiveType
from ..shape import Shape
from .lexer import Lexer
from .literal_values import Rejected, store
from .shape_codec import print_shape

_BRACE = re.compile(r"[{}]")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_WORD = re.compile(r"[a-zA-Z]+")
_INT = re.compile(r"-?\d+")
_SPACES = str.maketrans("{},", "   ")
_PAIR = re.compile(r"\(\s*([^\s,(){}]+)\s*,\s*([^\s,(){}]+)\s*\)")
_LONGEST_SAFE_INT = 18  # digits that always fit in int64

# Character classes of the literal text: 0 not allowed here, 1 separator, 2 '{', 3 '}', 4 part
# of a token (digits, letters, '.', '+', '-').
_BAD, _SEP, _OPEN, _CLOSE, _PART = range(5)
_CLASS = np.zeros(256, dtype=np.uint8)
for _chars, _cls in (
    (" \t\r\n,", _SEP),
    ("{", _OPEN),
    ("}", _CLOSE),
    ("0123456789.+-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", _PART),
):
    _CLASS[np.frombuffer(_chars.encode(), np.uint8)] = _cls
_EVENT = np.frombuffer(b"\0\0{}x", np.uint8)  # skeleton character of each class (token start: x)


def read_fast(lex: Lexer, shape: Shape) -> np.ndarray | None:
    """The values of the literal starting at the lexer's `{`, with the lexer moved past it; or
    None (lexer untouched) when the slow reader must decide."""
    ptype = shape.element_type
    found = _literal_text(lex.text, lex.peek().start)
    if found is None:
        return None
    text, end = found
    if ptype.is_complex:  # each `(re, im)` becomes one token `x`; nothing else may be left
        parts = [t for pair in _PAIR.findall(text) for t in pair]
        text = _PAIR.sub(" x ", text)
        if len(parts) != 2 * shape.element_count or not set(text.translate(_SPACES).split()) <= {"x"}:
            return None
    chars = _characters(text, shape)
    if chars is None:
        return None
    if ptype.is_complex:
        raw = _complex_values(parts)
    else:
        raw = _raw_values(text, chars, text.translate(_SPACES).split(), ptype)
    if raw is None:
        return None
    try:
        values = store(raw, ptype, print_shape(shape, False))
    except Rejected:
        return None
    # Continue lexing right after the closing brace (the lexer's own state triple).
    lex.reset((end, (), end))
    return values.reshape(shape.dimensions)


def _literal_text(text: str, start: int) -> tuple[str, int] | None:
    """The literal from the `{` at `start` to its matching `}`, comments blanked (None if a
    comment holds a brace)."""
    depth = 0
    for m in _BRACE.finditer(text, start):
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            end = m.end()
            break
    else:
        return None
    literal = text[start:end]
    if "/*" in literal:
        if any("{" in c or "}" in c for c in _COMMENT.findall(literal)):
            return None
        literal = _COMMENT.sub(" ", literal)
    return literal, end


def _characters(text: str, shape: Shape) -> np.ndarray | None:
    """The text's bytes if it has only allowed characters and exactly the shape's structure
    of braces and tokens (commas and spaces anywhere): `{{xxx}{xxx}}` for [2,3]."""
    try:
        chars = np.frombuffer(text.encode("ascii"), np.uint8)
    except UnicodeEncodeError:
        return None
    cls = _CLASS[chars]
    if not cls.all():
        return None
    part = cls == _PART
    starts = part.copy()
    starts[1:] &= ~part[:-1]
    events = _EVENT[np.where(starts, 4, cls)[starts | (cls == _OPEN) | (cls == _CLOSE)]]
    return chars if events.tobytes() == _skeleton(shape) else None


def _skeleton(shape: Shape) -> bytes:
    dims = shape.dimensions
    text = b"{" + b"x" * dims[-1] + b"}"
    for d in reversed(dims[:-1]):
        text = b"{" + text * d + b"}"
    return text


def _after(chars: np.ndarray, char: str, allowed_before: str) -> bool:
    """Whether every `char` in the text follows one of `allowed_before`."""
    at = np.flatnonzero(chars[1:] == ord(char)) + 1
    if chars[0] == ord(char):
        return False
    return bool(np.isin(chars[at - 1], np.frombuffer(allowed_before.encode(), np.uint8)).all())


def _words(text: str, chars: np.ndarray) -> set[str]:
    letters = (chars | 0x20) - ord("a") < 26
    return set(_WORD.findall(text)) if letters.any() else set()


def _raw_values(text: str, chars: np.ndarray, tokens: list[str], ptype: PrimitiveType) -> np.ndarray | None:
    """Tokens as XLA's lexer reads them (bool, int64 or float64), or None where Python would read
    more than the lexer does (`+1`, `.5`, `1_0`, `Inf`) or the slow reader must decide."""
    if ptype.is_floating_point:
        return _float_values(tokens)
    if ord(".") in chars or ord("+") in chars or _long_ints(tokens):
        return None
    words = _words(text, chars)
    try:
        if ptype is PrimitiveType.PRED:
            if not words <= {"true", "false"}:
                return None
            return np.array([t == "true" or (t != "false" and int(t) != 0) for t in tokens], dtype=np.bool_)
        return None if words else np.array([int(t) for t in tokens], dtype=np.int64)
    except ValueError:
        return None


def _long_ints(tokens: list[str]) -> bool:
    """Integers that may not fit int64: the lexer's wrapping and errors are the slow reader's."""
    return max(map(len, tokens)) > _LONGEST_SAFE_INT and any(
        len(t) > _LONGEST_SAFE_INT and _INT.fullmatch(t) for t in tokens
    )


def _float_values(tokens: list[str]) -> np.ndarray | None:
    text = " " + " ".join(tokens)
    try:
        chars = np.frombuffer(text.encode("ascii"), np.uint8)
    except UnicodeEncodeError:
        return None
    if not ((_CLASS[chars] == _PART) | (chars == ord(" "))).all():
        return None
    if not (
        _words(text, chars) <= {"e", "E", "inf", "nan"}
        and _after(chars, "+", "eE")
        and _after(chars, ".", "0123456789-")
    ):
        return None
    if _long_ints(tokens):
        return None
    try:
        values = np.array([float(t) for t in tokens], dtype=np.float64)
    except ValueError:
        return None
    with np.errstate(invalid="ignore"):
        zeros = np.flatnonzero((values == 0) & np.signbit(values))
        infinite = np.flatnonzero(np.isinf(values))
    for i in zeros.tolist():  # an integer `-0` reads as 0: only `-0.0` is negative
        if _INT.fullmatch(tokens[i]):
            values[i] = 0.0
    if any(tokens[i] not in ("inf", "-inf") for i in infinite.tolist()):
        return None  # a decimal beyond double: the slow reader reports it
    return values


def _complex_values(parts: list[str]) -> np.ndarray | None:
    """Alternating real and imaginary parts as complex128 (bits kept, NaN payloads too)."""
    values = _float_values(parts) if parts else np.zeros(0)
    if values is None:
        return None
    out = np.empty(len(parts) // 2, np.complex128)
    out.real, out.imag = values[0::2], values[1::2]
    return out
