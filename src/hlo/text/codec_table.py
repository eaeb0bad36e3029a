"""The codec of each attribute kind (hlo.ir.attr_kinds): op schemas declare kinds, the parser and
printer ask here for the codec that reads and writes a kind's values."""

from __future__ import annotations

import functools
from typing import Any

from ..ir import attr_kinds as kinds
from ..ir.attrs import Precision
from . import array_attr_codecs as a
from . import attr_codecs as c
from .literal_codec import parse_untyped_literal, print_literal
from .reader import TextReader
from .replica_groups_codec import (
    parse_replica_groups,
    parse_source_target_pairs,
    print_replica_groups,
    print_source_target_pairs,
)
from .sharding_codec import parse_domain, print_domain
from .tokens import Tok


def _read_precisions(r: TextReader) -> tuple[Precision, ...]:
    return tuple(
        r.list_of(
            lambda: r.enum(Precision, "a precision", case_insensitive=True),
            Tok.LBRACE,
            Tok.RBRACE,
            "operand_precision",
        )
    )


CODECS: dict[kinds.AttrKind, c.Codec] = {
    kinds.INT: c.INT,
    kinds.INT32: c.INT32,
    kinds.BOOL: c.BOOL,
    kinds.STRING: c.STRING,
    kinds.RAW_STRING: c.RAW_STRING,
    kinds.FLOAT: c.FLOAT,
    kinds.INT_LIST: c.INT_LIST,
    kinds.INT_LIST_LIST: c.INT_LIST_LIST,
    kinds.BOOL_LIST: c.BOOL_LIST,
    kinds.SHAPE: c.SHAPE,
    kinds.SHAPE_LIST: c.SHAPE_LIST,
    kinds.COMPUTATION: c.COMPUTATION,
    kinds.COMPUTATION_LIST: c.COMPUTATION_LIST,
    kinds.CALLS: c.CALLS,
    kinds.WINDOW: a.WINDOW,
    kinds.DIM_LABELS: a.DIM_LABELS,
    kinds.PADDING: a.PADDING,
    kinds.SLICE: a.SLICE,
    kinds.OPERAND_ALIASING: a.OPERAND_ALIASING,
    kinds.SPARSITY_CONFIG: a.SPARSITY_CONFIG,
    kinds.REPLICA_GROUPS: c.Simple(parse_replica_groups, print_replica_groups),
    kinds.SOURCE_TARGET_PAIRS: c.Simple(parse_source_target_pairs, print_source_target_pairs),
    kinds.DOMAIN: c.Simple(parse_domain, print_domain),
    kinds.LITERAL: c.Simple(parse_untyped_literal, lambda v: print_literal(v, with_shape=True)),
    kinds.PRECISION_LIST: c.Simple(_read_precisions, lambda v: "{" + ",".join(p.value for p in v) + "}"),
}


@functools.cache
def codec_of(kind: kinds.AttrKind) -> c.Codec:
    """The codec of an attribute kind."""
    if isinstance(kind, kinds.EnumKind):
        return c.EnumCodec(kind.cls, kind.what, kind.case_insensitive)
    return CODECS[kind]


class _NoContext:
    """Printing outside a module: computation names as they are, with '%'."""

    percent = True

    def computation_name(self, name: str) -> str:
        return "%" + name


def spell_attribute(kind: kinds.AttrKind, value: Any) -> str:
    """An attribute value as HLO text writes it (for messages)."""
    return codec_of(kind).print(value, _NoContext())
