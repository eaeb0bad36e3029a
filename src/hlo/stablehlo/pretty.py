"""The pretty (custom assembly) forms of StableHLO, CHLO and func ops.

Most ops print as `operands, keyword = value, ... {attr-dict} : types`; this reads that shape of
text once for every op and stores each keyword under the attribute name the generic form uses
(`dims` of broadcast_in_dim is `broadcast_dimensions`, of transpose `permutation`), so the
converter sees one form. The ops whose text has another shape (while, reduce, slice,
get_tuple_element, custom_call, convolution, composite, func.call, constant) have hooks here."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..shape import Shape
from .attrs import Struct, parse_attr, parse_dict
from .cursor import Cursor
from .syntax import Block, Op
from .types import parse_function_type, type_list_or_one, value_type

_INT = re.compile(r"[-+]?\d+")
_DOTTED = re.compile(r"[A-Za-z_][\w$]*(?:\.[\w$]+)+")

# Pretty keyword -> generic attribute name, per op (ops not listed keep the keyword).
KEYWORDS: dict[str, dict[str, str]] = {
    "broadcast_in_dim": {"dims": "broadcast_dimensions"},
    "dynamic_broadcast_in_dim": {"dims": "broadcast_dimensions"},
    "broadcast": {"sizes": "broadcast_sizes"},
    "transpose": {"dims": "permutation"},
    "reverse": {"dims": "dimensions"},
    "concatenate": {"dim": "dimension"},
    "iota": {"dim": "iota_dimension"},
    "dynamic_iota": {"dim": "iota_dimension"},
    "dynamic_slice": {"sizes": "slice_sizes"},
    "pad": {"low": "edge_padding_low", "high": "edge_padding_high", "interior": "interior_padding"},
    "fft": {"type": "fft_type", "length": "fft_length"},
    "rng_bit_generator": {"algorithm": "rng_algorithm"},
    "rng": {"distribution": "rng_distribution"},
    "get_dimension_size": {"dim": "dimension"},
    "set_dimension_size": {"dim": "dimension"},
    "dot_general": {"precision": "precision_config"},
    "dot": {"precision": "precision_config"},
    "reduce": {"dimensions": "dimensions"},
}
# Bare words, in order, for ops that take some (compare's direction and type).
POSITIONAL: dict[str, tuple[str, ...]] = {"compare": ("comparison_direction", "compare_type")}


def parse_pretty(c: Cursor, op: Op) -> None:
    short = op.name.split(".", 1)[1]
    hook = HOOKS.get(op.name)
    if hook is not None:
        hook(c, op)
        return
    words: list[str] = []
    _items(c, op, words, short)
    for key, w in zip(POSITIONAL.get(short, ()), words):
        op.attrs[key] = w
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    if c.eat(":"):
        _signature(c, op)
    _trailing_regions(c, op)


def _items(c: Cursor, op: Op, words: list[str], short: str, close: str | None = None) -> None:
    """Operands, `keyword = value`s and bare words up to the type signature (or `close`)."""
    names = KEYWORDS.get(short, {})
    after_operand = False  # an operand was just read: the next operand or keyword needs a ','
    while True:
        c.skip()
        if close is not None and c.eat(close):
            return
        if after_operand and (c.at_value() or c.peek_match(re.compile(r"[A-Za-z_]\w*\s*=[^=]"))):
            raise c.error(f"expected ',' between the operands of {op.name}, found {c.found()}")
        after_operand = False
        if c.at_value():
            op.operands.append(c.value_name())
            if c.at("["):
                _bracket_after_operand(c, op)
            if c.eat_word("init"):  # reduce's `(%x init: %y)`: inputs and inits interleaved
                op.attrs["_init_pairs"] = True
            else:
                after_operand = True
            continue
        if c.at("init:") or (c.at(":") and close is not None):
            c.expect(":")
            continue
        if c.eat(","):
            continue
        if c.at("("):
            c.expect("(")
            _items(c, op, words, short, ")")
            continue
        if c.at("@"):
            op.attrs["callee"] = c.symbol()
            continue
        if c.at('"'):
            op.attrs["name"] = c.string()
            continue
        if c.at_word("applies"):
            c.eat_word("applies")
            op.attrs["applies"] = c.match(_DOTTED, "the op a reduce applies")
            continue
        if c.at_word("across"):
            c.eat_word("across")
            continue
        if c.at_word("init"):
            c.eat_word("init")
            continue
        word_match = c.peek_match(re.compile(r"[A-Za-z_][\w]*"))
        if word_match is not None and not c.at("{"):
            save = c.pos
            c.bare()
            if c.eat("=") and not c.at("="):
                op.attrs[names.get(word_match, word_match)] = pretty_value(c)
                continue
            c.pos = save
            words.append(c.bare())
            continue
        return


def _bracket_after_operand(c: Cursor, op: Op) -> None:
    """`%x [0:2, 1:3:2]` (slice) or `%x[1]` (get_tuple_element)."""
    start = c.pos
    body = c.balanced("[", "]")[1:-1].strip()
    if not re.fullmatch(r"(-?\d+(:-?\d+){1,2}(\s*,\s*-?\d+(:-?\d+){1,2})*)?|\d+", body):
        expected = "slice ranges [start:limit(:stride), ...] or a tuple index"
        raise c.error(f"expected {expected}, found [{body}]", start)
    if ":" in body or not body:
        starts, limits, strides = [], [], []
        for part in body.split(",") if body else []:
            nums = [int(x) for x in part.split(":")]
            starts.append(nums[0])
            limits.append(nums[1])
            strides.append(nums[2] if len(nums) > 2 else 1)
        op.attrs.update(start_indices=starts, limit_indices=limits, strides=strides)
    else:
        op.attrs["index"] = int(body)


def pretty_value(c: Cursor) -> Any:
    """The value after `keyword =` in a pretty form."""
    c.skip()
    if c.at("["):
        first = _pretty_list(c)
        if c.at_word("x") or c.at("x["):
            c.expect("x")
            second = _pretty_list(c)
            if c.eat("->"):
                return (first, second, _pretty_list(c))
            return (first, second)
        return first
    if c.at("{"):
        return _window(c)
    if c.at("<"):  # dot_general's algorithm = <...>
        fields: dict[str, Any] = {}
        c.expect("<")
        while not c.eat(">"):
            key = c.bare()
            c.expect("=")
            fields[key] = parse_attr(c)
            c.eat(",")
        return Struct("stablehlo.dot_algorithm", fields)
    if c.at("#") or c.at('"') or c.at_word("array") or c.at_word("dense"):
        return parse_attr(c)
    if c.peek_match(_INT) and not c.peek_match(re.compile(r"[-+]?\d+[.eE]")):
        return int(c.match(_INT, "an integer"))
    return c.bare("a value")


def _pretty_list(c: Cursor) -> list[Any]:
    c.expect("[")
    items: list[Any] = []
    while not c.eat("]"):
        if c.at("["):
            items.append(_pretty_list(c))
        elif c.peek_match(_INT):
            items.append(int(c.match(_INT, "an integer")))
        else:
            items.append(c.bare("a list item"))
        c.eat(",")
    return items


def _window(c: Cursor) -> dict[str, Any]:
    c.expect("{")
    out: dict[str, Any] = {}
    while not c.eat("}"):
        key = c.bare("a window attribute")
        c.expect("=")
        out[key] = pretty_value(c)
        c.eat(",")
    return out


def _signature(c: Cursor, op: Op) -> None:
    """The types after ':'; sets the op's result types."""
    if c.at("("):
        _, op.result_types = parse_function_type(c)
        return
    types = [value_type(c)]
    while c.eat(","):
        types.append(value_type(c))
    if c.eat("->"):
        op.result_types = type_list_or_one(c)
        return
    n = len(op.results)
    op.result_types = types if n == len(types) else [types[-1]] * n


