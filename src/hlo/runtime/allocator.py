"""glibc's malloc kept from handing a run's freed arrays back to the kernel between the steps of
one run. By default a free of 128 KB or more unmaps it (and then raises that threshold, up to
32 MB, only once it has seen such frees) and the heap is trimmed whenever 128 KB lie free at its
top, so a fresh process's first run faulted in zeroed pages for every block temporary: measured
on a 12-op chain over 4M f32 (512 KB blocks), 12,000 page faults and 40-100 ms of a 15 ms run.
Fixed thresholds (what glibc reaches by itself after a run or two) make the first run as the
later ones. Set once per process, only on glibc; elsewhere nothing happens."""

from __future__ import annotations

import ctypes
import os

M_TRIM_THRESHOLD = -1  # (glibc's mallopt parameter numbers, malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc's largest: blocks below it come from the heap, and go back to it
TRIM_THRESHOLD = 64 << 20  # free memory at the heap's top kept for the next step (glibc's dynamic one)

_DONE: list[bool] = []


def keep_freed_memory() -> None:
    """Set the thresholds (once per process; on glibc only, never an error)."""
    if _DONE:
        return
    _DONE.append(True)
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        libc = ctypes.CDLL(None)
        libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
        libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    except (AttributeError, OSError, ValueError):  # not glibc, or no confstr name: leave malloc be
        return
