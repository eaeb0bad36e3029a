"""The compiled entry tier: a computation of many instructions on small values (a chain of
scalar ops spends ~1 µs per instruction in the interpreter, XLA's code a few ns) runs as one
numba function once it proves hot. Whether it qualifies is decided from its instructions alone
(hlo.numerics.jit_entry.qualifies) after the first call; the interpreter runs every call until
the compiled function is ready, which a background thread writes, compiles (or loads from the
disk cache) after HOT_CALLS calls or HOT_SECONDS in the interpreter, at once when a process compiled
it before (then the second call waits for it: a computation compiled before proved hot). The
first call is always the interpreter's; the switch happens between two calls and changes no
answer (the compiled code gives the interpreter's bits). RunOptions.jit governs
it as it does the loop tier: "auto", "eager" (compiled before the first call), "off".

A failure to generate, compile or run is logged at debug level and the interpreter goes on;
nothing here raises for a computation the tier cannot run."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..ir.module import Module
from . import jit_kernel, loop_tier, subnormals
from .context import RunOptions
from .jit_entry import EntrySource, entry_source, qualifies, small_shape

log = logging.getLogger("hlo.jit")

HOT_CALLS = 16  # a computation is hot after this many calls ...
HOT_SECONDS = 0.05  # ... or this long in the interpreter
# The second call waits for the source (at most this long) and, when an earlier process
# compiled it (it proved hot before), loads it from the disk cache (or waits for the thread that
# does, at most LOAD_WAIT): numba's start is ~2 s of work that would otherwise share the GIL with
# many interpreted calls. (Not after the first call: a run of one call would wait for it at exit.)
SOURCE_WAIT = 1.0
LOAD_WAIT = 5.0


class _Kernel:
    """One computation's compiled function. A first thread writes its source and looks for it
    in the disk cache (loading it at once if there); otherwise it is compiled once hot."""

    def __init__(self, module: Module, name: str, flush: bool, folded: Mapping[str, Any]) -> None:
        self.module, self.name, self.flush, self.folded = module, name, flush, folded
        self.source: EntrySource | None = None
        self.fn: Any = None
        self.pointers: np.ndarray | None = None
        self.failed = False
        self.started = False
        self.hot = False  # the computation proved hot: compile it
        self.waiting = False  # the source is written, not in the cache, the computation not hot yet
        self.cached = False  # a process compiled it before
        self.prepared = threading.Event()  # the source is written and looked up (or failed)
        self.done = threading.Event()
        self.lock = threading.Lock()

    def start(self, args: Sequence[Any], background: bool) -> None:
        """Write the source and build it if cached or hot (or leave it waiting for heat)."""
        with self.lock:
            if self.started:
                return
            self.started = True
        try:
            trial = [np.array(a) for a in args]  # (the trial run's own arrays)
        except Exception as e:  # (never a failed run for the tier's sake)
            self._fail(e)
            return
        self._run(self._prepare, trial, background)

    def heat(self, args: Sequence[Any], background: bool = True) -> None:
        """The computation proved hot: compile it (now, if its source waits)."""
        with self.lock:
            self.hot = True
            go, self.waiting = self.waiting, False
        if go:
            self._run(self._build, [np.array(a) for a in args], background)

    def _run(self, fn: Callable[[list[Any]], None], args: list[Any], background: bool) -> None:
        if not background:
            fn(args)
            return
        thread = threading.Thread(target=fn, args=(args,), name="hlo-jit", daemon=True)
        jit_kernel.track(thread)
        thread.start()

    def _prepare(self, args: list[Any]) -> None:
        try:
            source = (
                entry_source(self.module, self.name, self.flush, self.folded)
                if qualifies(self.module, self.name)
                else None
            )
            if source is None:
                self.failed = True
                self.done.set()
                self.prepared.set()
                return
            self.source = source
            self.cached = _marker(source).exists()
        except Exception as e:  # any failure: the interpreter goes on
            self._fail(e)
            return
        self.prepared.set()
        with self.lock:  # (a cached function is loaded by the second call: a run of one call ends now)
            if not self.hot:
                self.waiting = True
                return
        self._build(args)

    def _build(self, args: list[Any]) -> None:
        source = self.source
        assert source is not None
        try:
            from . import jit_numba

            def build() -> tuple[Any, np.ndarray]:
                fn = jit_numba.compile_function(source.source, "entry")
                pointers = jit_numba.pointers(source.ufuncs)
                fn(*_flat(args), *source.constants, pointers)  # compile or load now
                return fn, pointers

            fn, pointers = jit_kernel.tried_twice(build, "computation", self.name)
            self.pointers, self.fn = pointers, fn  # (fn last: other threads take it once set)
            _marker(source).touch()
        except Exception as e:  # any failure: the interpreter goes on
            self._fail(e)
            return
        self.done.set()

    def _fail(self, e: Exception) -> None:
        self.failed = True
        log.debug("hlo.jit: the computation %s stays on the interpreter: %s", self.name, e, exc_info=True)
        self.done.set()
        self.prepared.set()


def _marker(source: EntrySource) -> Path:
    return jit_kernel.ready_marker("entry-", source.key)


def _flat(args: Sequence[Any]) -> list[np.ndarray]:
    """The arguments as the compiled function takes them: flat, C-contiguous, writable arrays
    (a scalar as one element)."""
    return [np.require(a, requirements=("C", "W")).reshape(-1) for a in args]


class CompiledEntry:
    """What a run asks before each call of a qualifying computation: the compiled function's
    result, or the interpreter's (counting the calls and the time toward hotness)."""

    def __init__(
        self, module: Module, name: str, flush: bool, eager: bool, folded: Mapping[str, Any] | None = None
    ) -> None:
        self.kernel = _Kernel(module, name, flush, folded or {})
        self.flush, self.eager = flush, eager
        self.calls = 0
        self.spent = 0.0  # seconds in the interpreter
        self.waited = False  # whether the second call waited for the disk cache

    def __call__(self, args: Sequence[Any], interpret: Callable[..., Any]) -> Any:
        """The computation's value: compiled when ready (and the CPU's mode flushes as the
        interpreter would), else `interpret(*args)`."""
        kernel = self.kernel
        if kernel.fn is not None and (not self.flush or subnormals.active()):
            try:
                return self._run(args)
            except Exception as e:
                kernel.failed, kernel.fn = True, None
                log.debug("hlo.jit: the computation %s goes back to the interpreter: %s", kernel.name, e)
        if self.eager and not kernel.started:
            kernel.hot = True
            kernel.start(args, background=False)
            if kernel.fn is not None:
                return self(args, interpret)
        elif self.calls == 1 and not self.waited and kernel.started and not kernel.failed:
            self.waited = True
            if self._loaded(kernel, args):
                return self(args, interpret)
        started = time.perf_counter()
        result = interpret(*args)
        self.spent += time.perf_counter() - started
        self.calls += 1
        if not kernel.started:
            kernel.start(args, background=True)  # (after the first result: its source, the cache)
        elif not kernel.hot and (self.calls >= HOT_CALLS or self.spent >= HOT_SECONDS):
            kernel.heat(args)
        return result

    @staticmethod
    def _loaded(kernel: _Kernel, args: Sequence[Any]) -> bool:
        """At the second call: whether the function an earlier process compiled is loaded
        (loading it now, or waiting for the thread that does, within bounds)."""
        if kernel.prepared.wait(SOURCE_WAIT) and kernel.cached:
            kernel.heat(args, background=False)
            kernel.done.wait(LOAD_WAIT)
        return kernel.fn is not None

    def _run(self, args: Sequence[Any]) -> Any:
        kernel = self.kernel
        source = kernel.source
        assert source is not None
        outs = kernel.fn(*_flat(args), *source.constants, kernel.pointers)
        shapes = source.result.tuple_shapes if source.result.is_tuple else (source.result,)
        values = tuple(
            np.asarray(v).reshape(s.dimensions) if s.rank else np.asarray(v).reshape(())
            for v, s in zip(outs, shapes)
        )
        return values if source.result.is_tuple else values[0]


def for_entry(
    module: Module, options: RunOptions, folded: Mapping[str, Any] | None = None
) -> CompiledEntry | None:
    """The compiled tier of a module's entry, or None when it cannot apply (jit="off", no
    numba). Whether the computation qualifies is decided after its first call, off the first
    result's path (hlo.numerics.jit_entry.qualifies: 40 ms on 10,000 instructions)."""
    if options.jit == "off" or not loop_tier.numba_installed():
        return None
    if any(s.is_tuple for s in module.entry.parameter_shapes):
        return None  # (arguments the generated function cannot take)
    entry = module.entry
    if not all(small_shape(s) for s in (*entry.parameter_shapes, entry.by_name[entry.root_name].shape)):
        # Cannot qualify, and known without looking at the body: no trial copy of the arguments
        # (a 64 MB parameter's copy was 80 ms of the first run, in fresh pages).
        return None
    return CompiledEntry(module, module.entry.name, options.flush_denormals, options.jit == "eager", folded)
