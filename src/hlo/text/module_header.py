"""The attributes after `HloModule name` and the stack-frame tables, both directions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ir.metadata import FileLocation, StackFrame, StackFrameIndex
from ..ir.module import ComputationLayout, DebugAttributes, InputOutputAlias, Module, RecoveryEntry
from ..shape import Shape
from .escapes import c_escape
from .metadata_codec import (
    parse_frontend_attributes,
    parse_original_array,
    print_frontend_attributes,
    print_original_array,
)
from .reader import TextReader
from .shape_codec import print_shape
from .tokens import Tok

INDEX_INTERVAL = 5


def _index(values: tuple[int, ...]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


# -- parsing ----------------------------------------------------------------------------------
def parse_computation_layout(r: TextReader, keep_auto_layouts: bool) -> ComputationLayout:
    r.expect(Tok.LBRACE, "'{' to start entry_computation_layout")
    fill = r.fill_missing_layouts
    r.fill_missing_layouts = fill and not keep_auto_layouts
    params = tuple(r.list_of(r.shape, Tok.LPAREN, Tok.RPAREN, "the parameter shapes"))
    r.expect(Tok.ARROW, "'->' before the result shape")
    result = r.shape()
    r.fill_missing_layouts = fill
    r.expect(Tok.RBRACE, "'}' at the end of entry_computation_layout")
    return ComputationLayout(params, result)


def parse_input_output_alias(r: TextReader) -> tuple[InputOutputAlias, ...]:
    r.expect(Tok.LBRACE, "'{' at the start of input_output_alias")
    aliases: list[InputOutputAlias] = []
    seen: set[tuple[int, ...]] = set()
    while not r.lex.at(Tok.RBRACE):
        output = r.shape_index()
        r.expect(Tok.COLON, "':' after the output shape index")
        r.expect(Tok.LPAREN, "'(' before the parameter number")
        param_tok = r.lex.peek()
        param = r.int64("a parameter number")
        if param < 0:
            raise r.error("the aliased parameter number must be >= 0", param_tok)
        r.expect(Tok.COMMA, "',' after the parameter number")
        index = r.shape_index()
        must = False
        if r.lex.eat(Tok.COMMA):
            kind_tok = r.lex.peek()
            kind = r.ident("must-alias or may-alias")
            if kind not in ("must-alias", "may-alias"):
                raise r.error("Unexpected aliasing kind; expected must-alias or may-alias", kind_tok)
            must = kind == "must-alias"
        r.expect(Tok.RPAREN, "')' to end the alias")
        if output not in seen:  # XLA keeps the first alias of an output
            seen.add(output)
            aliases.append(InputOutputAlias(output, param, index, must))
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RBRACE, "'}' at the end of input_output_alias")
    return tuple(sorted(aliases, key=lambda a: a.output_index))


def parse_buffer_donor(r: TextReader) -> tuple[tuple[int, tuple[int, ...]], ...]:
    r.expect(Tok.LBRACE, "'{' at the start of buffer_donor")
    donors: list[tuple[int, tuple[int, ...]]] = []
    while not r.lex.at(Tok.RBRACE):
        r.expect(Tok.LPAREN, "'(' to start a buffer donor")
        param = r.int64("a parameter number")
        r.expect(Tok.COMMA, "',' after the parameter number")
        donors.append((param, r.shape_index()))
        r.expect(Tok.RPAREN, "')' to end a buffer donor")
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RBRACE, "'}' at the end of buffer_donor")
    return tuple(sorted(set(donors)))


def parse_bool_or_list(r: TextReader) -> tuple[bool, ...]:
    if r.lex.at(Tok.LBRACE):
        return r.bool_list()
    return (r.boolean(),)


def parse_recovery_table(r: TextReader, parse_module_text: Callable[[str], Any]) -> tuple[RecoveryEntry, ...]:
    r.expect(Tok.LBRACE, "'{' to start origin_recovery_table")
    entries: list[RecoveryEntry] = []
    while not r.lex.at(Tok.RBRACE):
        old = parse_original_array(r)
        r.expect(Tok.COLON, "':' between the original arrays")
        new = parse_original_array(r)
        if old is None or new is None:
            raise r.error("an origin_recovery_table entry needs both original arrays")
        module = None
        if r.lex.eat(Tok.COMMA):
            module = parse_module_text(r.string("the recovery module text"))
        entries.append(RecoveryEntry(old, new, module))
    r.lex.next()
    return tuple(sorted(entries, key=lambda e: (e.old.instruction_name, e.old.shape_index)))


def parse_debug_attributes(r: TextReader) -> tuple[Any, ...]:
    r.expect(Tok.LBRACE, "'{' to start debug_attributes")
    entries: dict[Any, tuple[DebugAttributes, ...]] = {}
    while not r.lex.at(Tok.RBRACE):
        array = parse_original_array(r)
        r.expect(Tok.COLON, "':' in a debug_attributes entry")
        if r.lex.eat(Tok.LPAREN):
            items = []
            if not r.lex.at(Tok.RPAREN):
                items.append(_debug_attribute(r))
                while r.lex.eat(Tok.COMMA):
                    items.append(_debug_attribute(r))
            r.expect(Tok.RPAREN, "')' after the list of debug_attributes")
        else:
            items = [_debug_attribute(r)]
        entries[array] = tuple(items)
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RBRACE, "'}' to end debug_attributes")
    return tuple(sorted(entries.items(), key=lambda kv: (kv[0].instruction_name, kv[0].shape_index)))


def _debug_attribute(r: TextReader) -> DebugAttributes:
    r.expect(Tok.LBRACE, "'{' to start debug attributes")
    values: dict[str, Any] = {}
    while True:
        tok = r.lex.peek()
        name = r.attribute_name("a debug attribute")
        if name == "log_mode":
            mode_tok = r.lex.peek()
            mode = r.ident("default or fusion_debugger")
            if mode not in ("default", "fusion_debugger"):
                raise r.error(f"Invalid debug_log_mode value: {mode}", mode_tok)
            values[name] = mode
        elif name in ("callback_id", "op_id"):
            values[name] = r.int64()
        elif name == "partitioned":
            values[name] = r.boolean()
        else:
            raise r.error(f"Unknown debug attribute: {name}", tok)
        if not r.lex.eat(Tok.COMMA):
            break
    r.expect(Tok.RBRACE, "'}' to end debug attributes")
    return DebugAttributes(**values)


def parse_stack_frames(r: TextReader) -> StackFrameIndex:
    """The FileNames / FunctionNames / FileLocations / StackFrames tables (after `FileNames`)."""

    def strings(next_keyword: str | None) -> list[str]:
        out = []
        while r.lex.at(Tok.INT):
            r.lex.next()
            out.append(r.string("a string"))
        if next_keyword is not None and not r.keyword(next_keyword):
            raise r.error(f"expects '{next_keyword}'")
        return out

    def records(fields: tuple[str, ...], what: str) -> list[dict[str, int]]:
        out = []
        while r.lex.at(Tok.INT):
            r.lex.next()
            values: dict[str, int] = {}

            def value(name: str, tok: Any, values: dict[str, int] = values) -> None:
                if name not in fields:
                    raise r.error(f"unknown {what} field '{name}'", tok)
                values[name] = r.int32()

            r.sub_attributes(value, what)
            missing = [f for f in fields if f not in values]
            if missing:
                raise r.error(f"sub-attribute {missing[0]} is expected but not seen")
            out.append(values)
        return out

    files = strings("FunctionNames")
    functions = strings("FileLocations")
    locations = records(
        ("file_name_id", "function_name_id", "line", "end_line", "column", "end_column"), "file location"
    )
    if not r.keyword("StackFrames"):
        raise r.error("expects 'StackFrames'")
    frames = records(("file_location_id", "parent_frame_id"), "stack frame")
    return StackFrameIndex(
        tuple(files),
        tuple(functions),
        tuple(FileLocation(**loc) for loc in locations),
        tuple(StackFrame(f["file_location_id"], f["parent_frame_id"] - 1) for f in frames),
    )


# -- printing ---------------------------------------------------------------------------------
def print_shapes_with_markers(shapes: tuple[Shape, ...]) -> str:
    out = []
    for i, s in enumerate(shapes):
        if i:
            out.append(f", /*index={i}*/" if i % INDEX_INTERVAL == 0 else ", ")
        out.append(print_shape(s))
    return "".join(out)


def print_header(m: Module, indent: int, print_module: Callable[[Module, int], str]) -> str:
    c = m.config
    parts = [" " * (2 * indent) + "HloModule " + m.name]
    if m.is_scheduled:
        parts.append(", is_scheduled=true")
    if m.input_output_alias:
        aliases = ", ".join(
            f"{_index(a.output_index)}: ({a.parameter}, {_index(a.parameter_index)}, "
            f"{'must-alias' if a.must_alias else 'may-alias'})"
            for a in m.input_output_alias
        )
        parts.append(f", input_output_alias={{ {aliases} }}")
    if m.buffer_donors:
        donors = ", ".join(f"({p}, {_index(i)})" for p, i in m.buffer_donors)
        parts.append(f", buffer_donor={{ {donors} }}")
    if c.alias_passthrough_params:
        parts.append(", alias_passthrough_params=true")
    if c.entry_computation_layout is not None:
        layout = c.entry_computation_layout
        parts.append(
            f", entry_computation_layout={{({print_shapes_with_markers(layout.parameters)})->"
            f"{print_shape(layout.result)}}}"
        )
    for name in (
        "allow_spmd_sharding_propagation_to_parameters",
        "allow_spmd_sharding_propagation_to_output",
    ):
        flags = getattr(c, name)
        if len(flags) != 1 or flags[-1]:
            parts.append(f", {name}={{" + ",".join("true" if f else "false" for f in flags) + "}")
    if c.replica_count != 1:
        parts.append(f", replica_count={c.replica_count}")
    if c.num_partitions != 1:
        parts.append(f", num_partitions={c.num_partitions}")
    if m.frontend_attributes:
        parts.append(", frontend_attributes=" + print_frontend_attributes(m.frontend_attributes))
    if m.origin_recovery_table:
        parts.append(", origin_recovery_table={\n" + _print_recovery(m, indent, print_module) + "}\n")
    if m.debug_attributes:
        parts.append(",\ndebug_attributes={\n" + _print_debug(m, indent) + "}")
    return "".join(parts)


def _print_recovery(m: Module, indent: int, print_module: Callable[[Module, int], str]) -> str:
    """Entries with the recovery module printed in XLA's default form, one level deeper, then
    escaped (backslash and quote only)."""
    tab = " " * (2 * (indent + 1))
    out = []
    for e in m.origin_recovery_table:
        line = f"{tab}{print_original_array(e.old)} : {print_original_array(e.new)}"
        if e.module is not None:
            escaped = print_module(e.module, 2 * (indent + 1)).replace("\\", "\\\\").replace('"', '\\"')
            line += f',\n{tab}"\n{escaped}\n{tab}"'
        out.append(line + "\n")
    return "".join(out)


def _print_debug(m: Module, indent: int) -> str:
    tab = " " * (2 * (indent + 1))
    lines = []
    entries = [(a, attrs) for a, attrs in m.debug_attributes if attrs]
    for k, (array, attrs) in enumerate(entries):
        items = []
        for d in attrs:
            fields = []
            if d.log_mode is not None:
                fields.append(f"log_mode={d.log_mode}")
            if d.callback_id:
                fields.append(f"callback_id={d.callback_id}")
            if d.partitioned:
                fields.append("partitioned=true")
            if d.op_id:
                fields.append(f"op_id={d.op_id}")
            items.append("{" + ",".join(fields) + "}")
        comma = "," if k < len(entries) - 1 else ""
        lines.append(f"{tab}{print_original_array(array)}:({','.join(items)}){comma}\n")
    return "".join(lines)


def print_stack_frames(index: StackFrameIndex) -> str:
    out = ["\n\nFileNames\n"]
    out += [f'{i + 1} "{c_escape(s)}"\n' for i, s in enumerate(index.file_names)]
    out.append("\nFunctionNames\n")
    out += [f'{i + 1} "{c_escape(s)}"\n' for i, s in enumerate(index.function_names)]
    out.append("\nFileLocations\n")
    out += [
        f"{i + 1} {{file_name_id={f.file_name_id} function_name_id={f.function_name_id} line={f.line} "
        f"end_line={f.end_line} column={f.column} end_column={f.end_column}}}\n"
        for i, f in enumerate(index.file_locations)
    ]
    out.append("\nStackFrames\n")
    out += [
        f"{i + 1} {{file_location_id={f.file_location_id} parent_frame_id={f.parent_frame_id + 1}}}\n"
        for i, f in enumerate(index.stack_frames)
    ]
    return "".join(out)


def parse_frontend(r: TextReader) -> Any:
    return parse_frontend_attributes(r)
