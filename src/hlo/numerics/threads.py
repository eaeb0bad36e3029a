"""How many cores a kernel running on this thread may use (FFT workers): the runtime sets it
for each device's thread — all the cores for one device, a share when several devices run on
the machine, as it shares BLAS threads (runtime/blas_threads.py). Kernels called outside a run
use one."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_local = threading.local()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def share() -> int:
    """The cores this thread's kernels may use."""
    return int(getattr(_local, "cores", 1))


@contextmanager
def using(cores: int) -> Iterator[None]:
    """Let this thread's kernels use `cores` cores (at least one) within the block."""
    before = share()
    _local.cores = max(1, cores)
    try:
        yield
    finally:
        _local.cores = before
