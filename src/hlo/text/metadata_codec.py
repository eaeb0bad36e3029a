"""Text of per-instruction debug information: metadata, frontend attributes, statistics,
result accuracy and original values; both directions, as XLA's parser and printer."""

from __future__ import annotations

import re
from typing import Any

from ..ir.frozen import FrozenDict
from ..ir.metadata import (
    AccuracyMode,
    OpMetadata,
    OriginalArray,
    OriginalValue,
    ResultAccuracy,
    Statistics,
    new_metadata,
)
from .escapes import c_escape, c_unescape
from .format import lexes_as_json_dict, six_digits
from .reader import TextReader
from .tokens import Tok, Token

_METADATA_STRINGS = ("op_type", "op_name", "source_file", "deduplicated_name", "scheduling_name")
_METADATA_INTS = ("source_line", "source_end_line", "source_column", "source_end_column", "stack_frame_id")


# -- metadata ---------------------------------------------------------------------------------
# A whole metadata block of plain `name=value` entries, read in one go (real dumps carry one per
# instruction); anything else goes through the token-level reader below.
_METADATA_BLOCK = re.compile(r'\{(?:\s*,?\s*[a-z_]+=(?:"(?:[^"\\\n]|\\.)*"|-?\d+|\{[0-9,]*\}))*\s*\}')
_METADATA_ENTRY = re.compile(r'([a-z_]+)=("(?:[^"\\\n]|\\.)*"|-?\d+|\{[0-9,]*\})')


def _fast_metadata(r: TextReader) -> OpMetadata | None:
    r.lex.skip_space()
    found = fast_metadata_at(r.lex.text, r.lex.peek().start if r.lex.buffered else r.lex.pos)
    if found is None:
        return None
    r.lex.skip_to(found[1])
    return found[0]


_STRING_VALUES = frozenset((*_METADATA_STRINGS, "metadata_payload"))
_INT_VALUES = frozenset(_METADATA_INTS)


def fast_metadata_at(text: str, pos: int) -> tuple[OpMetadata, int] | None:
    """A plain metadata block at `pos`, and where it ends; None for anything else."""
    m = _METADATA_BLOCK.match(text, pos)
    if m is None:
        return None
    fields: dict[str, Any] = {}
    for name, value in _METADATA_ENTRY.findall(m.group()):
        if name in fields:
            return None
        if name in _STRING_VALUES:
            if not value.startswith('"'):
                return None
            body = value[1:-1]
            try:
                fields[name] = c_unescape(body) if "\\" in body else body
            except ValueError:  # a bad escape: the token-by-token path reports it with its place
                return None
        elif name in _INT_VALUES:
            if value.startswith(("{", '"')) or not -(2**31) <= int(value) < 2**31:
                return None
            fields[name] = int(value)
        elif name == "profile_type" and value.startswith("{"):
            types = tuple(int(x) for x in value[1:-1].split(",") if x)
            if any(t not in (0, 1, 2, 3) for t in types):
                return None
            fields[name] = types
        else:
            return None
    return new_metadata(fields), m.end()


def parse_metadata(r: TextReader) -> OpMetadata:
    fast = _fast_metadata(r)
    if fast is not None:
        return fast
    fields: dict[str, Any] = {}

    def value(name: str, tok: Token) -> None:
        if name in _METADATA_STRINGS:
            fields[name] = r.string(f"a string for metadata {name}")
        elif name in _METADATA_INTS:
            fields[name] = r.int32(f"an integer for metadata {name}")
        elif name == "profile_type":
            types = r.int_list("profile_type")
            if any(t not in (0, 1, 2, 3) for t in types):
                raise r.error("profile_type values are 0 (INVALID), 1 (WINDOW), 2 (FLAG), 3 (INTEGER)", tok)
            fields[name] = types
        elif name == "metadata_payload":
            fields[name] = r.string("a string for metadata_payload")
        else:
            raise r.error(f"unknown metadata field '{name}'", tok)

    r.sub_attributes(value, "metadata")
    return OpMetadata(**fields)


def print_metadata(md: OpMetadata, only_op_name: bool = False) -> str:
    """The inside of `metadata={...}` (OpMetadataToString)."""
    if only_op_name:
        return f'op_name="{c_escape(md.op_name)}"' if md.op_name else ""
    parts = []
    if md.op_type:
        parts.append(f'op_type="{c_escape(md.op_type)}"')
    if md.op_name:
        parts.append(f'op_name="{c_escape(md.op_name)}"')
    if md.source_file:
        parts.append(f'source_file="{c_escape(md.source_file)}"')
    for name in ("source_line", "source_end_line", "source_column", "source_end_column"):
        if getattr(md, name):
            parts.append(f"{name}={getattr(md, name)}")
    if md.profile_type:
        parts.append("profile_type={" + ",".join(map(str, md.profile_type)) + "}")
    if md.deduplicated_name:
        parts.append(f'deduplicated_name="{c_escape(md.deduplicated_name)}"')
    if md.scheduling_name:
        parts.append(f'scheduling_name="{md.scheduling_name}"')
    if md.stack_frame_id:
        parts.append(f"stack_frame_id={md.stack_frame_id}")
    if md.metadata_payload is not None:
        parts.append(f'metadata_payload="{c_escape(md.metadata_payload)}"')
    return " ".join(parts)


# -- frontend attributes ----------------------------------------------------------------------
def parse_frontend_attributes(r: TextReader) -> FrozenDict[str, str]:
    """`{key="value", key={raw json}, ...}`; a later duplicate key wins."""
    r.expect(Tok.LBRACE, "'{' to start frontend attributes")
    attrs: dict[str, str] = {}
    while not r.lex.at(Tok.RBRACE):
        key = r.attribute_name("an attribute name in frontend attributes")
        if r.lex.at(Tok.LBRACE):
            attrs[key] = r.lex.raw_braced().text
        else:
            attrs[key] = r.string(f"a string or {{...}} value for frontend attribute {key}")
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RBRACE, "'}' at the end of frontend attributes")
    return FrozenDict(attrs)


