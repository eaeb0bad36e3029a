"""Reading one dense array literal against its shape, token by token as XLA's
ParseDenseLiteral does (spec: notes/xla_parser.md §11.1-§11.2): optional and repeated commas,
`...` for elided values, brace counting with XLA's messages.

Large literals first try literal_fast.py, which reads the whole text at once; anything it is
not sure about comes back here, so errors always come from this exact reader.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import budget
from ..dtypes import PrimitiveType
from ..errors import ParseError
from ..shape import Shape
from .format import six_digits
from .literal_fast import read_fast
from .literal_values import Rejected, store
from .reader import TextReader
from .shape_codec import print_shape
from .tokens import Tok, Token

_P = PrimitiveType
_FAST_MIN_ELEMENTS = 64
_INT64_WRAP = 1 << 64
_PARENS = "unexpected '(' in literal. Parens are only valid for complex literals"
# XLA records two errors here; one message holds both.
_COMPLEX_PART = "expects decimal or integer; expect floating-point value for {} part of complex number"
_DOUBLE_OVERFLOW = "Constant is out of range for double (+/-1.79769e+308) and so is unparsable."


class SoftErrors:
    """Errors XLA records without stopping: reported only if the parse fails later, and then
    first, since XLA lists its errors in the order it met them."""

    def __init__(self) -> None:
        self.first: ParseError | None = None

    def record(self, error: ParseError) -> None:
        if self.first is None:
            self.first = error

    def first_of(self, error: ParseError) -> ParseError:
        """`error` or the recorded one, whichever XLA would have met first."""
        first = self.first
        if first is None or (first.span and error.span and first.span.offset > error.span.offset):
            return error
        return first


_CHECKED_BYTES = 1 << 26


def parse_dense(r: TextReader, shape: Shape, soft: SoftErrors) -> np.ndarray | None:
    """The values of an array literal of static `shape` (None for `{...}`)."""
    nbytes = budget.array_bytes(shape)
    if nbytes > _CHECKED_BYTES:  # (reading the system's memory figures costs more than small constants)
        try:
            budget.check(nbytes, f"the constant {shape}", budget.default_budget())
        except budget.MemoryBudgetError as e:
            raise r.error(e.message) from None
    if r.lex.at(Tok.LBRACE) and math.prod(shape.dimensions) >= _FAST_MIN_ELEMENTS:
        values = read_fast(r.lex, shape)
        if values is not None:
            return values
    return _DenseReader(r, shape, soft).read()


def _int64(value: int) -> int:
    """XLA's lexer keeps integers as uint64 bit-cast to int64: 2^63 reads as -2^63."""
    return value - _INT64_WRAP if value >= 1 << 63 else value


def _int_value(tok: Token) -> int:
    assert isinstance(tok.value, int)
    return tok.value


