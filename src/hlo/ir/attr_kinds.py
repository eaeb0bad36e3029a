"""The kinds of value an op attribute holds. An op schema (hlo.ops) declares each attribute by its
kind; the text layer picks the codec that parses and prints that kind (hlo.text.attr_codecs), so
the schemas know no text syntax."""

from __future__ import annotations

import enum
from dataclasses import dataclass


@dataclass(frozen=True)
class AttrKind:
    """A kind of attribute value, named as its HLO text spells it; `calls_computations` when its
    values name called computations."""

    name: str
    calls_computations: bool = False


@dataclass(frozen=True)
class EnumKind(AttrKind):
    """An attribute whose value is a member of `cls`, spelled by the member's value; `what` names
    the kind in errors ("a fusion kind"); `case_insensitive` as XLA's parser is for some."""

    cls: type[enum.Enum] = enum.Enum
    what: str = ""
    case_insensitive: bool = False


def enum_kind(cls: type[enum.Enum], what: str, case_insensitive: bool = False) -> EnumKind:
    return EnumKind(cls.__name__, False, cls, what, case_insensitive)


INT = AttrKind("int")
INT32 = AttrKind("int32")
BOOL = AttrKind("bool")
STRING = AttrKind("string")
RAW_STRING = AttrKind("raw string")  # printed without escaping (backend_config, ...)
FLOAT = AttrKind("float")
INT_LIST = AttrKind("int list")
INT_LIST_LIST = AttrKind("int list list")
BOOL_LIST = AttrKind("bool list")
SHAPE = AttrKind("shape")
SHAPE_LIST = AttrKind("shape list")
COMPUTATION = AttrKind("computation", calls_computations=True)
COMPUTATION_LIST = AttrKind("computation list", calls_computations=True)  # {a, b}
CALLS = AttrKind("calls", calls_computations=True)  # calls=a (fusions, async wrappers)
WINDOW = AttrKind("window")
DIM_LABELS = AttrKind("dim labels")
PADDING = AttrKind("padding")
SLICE = AttrKind("slice")
OPERAND_ALIASING = AttrKind("operand aliasing")
SPARSITY_CONFIG = AttrKind("sparsity config")
REPLICA_GROUPS = AttrKind("replica groups")
SOURCE_TARGET_PAIRS = AttrKind("source-target pairs")
DOMAIN = AttrKind("domain")
LITERAL = AttrKind("literal")  # a literal with its shape (custom-call's literal=)
PRECISION_LIST = AttrKind("precision list")  # operand_precision={default,high}
