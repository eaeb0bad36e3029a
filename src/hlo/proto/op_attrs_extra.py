"""Proto -> text converters of the structured attributes (windows, convolution dimension labels,
replica groups) and of the rarer ones: a custom call's `literal=`, a domain's shardings, and a
collective-permute's in-place `slice_sizes` (XLA's ToProto flattens the lists into
dynamic_slice_sizes; CreateFromProto splits them again by the ranks of the buffers and the number
of offset tuples, as here)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import HloError
from ..ir.attrs import SparsityConfig, TensorSparsity
from ..text.array_attr_codecs import print_sparsity_config
from ..text.literal_codec import print_literal
from .attr_text import Context, ints
from .literals import literal_from_proto
from .sharding import sharding_text


def _replica_groups(p: Any, ctx: Context) -> str:
    device_list = p.collective_device_list
    if device_list.HasField("iota_replica_group_list"):
        g = device_list.iota_replica_group_list
        dims, perm = list(g.iota_reshape_dims), list(g.iota_transpose_perm)
        text = f"[{g.num_replica_groups},{g.num_devices_per_group}]<=[{','.join(map(str, dims))}]"
        if perm and perm != list(range(len(perm))):
            text += "T(" + ",".join(map(str, perm)) + ")"
        return text
    groups = device_list.replica_groups or p.replica_groups
    return "{" + ",".join(ints(g.replica_ids) for g in groups) + "}"


def _window(p: Any, ctx: Context) -> str | None:
    if not p.HasField("window"):
        return None
    dims = p.window.dimensions
    if not dims:
        return "{}"

    def field(name: str, fmt: Callable[[Any], str], default: Any) -> str:
        values = [getattr(d, name) for d in dims]
        if all(v == default for v in values):
            return ""
        return "x".join(fmt(d) for d in dims)

    parts = [("size", field("size", lambda d: str(d.size), None))]
    parts.append(("stride", field("stride", lambda d: str(d.stride), 1)))
    pad = "x".join(f"{d.padding_low}_{d.padding_high}" for d in dims)
    if any(d.padding_low or d.padding_high for d in dims):
        parts.append(("pad", pad))
    parts.append(("lhs_dilate", field("base_dilation", lambda d: str(d.base_dilation), 1)))
    parts.append(("rhs_dilate", field("window_dilation", lambda d: str(d.window_dilation), 1)))
    parts.append(("rhs_reversal", field("window_reversal", lambda d: str(int(d.window_reversal)), False)))
    return "{" + " ".join(f"{k}={v}" for k, v in parts if v) + "}"


def _dim_labels(p: Any, ctx: Context) -> str | None:
    if not p.HasField("convolution_dimension_numbers"):
        return None
    d = p.convolution_dimension_numbers

    def labels(first: int, second: int, spatial: Any, a: str, b: str) -> str:
        out = ["?"] * (2 + len(spatial))
        if not (0 <= first < len(out) and 0 <= second < len(out)):
            raise HloError(
                f"{ctx.where}: convolution_dimension_numbers: dimension {max(first, second)} "
                f"out of range for {len(out)} dimensions"
            )
        out[first], out[second] = a, b
        for k, s in enumerate(spatial):
            out[s] = str(k)
        return "".join(out)

    lhs = labels(d.input_batch_dimension, d.input_feature_dimension, d.input_spatial_dimensions, "b", "f")
    rhs = labels(
        d.kernel_input_feature_dimension,
        d.kernel_output_feature_dimension,
        d.kernel_spatial_dimensions,
        "i",
        "o",
    )
    out = labels(d.output_batch_dimension, d.output_feature_dimension, d.output_spatial_dimensions, "b", "f")
    return f"{lhs}_{rhs}->{out}"


def custom_call_literal(p: Any, ctx: Context) -> str | None:
    if p.opcode != "custom-call" or not p.HasField("literal"):
        return None
    return print_literal(literal_from_proto(p.literal, f"{ctx.where}: literal"), with_shape=True)


def domain(p: Any, ctx: Context) -> str | None:
    """Only sharding domains exist in a proto; domain_entry_sharding is the operand side, which
    XLA's text calls `exit=` (and domain_exit_sharding its `entry=`)."""
    if not (p.HasField("domain_entry_sharding") or p.HasField("domain_exit_sharding")):
        return None
    entry, exit_ = sharding_text(p.domain_exit_sharding), sharding_text(p.domain_entry_sharding)
    return f'{{kind="sharding", entry={entry}, exit={exit_}}}'


def permute_slice_sizes(p: Any, ctx: Context) -> str | None:
    """One list per buffer and offset tuple: input (an array or a tuple of arrays) and its start
    offsets (one index tuple, or a tuple of index tuples, per buffer)."""
    if p.opcode == "gather":
        return ints(p.gather_slice_sizes)
    flat = list(p.dynamic_slice_sizes)
    if not flat or len(ctx.operand_shapes) != 4:
        return None
    source, offsets = ctx.operand_shapes[0], ctx.operand_shapes[2]
    ranks: list[int] = []
    if source.is_tuple:
        for k, buffer in enumerate(source.tuple_shapes):
            index = offsets.tuple_shapes[k] if k < len(offsets.tuple_shapes) else offsets
            nested = index.is_tuple and all(e.is_tuple for e in index.tuple_shapes)
            ranks += [buffer.rank] * (len(index.tuple_shapes) if nested else 1)
    else:
        nested = bool(offsets.tuple_shapes) and all(e.is_tuple for e in offsets.tuple_shapes)
        ranks = [source.rank] * (len(offsets.tuple_shapes) if nested else 1)
    if sum(ranks) != len(flat):
        raise HloError(
            f"{ctx.where}: dynamic_slice_sizes: {len(flat)} sizes for buffers of {sum(ranks)} dimensions"
        )
    groups, start = [], 0
    for r in ranks:
        groups.append(ints(flat[start : start + r]))
        start += r
    return "{" + ",".join(groups) + "}"


def sparsity(p: Any, ctx: Context) -> str | None:
    if not p.HasField("sparsity_config"):
        return None

    def side(name: str) -> TensorSparsity | None:
        if not p.sparsity_config.HasField(name):
            return None
        t = getattr(p.sparsity_config, name)
        return TensorSparsity(t.num_non_zero, t.block_size, t.dimension, t.stride)

    return print_sparsity_config(SparsityConfig(side("lhs"), side("rhs")))


def _scan(field: str) -> Callable[[Any, Context], str | None]:
    """scan's num_carries (always printed), is_reverse (when true), is_associative (a TriState:
    unset, true, false)."""

    def convert(p: Any, ctx: Context) -> str | None:
        if p.opcode != "scan":
            return None
        if field == "num_carries":
            return str(p.num_carries)
        if field == "is_reverse":
            return "true" if p.is_reverse else None
        return {1: "true", 2: "false"}.get(p.is_associative)

    return convert


EXTRA: dict[str, Callable[[Any, Context], str | None]] = {
    "replica_groups": _replica_groups,
    "window": _window,
    "dim_labels": _dim_labels,
    "literal": custom_call_literal,
    "domain": domain,
    "slice_sizes": permute_slice_sizes,
    "sparsity_config": sparsity,
    "num_carries": _scan("num_carries"),
    "is_reverse": _scan("is_reverse"),
    "is_associative": _scan("is_associative"),
}
