"""Common subexpressions merged at plan time, as XLA's HloCSE pass: a pure instruction with the
same opcode, shape, attributes and operands (a commutative op's in either order) as an earlier
one computes the same value, so its readers read the earlier one's and its step is left out
(numerics.repeats finds them).

jax's unoptimized text repeats work this way (a layernorm computes `x - mean` twice, once for the
variance and once for the result); each repeat over a large array costs a pass over memory.
Only ops whose result depends on nothing but their operands and attributes are merged (no rng,
no side effects, no collectives or custom-calls), and none that takes part in control
dependencies. Plans merge only when they fuse (RunOptions.fuse): op-by-op runs, which
`--dump-values` and `hlo bisect` use, keep a step, and a value, for every instruction.
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import repeats
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


def _mergeable(i: Instruction) -> bool:
    return i.opcode not in NOT_PURE and (i.opcode in PURE or spec(i.opcode).elementwise)


def merged(c: Computation) -> Computation:
    """The computation with every repeated pure instruction removed and its readers (and the
    root, if it is one) reading the first instance; `c` itself when nothing repeats."""
    return repeats.merged(c, _mergeable)[0]
