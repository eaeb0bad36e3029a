"""Text of shardings and domains, both directions, as XLA's parser reads them (parser notes §9.6,
§9.7) and its printer writes them (printer notes §6.15, §6.16, §5.2 "domain"); replica groups and
source-target pairs (replica_groups_codec) are re-exported here. Each parse function reads the
value at the reader's position (after `sharding=`, `replica_groups=`, ...); each print function
returns the value text.

One deliberate difference from XLA's text parser: an `op_type="sdy::reduction_op"` metadata entry is
moved into the sharding's reduction op (as XLA's FromProto does) instead of being kept as metadata
too, so printing does not repeat it and parse(print(s)) == s.
"""

from __future__ import annotations

from ..ir.metadata import OpMetadata
from ..ir.sharding import (
    REDUCTION_OP_TYPE,
    Domain,
    HloSharding,
    NamedSharding,
    ReductionOp,
    ShardGroup,
    Sharding,
    ShardingKind,
    SubgroupType,
    TupleSharding,
)
from ..ir.tile_assignment import TileAssignment
from .lexer import Lexer
from .mesh_codec import at_mesh, ints, parse_iota_array, print_iota_array, value_errors
from .metadata_codec import print_metadata
from .named_sharding_codec import metadata_list, parse_named_sharding, print_named_sharding
from .reader import TextReader
from .replica_groups_codec import (
    parse_replica_groups,
    parse_replica_groups_string,
    parse_source_target_pairs,
    print_replica_groups,
    print_source_target_pairs,
)
from .tokens import Tok, Token, describe_token

__all__ = [
    "parse_domain",
    "parse_replica_groups",
    "parse_replica_groups_string",
    "parse_sharding",
    "parse_sharding_string",
    "parse_source_target_pairs",
    "print_domain",
    "print_replica_groups",
    "print_sharding",
    "print_source_target_pairs",
]

_SIMPLE = {k.value: k for k in (ShardingKind.REPLICATED, ShardingKind.MAXIMAL, ShardingKind.MANUAL,
                                ShardingKind.UNKNOWN, ShardingKind.UNREDUCED)}  # fmt: skip
_SUBGROUP_TYPES = {"maximal", "replicated", "manual", "unreduced"}


# -- shardings --------------------------------------------------------------------------------
def parse_sharding(r: TextReader) -> Sharding:
    """`{body}` (one sharding), `{}` (empty tuple) or `{{body}, {body}, ...}` (flat tuple)."""
    r.expect(Tok.LBRACE, "'{' to start sharding attribute")
    if not r.lex.at(Tok.LBRACE, Tok.RBRACE):
        return _leaf_body(r)
    elements = []
    if not r.lex.at(Tok.RBRACE):
        while True:
            r.expect(Tok.LBRACE, "'{' to start a sharding in the tuple")
            elements.append(_leaf_body(r))
            if not r.lex.eat(Tok.COMMA):
                break
    r.expect(Tok.RBRACE, "'}' to end sharding attribute")
    return TupleSharding(tuple(elements))


def _leaf_body(r: TextReader) -> HloSharding | NamedSharding:
    """The inside of one `{...}` after its '{', up to and including its '}'."""
    return parse_named_sharding(r) if at_mesh(r) else _classic_body(r)


