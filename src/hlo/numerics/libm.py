"""The platform's C math library, as XLA:CPU calls it. For sin, cos, tan, cbrt, atan2 and pow of
f32 and f64 (f16 and bf16 computed in f32), and for erf of f64, XLA:CPU's generated code
calls the C library's function (`sinf`, `atan2`, ...) element by element, under the CPU's
flush-to-zero mode; the other transcendental functions are its own approximations (f64 log
matches the C library's on normal values but not on subnormal ones: not taken here). Measured
against XLA:CPU (jaxlib 0.10.2, glibc): these functions match bit for bit on 20,000 random values
each, where NumPy's own loops differ in up to half of them (tests/golden/ops/exact_libm.npz).

Each element is one call: a compiled loop calls the function by address (hlo.numerics.libm_loop:
its arguments and result pass in registers, subnormals untouched), as machine code made ahead
of time on x86-64 Linux (hlo.numerics.native_loops), else compiled by llvmlite (numba's LLVM
binding) when it is installed; without either, or for small arrays before llvmlite is loaded,
ctypes calls it from Python (~0.3 us an element), whose conversions through Python floats meet
f32 subnormals half-flushed: arrays with f32 subnormal inputs take llvmlite's loop then. The
compiled tiers' generated code calls the same functions (hlo.numerics.jit_libm).
Where no C math library can be found, `takes` says no: the caller keeps NumPy's functions."""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import importlib.util
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import native_loops

# HLO op name -> the C function for f64 (its f32 form adds "f"), and the float widths it serves
FUNCTIONS: dict[str, tuple[str, tuple[int, ...]]] = {
    "sine": ("sin", (4, 8)),
    "cosine": ("cos", (4, 8)),
    "tan": ("tan", (4, 8)),
    "cbrt": ("cbrt", (4, 8)),
    "atan2": ("atan2", (4, 8)),
    "power": ("pow", (4, 8)),
    "erf": ("erf", (8,)),
    "log": ("log", (8,)),  # (subnormal inputs flushed first: hlo.numerics.xla_log)
}
# Functions that return a subnormal input unchanged, whatever the CPU's mode (as XLA:CPU does).
KEEP_SUBNORMAL_INPUT = frozenset({"sine", "tan"})
COMPILED_MIN_ELEMENTS = 1 << 16  # below: ctypes calls (~20 ms), unless llvmlite is loaded already


def takes(op: str, dtype: np.dtype) -> bool:
    """Whether XLA:CPU computes `op` on values of this working dtype (f32 or f64) with the C
    library's function, and the library is there."""
    entry = FUNCTIONS.get(op)
    return (
        entry is not None
        and dtype.kind == "f"
        and dtype.itemsize in entry[1]
        and dtype in (np.float32, np.float64)
        and function(op, dtype) is not None
    )


@functools.cache
def library() -> ctypes.CDLL | None:
    """The C math library, or None where ctypes cannot load one (NumPy's functions then)."""
    for name in _library_names():
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


def _library_names() -> Iterator[str]:
    """glibc's name first: find_library runs `ldconfig -p` (~3 ms of a first result)."""
    if sys.platform.startswith("linux"):
        yield "libm.so.6"
    for base in ("m", "c"):
        found = ctypes.util.find_library(base)
        if found:
            yield found
    if sys.platform == "win32":
        yield "ucrtbase"


@functools.cache
def c_function(name: str, single: bool, arity: int) -> Any:
    """The library's function `name` (its float form `namef` when `single`) of `arity` operands,
    as a ctypes function; None if the library or the function is missing."""
    lib = library()
    fn = getattr(lib, name + ("f" if single else ""), None) if lib is not None else None
    if fn is None:
        return None
    c_type = ctypes.c_float if single else ctypes.c_double
    fn.restype, fn.argtypes = c_type, [c_type] * arity
    return fn


def function(op: str, dtype: np.dtype) -> Any:
    """The C function of HLO op `op` for f32 or f64 values, as a ctypes function."""
    return c_function(FUNCTIONS[op][0], dtype == np.float32, 2 if op in ("atan2", "power") else 1)


def apply(op: str, xs: list[np.ndarray]) -> np.ndarray:
    """`op` of the operands (all f32 or all f64), element by element, in the calling thread's
    floating-point mode."""
    arrays = np.broadcast_arrays(*xs) if len(xs) > 1 else xs
    flat = [np.ascontiguousarray(a).reshape(-1) for a in arrays]
    dtype = flat[0].dtype
    out = np.empty(flat[0].size, dtype)
    if out.size and _compiled(flat, dtype):
        from . import libm_loop

        libm_loop.run(function(op, dtype), flat, out)
    elif out.size:
        fn = function(op, dtype)
        values = [a.tolist() for a in flat]
        out[:] = [fn(*v) for v in zip(*values)] if len(values) == 2 else [fn(v) for v in values[0]]
    return out.reshape(arrays[0].shape)


def _compiled(flat: list[np.ndarray], dtype: np.dtype) -> bool:
    """Whether the compiled loop runs this call: its machine code is made ahead of time for this
    platform, or llvmlite is installed and the array is large, or llvmlite is loaded already,
    or f32 subnormal inputs need their bits kept."""
    if native_loops.address(8 * dtype.itemsize, len(flat)) is not None:
        return True  # (machine code made ahead of time: no load, any size)
    if not _llvmlite_installed():
        return False
    if flat[0].size >= COMPILED_MIN_ELEMENTS or "llvmlite.binding" in sys.modules:
        return True
    if dtype != np.float32:
        return False
    # (by their bits: in the flush-to-zero mode a subnormal compares equal to zero)
    bits = [a.view(np.uint32) for a in flat]
    return any(bool((((b & 0x7F800000) == 0) & ((b & 0x7FFFFF) != 0)).any()) for b in bits)


def loop_available(dtype: np.dtype, arity: int) -> bool:
    """Whether a compiled call loop serves functions of `arity` operands of this dtype (f32 or
    f64): machine code made ahead of time, or llvmlite to compile one."""
    return native_loops.address(8 * dtype.itemsize, arity) is not None or _llvmlite_installed()


@functools.cache
def _llvmlite_installed() -> bool:
    return importlib.util.find_spec("llvmlite") is not None