def _trailing_regions(c: Cursor, op: Op) -> None:
    """The reducer of the pretty reduce: `reducer(%a: T, %b: T) (%c: T, %d: T) { ... }`."""
    from .parser import parse_region

    if c.at_word("reducer"):
        c.eat_word("reducer")
        groups: list[list[tuple[str, Shape]]] = []
        while c.at("("):
            c.expect("(")
            group: list[tuple[str, Shape]] = []
            while not c.eat(")"):
                name = c.value_name()
                c.expect(":")
                group.append((name, value_type(c)))
                c.eat(",")
            groups.append(group)
        args = [g[0] for g in groups] + [g[1] for g in groups]
        op.regions.append(parse_region(c, args))
    elif "applies" in op.attrs:
        op.regions.append([_applies_block(op)])


def _applies_block(op: Op) -> Block:
    """The region `applies stablehlo.add` stands for: a scalar binary op over the pairs."""
    n = len(op.operands) // 2
    scalars = [Shape.array(t.element_type, ()) for t in op.result_types]
    args = [(f"%lhs{k}", s) for k, s in enumerate(scalars)] + [(f"%rhs{k}", s) for k, s in enumerate(scalars)]
    body = Op(op.attrs.pop("applies"), op.pos, [f"%out{k}" for k in range(n)], list(scalars))
    body.operands = [a for k in range(n) for a in (f"%lhs{k}", f"%rhs{k}")]
    ret = Op("stablehlo.return", op.pos, operands=[f"%out{k}" for k in range(n)])
    return Block(args, [body, ret], implied=True)


