"""The C heap kept between runs (glibc only). A run allocates and frees arrays of a few to tens
of MB. By default glibc maps an array above its (moving) mmap threshold afresh and gives the
heap's top back to the system once 128 KB or more of it is free: the next run's arrays then
start on new pages, and writing them costs a page fault every 4 KB, as much as the op itself
(softmax over [4096, 1024]: 16 -> 9.5 ms, layernorm from XLA's optimized text 19 -> 11.5 ms;
benchmarks/RESULTS.md). XLA:CPU keeps its buffers in its own allocator. Here arrays of up to
32 MB come from the heap and up to 64 MB of free heap stays mapped. (Setting only M_TOP_PAD
measured 2-4x slower: any of these settings stops glibc's threshold from moving, leaving it at
128 KB, so the thresholds are set together.)"""

from __future__ import annotations

import ctypes
import sys

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc's own upper bound for its moving threshold
TRIM_THRESHOLD = 64 << 20

_done = False


def keep_heap() -> bool:
    """Set glibc's thresholds once per process; False where there is no glibc mallopt."""
    global _done
    if _done:
        return True
    _done = True
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # another C library (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
