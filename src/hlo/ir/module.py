"""HloModule as a frozen value: computations, the entry, the module config and the header
attributes XLA prints after `HloModule name`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..errors import Span
from ..shape import Shape
from .computation import Computation
from .frozen import FrozenDict
from .metadata import OriginalArray, StackFrameIndex

EMPTY: FrozenDict[str, str] = FrozenDict()


@dataclass(frozen=True)
class ComputationLayout:
    """`entry_computation_layout={(params)->result}`."""

    parameters: tuple[Shape, ...]
    result: Shape


@dataclass(frozen=True)
class InputOutputAlias:
    """`{output index}: (param, {param index}, must-alias|may-alias)`."""

    output_index: tuple[int, ...]
    parameter: int
    parameter_index: tuple[int, ...]
    must_alias: bool = False


@dataclass(frozen=True)
class DebugAttributes:
    log_mode: str | None = None  # "default" | "fusion_debugger"
    callback_id: int = 0
    partitioned: bool = False
    op_id: int = 0


@dataclass(frozen=True)
class RecoveryEntry:
    """One entry of `origin_recovery_table`: an original array, its replacement, and the module
    that recovers it (if any)."""

    old: OriginalArray
    new: OriginalArray
    module: Module | None = None


@dataclass(frozen=True)
class ModuleConfig:
    replica_count: int = 1
    num_partitions: int = 1
    use_spmd_partitioning: bool = False
    alias_passthrough_params: bool = False
    entry_computation_layout: ComputationLayout | None = None
    allow_spmd_sharding_propagation_to_parameters: tuple[bool, ...] = (False,)
    allow_spmd_sharding_propagation_to_output: tuple[bool, ...] = (False,)


@dataclass(frozen=True)
class Module:
    name: str
    computations: tuple[Computation, ...]
    entry_name: str
    config: ModuleConfig = ModuleConfig()
    is_scheduled: bool = False
    input_output_alias: tuple[InputOutputAlias, ...] = ()
    buffer_donors: tuple[tuple[int, tuple[int, ...]], ...] = ()
    frontend_attributes: FrozenDict[str, str] = EMPTY
    stack_frames: StackFrameIndex | None = None
    origin_recovery_table: tuple[RecoveryEntry, ...] = ()
    debug_attributes: tuple[tuple[OriginalArray, tuple[DebugAttributes, ...]], ...] = ()
    span: Span | None = field(default=None, compare=False, repr=False)

    def replace(self, **changes: Any) -> Module:
        return replace(self, **changes)

    @cached_property
    def by_name(self) -> dict[str, Computation]:
        return {c.name: c for c in self.computations}

    def computation(self, name: str) -> Computation:
        return self.by_name[name]

    @property
    def entry(self) -> Computation:
        return self.by_name[self.entry_name]

    def to_text(self, form: str = "long") -> str:
        """The module as HLO text; `form` is one of text.printer.FORMS ('long', 'short',
        'default', 'canonical', ...)."""
        from .services import Services, require

        return require(Services.print_module, "Module.to_text")(self, form)

    def __str__(self) -> str:
        return self.to_text()