def _classic_body(r: TextReader) -> HloSharding:
    """Items in any order, separated by spaces (parser notes §9.6.1)."""
    loc = r.lex.peek()
    flags: set[ShardingKind] = set()
    devices: list[int] = []
    tile_dims: list[int] | None = None
    iota: tuple[list[int], list[int]] | None = None
    types: list[str] | None = None
    last_replicate = False
    group: ShardGroup | None = None
    metadata: list[OpMetadata] = []
    while not r.lex.at(Tok.RBRACE):
        tok = r.lex.peek()
        if tok.kind is Tok.KEYWORD and tok.text in _SIMPLE:
            flags.add(_SIMPLE[r.lex.next().text])
        elif tok.kind is Tok.KEYWORD and tok.text == "last_tile_dim_replicate":
            r.lex.next()
            last_replicate = True
        elif tok.kind is Tok.KEYWORD and tok.text in ("shard_as", "shard_like"):
            r.lex.next()
            # as XLA: shard_as wins over shard_like, the group id is the last one written
            shard_as = tok.text == "shard_as" or (group is not None and group.shard_as)
            group = ShardGroup(shard_as, r.int64(f"an integer group id after {tok.text}"))
        elif tok.kind is Tok.ATTRIBUTE_NAME and tok.text == "device":
            r.lex.next()
            if not r.lex.at(Tok.INT):
                raise r.error("device= attribute must be an integer")
            devices = [r.int64()]
        elif tok.kind is Tok.ATTRIBUTE_NAME and tok.text == "devices":
            r.lex.next()
            tile_dims, iota, explicit = _tile_assignment(r)
            devices = explicit if iota is None else devices
        elif tok.kind is Tok.ATTRIBUTE_NAME and tok.text == "metadata":
            r.lex.next()
            metadata += metadata_list(r)
        elif tok.kind is Tok.ATTRIBUTE_NAME and tok.text == "last_tile_dims":
            r.lex.next()
            types = r.list_of(lambda: _subgroup_type(r), Tok.LBRACE, Tok.RBRACE, "a sharding type list")
        elif tok.kind is Tok.ATTRIBUTE_NAME:
            raise r.error(
                "unknown attribute in sharding: expected device=, devices=, metadata= or last_tile_dims="
            )
        else:
            raise r.error(
                f"unexpected {describe_token(tok)} in sharding: expected replicated, maximal, manual, "
                "unknown, unreduced, device=, devices=, last_tile_dim_replicate, last_tile_dims=, "
                "shard_as, shard_like, metadata= or '}'"
            )
    with value_errors(r, loc):
        sharding = _resolve(flags, devices, tile_dims, iota, types, last_replicate, metadata)
    r.lex.next()
    return sharding.with_shard_group(group).with_reduction_from_metadata()


def _resolve(
    flags: set[ShardingKind],
    devices: list[int],
    tile_dims: list[int] | None,
    iota: tuple[list[int], list[int]] | None,
    types: list[str] | None,
    last_replicate: bool,
    md: list[OpMetadata],
) -> HloSharding:
    """Which sharding the items describe, checked in XLA's order (parser notes §9.6.1)."""
    for kind in (ShardingKind.REPLICATED, ShardingKind.MAXIMAL, ShardingKind.MANUAL,
                 ShardingKind.UNKNOWN, ShardingKind.UNREDUCED):  # fmt: skip
        if kind not in flags:
            continue
        if kind is ShardingKind.MAXIMAL:
            if len(devices) != 1:
                raise ValueError("maximal shardings should have exactly one device assigned")
            return HloSharding.maximal(devices[0], md)
        if devices:
            raise ValueError(f"{kind.value} shardings should not have any devices assigned")
        return HloSharding(kind, metadata=tuple(md))
    if tile_dims is None:
        raise ValueError("non-maximal shardings must have a tile assignment list including dimensions")
    if last_replicate and types is not None:
        raise ValueError("last_tile_dim_replicate and last_tile_dims= cannot be used together")
    subgroups = [SubgroupType(t) for t in types or ()] + ([SubgroupType.REPLICATED] if last_replicate else [])
    if iota is not None:
        if devices:
            raise ValueError("an iota tile assignment cannot be combined with device=")
        tiles = TileAssignment.make_iota(tile_dims, *iota)
    else:
        if len(devices) <= 1:
            raise ValueError("non-maximal shardings must have more than one device assigned")
        tiles = TileAssignment(tuple(tile_dims), devices=tuple(devices))
    return HloSharding.subgroup(tiles, subgroups, md) if subgroups else HloSharding.tile(tiles, md)


def _subgroup_type(r: TextReader) -> str:
    tok = r.lex.peek()
    if tok.kind is not Tok.KEYWORD or tok.text not in _SUBGROUP_TYPES:
        raise r.error(f"expected maximal, replicated, manual or unreduced, found {describe_token(tok)}")
    return r.lex.next().text


def _tile_assignment(r: TextReader) -> tuple[list[int], tuple[list[int], list[int]] | None, list[int]]:
    """`[d1,d2,...]` then `<=[...]T(...)` (an iota) or `id,id,...` (explicit devices)."""
    r.expect(Tok.LSQUARE, "'[' to start sharding devices shape")
    dims = [r.int64("a tile assignment dimension")]
    while r.lex.eat(Tok.COMMA):
        dims.append(r.int64("a tile assignment dimension"))
    r.expect(Tok.RSQUARE, "']' to end sharding devices shape")
    if r.lex.eat(Tok.LEQ):
        return dims, parse_iota_array(r), []
    devices = [r.int64("a device id")]
    while r.lex.eat(Tok.COMMA):
        devices.append(r.int64("a device id"))
    return dims, None, devices


