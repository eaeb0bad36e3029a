"""Names as XLA makes them: sanitizing (SetAndSanitizeName) and uniquing with `.N` suffixes
(NameUniquer)."""

from __future__ import annotations

import re

from .. import dtypes
from ..dtypes import PrimitiveType

_BAD_CHAR = re.compile(r"[^A-Za-z0-9_.\-]")


def sanitize_name(name: str) -> str:
    """XLA's NameUniquer::GetSanitizedName."""
    if not name:
        return name
    first = name[0] if (name[0].isascii() and name[0].isalpha()) or name[0] == "_" else "_"
    result = first + _BAD_CHAR.sub("_", name[1:])
    ptype = dtypes.from_text(result)
    if ptype is not None and ptype not in (PrimitiveType.TUPLE, PrimitiveType.BUFFER):
        result += "_"
    if result.startswith("__") and not result.startswith("__xla_"):
        result = "a" + result[1:]
    return result


_SANITIZED: dict[str, str] = {}


def sanitized(name: str) -> str:
    """sanitize_name, remembered (the same names come back many times)."""
    result = _SANITIZED.get(name)
    if result is None:
        if len(_SANITIZED) > 100_000:
            _SANITIZED.clear()
        result = _SANITIZED[name] = sanitize_name(name)
    return result


class NameUniquer:
    """Hands out unique names: `x`, then `x.1`, `x.2`, ...; a written `.N` suffix is kept when
    it is still free."""

    def __init__(self, separator: str = ".") -> None:
        self.separator = separator
        self._used: dict[str, set[int]] = {}
        self._next: dict[str, int] = {}

    def unique(self, prefix: str) -> str:
        root = sanitized(prefix or "name")
        suffix = 0
        has_suffix = False
        sep = root.rfind(self.separator)
        if 0 < sep < len(root) - 1:
            tail = root[sep + 1 :]
            if re.fullmatch(r"[+-]?\d+", tail):
                suffix, has_suffix = int(tail), True
                root = root[:sep]
        used = self._used.setdefault(root, set())
        if suffix in used:
            n = self._next.get(root, 0)
            while n in used:
                n += 1
            suffix = n
            self._next[root] = n + 1
        used.add(suffix)
        if suffix == 0:
            return f"{root}{self.separator}0" if has_suffix else root
        return f"{root}{self.separator}{suffix}"
