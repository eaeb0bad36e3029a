"""Shape and layout text, both directions, as XLA's parser (ParseShape/ParseLayout) reads it and
its printer (ShapeUtil::HumanStringWithLayout, Layout::Print) writes it: shapes here, the layout
inside the braces in layout_codec.py, printing in value_text/."""

from __future__ import annotations

import re

from .. import dtypes
from ..dtypes import PrimitiveType
from ..errors import ParseError, ShapeError
from ..layout import Layout, default_layout
from ..shape import UNBOUNDED, Shape
from ..value_text.shape import print_layout, print_shape
from .layout_codec import LayoutReader
from .lexer import Lexer
from .tokens import Tok, describe_token

__all__ = ["parse_layout", "parse_shape", "print_layout", "print_shape", "shape_from_text"]

_TUPLE_INDEX_INTERVAL = 5  # XLA marks every 5th tuple element with /*index=N*/

# An array shape written without spaces, with a layout that holds no nested braces.
_SIMPLE_SHAPE = re.compile(r"[a-z][a-z0-9]*\[[0-9,<=?]*\](\{(?=[0-9:])[^{}\s]*\})?")
_BRACE_NEXT = re.compile(r"\s*\{")
_SHAPE_START = re.compile(r"([a-z][a-z0-9]*)(?![a-z0-9_.\-])")
_SHAPE_CACHE: dict[tuple[str, bool], Shape] = {}


# -- parsing --------------------------------------------------------------------------------
def parse_shape(text: str, filename: str = "<shape>") -> Shape:
    """Parse a whole shape string; a missing layout becomes the default one, as XLA's
    stand-alone ParseShape does."""
    lexer = Lexer(text, filename)
    try:
        shape = ShapeReader(lexer).shape()
    except RecursionError:
        raise ParseError("the shape nests too deeply to parse", lexer.span(lexer.peek())) from None
    if not lexer.at(Tok.EOF):
        raise lexer.error(f"expected the end of the shape, found {describe_token(lexer.peek())}")
    return shape


def parse_layout(text: str, filename: str = "<layout>") -> Layout:
    lexer = Lexer(text, filename)
    try:
        layout = ShapeReader(lexer).layout()
    except RecursionError:
        raise ParseError("the layout nests too deeply to parse", lexer.span(lexer.peek())) from None
    if not lexer.at(Tok.EOF):
        raise lexer.error(f"expected the end of the layout, found {describe_token(lexer.peek())}")
    return layout


def shape_from_text(text: str, fill_missing_layouts: bool = True) -> Shape | None:
    """The shape a simple shape text (no spaces) stands for, from the cache or parsed once;
    None when the text is not a valid shape."""
    key = (text, fill_missing_layouts)
    cached = _SHAPE_CACHE.get(key)
    if cached is None:
        try:
            reader = ShapeReader(Lexer(text), fill_missing_layouts)
            cached = reader.shape()
        except ParseError:
            return None
        if reader.lex.at(Tok.EOF):  # the whole text was the shape: remember it
            if len(_SHAPE_CACHE) > 50_000:
                _SHAPE_CACHE.clear()
            _SHAPE_CACHE[key] = cached
    return cached


