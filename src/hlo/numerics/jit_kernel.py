"""What the compiled tiers' kernels share: one generated function compiled once per process, at
once or in a background thread, used by every plan and thread once `fn` is set; a failure marks
it failed and the interpreter goes on. Compiling threads are waited for at exit (numba's compiler
running while Python shuts down can crash the process)."""

from __future__ import annotations

import atexit
import functools
import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

log = logging.getLogger("hlo.jit")
T = TypeVar("T")
_threads: list[threading.Thread] = []


@atexit.register
def _wait_for_compilations() -> None:
    for thread in _threads:
        thread.join(timeout=10)


@functools.cache
def numba_version() -> str:
    try:
        from importlib.metadata import version

        return version("numba")
    except Exception:
        return "?"


def tried_twice(build: Callable[[], T], what: str, key: str) -> T:
    """build(), and once more if it fails (another process writing the same disk-cache entry at
    that moment); the second failure raises."""
    try:
        return build()
    except Exception as e:
        log.debug("hlo.jit: the %s %s failed to compile, once more: %s", what, key, e)
        return build()


def ready_marker(prefix: str, key: str) -> Path:
    """The file that says a process compiled a tier's function `key` into the disk cache
    (numba's own index needs numba to read): `prefix` names the tier ("" for loops)."""
    from .jit_codegen import cache_dir

    directory = cache_dir() / "jit"
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f"{prefix}{key}-{numba_version()}.ready"


def track(thread: threading.Thread) -> None:
    """A compiling thread to wait for at exit (the entry tier's too)."""
    _threads.append(thread)


class CompiledKernel:
    """A kernel of the loop or fusion tier. Subclasses say how to compile (`compile`: the
    function and its ufunc pointer table, called once; it also compiles or loads the function
    for the argument types) and where the disk-cache marker is (`marker`)."""

    what = "kernel"  # (for the debug log line)

    def __init__(self, key: str) -> None:
        self.key = key
        self.fn: Any = None
        self.pointers: np.ndarray | None = None
        self.failed = False
        self.started = False
        self.done = threading.Event()
        self.lock = threading.Lock()

    def start(self, arg: Any, background: bool) -> None:
        """Compile (once per process), in a background thread or now."""
        with self.lock:
            if self.started:
                return
            self.started = True
        if background:
            thread = threading.Thread(target=self._build, args=(arg,), name="hlo-jit", daemon=True)
            track(thread)
            thread.start()
        else:
            self._build(arg)

    def begin(self, arg: Any, eager: bool) -> None:
        """The tiers' policy once a kernel is wanted: compiled now when eager or when an earlier
        process left it in the disk cache (loaded, then), else in the background; the calling
        thread yields the GIL once to a compiling thread."""
        if not self.started:
            cached = not eager and self.marker().exists()
            self.start(arg, background=not (eager or cached))
        if not self.done.is_set():
            time.sleep(0)

    def give_up(self, error: Exception) -> None:
        """A compiled call failed: the process leaves this kernel to the interpreter for good."""
        self.failed, self.fn = True, None
        log.debug("hlo.jit: the %s %s goes back to the interpreter: %s", self.what, self.key, error)

    def _build(self, arg: Any) -> None:
        """Compile, or load from the disk cache (`tried_twice`); on a failure the interpreter
        goes on for good."""
        try:
            fn, pointers = tried_twice(lambda: self.compile(arg), self.what, self.key)
            self.pointers, self.fn = pointers, fn
            self.marker().touch()
        except Exception as e:  # any failure: the interpreter goes on
            self.failed = True
            log.debug(
                "hlo.jit: the %s %s stays on the interpreter: %s", self.what, self.key, e, exc_info=True
            )
        finally:
            self.done.set()

    def compile(self, arg: Any) -> tuple[Any, np.ndarray]:
        raise NotImplementedError

    def marker(self) -> Path:
        raise NotImplementedError
