"""MLIR text (the pretty and the generic forms JAX and the StableHLO tests print) to the syntax
tree of `syntax.py`: `module` with its attributes, `func.func` with argument and result
attributes, ops with results, operands, attributes, regions and locations."""

from __future__ import annotations

import re
from typing import Any

from ..shape import Shape
from .attrs import Raw, parse_attr, parse_dict
from .cursor import Cursor
from .pretty import parse_pretty
from .syntax import Block, Func, MlirModule, Op
from .types import ScalarType, parse_function_type, parse_type, value_type

_RESULT = re.compile(r"%[A-Za-z0-9_$.\-]+(?::\d+)?")
_OP_NAME = re.compile(r"[A-Za-z_][\w$]*(?:\.[\w$]+)+|return|call")
_ALIAS = re.compile(r"[#!][\w$.\-]+")


def parse_mlir(text: str, filename: str = "<string>") -> MlirModule:
    """The module in `text` (a `module { ... }`, or bare `func.func`s)."""
    c = Cursor(text, filename)
    module: MlirModule | None = None
    funcs: list[Func] = []
    aliases: dict[str, Any] = {}
    while not c.at_end():
        if c.at("#") or c.at("!"):
            _alias_definition(c, aliases)
        elif c.at_word("module") or c.at('"builtin.module"'):
            if module is not None or funcs:
                raise c.error("more than one module in the text")
            module = _module(c)
        elif c.at_word("func.func") or c.at('"func.func"'):
            funcs.append(_func(c))
        else:
            raise c.error(f"expected 'module' or 'func.func', found {c.found()}")
    if module is None:
        if not funcs:
            raise c.error("the text holds no module and no function")
        module = MlirModule(None, {}, funcs)
    module.aliases = aliases
    return module


def _alias_definition(c: Cursor, aliases: dict[str, Any]) -> None:
    """`#loc1 = loc(...)` (kept: locations name instructions), `#map = ...`, `!alias = type`."""
    start = c.pos
    name = c.match(_ALIAS, "an alias name")
    if not c.eat("="):
        raise c.error("expected '=' in an alias definition", start)
    aliases[name] = parse_attr(c)


def _module(c: Cursor) -> MlirModule:
    start = c.pos
    if c.eat('"builtin.module"'):
        c.expect("(")
        c.expect(")")
        attrs: dict[str, Any] = {}
        if c.at("<{"):
            c.expect("<")
            attrs.update(parse_dict(c))
            c.expect(">")
        c.expect("(")
        c.expect("{")
        funcs = _module_body(c, "}")
        c.expect(")")
        if c.at("{"):
            attrs.update(parse_dict(c))
        c.expect(":")
        c.expect("(")
        c.expect(")")
        c.expect("->")
        c.expect("(")
        c.expect(")")
        _loc(c)
        name = attrs.pop("sym_name", None)
        return MlirModule(name if isinstance(name, str) else None, attrs, funcs, start)
    c.eat_word("module")
    name = c.symbol() if c.at("@") else None
    attrs = {}
    if c.eat_word("attributes"):
        attrs = parse_dict(c)
    c.expect("{")
    funcs = _module_body(c, "}", attrs)
    _loc(c)
    return MlirModule(name, attrs, funcs, start)


def _module_body(c: Cursor, close: str, attrs: dict[str, Any] | None = None) -> list[Func]:
    funcs: list[Func] = []
    while not c.eat(close):
        if c.at_end():
            raise c.error(f"expected {close!r} to close the module")
        if c.at_word("func.func") or c.at('"func.func"'):
            funcs.append(_func(c))
        elif c.at_word("sdy.mesh"):  # a Shardy mesh: kept as data (a module attribute)
            c.eat_word("sdy.mesh")
            name = c.symbol()
            c.expect("=")
            c.skip()
            start = c.pos
            if c.at("#"):
                parse_attr(c)
            else:
                c.balanced("<", ">")
            text = c.text[start : c.pos]
            if c.at("{"):
                parse_dict(c)
            _loc(c)
            if attrs is not None:
                attrs[f"sdy.mesh.{name}"] = text
        elif c.at("^"):  # the generic form's block label of the module body
            c.match(re.compile(r"\^[\w$.\-]+"), "a block label")
            c.expect(":")
        else:
            c.skip()
            start = c.pos
            name = c.peek_match(re.compile(r'"?[\w.]+"?')) or c.found()
            raise c.error(
                f"unsupported op {name.strip(chr(34))} in a module: only func.func is supported", start
            )
    return funcs


