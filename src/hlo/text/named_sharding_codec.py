"""Text of named (mesh) shardings: `{mesh['a'=2,'b'=4], [{'a'}, {'b':(2)2, ?}], replicated={...},
unreduced=max{...}, manual={...}, metadata={{...}}}` and the short forms `{mesh[...], replicated}`,
`{mesh[...], unreduced}`, `{mesh[...], manual}`, `{maximal_mesh[device_id=N]}` (parser notes §9.6.2,
printer notes §6.16)."""

from __future__ import annotations

from typing import Any

from ..ir.mesh import AxisRef, Mesh
from ..ir.metadata import OpMetadata
from ..ir.sharding import DimSharding, NamedSharding, ReductionOp
from .mesh_codec import (
    parse_axis_list,
    parse_axis_ref,
    parse_mesh,
    print_axes,
    print_axis,
    print_mesh,
    value_errors,
)
from .metadata_codec import parse_metadata, print_metadata
from .reader import TextReader
from .tokens import Tok, describe_token

_OPS = {op.value: op for op in ReductionOp}


def metadata_list(r: TextReader) -> tuple[OpMetadata, ...]:
    """After `metadata=`: one `{op_name="a" ...}` or a list `{{...}, {...}}`."""
    if r.lex.at(Tok.LBRACE) and r.lex.lookahead(1).kind is Tok.LBRACE:
        return tuple(r.list_of(lambda: parse_metadata(r), Tok.LBRACE, Tok.RBRACE, "a metadata list"))
    return (parse_metadata(r),)


def parse_named_sharding(r: TextReader) -> NamedSharding:
    """The inside of `{...}` starting at `mesh`/`maximal_mesh`, up to and including the '}'."""
    start = r.lex.peek()
    mesh = parse_mesh(r)
    fields: dict[str, Any] = {}

    def done() -> NamedSharding:
        with value_errors(r, start):
            sharding = NamedSharding(mesh, **fields)
        r.expect(Tok.RBRACE, "'}' to end sharding attribute")
        return sharding

    def trailing_metadata() -> NamedSharding:
        if r.lex.eat(Tok.COMMA):
            tok = r.lex.peek()
            if tok.kind is not Tok.ATTRIBUTE_NAME or tok.text != "metadata":
                raise r.error(f"expected metadata= after ',', found {describe_token(tok)}")
            r.lex.next()
            fields["metadata"] = metadata_list(r)
        return done()

    if mesh.is_maximal:
        return trailing_metadata()
    r.lex.eat(Tok.COMMA)
    tok = r.lex.peek()
    if tok.kind is Tok.KEYWORD and tok.text in ("replicated", "manual"):
        r.lex.next()
        if tok.text == "manual":
            fields["manual_axes"] = mesh.all_axes()
        return trailing_metadata()
    if (tok.kind is Tok.KEYWORD or tok.kind is Tok.ATTRIBUTE_NAME) and tok.text == "unreduced":
        r.lex.next()
        if tok.kind is Tok.ATTRIBUTE_NAME or r.lex.eat(Tok.EQUAL):
            fields["reduction_op"] = _reduction_op(r)
        fields["unreduced_axes"] = parse_axis_list(r, mesh) if r.lex.at(Tok.LBRACE) else mesh.all_axes()
        return trailing_metadata()
    fields["dims"] = tuple(
        r.list_of(lambda: _dim_sharding(r, mesh), Tok.LSQUARE, Tok.RSQUARE, "dimension shardings")
    )
    while not r.lex.at(Tok.RBRACE):
        r.expect(Tok.COMMA, "',' before next attribute")
        tok = r.lex.peek()
        name = r.attribute_name("replicated=, unreduced=, manual= or metadata=")
        if name == "unreduced" and r.lex.at(Tok.IDENT, Tok.ATTRIBUTE_NAME):
            fields["reduction_op"] = _reduction_op(r)
        if name in ("replicated", "unreduced", "manual"):  # a repeated attribute adds on, as XLA
            fields[name + "_axes"] = fields.get(name + "_axes", ()) + parse_axis_list(r, mesh)
        elif name == "metadata":
            fields["metadata"] = fields.get("metadata", ()) + metadata_list(r)
        else:
            raise r.error(
                "unknown attribute in named sharding: expected replicated, unreduced, manual or metadata", tok
            )
    return done()


def _reduction_op(r: TextReader) -> ReductionOp:
    tok = r.lex.peek()
    if tok.kind not in (Tok.IDENT, Tok.ATTRIBUTE_NAME) or tok.text not in _OPS:
        raise r.error(f"expected sum, max, or min for unreduced op, found {describe_token(tok)}")
    r.lex.next()
    return _OPS[tok.text]


def _dim_sharding(r: TextReader, mesh: Mesh) -> DimSharding:
    """`{'a', 'b':(2)2}`, with `?` last if the dimension is open."""
    axes: list[AxisRef] = []
    closed = True

    def item() -> None:
        nonlocal closed
        if not closed:
            raise r.error("Saw axis ref after '?'")
        if r.lex.eat(Tok.QUESTION):
            closed = False
        else:
            axes.append(parse_axis_ref(r, mesh))

    r.list_of(item, Tok.LBRACE, Tok.RBRACE, "a dimension sharding")
    return DimSharding(tuple(axes), closed)


def print_named_sharding(s: NamedSharding, include_metadata: bool = True) -> str:
    """XLA's NamedSharding::ToString (printer notes §6.16)."""
    mesh = s.mesh
    md = ""
    if include_metadata and s.metadata:
        md = ", metadata={" + ", ".join("{" + print_metadata(m) + "}" for m in s.metadata) + "}"
    head = "{" + print_mesh(mesh)
    op = "" if s.reduction_op is ReductionOp.SUM else s.reduction_op.value
    if s.is_replicated and not s.dims and not s.replicated_axes:
        return head + ", replicated" + md + "}"
    if s.is_maximal:
        return head + md + "}"
    if s.is_unreduced and not s.dims:
        axes = s.unreduced_axes
        listed = "{" + print_axes(axes, mesh) + "}" if 0 < len(axes) < mesh.num_axes else ""
        return head + ", unreduced" + ("=" + op if op else "") + listed + md + "}"
    if s.is_manual and not s.dims:
        return head + ", manual" + md + "}"
    text = head + ", [" + ", ".join(_print_dim(d, mesh) for d in s.dims) + "]"
    if s.replicated_axes:
        text += ", replicated={" + print_axes(s.replicated_axes, mesh) + "}"
    if s.unreduced_axes:
        text += ", unreduced=" + op + "{" + print_axes(s.unreduced_axes, mesh) + "}"
    if s.manual_axes:
        text += ", manual={" + print_axes(s.manual_axes, mesh) + "}"
    return text + md + "}"


def _print_dim(d: DimSharding, mesh: Mesh) -> str:
    axes = [print_axis(a, mesh) for a in d.axes]
    if not d.is_closed:
        axes.append("?")
    return "{" + ", ".join(axes) + "}"
