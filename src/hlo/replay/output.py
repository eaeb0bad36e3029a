"""Writing output files: exactly the path given, a one-line error for a missing directory."""

from __future__ import annotations

from pathlib import Path

from ..errors import HloError


def check_writable(path: str) -> None:
    parent = Path(path).parent
    if not parent.is_dir():
        raise HloError(f"{path}: cannot write: the directory {str(parent)!r} does not exist")


def write_output(path: str, data: bytes | str) -> None:
    check_writable(path)
    try:
        if isinstance(data, bytes):
            Path(path).write_bytes(data)
        else:
            Path(path).write_text(data)
    except OSError as e:
        raise HloError(f"{path}: cannot write: {e.strerror}") from None
