"""HloInstruction as a frozen value: name, opcode, result shape, operand names, the op's own typed
attributes (`attrs`, keyed by their text names) and the attributes every instruction may carry.
Change one with `replace()`."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..errors import Span
from ..shape import Shape
from .frozen import FrozenDict
from .metadata import OpMetadata, OriginalValue, ResultAccuracy, Statistics
from .opcode import Opcode

EMPTY: FrozenDict[str, Any] = FrozenDict()


@dataclass(frozen=True)
class Instruction:
    name: str
    opcode: Opcode
    shape: Shape
    operands: tuple[str, ...] = ()
    attrs: FrozenDict[str, Any] = EMPTY
    # Attributes any instruction may carry, printed after the op's own, in this order.
    sharding: Any = None  # hlo.ir.sharding.Sharding
    frontend_attributes: FrozenDict[str, str] = EMPTY
    control_predecessors: tuple[str, ...] = ()
    statistics: Statistics | None = None
    result_accuracy: ResultAccuracy | None = None
    original_value: OriginalValue | None = None
    metadata: OpMetadata | None = None
    backend_config: str | None = None
    parameter_replication: tuple[bool, ...] | None = None
    span: Span | None = field(default=None, compare=False, repr=False)

    def replace(self, **changes: Any) -> Instruction:
        if "attrs" in changes and not isinstance(changes["attrs"], FrozenDict):
            changes["attrs"] = FrozenDict(changes["attrs"])
        return replace(self, **changes)

    def attr(self, name: str, default: Any = None) -> Any:
        """The op attribute `name` (as written in text: 'dimensions', 'to_apply', ...)."""
        return self.attrs.get(name, default)

    def with_attr(self, name: str, value: Any) -> Instruction:
        return replace(self, attrs=self.attrs.set(name, value))

    @property
    def called_computations(self) -> tuple[str, ...]:
        """Names of the computations this instruction calls, in attribute order."""
        from .services import Services, require

        return require(Services.called_computation_names, "called_computations")(self)

    def __str__(self) -> str:
        from .services import Services, require

        return require(Services.print_instruction, "str(instruction)")(self)


_DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in fields(Instruction) if f.name not in ("name", "opcode", "shape")
}


def new_instruction(name: str, opcode: Opcode, shape: Shape, **fields: Any) -> Instruction:
    """An Instruction made without the frozen dataclass's per-field `__init__` (the text parser
    makes one per line; this is several times cheaper). `fields` must be valid field values, as
    for the constructor (attrs a FrozenDict)."""
    instr = object.__new__(Instruction)
    values = dict(_DEFAULTS)
    values.update(fields)
    values["name"], values["opcode"], values["shape"] = name, opcode, shape
    instr.__dict__.update(values)
    return instr