def print_sharding(s: Sharding, include_metadata: bool = True) -> str:
    """The value of `sharding=` (HloSharding::ToString)."""
    if isinstance(s, TupleSharding):
        if not s.elements:
            return "{}"
        parts = [print_sharding(s.elements[0], include_metadata)]
        for i, e in enumerate(s.elements[1:], 1):
            parts.append((f", /*index={i}*/" if i % 5 == 0 else ", ") + print_sharding(e, include_metadata))
        return "{" + "".join(parts) + "}"
    if isinstance(s, NamedSharding):
        return print_named_sharding(s, include_metadata)
    group = (
        ""
        if s.shard_group is None
        else f" {'shard_as' if s.shard_group.shard_as else 'shard_like'} {s.shard_group.group_id}"
    )
    tail = group + (_classic_metadata(s) if include_metadata else "") + "}"
    if s.kind is ShardingKind.MAXIMAL:
        return f"{{maximal device={s.device}{tail}"
    if s.tile_assignment is None:
        return "{" + s.kind.value + tail
    ta = s.tile_assignment
    text = "{devices=[" + ints(ta.dims) + "]"
    if ta.iota is not None:
        text += "<=" + print_iota_array(ta.iota.reshape_dims, ta.iota.transpose_perm)
    else:
        assert ta.devices is not None
        text += ints(ta.devices)
    if s.replicate_on_last_tile_dim:
        text += " last_tile_dim_replicate"
    if s.subgroup_types:
        text += " last_tile_dims={" + ", ".join(t.value for t in s.subgroup_types) + "}"
    return text + tail


def _classic_metadata(s: HloSharding) -> str:
    """` metadata=...` with a synthetic reduction-op entry where the reduction matters."""
    entries = list(s.metadata)
    if (
        s.kind is ShardingKind.UNREDUCED
        or s.reduction_op is not ReductionOp.SUM
        or SubgroupType.UNREDUCED in s.subgroup_types
    ):
        entries.append(OpMetadata(op_type=REDUCTION_OP_TYPE, op_name=s.reduction_op.name))
    if not entries:
        return ""
    if len(entries) == 1:
        return " metadata={" + print_metadata(entries[0]) + "}"
    return " metadata={" + ", ".join("{" + print_metadata(m) + "}" for m in entries) + "}"


def parse_sharding_string(text: str) -> Sharding:
    """A whole string that is one sharding value, e.g. `"{devices=[2,2]<=[4]}"`."""
    r = TextReader(Lexer(text, "<sharding>"))
    s = parse_sharding(r)
    r.expect(Tok.EOF, "the end of the sharding")
    return s


# -- domain -----------------------------------------------------------------------------------
def parse_domain(r: TextReader) -> Domain:
    """`{kind="sharding", entry={...}, exit={...}}` (parser notes §9.7)."""
    start = r.lex.peek()
    kind: list[tuple[str, Token]] = []
    shardings: dict[str, Sharding] = {}

    def value(name: str, tok: Token) -> None:
        if name == "kind":
            kind_tok = r.lex.peek()
            kind.append((r.string("a string domain kind"), kind_tok))
        elif name in ("entry", "exit"):
            shardings[name] = parse_sharding(r)
        else:
            raise r.error(f"unknown domain attribute '{name}': expected kind, entry or exit", tok)

    r.sub_attributes(value, "domain")
    for name in ("entry", "exit", "kind"):
        if name not in shardings and not (name == "kind" and kind):
            raise r.error(f"sub-attribute {name} is expected but not seen", start)
    text, kind_tok = kind[0]
    if text != "sharding":
        raise r.error(f"unsupported domain kind: {text}", kind_tok)
    return Domain(text, shardings["entry"], shardings["exit"])


def print_domain(d: Domain) -> str:
    """Shardings without metadata, as XLA's ShardingMetadata::ToString."""
    return (
        f'{{kind="{d.kind}", entry={print_sharding(d.entry, include_metadata=False)}, '
        f"exit={print_sharding(d.exit, include_metadata=False)}}}"
    )
