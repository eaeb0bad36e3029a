"""The compiled tier of while loops: when a loop qualifies (decided at plan time, from its
computations alone: hlo.numerics.jit_codegen), the interpreter runs it at once, and once the
loop proves hot a background thread compiles it with numba (or loads it from the disk cache);
between two iterations the interpreter hands the state to the compiled loop, which gives the
interpreter's bits, so the switch changes no answer. RunOptions.jit: "auto" (this, when numba is
installed), "eager" (compile before the first iteration: tests and benchmarks), "off".

A failure to compile is logged at debug level and the interpreter goes on; nothing here raises
for a loop the tier cannot run."""

from __future__ import annotations

import functools
import importlib.util
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..ir.instruction import Instruction
from . import subnormals
from .context import KernelContext
from .jit_kernel import CompiledKernel, ready_marker
from .jit_loop_source import LoopSource, loop_source

log = logging.getLogger("hlo.jit")

HOT_ITERATIONS = 64  # a loop is hot after this many iterations ...
HOT_SECONDS = 0.05  # ... or this long in the interpreter
FIRST_CHUNK = 1024  # iterations per call of the compiled loop, doubled while calls are short
# While a compilation runs, the interpreter lets the compiling thread have the GIL once per this
# many seconds (not at every iteration: that made each interpreted run of the while-loop workload
# 40x slower for the 1-2 s of the compilation, and did not finish it sooner; RESULTS.md).
YIELD_SECONDS = 0.0005
LONG_SECONDS = 0.5  # a first run this long in the interpreter starts the compiled tier within it
CHUNK_SECONDS = 0.05  # between calls the interpreter's condition runs: the run's deadline check


@functools.cache
def numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


class _Kernel(CompiledKernel):
    """One generated loop's compiled function, shared by every thread and plan of the process."""

    what = "loop"

    def __init__(self, source: LoopSource) -> None:
        super().__init__(source.key)
        self.source = source
        self.on_disk: bool | None = None  # whether a process compiled it before (looked up once)

    def compile(self, state: Any) -> tuple[Any, np.ndarray]:
        from . import jit_numba

        fn = jit_numba.compile_loop(self.source)
        pointers = jit_numba.pointers(self.source.ufuncs)
        fn(*_leaves(self.source, state), *_constants(self.source), pointers, 0)  # compile/load now
        return fn, pointers

    def marker(self) -> Path:
        return _marker(self.source)


_kernels: dict[str, _Kernel] = {}  # by the generated source (loops differing in constants share one)
_kernels_lock = threading.Lock()


def _marker(source: LoopSource) -> Path:
    return ready_marker("", source.key)


def _kernel(source: LoopSource) -> _Kernel:
    with _kernels_lock:
        return _kernels.setdefault(source.key, _Kernel(source))


def _leaves(source: LoopSource, state: Any) -> list[Any]:
    """The state as the compiled loop takes it: flat arrays of one numba type, a scalar as one
    element (a scalar argument would pass through a double, which the CPU's mode flushes)."""
    values = state if source.tupled else (state,)
    return [np.require(v, requirements=("C", "W")).reshape(-1) for v in values]


def _constants(source: LoopSource) -> tuple[Any, ...]:
    return source.constants


def _state(source: LoopSource, leaves: Any) -> Any:
    values = tuple(
        np.asarray(v, dtype=s.element_type.numpy_dtype).reshape(s.dimensions)
        for v, s in zip(leaves, source.state)
    )
    return values if source.tupled else values[0]


