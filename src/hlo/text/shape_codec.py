"""Shape and layout text, both directions, as XLA's parser (ParseShape/ParseLayout) reads it and
its printer (ShapeUtil::HumanStringWithLayout, Layout::Print) writes it."""

from __future__ import annotations

import re

from .. import dtypes
from ..dtypes import PrimitiveType
from ..errors import ParseError, ShapeError
from ..layout import COMBINE_DIMENSION, DimLevelType, Layout, SplitConfig, Tile, default_layout
from ..shape import UNBOUNDED, Shape
from ..value_text.shape import print_layout, print_shape
from .lexer import Lexer
from .tokens import Tok, Token

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


def describe_token(tok: Token) -> str:
    if tok.kind is Tok.EOF:
        return "the end of input"
    return f"'{tok.text}'" if tok.text else tok.kind.value


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


class ShapeReader:
    """Reads shapes and layouts from a lexer; the module parser uses it too."""

    def __init__(self, lexer: Lexer, fill_missing_layouts: bool = True, max_depth: int = 8192) -> None:
        self.lex = lexer
        self.fill_missing_layouts = fill_missing_layouts
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

    def _ident_is(self, name: str) -> bool:
        tok = self.lex.peek()
        return tok.kind is Tok.IDENT and tok.text == name

    def layout(self) -> Layout:
        lex = self.lex
        self.expect(Tok.LBRACE, "'{' to start the layout")
        m2m: list[int] = []
        fields: dict[str, object] = {}
        if lex.at(Tok.INT):
            m2m.append(self.int64())
            while lex.at(Tok.COMMA):
                lex.next()
                m2m.append(self.int64("a dimension number"))
        if lex.at(Tok.COLON):
            lex.next()
            if self._ident_is("D"):
                lex.next()
                fields.update(self._dim_level_types())
            if self._ident_is("T"):
                lex.next()
                fields["tiles"] = self._tiles()
            if self._ident_is("L"):
                lex.next()
                fields["tail_padding_alignment_in_elements"] = self._int_attr("L")
            if lex.at(Tok.OCTOTHORP):
                lex.next()
                fields["index_primitive_type"] = self._unsigned_type_attr("#")
            if lex.at(Tok.ASTERISK):
                lex.next()
                fields["pointer_primitive_type"] = self._unsigned_type_attr("*")
            if self._ident_is("E"):
                lex.next()
                fields["element_size_in_bits"] = self._int_attr("E")
            if self._ident_is("S"):
                lex.next()
                fields["memory_space"] = self._int_attr("S")
            if self._ident_is("SC"):
                lex.next()
                fields["split_configs"] = self._split_configs()
            if self._ident_is("P"):
                lex.next()
                self.expect(Tok.LPAREN, "'(' after P")
                fields["physical_shape"] = self.shape()
                self.expect(Tok.RPAREN, "')' to end the physical shape")
            if self._ident_is("M"):
                lex.next()
                fields["dynamic_shape_metadata_prefix_bytes"] = self._int_attr("M")
        if not lex.at(Tok.RBRACE):
            raise lex.error(
                "expected '}' to end the layout, or one of the layout fields "
                f"D(...) T(...) L(n) #(type) *(type) E(n) S(n) SC(...) P(shape) M(n) in this order; "
                f"found {describe_token(lex.peek())}"
            )
        lex.next()
        return Layout(tuple(m2m), **fields)  # type: ignore[arg-type]

    def _int_attr(self, letter: str) -> int:
        self.expect(Tok.LPAREN, f"'(' after {letter}")
        value = self.int64(f"an integer in {letter}(...)")
        self.expect(Tok.RPAREN, f"')' to end {letter}(...)")
        return value

    def _unsigned_type_attr(self, letter: str) -> PrimitiveType:
        self.expect(Tok.LPAREN, f"'(' after {letter}")
        tok = self.expect(Tok.PRIMITIVE_TYPE, "an unsigned integer type")
        assert isinstance(tok.value, PrimitiveType)
        if not tok.value.is_unsigned_integral:
            raise self.lex.error("expecting an unsigned integer type", tok)
        self.expect(Tok.RPAREN, f"')' to end {letter}(...)")
        return tok.value

    def _tiles(self) -> tuple[Tile, ...]:
        lex = self.lex
        tiles: list[Tile] = []
        while True:
            self.expect(Tok.LPAREN, "'(' to start a tile")
            dims: list[int] = []
            if not lex.at(Tok.RPAREN):
                while True:
                    if lex.at(Tok.ASTERISK):
                        lex.next()
                        dims.append(COMBINE_DIMENSION)
                    else:
                        dims.append(self.int64("a tile size or '*'"))
                    if not lex.at(Tok.COMMA):
                        break
                    lex.next()
            self.expect(Tok.RPAREN, "',' or ')' in the tile")
            tiles.append(Tile(tuple(dims)))
            if not lex.at(Tok.LPAREN):
                return tuple(tiles)

    def _split_configs(self) -> tuple[SplitConfig, ...]:
        lex = self.lex
        configs: list[SplitConfig] = []
        while True:
            self.expect(Tok.LPAREN, "'(' to start a split config")
            dim = self.int64("a dimension number")
            self.expect(Tok.COLON, "':' after the split dimension")
            indices = [self.int64("a split index")]
            while lex.at(Tok.COMMA):
                lex.next()
                indices.append(self.int64("a split index"))
            self.expect(Tok.RPAREN, "')' to end the split config")
            configs.append(SplitConfig(dim, tuple(indices)))
            if not lex.at(Tok.LPAREN):
                return tuple(configs)

    def _dim_level_types(self) -> dict[str, object]:
        lex = self.lex
        self.expect(Tok.LPAREN, "'(' after D")
        types: list[DimLevelType] = []
        unique: list[bool] = []
        ordered: list[bool] = []
        while not lex.at(Tok.RPAREN):
            tok = lex.peek()
            try:
                level = DimLevelType(tok.text) if tok.kind is Tok.IDENT else None
            except ValueError:
                level = None
            if level is None:
                raise lex.error("expected a DimLevelType abbreviation (D, C, S or H)")
            lex.next()
            is_unique = not lex.at(Tok.PLUS)
            if not is_unique:
                lex.next()
            is_ordered = not lex.at(Tok.TILDE)
            if not is_ordered:
                lex.next()
            if level is DimLevelType.DENSE and not (is_unique and is_ordered):
                raise lex.error("invalid DimLevelType/unique/ordered combination in shape", tok)
            types.append(level)
            unique.append(is_unique)
            ordered.append(is_ordered)
            if lex.at(Tok.COMMA):
                lex.next()
        lex.next()
        return {"dim_level_types": tuple(types), "dim_unique": tuple(unique), "dim_ordered": tuple(ordered)}
