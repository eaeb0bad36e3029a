"""Codecs of the structured attributes of array ops: window (`{size=3x3 stride=2x2 pad=...}`),
convolution dim_labels (`b01f_01io->b01f`), padding (`0_0_1x2_2`), slice ranges, custom-call
output_to_operand_aliasing and sparsity configs."""

from __future__ import annotations

from ..ir.attrs import (
    ConvolutionDimensionNumbers,
    OperandAlias,
    PaddingConfig,
    PaddingDimension,
    SliceRange,
    SparsityConfig,
    TensorSparsity,
    Window,
    WindowDimension,
)
from .attr_codecs import Simple, ints_text
from .reader import TextReader
from .tokens import Tok


# -- window -----------------------------------------------------------------------------------
def _dxd(r: TextReader, what: str) -> tuple[int, ...]:
    tok = r.lex.peek()
    if tok.kind is Tok.INT:
        return (r.int64(),)
    if tok.kind is Tok.DXD:
        r.lex.next()
        return tuple(int(x) for x in tok.text.split("x"))
    raise r.error(f"expected {what} as N or NxM..., found {tok.text or tok.kind.value}")


def parse_window(r: TextReader) -> Window:
    start = r.expect(Tok.LBRACE, "'{' to start the window")
    fields: dict[str, tuple[int, ...]] = {}
    pads: tuple[tuple[int, int], ...] = ()
    while not r.lex.at(Tok.RBRACE):
        tok = r.lex.peek()
        name = r.attribute_name("size=, stride=, pad=, lhs_dilate=, rhs_dilate= or rhs_reversal=")
        if name in fields or (name == "pad" and pads):
            raise r.error(f"sub-attribute '{name}=' already exists", tok)
        if name == "pad":
            ptok = r.lex.peek()
            if ptok.kind not in (Tok.PAD, Tok.INT):
                raise r.error("expected a window pad pattern like 0_0x3_3")
            r.lex.next()
            parts = [p.split("_") for p in ptok.text.split("x")]
            if any(len(p) != 2 for p in parts):
                raise r.error("expected padding low and high separated by '_' in the window pad", ptok)
            pads = tuple((int(a), int(b)) for a, b in parts)
        elif name in ("size", "stride", "lhs_dilate", "rhs_dilate", "rhs_reversal"):
            fields[name] = _dxd(r, name)
        else:
            raise r.error(f"unexpected window sub-attribute '{name}'", tok)
    r.lex.next()
    size = fields.get("size", ())
    n = len(size)
    for name, values in list(fields.items()) + [("pad", pads)]:
        if values and len(values) != n:
            raise r.error(f"window '{name}=' has {len(values)} entries but 'size=' has {n}", start)
    dims = []
    for i in range(n):
        dims.append(
            WindowDimension(
                size=size[i],
                stride=fields["stride"][i] if "stride" in fields else 1,
                padding_low=pads[i][0] if pads else 0,
                padding_high=pads[i][1] if pads else 0,
                base_dilation=fields["lhs_dilate"][i] if "lhs_dilate" in fields else 1,
                window_dilation=fields["rhs_dilate"][i] if "rhs_dilate" in fields else 1,
                window_reversal=fields["rhs_reversal"][i] == 1 if "rhs_reversal" in fields else False,
            )
        )
    return Window(tuple(dims))


def print_window(w: Window) -> str:
    d = w.dimensions
    parts = []
    if d:
        parts.append("size=" + "x".join(str(x.size) for x in d))
    if any(x.stride != 1 for x in d):
        parts.append("stride=" + "x".join(str(x.stride) for x in d))
    if any(x.padding_low or x.padding_high for x in d):
        parts.append("pad=" + "x".join(f"{x.padding_low}_{x.padding_high}" for x in d))
    if any(x.base_dilation != 1 for x in d):
        parts.append("lhs_dilate=" + "x".join(str(x.base_dilation) for x in d))
    if any(x.window_dilation != 1 for x in d):
        parts.append("rhs_dilate=" + "x".join(str(x.window_dilation) for x in d))
    if any(x.window_reversal for x in d):
        parts.append("rhs_reversal=" + "x".join("1" if x.window_reversal else "0" for x in d))
    return "{" + " ".join(parts) + "}"


WINDOW = Simple(parse_window, print_window)


