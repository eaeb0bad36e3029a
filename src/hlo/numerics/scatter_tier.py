"""The compiled tier of scatter with a recognised combiner (add, multiply, maximum, minimum,
and/or/xor, and the plain overwrite): one numba loop over the updates in update order, each
window element combined into the result where it lies, bit for bit `ufunc.at`'s results (the
interpreter's, hlo.numerics.scatter). The start positions, their bounds check (a window that
does not fit is skipped whole) and the index types stay in NumPy, shared with the interpreter;
the loop only combines. The policy is the loop and fusion tiers': the interpreter runs the first
call; from the second a background thread compiles the loop (or the call loads what an earlier
process compiled from the disk cache); the compiled loop takes over between two calls.
RunOptions.jit "eager" compiles before the first call, "off" keeps the interpreter. A failure is
logged at debug level and the interpreter goes on.

Element types: the floats, integers and pred numba computes natively (f32, f64, s8..u64,
pred); the narrow floats, complex and 4-bit integers stay on the interpreter."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from . import subnormals
from .jit_kernel import CompiledKernel, ready_marker

log = logging.getLogger("hlo.jit")

# How each combiner updates `a` (the result's element) with `b` (the update's), as NumPy's
# ufunc.at does: maximum/minimum keep the update on ties (-0 against +0) and propagate NaN.
_FLOAT = {
    "add": "a + b",
    "multiply": "a * b",
    "maximum": "a if (a > b or a != a) else b",
    "minimum": "a if (a < b or a != a) else b",
    "replace": "b",
}
_INTEGER = {
    "add": "a + b",
    "multiply": "a * b",
    "maximum": "a if a > b else b",
    "minimum": "a if a < b else b",
    "and": "a & b",
    "or": "a | b",
    "xor": "a ^ b",
    "replace": "b",
}
_BOOL = {
    "add": "a | b",  # pred add is logical or, multiply logical and (the interpreter's ufuncs)
    "multiply": "a & b",
    "maximum": "a | b",
    "minimum": "a & b",
    "and": "a & b",
    "or": "a | b",
    "xor": "a ^ b",
    "replace": "b",
}
_FLOATS = frozenset(np.dtype(t) for t in (np.float32, np.float64))
_INTEGERS = frozenset(
    np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
)

# The source of the loop: updates k in order, window elements j in [lo, hi) (a range of the
# window's elements: each element sees its updates in order in any range). An update's start is
# its index vector's elements times their dimensions' strides, skipped whole when an element is
# negative or above the highest start that fits (the interpreter's rule; vectors of any integer
# type, u64 already clamped to int64's range); all starts first (the combining loop ran ~25%
# slower with the check inside it). `run`: the window is one run of consecutive elements,
# combined through two slices when it is long enough (numba vectorizes slices of 1-D arrays, not
# the loop indexed from the start: 7.5 against 31 ms for the embedding gradient).
_SOURCE = """
def scatter(lo, hi, out, vectors, highest, strides, rows, offsets, run):
    width = rows.shape[1]
    flat = rows.reshape(-1)
    count = vectors.shape[0]
    starts = np.empty(count, np.int64)
    for k in range(count):
        s = 0
        for i in range(highest.size):
            v = np.int64(vectors[k, i])
            if v < 0 or v > highest[i]:
                s = -1
                break
            s += v * strides[i]
        starts[k] = s
    sliced = run and hi - lo >= 8
    for k in range(count):
        s = starts[k]
        if s < 0:
            continue
        if sliced:
            r = flat[k * width + lo : k * width + hi]
            o = out[s + lo : s + hi]
            for j in range(hi - lo):
                a = o[j]
                b = r[j]
                o[j] = {expression}
        else:
            for j in range(lo, hi):
                p = s + offsets[j]
                a = out[p]
                b = flat[k * width + j]
                out[p] = {expression}
