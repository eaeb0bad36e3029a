"""The CPU's flush-to-zero mode, as XLA:CPU runs float arithmetic: results that would be subnormal
become zero (FTZ) and subnormal operands count as zero (DAZ).

Where the platform lets a thread set that mode (the MXCSR of x86-64, the FPCR of AArch64, through
the C library's fegetenv/fesetenv or the MSVC runtime's _controlfp_s), the runtime turns it on
for the threads that run a plan, so NumPy's own arithmetic flushes as XLA's does at no cost, and
kernels skip the software flush of numerics.flush_denormals (three passes over every operand and
result). Conversions and ops that XLA:CPU computes on bits (bf16 <-> f32, pow, remainder, ...)
run with the mode switched off (`keeping_subnormals`). A self-test decides whether the mode
really takes effect; where it does not (another platform or C library), everything falls back
to software flushing, with the same results."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import platform
import sys
import threading
from collections.abc import Callable, Iterator

import numpy as np

_local = threading.local()

# x86-64 MXCSR: FTZ (bit 15) and DAZ (bit 6); AArch64 FPCR: FZ (bit 24).
_MXCSR_FLUSH = 0x8040
_FPCR_FZ = 1 << 24


class _Mode:
    """Reads and writes the current thread's flush bits: `get() -> state`, `set(state)`,
    `flushing(state) -> state with the flush bits on`."""

    def __init__(
        self, get: Callable[[], int], set_: Callable[[int], None], flushing: Callable[[int], int]
    ) -> None:
        self.get, self.set, self.flushing = get, set_, flushing


def _fenv_mode(lib: ctypes.CDLL, size: int, offset: int, width: int, bits: int) -> _Mode:
    """Through fegetenv/fesetenv on an fenv_t of `size` bytes whose control word of `width` bytes
    lies at `offset`."""
    word = ctypes.c_uint32 if width == 4 else ctypes.c_uint64
    buffer_type = ctypes.c_ubyte * size

    def get() -> int:
        env = buffer_type()
        if lib.fegetenv(ctypes.byref(env)) != 0:
            raise OSError("fegetenv failed")
        return int(word.from_buffer(env, offset).value)

    def set_(value: int) -> None:
        env = buffer_type()
        if lib.fegetenv(ctypes.byref(env)) != 0:
            raise OSError("fegetenv failed")
        word.from_buffer(env, offset).value = value
        if lib.fesetenv(ctypes.byref(env)) != 0:
            raise OSError("fesetenv failed")

    return _Mode(get, set_, lambda value: value | bits)


def _windows_mode() -> _Mode:
    crt = ctypes.CDLL("ucrtbase")
    dn_flush, mcw_dn = 0x01000000, 0x03000000

    def control(new: int, mask: int) -> int:
        current = ctypes.c_uint()
        if crt._controlfp_s(ctypes.byref(current), ctypes.c_uint(new), ctypes.c_uint(mask)) != 0:
            raise OSError("_controlfp_s failed")
        return int(current.value)

    def set_(value: int) -> None:
        control(value, mcw_dn)

    return _Mode(lambda: control(0, 0) & mcw_dn, set_, lambda value: dn_flush)


def _libm() -> ctypes.CDLL:
    """The C library with fegetenv/fesetenv. glibc's libm by its soname first: find_library
    runs `ldconfig -p` in a subprocess (10-30 ms of every process's first run)."""
    if sys.platform.startswith("linux"):
        try:
            return ctypes.CDLL("libm.so.6")
        except OSError:
            pass
    return ctypes.CDLL(ctypes.util.find_library("m") or ctypes.util.find_library("c") or "libSystem.dylib")


def _platform_mode() -> _Mode | None:
    machine = platform.machine().lower()
    x86 = machine in ("x86_64", "amd64")
    arm = machine in ("aarch64", "arm64")
    if sys.platform == "win32":
        return _windows_mode() if x86 else None
    lib = _libm()
    if sys.platform.startswith("linux"):  # glibc's fenv_t
        if x86:
            return _fenv_mode(lib, 32, 28, 4, _MXCSR_FLUSH)
        if arm:
            return _fenv_mode(lib, 8, 0, 4, _FPCR_FZ)
    if sys.platform == "darwin":
        if x86:
            return _fenv_mode(lib, 16, 4, 4, _MXCSR_FLUSH)
        if arm:
            return _fenv_mode(lib, 16, 8, 8, _FPCR_FZ)
    return None


def _flushes_now() -> bool:
    tiny = np.array([1e-40, -1e-40], np.float32)  # subnormal operands
    product = np.array([1e-20], np.float32) * np.array([1e-20], np.float32)  # a subnormal result
    return bool(np.all(tiny * np.float32(1) == 0) and product[0] == 0)


@functools.cache
def _mode() -> _Mode | None:
    """The platform's mode switch, if it demonstrably works here."""
    try:
        mode = _platform_mode()
        if mode is None:
            return None
        before = mode.get()
        try:
            mode.set(mode.flushing(before))
            works = _flushes_now()
        finally:
            mode.set(before)
        return mode if works and not _flushes_now() else None
    except (OSError, AttributeError, ValueError):
        return None


def supported() -> bool:
    """Whether this platform can run NumPy's arithmetic in flush-to-zero mode."""
    return _mode() is not None


def active() -> bool:
    """Whether the current thread runs in flush-to-zero mode (set by `flushing_subnormals`)."""
    return bool(getattr(_local, "active", False))


@contextlib.contextmanager
def flushing_subnormals(on: bool = True) -> Iterator[bool]:
    """Run the block in flush-to-zero mode when `on` and the platform supports it; yields
    whether it does (if not, kernels flush in software)."""
    mode = _mode()
    if not on or mode is None or active():
        yield active()
        return
    before = mode.get()
    mode.set(mode.flushing(before))
    _local.active = True
    try:
        yield True
    finally:
        _local.active = False
        mode.set(before)


@contextlib.contextmanager
def keeping_subnormals() -> Iterator[None]:
    """Switch flush-to-zero off for the block, if it is on (ops XLA:CPU computes on bits)."""
    mode = _mode()
    if mode is None or not active():
        yield
        return
    flushing = mode.get()
    _local.active = False
    mode.set(flushing & ~mode.flushing(0))
    try:
        yield
    finally:
        mode.set(flushing)
        _local.active = True