# -- dim_labels -------------------------------------------------------------------------------
def _labels(text: str, letters: str, part: str, r: TextReader) -> tuple[dict[str, int], list[int]]:
    found: dict[str, int] = {}
    spatial: dict[int, int] = {}
    for pos, ch in enumerate(text):
        if ch == "?":
            continue
        if ch in found or (ch.isdigit() and int(ch) in spatial):
            raise r.error(f"expects unique {part} dimension numbers, but sees {text}")
        if ch.isdigit():
            if int(ch) >= len(text) - 1 or int(ch) > 9:
                raise r.error(f"expects [0-{len(text) - 2}{letters}?] in {part} dimension numbers")
            spatial[int(ch)] = pos
        else:
            found[ch] = pos
    ordered = [spatial[k] for k in sorted(spatial)]
    if sorted(spatial) != list(range(len(spatial))):
        raise r.error(f"{part} spatial dimensions of '{text}' must be numbered 0..n-1")
    return found, ordered


def parse_dim_labels(r: TextReader) -> ConvolutionDimensionNumbers:
    tok = r.lex.peek()
    if tok.kind is not Tok.DIM_LABELS:
        raise r.error("expected dim labels pattern, e.g., 'bf0_0io->0bf'")
    r.lex.next()
    lhs_rhs, out = tok.text.split("->")
    lhs, rhs = lhs_rhs.split("_")
    lf, ls = _labels(lhs, "bf", "lhs", r)
    kf, ks = _labels(rhs, "io", "rhs", r)
    of, os_ = _labels(out, "bf", "output", r)
    if not len(ls) == len(ks) == len(os_):
        raise r.error(
            "input, kernel, and output must have same number of spatial dimensions, but got "
            f"{len(ls)}, {len(ks)}, {len(os_)}, respectively.",
            tok,
        )
    return ConvolutionDimensionNumbers(
        lf.get("b", 0), lf.get("f", 0), tuple(ls),
        kf.get("i", 0), kf.get("o", 0), tuple(ks),
        of.get("b", 0), of.get("f", 0), tuple(os_),
    )  # fmt: skip


def _label_text(named: dict[int, str], spatial: tuple[int, ...]) -> str:
    positions = dict(named)
    for i, pos in enumerate(spatial):
        positions[pos] = str(i)
    length = max(positions) + 1 if positions else 0
    return "".join(positions.get(p, "?") for p in range(length))


def print_dim_labels(d: ConvolutionDimensionNumbers) -> str:
    lhs = _label_text(
        {d.input_batch_dimension: "b", d.input_feature_dimension: "f"}, d.input_spatial_dimensions
    )
    rhs = _label_text(
        {d.kernel_input_feature_dimension: "i", d.kernel_output_feature_dimension: "o"},
        d.kernel_spatial_dimensions,
    )
    out = _label_text(
        {d.output_batch_dimension: "b", d.output_feature_dimension: "f"}, d.output_spatial_dimensions
    )
    return f"{lhs}_{rhs}->{out}"


DIM_LABELS = Simple(parse_dim_labels, print_dim_labels)


# -- padding, slice ---------------------------------------------------------------------------
def parse_padding(r: TextReader) -> PaddingConfig:
    tok = r.lex.peek()
    if tok.kind is not Tok.PAD:
        raise r.error("expected a padding config, e.g., '0_0_0x3_3_1'")
    r.lex.next()
    dims = []
    for part in tok.text.split("x"):
        nums = [int(x) for x in part.split("_")]
        dims.append(PaddingDimension(nums[0], nums[1], nums[2] if len(nums) == 3 else 0))
    return PaddingConfig(tuple(dims))


def print_padding(p: PaddingConfig) -> str:
    interior = any(d.interior for d in p.dimensions)
    return "x".join(f"{d.low}_{d.high}" + (f"_{d.interior}" if interior else "") for d in p.dimensions)


PADDING = Simple(parse_padding, print_padding)


def _slice_range(r: TextReader) -> SliceRange:
    tok = r.lex.peek()
    nums = r.list_of(lambda: r.int64("a slice bound"), Tok.LSQUARE, Tok.RSQUARE, "a slice range")
    if len(nums) not in (2, 3):
        raise r.error(f"expected [start:limit:step] or [start:limit], but sees {len(nums)} elements.", tok)
    return SliceRange(*nums)