"""


def expression(kind: str, dtype: np.dtype) -> str | None:
    """The combine expression of `kind` for elements of `dtype`, or None when the tier does not
    take them."""
    if dtype in _FLOATS:
        return _FLOAT.get(kind)
    if dtype in _INTEGERS:
        return _INTEGER.get(kind)
    if dtype == np.bool_:
        return _BOOL.get(kind)
    return None


class _Kernel(CompiledKernel):
    """One combiner's compiled loop for one element type and one index type, shared by every
    plan and thread of the process."""

    what = "scatter"

    def __init__(self, key: str, source: str, dtype: np.dtype, index: np.dtype) -> None:
        super().__init__(key)
        self.source, self.dtype, self.index = source, dtype, index

    def compile(self, arg: Any) -> tuple[Any, np.ndarray]:
        from . import jit_numba

        fn = jit_numba.compile_function(self.source, "scatter", nogil=True)
        one = np.zeros(1, self.dtype)
        offsets = np.zeros(1, np.int64)
        vectors = np.zeros((1, 1), self.index)
        fn(0, 0, one, vectors, offsets, offsets, one.reshape(1, 1), offsets, True)  # compiled (or loaded) now
        return fn, offsets

    def marker(self) -> Path:
        return ready_marker("scatter-", self.key)


_kernels: dict[str, _Kernel] = {}
_kernels_lock = threading.Lock()


def _kernel(kind: str, dtype: np.dtype, index: np.dtype) -> _Kernel | None:
    text = expression(kind, dtype)
    if text is None:
        return None
    index = np.dtype(np.int64) if index == np.uint64 else index  # (clamped to int64 first)
    source = _SOURCE.format(expression=text)
    key = f"{dtype.name}-{index.name}-" + hashlib.sha256(source.encode()).hexdigest()[:16]
    with _kernels_lock:
        return _kernels.setdefault(key, _Kernel(key, source, dtype, index))


Interpreted = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
# (result (flat), starts, rows (count, window), offsets, run) for the compiled loop
Prepare = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[Any, ...]]


class CompiledScatter:
    """A scatter step's function: the interpreter's until the compiled loop is ready.
    `prepare(operand, indices, update)` gives the loop's arguments (the result a copy of the
    operand, the flat starts, the update rows, the window's offsets, whether they are one run)."""

    def __init__(
        self, kind: str, interpreted: Interpreted, prepare: Prepare, flush: bool, eager: bool
    ) -> None:
        self.kind, self.interpreted, self.prepare = kind, interpreted, prepare
        self.flush, self.eager = flush, eager
        self.kernel: _Kernel | None = None
        self.unsupported = False
        self.calls = 0  # calls before the kernel was ready
        self.compiled_calls = 0

    def __call__(self, operand: np.ndarray, indices: np.ndarray, update: np.ndarray) -> np.ndarray:
        kernel = self.kernel
        if kernel is None or (kernel.fn is None and not kernel.failed):
            kernel = self._start(operand.dtype, indices.dtype)
        if kernel is not None and kernel.fn is not None and (not self.flush or subnormals.active()):
            try:
                result = self._run(kernel, operand, indices, update)
                self.compiled_calls += 1
                return result
            except Exception as e:
                kernel.give_up(e)
        return self.interpreted(operand, indices, update)

    def _run(
        self, kernel: _Kernel, operand: np.ndarray, indices: np.ndarray, update: np.ndarray
    ) -> np.ndarray:
        out, vectors, highest, strides, rows, offsets, run, possible = self.prepare(operand, indices, update)
        if possible:
            # one thread: the other core's share measured slower (15.5 against 8.4 ms for the
            # embedding gradient split by window columns: the updates' rows are read by both)
            kernel.fn(0, rows.shape[1], out, vectors, highest, strides, rows, offsets, run)
        return out.reshape(operand.shape)

    def _start(self, dtype: np.dtype, index: np.dtype) -> _Kernel | None:
        """Nothing on the first call (unless eager); from the second: a loop an earlier process
        compiled loaded now, another compiled in the background while the interpreter goes on."""
        if self.unsupported:
            return None
        self.calls += 1
        if not self.eager and self.calls < 2:
            return None
        if self.kernel is None:
            self.kernel = _kernel(self.kind, np.dtype(dtype), np.dtype(index))
            if self.kernel is None:
                self.unsupported = True
                return None
        self.kernel.begin(None, self.eager)
        return self.kernel
