"""Module -> HloModuleProto (XLA's HloModule::ToProto): for `hlo fmt --to pb|pbtxt`.

A module read from a proto is written back from the decoded message itself (nothing lost). A
module from text gets ids numbered in order (computations from 1, instructions per module from
1), its schedule from the text order when `is_scheduled=true`, and the op attributes below; an
attribute outside the table is refused with its name rather than dropped."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from google.protobuf import text_format

from ..errors import HloError
from ..ir.attrs import ConvolutionDimensionNumbers, PaddingConfig, SliceRange, Window
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from . import hlo_pb2, xla_data_pb2
from .literals import literal_to_proto
from .metadata import metadata_to_proto
from .shapes import shape_to_proto
from .sharding import sharding_to_proto


def module_to_proto_bytes(loaded: Any, as_text: bool) -> bytes | str:
    """`loaded` is a replay.load.Loaded; its decoded message is reused when there is one."""
    decoded = getattr(loaded, "decoded", None)
    p = decoded.module if decoded is not None else module_to_proto(loaded.module)
    return text_format.MessageToString(p) if as_text else p.SerializeToString()


def _ints(field: str) -> Callable[[Any, Any], None]:
    return lambda p, v: getattr(p, field).extend(v)


def _enum_text(field: str) -> Callable[[Any, Any], None]:
    return lambda p, v: setattr(p, field, v.value)


def _slice(p: Any, v: tuple[SliceRange, ...]) -> None:
    for s in v:
        d = p.slice_dimensions.add()
        d.start, d.limit, d.stride = s.start, s.limit, s.stride


def _window(p: Any, v: Window) -> None:
    p.window.SetInParent()
    for w in v.dimensions:
        d = p.window.dimensions.add()
        d.size, d.stride, d.padding_low, d.padding_high = w.size, w.stride, w.padding_low, w.padding_high
        d.base_dilation, d.window_dilation, d.window_reversal = (
            w.base_dilation,
            w.window_dilation,
            w.window_reversal,
        )


def _padding(p: Any, v: PaddingConfig) -> None:
    for d in v.dimensions:
        x = p.padding_config.dimensions.add()
        x.edge_padding_low, x.edge_padding_high, x.interior_padding = d.low, d.high, d.interior


def _conv_dims(p: Any, v: ConvolutionDimensionNumbers) -> None:
    c = p.convolution_dimension_numbers
    for name in (
        "input_batch_dimension",
        "input_feature_dimension",
        "kernel_input_feature_dimension",
        "kernel_output_feature_dimension",
        "output_batch_dimension",
        "output_feature_dimension",
    ):
        setattr(c, name, getattr(v, name))
    for name in ("input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions"):
        getattr(c, name).extend(getattr(v, name))


def _dot(field: str) -> Callable[[Any, Any], None]:
    return lambda p, v: getattr(p.dot_dimension_numbers, field).extend(v)


def _gather(field: str) -> Callable[[Any, Any], None]:
    def put(p: Any, v: Any) -> None:
        dims = p.gather_dimension_numbers if p.opcode == "gather" else p.scatter_dimension_numbers
        if isinstance(v, int):
            setattr(dims, field, v)
        else:
            getattr(dims, field).extend(v)

    return put


def _set(field: str) -> Callable[[Any, Any], None]:
    return lambda p, v: setattr(p, field, v)


def _precision(p: Any, v: Any) -> None:
    names = {"default": 0, "high": 1, "highest": 2}
    p.precision_config.operand_precision.extend(names[x.value] for x in v)


def _algorithm(p: Any, v: Any) -> None:
    if p.opcode == "rng-bit-generator":
        p.rng_algorithm = {"rng_default": 0, "rng_three_fry": 1, "rng_philox": 2}[v.value]
    elif v.value != "unset":
        p.precision_config.algorithm = xla_data_pb2.PrecisionConfig.Algorithm.Value("ALG_" + v.value.upper())


def _layout_constraints(p: Any, v: Any) -> None:
    p.constrain_layout = True
    for s in v:
        shape_to_proto(s, p.operand_shapes_with_layout.add())


def _aliasing(p: Any, v: Any) -> None:
    for a in v:
        x = p.output_operand_aliasing.add()
        x.output_shape_index.extend(a.output_index)
        x.operand_index = a.operand
        x.operand_shape_index.extend(a.operand_index)


def _slice_sizes(p: Any, v: Any) -> None:
    if p.opcode != "gather":
        raise HloError(f"writing slice_sizes of {p.opcode} as a proto is not supported yet")
    p.gather_slice_sizes.extend(v)


def _lower(p: Any, v: bool) -> None:
    if p.opcode == "cholesky":
        p.cholesky_options.lower = v
    else:
        p.triangular_solve_options.lower = v


def _replica_groups(p: Any, v: Any) -> None:
    from ..ir.replica_groups import ExplicitReplicaGroups, IotaReplicaGroups

    if isinstance(v, IotaReplicaGroups):
        g = p.collective_device_list.iota_replica_group_list
        g.num_replica_groups, g.num_devices_per_group = v.num_groups, v.group_size
        g.iota_reshape_dims.extend(v.reshape_dims)
        g.iota_transpose_perm.extend(v.transpose_perm)
    elif isinstance(v, ExplicitReplicaGroups):
        for group in v.groups():
            p.replica_groups.add().replica_ids.extend(group)
    else:
        raise HloError(f"writing {type(v).__name__} replica groups as a proto is not supported yet")


def _pairs(p: Any, v: Any) -> None:
    for source, target in v:
        pair = p.source_target_pairs.add()
        pair.source, pair.target = source, target


CALLS = {
    "to_apply",
    "calls",
    "condition",
    "body",
    "select",
    "scatter",
    "true_computation",
    "false_computation",
    "branch_computations",
    "called_computations",
}
WRITERS: dict[str, Callable[[Any, Any], None]] = {
    "dimensions": _ints("dimensions"),
    "index": _set("tuple_index"),
    "iota_dimension": lambda p, v: p.dimensions.append(v),
    "direction": _enum_text("comparison_direction"),
    "type": _enum_text("comparison_type"),
    "kind": _enum_text("fusion_kind"),
    "slice": _slice,
    "dynamic_slice_sizes": _ints("dynamic_slice_sizes"),
    "padding": _padding,
    "window": _window,
    "dim_labels": _conv_dims,
    "feature_group_count": _set("feature_group_count"),
    "batch_group_count": _set("batch_group_count"),
    "operand_precision": _precision,
    "algorithm": _algorithm,
    "lhs_batch_dims": _dot("lhs_batch_dimensions"),
    "lhs_contracting_dims": _dot("lhs_contracting_dimensions"),
    "rhs_batch_dims": _dot("rhs_batch_dimensions"),
    "rhs_contracting_dims": _dot("rhs_contracting_dimensions"),
    "is_stable": _set("is_stable"),
    "custom_call_target": _set("custom_call_target"),
    "custom_call_has_side_effect": _set("custom_call_has_side_effect"),
    "api_version": lambda p, v: setattr(
        p, "custom_call_api_version", hlo_pb2.CustomCallApiVersion.Value(v.value)
    ),
    "fft_type": lambda p, v: setattr(p, "fft_type", xla_data_pb2.FftType.Value(v.value)),
    "fft_length": _ints("fft_length"),
    "exponent_bits": _set("exponent_bits"),
    "mantissa_bits": _set("mantissa_bits"),
    "indices_are_sorted": _set("indices_are_sorted"),
    "unique_indices": _set("unique_indices"),
    "slice_sizes": _slice_sizes,
    "k": _set("k"),
    "largest": _set("largest"),
    "channel_id": _set("channel_id"),
    "use_global_device_ids": _set("use_global_device_ids"),
    "is_composite": _set("is_composite"),
    "operand_layout_constraints": _layout_constraints,
    "replica_groups": _replica_groups,
    "async_execution_thread": _set("async_execution_thread"),
    "is_host_transfer": _set("is_host_transfer"),
    "left_side": lambda p, v: setattr(p.triangular_solve_options, "left_side", v),
    "lower": _lower,
    "unit_diagonal": lambda p, v: setattr(p.triangular_solve_options, "unit_diagonal", v),
    "transpose_a": lambda p, v: setattr(
        p.triangular_solve_options,
        "transpose_a",
        xla_data_pb2.TriangularSolveOptions.Transpose.Value(v.value),
    ),
    "epsilon": _set("epsilon"),
    "feature_index": _set("feature_index"),
    "delta": _set("delta"),
    "infeed_config": lambda p, v: setattr(p, "infeed_config", v.encode("utf-8", errors="surrogateescape")),
    "outfeed_config": lambda p, v: setattr(p, "outfeed_config", v.encode("utf-8", errors="surrogateescape")),
    "outfeed_shape": lambda p, v: shape_to_proto(v, p.outfeed_shape),
    "cross_program_prefetch_index": _set("cross_program_prefetch_index"),
    "schedule": lambda p, v: setattr(p, "custom_call_schedule", hlo_pb2.CustomCallSchedule.Value(v.value)),
    "padding_type": lambda p, v: setattr(p, "padding_type", xla_data_pb2.PaddingType.Value(v.value)),
    "source_target_pairs": _pairs,
    "constrain_layout": _set("constrain_layout"),
    "output_to_operand_aliasing": _aliasing,
    "distribution": lambda p, v: setattr(
        p, "distribution", {"rng_uniform": 1, "rng_normal": 2}.get(v.value, 0)
    ),
}
for _name in (
    "offset_dims",
    "collapsed_slice_dims",
    "start_index_map",
    "operand_batching_dims",
    "start_indices_batching_dims",
    "index_vector_dim",
    "update_window_dims",
    "inserted_window_dims",
    "scatter_dims_to_operand_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
):
    WRITERS[_name] = _gather(_name)


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
            if value.is_elided if hasattr(value, "is_elided") else False:
                raise HloError(f"{where}: the constant's values are elided ({{...}}): nothing to write")
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
