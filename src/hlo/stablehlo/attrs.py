"""MLIR attribute values as Python values: integers, floats, bools, strings, lists, dicts, dense
arrays (`array<i64: 1, 2>` -> tuple), dense elements (`dense<...> : tensor<...>` -> Dense),
dialect enums (`#stablehlo<comparison_direction EQ>` -> Enum), dialect structs
(`#stablehlo.gather<offset_dims = [1], ...>` -> Struct), symbol references, types. Attributes
this reader does not interpret (`#sdy.sharding<...>`, locations) are kept as Raw text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .cursor import Cursor
from .types import MType, ScalarType, parse_type

_DIALECT_ATTR = re.compile(r"#[A-Za-z_][\w$]*(?:\.[\w$]+)*")
_HEX = re.compile(r"0x[0-9A-Fa-f]+")


@dataclass(frozen=True)
class Dense:
    """`dense<payload> : type`: the payload as written (nested lists of numbers, bools and
    (re, im) pairs; a hex string of raw bytes; a hex integer bit pattern), decoded later against
    the type."""

    payload: Any
    type: MType
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Hex:
    """A hex number in a dense payload: the element's bit pattern (`0x7FC00000` is a NaN)."""

    bits: int


@dataclass(frozen=True)
class HexBytes:
    """A dense payload written as one hex string of the raw little-endian buffer."""

    data: bytes


@dataclass(frozen=True)
class Enum:
    """`#dialect<kind VALUE>`, e.g. kind 'comparison_direction', value 'EQ'."""

    kind: str
    value: str


@dataclass(frozen=True)
class Struct:
    """`#dialect.name<key = value, ...>`."""

    name: str
    fields: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(frozen=True)
class Raw:
    """An attribute kept as its text (shardings of other dialects, unknown dialect attributes)."""

    text: str


@dataclass(frozen=True)
class Symbol:
    name: str


@dataclass(frozen=True)
class Typed:
    """A number with its type: `1 : i64`."""

    value: Any
    type: MType


def parse_attr(c: Cursor) -> Any:
    """One attribute value at the cursor."""
    c.skip()
    if c.at('"'):
        return c.string()
    if c.at("@"):
        return Symbol(c.symbol())
    if c.at("["):
        return _list(c)
    if c.at("{"):
        return parse_dict(c)
    if c.at("#"):
        return _dialect_attr(c)
    if c.at_word("true"):
        c.eat_word("true")
        return _maybe_typed(c, True)
    if c.at_word("false"):
        c.eat_word("false")
        return _maybe_typed(c, False)
    if c.at_word("unit"):
        c.eat_word("unit")
        return True
    if c.at_word("dense"):
        return _dense(c)
    if c.at_word("dense_resource"):
        raise c.error("dense_resource constants are not supported: write the values inline (dense<...>)")
    if c.at_word("array"):
        return _array(c)
    if c.at_number():
        text = c.number_text()
        value: Any = _number(text)
        return _maybe_typed(c, value)
    if c.at("loc("):
        return Raw(c.bare() + c.balanced("(", ")"))
    if c.at("("):
        return _function_type(c)
    return parse_type(c)


def _function_type(c: Cursor) -> tuple[str, list[Any], list[Any]]:
    """`(T, ...) -> R` or `-> (R, ...)`: ("function", params, results)."""
    params = _type_list(c)
    c.expect("->")
    results = _type_list(c) if c.at("(") else [parse_type(c)]
    return ("function", params, results)


def _type_list(c: Cursor) -> list[Any]:
    c.expect("(")
    out: list[Any] = []
    if not c.eat(")"):
        while True:
            out.append(parse_type(c))
            if c.eat(")"):
                break
            c.expect(",")
    return out


def _number(text: str) -> Any:
    if _HEX.fullmatch(text.lstrip("+-")):
        return int(text, 16)
    if re.fullmatch(r"[-+]?\d+", text):
        return int(text)
    return float(text)


def _maybe_typed(c: Cursor, value: Any) -> Any:
    save = c.pos
    if c.eat(":") and not c.at(":"):
        try:
            return Typed(value, parse_type(c))
        except Exception:
            c.pos = save
            return value
    c.pos = save
    return value


