"""Control flow and calls of StableHLO: func.call (a call of the function's computation), while,
if and case (their regions as computations; values they use from outside passed in)."""

from __future__ import annotations

from typing import Any

from ..ir.opcode import Opcode
from .computation_converter import ComputationConverter
from .ops_table import one, rule
from .syntax import Op

Op_ = Opcode


@rule("func.call")
def _call(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    callee = op.attrs.get("callee")
    name = getattr(callee, "name", callee)
    func = cc.mc.funcs.get(str(name))
    if func is None:
        raise cc.mc.error(f"func.call of unknown function @{name}", op.name_pos)
    comp = cc.mc.function(func)
    return one(cc, op, Op_.CALL, ins, {"to_apply": comp})


@rule("stablehlo.while")
def _while(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    captured = [v for v in cc.captures(op.regions[0] + op.regions[1]) if v not in _region_args(op)]
    n = len(ins)
    state = ins + [cc.values[v] for v in captured]
    as_tuple = len(state) != 1

    def body_root(sub: ComputationConverter, returned: list[str], pos: int) -> str:
        passthrough = returned + [sub.values[v] for v in captured]
        return sub.tuple_of(passthrough, pos) if as_tuple else passthrough[0]

    # The body first, as XLA converts it (it becomes region_k, the condition region_k+1).
    body = cc.region(op.regions[1], op.pos, tuple_param=as_tuple, captures=captured, root=body_root)
    cond = cc.region(op.regions[0], op.pos, tuple_param=as_tuple, captures=captured)
    init = cc.tuple_of(state, op.pos) if as_tuple else state[0]
    loop = cc.emit(Op_.WHILE, (init,), cc.shape(init), {"condition": cond, "body": body}, op.pos)
    return cc.unpack(loop, op.pos)[:n] if as_tuple else [loop]


def _region_args(op: Op) -> set[str]:
    return {a[0] for r in op.regions for b in r for a in b.args}


def _branch(cc: ComputationConverter, op: Op, blocks: list[Any]) -> tuple[str, str]:
    """A branch computation of if/case: its captured values as its one parameter."""
    captured = cc.captures(blocks)
    if len(captured) == 1:
        operand = cc.values[captured[0]]
        return cc.region(blocks, op.pos, captures=captured), operand
    operand = cc.tuple_of([cc.values[v] for v in captured], op.pos)
    return cc.region(blocks, op.pos, tuple_param=True, captures=captured), operand


@rule("stablehlo.if")
def _if(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    true_comp, true_in = _branch(cc, op, op.regions[0])
    false_comp, false_in = _branch(cc, op, op.regions[1])
    attrs = {"true_computation": true_comp, "false_computation": false_comp}
    return one(cc, op, Op_.CONDITIONAL, [ins[0], true_in, false_in], attrs)


@rule("stablehlo.case")
def _case(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    comps, operands = [], []
    for blocks in op.regions:
        comp, operand = _branch(cc, op, blocks)
        comps.append(comp)
        operands.append(operand)
    return one(cc, op, Op_.CONDITIONAL, [ins[0], *operands], {"branch_computations": tuple(comps)})