class ShapeReader(LayoutReader):
    """Reads shapes (and, as a LayoutReader, layouts) from a lexer; the module parser uses it too."""

    def can_be_shape(self) -> bool:
        lex = self.lex
        lex.skip_space()
        if not lex.buffered:
            m = _SHAPE_START.match(lex.text, lex.pos)
            if m is not None and m.group(1) is not None:
                ptype = dtypes.from_text(m.group(1))
                return ptype is not None and ptype not in (PrimitiveType.TUPLE, PrimitiveType.BUFFER)
        return lex.at(Tok.PRIMITIVE_TYPE, Tok.LPAREN) or self._at_buffer()

    def _at_buffer(self) -> bool:
        tok = self.lex.peek()
        return tok.kind is Tok.IDENT and tok.text == "b" and self.lex.lookahead().kind is Tok.LPAREN

    def shape(self) -> Shape:
        """A shape; array shapes written without spaces are looked up in a cache by their text
        (real modules repeat a few shapes many times)."""
        lex = self.lex
        lex.skip_space()
        if lex.buffered:
            tok = lex.peek()
            if tok.kind is not Tok.PRIMITIVE_TYPE:
                return self._shape()
            start = tok.start
        else:
            start = lex.pos
        m = _SIMPLE_SHAPE.match(lex.text, start)
        if m is None or (not m.group(1) and _BRACE_NEXT.match(lex.text, m.end())):
            return self._shape()
        key = (m.group(), self.fill_missing_layouts)
        cached = _SHAPE_CACHE.get(key)
        if cached is not None:
            lex.skip_to(m.end())
            return cached
        shape = self._shape()
        if lex.last_end == m.end():
            if len(_SHAPE_CACHE) > 50_000:
                _SHAPE_CACHE.clear()
            _SHAPE_CACHE[key] = shape
        return shape

    def _shape(self) -> Shape:
        lex = self.lex
        start = lex.peek()
        if lex.at(Tok.LPAREN):
            lex.next()
            self.enter()
            elements: list[Shape] = []
            if not lex.at(Tok.RPAREN):
                elements.append(self.shape())
                while lex.at(Tok.COMMA):
                    lex.next()
                    elements.append(self.shape())
            self.expect(Tok.RPAREN, "')' at the end of the tuple shape")
            self.leave()
            return Shape.make_tuple(elements)
        if self._at_buffer():
            lex.next()
            lex.next()
            inner = self.shape()
            if not inner.is_array:
                raise lex.error("a buffer shape holds one array shape", start)
            self.expect(Tok.RPAREN, "')' at the end of the buffer shape")
            return Shape.buffer(inner)
        tok = lex.peek()
        if tok.kind is not Tok.PRIMITIVE_TYPE:
            raise lex.error(f"expected a primitive type, found {describe_token(tok)}")
        lex.next()
        ptype = tok.value
        assert isinstance(ptype, PrimitiveType)
        dims, dynamic = self._dimension_sizes()
        if not ptype.is_array_type:
            if dims:
                raise lex.error(f"{ptype.text} shapes have no dimensions", tok)
            if lex.at(Tok.LBRACE) and lex.lookahead().kind in (Tok.INT, Tok.COLON):
                raise lex.error(f"{ptype.text} shapes have no layout")
            return Shape(ptype)
        layout: Layout | None = None
        if self.fill_missing_layouts or not dims:
            layout = default_layout(len(dims))
        if lex.at(Tok.LBRACE) and lex.lookahead().kind in (Tok.INT, Tok.COLON):
            layout_tok = lex.peek()
            layout = self.layout()
            if len(layout.minor_to_major) != len(dims):
                raise lex.error(
                    f"Dimensions size is {len(dims)}, but minor to major size is "
                    f"{len(layout.minor_to_major)}.",
                    layout_tok,
                )
            if layout.physical_shape is not None and not layout.is_sparse:
                raise lex.error("layout has a physical shape, but is not for a sparse array", layout_tok)
            try:
                return Shape(ptype, dims, dynamic, layout)
            except ShapeError as e:
                raise ParseError(e.message, lex.span_from(layout_tok.start)) from None
        return Shape(ptype, dims, dynamic, layout)

    def _dimension_sizes(self) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        lex = self.lex
        self.expect(Tok.LSQUARE, "'[' to start the dimensions")
        dims: list[int] = []
        dynamic: list[bool] = []
        if not lex.at(Tok.RSQUARE):
            while True:
                if lex.at(Tok.QUESTION):
                    lex.next()
                    dims.append(UNBOUNDED)
                    dynamic.append(True)
                else:
                    is_dynamic = lex.at(Tok.LEQ)
                    if is_dynamic:
                        lex.next()
                    tok = lex.peek()
                    size = self.int64("a dimension size, '<=' bound or '?'")
                    if size < 0:
                        raise lex.error(f"dimension size {size} is negative", tok)
                    dims.append(size)
                    dynamic.append(is_dynamic)
                if not lex.at(Tok.COMMA):
                    break
                lex.next()
        self.expect(Tok.RSQUARE, "',' or ']' in the dimensions")
        return tuple(dims), tuple(dynamic)