def parse_dict(c: Cursor) -> dict[str, Any]:
    """`{name = value, flag, ...}`: an attribute dictionary."""
    c.expect("{")
    out: dict[str, Any] = {}
    if c.eat("}"):
        return out
    while True:
        key = c.string() if c.at('"') else c.bare("an attribute name")
        out[key] = parse_attr(c) if c.eat("=") else True
        if c.eat("}"):
            return out
        c.expect(",", "',' or '}' in an attribute dictionary")


def _list(c: Cursor) -> list[Any]:
    c.expect("[")
    items: list[Any] = []
    if c.eat("]"):
        return items
    while True:
        items.append(parse_attr(c))
        if c.eat("]"):
            return items
        c.expect(",", "',' or ']' in a list")


def _array(c: Cursor) -> tuple[Any, ...]:
    c.eat_word("array")
    c.expect("<")
    parse_type(c)
    items: list[Any] = []
    if c.eat(":"):
        while not c.at(">"):
            if c.at_word("true") or c.at_word("false"):
                items.append(c.bare() == "true")
            else:
                items.append(_number(c.number_text()))
            if not c.eat(","):
                break
    c.expect(">")
    return tuple(items)


def _dense(c: Cursor) -> Dense:
    c.eat_word("dense")
    pos = c.pos
    c.expect("<")
    payload: Any = None if c.at(">") else _payload(c)
    c.expect(">")
    c.expect(":", "':' and the type of a dense constant")
    return Dense(payload, parse_type(c), pos)


def _payload(c: Cursor) -> Any:
    c.skip()
    if c.at('"'):
        text = c.string()
        if not text.startswith("0x"):
            raise c.error('a dense string payload must be hex bytes ("0x...")')
        try:
            return HexBytes(bytes.fromhex(text[2:]))
        except ValueError:
            raise c.error("malformed hex bytes in a dense payload") from None
    if c.at("["):
        c.expect("[")
        items: list[Any] = []
        if not c.eat("]"):
            while True:
                items.append(_payload(c))
                if c.eat("]"):
                    break
                c.expect(",", "',' or ']' in a dense payload")
        return items
    if c.at("("):
        c.expect("(")
        re_ = _payload(c)
        c.expect(",")
        im = _payload(c)
        c.expect(")")
        return (re_, im)
    if c.at_word("true") or c.at_word("false"):
        return c.bare() == "true"
    text = c.number_text()
    if _HEX.fullmatch(text):
        return Hex(int(text, 16))
    return _number(text)


def _dialect_attr(c: Cursor) -> Any:
    start = c.pos
    name = c.match(_DIALECT_ATTR, "a dialect attribute (#name)")
    if not c.at("<"):
        return Raw(name)  # an alias (#loc3, #map) or a bare dialect attribute
    if "." not in name:  # `#stablehlo<precision DEFAULT>`: an enum
        body = c.balanced("<", ">")[1:-1].strip()
        kind, _, value = body.partition(" ")
        return Enum(kind, value.strip())
    save = c.pos
    try:
        return Struct(name[1:], _struct_fields(c))
    except Exception:
        c.pos = save
        c.balanced("<", ">")
        return Raw(c.text[start : c.pos])


def _struct_fields(c: Cursor) -> dict[str, Any]:
    c.expect("<")
    out: dict[str, Any] = {}
    if c.eat(">"):
        return out
    while True:
        key = c.bare("a field name")
        c.expect("=")
        out[key] = parse_attr(c)
        if c.eat(">"):
            return out
        c.expect(",")


def ints(value: Any) -> tuple[int, ...]:
    """An integer list from any of its MLIR spellings (list, array<i64: ...>, dense<...>)."""
    if isinstance(value, Dense):
        return tuple(int(x) for x in _flat(value.payload))
    if isinstance(value, Typed):
        return ints(value.value)
    if isinstance(value, (list, tuple)):
        return tuple(int(x.value if isinstance(x, Typed) else x) for x in value)
    if isinstance(value, int):
        return (value,)
    raise TypeError(f"not an integer list: {value!r}")


def scalar(value: Any) -> Any:
    """A number or bool without its type annotation."""
    return value.value if isinstance(value, Typed) else value


def word(value: Any) -> str:
    """The text of an enum-like value: `EQ`, `#stablehlo<comparison_direction EQ>`."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, ScalarType):
        return value.name
    if isinstance(value, Raw):
        return value.text
    return str(value)


def _flat(payload: Any) -> list[Any]:
    if isinstance(payload, list):
        return [x for p in payload for x in _flat(p)]
    return [payload]
