"""How many cores a kernel running on this thread may use (FFT workers, compiled loops split
by rows): the runtime sets it for each device's thread — all the cores for one device, a share
when several devices run on the machine, as it shares BLAS threads (runtime/blas_threads.py).
Kernels called outside a run use one. And the process's worker threads that run those splits."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..errors import EvalError
from . import subnormals

_local = threading.local()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def xla_threads() -> int:
    """The threads of XLA:CPU's pool on this machine: it sizes its pool from the process's cores
    when it starts, and cuts long float sums into tiles only with more than one thread
    (hlo.numerics.vector_sum.tiled). `HLO_XLA_THREADS` names another count (the fixtures'
    XLA:CPU ran on 2)."""
    given = os.environ.get("HLO_XLA_THREADS", "").strip()
    if not given:
        return cores()
    if not given.isdigit() or int(given) < 1:
        raise EvalError(f"HLO_XLA_THREADS must be a positive whole number of threads, not {given!r}")
    return int(given)


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


def split_rows(fn: Callable[..., Any], rows: int, parts: int, args: tuple[Any, ...]) -> None:
    """fn(r0, r1, *args) over rows [0, rows) in `parts` ranges, the last on this thread, the
    others on the process's worker threads (fn gives up the GIL), each in this thread's
    flush-to-zero mode. (Threads started per call cost ~0.1-1 ms each under load.)"""
    flushing = subnormals.active()
    bounds = [rows * k // parts for k in range(parts + 1)]

    def part(k: int) -> None:
        with subnormals.flushing_subnormals(flushing):
            fn(bounds[k], bounds[k + 1], *args)

    futures = [_pool(parts - 1).submit(part, k) for k in range(parts - 1)]
    try:
        part(parts - 1)
    finally:
        for f in futures:
            f.result()  # (raises the worker's error here)


_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _pool(workers: int) -> ThreadPoolExecutor:
    """The process's worker threads for split loops (at least `workers` of them)."""
    with _pools_lock:
        size = max(_pools, default=0)
        if size < workers:
            _pools[workers] = ThreadPoolExecutor(workers, thread_name_prefix="hlo-split")
            size = workers
        return _pools[size]


def unary_loop(loop: Callable[[int, int, int], None], x: np.ndarray, split_elements: int) -> np.ndarray:
    """A compiled loop `loop(n, x_address, out_address)` over x's elements (made contiguous),
    split between the cores this thread may use when each gets `split_elements` or more (the
    loop gives up the GIL: a ctypes function)."""
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty_like(flat)
    size = flat.itemsize

    def part(r0: int, r1: int) -> None:
        loop(r1 - r0, flat.ctypes.data + r0 * size, out.ctypes.data + r0 * size)

    parts = min(share(), max(1, flat.size // split_elements))
    if parts <= 1:
        part(0, flat.size)
    else:
        split_rows(part, flat.size, parts, ())
    return out.reshape(np.shape(x))
