"""C string escapes as absl writes and reads them: HLO text's string attributes are read with
CUnescape and printed with CEscape (the lexer, the printer and the proto reader share them)."""

from __future__ import annotations

import re

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
                   "\\": "\\", "'": "'", '"': '"', "?": "?"}  # fmt: skip
_ESCAPE = re.compile(r"\\(?:([ntrabfv\\'\"?])|([0-7]{1,3})|x([0-9a-fA-F]+)|(.))", re.S)


def c_unescape(raw: str) -> str:
    """absl::CUnescape: C escapes; octal and hex escapes are bytes, decoded as UTF-8."""
    if "\\" not in raw:
        return raw
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(raw):
        out += raw[pos : m.start()].encode()
        simple, octal, hexa, bad = m.groups()
        if simple:
            out += _SIMPLE_ESCAPES[simple].encode()
        elif octal:
            out.append(int(octal, 8) & 0xFF)
        elif hexa:
            if int(hexa, 16) > 0xFF:
                raise ValueError(f"hex escape \\x{hexa} is out of range")
            out.append(int(hexa, 16))
        else:
            raise ValueError(f"unknown escape sequence \\{bad}")
        pos = m.end()
    out += raw[pos:].encode()
    return out.decode("utf-8", errors="surrogateescape")


_NEEDS_ESCAPE = re.compile(r"[^ -~]|[\"'\\]")


def c_escape(s: str) -> str:
    """absl::CEscape, as XLA's printer uses it for strings in attributes."""
    if _NEEDS_ESCAPE.search(s) is None:
        return s
    out = []
    for ch in s.encode("utf-8", errors="surrogateescape"):
        c = chr(ch)
        if c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c in "\"'\\":
            out.append("\\" + c)
        elif ch < 0x20 or ch >= 0x7F:
            out.append(f"\\{ch:03o}")
        else:
            out.append(c)
    return "".join(out)
