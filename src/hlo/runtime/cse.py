"""Common subexpressions merged at plan time, as XLA's HloCSE pass: a pure instruction with the
same opcode, shape, attributes and operands as an earlier one computes the same value, so its
readers read the earlier one's and its step is left out.

jax's unoptimized text repeats work this way (a layernorm computes `x - mean` twice, once for the
variance and once for the result); each repeat over a large array costs a pass over memory.
Only ops whose result depends on nothing but their operands and attributes are merged (no rng,
no side effects, no collectives or custom-calls), and none that takes part in control
dependencies. Plans merge only when they fuse (RunOptions.fuse): op-by-op runs, which
`--dump-values` and `hlo bisect` use, keep a step, and a value, for every instruction.
"""

from __future__ import annotations

from typing import Any

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ops.registry import spec

# Pure ops beyond the elementwise ones (spec(op).elementwise). Constants are left alone: their
# literals are not cheap to compare, and folding already makes their users' steps constant.
PURE = frozenset(
    {Opcode.BROADCAST, Opcode.RESHAPE, Opcode.TRANSPOSE, Opcode.CONVERT, Opcode.BITCAST_CONVERT,
     Opcode.BITCAST, Opcode.IOTA, Opcode.SLICE, Opcode.CONCATENATE, Opcode.COMPARE, Opcode.SELECT,
     Opcode.CLAMP, Opcode.PAD, Opcode.REVERSE, Opcode.REDUCE_PRECISION, Opcode.REDUCE,
     Opcode.REDUCE_WINDOW, Opcode.DOT, Opcode.DYNAMIC_SLICE, Opcode.GATHER,
     Opcode.GET_TUPLE_ELEMENT, Opcode.TUPLE}
)  # fmt: skip
NOT_PURE = frozenset({Opcode.RNG, Opcode.RNG_BIT_GENERATOR, Opcode.RNG_GET_AND_UPDATE_STATE})


def _mergeable(i: Instruction, controlled: set[str]) -> bool:
    if i.name in controlled or i.control_predecessors or i.opcode in NOT_PURE:
        return False
    return i.opcode in PURE or spec(i.opcode).elementwise


def merged(c: Computation) -> Computation:
    """The computation with every repeated pure instruction removed and its readers (and the
    root, if it is one) reading the first instance; `c` itself when nothing repeats."""
    controlled = {p for i in c.instructions for p in i.control_predecessors}
    first: dict[Any, str] = {}
    alias: dict[str, str] = {}
    kept: list[Instruction] = []
    for i in c.instructions:
        operands = tuple(alias.get(o, o) for o in i.operands)
        if operands != i.operands:
            i = i.replace(operands=operands)
        if _mergeable(i, controlled):
            key = (i.opcode, i.shape, operands, i.attrs)
            try:
                earlier = first.setdefault(key, i.name)
            except TypeError:  # an attribute that cannot be hashed: never merged
                earlier = i.name
            if earlier != i.name:
                alias[i.name] = earlier
                continue
        kept.append(i)
    if not alias:
        return c
    return c.replace(instructions=tuple(kept), root_name=alias.get(c.root_name, c.root_name))
