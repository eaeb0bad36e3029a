"""`hlo.load(path)`: a module from HLO text, StableHLO MLIR, an HloModuleProto / HloProto (binary
or text format) or an HloSnapshot, the format told by the content, not the file name.

Detection is one list of (name, test, reader), FORMATS: a new format is one more entry."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import HloError
from ..ir.module import Module
from ..proto.sniff import looks_like_text_proto

if TYPE_CHECKING:
    from ..proto.files import Decoded
from ..text.parser import parse_module


@dataclass(frozen=True)
class Loaded:
    """A module and, from a snapshot, the recorded arguments and result (NumPy values)."""

    module: Module
    name: str
    format: str  # "hlo text", "HloModuleProto (binary)", "HloSnapshot (binary)", ...
    arguments: tuple[Any, ...] | None = None
    result: Any = None
    platform: str = ""
    decoded: Decoded | None = field(default=None, compare=False, repr=False)


def _is_text(data: bytes) -> str | None:
    if b"\0" in data[:4096]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _read_hlo_text(data: bytes, name: str) -> Loaded:
    text = data.decode("utf-8")
    return Loaded(parse_module(text, name), name, "hlo text")


def _read_stablehlo(data: bytes, name: str) -> Loaded:
    from ..stablehlo import parse_stablehlo

    return Loaded(parse_stablehlo(data.decode("utf-8"), name), name, "stablehlo")


def _looks_like_stablehlo(data: bytes) -> bool:
    from ..stablehlo import looks_like_stablehlo

    text = _is_text(data)
    return text is not None and looks_like_stablehlo(text)


def _read_text_proto(data: bytes, name: str) -> Loaded:
    from ..proto.files import decode_text  # (protobuf is imported when a proto is read)

    return _from_decoded(decode_text(data.decode("utf-8"), name), name)


def _read_binary_proto(data: bytes, name: str) -> Loaded:
    from ..proto.files import decode_binary

    return _from_decoded(decode_binary(data, name), name)


# (format name, does the content look like it, read it); the first match reads the file.
FORMATS: list[tuple[str, Callable[[bytes], bool], Callable[[bytes, str], Loaded]]] = [
    ("proto text", lambda d: (t := _is_text(d)) is not None and looks_like_text_proto(t), _read_text_proto),
    ("stablehlo", _looks_like_stablehlo, _read_stablehlo),
    ("hlo text", lambda d: _is_text(d) is not None, _read_hlo_text),
    ("proto binary", lambda d: True, _read_binary_proto),
]


def load_bytes(data: bytes, name: str) -> Loaded:
    for _, test, read in FORMATS:
        if test(data):
            return read(data, name)
    raise HloError(f"{name}: not a module format hlo reads")


def load(path: str | Path) -> Loaded:
    """Read a module file of any supported format ('-' reads standard input)."""
    name = str(path)
    if name == "-":
        return load_bytes(sys.stdin.buffer.read(), "<stdin>")
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise HloError(f"{name}: cannot read the file: {e.strerror}") from None
    return load_bytes(data, name)


def _from_decoded(d: Decoded, name: str) -> Loaded:
    from ..proto.literals import literal_from_proto, value_from_literal
    from ..proto.reader import module_from_proto

    module = module_from_proto(d.module, name)
    fmt = f"{d.kind} ({d.encoding})"
    if d.kind == "HloUnoptimizedSnapshot":
        partitions = d.message.partitions
        if len(partitions) != 1:
            raise HloError(f"{name}: partitions: {len(partitions)} partitions; replaying takes one")
        args = tuple(
            value_from_literal(literal_from_proto(a, f"{name}: partitions[0].arguments[{k}]"))
            for k, a in enumerate(partitions[0].arguments)
        )
        check_arguments(module, args, name)
        return Loaded(module, name, fmt, args, None, "", d)
    if d.kind != "HloSnapshot":
        return Loaded(module, name, fmt, decoded=d)
    snap = d.message
    args = tuple(
        value_from_literal(literal_from_proto(a, f"{name}: arguments[{k}]"))
        for k, a in enumerate(snap.arguments)
    )
    check_arguments(module, args, name)
    result = (
        value_from_literal(literal_from_proto(snap.result, f"{name}: result"))
        if snap.HasField("result")
        else None
    )
    return Loaded(module, name, fmt, args, result, snap.execution_platform, d)


def check_arguments(module: Module, args: tuple[Any, ...], name: str) -> None:
    """A snapshot's arguments must match the entry's parameters, one by one."""
    params = module.entry.parameter_shapes
    if len(args) != len(params):
        raise HloError(
            f"{name}: arguments: {len(args)} recorded for the {len(params)} parameters of {module.name}"
        )
    for k, (value, shape) in enumerate(zip(args, params)):
        if shape.is_array and (
            getattr(value, "shape", None) != shape.dimensions
            or str(getattr(value, "dtype", "")) != str(shape.element_type.numpy_dtype)
        ):
            got = f"{getattr(value, 'dtype', type(value).__name__)}{list(getattr(value, 'shape', ()))}"
            raise HloError(
                f"{name}: arguments[{k}]: a {got} value does not fit parameter {k} "
                f"({shape.to_string(print_layout=False)})"
            )
