"""HloModuleProto -> Module: the module is written as HLO text (the text XLA prints for it, up to
spacing) and parsed by hlo's text parser, so a proto and XLA's text of it give equal IR.

What XLA keeps only in the proto is carried into the text: the schedule (is_scheduled=true and
each computation's instructions in schedule order), the entry layout (host_program_shape), the
stack-frame tables, aliasing, buffer donors and frontend attributes."""

from __future__ import annotations

from typing import Any

from ..errors import HloError
from ..ir.frozen import FrozenDict
from ..ir.module import Module
from ..ir.opcode import opcode_from_text
from ..ops.registry import spec
from ..text.escapes import c_escape
from ..text.literal_codec import print_literal
from ..text.metadata_codec import print_frontend_attributes, print_metadata
from ..text.parser import ParseOptions, parse_module
from ..text.shape_codec import print_shape
from ..text.stack_frames import canonicalize_stack_frames
from .literals import literal_from_proto
from .metadata import metadata_from_proto
from .op_attrs import CONVERTERS, Context, ints, quoted
from .shapes import shape_from_proto
from .sharding import sharding_text


def module_from_proto(p: Any, name: str) -> Module:
    """The Module an HloModuleProto describes; `name` (the file) prefixes errors."""
    text = module_text(p, name)
    try:
        module = parse_module(text, f"{name} (as HLO text)", ParseOptions(keep_stack_frames=True))
    except HloError as e:
        raise HloError(f"{name}: {_where(text, e)}{e.message}") from None
    module = _stack_frames_as_xla_loads_them(p, module)
    return _with_recovery_table(p, _without_spans(module), name)


def _stack_frames_as_xla_loads_them(p: Any, module: Module) -> Module:
    """XLA re-interns a proto's stack-frame tables as it loads it: the frames in use (an
    instruction's or an ancestor of one), in order of first reference, computations in the
    proto's order and each one's instructions by id. Tables jax built come out unchanged (it
    builds them in that order); XLA:CPU's optimized modules store a computation's instructions
    in another order than their ids, and passes drop the instructions of some frames."""
    index = module.stack_frames
    if index is None:
        return module
    order = [
        i.metadata.stack_frame_id for c in p.computations for i in sorted(c.instructions, key=lambda i: i.id)
    ]
    return canonicalize_stack_frames(module, index, order)


def _with_recovery_table(p: Any, module: Module, name: str) -> Module:
    """The original-value recovery table goes straight into the IR (its modules are protos)."""
    from dataclasses import replace

    from ..ir.metadata import OriginalArray
    from ..ir.module import RecoveryEntry

    entries = []
    for k, e in enumerate(p.original_value_recovery_table.entries):
        old, new = e.old_original_array, e.new_original_array
        recovery = (
            module_from_proto(e.recovery_module, f"{name}: original_value_recovery_table.entries[{k}]")
            if e.HasField("recovery_module")
            else None
        )
        entries.append(
            RecoveryEntry(
                OriginalArray(old.instruction_name, tuple(old.shape_index)),
                OriginalArray(new.instruction_name, tuple(new.shape_index)),
                recovery,
            )
        )
    return replace(module, origin_recovery_table=tuple(entries)) if entries else module


def _where(text: str, e: HloError) -> str:
    """The computation and instruction a parse error is in (its line of the written text)."""
    if e.span is None:
        return ""
    lines = text[: e.span.offset].split("\n")
    line = lines[-1].strip()
    head = line.split(" = ", 1)[0].removeprefix("ROOT ").strip()
    computation = next((x for x in reversed(lines) if x.endswith("{") and not x.startswith(" ")), "")
    computation = computation.removeprefix("ENTRY ").split(" ", 1)[0]
    return f"computation {computation}, instruction {head}: " if head.startswith("%") else ""


def _without_spans(module: Module) -> Module:
    """Spans point into text the user never saw: errors about a proto name instructions instead."""
    from dataclasses import replace

    computations = tuple(
        replace(c, instructions=tuple(replace(i, span=None) for i in c.instructions), span=None)
        for c in module.computations
    )
    return replace(module, computations=computations, span=None)


