"""custom_call, linear algebra, batch norm, composite and the token ops (infeed, outfeed,
send, recv) of StableHLO."""

from __future__ import annotations

from typing import Any

from ..ir.attrs import (
    CustomCallApiVersion,
    OperandAlias,
    TransposeA,
)
from ..ir.frozen import FrozenDict
from ..ir.opcode import Opcode
from ..layout import Layout
from ..shape import Shape
from .attrs import Dense, Struct, Symbol, Typed, ints, scalar, word
from .computation_converter import ComputationConverter
from .ops_table import RULES, one, rule
from .syntax import Op

Op_ = Opcode


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
