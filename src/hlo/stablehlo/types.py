"""MLIR types of StableHLO as HLO shapes: `tensor<2x3xf32>` is `f32[2,3]{1,0}` (with XLA's default
layout, as XLA's StableHLO -> HLO conversion gives), `tuple<...>` a tuple shape,
`!stablehlo.token` a token. Bounded dynamic dimensions (`tensor<?x4xf32,
#stablehlo.bounds<8, ?>>`) become `f32[<=8,4]`; unbounded ones and quantized element types have
no HLO equivalent and are errors naming the place. Function types (`(T, ...) -> T`) are read
here too."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import dtypes
from ..dtypes import PrimitiveType
from ..shape import Shape
from .cursor import Cursor

_DIM = re.compile(r"(\d+|\?)x")
_INT_TYPE = re.compile(r"(s|u)?i(\d+)")


@dataclass(frozen=True)
class ScalarType:
    """A builtin non-tensor type (`i64`, `f32`, `index`, `none`...), as attribute values carry."""

    name: str


MType = Shape | ScalarType


def element_type(name: str) -> PrimitiveType | None:
    """The HLO element type of an MLIR element type name (`i1`, `ui8`, `bf16`, `f8E4M3FN`...)."""
    if name == "index":  # layouts and sizes in attributes: 64-bit, as XLA reads them
        return PrimitiveType.S64
    m = _INT_TYPE.fullmatch(name)
    if m:
        if m.group(2) == "1" and m.group(1) is None:
            return PrimitiveType.PRED
        text = ("u" if m.group(1) == "u" else "s") + m.group(2)
    else:
        text = name.lower()
    ptype = dtypes.from_text(text)
    if ptype is None or not ptype.is_array_type:
        return None
    return ptype


def parse_type(c: Cursor) -> MType:
    """One type at the cursor."""
    c.skip()
    start = c.pos
    if c.eat_word("tensor"):
        return _tensor(c, start)
    if c.eat_word("tuple"):
        c.expect("<")
        parts: list[Shape] = []
        if not c.eat(">"):
            while True:
                parts.append(value_type(c))
                if c.eat(">"):
                    break
                c.expect(",", "',' or '>' in a tuple type")
        return Shape.make_tuple(parts)
    if c.eat("!stablehlo.token") or c.eat("!mhlo.token"):
        return Shape.token()
    if c.at("!quant.") or c.at("!quant<"):
        raise c.error("quantized types are not supported: HLO has no quantized element types")
    if c.at("!"):
        name = c.match(re.compile(r"![\w.]+"), "a dialect type")
        raise c.error(f"unsupported type {name}", start)
    if c.eat_word("complex"):
        c.expect("<")
        inner = c.bare("an element type")
        c.expect(">")
        return ScalarType(f"complex<{inner}>")
    return ScalarType(c.bare("a type"))


def value_type(c: Cursor) -> Shape:
    """A type an SSA value may have: a tensor, a tuple or a token."""
    start = c.pos
    t = parse_type(c)
    if isinstance(t, ScalarType):
        c.skip()
        raise c.error(f"expected a tensor, tuple or token type, found {t.name}", start)
    return t


def _tensor(c: Cursor, start: int) -> Shape:
    body_start = c.pos + 1
    body = c.balanced("<", ">")[1:-1]
    dims: list[int | None] = []
    pos = 0
    while True:
        m = _DIM.match(body, pos)
        if m is None:
            break
        dims.append(None if m.group(1) == "?" else int(m.group(1)))
        pos = m.end()
    if body.startswith("*"):
        raise c.error("unranked tensors are not supported: HLO shapes have a rank", start)
    rest = body[pos:]
    encoding = ""
    if rest.startswith("complex<"):
        end = rest.index(">") + 1
        etext, encoding = rest[:end], rest[end:]
    else:
        m2 = re.match(r"[\w.!]+", rest)
        etext = m2.group() if m2 else rest
        encoding = rest[len(etext) :]
    if etext.startswith("!quant"):
        raise c.error("quantized types are not supported: HLO has no quantized element types", start)
    if etext.startswith("complex<"):
        inner = etext[len("complex<") : -1]
        ptype = {"f32": PrimitiveType.C64, "f64": PrimitiveType.C128}.get(inner)
    elif etext in ("!stablehlo.token",):
        ptype = None
    else:
        ptype = element_type(etext)
    if ptype is None:
        raise c.error(f"unsupported element type {etext!r} in tensor<{body}>", body_start + pos)
    bounds = _bounds(c, encoding.strip().lstrip(",").strip(), len(dims), start)
    sizes: list[int] = []
    dynamic: list[bool] = []
    for k, d in enumerate(dims):
        if d is not None:
            sizes.append(d)
            dynamic.append(False)
        elif bounds[k] is not None:
            sizes.append(bounds[k])  # type: ignore[arg-type]
            dynamic.append(True)
        else:
            raise c.error(
                f"dimension {k} of tensor<{body}> is dynamic ('?') without a bound: "
                "HLO needs static or bounded shapes",
                start,
            )
    return Shape.array(ptype, sizes, dynamic_dimensions=dynamic if any(dynamic) else ())


def _bounds(c: Cursor, encoding: str, rank: int, start: int) -> list[int | None]:
    if not encoding:
        return [None] * rank
    m = re.fullmatch(r"#stablehlo\.bounds<(.*)>|#stablehlo\.type_extensions<bounds\s*=\s*\[(.*)\]>", encoding)
    if m is None:
        raise c.error(f"unsupported tensor encoding {encoding}", start)
    items = [x.strip() for x in (m.group(1) or m.group(2) or "").split(",") if x.strip()]
    if len(items) != rank:
        raise c.error(f"the bounds {encoding} do not give one bound per dimension ({rank})", start)
    return [None if x == "?" else int(x) for x in items]


def parse_function_type(c: Cursor) -> tuple[list[Shape], list[Shape]]:
    """`(T, ...) -> T` or `(T, ...) -> (T, ...)`."""
    c.expect("(")
    params: list[Shape] = []
    if not c.eat(")"):
        while True:
            params.append(value_type(c))
            if c.eat(")"):
                break
            c.expect(",")
    c.expect("->")
    return params, type_list_or_one(c)


def type_list_or_one(c: Cursor) -> list[Shape]:
    """`(T, ...)` or one `T`: the results of a function type."""
    if c.eat("("):
        out: list[Shape] = []
        if not c.eat(")"):
            while True:
                out.append(value_type(c))
                if c.eat(")"):
                    break
                c.expect(",")
        return out
    return [value_type(c)]
