"""Text of a collective's replica groups and a collective-permute's source-target pairs, both
directions (parser notes §9.5, printer notes §6.8, §6.9): `{{0,1},{2,3}}`, `[2,10]<=[20]`,
`[3,10]<=[6,5]T(1,0)`, `mesh['x'=2,'y'=2] {'y'}`, `maximal_mesh[device_id=1] {}`;
`{{0,1},{1,2}}`."""

from __future__ import annotations

from ..ir.replica_groups import ExplicitReplicaGroups, IotaReplicaGroups, MeshAxesReplicaGroups, ReplicaGroups
from .lexer import Lexer
from .mesh_codec import (
    at_mesh,
    ints,
    parse_axis_list,
    parse_iota_array,
    parse_mesh,
    print_axes,
    print_iota_array,
    print_mesh,
    value_errors,
)
from .reader import TextReader
from .tokens import Tok, describe_token


def parse_replica_groups(r: TextReader) -> ReplicaGroups:
    """`{{0,1},{2,3}}`, `[2,10]<=[20]` or `mesh['x'=2,'y'=2] {'y'}` (parser notes §9.5)."""
    tok = r.lex.peek()
    if tok.kind is Tok.LBRACE:
        return ExplicitReplicaGroups(r.int_list_list("replica groups"))
    if at_mesh(r):
        mesh = parse_mesh(r)
        axes_tok = r.lex.peek()
        axes = parse_axis_list(r, mesh)
        with value_errors(r, axes_tok):
            return MeshAxesReplicaGroups(mesh, axes)
    if not r.lex.at(Tok.LSQUARE):
        raise r.error(
            "expected replica groups ({...}, [G,S]<=[...] or mesh[...] {...}), "
            f"found {describe_token(tok)}"
        )
    dims, iota = _iota_dims(r)
    if len(dims) != 2:
        raise r.error(f"iota replica groups need 2 dimensions [groups,group_size], found {len(dims)}", tok)
    with value_errors(r, tok):
        return IotaReplicaGroups(dims[0], dims[1], tuple(iota[0]), tuple(iota[1]))


def _iota_dims(r: TextReader) -> tuple[list[int], tuple[list[int], list[int]]]:
    r.expect(Tok.LSQUARE, "'[' to start the replica group dims")
    dims = [r.int64("a replica group dimension")]
    while r.lex.eat(Tok.COMMA):
        dims.append(r.int64("a replica group dimension"))
    r.expect(Tok.RSQUARE, "']' to end the replica group dims")
    if not r.lex.eat(Tok.LEQ):
        raise r.error(
            "Caller expected iota tile assignment when parsing, which should not have any manual "
            "device entries."
        )
    return dims, parse_iota_array(r)


def print_replica_groups(g: ReplicaGroups, full: bool = False) -> str:
    """The value of `replica_groups=`; `full` lists the groups of any form explicitly (XLA's
    print_full_replica_group_list)."""
    if full or isinstance(g, ExplicitReplicaGroups):
        return "{" + ",".join("{" + ints(group) + "}" for group in g.groups()) + "}"
    if isinstance(g, IotaReplicaGroups):
        return f"[{g.num_groups},{g.group_size}]<=" + print_iota_array(g.reshape_dims, g.transpose_perm)
    return print_mesh(g.mesh) + " {" + print_axes(g.axes, g.mesh, ",") + "}"


def parse_replica_groups_string(text: str) -> ReplicaGroups:
    r = TextReader(Lexer(text, "<replica_groups>"))
    g = parse_replica_groups(r)
    r.expect(Tok.EOF, "the end of the replica groups")
    return g


def parse_source_target_pairs(r: TextReader) -> tuple[tuple[int, int], ...]:
    """`{{0,1},{1,2}}`: (source, target) device pairs of a collective-permute."""
    tok = r.lex.peek()
    lists = r.int_list_list("source_target_pairs")
    if any(len(pair) != 2 for pair in lists):
        raise r.error("expects 'source_target_pairs=' to be a list of pairs", tok)
    return tuple((pair[0], pair[1]) for pair in lists)


def print_source_target_pairs(pairs: tuple[tuple[int, int], ...]) -> str:
    return "{" + ",".join(f"{{{s},{t}}}" for s, t in pairs) + "}"
