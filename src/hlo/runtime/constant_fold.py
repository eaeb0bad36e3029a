"""Constant folding at plan time, as XLA's HloConstantFolding: a pure op whose operands are all
constants is computed once, when the plan is made, and its step gives that value.

A loop body such as `broadcast(constant(0.01))` would otherwise redo the same work on every
iteration. The op's own bound kernel computes the value, under the run's numerics (floating
point errors ignored, the CPU's flush-to-zero mode as the run sets it), so a folded value is the
value the step would compute. Results larger than `MAX_ELEMENTS` are left to run (a folded value
is kept for the life of the plan), except broadcasts and reshapes, which are views. A kernel that
fails is not folded: the step fails when it runs, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.subnormals import flushing_subnormals
from ..ops.registry import spec

MAX_ELEMENTS = 1 << 16

PURE = frozenset(
    {Opcode.CONSTANT, Opcode.BROADCAST, Opcode.RESHAPE, Opcode.TRANSPOSE, Opcode.CONVERT,
     Opcode.BITCAST_CONVERT, Opcode.IOTA, Opcode.SLICE, Opcode.CONCATENATE, Opcode.COMPARE,
     Opcode.SELECT, Opcode.CLAMP, Opcode.PAD, Opcode.REVERSE, Opcode.REDUCE_PRECISION}
)  # fmt: skip
VIEWS = frozenset({Opcode.BROADCAST, Opcode.RESHAPE})


def foldable(i: Instruction, constants: dict[str, Any]) -> bool:
    """Whether the instruction is a pure op of static array shape whose operands are folded."""
    if i.shape.is_tuple or not i.shape.is_static or not all(o in constants for o in i.operands):
        return False
    return i.opcode in PURE or spec(i.opcode).elementwise


def fold(
    i: Instruction, fn: Callable[..., Any], constants: dict[str, Any], flush_denormals: bool
) -> Callable[[], Any] | None:
    """The step function giving the folded value (and the value recorded in `constants`), or
    None when the instruction is not folded."""
    try:
        with np.errstate(all="ignore"), flushing_subnormals(flush_denormals):
            value = fn(*[constants[o] for o in i.operands])
    except Exception:
        return None
    if not isinstance(value, np.ndarray):
        return None
    if value.size > MAX_ELEMENTS and i.opcode not in VIEWS and i.opcode is not Opcode.CONSTANT:
        return None
    constants[i.name] = value
    return lambda: value