def _func(c: Cursor) -> Func:
    c.skip()
    start = c.pos
    if c.at('"func.func"'):
        return _generic_func(c)
    c.eat_word("func.func")
    visibility = "public"
    for v in ("public", "private", "nested"):
        if c.eat_word(v):
            visibility = v
    name = c.symbol()
    c.expect("(")
    args: list[tuple[str, Shape]] = []
    arg_attrs: list[dict[str, Any]] = []
    arg_locs: dict[str, Any] = {}
    if not c.eat(")"):
        while True:
            value = c.value_name()
            c.expect(":")
            args.append((value, value_type(c)))
            arg_attrs.append(parse_dict(c) if c.at("{") else {})
            loc = _loc(c)
            if loc is not None:
                arg_locs[value] = loc
            if c.eat(")"):
                break
            c.expect(",", "',' or ')' in the argument list")
    result_types: list[Shape] = []
    result_attrs: list[dict[str, Any]] = []
    if c.eat("->"):
        if c.eat("("):
            if not c.eat(")"):
                while True:
                    result_types.append(value_type(c))
                    result_attrs.append(parse_dict(c) if c.at("{") else {})
                    if c.eat(")"):
                        break
                    c.expect(",", "',' or ')' in the result list")
        else:
            result_types.append(value_type(c))
            result_attrs.append({})
    attrs = parse_dict(c) if c.eat_word("attributes") else {}
    if not c.at("{"):
        raise c.error(f"function @{name} has no body: declarations are not supported", start)
    blocks = parse_region(c, args)
    blocks[0].arg_locs.update(arg_locs)
    _loc(c)
    return Func(
        name, start, visibility == "public", args, arg_attrs, result_types, result_attrs, attrs, blocks[0]
    )


def _generic_func(c: Cursor) -> Func:
    op = parse_op(c)
    attrs = op.attrs
    ftype = attrs.get("function_type")
    if not isinstance(ftype, tuple) or len(ftype) != 3 or not op.regions:
        raise c.error("a generic func.func needs function_type and a body", op.pos)
    _, params, results = ftype
    body = op.regions[0][0]
    if len(body.args) != len(params):
        raise c.error("the function's entry block does not take its parameters", op.pos)
    arg_attrs = attrs.get("arg_attrs") or [{} for _ in params]
    res_attrs = attrs.get("res_attrs") or [{} for _ in results]
    name = attrs.get("sym_name")
    return Func(
        str(getattr(name, "text", name)), op.pos, attrs.get("sym_visibility", "public") == "public",
        body.args, list(arg_attrs), list(results), list(res_attrs), attrs, body,
    )  # fmt: skip


def parse_region(c: Cursor, entry_args: list[tuple[str, Shape]] | None = None) -> list[Block]:
    """`{ ops }` or `{ ^bb0(%a: T): ops }`; regions of several blocks are refused."""
    c.skip()
    start = c.pos
    c.expect("{")
    block = Block(list(entry_args or []))
    if c.at("^"):
        c.match(re.compile(r"\^[\w$.\-]+"), "a block label")
        if c.eat("(") and not c.eat(")"):
            while True:
                value = c.value_name()
                c.expect(":")
                block.args.append((value, value_type(c)))
                loc = _loc(c)
                if loc is not None:
                    block.arg_locs[value] = loc
                if c.eat(")"):
                    break
                c.expect(",")
        c.expect(":")
    while not c.eat("}"):
        if c.at_end():
            raise c.error("expected '}' to close the region", start)
        if c.at("^"):
            raise c.error("regions with several blocks are not supported (HLO has no branches)")
        block.ops.append(parse_op(c))
    return [block]


def parse_op(c: Cursor) -> Op:
    """One op, in either form, with its location."""
    c.skip()
    start = c.pos
    results: list[str] = []
    if c.at("%"):
        while True:
            results.extend(_result_names(c.match(_RESULT, "a result name")))
            if not c.eat(","):
                break
        c.expect("=")
    c.skip()
    name_pos = c.pos
    if c.at('"'):
        op = Op(c.string(), start, results, name_pos=name_pos)
        _generic_body(c, op)
    else:
        name = c.match(_OP_NAME, "an op name")
        name = {"return": "func.return", "call": "func.call"}.get(name, name)
        op = Op(name, start, results, name_pos=name_pos)
        parse_pretty(c, op)
    op.loc = _loc(c)
    for block in (b for region in op.regions for b in region if b.implied):
        block.arg_locs = {name: op.loc for name, _ in block.args}
        for inner in block.ops:
            inner.loc = op.loc
    if len(op.result_types) != len(op.results):
        raise c.error(
            f"{op.name} defines {len(op.results)} results but its type gives {len(op.result_types)}", start
        )
    return op


def _result_names(text: str) -> list[str]:
    name, _, count = text.partition(":")
    if not count:
        return [name]
    return [f"{name}#{k}" for k in range(int(count))]


def _generic_body(c: Cursor, op: Op) -> None:
    c.expect("(")
    if not c.eat(")"):
        while True:
            op.operands.append(c.value_name())
            if c.eat(")"):
                break
            c.expect(",", "',' or ')' in the operand list")
    if c.at("["):
        raise c.error("successor blocks are not supported (HLO has no branches)")
    if c.at("<{"):
        c.expect("<")
        op.attrs.update(parse_dict(c))
        c.expect(">")
    if c.at("("):
        c.expect("(")
        while True:
            op.regions.append(parse_region(c))
            if c.eat(")"):
                break
            c.expect(",", "',' or ')' between regions")
    if c.at("{"):
        op.attrs.update(parse_dict(c))
    c.expect(":", "':' and the op's function type")
    op.result_types = parse_function_type(c)[1]


def _loc(c: Cursor) -> Any:
    if c.at_word("loc"):
        c.eat_word("loc")
        return Raw("loc" + c.balanced("(", ")"))
    return None


__all__ = ["ScalarType", "parse_mlir", "parse_op", "parse_region", "parse_type"]
