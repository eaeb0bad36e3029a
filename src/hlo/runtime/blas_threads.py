"""BLAS threads while several devices share a machine. A matmul of each device would otherwise
start as many BLAS threads as there are cores, so N devices run N x cores threads on the cores
(measured: a sharded transformer block on 4 MPI ranks over 2 cores ran 8x slower, on 8 threads
in process 1.4x slower). Each device gets its share of the cores instead, at least one."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


_CONTROLLER: list[Any] = []


@contextmanager
def shared_by(devices: int) -> Iterator[None]:
    """BLAS limited to this device's share of the cores while `devices` devices run here."""
    if devices <= 1:
        yield
        return
    if not _CONTROLLER:  # finding the BLAS libraries takes ~1 ms: once per process
        from threadpoolctl import ThreadpoolController

        _CONTROLLER.append(ThreadpoolController())
    with _CONTROLLER[0].limit(limits=max(1, cores() // devices), user_api="blas"):
        yield
