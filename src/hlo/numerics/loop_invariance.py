"""Which operands of an elementwise instruction are the same all along the innermost loop of the
kernel XLA:CPU makes for it: a broadcast (fused into its consumer) that does not map the
dimension of that loop. LLVM hoists such loads and products out of the loop, which changes which
multiply it fuses into an add (complex multiply: hlo.numerics.complex_arith.multiply_by_invariant).
An elementwise op of such a broadcast (a negated one) changes the fusing again, in ways not
modelled: only a broadcast itself counts."""

from __future__ import annotations

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .context import KernelContext


def innermost_dimension(instr: Instruction) -> int | None:
    """The dimension of the output's innermost loop: its most minor one (by its layout, else the
    last) longer than 1; None if there is none."""
    shape = instr.shape
    layout = shape.layout
    rank = len(shape.dimensions)
    order = layout.minor_to_major if layout is not None and layout.minor_to_major else range(rank - 1, -1, -1)
    return next((d for d in order if shape.dimensions[d] > 1), None)


def invariant_operand(instr: Instruction, ctx: KernelContext, index: int) -> bool:
    """Whether operand `index` of the elementwise `instr` is a broadcast that stays the same
    along its innermost loop."""
    minor = innermost_dimension(instr)
    if minor is None:
        return False
    value = ctx.producers(instr)[index]
    return value.opcode is Opcode.BROADCAST and minor not in tuple(value.attr("dimensions") or ())
