"""Text of meshes, axis references and iota device arrays, as XLA's parser reads them (parser notes
§9.5, §9.6.2) and its printer writes them (printer notes §6.10, §6.16):
`mesh['x'=2,'y'=4]`, `mesh['a'=2,'b'=2], device_ids=(0,2,1,3)`, `maximal_mesh[device_id=5]`,
`'y'`, `'y':(2)2`, `[4,16]T(1,0)`."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager

from ..ir.mesh import AxisRef, Mesh, SubAxis
from ..ir.tile_assignment import TileAssignment
from .reader import TextReader
from .tokens import Tok, Token

_ATOI = re.compile(r"\s*[+-]?\d+\s*")  # absl::SimpleAtoi: an axis may be named by its index


@contextmanager
def value_errors(r: TextReader, tok: Token) -> Iterator[None]:
    """Report the ValueError of a value's validation as a ParseError at `tok`."""
    try:
        yield
    except ValueError as e:
        raise r.error(str(e), tok) from None


def ints(values: tuple[int, ...] | list[int]) -> str:
    return ",".join(map(str, values))


# -- iota arrays ------------------------------------------------------------------------------
def parse_iota_array(r: TextReader) -> tuple[list[int], list[int]]:
    """`[r1,r2,...]T(p1,p2,...)` (the `T(...)` only with more than one reshape dim)."""
    r.expect(Tok.LSQUARE, "'[' to start the iota reshape dims")
    reshape = [r.int64("an iota reshape dim")]
    while r.lex.eat(Tok.COMMA):
        reshape.append(r.int64("an iota reshape dim"))
    r.expect(Tok.RSQUARE, "']' to end the iota reshape dims")
    if len(reshape) == 1:
        return reshape, [0]
    tok = r.lex.peek()
    if tok.kind is not Tok.IDENT or tok.text != "T":
        raise r.error("expected 'T(' to start sharding devices iota_transpose_perm")
    r.lex.next()
    r.expect(Tok.LPAREN, "'T(' to start sharding devices iota_transpose_perm")
    perm: list[int] = []
    while True:
        tok = r.lex.peek()
        p = r.int64("an iota transpose dim")
        if not 0 <= p < len(reshape):
            raise r.error(
                f"Out of range iota minor_to_major value {p}, expecting value in range [0, {len(reshape)})",
                tok,
            )
        perm.append(p)
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RPAREN, "')' to end sharding devices iota_transpose_perm")
    return reshape, perm


def print_iota_array(reshape_dims: tuple[int, ...], perm: tuple[int, ...]) -> str:
    return f"[{ints(reshape_dims)}]" + (f"T({ints(perm)})" if len(reshape_dims) > 1 else "")


def print_device_array(ta: TileAssignment) -> str:
    """XLA's TileAssignment::ArrayToString: the iota form, or the ids joined by ','."""
    if ta.iota is not None:
        return print_iota_array(ta.iota.reshape_dims, ta.iota.transpose_perm)
    assert ta.devices is not None
    return ints(ta.devices)


# -- meshes -----------------------------------------------------------------------------------
def at_mesh(r: TextReader) -> bool:
    tok = r.lex.peek()
    return tok.kind is Tok.IDENT and tok.text in ("mesh", "maximal_mesh")


def parse_mesh(r: TextReader) -> Mesh:
    tok = r.lex.peek()
    if not at_mesh(r):
        raise r.error("expected 'mesh' or 'maximal_mesh'")
    r.lex.next()
    if tok.text == "maximal_mesh":
        r.expect(Tok.LSQUARE, "'[' after maximal_mesh")
        name = r.lex.peek()
        if name.kind is not Tok.ATTRIBUTE_NAME or name.text != "device_id":
            raise r.error("expected device_id= attribute in maximal_mesh")
        r.lex.next()
        device = r.int64("an integer device id")
        r.expect(Tok.RSQUARE, "']' to end maximal_mesh")
        return Mesh.maximal(device)
    r.expect(Tok.LSQUARE, "'[' after mesh")
    names: list[str] = []
    sizes: list[int] = []
    if not r.lex.at(Tok.RSQUARE):
        while True:
            names.append(r.string("a quoted axis name"))
            r.expect(Tok.EQUAL, "'=' after axis name")
            sizes.append(r.int64("an integer axis size"))
            if not r.lex.eat(Tok.COMMA):
                break
    r.expect(Tok.RSQUARE, "']' to end mesh axes")
    if not names:
        return Mesh()
    if (
        r.lex.at(Tok.COMMA)
        and r.lex.lookahead(1).kind is Tok.ATTRIBUTE_NAME
        and r.lex.lookahead(1).text == "device_ids"
    ):
        r.lex.next()
        r.lex.next()
        return _device_ids(r, tok, names, sizes)
    with value_errors(r, tok):
        return Mesh.iota(names, sizes)


