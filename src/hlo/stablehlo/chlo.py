"""CHLO ops (the client dialect JAX emits next to StableHLO): the ones that are one HLO op, the
broadcasting binary ops (operands broadcast to the result's shape, then the elementwise op),
ragged_dot, and errors naming the others. The special functions are expanded by chlo_erf.py,
chlo_gamma.py and chlo_misc.py (with chlo_expand.py's helpers)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.attrs import ComparisonDirection, ComparisonType
from ..ir.opcode import Opcode
from ..literal import Literal
from ..shape import Shape
from .attrs import Struct, ints, scalar, word
from .computation_converter import ComputationConverter
from .ops_table import ELEMENTWISE, Handler, one, precisions
from .syntax import Op

Op_ = Opcode

# CHLO ops whose meaning is one HLO op (XLA's legalization may expand some into formulas of
# its own; hlo runs the op's kernel).
DIRECT: dict[str, Opcode] = {
    "erf": Op_.ERF, "tan": Op_.TAN, "sinh": Op_.SINH, "cosh": Op_.COSH, "asin": Op_.ASIN,
    "acos": Op_.ACOS, "asinh": Op_.ASINH, "acosh": Op_.ACOSH, "atanh": Op_.ATANH, "mulhi": Op_.MULHI,
}  # fmt: skip


def chlo_rule(cc: ComputationConverter, op: Op) -> Handler:
    short = op.name.split(".", 1)[1]
    if short in DIRECT:
        opcode = DIRECT[short]
        return lambda cc, op, ins: one(cc, op, opcode, ins)
    if short == "atan":
        return _atan
    if short == "top_k":
        k = int(scalar(op.attrs["k"]))
        return lambda cc, op, ins: one(cc, op, Op_.TOP_K, ins, {"k": k, "largest": True})
    if short.startswith("broadcast_") and (
        short[len("broadcast_") :] in ELEMENTWISE or short == "broadcast_compare"
    ):
        return _broadcasting
    if short in HANDLERS:
        return HANDLERS[short]
    expansions = _expansions()
    if short in expansions:
        return expansions[short]
    raise cc.mc.error(f"unsupported op {op.name}", op.name_pos)


def _expansions() -> dict[str, Handler]:
    from .chlo_erf import EXPANSIONS as ERF
    from .chlo_gamma import EXPANSIONS as GAMMA
    from .chlo_misc import EXPANSIONS as MISC

    return {**ERF, **GAMMA, **MISC}


def _broadcast_to(
    cc: ComputationConverter, op: Op, value: str, dims: tuple[int, ...] | None, out: Shape
) -> str:
    shape = cc.shape(value)
    if shape.dimensions == out.dimensions:
        return value
    rank = len(shape.dimensions)
    mapping = dims if dims is not None else tuple(range(len(out.dimensions) - rank, len(out.dimensions)))
    target = Shape.array(shape.element_type, out.dimensions)
    kept = [k for k in range(rank) if shape.dimensions[k] == out.dimensions[mapping[k]]]
    if len(kept) != rank:  # size-1 dimensions that expand: reshaped away first
        value = cc.emit(
            Op_.RESHAPE,
            (value,),
            Shape.array(shape.element_type, [shape.dimensions[k] for k in kept]),
            None,
            op.pos,
        )
        mapping = tuple(mapping[k] for k in kept)
    return cc.emit(Op_.BROADCAST, (value,), target, {"dimensions": mapping}, op.pos)


def _broadcasting(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """chlo.broadcast_add & co: numpy-style (or `broadcast_dimensions`) broadcasting, then the op."""
    short = op.name.split(".", 1)[1][len("broadcast_") :]
    out = op.result_types[0]
    dims_attr = op.attrs.get("broadcast_dimensions")
    ranks = [cc.shape(i).rank for i in ins]
    full = max(ranks)
    dims = ints(dims_attr) if dims_attr is not None else None
    args = []
    for value, rank in zip(ins, ranks):
        own = dims if (dims is not None and rank != full) else None
        args.append(
            _broadcast_to(cc, op, value, own, Shape.array(cc.shape(value).element_type, out.dimensions))
        )
    if short == "compare":
        attrs: dict[str, Any] = {"direction": ComparisonDirection(word(op.attrs["comparison_direction"]))}
        if op.attrs.get("compare_type") is not None and word(op.attrs["compare_type"]) != "NOTYPE":
            attrs["type"] = ComparisonType(word(op.attrs["compare_type"]))
        return one(cc, op, Op_.COMPARE, args, attrs)
    return one(cc, op, ELEMENTWISE[short], args)


def _splat(cc: ComputationConverter, op: Op, value: float, shape: Shape) -> str:
    scalar = Shape.array(shape.element_type, ())
    literal = Literal(scalar, np.array(value, scalar.element_type.numpy_dtype))
    c = cc.emit(Op_.CONSTANT, (), scalar, {"literal": literal}, op.pos)
    return cc.emit(Op_.BROADCAST, (c,), shape, {"dimensions": ()}, op.pos) if shape.dimensions else c


def _is_inf(sign: int) -> Handler:
    def handler(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
        shape = cc.shape(ins[0])
        b = _splat(cc, op, float("inf") if sign >= 0 else float("-inf"), shape)
        x = cc.emit(Op_.ABS, ins, shape, None, op.pos) if sign == 0 else ins[0]
        return one(cc, op, Op_.COMPARE, [x, b], {"direction": ComparisonDirection.EQ})

    return handler


def _atan(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """atan(x) = atan2(x, 1), as XLA's legalization writes it for real x."""
    shape = cc.shape(ins[0])
    if shape.element_type.is_complex:
        # atan(z) = -i atanh(iz): XLA expands both into real arithmetic of its own; hlo runs
        # the complex atanh kernel (equal within rounding).
        part = Shape.array(_PART[shape.element_type], shape.dimensions)
        re_, im = (cc.emit(o, ins, part, None, op.pos) for o in (Op_.REAL, Op_.IMAG))
        iz = cc.emit(Op_.COMPLEX, (cc.emit(Op_.NEGATE, (im,), part, None, op.pos), re_), shape, None, op.pos)
        w = cc.emit(Op_.ATANH, (iz,), shape, None, op.pos)
        w_re, w_im = (cc.emit(o, (w,), part, None, op.pos) for o in (Op_.REAL, Op_.IMAG))
        return one(cc, op, Op_.COMPLEX, [w_im, cc.emit(Op_.NEGATE, (w_re,), part, None, op.pos)])
    one_ = _splat(cc, op, 1.0, shape)
    return one(cc, op, Op_.ATAN2, [ins[0], one_])


