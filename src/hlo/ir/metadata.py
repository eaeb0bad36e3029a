"""Per-instruction debug information: OpMetadata (`metadata={...}`), statistics, result accuracy,
original values (`origin={...}`), and the module's stack-frame tables."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any


@dataclass(frozen=True)
class OpMetadata:
    """XLA's OpMetadata; empty strings and zeros mean "not set", as in the proto."""

    op_type: str = ""
    op_name: str = ""
    source_file: str = ""
    source_line: int = 0
    source_end_line: int = 0
    source_column: int = 0
    source_end_column: int = 0
    profile_type: tuple[int, ...] = ()
    deduplicated_name: str = ""
    scheduling_name: str = ""
    stack_frame_id: int = 0
    metadata_payload: str | None = None

    @property
    def is_printed(self) -> bool:
        """XLA prints `metadata=` only when one of these is set."""
        return bool(
            self.op_type
            or self.op_name
            or self.source_file
            or self.scheduling_name
            or self.stack_frame_id
            or self.metadata_payload is not None
        )


@dataclass(frozen=True)
class Statistics:
    """`statistics={visualizing_index=N,name=value,...}`."""

    visualizing_index: int = 0
    stats: tuple[tuple[str, float], ...] = ()


class AccuracyMode(enum.Enum):
    DEFAULT = "default"
    HIGHEST = "highest"


@dataclass(frozen=True)
class ResultAccuracy:
    """`result_accuracy={mode=highest}` or `{tolerance={atol=..,rtol=..,ulps=..}}`."""

    mode: AccuracyMode = AccuracyMode.DEFAULT
    atol: float | None = None
    rtol: float | None = None
    ulps: int | None = None

    @property
    def has_tolerance(self) -> bool:
        return self.atol is not None or self.rtol is not None or self.ulps is not None

    @property
    def is_printed(self) -> bool:
        return self.mode is not AccuracyMode.DEFAULT or self.has_tolerance


@dataclass(frozen=True)
class OriginalArray:
    """One leaf of an original value: the instruction it came from and a shape index."""

    instruction_name: str
    shape_index: tuple[int, ...] = ()


@dataclass(frozen=True)
class OriginalValue:
    """`origin={...}`: a tree of OriginalArray leaves (None for an empty leaf) mirroring the
    shape's tuple structure, or the synthetic-call marker."""

    tree: OriginalArray | tuple[OriginalValueTree, ...] | None = None
    synthetic_call: bool = False


OriginalValueTree = OriginalArray | None | tuple[Any, ...]  # nested tuples of leaves


@dataclass(frozen=True)
class FileLocation:
    file_name_id: int
    function_name_id: int
    line: int
    end_line: int
    column: int
    end_column: int


@dataclass(frozen=True)
class StackFrame:
    file_location_id: int
    parent_frame_id: int  # 0: no parent (the text writes this plus one)


@dataclass(frozen=True)
class StackFrameIndex:
    """The module's FileNames / FunctionNames / FileLocations / StackFrames tables (1-based)."""

    file_names: tuple[str, ...] = ()
    function_names: tuple[str, ...] = ()
    file_locations: tuple[FileLocation, ...] = ()
    stack_frames: tuple[StackFrame, ...] = field(default=())


def new_metadata(fields: dict[str, Any]) -> OpMetadata:
    """An OpMetadata made without the frozen dataclass's per-field `__init__` (one per parsed
    instruction); `fields` are valid values of its fields."""
    md = object.__new__(OpMetadata)
    values = dict(_METADATA_DEFAULTS)
    values.update(fields)
    md.__dict__.update(values)
    return md


_METADATA_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclass_fields(OpMetadata)}
