"""Each StableHLO op as HLO instructions: one table row for the elementwise ops, one function for
each op with attributes or regions (registered with `@rule`). The attribute values are read from
the generic attribute names (`pretty.py` stores pretty keywords under them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import HloError
from ..ir.attrs import Precision
from ..ir.opcode import Opcode
from ..ops.registry import ShapeContext, spec
from ..shape import Shape
from .attrs import word
from .computation_converter import ComputationConverter
from .cursor import StableHloError
from .shardy import sharding_of
from .syntax import Op

Handler = Callable[[ComputationConverter, Op, list[str]], list[str]]
RULES: dict[str, Handler] = {}
Op_ = Opcode

ELEMENTWISE: dict[str, Opcode] = {
    "abs": Op_.ABS, "cbrt": Op_.CBRT, "ceil": Op_.CEIL,
    "count_leading_zeros": Op_.CLZ, "cosine": Op_.COS, "exponential": Op_.EXP,
    "exponential_minus_one": Op_.EXPM1, "floor": Op_.FLOOR, "imag": Op_.IMAG, "is_finite": Op_.IS_FINITE,
    "log": Op_.LOG, "log_plus_one": Op_.LOG1P, "logistic": Op_.LOGISTIC, "not": Op_.NOT, "negate": Op_.NEGATE,
    "popcnt": Op_.POPULATION_COUNT, "real": Op_.REAL, "round_nearest_afz": Op_.ROUND_NEAREST_AFZ,
    "round_nearest_even": Op_.ROUND_NEAREST_EVEN, "rsqrt": Op_.RSQRT, "sign": Op_.SIGN, "sine": Op_.SIN,
    "sqrt": Op_.SQRT, "tan": Op_.TAN, "tanh": Op_.TANH, "add": Op_.ADD, "atan2": Op_.ATAN2,
    "complex": Op_.COMPLEX, "divide": Op_.DIVIDE, "maximum": Op_.MAXIMUM, "minimum": Op_.MINIMUM,
    "multiply": Op_.MULTIPLY, "power": Op_.POWER, "remainder": Op_.REMAINDER, "shift_left": Op_.SHIFT_LEFT,
    "shift_right_arithmetic": Op_.SHIFT_RIGHT_ARITHMETIC, "shift_right_logical": Op_.SHIFT_RIGHT_LOGICAL,
    "subtract": Op_.SUBTRACT, "and": Op_.AND, "or": Op_.OR, "xor": Op_.XOR, "select": Op_.SELECT,
    "bitcast_convert": Op_.BITCAST_CONVERT, "reshape": Op_.RESHAPE, "tuple": Op_.TUPLE,
    "replica_id": Op_.REPLICA_ID, "partition_id": Op_.PARTITION_ID, "after_all": Op_.AFTER_ALL,
    "create_token": Op_.AFTER_ALL, "dynamic_update_slice": Op_.DYNAMIC_UPDATE_SLICE,
}  # fmt: skip
UNSUPPORTED = {
    "uniform_quantize": "quantized types are not supported: HLO has no quantized element types",
    "uniform_dequantize": "quantized types are not supported: HLO has no quantized element types",
    "compute_reshape_shape": "dynamic shapes are not supported",
    "cstr_reshapable": "dynamic shapes are not supported",
    "einsum": "stablehlo.einsum is deprecated and has no HLO op: use dot_general",
    "unary_einsum": "stablehlo.unary_einsum is deprecated and has no HLO op: use dot_general",
    "torch_index_select": "stablehlo.torch_index_select has no HLO op: use gather",
    "trace": "stablehlo.trace has no HLO op",
}


def rule(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for n in names:
            RULES[n] = fn
        return fn

    return register


def convert_op(cc: ComputationConverter, op: Op) -> None:
    """Add the instructions of `op` and bind its results."""
    dialect, _, short = op.name.partition(".")
    handler = RULES.get(op.name)
    if handler is None and dialect == "stablehlo" and short in ELEMENTWISE:
        handler = _elementwise
    if handler is None:
        if dialect == "stablehlo" and short in UNSUPPORTED:
            raise cc.mc.error(f"{op.name}: {UNSUPPORTED[short]}", op.name_pos)
        if dialect == "chlo":
            from .chlo import chlo_rule

            handler = chlo_rule(cc, op)
        elif dialect in ("stablehlo", "func", "mhlo"):
            raise cc.mc.error(f"unsupported op {op.name}", op.name_pos)
        else:
            raise cc.mc.error(
                f"unknown dialect {dialect!r} of op {op.name}: only stablehlo, chlo and func are read",
                op.name_pos,
            )
    ins = [cc.value(v, op.pos) for v in op.operands]
    # Constants keep their opcode names (XLA's conversion merges them first, dropping locations).
    hint = None if op.name == "stablehlo.constant" else cc.mc.loc_name(op.loc)
    outer_hint, cc.name_hint = cc.name_hint, hint
    try:
        results = handler(cc, op, ins)
    except StableHloError:
        raise
    except HloError as e:  # a shape or attribute the IR refuses: say which op
        raise cc.mc.error(f"{op.name}: {e.message}", op.name_pos) from None
    except KeyError as e:
        raise cc.mc.error(f"{op.name}: the attribute {e.args[0]} is missing", op.name_pos) from None
    except (TypeError, ValueError, IndexError, AttributeError) as e:
        raise cc.mc.error(f"{op.name}: malformed attributes or operands ({e})", op.name_pos) from None
    finally:
        cc.name_hint = outer_hint
    if len(results) != len(op.results):
        raise cc.mc.error(f"{op.name} gives {len(results)} results, not {len(op.results)}", op.pos)
    cc.bind(op, results)
    if op.name == "stablehlo.constant":
        cc.constants[op.results[0]] = op


def one(
    cc: ComputationConverter,
    op: Op,
    opcode: Opcode,
    ins: list[str],
    attrs: dict[str, Any] | None = None,
    **generic: Any,
) -> list[str]:
    """An op of one result (or of several, as a tuple read back element by element)."""
    generic = {**_common(cc, op), **generic}
    if len(op.result_types) == 1:
        return [cc.emit(opcode, ins, op.result_types[0], attrs, op.pos, **generic)]
    t = cc.emit(opcode, ins, Shape.make_tuple(op.result_types), attrs, op.pos, **generic)
    return cc.unpack(t, op.pos)


def _common(cc: ComputationConverter, op: Op) -> dict[str, Any]:
    """Shardings and frontend attributes any op may carry."""
    keys = [k for k in op.attrs if k in ("mhlo.sharding", "mhlo.frontend_attributes") or k.startswith("sdy.")]
    return sharding_of(op.attrs, cc.mc, op.pos) if keys else {}


def _elementwise(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    opcode = ELEMENTWISE[op.name.split(".", 1)[1]]
    # The op's own shape rule refuses the element types XLA refuses (stablehlo.cbrt of a
    # complex type: XLA's conversion says the type must be floating), here at the op's place.
    op_spec = spec(opcode)
    if op_spec.elementwise and op_spec.shape_rule is not None:
        op_spec.shape_rule(ShapeContext(opcode, tuple(cc.shape(i) for i in ins), {}, _no_callees))
    return one(cc, op, opcode, ins)


def _no_callees(name: str) -> tuple[tuple[Shape, ...], Shape]:
    raise KeyError(name)  # elementwise ops call no computation


def precisions(value: Any, n: int) -> tuple[Precision, ...]:
    if not value:
        return (Precision.DEFAULT,) * n
    return tuple(Precision(word(v).lower()) for v in value)


from . import ops_calls, ops_collectives, ops_control, ops_dynamic, ops_more, ops_simple  # noqa: E402,F401  (register the rest)
