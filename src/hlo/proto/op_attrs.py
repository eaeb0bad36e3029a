"""The op attributes of an HloInstructionProto as HLO text (`name=value`), one converter per text
attribute name of the op schemas (hlo.ops). The module reader writes an instruction's line from
these and lets the text parser build the IR, so a proto and the text XLA prints for it give the
same IR by construction. The proto field each attribute comes from is XLA's
(HloInstruction::CreateFromProto); a converter returns None when the proto leaves it unset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..text.shape_codec import print_shape
from . import xla_data_pb2
from .attr_text import Context, ints, quoted
from .op_attrs_extra import EXTRA
from .shapes import shape_from_proto

__all__ = ["CONVERTERS", "Context", "ints", "quoted"]


def _called(p: Any, ctx: Context, k: int) -> str | None:
    ids = list(p.called_computation_ids)
    return ctx.computation(ids[k]) if k < len(ids) else None


def _to_apply(p: Any, ctx: Context) -> str | None:
    if p.opcode == "custom-call" and len(p.called_computation_ids) != 1:
        return None
    return _called(p, ctx, 0)


def _called_list(p: Any, ctx: Context) -> str | None:
    ids = list(p.called_computation_ids)
    if p.opcode == "custom-call" and len(ids) < 2:
        return None
    return "{" + ", ".join(ctx.computation(i) for i in ids) + "}"


def _branches(p: Any, ctx: Context, which: int) -> str | None:
    """conditional: true/false computations when the selector is a predicate, else branches."""
    pred = bool(ctx.operand_shapes) and ctx.operand_shapes[0].element_type.name == "PRED"
    if which < 0:
        return None if pred else _called_list(p, ctx)
    return _called(p, ctx, which) if pred else None


def _precision(p: Any, ctx: Context) -> str | None:
    names = {0: "default", 1: "high", 2: "highest"}
    values = p.precision_config.operand_precision
    return "{" + ",".join(names[v] for v in values) + "}" if values else None


def _algorithm(p: Any, ctx: Context) -> str | None:
    if p.opcode == "rng-bit-generator":
        return {0: "rng_default", 1: "rng_three_fry", 2: "rng_philox"}[p.rng_algorithm]
    algorithm = p.precision_config.algorithm
    if not algorithm:
        return None
    return xla_data_pb2.PrecisionConfig.Algorithm.Name(algorithm).lower().removeprefix("alg_")


def _dot_dims(field: str) -> Callable[[Any, Context], str | None]:
    def convert(p: Any, ctx: Context) -> str | None:
        if p.opcode == "ragged-dot":
            dims = p.ragged_dot_dimension_numbers.dot_dimension_numbers
        else:
            dims = p.dot_dimension_numbers
        values = getattr(dims, field)
        return ints(values) if values else None

    return convert


def _slice(p: Any, ctx: Context) -> str:
    parts = []
    for s in p.slice_dimensions:
        parts.append(f"[{s.start}:{s.limit}" + (f":{s.stride}]" if s.stride != 1 else "]"))
    return "{" + ", ".join(parts) + "}"


def _padding(p: Any, ctx: Context) -> str:
    dims = p.padding_config.dimensions
    return "x".join(f"{d.edge_padding_low}_{d.edge_padding_high}_{d.interior_padding}" for d in dims)


def _aliasing(p: Any, ctx: Context) -> str | None:
    if not p.output_operand_aliasing:
        return None
    parts = [
        f"{ints(a.output_shape_index)}: ({a.operand_index}, {ints(a.operand_shape_index)})"
        for a in p.output_operand_aliasing
    ]
    return "{" + ", ".join(parts) + "}"


def _layout_constraints(p: Any, ctx: Context) -> str | None:
    if not p.constrain_layout or p.opcode != "custom-call":
        return None
    shapes = [print_shape(shape_from_proto(s)) for s in p.operand_shapes_with_layout]
    return "{" + ", ".join(shapes) + "}"


def _bool(field: str) -> Callable[[Any, Context], str | None]:
    return lambda p, ctx: "true" if getattr(p, field) else None


def _int(field: str, skip: int | None = 0) -> Callable[[Any, Context], str | None]:
    return lambda p, ctx: None if getattr(p, field) == skip else str(getattr(p, field))


def _int_list(field: str) -> Callable[[Any, Context], str | None]:
    return lambda p, ctx: ints(getattr(p, field))


def _gather(field: str) -> Callable[[Any, Context], str | None]:
    def convert(p: Any, ctx: Context) -> str | None:
        dims = p.gather_dimension_numbers if p.opcode == "gather" else p.scatter_dimension_numbers
        value = getattr(dims, field)
        return str(value) if isinstance(value, int) else ints(value)

    return convert


def _first_dimension(p: Any, ctx: Context) -> str | None:
    return str(p.dimensions[0]) if p.dimensions else None


def _epsilon(p: Any, ctx: Context) -> str:
    return str(np.float32(p.epsilon))  # the shortest text of the float32 value, as XLA's StrCat


def _async_thread(p: Any, ctx: Context) -> str | None:
    thread = p.async_execution_thread
    return quoted(thread) if thread and thread != "main" else None


def _triangular(field: str) -> Callable[[Any, Context], str | None]:
    def convert(p: Any, ctx: Context) -> str | None:
        if not p.HasField("triangular_solve_options"):
            return None
        value = getattr(p.triangular_solve_options, field)
        if field == "transpose_a":
            return ("TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")[value]
        return "true" if value else "false"

    return convert


def _enum(field: str, names: dict[int, str], skip: int | None = None) -> Callable[[Any, Context], str | None]:
    return lambda p, ctx: None if getattr(p, field) == skip else names[getattr(p, field)]


CONVERTERS: dict[str, Callable[[Any, Context], str | None]] = {
    "channel_id": _int("channel_id"),
    "constrain_layout": lambda p, ctx: "true" if p.constrain_layout and p.opcode != "custom-call" else None,
    "dimensions": lambda p, ctx: (
        None if not p.dimensions and p.opcode in ("all-to-all", "ragged-all-to-all") else ints(p.dimensions)
    ),
    "use_global_device_ids": _bool("use_global_device_ids"),
    "to_apply": _to_apply,
    "calls": lambda p, ctx: _called(p, ctx, 0),
    "condition": lambda p, ctx: _called(p, ctx, 1),
    "body": lambda p, ctx: _called(p, ctx, 0),
    "select": lambda p, ctx: _called(p, ctx, 0),
    "scatter": lambda p, ctx: _called(p, ctx, 1) if p.opcode == "select-and-scatter" else _called(p, ctx, 0),
    "true_computation": lambda p, ctx: _branches(p, ctx, 0),
    "false_computation": lambda p, ctx: _branches(p, ctx, 1),
    "branch_computations": lambda p, ctx: _branches(p, ctx, -1),
    "called_computations": _called_list,
    "async_execution_thread": _async_thread,
    "output_to_operand_aliasing": _aliasing,
    "kind": lambda p, ctx: p.fusion_kind or None,
    "feature_group_count": lambda p, ctx: str(p.feature_group_count) if p.feature_group_count > 1 else None,
    "batch_group_count": lambda p, ctx: str(p.batch_group_count) if p.batch_group_count > 1 else None,
    "operand_precision": _precision,
    "algorithm": _algorithm,
    "padding_type": _enum("padding_type", {1: "PADDING_VALID", 2: "PADDING_SAME"}, 0),
    "custom_call_target": lambda p, ctx: quoted(p.custom_call_target),
    "operand_layout_constraints": _layout_constraints,
    "custom_call_has_side_effect": _bool("custom_call_has_side_effect"),
    "schedule": _enum("custom_call_schedule", {1: "SCHEDULE_LATEST", 2: "SCHEDULE_EARLIEST"}, 0),
    "api_version": _enum(
        "custom_call_api_version",
        {
            1: "API_VERSION_ORIGINAL",
            2: "API_VERSION_STATUS_RETURNING",
            3: "API_VERSION_STATUS_RETURNING_UNIFIED",
            4: "API_VERSION_TYPED_FFI",
        },
        0,
    ),
    "lhs_batch_dims": _dot_dims("lhs_batch_dimensions"),
    "lhs_contracting_dims": _dot_dims("lhs_contracting_dimensions"),
    "rhs_batch_dims": _dot_dims("rhs_batch_dimensions"),
    "rhs_contracting_dims": _dot_dims("rhs_contracting_dimensions"),
    "lhs_ragged_dims": lambda p, ctx: ints(p.ragged_dot_dimension_numbers.lhs_ragged_dimensions),
    "rhs_group_dims": lambda p, ctx: ints(p.ragged_dot_dimension_numbers.rhs_group_dimensions),
    "dynamic_slice_sizes": _int_list("dynamic_slice_sizes"),
    "fft_type": _enum("fft_type", {0: "FFT", 1: "IFFT", 2: "RFFT", 3: "IRFFT"}),
    "fft_length": _int_list("fft_length"),
    "offset_dims": _gather("offset_dims"),
    "collapsed_slice_dims": _gather("collapsed_slice_dims"),
    "start_index_map": _gather("start_index_map"),
    "operand_batching_dims": _gather("operand_batching_dims"),
    "start_indices_batching_dims": _gather("start_indices_batching_dims"),
    "index_vector_dim": _gather("index_vector_dim"),
    "indices_are_sorted": _bool("indices_are_sorted"),
    "unique_indices": _bool("unique_indices"),
    "update_window_dims": _gather("update_window_dims"),
    "inserted_window_dims": _gather("inserted_window_dims"),
    "scatter_dims_to_operand_dims": _gather("scatter_dims_to_operand_dims"),
    "input_batching_dims": _gather("input_batching_dims"),
    "scatter_indices_batching_dims": _gather("scatter_indices_batching_dims"),
    "index": lambda p, ctx: str(p.tuple_index),
    "infeed_config": lambda p, ctx: quoted(p.infeed_config) if p.infeed_config else None,
    "outfeed_config": lambda p, ctx: quoted(p.outfeed_config) if p.outfeed_config else None,
    "outfeed_shape": lambda p, ctx: (
        print_shape(shape_from_proto(p.outfeed_shape)) if p.HasField("outfeed_shape") else None
    ),
    "iota_dimension": _first_dimension,
    "padding": _padding,
    "direction": lambda p, ctx: p.comparison_direction or None,
    "type": lambda p, ctx: p.comparison_type or None,
    "slice": _slice,
    "exponent_bits": lambda p, ctx: str(p.exponent_bits),
    "mantissa_bits": lambda p, ctx: str(p.mantissa_bits),
    "inferred_dimension": lambda p, ctx: None,
    "distribution": _enum("distribution", {1: "rng_uniform", 2: "rng_normal"}, 0),
    "delta": lambda p, ctx: str(p.delta),
    "k": lambda p, ctx: str(p.k),
    "largest": lambda p, ctx: "true" if p.largest else "false",
    "is_stable": _bool("is_stable"),
    "epsilon": _epsilon,
    "feature_index": lambda p, ctx: str(p.feature_index),
    "left_side": _triangular("left_side"),
    "lower": lambda p, ctx: (
        ("true" if p.cholesky_options.lower else "false")
        if p.opcode == "cholesky"
        else _triangular("lower")(p, ctx)
    ),
    "unit_diagonal": _triangular("unit_diagonal"),
    "transpose_a": _triangular("transpose_a"),
    "source_target_pairs": lambda p, ctx: (
        "{" + ",".join(f"{{{s.source},{s.target}}}" for s in p.source_target_pairs) + "}"
    ),
    "is_host_transfer": _bool("is_host_transfer"),
    "cross_program_prefetch_index": lambda p, ctx: (
        str(p.cross_program_prefetch_index) if p.HasField("cross_program_prefetch_index") else None
    ),
    "is_composite": _bool("is_composite"),
}
CONVERTERS.update(EXTRA)
