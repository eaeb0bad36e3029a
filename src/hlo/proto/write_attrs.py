"""The op attributes of an instruction written into its HloInstructionProto: one writer per text
attribute name (the reverse of op_attrs.CONVERTERS), with XLA's fields (HloInstruction::ToProto).
Attributes that name called computations travel as called_computation_ids (CALLS)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import HloError
from ..ir.attrs import ConvolutionDimensionNumbers, PaddingConfig, SliceRange, Window
from . import hlo_pb2, xla_data_pb2
from .literals import literal_to_proto
from .shapes import shape_to_proto
from .sharding import sharding_to_proto


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
    """gather's sizes; a collective-permute's lists flattened (XLA's ToProto)."""
    if p.opcode == "gather":
        p.gather_slice_sizes.extend(v)
    else:
        p.dynamic_slice_sizes.extend(size for sizes in v for size in sizes)


def _lower(p: Any, v: bool) -> None:
    if p.opcode == "cholesky":
        p.cholesky_options.lower = v
    else:
        p.triangular_solve_options.lower = v


def _replica_groups(p: Any, v: Any) -> None:
    from ..ir.replica_groups import ExplicitReplicaGroups, IotaReplicaGroups, MeshAxesReplicaGroups

    if isinstance(v, IotaReplicaGroups):
        g = p.collective_device_list.iota_replica_group_list
        g.num_replica_groups, g.num_devices_per_group = v.num_groups, v.group_size
        g.iota_reshape_dims.extend(v.reshape_dims)
        g.iota_transpose_perm.extend(v.transpose_perm)
    elif isinstance(v, ExplicitReplicaGroups | MeshAxesReplicaGroups):
        # A mesh-axes list is written as the groups it stands for, which every XLA reads.
        for group in v.groups():
            p.replica_groups.add().replica_ids.extend(group)
    else:
        raise HloError(f"writing {type(v).__name__} replica groups as a proto is not supported yet")


def _domain(p: Any, v: Any) -> None:
    if v.kind != "sharding":
        raise HloError(f"a domain of kind {v.kind!r} has no proto form (only sharding domains)")
    # XLA's proto names the sides the other way round from its text: domain_entry_sharding is
    # the operand side, the text's `exit=` (checked by XLA reading what this writes).
    sharding_to_proto(v.exit, p.domain_entry_sharding)
    sharding_to_proto(v.entry, p.domain_exit_sharding)


def _sparsity(p: Any, v: Any) -> None:
    for side in ("lhs", "rhs"):
        t = getattr(v, side)
        if t is not None:
            x = getattr(p.sparsity_config, side)
            x.num_non_zero, x.block_size, x.dimension, x.stride = (
                t.num_non_zero,
                t.block_size,
                t.dimension,
                t.stride,
            )


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
    "domain": _domain,
    "num_carries": _set("num_carries"),
    "is_reverse": _set("is_reverse"),
    "is_associative": lambda p, v: setattr(p, "is_associative", 1 if v else 2),
    "sparsity_config": _sparsity,
    "literal": lambda p, v: literal_to_proto(v, p.literal),
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