# -- ops with text of another shape ------------------------------------------------------------


def _while(c: Cursor, op: Op) -> None:
    from .parser import parse_region

    c.expect("(")
    names: list[str] = []
    while not c.eat(")"):
        names.append(c.value_name())
        c.expect("=")
        op.operands.append(c.value_name())
        c.eat(",")
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    c.expect(":")
    types: list[Shape] = []
    if names:
        types = [value_type(c)]
        while c.eat(","):
            types.append(value_type(c))
    op.result_types = types
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    args = list(zip(names, types))
    if not c.eat_word("cond"):
        raise c.error("expected 'cond' and the condition region of stablehlo.while")
    op.regions.append(parse_region(c, args))
    if not c.eat_word("do"):
        raise c.error("expected 'do' and the body region of stablehlo.while")
    op.regions.append(parse_region(c, args))


def _constant(c: Cursor, op: Op) -> None:
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    value = parse_attr(c)
    op.attrs["value"] = value
    vtype = getattr(value, "type", None)
    if not isinstance(vtype, Shape):
        raise c.error("expected a dense constant with a tensor type", op.name_pos)
    op.result_types = [vtype]


def _return(c: Cursor, op: Op) -> None:
    while c.at_value():
        op.operands.append(c.value_name())
        if not c.eat(","):
            break
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    if c.eat(":"):
        value_type(c)
        while c.eat(","):
            value_type(c)


def _composite(c: Cursor, op: Op) -> None:
    op.attrs["name"] = c.string()
    parse_pretty_generic_tail(c, op)


def parse_pretty_generic_tail(c: Cursor, op: Op) -> None:
    words: list[str] = []
    _items(c, op, words, op.name.split(".", 1)[1])
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    c.expect(":")
    _signature(c, op)


def _optimization_barrier(c: Cursor, op: Op) -> None:
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    if c.eat("("):
        c.expect(")")
        return
    while c.at_value():
        op.operands.append(c.value_name())
        if not c.eat(","):
            break
    c.expect(":")
    _signature(c, op)


HOOKS: dict[str, Callable[[Cursor, Op], None]] = {
    "stablehlo.while": _while,
    "stablehlo.constant": _constant,
    "stablehlo.return": _return,
    "func.return": _return,
    "stablehlo.composite": _composite,
    "stablehlo.optimization_barrier": _optimization_barrier,
}
