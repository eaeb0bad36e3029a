"""Which instructions StableHLO's folder computes before XLA sees the module. XLA:CPU compiles
StableHLO (jax hands it StableHLO; HLO text reaches it converted), and that folder replaces ops
of constants with constants first: its transcendental ops in double (hlo.numerics.libm_fold), so
XLA's own constant folding (runtime.xla_folds) only sees what it left.

Followed here, one instruction at a time in order, as the plan folds them: constants; ops of
folded values of the kinds it folds (elementwise arithmetic, compares, selects, conversions,
reshapes, slices, transposes, concatenations, reverses); broadcasts of a folded value of one
element (a splat). Not iotas (an op of an iota is left to XLA), not the ops it has no folder for
(expm1, log1p, cbrt, power, atan2, ...), not log or rsqrt of a value <= 0 nor sqrt of one < 0
(it refuses the whole op), not a sign of a value holding a NaN, not a clamp with scalar
bounds. Its values keep subnormals (`folding`). Seen with jaxlib 0.10.2: chains through add,
multiply by a broadcast scalar, negate, reshape, slice and convert; 70,000 elements and a
broadcast to 2^20 folded."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import folder_rules, libm_fold

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
        elif i.opcode is Opcode.SIGN and _has_nan(values.get(i.operands[0])):
            return False  # (it folds no sign of a NaN: the whole op is left to XLA)
        elif i.opcode is Opcode.CLAMP and any(_shape(values.get(o)) != i.shape.dimensions for o in operands):
            return False  # (scalar bounds: its min and max folders take operands of one shape)
        elif i.opcode in libm_fold.WIDE:
            x = values.get(i.operands[0])
            if x is not None and not libm_fold.in_domain(i.opcode, np.asarray(x)):
                return False
        self.folded.add(i.name)
        return True


def folding(
    i: Instruction,
    fn: Callable[..., Any],
    wide: bool,
    flush: bool,
    unflushed: Callable[[], Callable[..., Any]],
) -> tuple[Callable[..., Any], bool]:
    """The kernel and the flush mode that fold `i` (all operands constants) as XLA does: where
    StableHLO's folder takes it (`wide`), without flushing subnormals (`unflushed()` binds the
    op's kernel so), by its own rule for float sign and remainder; XLA's evaluator's clamp
    otherwise; the op's own kernel (`fn`) in the run's mode for the rest."""
    if i.opcode in libm_fold.OPCODES:
        return fn, flush
    rule: Callable[..., Any] | None = None
    if _is_float(i):
        rule = (
            _RULES.get(i.opcode)
            if wide
            else (folder_rules.evaluated_clamp if i.opcode is Opcode.CLAMP else None)
        )
    if wide:
        return (rule or (unflushed() if flush else fn)), False
    return (rule if rule is not None and flush else fn), flush


# StableHLO's own rules for floats (hlo.numerics.folder_rules)
_RULES: dict[Opcode, Callable[..., Any]] = {
    Opcode.SIGN: folder_rules.folded_sign,
    Opcode.REMAINDER: folder_rules.folded_remainder,
}


def _is_float(i: Instruction) -> bool:
    t = i.shape.element_type
    return bool(t.is_floating_point) and not t.is_complex


def _has_nan(value: Any) -> bool:
    if value is None:
        return True  # (unknown: not taken)
    x = np.asarray(value)
    return x.dtype.kind in "fcV" and bool(np.isnan(x.astype(np.float64) if x.dtype.kind == "V" else x).any())


def _shape(value: Any) -> tuple[int, ...] | None:
    return None if value is None else tuple(np.shape(value))


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
