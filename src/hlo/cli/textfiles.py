"""Reading HLO text named on the command line (a path, or '-' for standard input)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import HloError


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
