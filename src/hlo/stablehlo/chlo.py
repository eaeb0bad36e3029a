"""CHLO ops (the client dialect JAX emits next to StableHLO): the ones that are one HLO op, and
errors naming the others."""

from __future__ import annotations

from ..ir.opcode import Opcode
from .convert import ComputationConverter
from .ops_table import Handler, one
from .syntax import Op

Op_ = Opcode

# CHLO ops XLA's legalization turns into one HLO op of the same meaning.
DIRECT: dict[str, Opcode] = {
    "erf": Op_.ERF, "tan": Op_.TAN, "sinh": Op_.SINH, "cosh": Op_.COSH, "asin": Op_.ASIN, "acos": Op_.ACOS,
    "asinh": Op_.ASINH, "acosh": Op_.ACOSH, "atanh": Op_.ATANH,
}  # fmt: skip


def chlo_rule(cc: ComputationConverter, op: Op) -> Handler:
    short = op.name.split(".", 1)[1]
    if short in DIRECT:
        opcode = DIRECT[short]
        return lambda cc, op, ins: one(cc, op, opcode, ins)
    if short == "top_k":
        k = int(op.attrs["k"])
        return lambda cc, op, ins: one(cc, op, Op_.TOP_K, ins, {"k": k, "largest": True})
    from .chlo_expand import EXPANSIONS

    if short in EXPANSIONS:
        return EXPANSIONS[short]
    raise cc.mc.error(f"unsupported op {op.name}", op.name_pos)
