"""The syntax tree of an MLIR module as the StableHLO reader sees it: a module of functions, each
a block of ops; an op has result names and types, operand names, attributes and regions. Pretty
and generic forms parse to the same tree (pretty keywords are stored under the generic attribute
names by `pretty.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..shape import Shape


@dataclass
class Block:
    args: list[tuple[str, Shape]] = field(default_factory=list)
    ops: list[Op] = field(default_factory=list)
    arg_locs: dict[str, Any] = field(default_factory=dict)  # block argument -> its loc(...)
    implied: bool = False  # written `applies stablehlo.add`: its ops have the enclosing op's loc


@dataclass
class Op:
    name: str  # "stablehlo.add", "func.call", "chlo.erf", ...
    pos: int  # offset of the op's first character (its results, or its name)
    results: list[str] = field(default_factory=list)  # "%0" or "%0#1" for multi-result ops
    result_types: list[Shape] = field(default_factory=list)
    operands: list[str] = field(default_factory=list)
    attrs: dict[str, Any] = field(default_factory=dict)
    regions: list[list[Block]] = field(default_factory=list)
    name_pos: int = 0  # offset of the op name
    loc: Any = None


@dataclass
class Func:
    name: str
    pos: int
    public: bool
    args: list[tuple[str, Shape]]
    arg_attrs: list[dict[str, Any]]
    result_types: list[Shape]
    result_attrs: list[dict[str, Any]]
    attrs: dict[str, Any]
    body: Block


@dataclass
class MlirModule:
    name: str | None
    attrs: dict[str, Any]
    funcs: list[Func]
    pos: int = 0
    aliases: dict[str, Any] = field(default_factory=dict)  # `#loc3 = loc(...)` definitions
