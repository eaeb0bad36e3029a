"""The blocks of a fused step on the cores this device may use (numerics/threads.py), as XLA:CPU
runs a loop fusion's iterations in parallel. Blocks are independent (each member computes the
same rows from the same rows), so the values do not depend on the number of threads.

Worker threads start with NumPy's default error state and the CPU's default floating-point
mode: each task takes the caller's (errors ignored; flush-to-zero as the run set it)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..numerics import subnormals, threads

_pools: dict[int, ThreadPoolExecutor] = {}
_lock = threading.Lock()


def _pool(workers: int) -> ThreadPoolExecutor:
    with _lock:
        pool = _pools.get(workers)
        if pool is None:
            pool = _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix="hlo-blocks")
        return pool


def run_blocks(fn: Callable[[int, int], None], rows: int, step: int) -> None:
    """fn(r0, r1) for every block [r0, r1) of `step` rows out of `rows`, on this thread's share
    of the cores."""
    starts = range(0, rows, step)
    workers = min(threads.share(), len(starts))
    if workers <= 1:
        for r0 in starts:
            fn(r0, min(r0 + step, rows))
        return
    flushing = subnormals.active()

    def task(r0: int) -> None:
        with np.errstate(all="ignore"), subnormals.flushing_subnormals(flushing):
            fn(r0, min(r0 + step, rows))

    for done in [_pool(workers).submit(task, r0) for r0 in starts]:
        done.result()
