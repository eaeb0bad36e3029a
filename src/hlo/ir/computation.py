"""HloComputation as a frozen value: instructions in order (the schedule when the module is
scheduled), the root, the execution thread."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..errors import Span
from ..shape import Shape
from .instruction import Instruction
from .opcode import Opcode


@dataclass(frozen=True)
class Computation:
    name: str
    instructions: tuple[Instruction, ...]
    root_name: str
    execution_thread: str = "main"
    span: Span | None = field(default=None, compare=False, repr=False)

    def replace(self, **changes: Any) -> Computation:
        return replace(self, **changes)

    @cached_property
    def by_name(self) -> dict[str, Instruction]:
        return {i.name: i for i in self.instructions}

    def __getitem__(self, name: str) -> Instruction:
        return self.by_name[name]

    @property
    def root(self) -> Instruction:
        return self.by_name[self.root_name]

    def needed(self) -> set[str]:
        """The names of the instructions the root depends on (itself included): what is left
        once dead instructions are removed, side effects aside."""
        live = {self.root_name}
        for i in reversed(self.instructions):  # (operands come first: one pass backwards)
            if i.name in live:
                live.update(i.operands)
        return live

    @cached_property
    def parameters(self) -> tuple[Instruction, ...]:
        """The parameter instructions, by parameter number."""
        params = [i for i in self.instructions if i.opcode is Opcode.PARAMETER]
        return tuple(sorted(params, key=lambda i: i.attrs.get("parameter_number", 0)))

    @property
    def parameter_shapes(self) -> tuple[Shape, ...]:
        return tuple(p.shape for p in self.parameters)

    @property
    def result_shape(self) -> Shape:
        return self.root.shape

    def __str__(self) -> str:
        from .services import Services, require

        return require(Services.print_computation, "str(computation)")(self)