def module_text(p: Any, name: str) -> str:
    if not p.computations:
        raise HloError(f"{name}: hlo_module.computations: the module has no computations")
    computations = {c.id: c.name for c in p.computations}
    shapes: dict[int, Any] = {}
    names: dict[int, str] = {}
    for c in p.computations:
        for i in c.instructions:
            names[i.id] = i.name
            shapes[i.id] = i.shape
    entry_id = p.entry_computation_id
    entry_name = computations.get(entry_id, p.entry_computation_name)
    scheduled = p.HasField("schedule") and len(p.schedule.sequences) > 0
    out = [_header(p, scheduled), _stack_frames(p)]
    for c in p.computations:
        where = f"{name}: computation {c.name!r}"
        instructions = list(c.instructions)
        if scheduled and c.id in p.schedule.sequences:
            by_id = {i.id: i for i in instructions}
            order = [by_id[k] for k in p.schedule.sequences[c.id].instruction_ids if k in by_id]
            instructions = order + [i for i in instructions if i not in order]
        body = [_instruction(i, i.id == c.root_id, computations, names, shapes, where) for i in instructions]
        head = ("ENTRY " if c.name == entry_name else "") + f"%{c.name} {{"
        tail = "}"
        if c.execution_thread and c.execution_thread != "main":
            tail += f", execution_thread={quoted(c.execution_thread)}"
        out.append("\n".join([head, *body, tail]) + "\n")
    return "\n".join(x for x in out if x)


def _header(p: Any, scheduled: bool) -> str:
    parts = [f"HloModule {p.name or 'module'}"]
    if scheduled:
        parts.append("is_scheduled=true")
    if p.HasField("host_program_shape"):
        ps = p.host_program_shape
        params = ", ".join(print_shape(shape_from_proto(s)) for s in ps.parameters)
        parts.append(f"entry_computation_layout={{({params})->{print_shape(shape_from_proto(ps.result))}}}")
    aliases = []
    for a in p.input_output_alias.entries:
        kind = "must-alias" if a.kind == 2 else "may-alias"
        aliases.append(
            f"{ints(a.output_shape_index)}: ({a.parameter_number}, {ints(a.parameter_shape_index)}, {kind})"
        )
    if aliases:
        parts.append("input_output_alias={ " + ", ".join(aliases) + " }")
    donors = [f"({d.parameter_number}, {ints(d.parameter_shape_index)})" for d in p.buffer_donor.entries]
    if donors:
        parts.append("buffer_donor={ " + ", ".join(donors) + " }")
    if p.frontend_attributes.map:
        parts.append("frontend_attributes=" + _frontend(p.frontend_attributes))
    if p.device_assignment.replica_count > 1:
        parts.append(f"replica_count={p.device_assignment.replica_count}")
    if p.device_assignment.computation_count > 1:
        parts.append(f"num_partitions={p.device_assignment.computation_count}")
    return ", ".join(parts) + "\n"


def _frontend(attrs: Any) -> str:
    return print_frontend_attributes(FrozenDict(sorted(attrs.map.items())))


def _stack_frames(p: Any) -> str:
    if not p.HasField("stack_frame_index"):
        return ""
    s = p.stack_frame_index
    if not (s.file_names or s.stack_frames):
        return ""
    out = ["FileNames"] + [f'{k} "{c_escape(n)}"' for k, n in enumerate(s.file_names, 1)] + [""]
    out += ["FunctionNames"] + [f'{k} "{c_escape(n)}"' for k, n in enumerate(s.function_names, 1)] + [""]
    out.append("FileLocations")
    for k, loc in enumerate(s.file_locations, 1):
        out.append(
            f"{k} {{file_name_id={loc.file_name_id} function_name_id={loc.function_name_id} "
            f"line={loc.line} end_line={loc.end_line} column={loc.column} "
            f"end_column={loc.end_column}}}"
        )
    out += ["", "StackFrames"]
    for k, frame in enumerate(s.stack_frames, 1):
        out.append(
            f"{k} {{file_location_id={frame.file_location_id} parent_frame_id={frame.parent_frame_id + 1}}}"
        )
    return "\n".join(out) + "\n"


