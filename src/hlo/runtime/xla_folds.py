"""Which reduces and reduce-windows XLA constant-folds (HloConstantFolding, run on the module
before XLA:CPU compiles it): an instruction whose operands are all constants, broadcasts of
constants or iotas, at least one a constant (or an instruction folded before it), of at most
45 million elements, is computed at compile time by XLA's evaluator, in its own order
(hlo.numerics.evaluator_fold). A pad merged into a reduce-window counts by the pad's operand:
XLA's simplifier merges the pad first. Broadcasts and iotas are never folded themselves; nor is
a pad of a broadcast. Only ops the plan folds itself (runtime.constant_fold) are followed through
chains; an instruction of any other kind stops the chain (it runs, as before).

Elementwise ops are folded too (their values: hlo.numerics.libm_fold), and also when every
operand broadcasts a constant the same way: XLA's simplifier first makes op(broadcast(c))
broadcast(op(c)), then folds op(c) (seen: tanh of a broadcast f32[3] -> [3,200] takes the
evaluator's tanhf)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ops.registry import spec
from .constant_fold import PURE
from .pad_merge import Merge, _whole_dimensions

_LIMIT = 45_000_000  # XLA's largest folded constant, in elements
_FOLDED = (PURE - {Opcode.BROADCAST, Opcode.IOTA, Opcode.CONSTANT}) | {Opcode.REDUCE, Opcode.REDUCE_WINDOW}


def folded_reductions(
    order: list[Instruction], c: Computation, merges: Mapping[str, Merge]
) -> dict[str, bool]:
    """The reduces and reduce-windows of `order` that XLA constant-folds, each with whether it
    is a reduce-window over whole dimensions (XLA makes it a reduce first)."""
    return folded(order, c, merges)[0]


def folded(
    order: list[Instruction], c: Computation, merges: Mapping[str, Merge]
) -> tuple[dict[str, bool], set[str]]:
    """The reduces and reduce-windows XLA constant-folds (as `folded_reductions`) and the
    elementwise ops it folds."""
    constant: set[str] = set()
    elementwise: set[str] = set()
    sunk: dict[str, _Spread] = {}  # elementwise ops XLA applies before their broadcasts
    found: dict[str, bool] = {}
    by_name = c.by_name
    spread_out = {i.name for i in order if i.opcode is Opcode.BROADCAST}
    for i in order:
        if i.opcode is Opcode.CONSTANT:
            constant.add(i.name)
            continue
        if i.shape.is_tuple or not i.shape.is_static:
            continue
        if i.opcode not in _FOLDED and not spec(i.opcode).elementwise:
            continue
        merge = merges.get(i.name)
        if merge is not None and (merge.convert is not None or merge.window is None):
            continue
        if merge is not None and by_name[merge.operands[0]].opcode is Opcode.BROADCAST:
            continue  # XLA merges a pad of a broadcast only sometimes (not modelled)
        operands = merge.operands if merge is not None else i.operands
        if (
            operands
            and (operands[0] in spread_out or operands[0] in sunk)
            and all(o in spread_out or o in sunk for o in operands)
        ):
            spreads = {_spread(by_name[o], by_name, constant, sunk) for o in operands}
            if spec(i.opcode).elementwise and len(spreads) == 1 and None not in spreads:
                elementwise.add(i.name)  # still a broadcast (of a folded value), not a constant
                sunk[i.name] = spreads.pop()  # type: ignore[assignment]
                continue
        if not operands or not any(o in constant for o in operands):
            continue
        if not all(o in constant or o in sunk or _broadcast_constant(by_name[o], constant) for o in operands):
            continue
        if i.opcode is Opcode.PAD and by_name[i.operands[0]].opcode is Opcode.BROADCAST:
            continue
        sizes = [int(np.prod(by_name[o].shape.dimensions)) for o in operands if by_name[o].shape.is_array]
        if max([int(np.prod(i.shape.dimensions)), *sizes]) > _LIMIT:
            continue
        constant.add(i.name)
        if spec(i.opcode).elementwise:
            elementwise.add(i.name)
        if i.opcode is Opcode.REDUCE:
            found[i.name] = False
        elif i.opcode is Opcode.REDUCE_WINDOW:
            window = merge.window if merge is not None and merge.window is not None else i.attrs["window"]
            found[i.name] = _whole_dimensions(window, i.shape.dimensions)
    return found, elementwise


_Spread = tuple[tuple[int, ...], tuple[int, ...]]  # a broadcast's dimensions and source shape


def _spread(
    i: Instruction, by_name: Mapping[str, Instruction], constant: set[str], sunk: Mapping[str, _Spread]
) -> _Spread | None:
    """How `i` broadcasts a constant (its dimensions and its source's shape), if it does: a
    broadcast of a constant or an op XLA's simplifier moved before such broadcasts."""
    if i.opcode is Opcode.BROADCAST and i.operands[0] in constant:
        return tuple(i.attrs.get("dimensions", ())), tuple(by_name[i.operands[0]].shape.dimensions)
    return sunk.get(i.name)


def _broadcast_constant(i: Instruction, constant: set[str]) -> bool:
    return i.opcode is Opcode.IOTA or (i.opcode is Opcode.BROADCAST and i.operands[0] in constant)
