"""XLA:CPU's log and log1p as machine code (hlo.numerics.xla_log_llvm's IR): made ahead of time
where hlo.numerics.native_image runs, else compiled by llvmlite when first needed (~50 ms per op
and type). The interpreter runs the loops over arrays (the NumPy form of hlo.numerics.xla_log
takes ~20 passes of an exact FMA per element, this ~1 ns); the compiled tiers call the scalar
functions by address."""

from __future__ import annotations

import ctypes
import functools
import threading
from typing import Any

import numpy as np

from . import native_image, threads

SPLIT_ELEMENTS = 1 << 19  # per thread: ~0.5 ms of work, well above a split's cost
_lock = threading.Lock()
_compiled: dict[tuple[str, int], dict[str, int]] = {}


def _functions(op: str, width: int) -> dict[str, int]:
    """The addresses of op's scalar function and loop for floats of `width` bits, by name."""
    with _lock:
        if (op, width) not in _compiled:
            names = _names(op, width)
            found = native_image.functions(native_image.APPROXIMATIONS, module(op, width), names)
            _compiled[(op, width)] = _compile(op, width, names) if found is None else found
        return _compiled[(op, width)]


def module(op: str, width: int) -> str:
    """The module's name in the native image."""
    return f"xla_log/{op}_{width}"


def _names(op: str, width: int) -> tuple[str, str]:
    """op's scalar function (a float in, a float out) and its loop `(n, x, out)`."""
    scalar = f"xla_{'log' if op == 'log' else 'log1p'}_f{width}"
    return scalar, f"loop_{scalar}"


def _compile(op: str, width: int, names: tuple[str, str]) -> dict[str, int]:
    """Compile xla_log_llvm's IR with llvmlite for this CPU (its C functions by address)."""
    from . import llvm_jit, xla_log_llvm

    text = xla_log_llvm.module_ir(op, width)
    imports = {f: native_image.import_address(f) for f in xla_log_llvm.IMPORTS if f in text}
    return llvm_jit.compile_ir(text, names, optimize=True, symbols=imports)


def ready(op: str, dtype: np.dtype) -> bool:
    """Whether op's machine code for this type is at hand without compiling."""
    return native_image.available(native_image.APPROXIMATIONS) or (op, 8 * dtype.itemsize) in _compiled


def name(op: str, dtype: np.dtype) -> str:
    """The scalar function of HLO op `op` ("log", "log-plus-one") for f32/f64 values."""
    return _names(op, 8 * dtype.itemsize)[0]


def address(op: str, dtype: np.dtype) -> int:
    """The address of the scalar function (a float in, a float out: the tiers' calls)."""
    return _functions(op, 8 * dtype.itemsize)[name(op, dtype)]


@functools.cache
def _loop(op: str, dtype: np.dtype) -> Any:
    pointer = ctypes.c_void_p
    loop = _functions(op, 8 * dtype.itemsize)[f"loop_{name(op, dtype)}"]
    return ctypes.CFUNCTYPE(None, ctypes.c_int64, pointer, pointer)(loop)


def apply(op: str, x: np.ndarray) -> np.ndarray:
    """`op` of each element of x (f32 or f64), split between the cores this thread may use when
    each gets SPLIT_ELEMENTS or more."""
    return threads.unary_loop(_loop(op, np.dtype(x.dtype)), x, SPLIT_ELEMENTS)