class CompiledLoop:
    """What a while kernel asks between iterations: whether to hand over, and the hand-over."""

    def __init__(self, source: LoopSource, flush: bool, eager: bool) -> None:
        self.source, self.flush, self.eager = source, flush, eager
        self.kernel = _kernel(source)
        self.spent = 0.0  # seconds this loop has run in the interpreter (until compiled)
        self.seen = 0.0  # when ready() last looked
        self.yielded = 0.0  # when the interpreter last let the compiling thread have the GIL
        self.run, self.runs = -1.0, 0  # when the current run of the loop started; runs seen

    def ready(self, state: Any, count: int, started_at: float) -> bool:
        """Whether the compiled loop should take over now. Nothing starts in the loop's first
        run (the first result is the interpreter's alone) unless that run is long; from the
        second, the compilation starts once the loop proves hot (iterations in this run, or time
        in the interpreter over all runs), and a kernel an earlier process compiled is loaded."""
        kernel = self.kernel
        if kernel.fn is None:
            if kernel.failed:
                return False
            now = time.perf_counter()
            if started_at != self.run:  # (a new run of the loop)
                self.run, self.runs = started_at, self.runs + 1
            self.spent += now - max(self.seen, started_at)  # (threads may race: a rough sum)
            self.seen = now
            if not kernel.started:
                if not self.eager and self.runs < 2 and self.spent < LONG_SECONDS:
                    return False
                if kernel.on_disk is None:
                    # (the lookup reads numba's version through importlib.metadata: 20-50 ms
                    # that are not the interpreter's)
                    kernel.on_disk = _marker(self.source).exists()
                    self.seen = time.perf_counter()
                hot = count >= HOT_ITERATIONS or self.spent >= HOT_SECONDS
                if not (self.eager or hot or kernel.on_disk):
                    return False
                kernel.start(_state_copy(state), background=not self.eager)
            if kernel.fn is None:
                # Let the compiling thread have the GIL: imports and the compiler release it at
                # every system call and would wait a switch interval (5 ms) each time. A cached
                # kernel loads in well under a second: at every iteration; a compilation takes
                # seconds: once per YIELD_SECONDS, so that the interpreted runs go on meanwhile.
                if now - self.yielded >= (0.0 if kernel.on_disk else YIELD_SECONDS):
                    time.sleep(0)
                    self.yielded = time.perf_counter()
                return False
        # The interpreter flushes in software where the CPU's mode is missing: stay there.
        return not self.flush or subnormals.active()

    def finish(
        self,
        state: Any,
        count: int,
        limit: int | None,
        condition: Callable[[Any], Any],
        too_long: Callable[[], Exception],
    ) -> tuple[Any, int, bool]:
        """Run the rest of the loop compiled, from `state` after `count` iterations; between
        calls, the interpreter's condition (the run's deadline check) and the iteration limit.
        The state, the count, and whether the loop ended (not if the compiled code failed: the
        interpreter goes on from the state it returns, which every call leaves untouched)."""
        kernel, source = self.kernel, self.source  # (constants: this loop's own, not the kernel's)
        constants = _constants(source)
        chunk = FIRST_CHUNK
        while True:
            allowed = chunk if limit is None else min(chunk, limit - count)
            started = time.perf_counter()
            try:
                *leaves, done, ran = kernel.fn(*_leaves(source, state), *constants, kernel.pointers, allowed)
            except Exception as e:
                kernel.give_up(e)
                return state, count, False
            count += int(ran)
            state = _state(source, leaves)
            if done:
                return state, count, True
            if limit is not None and count >= limit:
                raise too_long()
            condition(state)  # the deadline, checked by the interpreter's plan
            if time.perf_counter() - started < CHUNK_SECONDS:
                chunk *= 2


def _state_copy(state: Any) -> Any:
    """The state as the background compilation's trial run gets it (its own arrays)."""
    return tuple(np.array(v) for v in state) if isinstance(state, tuple) else np.array(state)


def for_while(instr: Instruction, ctx: KernelContext) -> CompiledLoop | None:
    """The compiled tier of a while instruction, or None when it does not apply (jit="off",
    no numba, or a loop it cannot compile): decided here, at plan time."""
    mode = getattr(ctx.options, "jit", "off")
    if mode == "off" or not numba_installed():
        return None
    source = loop_source(
        ctx.module,
        instr.attrs["condition"],
        instr.attrs["body"],
        instr.shape,
        ctx.options.flush_denormals,
        getattr(ctx, "folded", None),
    )
    if source is None:
        log.debug("hlo.jit: %%%s stays on the interpreter (not compilable)", instr.name)
        return None
    return CompiledLoop(source, ctx.options.flush_denormals, eager=mode == "eager")