def _instruction(
    i: Any,
    is_root: bool,
    computations: dict[int, str],
    names: dict[int, str],
    shapes: dict[int, Any],
    where: str,
) -> str:
    where = f"{where}, instruction {i.name!r}"
    try:
        operands = [names[k] for k in i.operand_ids]
    except KeyError as e:
        raise HloError(f"{where}: operand_ids: no instruction with id {e.args[0]}") from None
    shape = shape_from_proto(i.shape, f"{where}: shape")
    if i.opcode == "constant":  # without a literal: a constant whose values were elided
        inside = (
            print_literal(literal_from_proto(i.literal, f"{where}: literal"))
            if i.HasField("literal")
            else "{...}"
        )
    elif i.opcode == "parameter":
        inside = str(i.parameter_number)
    else:
        inside = ", ".join(f"%{n}" for n in operands)
    line = f"{'ROOT ' if is_root else ''}%{i.name} = {print_shape(shape)} {i.opcode}({inside})"
    attrs = _op_attrs(i, Context(computations, [shape_from_proto(shapes[k]) for k in i.operand_ids], where))
    attrs += _generic_attrs(i, names)
    return "  " + ", ".join([line, *attrs])


def _op_attrs(i: Any, ctx: Context) -> list[str]:
    op = opcode_from_text(i.opcode)
    if op is None:
        raise HloError(f"{ctx.where}: opcode: unknown opcode {i.opcode!r}") from None
    out = []
    for attr in spec(op).attrs:
        convert = CONVERTERS.get(attr.name)
        value = convert(i, ctx) if convert is not None else None
        if value is not None:
            out.append(f"{attr.name}={value}")
    return out


def _generic_attrs(i: Any, names: dict[int, str]) -> list[str]:
    out = []
    if i.HasField("sharding"):
        out.append("sharding=" + sharding_text(i.sharding))
    if i.frontend_attributes.map:
        out.append("frontend_attributes=" + _frontend(i.frontend_attributes))
    if i.control_predecessor_ids:
        out.append(
            "control-predecessors={" + ", ".join(f"%{names[k]}" for k in i.control_predecessor_ids) + "}"
        )
    stats = i.statistics_viz
    if stats.statistics:
        items = [f"visualizing_index={stats.stat_index_to_visualize}"]
        items += [f"{s.stat_name}={s.stat_val:g}" for s in stats.statistics]
        out.append("statistics={" + ",".join(items) + "}")
    if i.HasField("result_accuracy"):
        ra = i.result_accuracy
        if ra.HasField("tolerance"):
            t = ra.tolerance
            out.append(f"result_accuracy={{tolerance={{atol={t.atol:g},rtol={t.rtol:g},ulps={t.ulps}}}}}")
        elif ra.mode == 1:
            out.append("result_accuracy={mode=highest}")
    if i.HasField("original_value") and (i.original_value.elements or i.original_value.is_synthetic_call):
        out.append("origin=" + _origin(i))
    if i.HasField("metadata"):
        md = metadata_from_proto(i.metadata)
        if md.is_printed:
            out.append("metadata={" + print_metadata(md) + "}")
    if i.backend_config:
        out.append("backend_config=" + quoted(i.backend_config))
    if i.opcode == "parameter" and i.parameter_replication.replicated_at_leaf_buffers:
        values = i.parameter_replication.replicated_at_leaf_buffers
        out.append("parameter_replication={" + ",".join("true" if v else "false" for v in values) + "}")
    return out


def _origin(i: Any) -> str:
    """`origin={...}`: the original value's leaves laid out as the instruction's shape."""
    if i.original_value.is_synthetic_call:
        return "{[synthetic_call]}"
    leaves = {tuple(e.shape_index): e.original_array for e in i.original_value.elements}

    def tree(shape: Any, index: tuple[int, ...]) -> str:
        if shape.element_type == 13:  # TUPLE
            return "(" + ", ".join(tree(s, (*index, k)) for k, s in enumerate(shape.tuple_shapes)) + ")"
        leaf = leaves.get(index)
        if leaf is None or not leaf.instruction_name:
            return "{}"
        where = f" {ints(leaf.shape_index)}" if leaf.shape_index else ""
        return "{" + quoted(leaf.instruction_name) + where + "}"

    return "{" + tree(i.shape, ()) + "}"