_PART = {PrimitiveType.C64: PrimitiveType.F32, PrimitiveType.C128: PrimitiveType.F64}


def _conj(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    shape = cc.shape(ins[0])
    if not shape.element_type.is_complex:
        return ins
    part = Shape.array(_PART[shape.element_type], shape.dimensions)
    re_ = cc.emit(Op_.REAL, ins, part, None, op.pos)
    im = cc.emit(Op_.NEGATE, (cc.emit(Op_.IMAG, ins, part, None, op.pos),), part, None, op.pos)
    return one(cc, op, Op_.COMPLEX, [re_, im])


def _ragged_dot(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    d = op.attrs.get("ragged_dot_dimension_numbers")
    if not isinstance(d, Struct):
        raise cc.mc.error("chlo.ragged_dot needs ragged_dot_dimension_numbers", op.name_pos)
    attrs = {
        "lhs_batch_dims": ints(d.get("lhs_batching_dimensions", [])),
        "rhs_batch_dims": ints(d.get("rhs_batching_dimensions", [])),
        "lhs_contracting_dims": ints(d.get("lhs_contracting_dimensions", [])),
        "rhs_contracting_dims": ints(d.get("rhs_contracting_dimensions", [])),
        "lhs_ragged_dims": ints(d.get("lhs_ragged_dimensions", [])),
        "rhs_group_dims": ints(d.get("rhs_group_dimensions", [])),
        "operand_precision": precisions(op.attrs.get("precision_config"), 2),
    }
    return one(cc, op, Op_.RAGGED_DOT, ins, attrs)


HANDLERS: dict[str, Handler] = {
    "is_inf": _is_inf(0), "is_pos_inf": _is_inf(1), "is_neg_inf": _is_inf(-1), "conj": _conj,
    "ragged_dot": _ragged_dot,
}  # fmt: skip
