"""Layout text as XLA's parser reads it (ParseLayout): `{1,0:T(8,128)(2,1)L(512)#(u16)*(u8)S(1)
SC(0:4)M(2)}` — the minor-to-major order, then the dimension level types, tiles, tail padding,
index and pointer types, element size, memory space, split configs and dynamic shape metadata
prefix after a colon. ShapeReader (shape_codec.py) extends LayoutReader; parse_layout is there."""

from __future__ import annotations

from ..dtypes import PrimitiveType
from ..layout import COMBINE_DIMENSION, DimLevelType, Layout, SplitConfig, Tile
from ..shape import Shape
from .token_reader import TokenReader
from .tokens import Tok, describe_token


class LayoutReader(TokenReader):
    """Reads a layout (in braces) from a lexer. A layout may hold a shape (its physical shape,
    `P(...)`), which ShapeReader, the subclass that reads shapes, reads."""

    def shape(self) -> Shape:
        raise NotImplementedError("ShapeReader reads shapes")

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
