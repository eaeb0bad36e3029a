"""Module -> HloModuleProto (XLA's HloModule::ToProto): for `hlo fmt --to pb|pbtxt`.

A module read from a proto is written back from the decoded message itself (nothing lost). A
module from text gets ids numbered in order (computations from 1, instructions per module from
1), its schedule from the text order when `is_scheduled=true`, and the op attributes below; an
attribute outside the table is refused with its name rather than dropped."""

from __future__ import annotations

import enum
from typing import Any

from google.protobuf import text_format

from ..errors import HloError
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from . import hlo_pb2
from .literals import literal_to_proto
from .metadata import metadata_to_proto
from .shapes import shape_to_proto
from .sharding import sharding_to_proto
from .write_attrs import CALLS, WRITERS


def module_to_proto_bytes(loaded: Any, as_text: bool) -> bytes | str:
    """`loaded` is a replay.load.Loaded; its decoded message is reused when there is one."""
    decoded = getattr(loaded, "decoded", None)
    p = decoded.module if decoded is not None else module_to_proto(loaded.module)
    return text_format.MessageToString(p) if as_text else p.SerializeToString()


def module_to_proto(module: Module) -> Any:
    p = hlo_pb2.HloModuleProto()
    p.name = module.name
    comp_ids = {c.name: k for k, c in enumerate(module.computations, 1)}
    next_id = 1
    for c in module.computations:
        cp = p.computations.add()
        cp.name, cp.id = c.name, comp_ids[c.name]
        if c.execution_thread != "main":
            cp.execution_thread = c.execution_thread
        ids: dict[str, int] = {}
        for i in c.instructions:
            ids[i.name] = next_id
            next_id += 1
        for i in c.instructions:
            _instruction(i, cp.instructions.add(), ids, comp_ids, f"{module.name}: {c.name}: {i.name}")
        cp.root_id = ids[c.root_name]
        if module.is_scheduled:
            p.schedule.sequences[cp.id].instruction_ids.extend(ids[i.name] for i in c.instructions)
        for param in c.parameters:  # XLA checks one name per parameter
            shape_to_proto(param.shape, cp.program_shape.parameters.add())
            cp.program_shape.parameter_names.append(param.name)
        shape_to_proto(c.root.shape, cp.program_shape.result)
    p.entry_computation_name = module.entry_name
    p.entry_computation_id = comp_ids[module.entry_name]
    layout = module.config.entry_computation_layout
    if layout is not None:
        for s, param in zip(layout.parameters, module.entry.parameters):
            shape_to_proto(s, p.host_program_shape.parameters.add())
            p.host_program_shape.parameter_names.append(param.name)
        shape_to_proto(layout.result, p.host_program_shape.result)
    for a in module.input_output_alias:
        e = p.input_output_alias.entries.add()
        e.output_shape_index.extend(a.output_index)
        e.parameter_number = a.parameter
        e.parameter_shape_index.extend(a.parameter_index)
        e.kind = 2 if a.must_alias else 1
    for key, value in module.frontend_attributes.items():
        p.frontend_attributes.map[key] = value
    if module.stack_frames is not None:
        _stack_frames(module.stack_frames, p.stack_frame_index)
    for entry in module.origin_recovery_table:
        e = p.original_value_recovery_table.entries.add()
        for array, field in ((entry.old, e.old_original_array), (entry.new, e.new_original_array)):
            field.instruction_name = array.instruction_name
            field.shape_index.extend(array.shape_index)
        if entry.module is not None:
            e.recovery_module.CopyFrom(module_to_proto(entry.module))
    if module.debug_attributes:
        raise HloError(
            f"{module.name}: debug_attributes: HloModuleProto has no field for them "
            "(XLA's schema as of jaxlib 0.10.2)"
        )
    replicas, partitions = module.config.replica_count, module.config.num_partitions
    if replicas > 1 or partitions > 1:
        # The module config is not part of HloModuleProto; a device assignment carries the counts.
        da = p.device_assignment
        da.replica_count, da.computation_count = replicas, partitions
        for part in range(partitions):
            da.computation_devices.add().replica_device_ids.extend(
                r * partitions + part for r in range(replicas)
            )
    return p


