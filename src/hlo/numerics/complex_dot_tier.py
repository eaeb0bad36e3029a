"""The compiled tier of complex dots' main sums (hlo.numerics.complex_dot): the four real sums
of the columns Eigen's kernel takes in whole groups, k in order, as one numba loop (each
product rounded, then added: numba neither fuses nor reorders them) instead of eight NumPy
passes over the output a contracted element (~4x faster), its rows (or batches) split between
the cores the calling thread may use. The policy is the other tiers':
products below MIN_PRODUCTS stay on NumPy; the first large one starts a background compilation
(or loads what an earlier process compiled from the disk cache) and NumPy goes on until the
loop is ready. RunOptions.jit "eager" compiles at once, "off" keeps NumPy; where subnormals are
flushed in software (the CPU's mode cannot be set) NumPy computes every step. A failure is
logged at debug level and NumPy goes on."""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from pathlib import Path
from typing import Any

import numpy as np

from . import threads
from .jit_kernel import CompiledKernel, ready_marker

MIN_PRODUCTS = 1 << 18  # rows * columns * contracted elements (a product of 64^3: ~1 ms in NumPy)
SPLIT_PRODUCTS = 1 << 21  # from here the rows are split between the cores this thread may use

# rr, ii, ri, ir [B, m, n] += the products of a's parts [B, m, k] with b's [B, k, n], k in order
_SOURCE = """
def four_sums(ar, ai, br, bi, rr, ii, ri, ir):
    for g in range(ar.shape[0]):
        for i in range(ar.shape[1]):
            for j in range(ar.shape[2]):
                xr = ar[g, i, j]
                xi = ai[g, i, j]
                for c in range(br.shape[2]):
                    yr = br[g, j, c]
                    yi = bi[g, j, c]
                    rr[g, i, c] += xr * yr
                    ii[g, i, c] += xi * yi
                    ri[g, i, c] += xr * yi
                    ir[g, i, c] += xi * yr
"""
_KEY = hashlib.sha256(_SOURCE.encode()).hexdigest()[:16]


class _Kernel(CompiledKernel):
    what = "complex dot"

    def compile(self, arg: Any) -> tuple[Any, np.ndarray]:
        from . import jit_numba

        fn = jit_numba.compile_function(_SOURCE, "four_sums", nogil=True)
        for dtype in (np.float32, np.float64):  # both types compiled (or loaded) now
            one = np.zeros((1, 1, 1), dtype)
            fn(one, one, one, one, one.copy(), one.copy(), one.copy(), one.copy())
        return fn, np.zeros(0)

    def marker(self) -> Path:
        return ready_marker("complex-dot-", _KEY)


_kernel: _Kernel | None = None
_lock = threading.Lock()


def _ready(jit: str) -> _Kernel | None:
    """The kernel once compiled, starting it on the first call (None until then)."""
    global _kernel
    if jit == "off":
        return None
    with _lock:
        if _kernel is None:
            if importlib.util.find_spec("numba") is None:
                return None
            _kernel = _Kernel(_KEY)
    kernel = _kernel
    if kernel.fn is None and not kernel.failed:
        kernel.begin(None, jit == "eager")
    return kernel if kernel.fn is not None else None


def four_sums(a: np.ndarray, b: np.ndarray, jit: str) -> list[np.ndarray] | None:
    """rr, ii, ri, ir of a [B, m, k] . b [B, k, n] (complex) summed in k order by the compiled
    loop, or None where it does not run (small, not compiled yet, jit off)."""
    size = a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
    if size < MIN_PRODUCTS:
        return None
    kernel = _ready(jit)
    if kernel is None:
        return None
    ar, ai, br, bi = (np.ascontiguousarray(p) for p in (a.real, a.imag, b.real, b.imag))
    sums = [np.zeros((a.shape[0], a.shape[1], b.shape[2]), ar.dtype) for _ in range(4)]
    by_batch = a.shape[0] > 1  # (slices of rows of one batch stay contiguous)
    count = a.shape[0] if by_batch else a.shape[1]
    cores = min(threads.share(), count) if size >= SPLIT_PRODUCTS else 1

    def some(r0: int, r1: int) -> None:
        if by_batch:
            kernel.fn(ar[r0:r1], ai[r0:r1], br[r0:r1], bi[r0:r1], *(t[r0:r1] for t in sums))
        else:
            kernel.fn(ar[:, r0:r1], ai[:, r0:r1], br, bi, *(t[:, r0:r1] for t in sums))

    try:
        if cores > 1:
            threads.split_rows(some, count, cores, ())
        else:
            some(0, count)
    except Exception as e:
        kernel.give_up(e)
        return None
    return sums
