"""What the compiled fusion tier (hlo.numerics.fusion_tier) takes: the ops it writes as scalar
expressions or as NumPy's loops over a block, the element types, and the reduces over a group's
trailing dimension it computes in the interpreter's order. Checked at plan time, before any
source is written (hlo.numerics.fused_source)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..dtypes import PrimitiveType
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from .jit_codegen import TYPES
from .jit_ops import UFUNCS
from .vector_sum import MIN_ELEMENTS, SPLIT_RESULTS

Op = Opcode
SCALAR_OPS = frozenset(
    {Op.ADD, Op.SUBTRACT, Op.MULTIPLY, Op.DIVIDE, Op.MAXIMUM, Op.MINIMUM, Op.AND, Op.OR, Op.XOR,
     Op.SHIFT_LEFT, Op.SHIFT_RIGHT_LOGICAL, Op.SHIFT_RIGHT_ARITHMETIC, Op.REMAINDER,
     Op.NEGATE, Op.ABS, Op.NOT, Op.SIGN, Op.IS_FINITE, Op.COMPARE, Op.SELECT, Op.CLAMP, Op.CONVERT,
     Op.SIN, Op.COS, Op.TAN, Op.CBRT, Op.LOG, Op.LOG1P}
)  # fmt: skip


TAKEN = SCALAR_OPS | set(UFUNCS) | {Op.BROADCAST}


@dataclass(frozen=True)
class Reduce:
    """A reduce over the trailing dimension of a member: its instruction, the kind (sum, max
    or min) and the outside value that is its init."""

    instr: Instruction
    kind: str


def reduce_kind(instr: Instruction, module: Module, dims: tuple[int, ...]) -> str | None:
    """ "sum", "max" or "min" for a reduce the tier takes: one f32/f64 operand of the group's
    dimensions, reduced over the trailing one only (longer than 1) by a plain add, maximum or
    minimum, with more than 3 results (those cut into chunks are left to the interpreter)."""
    from .computations import recognise_reducer

    if instr.opcode is not Op.REDUCE or len(instr.operands) != 2:
        return None
    if tuple(instr.attrs["dimensions"]) != (len(dims) - 1,) or dims[-1] < 2 or len(dims) < 2:
        return None
    if instr.shape.element_type not in (PrimitiveType.F32, PrimitiveType.F64):
        return None
    if math.prod(dims[:-1]) <= SPLIT_RESULTS or math.prod(dims) < MIN_ELEMENTS:
        return None  # cut into chunks; or XLA:CPU's tree order (hlo.numerics.tree_reduce)
    reducer = recognise_reducer(module.computation(instr.attrs["to_apply"]))
    kinds = {Op.ADD: "sum", Op.MAXIMUM: "max", Op.MINIMUM: "min"}
    return None if reducer is None else kinds.get(reducer.opcode)


def unsupported(members: Sequence[Instruction], outside: Sequence[Instruction]) -> str:
    """Why the tier cannot take a group ("" if it may): checked at plan time, without writing
    the source (which may still find a form it does not take, e.g. a total-order compare)."""
    for i in (*members, *outside):
        if i.shape.element_type not in TYPES:
            return f"element type {i.shape.element_type.text}"
    for m in members:
        if m.opcode not in TAKEN:
            return m.opcode.text
    return ""