def _stringify(value: Any) -> str:
    """StrCat of the parsed value (XLA's StringifyValue) for the index error."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float):
        return six_digits(value)
    if isinstance(value, complex):
        return f"({value.real:f}, {value.imag:f})"
    return str(value)


class _DenseReader:
    def __init__(self, r: TextReader, shape: Shape, soft: SoftErrors) -> None:
        self.r, self.lex, self.soft = r, r.lex, soft
        self.ptype = shape.element_type
        self.dims = shape.dimensions
        self.size = math.prod(self.dims)
        self.shape_text = print_shape(shape, False)
        self.values: list[Any] = []
        self.tokens: list[Token] = []
        self.seen = [0] * len(self.dims)

    def read(self) -> np.ndarray | None:
        lex, dims, rank, seen = self.lex, self.dims, len(self.dims), self.seen
        nest = 0
        elided = False
        while True:
            tok = lex.peek()
            kind = tok.kind
            if kind is Tok.LBRACE:
                nest += 1
                if nest > rank:
                    raise self.fail(f"expects nested array in rank {rank}, but sees larger", tok)
                if nest > 1:
                    seen[nest - 2] += 1
                    if seen[nest - 2] > dims[nest - 2]:
                        raise self.fail(
                            f"expects {dims[nest - 2]} elements in the "
                            f"{self.index_text(nest - 2)}th element, but sees more",
                            tok,
                        )
                lex.next()
            elif kind is Tok.RBRACE:
                if nest == 0:
                    raise self.fail("unexpected '}' token", tok)
                nest -= 1
                if seen[nest] != dims[nest]:
                    raise self.fail(
                        f"expects {dims[nest]} elements in the {self.index_text(nest)}th "
                        f"element, but sees {seen[nest]}",
                        tok,
                    )
                seen[nest] = 0
                lex.next()
            elif kind is Tok.LPAREN:
                if not self.ptype.is_complex:
                    raise self.fail(_PARENS, tok)
                counted = self.count_element(nest)
                if counted:
                    raise self.fail(counted, tok)
                self.add(self.complex_value(), tok)
            elif kind is Tok.DOTS:
                if nest != 1:
                    raise self.fail(f"expects `...` at nest level 1, but sees it at nest level {nest}", tok)
                seen[0] = dims[0]
                elided = True
                lex.next()
            elif kind is Tok.COMMA:
                lex.next()
            elif kind in (Tok.INT, Tok.DECIMAL, Tok.NEG_INF) or (
                kind is Tok.KEYWORD and tok.text in ("true", "false", "inf")
            ):
                counted = self.count_element(nest)
                if counted:  # XLA records this one and reads on
                    self.soft.record(self.r.error(counted, tok))
                self.add(self.element(tok), tok)
                lex.next()
            else:
                raise self.fail("unexpected token type in a literal", tok)
            if nest == 0:
                break
        stored = self.stored()
        # `...` fills every value with garbage: the constant has no values worth keeping.
        return None if elided and self.size else stored

    # -- XLA's bookkeeping ----------------------------------------------------------------
    def index_text(self, dim: int) -> str:
        return "[" + ",".join(str(n - 1) for n in self.seen[:dim]) + "]"

    def count_element(self, nest: int) -> str | None:
        """XLA's add_one_elem_seen: the error it records for an element at `nest`, if any."""
        rank = len(self.dims)
        if rank == 0:
            return None
        if nest != rank:
            return f"expects nested array in rank {rank}, but sees {nest}"
        self.seen[rank - 1] += 1
        if self.seen[rank - 1] > self.dims[rank - 1]:
            return f"expects {self.dims[rank - 1]} elements on the minor-most dimension, but sees more"
        return None

    def add(self, value: Any, tok: Token) -> None:
        index = len(self.values)
        self.values.append(value)
        self.tokens.append(tok)
        if index >= self.size:
            raise self.fail(
                f"tries to set value {_stringify(value)} to a literal in shape "
                f"{self.shape_text} at linear index {index}, but the index is out of range",
                tok,
            )

    # -- elements -------------------------------------------------------------------------
    def element(self, tok: Token) -> Any:
        ptype, name = self.ptype, self.ptype.name
        integral = ptype is _P.PRED or ptype.is_integral
        if integral and tok.kind is Tok.INT:
            value = _int64(_int_value(tok))
            return value != 0 if ptype is _P.PRED else value
        if ptype is _P.PRED and tok.kind is Tok.KEYWORD and tok.text in ("true", "false"):
            return tok.text == "true"
        # true/false for other types abort XLA (LOG(FATAL)); we give the type's message.
        if integral:
            raise self.fail(f"expects integer for primitive type: {name}", tok)
        if ptype.is_floating_point:
            return self.double(tok, f"expect floating point value for primitive type: {name}")
        raise self.fail(f"unsupported primitive type {name}", tok)

    def double(self, tok: Token, message: str) -> float:
        """XLA's ParseDouble: a decimal that overflowed double is refused."""
        if tok.kind is Tok.DECIMAL and isinstance(tok.value, float):
            if math.isinf(tok.value):
                raise self.fail(_DOUBLE_OVERFLOW, tok)
            return tok.value
        if tok.kind is Tok.INT:
            return float(_int64(_int_value(tok)))
        if tok.kind is Tok.NEG_INF:
            return -math.inf
        if tok.kind is Tok.KEYWORD and tok.text == "inf":
            return math.inf
        raise self.fail(message, tok)

    def complex_value(self) -> complex:
        lex = self.lex
        lex.next()
        real = self.double(lex.peek(), _COMPLEX_PART.format("real"))
        lex.next()
        if not lex.at(Tok.COMMA):
            raise self.fail("expect comma after real part of complex literal", lex.peek())
        lex.next()
        imag = self.double(lex.peek(), _COMPLEX_PART.format("imaginary"))
        lex.next()
        if not lex.at(Tok.RPAREN):
            raise self.fail("expect ')' after complex number", lex.peek())
        lex.next()
        return complex(real, imag)

    # -- values and errors ------------------------------------------------------------------
    def raw(self) -> np.ndarray:
        ptype = self.ptype
        if ptype is _P.PRED:
            return np.array(self.values, dtype=np.bool_)
        if ptype.is_integral:
            return np.array(self.values, dtype=np.int64)
        return np.array(self.values, dtype=np.complex128 if ptype.is_complex else np.float64)

    def stored(self) -> np.ndarray:
        try:
            values = store(self.raw(), self.ptype, self.shape_text)
        except Rejected as e:
            raise self.soft.first_of(self.r.error(e.message, self.tokens[e.index])) from None
        # XLA starts from zeros: elements never written (after tolerated errors) stay 0.
        out = np.zeros(self.size, dtype=self.ptype.numpy_dtype)
        out[: len(values)] = values
        return out.reshape(self.dims)

    def fail(self, message: str, tok: Token) -> ParseError:
        """The error to raise now: the first of a recorded one, a value already read that XLA
        would have refused, and this one."""
        try:
            store(self.raw(), self.ptype, self.shape_text)
        except Rejected as e:
            return self.soft.first_of(self.r.error(e.message, self.tokens[e.index]))
        return self.soft.first_of(self.r.error(message, tok))
