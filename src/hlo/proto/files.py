"""Decoding XLA's protobuf files: binary (`.pb`) or text format (`.pbtxt`), holding an
HloModuleProto, an HloProto (module plus buffer assignment, what --xla_dump_hlo_as_proto writes)
or an HloSnapshot (module, arguments and result of one run, --xla_dump_hlo_snapshots), or an
HloUnoptimizedSnapshot (the module before optimization and each partition's arguments,
--xla_dump_hlo_unoptimized_snapshots).

Binary protos carry no type tag: each message type is tried and the one whose module has
computations wins (a snapshot must also hold arguments, a result or a platform)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from google.protobuf import message as pb_message
from google.protobuf import text_format

from ..errors import HloError
from . import hlo_pb2
from .sniff import looks_like_text_proto  # noqa: F401  (part of this module's interface)


@dataclass(frozen=True)
class Decoded:
    kind: str  # "HloModuleProto", "HloProto", "HloSnapshot" or "HloUnoptimizedSnapshot"
    encoding: str  # "binary" or "text"
    message: Any

    @property
    def module(self) -> Any:
        """The HloModuleProto inside."""
        if self.kind == "HloSnapshot":
            return self.message.hlo.hlo_module
        if self.kind in ("HloProto", "HloUnoptimizedSnapshot"):
            return self.message.hlo_module
        return self.message


def _module_of(kind: str, m: Any) -> Any:
    return Decoded(kind, "", m).module


def _plausible(kind: str, m: Any) -> bool:
    module = _module_of(kind, m)
    if not module.computations or not all(c.name for c in module.computations):
        return False
    if kind == "HloSnapshot":
        return bool(m.arguments) or m.HasField("result") or bool(m.execution_platform)
    if kind == "HloUnoptimizedSnapshot":
        return len(m.partitions) > 0
    return True


KINDS = (
    ("HloSnapshot", hlo_pb2.HloSnapshot),
    ("HloUnoptimizedSnapshot", hlo_pb2.HloUnoptimizedSnapshot),
    ("HloProto", hlo_pb2.HloProto),
    ("HloModuleProto", hlo_pb2.HloModuleProto),
)


def decode_binary(data: bytes, name: str) -> Decoded:
    for kind, cls in KINDS:
        m = cls()
        try:
            m.ParseFromString(data)
        except (pb_message.DecodeError, ValueError, RuntimeError):
            continue
        if _plausible(kind, m):
            return Decoded(kind, "binary", m)
    raise HloError(
        f"{name}: not an HLO module: the bytes decode as none of HloModuleProto, HloProto, HloSnapshot "
        "(a truncated or corrupt file?)"
    )


def decode_text(text: str, name: str) -> Decoded:
    errors = []
    for kind, cls in KINDS:
        m = cls()
        try:
            text_format.Parse(text, m)
        except text_format.ParseError as e:
            errors.append((kind, str(e)))
            continue
        if _plausible(kind, m):
            return Decoded(kind, "text", m)
    # The HloModuleProto error is the one a user of `.pbtxt` modules needs most often.
    kind, message = errors[-1] if errors else ("HloModuleProto", "no computations")
    raise HloError(f"{name}: not a text-format {kind}: {message}")
