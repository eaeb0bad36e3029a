"""The StableHLO ops with windows, dimension numbers or reducers: convolution, gather,
scatter, reduce, reduce_window, select_and_scatter, sort, map; dot algorithms."""

from __future__ import annotations

import re
from typing import Any

from ..ir.attrs import (
    ConvolutionDimensionNumbers,
    DotAlgorithm,
    Window,
    WindowDimension,
)
from ..ir.opcode import Opcode
from .attrs import Struct, ints, scalar, word
from .computation_converter import ComputationConverter
from .ops_table import one, precisions, rule
from .syntax import Op

Op_ = Opcode


def _flat_ints(value: Any, count: int) -> tuple[int, ...]:
    """A list of integers from a list, a dense array or a splat of `count` values."""
    if value is None:
        return ()
    if isinstance(value, list) and value and isinstance(value[0], list):
        return tuple(int(x) for row in value for x in row)
    out = ints(value)
    if len(out) == 1 and count > 1:
        return out * count
    return out


def make_window(a: dict[str, Any], sizes: tuple[int, ...], pretty: dict[str, Any] | None = None) -> Window:
    n = len(sizes)
    p = pretty or {}

    def field(generic: str, short: str, default: int) -> tuple[int, ...]:
        value = a.get(generic, p.get(short))
        got = _flat_ints(value, n) if value is not None else ()
        return got if got else (default,) * n

    strides = field("window_strides", "stride", 1)
    lhs = (
        field("lhs_dilation", "lhs_dilate", 1)
        if "base_dilations" not in a
        else field("base_dilations", "", 1)
    )
    rhs = (
        field("rhs_dilation", "rhs_dilate", 1)
        if "window_dilations" not in a
        else field("window_dilations", "", 1)
    )
    pads = _flat_ints(a.get("padding", p.get("pad")), 2 * n) or (0,) * (2 * n)
    reverse_value = a.get("window_reversal", p.get("reverse"))
    reverse = [str(x).lower() in ("true", "1") for x in (reverse_value or [])] or [False] * n
    return Window(
        tuple(
            WindowDimension(sizes[i], strides[i], pads[2 * i], pads[2 * i + 1], lhs[i], rhs[i], reverse[i])
            for i in range(n)
        )
    )


def _conv_dims(cc: ComputationConverter, op: Op, value: Any) -> ConvolutionDimensionNumbers:
    if isinstance(value, tuple) and len(value) == 3:
        lists = [[str(x) for x in part] for part in value]
    else:
        text = getattr(value, "text", str(value))
        if "raw" in text:
            f = {k: v for k, v in re.findall(r"(\w+) = (\[[^\]]*\]|\d+)", text)}
            g = {
                k: (tuple(int(x) for x in re.findall(r"\d+", v)) if v.startswith("[") else int(v))
                for k, v in f.items()
            }
            return ConvolutionDimensionNumbers(
                g["input_batch_dimension"], g["input_feature_dimension"], g["input_spatial_dimensions"],  # type: ignore[arg-type]
                g["kernel_input_feature_dimension"], g["kernel_output_feature_dimension"],  # type: ignore[arg-type]
                g["kernel_spatial_dimensions"], g["output_batch_dimension"],  # type: ignore[arg-type]
                g["output_feature_dimension"], g["output_spatial_dimensions"],  # type: ignore[arg-type]
            )  # fmt: skip
        parts = re.findall(r"\[([^\]]*)\]", text)
        if len(parts) != 3:
            raise cc.mc.error(f"cannot read the convolution dimension numbers {text}", op.name_pos)
        lists = [[x.strip() for x in part.split(",") if x.strip()] for part in parts]

    def labels(items: list[str], a: str, b: str) -> tuple[int, int, tuple[int, ...]]:
        spatial = sorted((int(x), pos) for pos, x in enumerate(items) if x.isdigit())
        return items.index(a), items.index(b), tuple(pos for _, pos in spatial)

    lb, lf, ls = labels(lists[0], "b", "f")
    ki, ko, ks = labels(lists[1], "i", "o")
    ob, of, os_ = labels(lists[2], "b", "f")
    return ConvolutionDimensionNumbers(lb, lf, ls, ki, ko, ks, ob, of, os_)


