"""Instruction names from MLIR locations, as XLA's conversion takes them: the name of a named
location (`loc("jit(f)/sin"(...))` names its instruction `sin`, the part after the last '/',
sanitized), looked up through `#loc` aliases and call sites; unnamed locations (file:line:col,
unknown) give none."""

from __future__ import annotations

import re
from typing import Any

from ..text.names import sanitized
from .attrs import Raw

_ALIAS = re.compile(r"#[\w$.\-]+")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def loc_names(loc: Any, aliases: dict[str, Any]) -> tuple[str, str] | None:
    """(instruction name, op_name metadata) that `loc` (a Raw `loc(...)`) gives, or None: the
    named location's last path component, sanitized, and its whole name."""
    if not isinstance(loc, Raw) or not loc.text.startswith("loc("):
        return None
    full = _bare(loc.text[4:-1].strip(), aliases, 0)
    if full is None:
        return None
    full = full.rstrip(":")
    name = full.rsplit("/", 1)[-1]
    return (sanitized(name), full) if name else None


def _bare(text: str, aliases: dict[str, Any], depth: int) -> str | None:
    if depth > 50 or not text:
        return None
    m = _ALIAS.fullmatch(text)
    if m:
        target = aliases.get(text)
        if isinstance(target, Raw) and target.text.startswith("loc("):
            return _bare(target.text[4:-1].strip(), aliases, depth + 1)
        return None
    if text.startswith("callsite("):
        inner = text[len("callsite(") : -1]
        callee, _, _ = _split_at(inner)
        return _bare(callee.strip(), aliases, depth + 1)
    if text.startswith("fused"):
        start = text.find("[")
        for part in _split_commas(text[start + 1 : -1] if start >= 0 else ""):
            found = _bare(part.strip(), aliases, depth + 1)
            if found:
                return found
        return None
    m2 = _STRING.match(text)
    if m2 is None:
        return None
    rest = text[m2.end() :].lstrip()
    if rest.startswith(":"):  # "file":line:col
        return None
    return m2.group(1)


def _split_at(text: str) -> tuple[str, str, str]:
    """`X at Y` split at the top-level `at`."""
    depth = 0
    in_string = False
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string:
            depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
            if depth == 0 and text.startswith(" at ", i):
                return text[:i], " at ", text[i + 4 :]
    return text, "", ""


def _split_commas(text: str) -> list[str]:
    parts, depth, start, in_string = [], 0, 0, False
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string:
            depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
            if ch == "," and depth == 0:
                parts.append(text[start:i])
                start = i + 1
    parts.append(text[start:])
    return parts