def parse_slice(r: TextReader) -> tuple[SliceRange, ...]:
    r.expect(Tok.LBRACE, "'{' to start the slice ranges")
    ranges: list[SliceRange] = []
    while not r.lex.at(Tok.RBRACE):
        r.expect(Tok.LSQUARE, "'[' to start a slice range")
        start = r.int64("a slice start")
        r.expect(Tok.COLON, "':' after the slice start")
        limit = r.int64("a slice limit")
        stride = 1
        if r.lex.eat(Tok.COLON):
            stride = r.int64("a slice stride")
        r.expect(Tok.RSQUARE, "']' to end the slice range")
        ranges.append(SliceRange(start, limit, stride))
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RBRACE, "'}' to end the slice ranges")
    return tuple(ranges)


def print_slice(ranges: tuple[SliceRange, ...]) -> str:
    strided = any(s.stride != 1 for s in ranges)
    return (
        "{" + ", ".join(f"[{s.start}:{s.limit}" + (f":{s.stride}]" if strided else "]") for s in ranges) + "}"
    )


SLICE = Simple(parse_slice, print_slice)


# -- aliasing, sparsity -----------------------------------------------------------------------
def parse_operand_aliasing(r: TextReader) -> tuple[OperandAlias, ...]:
    r.expect(Tok.LBRACE, "'{' to start output_to_operand_aliasing")
    out: list[OperandAlias] = []
    while not r.lex.at(Tok.RBRACE):
        index = r.shape_index()
        r.expect(Tok.COLON, "':' after the output shape index")
        r.expect(Tok.LPAREN, "'(' before the operand number")
        operand = r.int64("an operand number")
        r.expect(Tok.COMMA, "',' after the operand number")
        operand_index = r.shape_index()
        r.expect(Tok.RPAREN, "')' after the operand shape index")
        out.append(OperandAlias(index, operand, operand_index))
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RBRACE, "'}' to end output_to_operand_aliasing")
    return tuple(out)


def print_operand_aliasing(aliases: tuple[OperandAlias, ...]) -> str:
    return (
        "{"
        + ", ".join(
            f"{ints_text(a.output_index)}: ({a.operand}, {ints_text(a.operand_index)})" for a in aliases
        )
        + "}"
    )


OPERAND_ALIASING = Simple(parse_operand_aliasing, print_operand_aliasing)


def _tensor_sparsity(r: TextReader) -> TensorSparsity:
    r.expect(Tok.LBRACE, "'{' to start a tensor sparsity config")
    values: dict[str, int] = {}
    while not r.lex.at(Tok.RBRACE):
        tok = r.lex.peek()
        name = r.attribute_name("sparsity=, dimension= or stride=")
        if name == "sparsity":
            nm = _dxd(r, "sparsity")
            if len(nm) != 2:
                raise r.error("expects 'num_non_zero:block_size'", tok)
            values["num_non_zero"], values["block_size"] = nm
        elif name in ("dimension", "stride"):
            values[name] = r.int64()
        else:
            raise r.error(f"unknown sparsity attribute '{name}'", tok)
    r.lex.next()
    return TensorSparsity(**values)


def parse_sparsity_config(r: TextReader) -> SparsityConfig:
    r.expect(Tok.LBRACE, "'{' to start sparsity_config")
    sides: dict[str, TensorSparsity] = {}
    while not r.lex.at(Tok.RBRACE):
        tok = r.lex.peek()
        name = r.attribute_name("lhs= or rhs=")
        if name not in ("lhs", "rhs"):
            raise r.error(f"unknown sparsity_config entry '{name}'", tok)
        sides[name] = _tensor_sparsity(r)
    r.lex.next()
    return SparsityConfig(**sides)


def _print_tensor_sparsity(side: str, t: TensorSparsity) -> str:
    return f"{side}={{sparsity={t.num_non_zero}x{t.block_size} dimension={t.dimension} stride={t.stride}}}"


def print_sparsity_config(c: SparsityConfig) -> str:
    parts = [_print_tensor_sparsity(k, v) for k, v in (("lhs", c.lhs), ("rhs", c.rhs)) if v is not None]
    return "{" + " ".join(parts) + "}"


SPARSITY_CONFIG = Simple(parse_sparsity_config, print_sparsity_config)
