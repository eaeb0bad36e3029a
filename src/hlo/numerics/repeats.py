"""Repeated pure instructions found as XLA's HloCSE finds them: the same opcode, shape,
attributes and operands (a commutative op's in either order) as an earlier one compute the same
value, so readers of the repeat may read the first. Shared by the plan (runtime.cse, which then
computes each value once) and the model of XLA:CPU's kernels (cpu_kernels.as_fused, which must
see the graph XLA's fusion sees)."""

from __future__ import annotations

from collections.abc import Callable

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode

COMMUTATIVE = frozenset(
    {Opcode.ADD, Opcode.MULTIPLY, Opcode.MAXIMUM, Opcode.MINIMUM, Opcode.AND, Opcode.OR, Opcode.XOR}
)  # fmt: skip

# Given an instruction (operands already redirected) and the kept ones so far: the value it is
# another name for (a simplification that removes it), or None.
Removal = Callable[[Instruction, dict[str, Instruction]], "str | None"]


def merged(
    comp: Computation, mergeable: Callable[[Instruction], bool], removal: Removal | None = None
) -> tuple[Computation, dict[str, str]]:
    """The computation without the repeats of mergeable instructions (nor what `removal`
    removes), and what each removed one's readers read instead; the root may be one of them.
    Instructions in control dependencies are never removed."""
    controlled = {p for i in comp.instructions for p in i.control_predecessors}
    first: dict[object, str] = {}
    alias: dict[str, str] = {}
    kept: dict[str, Instruction] = {}
    for i in comp.instructions:
        operands = tuple(alias.get(o, o) for o in i.operands)
        if operands != i.operands:
            i = i.replace(operands=operands)
        if i.name not in controlled and not i.control_predecessors and mergeable(i):
            target = removal(i, kept) if removal is not None else None
            if target is None:
                order = tuple(sorted(operands)) if i.opcode in COMMUTATIVE else operands
                try:
                    target = first.setdefault((i.opcode, i.shape, order, i.attrs), i.name)
                except TypeError:  # an attribute that cannot be hashed: never merged
                    target = i.name
            if target != i.name:
                alias[i.name] = target
                continue
        kept[i.name] = i
    if not alias:
        return comp, alias
    return comp.replace(
        instructions=tuple(kept.values()), root_name=alias.get(comp.root_name, comp.root_name)
    ), alias