def _origin(v: Any, p: Any) -> None:
    from ..ir.metadata import OriginalArray

    if v.synthetic_call:
        p.is_synthetic_call = True
        return

    def walk(tree: Any, index: tuple[int, ...]) -> None:
        if isinstance(tree, tuple):
            for k, t in enumerate(tree):
                walk(t, (*index, k))
        elif isinstance(tree, OriginalArray):
            e = p.elements.add()
            e.shape_index.extend(index)
            e.original_array.instruction_name = tree.instruction_name
            e.original_array.shape_index.extend(tree.shape_index)

    walk(v.tree, ())


def _stack_frames(s: Any, p: Any) -> None:
    p.file_names.extend(s.file_names)
    p.function_names.extend(s.function_names)
    for loc in s.file_locations:
        x = p.file_locations.add()
        x.file_name_id, x.function_name_id, x.line, x.column = (
            loc.file_name_id,
            loc.function_name_id,
            loc.line,
            loc.column,
        )
        x.end_line, x.end_column = loc.end_line, loc.end_column
    for frame in s.stack_frames:
        f = p.stack_frames.add()
        f.file_location_id, f.parent_frame_id = frame.file_location_id, frame.parent_frame_id


def _instruction(i: Instruction, p: Any, ids: dict[str, int], comp_ids: dict[str, int], where: str) -> None:
    p.name, p.opcode, p.id = i.name, i.opcode.text, ids[i.name]
    shape_to_proto(i.shape, p.shape)
    p.operand_ids.extend(ids[o] for o in i.operands)
    p.control_predecessor_ids.extend(ids[o] for o in i.control_predecessors)
    p.called_computation_ids.extend(comp_ids[n] for n in i.called_computations)
    if i.opcode is Opcode.PARAMETER:
        p.parameter_number = i.attr("parameter_number", i.attr("number", 0))
    for name, value in i.attrs.items():
        if name in CALLS or value is None:
            continue
        if name == "literal" and i.opcode is Opcode.CONSTANT:
            if not value.is_elided:  # an elided constant ({...}) is one without a literal in XLA
                literal_to_proto(value, p.literal)
            continue
        if name in ("parameter_number", "number") and i.opcode is Opcode.PARAMETER:
            continue
        writer = WRITERS.get(name)
        if writer is None:
            if isinstance(value, enum.Enum) or value in ((), False, 0, -1):
                continue  # a default XLA leaves out of the proto
            raise HloError(
                f"{where}: writing attribute {name!r} of {i.opcode.text} as a proto is not supported yet"
            )
        try:
            writer(p, value)
        except HloError as e:
            raise HloError(f"{where}: {e}") from None
    if i.metadata is not None:
        metadata_to_proto(i.metadata, p.metadata)
    for key, value in i.frontend_attributes.items():
        p.frontend_attributes.map[key] = value
    if i.backend_config:
        p.backend_config = i.backend_config.encode("utf-8", errors="surrogateescape")
    if i.parameter_replication is not None:
        p.parameter_replication.replicated_at_leaf_buffers.extend(i.parameter_replication)
    if i.statistics is not None:
        p.statistics_viz.stat_index_to_visualize = i.statistics.visualizing_index
        for stat_name, value in i.statistics.stats:
            stat = p.statistics_viz.statistics.add()
            stat.stat_name, stat.stat_val = stat_name, value
    if i.result_accuracy is not None and i.result_accuracy.is_printed:
        ra = i.result_accuracy
        if ra.has_tolerance:
            t = p.result_accuracy.tolerance
            t.atol, t.rtol, t.ulps = ra.atol or 0.0, ra.rtol or 0.0, ra.ulps or 0
        else:
            p.result_accuracy.mode = 1
    if i.original_value is not None:
        _origin(i.original_value, p.original_value)
    if i.sharding is not None:
        try:
            sharding_to_proto(i.sharding, p.sharding)
        except HloError as e:
            raise HloError(f"{where}: {e}") from None
