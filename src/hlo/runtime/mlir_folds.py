"""Which instructions StableHLO's folder computes before XLA sees the module. XLA:CPU compiles
StableHLO (jax hands it StableHLO; HLO text reaches it converted), and that folder replaces ops
of constants with constants first: its transcendental ops in double (hlo.numerics.libm_fold), so
XLA's own constant folding (runtime.xla_folds) only sees what it left.

Followed here, one instruction at a time in order, as the plan folds them: constants; ops of
folded values of the kinds it folds (elementwise arithmetic, compares, selects, conversions,
reshapes, slices, transposes, concatenations, reverses); broadcasts of a folded value of one
element (a splat). Not iotas (an op of an iota is left to XLA), not the ops it has no folder for
(expm1, log1p, cbrt, power, atan2, ...), not log or rsqrt of a value <= 0 nor sqrt of one < 0
(it refuses the whole op). Seen with jaxlib 0.10.2: chains through add, multiply by a broadcast
scalar, negate, reshape, slice and convert; 70,000 elements and a broadcast to 2^20 folded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import libm_fold

_FOLDED = frozenset(
    {Opcode.ABS, Opcode.ADD, Opcode.AND, Opcode.COMPARE, Opcode.CONVERT, Opcode.DIVIDE, Opcode.MAXIMUM,
     Opcode.MINIMUM, Opcode.CLAMP, Opcode.MULTIPLY, Opcode.OR, Opcode.REMAINDER, Opcode.NEGATE, Opcode.NOT,
     Opcode.ROUND_NEAREST_AFZ, Opcode.ROUND_NEAREST_EVEN, Opcode.SIGN, Opcode.SUBTRACT, Opcode.XOR,
     Opcode.SELECT, Opcode.RESHAPE, Opcode.SLICE, Opcode.TRANSPOSE, Opcode.CONCATENATE, Opcode.REVERSE}
    | libm_fold.WIDE
)  # fmt: skip


_SPLAT_CHECKED = 1 << 16  # larger values are not checked for being a splat


class MlirFolds:
    """The instructions of one computation StableHLO's folder turns into constants, found as the
    plan walks them (`visit`, with the values folded so far)."""

    def __init__(self) -> None:
        self.folded: set[str] = set()

    def visit(self, i: Instruction, values: Mapping[str, Any]) -> bool:
        """Whether the folder makes `i` a constant (recorded for the instructions after it)."""
        if i.opcode is Opcode.CONSTANT:
            self.folded.add(i.name)
            return True
        operands, folded = i.operands, self.folded
        if not operands or operands[0] not in folded or not all(o in folded for o in operands):
            return False  # (first: most instructions stop here, cheaply)
        if i.shape.is_tuple or not i.shape.is_static:
            return False
        if i.opcode is Opcode.BROADCAST:
            if not _splat(values.get(i.operands[0])):
                return False
        elif i.opcode not in _FOLDED:
            return False
        elif i.opcode in libm_fold.WIDE:
            x = values.get(i.operands[0])
            if x is not None and not libm_fold.in_domain(i.opcode, np.asarray(x)):
                return False
        self.folded.add(i.name)
        return True


def _splat(value: Any) -> bool:
    """Whether a folded value is a splat (one value repeated); unknown values are not."""
    if value is None:
        return False
    x = np.asarray(value)
    if x.size <= 1:
        return True
    if x.size > _SPLAT_CHECKED:
        return False  # not looked at (a chain through it is left to XLA's folding)
    rows = np.ascontiguousarray(x).view(np.uint8).reshape(x.size, -1)  # bits: -0 is not 0
    return bool((rows == rows[0]).all())
