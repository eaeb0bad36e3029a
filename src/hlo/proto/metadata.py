"""OpMetadata proto <-> hlo.ir.metadata.OpMetadata (the same fields, zero meaning unset)."""

from __future__ import annotations

from typing import Any

from ..ir.metadata import OpMetadata

FIELDS = (
    "op_type",
    "op_name",
    "source_file",
    "source_line",
    "source_end_line",
    "source_column",
    "source_end_column",
    "deduplicated_name",
    "scheduling_name",
    "stack_frame_id",
)


def metadata_from_proto(p: Any) -> OpMetadata:
    return OpMetadata(**{f: getattr(p, f) for f in FIELDS}, profile_type=tuple(p.profile_type))


def metadata_to_proto(md: OpMetadata, p: Any) -> None:
    for f in FIELDS:
        setattr(p, f, getattr(md, f))
    p.profile_type.extend(md.profile_type)