def print_frontend_attributes(attrs: FrozenDict[str, str]) -> str:
    items = sorted(attrs.items(), key=lambda kv: kv[0].encode())
    return (
        "{"
        + ",".join(f"{k}={v if lexes_as_json_dict(v) else chr(34) + c_escape(v) + chr(34)}" for k, v in items)
        + "}"
    )


# -- statistics -------------------------------------------------------------------------------
def parse_statistics(r: TextReader) -> Statistics:
    r.expect(Tok.LBRACE, "'{' to start statistics")
    if r.lex.eat(Tok.RBRACE):
        return Statistics()
    r.attribute_name("visualizing_index=")
    index = r.int64("an integer visualizing index")
    stats: list[tuple[str, float]] = []
    while r.lex.eat(Tok.COMMA):
        name = r.attribute_name("a statistic name")
        stats.append((name, r.number(f"a number for statistic {name}")))
    r.expect(Tok.RBRACE, "'}' at the end of statistics")
    return Statistics(index, tuple(stats))


def print_statistics(s: Statistics) -> str:
    return (
        "{"
        + ",".join(
            [f"visualizing_index={s.visualizing_index}"] + [f"{k}={six_digits(v)}" for k, v in s.stats]
        )
        + "}"
    )


# -- result accuracy --------------------------------------------------------------------------
def parse_result_accuracy(r: TextReader) -> ResultAccuracy:
    r.expect(Tok.LBRACE, "'{' to start result_accuracy")
    tok = r.lex.peek()
    name = r.attribute_name("mode= or tolerance= in result_accuracy")
    if name == "mode":
        result = ResultAccuracy(mode=r.enum(AccuracyMode, "an accuracy mode", case_insensitive=True))
    elif name == "tolerance":
        values: dict[str, Any] = {}
        r.expect(Tok.LBRACE, "'{' to start the tolerance")
        while not r.lex.at(Tok.RBRACE):
            key_tok = r.lex.peek()
            key = r.attribute_name("atol=, rtol= or ulps=")
            if key == "ulps":
                values[key] = r.int64("an integer ulps")
            elif key in ("atol", "rtol"):
                values[key] = r.number(f"a number for {key}")
            else:
                raise r.error(f"unknown tolerance '{key}': expected atol, rtol or ulps", key_tok)
            if not r.lex.eat(Tok.COMMA):
                break
        r.expect(Tok.RBRACE, "'}' to end the tolerance")
        result = ResultAccuracy(**values)
    else:
        raise r.error(f"invalid result_accuracy entry '{name}': expected mode or tolerance", tok)
    r.expect(Tok.RBRACE, "'}' to end result_accuracy")
    return result


def print_result_accuracy(a: ResultAccuracy) -> str:
    if a.mode is not AccuracyMode.DEFAULT:
        return "{mode=" + a.mode.value + "}"
    parts = []
    if a.atol is not None:
        parts.append(f"atol={six_digits(a.atol, signed_nan=True)}")
    if a.rtol is not None:
        parts.append(f"rtol={six_digits(a.rtol, signed_nan=True)}")
    if a.ulps is not None:
        parts.append(f"ulps={a.ulps}")
    return "{tolerance={" + ",".join(parts) + "}}"


# -- original values --------------------------------------------------------------------------
def parse_original_array(r: TextReader) -> OriginalArray | None:
    """`{"name" {1,0}}`, `{"name"}` or the empty leaf `{}`."""
    r.expect(Tok.LBRACE, "'{' to start an original array")
    if r.lex.eat(Tok.RBRACE):
        return None
    name = r.string("an instruction name in quotes")
    index = r.shape_index() if r.lex.at(Tok.LBRACE) else ()
    r.expect(Tok.RBRACE, "'}' at the end of the original array")
    return OriginalArray(name, index)


def parse_original_value(r: TextReader) -> OriginalValue:
    r.expect(Tok.LBRACE, "'{' to start an original value")
    if r.lex.eat(Tok.LSQUARE):
        word = r.ident("synthetic_call")
        if word != "synthetic_call":
            raise r.error("expected 'synthetic_call' after '['")
        r.expect(Tok.RSQUARE, "']' to end [synthetic_call]")
        r.expect(Tok.RBRACE, "'}' to end the original value")
        return OriginalValue(synthetic_call=True)
    tree = _original_tree(r)
    r.expect(Tok.RBRACE, "'}' to end the original value")
    return OriginalValue(tree)


def _original_tree(r: TextReader) -> Any:
    if r.lex.eat(Tok.LPAREN):
        r.enter()
        children = []
        if not r.lex.at(Tok.RPAREN):
            children.append(_original_tree(r))
            while r.lex.eat(Tok.COMMA):
                children.append(_original_tree(r))
        r.expect(Tok.RPAREN, "')' in the original value")
        r.leave()
        return tuple(children)
    return parse_original_array(r)


def print_original_array(a: OriginalArray | None) -> str:
    if a is None:
        return "{}"
    index = " {" + ",".join(map(str, a.shape_index)) + "}" if a.shape_index else ""
    return '{"' + a.instruction_name + '"' + index + "}"


def _print_tree(tree: Any) -> str:
    if isinstance(tree, tuple):
        return "(" + ", ".join(_print_tree(t) for t in tree) + ")"
    return print_original_array(tree)


def print_original_value(v: OriginalValue) -> str:
    return "{[synthetic_call]}" if v.synthetic_call else "{" + _print_tree(v.tree) + "}"
