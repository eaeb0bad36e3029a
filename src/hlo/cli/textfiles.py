"""Reading a module named on the command line (a path, or '-' for standard input): HLO text or
StableHLO MLIR, told apart by content."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import HloError
from ..ir.module import Module
from ..text.parser import parse_module as parse_hlo_text


def read_text(path: str) -> tuple[str, str]:
    """(text, name to show in diagnostics)."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(), path
    except OSError as e:
        raise HloError(f"{path}: cannot read the file: {e.strerror}") from None
    except UnicodeDecodeError:
        raise HloError(f"{path}: the file is not UTF-8 text") from None


def parse_module(text: str, name: str) -> Module:
    """The module in `text`: StableHLO MLIR when it looks like MLIR (by its content), else HLO
    text."""
    from ..stablehlo import looks_like_stablehlo, parse_stablehlo

    if looks_like_stablehlo(text):
        return parse_stablehlo(text, name)
    return parse_hlo_text(text, name)