@rule("stablehlo.convolution")
def convolution(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    dnums = _conv_dims(cc, op, a.get("dimension_numbers", a.get("dim_numbers")))
    kernel = cc.shape(ins[1])
    sizes = tuple(kernel.dimensions[d] for d in dnums.kernel_spatial_dimensions)
    window = a.get("window") if isinstance(a.get("window"), dict) else None
    attrs = {
        "window": make_window(a, sizes, window),
        "dim_labels": dnums,
        "feature_group_count": int(scalar(a.get("feature_group_count", 1))),
        "batch_group_count": int(scalar(a.get("batch_group_count", 1))),
        "operand_precision": precisions(a.get("precision_config"), 2),
    }
    return one(cc, op, Op_.CONVOLUTION, ins, attrs)


@rule("stablehlo.gather")
def gather(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    d = a["dimension_numbers"]
    attrs = {
        "offset_dims": ints(d.get("offset_dims", [])),
        "collapsed_slice_dims": ints(d.get("collapsed_slice_dims", [])),
        "start_index_map": ints(d.get("start_index_map", [])),
        "operand_batching_dims": ints(d.get("operand_batching_dims", [])),
        "start_indices_batching_dims": ints(d.get("start_indices_batching_dims", [])),
        "index_vector_dim": int(scalar(d.get("index_vector_dim", 0))),
        "slice_sizes": ints(a["slice_sizes"]),
        "indices_are_sorted": bool(scalar(a.get("indices_are_sorted", False))),
    }
    return one(cc, op, Op_.GATHER, ins, attrs)


@rule("stablehlo.scatter")
def _scatter(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    d = a["scatter_dimension_numbers"]
    attrs = {
        "update_window_dims": ints(d.get("update_window_dims", [])),
        "inserted_window_dims": ints(d.get("inserted_window_dims", [])),
        "scatter_dims_to_operand_dims": ints(d.get("scatter_dims_to_operand_dims", [])),
        "input_batching_dims": ints(d.get("input_batching_dims", [])),
        "scatter_indices_batching_dims": ints(d.get("scatter_indices_batching_dims", [])),
        "index_vector_dim": int(scalar(d.get("index_vector_dim", 0))),
        "indices_are_sorted": bool(scalar(a.get("indices_are_sorted", False))),
        "unique_indices": bool(scalar(a.get("unique_indices", False))),
        "to_apply": cc.region(op.regions[0], op.pos),
    }
    return one(cc, op, Op_.SCATTER, ins, attrs)


@rule("stablehlo.reduce")
def _reduce(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    if op.attrs.pop("_init_pairs", False):
        ins = ins[0::2] + ins[1::2]
    attrs = {"dimensions": ints(op.attrs["dimensions"]), "to_apply": cc.region(op.regions[0], op.pos)}
    return one(cc, op, Op_.REDUCE, ins, attrs)


@rule("stablehlo.reduce_window")
def _reduce_window(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    sizes = ints(op.attrs["window_dimensions"])
    attrs = {"window": make_window(op.attrs, sizes), "to_apply": cc.region(op.regions[0], op.pos)}
    return one(cc, op, Op_.REDUCE_WINDOW, ins, attrs)


@rule("stablehlo.select_and_scatter")
def _select_and_scatter(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    sizes = ints(op.attrs["window_dimensions"])
    attrs = {
        "window": make_window(op.attrs, sizes),
        "select": cc.region(op.regions[0], op.pos),
        "scatter": cc.region(op.regions[1], op.pos),
    }
    return one(cc, op, Op_.SELECT_AND_SCATTER, ins, attrs)


@rule("stablehlo.sort")
def _sort(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    dim = int(scalar(op.attrs.get("dimension", -1)))
    if dim < 0:
        dim += cc.shape(ins[0]).rank
    attrs = {
        "dimensions": (dim,),
        "is_stable": bool(scalar(op.attrs.get("is_stable", False))),
        "to_apply": cc.region(op.regions[0], op.pos),
    }
    return one(cc, op, Op_.SORT, ins, attrs)


@rule("stablehlo.map")
def _map(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    attrs = {"dimensions": ints(op.attrs["dimensions"]), "to_apply": cc.region(op.regions[0], op.pos)}
    return one(cc, op, Op_.MAP, ins, attrs)


# -- dot algorithms -------------------------------------------------------------------------------
_ALGORITHMS: dict[tuple[str, str, str, int], DotAlgorithm] = {
    ("f16", "f16", "f16", 1): DotAlgorithm.DOT_F16_F16_F16,
    ("f16", "f16", "f32", 1): DotAlgorithm.DOT_F16_F16_F32,
    ("bf16", "bf16", "bf16", 1): DotAlgorithm.DOT_BF16_BF16_BF16,
    ("bf16", "bf16", "f32", 1): DotAlgorithm.DOT_BF16_BF16_F32,
    ("bf16", "bf16", "f32", 3): DotAlgorithm.DOT_BF16_BF16_F32_X3,
    ("bf16", "bf16", "f32", 6): DotAlgorithm.DOT_BF16_BF16_F32_X6,
    ("bf16", "bf16", "f32", 9): DotAlgorithm.DOT_BF16_BF16_F32_X9,
    ("tf32", "tf32", "f32", 1): DotAlgorithm.DOT_TF32_TF32_F32,
    ("tf32", "tf32", "f32", 3): DotAlgorithm.DOT_TF32_TF32_F32_X3,
    ("f32", "f32", "f32", 1): DotAlgorithm.DOT_F32_F32_F32,
    ("f64", "f64", "f64", 1): DotAlgorithm.DOT_F64_F64_F64,
}


def dot_algorithm(cc: ComputationConverter, op: Op, value: Any) -> DotAlgorithm:
    if not isinstance(value, Struct):
        raise cc.mc.error(f"{op.name}: cannot read the dot algorithm", op.name_pos)
    key = (
        word(value.get("lhs_precision_type")), word(value.get("rhs_precision_type")),
        word(value.get("accumulation_type")), int(scalar(value.get("num_primitive_operations", 1))),
    )  # fmt: skip
    if key[0].startswith("f8"):
        fast = bool(scalar(value.get("allow_imprecise_accumulation", False)))
        return DotAlgorithm.DOT_ANY_F8_ANY_F8_F32_FAST_ACCUM if fast else DotAlgorithm.DOT_ANY_F8_ANY_F8_F32
    found = _ALGORITHMS.get(key)
    if found is None:
        raise cc.mc.error(f"{op.name}: the dot algorithm {key} has no HLO equivalent", op.name_pos)
    return found
