"""Literal text, both directions, as XLA writes and reads it: the one-line form inside
`constant(...)` (spec: notes/xla_printer.md §7, notes/xla_parser.md §11) and the form with
shapes of custom-call `literal=` (printer §7.4, parser §11.6).

The dense-array reader lives in literal_dense.py, element text in hlo.value_text.elements and value
storage (range checks, NaN payloads) in literal_values.py.
"""

from __future__ import annotations

from ..errors import ParseError
from ..literal import Literal
from ..shape import UNBOUNDED, Shape
from ..value_text.elements import format_element
from ..value_text.literal import print_constant_operand, print_literal
from .literal_dense import SoftErrors, parse_dense
from .reader import TextReader
from .tokens import Tok

__all__ = [
    "format_element",
    "parse_literal",
    "parse_untyped_literal",
    "print_constant_operand",
    "print_literal",
]


# -- parsing --------------------------------------------------------------------------------
def parse_literal(r: TextReader, shape: Shape) -> Literal:
    """The literal of `constant(...)`, read against its declared shape (parser §11.1); the
    reader stands at the literal. Dynamic dimensions are read at their bounds and the literal's
    shape is static, as in XLA."""
    parser = _LiteralParser(r)
    try:
        return parser.typed(shape)
    except ParseError as e:
        raise parser.soft.first_of(e) from None


def parse_untyped_literal(r: TextReader) -> Literal:
    """The custom-call `literal=` form: `shape value`, or a tuple `( lit, lit ... )` (§11.6)."""
    parser = _LiteralParser(r)
    try:
        return parser.untyped()
    except ParseError as e:
        raise parser.soft.first_of(e) from None


class _LiteralParser:
    """Tuples and dispatch; `soft` keeps the errors XLA records but parses past."""

    def __init__(self, r: TextReader) -> None:
        self.r = r
        self.soft = SoftErrors()

    def typed(self, shape: Shape) -> Literal:
        if shape.is_tuple:
            return self.tuple(shape)
        if not shape.is_array:
            raise self.r.error(f"a literal holds arrays or tuples, not {shape}")
        if UNBOUNDED in shape.dimensions:
            raise self.r.error(f"a constant cannot have the unbounded shape {shape}")
        static = shape.replace(dynamic_dimensions=(False,) * len(shape.dimensions))
        values = parse_dense(self.r, static, self.soft)
        return Literal(static, values)

    def tuple(self, shape: Shape) -> Literal:
        r = self.r
        r.enter()
        try:
            return self._tuple_body(shape)
        finally:
            r.leave()

    def _tuple_body(self, shape: Shape) -> Literal:
        r, lex = self.r, self.r.lex
        if not lex.at(Tok.LPAREN):
            raise r.error("expects '(' in front of tuple elements")
        lex.next()
        count = len(shape.tuple_shapes)
        if lex.at(Tok.RPAREN):
            # XLA keeps default (empty tuple) elements: `()` for (f32[], s32[]) is ((), ()).
            elements = [Literal.make_tuple(()) for _ in range(count)]
        else:
            elements = []
            for i, element_shape in enumerate(shape.tuple_shapes):
                if i > 0 and not lex.eat(Tok.COMMA):
                    self.soft.record(r.error("expects ',' to separate tuple elements"))
                elements.append(self.typed(element_shape))
        if not lex.at(Tok.RPAREN):
            raise r.error(f"expects ')' at the end of the tuple with {count}elements")
        lex.next()
        return Literal.make_tuple(elements)

    def untyped(self) -> Literal:
        r, lex = self.r, self.r.lex
        r.enter()
        try:
            if not lex.eat(Tok.LPAREN):
                return self.typed(r.shape())
            elements = []
            while not lex.at(Tok.RPAREN):
                elements.append(self.untyped())
                if not lex.at(Tok.RPAREN) and not lex.eat(Tok.COMMA):
                    self.soft.record(r.error("expects ',' to separate tuple elements"))
            lex.next()
            return Literal.make_tuple(elements)
        finally:
            r.leave()