def _device_ids(r: TextReader, mesh_tok: Token, names: list[str], sizes: list[int]) -> Mesh:
    """`(...)` after `device_ids=`: an iota `[4,16]T(1,0)` or the ids `0,2,1,3`."""
    r.expect(Tok.LPAREN, "'(' for device_ids")
    start = r.lex.peek()
    if r.lex.at(Tok.LSQUARE):
        reshape, perm = parse_iota_array(r)
        r.expect(Tok.RPAREN, "')' to end device_ids")
        with value_errors(r, start):
            return Mesh(tuple(names), TileAssignment.make_iota(sizes, reshape, perm))
    devices: list[int] = []
    if not r.lex.at(Tok.RPAREN):
        devices.append(r.int64("a device id"))
        while r.lex.eat(Tok.COMMA):
            devices.append(r.int64("a device id"))
    end = r.expect(Tok.RPAREN, "')' to end device_ids")
    if any(s < 0 for s in sizes):
        raise r.error("mesh axis sizes must not be negative", mesh_tok)
    expected = math.prod(sizes)
    if expected >= 2**63:
        raise r.error("mesh size overflows int64", end)
    if len(devices) != expected:
        raise r.error(f"Expected {expected} device_ids based on mesh axes, but got {len(devices)}", start)
    with value_errors(r, start):
        return Mesh(tuple(names), TileAssignment(tuple(sizes), devices=tuple(devices)))


def print_mesh(mesh: Mesh) -> str:
    if mesh.is_maximal:
        return f"maximal_mesh[device_id={mesh.maximal_device}]"
    axes = ",".join(f"'{n}'={s}" for n, s in zip(mesh.axis_names, mesh.axis_sizes))
    ids = (
        ""
        if mesh.is_simple_iota or mesh.num_devices == 0
        else f", device_ids=({print_device_array(mesh.devices)})"
    )
    return f"mesh[{axes}]{ids}"


# -- axis references --------------------------------------------------------------------------
def parse_axis_ref(r: TextReader, mesh: Mesh) -> AxisRef:
    """`'name'` or `'name':(pre_size)size`; the name may also be the axis number in quotes."""
    tok = r.lex.peek()
    name = r.string("a quoted mesh axis name")
    if name in mesh.axis_names:
        index = mesh.axis_names.index(name)
    elif _ATOI.fullmatch(name):
        index = int(name)
    else:
        raise r.error(f"axis '{name}' is not a valid axis name or index in mesh {print_mesh(mesh)}", tok)
    if not 0 <= index < mesh.num_axes:
        raise r.error(
            f"axis index {index} is out of bounds for mesh {print_mesh(mesh)} which has {mesh.num_axes} axes",
            tok,
        )
    if not r.lex.eat(Tok.COLON):
        return AxisRef(index)
    r.expect(Tok.LPAREN, "'(' before pre_size in sub axis")
    pre_size = r.int64("an integer sub-axis pre-size")
    r.expect(Tok.RPAREN, "')' after pre_size in sub axis")
    size = r.int64("an integer sub-axis size")
    with value_errors(r, tok):
        axis = AxisRef(index, SubAxis(pre_size, size))
        axis.validate(mesh)
    return axis


def parse_axis_list(r: TextReader, mesh: Mesh) -> tuple[AxisRef, ...]:
    """`{'a', 'b':(2)2}` (may be empty)."""
    return tuple(r.list_of(lambda: parse_axis_ref(r, mesh), Tok.LBRACE, Tok.RBRACE, "a list of mesh axes"))


def print_axis(axis: AxisRef, mesh: Mesh) -> str:
    return axis.text(mesh)


def print_axes(axes: tuple[AxisRef, ...], mesh: Mesh, sep: str = ", ") -> str:
    return sep.join(print_axis(a, mesh) for a in axes)
