"""The compiled tier of fused groups (hlo.runtime.fusion's loop fusion, with the trailing
reduces that read a group: XLA's loop and reduction fusions): the group as one numba function
that walks its rows block by block (hlo.numerics.fused_source), bit for bit the interpreter's
results. The policy is the loop and entry tiers': the interpreter runs the first call; from the
second a background thread compiles the group (or, when an earlier process compiled it, the
call loads it from the disk cache and runs compiled); the compiled function replaces the
interpreted group between two calls. RunOptions.jit "eager" compiles before the first call,
"off" keeps the interpreter. A failure to compile or run is logged at debug level and the
interpreter goes on."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import subnormals, threads
from .fused_source import FusedSource
from .jit_kernel import CompiledKernel, ready_marker

log = logging.getLogger("hlo.jit")

Values = tuple[np.ndarray, ...]
# Output elements per thread below which one thread runs the group: the groups of a transformer
# step (256K-1M elements) measured slower on two threads, where BLAS's threads spin on the other
# core after each dot (RESULTS.md).
MIN_SPLIT_ELEMENTS = 1 << 21


class _Kernel(CompiledKernel):
    """One generated group's compiled function, shared by every plan and thread of the process."""

    what = "fused group"

    def __init__(self, source: FusedSource) -> None:
        super().__init__(source.key)
        self.source = source

    def compile(self, input_types: Sequence[np.dtype]) -> tuple[Any, np.ndarray]:
        from . import jit_numba, jit_rows

        digest = hashlib.sha256(Path(str(jit_rows.__file__)).read_bytes()).hexdigest()[:16]
        text = f"# row reduces {digest}\nfrom hlo.numerics import jit_rows as _r\n\n{self.source.source}\n"
        fn = jit_numba.compile_function(text, "fused", nogil=True)
        pointers = jit_numba.pointers(self.source.ufuncs)
        ins = [np.zeros(1, t) for t in input_types]
        outs = [np.zeros(1, s.element_type.numpy_dtype) for s in self.source.outputs]
        fn(0, 0, *ins, *outs, pointers)  # compiled (or loaded) for these types now
        return fn, pointers

    def marker(self) -> Path:
        return ready_marker("fused-", self.source.key)

    def run(self, values: Sequence[np.ndarray], source: FusedSource) -> Values:
        """The outputs of the compiled group for the step's inputs; rows split between the cores
        this thread's device may use when each gets enough of them. (`source`: the caller's; groups
        that differ only in their number of rows share the function.)"""
        # (a scalar broadcast folded at plan time is a view of one element: never copied whole)
        ins = [
            np.array([np.asarray(v).flat[0]]) if one else np.ascontiguousarray(v).reshape(-1)
            for v, one in zip(values, source.scalars)
        ]
        outs = [np.empty(s.element_count, s.element_type.numpy_dtype) for s in source.outputs]
        rows = source.rows
        size = sum(s.element_count for s in source.outputs)
        parts = min(threads.share(), rows, max(1, size // MIN_SPLIT_ELEMENTS))
        if parts <= 1:
            self.fn(0, rows, *ins, *outs, self.pointers)
        else:
            threads.split_rows(self.fn, rows, parts, (*ins, *outs, self.pointers))
        return tuple(o.reshape(s.dimensions) for o, s in zip(outs, source.outputs))


_kernels: dict[str, _Kernel] = {}
_kernels_lock = threading.Lock()


def _kernel(source: FusedSource) -> _Kernel:
    with _kernels_lock:
        return _kernels.setdefault(source.key, _Kernel(source))


class CompiledGroup:
    """A fused step's function: the interpreted group until the compiled one is ready. The
    source is written when the tier starts (the second call, or the first when eager), not at
    plan time: the first result pays nothing for the tier."""

    def __init__(
        self,
        make: Callable[[], FusedSource | None],
        interpreted: Callable[..., Any],
        flush: bool,
        eager: bool,
        single: bool = False,
    ) -> None:
        """`make` writes the source (None: the tier cannot compile the group); `single`: the
        step gives its one output alone (a reduce alone), not a tuple."""
        self.make, self.interpreted, self.flush, self.eager = make, interpreted, flush, eager
        self.single = single
        self.source: FusedSource | None = None
        self.unsupported = False
        self.kernel: _Kernel | None = None
        self.calls = 0  # calls before the kernel was ready
        self.compiled_calls = 0

    def __call__(self, *values: np.ndarray) -> Any:
        kernel = self.kernel
        if kernel is None or (kernel.fn is None and not kernel.failed):
            kernel = self._start(values)
        if kernel is not None and kernel.fn is not None and (not self.flush or subnormals.active()):
            assert self.source is not None
            try:
                results = kernel.run(values, self.source)
                self.compiled_calls += 1
                return results[0] if self.single else results
            except Exception as e:
                kernel.give_up(e)
        return self.interpreted(*values)

    def _start(self, values: Sequence[np.ndarray]) -> _Kernel | None:
        """Nothing on the first call (the first result is the interpreter's alone, unless eager);
        from the second: the source written, and a group an earlier process compiled loaded now,
        another compiled in the background while the interpreter goes on."""
        if self.unsupported:
            return None
        self.calls += 1
        if not self.eager and self.calls < 2:
            return None
        if self.kernel is None:
            try:
                self.source = self.make()
            except Exception as e:  # (a generator's own bug must not fail the run)
                log.debug("hlo.jit: a fused group stays on the interpreter: %s", e, exc_info=True)
                self.source = None
            if self.source is None:
                self.unsupported = True
                return None
            self.kernel = _kernel(self.source)
        self.kernel.begin([np.asarray(v).dtype for v in values], self.eager)
        return self.kernel
