"""Small matrix products on one BLAS thread. OpenBLAS splits a product over its threads from
m*n*k = 262,144 on, and its threads wait for each other by spinning: when another process holds
the second core, every small product waits for a thread that is not running (measured with the
machine busy: a [32,128,64] x [32,64,128] batched product 161 ms on two threads, 0.87 ms on
one; benchmarks/RESULTS.md, step 5). Products too small to gain from a second thread run on
one (larger products keep both threads: a quiet machine gains from them, a busy one may
not). Only when this thread's device has all the cores: with several devices the runtime has
already given each its share (runtime/blas_threads.py), and the thread count is the process's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from . import threads

OPENBLAS_SPLITS = 1 << 18  # m*n*k from which OpenBLAS uses several threads
# m*n*k below which products run on one thread: from 2^22 on a second thread pays on a quiet
# machine (1.3-2x; 2^29 cost the transformer step 1.35x there), below it gains nothing even
# then (a [32,128,64] x [32,64,128] batch: 0.98 ms on one thread, 1.8 ms on two); RESULTS.md
SMALL = 1 << 22

_LIBS: list[list[Any]] = []  # NumPy's BLAS (threadpoolctl controllers), found once


@contextmanager
def sized(m: int, n: int, k: int) -> Iterator[None]:
    """The block's BLAS products (each m x k by k x n) on one thread if they are small."""
    if not OPENBLAS_SPLITS <= m * n * k < SMALL or threads.share() < threads.cores():
        yield
        return
    libs = _libs()
    before = [lib.num_threads for lib in libs]
    if all(b <= 1 for b in before):
        yield
        return
    for lib in libs:
        lib.set_num_threads(1)
    try:
        yield
    finally:
        for lib, b in zip(libs, before):
            lib.set_num_threads(b)


def _libs() -> list[Any]:
    if not _LIBS:
        from threadpoolctl import ThreadpoolController

        blas = ThreadpoolController().select(user_api="blas").lib_controllers
        numpy_own = [c for c in blas if "numpy" in c.filepath]  # np.matmul's library
        _LIBS.append(numpy_own or blas)
    return _LIBS[0]
