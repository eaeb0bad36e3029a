"""Machine code made ahead of time, mapped executable in this process: a page (or more) written
once, with any 8-byte values patched in (the addresses of C functions the code calls), then made
read-only and executable. What hlo.numerics.native_loops and native_image map. Only on x86-64
Linux (the code's calling convention); None where the system refuses executable memory."""

from __future__ import annotations

import ctypes
import mmap
import os
import platform
import struct
import sys
from collections.abc import Mapping

_keep: list[object] = []  # (mappings live as long as the process)


def supported() -> bool:
    """Whether code made for x86-64 Linux can run here (and `HLO_NATIVE_CODE` does not say off)."""
    return (
        os.environ.get("HLO_NATIVE_CODE", "on").lower() not in ("0", "off", "no", "false")
        and sys.platform.startswith("linux")
        and platform.machine() in ("x86_64", "amd64")
        and sys.maxsize > 2**32
        and hasattr(mmap, "PROT_EXEC")
    )


def map_code(code: bytes, patches: Mapping[int, int] | None = None) -> int | None:
    """The address where `code` runs, with `patches` (offset -> 8-byte value) written in first;
    None if the system says no."""
    if not supported():
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        protect = libc.mprotect
        protect.argtypes, protect.restype = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int], ctypes.c_int
        length = max(1, (len(code) + mmap.PAGESIZE - 1) // mmap.PAGESIZE) * mmap.PAGESIZE
        memory = mmap.mmap(-1, length, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        memory[: len(code)] = code
        for offset, value in (patches or {}).items():
            memory[offset : offset + 8] = struct.pack("<Q", value)
        anchor = ctypes.c_char.from_buffer(memory)
        base = ctypes.addressof(anchor)
        if protect(base, length, mmap.PROT_READ | mmap.PROT_EXEC) != 0:
            return None
    except (OSError, AttributeError, ValueError):
        return None
    _keep.extend((memory, anchor))
    return base
