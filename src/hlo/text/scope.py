"""A computation being parsed (its instructions and the names the text uses for them) and an
operand as the text names it: shared by the instruction parser's parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..ir.instruction import Instruction
from ..shape import Shape

INTERNAL_MARK = "\x00"  # separates a name from a suffix that keeps it unique inside a scope


@dataclass
class Scope:
    """A computation being parsed: its instructions in order, the names the text uses to refer
    to them (`lookup`, compact get-tuple-element keys like `p#0` included) and the names they
    carry (`internal`, unique in the scope until the module makes names unique)."""

    name: str
    instructions: list[Instruction] = field(default_factory=list)
    lookup: dict[str, Instruction] = field(default_factory=dict)
    internal: dict[str, Instruction] = field(default_factory=dict)
    root: str | None = None
    auto_parameters: bool = False  # single-instruction text: unknown operands become parameters

    def add(self, instr: Instruction, key: str | None = None) -> Instruction:
        """Add `instr`, known in the text as `key` (its name by default)."""
        key = instr.name if key is None else key
        if instr.name in self.internal:
            n = 1
            while f"{instr.name}{INTERNAL_MARK}{n}" in self.internal:
                n += 1
            instr = instr.replace(name=f"{instr.name}{INTERNAL_MARK}{n}")
        self.instructions.append(instr)
        self.internal[instr.name] = instr
        self.lookup[key] = instr
        return instr


class Operand(NamedTuple):
    name: str
    declared: Shape | None
    offset: int  # where the operand starts in the text
