"""The StableHLO ops with windows, dimension numbers, reducers or custom-call attributes:
convolution, gather, scatter, reduce, reduce_window, select_and_scatter, sort, map, custom_call,
the collectives, batch norm, linear algebra, composite and the token ops."""

from __future__ import annotations

import re
from typing import Any

from ..errors import HloError
from ..ir.attrs import (
    ConvolutionDimensionNumbers,
    CustomCallApiVersion,
    DotAlgorithm,
    OperandAlias,
    TransposeA,
    Window,
    WindowDimension,
)
from ..ir.frozen import FrozenDict
from ..ir.opcode import Opcode
from ..ir.replica_groups import ExplicitReplicaGroups
from ..layout import Layout
from ..shape import Shape
from .attrs import Dense, Raw, Struct, Symbol, Typed, ints, scalar, word
from .convert import ComputationConverter
from .ops_table import RULES, one, precisions, rule
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
def _convolution(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
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
def _gather(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
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


# -- custom calls ---------------------------------------------------------------------------------
_API = {
    0: CustomCallApiVersion.UNSPECIFIED, 1: CustomCallApiVersion.ORIGINAL,
    2: CustomCallApiVersion.STATUS_RETURNING, 3: CustomCallApiVersion.STATUS_RETURNING_UNIFIED,
    4: CustomCallApiVersion.TYPED_FFI,
}  # fmt: skip


def render_attr(value: Any) -> str:
    """An attribute as MLIR prints it (a typed FFI custom call's backend_config dictionary)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {render_attr(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, Typed):
        t = value.type
        return f"{render_attr(value.value)} : {getattr(t, 'name', t)}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(render_attr(v) for v in value) + "]"
    return getattr(value, "text", str(value))


def _with_layout(shape: Shape, layout: Any) -> Shape:
    m2m = (
        tuple(int(x) for x in ints(layout))
        if isinstance(layout, Dense) and layout.payload not in (None, [])
        else ()
    )
    return shape.with_layout(Layout(m2m)) if shape.is_array else shape


@rule("stablehlo.custom_call")
def _custom_call(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    target = a.get("call_target_name", a.get("callee"))
    target = getattr(target, "name", target)
    attrs: dict[str, Any] = {"custom_call_target": str(target)}
    config = a.get("mhlo.backend_config", a.get("backend_config", ""))
    version = a.get("api_version")
    api = _API.get(int(scalar(version))) if version is not None else None
    if isinstance(config, dict):
        api = CustomCallApiVersion.TYPED_FFI
        config_text = render_attr(config)
    else:
        config_text = str(config)
    attrs["api_version"] = api or CustomCallApiVersion.ORIGINAL
    if scalar(a.get("has_side_effect", False)):
        attrs["custom_call_has_side_effect"] = True
    results = list(op.result_types)
    if "operand_layouts" in a:
        attrs["operand_layout_constraints"] = tuple(
            _with_layout(cc.shape(i), lay) for i, lay in zip(ins, a["operand_layouts"])
        )
    if "result_layouts" in a:
        results = [_with_layout(s, lay) for s, lay in zip(results, a["result_layouts"])]
    aliases = []
    for s in a.get("output_operand_aliases", []):
        if isinstance(s, Struct):
            aliases.append(
                OperandAlias(
                    ints(s.get("output_tuple_indices", [])), int(scalar(s.get("operand_index", 0))),
                    ints(s.get("operand_tuple_indices", [])),
                )
            )  # fmt: skip
    if aliases:
        attrs["output_to_operand_aliasing"] = tuple(aliases)
    called = a.get("called_computations", [])
    if called:
        attrs["called_computations"] = tuple(
            cc.mc.function(cc.mc.funcs[getattr(s, "name", str(s))]) for s in called if isinstance(s, Symbol)
        )
    generic: dict[str, Any] = {"backend_config": config_text or None}
    frontend = {}
    if isinstance(a.get("mhlo.frontend_attributes"), dict):
        frontend.update({k: str(v) for k, v in a["mhlo.frontend_attributes"].items()})
    if "sdy.sharding_rule" in a:
        frontend["xla.sdy.sharding_rule"] = getattr(a["sdy.sharding_rule"], "text", "")
    if frontend:
        generic["frontend_attributes"] = FrozenDict(frontend)
    op.result_types = results
    shape = results[0] if len(results) == 1 else Shape.make_tuple(results)
    name = cc.emit(Op_.CUSTOM_CALL, ins, shape, attrs, op.pos, **generic)
    return [name] if len(results) == 1 else cc.unpack(name, op.pos)


# -- collectives ----------------------------------------------------------------------------------
def _rows(cc: ComputationConverter, value: Any) -> list[list[int]]:
    """A 2-D integer attribute (replica groups, source-target pairs) as rows, splats expanded."""
    if isinstance(value, Dense) and isinstance(value.type, Shape):
        from .dense import dense_array

        array = dense_array(cc.mc.c, value, value.type)
        return [[int(x) for x in row] for row in array.reshape(array.shape[0] if array.ndim else 1, -1)]
    return [[int(x) for x in row] for row in value]


def _groups(cc: ComputationConverter, value: Any) -> ExplicitReplicaGroups:
    if value is None:
        return ExplicitReplicaGroups(())
    return ExplicitReplicaGroups(tuple(tuple(x for x in row if x >= 0) for row in _rows(cc, value)))


def _collective_attrs(cc: ComputationConverter, op: Op) -> dict[str, Any]:
    a = op.attrs
    attrs: dict[str, Any] = {}
    if "replica_groups" in a:
        attrs["replica_groups"] = _groups(cc, a["replica_groups"])
    handle = a.get("channel_handle")
    if isinstance(handle, Struct) and int(scalar(handle.get("handle", 0))) > 0:
        attrs["channel_id"] = int(scalar(handle.get("handle")))
    if a.get("use_global_device_ids"):
        attrs["use_global_device_ids"] = True
    return attrs


@rule("stablehlo.all_reduce", "stablehlo.reduce_scatter", "stablehlo.all_gather", "stablehlo.all_to_all")
def _collective(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    short = op.name.split(".", 1)[1]
    attrs = _collective_attrs(cc, op)
    if short in ("all_reduce", "reduce_scatter"):
        attrs["to_apply"] = cc.region(op.regions[0], op.pos)
    if short == "reduce_scatter":
        attrs["dimensions"] = (int(scalar(op.attrs["scatter_dimension"])),)
    if short == "all_gather":
        attrs["dimensions"] = (int(scalar(op.attrs["all_gather_dim"])),)
    opcodes = {
        "all_reduce": Op_.ALL_REDUCE, "reduce_scatter": Op_.REDUCE_SCATTER, "all_gather": Op_.ALL_GATHER,
    }  # fmt: skip
    opcode = opcodes.get(short)
    if short == "all_to_all":
        return _all_to_all(cc, op, ins, attrs)
    assert opcode is not None
    return one(cc, op, opcode, ins, attrs)


def _all_to_all(cc: ComputationConverter, op: Op, ins: list[str], attrs: dict[str, Any]) -> list[str]:
    """HLO's array all-to-all splits and concatenates along one dimension; as XLA's conversion
    does, another concat dimension is an all-to-all along the split dimension, then a reshape
    that splits off the block index, a transpose that moves it before the concat dimension and a
    reshape that merges it in."""
    split, concat = int(scalar(op.attrs["split_dimension"])), int(scalar(op.attrs["concat_dimension"]))
    count = int(scalar(op.attrs["split_count"]))
    attrs["dimensions"] = (split,)
    shapes = [cc.shape(i) for i in ins]
    if len(ins) == 1:
        exchanged = [cc.emit(Op_.ALL_TO_ALL, ins, shapes[0], attrs, op.pos)]
    else:
        t = cc.emit(Op_.ALL_TO_ALL, ins, Shape.make_tuple(shapes), attrs, op.pos)
        exchanged = cc.unpack(t, op.pos)
    if split == concat:
        return exchanged
    out = []
    for value, shape, result in zip(exchanged, shapes, op.result_types):
        dims = list(shape.dimensions)
        blocks = [*dims[:split], count, dims[split] // count, *dims[split + 1 :]]
        reshaped = cc.emit(Op_.RESHAPE, (value,), Shape.array(shape.element_type, blocks), None, op.pos)
        target = concat if concat < split else concat + 1
        perm = [d for d in range(len(blocks)) if d != split]
        perm.insert(perm.index(target), split)
        moved = Shape.array(shape.element_type, [blocks[d] for d in perm])
        transposed = cc.emit(Op_.TRANSPOSE, (reshaped,), moved, {"dimensions": tuple(perm)}, op.pos)
        out.append(cc.emit(Op_.RESHAPE, (transposed,), result, None, op.pos))
    return out


@rule("stablehlo.collective_permute")
def _collective_permute(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    attrs = _collective_attrs(cc, op)
    rows = _rows(cc, op.attrs["source_target_pairs"])
    attrs["source_target_pairs"] = tuple((r[0], r[1]) for r in rows)
    return one(cc, op, Op_.COLLECTIVE_PERMUTE, ins, attrs)


@rule("stablehlo.collective_broadcast")
def _collective_broadcast(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    return one(cc, op, Op_.COLLECTIVE_BROADCAST, ins, _collective_attrs(cc, op))


# -- linear algebra, batch norm -----------------------------------------------------------------
@rule("stablehlo.cholesky")
def _cholesky(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    return one(cc, op, Op_.CHOLESKY, ins, {"lower": bool(scalar(op.attrs.get("lower", False)))})


@rule("stablehlo.triangular_solve")
def _triangular_solve(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    attrs = {
        "left_side": bool(scalar(a.get("left_side", False))),
        "lower": bool(scalar(a.get("lower", False))),
        "unit_diagonal": bool(scalar(a.get("unit_diagonal", False))),
        "transpose_a": TransposeA(word(a.get("transpose_a", "NO_TRANSPOSE"))),
    }
    return one(cc, op, Op_.TRIANGULAR_SOLVE, ins, attrs)


def _batch_norm(opcode: Opcode) -> None:
    def handler(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
        attrs = {
            "epsilon": float(scalar(op.attrs["epsilon"])),
            "feature_index": int(scalar(op.attrs["feature_index"])),
        }
        return one(cc, op, opcode, ins, attrs)

    RULES["stablehlo." + opcode.text.replace("-", "_")] = handler


for _op in (Op_.BATCH_NORM_TRAINING, Op_.BATCH_NORM_INFERENCE, Op_.BATCH_NORM_GRAD):
    _batch_norm(_op)


# -- composite, tokens ----------------------------------------------------------------------------
@rule("stablehlo.composite")
def _composite(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    decomposition = a.get("decomposition")
    name = getattr(decomposition, "name", decomposition)
    func = cc.mc.funcs.get(str(name))
    if func is None:
        raise cc.mc.error(f"stablehlo.composite: unknown decomposition @{name}", op.name_pos)
    comp = cc.mc.function(func)
    frontend = {
        "composite.name": str(a.get("name", "")),
        "composite.attributes": render_attr(a.get("composite_attributes", {})),
        "composite.version": str(int(scalar(a.get("version", 0)))),
    }
    return one(
        cc,
        op,
        Op_.CALL,
        ins,
        {"to_apply": comp, "is_composite": True},
        frontend_attributes=FrozenDict(frontend),
    )


@rule("stablehlo.infeed")
def _infeed(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    values = Shape.make_tuple(op.result_types[:-1])
    shape = Shape.make_tuple([values, Shape.token()])
    config = str(op.attrs.get("infeed_config", ""))
    feed = cc.emit(Op_.INFEED, ins, shape, {"infeed_config": config}, op.pos)
    data, token = cc.unpack(feed, op.pos)
    return [*cc.unpack(data, op.pos), token]


@rule("stablehlo.outfeed")
def _outfeed(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    data = cc.tuple_of(ins[:-1], op.pos)
    config = str(op.attrs.get("outfeed_config", ""))
    attrs = {"outfeed_config": config, "outfeed_shape": cc.shape(data)}
    return [cc.emit(Op_.OUTFEED, (data, ins[-1]), Shape.token(), attrs, op.pos)]


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


__all__ = ["HloError", "Raw", "make_window", "render_attr"]


def _channel_attrs(op: Op) -> dict[str, Any]:
    attrs: dict[str, Any] = {"is_host_transfer": bool(scalar(op.attrs.get("is_host_transfer", False)))}
    handle = op.attrs.get("channel_handle")
    if isinstance(handle, Struct):
        attrs["channel_id"] = int(scalar(handle.get("handle", 0)))
    return attrs


@rule("stablehlo.send")
def _send(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """send + send-done; several inputs travel as one tuple."""
    data = ins[0] if len(ins) == 2 else cc.tuple_of(ins[:-1], op.pos)
    attrs = _channel_attrs(op)
    shape = Shape.make_tuple([cc.shape(data), Shape.array("u32", ()), Shape.token()])
    send = cc.emit(Op_.SEND, (data, ins[-1]), shape, attrs, op.pos)
    return [cc.emit(Op_.SEND_DONE, (send,), Shape.token(), attrs, op.pos)]


@rule("stablehlo.recv")
def _recv(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """recv + recv-done, read back element by element."""
    values = op.result_types[:-1]
    data = values[0] if len(values) == 1 else Shape.make_tuple(values)
    attrs = _channel_attrs(op)
    context = Shape.make_tuple([data, Shape.array("u32", ()), Shape.token()])
    recv = cc.emit(Op_.RECV, ins, context, attrs, op.pos)
    done = cc.emit(Op_.RECV_DONE, (recv,), Shape.make_tuple([data, Shape.token()]), attrs, op.pos)
    got, token = cc.unpack(done, op.pos)
    return ([got] if len(values) == 1 else cc.unpack(got, op.pos)) + [token]
