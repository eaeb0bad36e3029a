"""The compiled loops of hlo.numerics.libm: one call of a C math function per element, by its
address, with the operands and the result in registers (a subnormal f32 reaches the function
as its bits, as in XLA:CPU's code). Four loops (one or two operands, f32 or f64) serve every
function; numba's on-disk cache keeps them for the next process. Imported only when numba is
installed and such a loop runs."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from . import threads

SPLIT_ELEMENTS = 1 << 18  # per thread: ~3 ms of calls, well above a split's cost


def _caller(width: int, arity: int) -> Any:
    """An intrinsic calling the function at an address on `arity` floats of `width` bits."""
    numba_type = types.float32 if width == 32 else types.float64

    def typer(typingctx: Any, fn: Any, *args: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, values: Any) -> Any:
            t = ir.FloatType() if width == 32 else ir.DoubleType()
            target = builder.inttoptr(values[0], ir.FunctionType(t, [t] * arity).as_pointer())
            return builder.call(target, list(values[1:]))

        return numba_type(fn, *([numba_type] * arity)), codegen

    if arity == 1:

        def one(typingctx: Any, fn: Any, x: Any) -> Any:
            return typer(typingctx, fn, x)

        return intrinsic(one)

    def two(typingctx: Any, fn: Any, x: Any, y: Any) -> Any:
        return typer(typingctx, fn, x, y)

    return intrinsic(two)


# (public: the compiled tiers' generated code calls them, hlo.numerics.jit_ops)
call1_f32, call1_f64 = _caller(32, 1), _caller(64, 1)
call2_f32, call2_f64 = _caller(32, 2), _caller(64, 2)


@njit(cache=True, nogil=True)
def _unary_f32(r0: int, r1: int, fn: int, x: np.ndarray, out: np.ndarray) -> None:
    for i in range(r0, r1):
        out[i] = call1_f32(fn, x[i])


@njit(cache=True, nogil=True)
def _unary_f64(r0: int, r1: int, fn: int, x: np.ndarray, out: np.ndarray) -> None:
    for i in range(r0, r1):
        out[i] = call1_f64(fn, x[i])


@njit(cache=True, nogil=True)
def _binary_f32(r0: int, r1: int, fn: int, x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    for i in range(r0, r1):
        out[i] = call2_f32(fn, x[i], y[i])


@njit(cache=True, nogil=True)
def _binary_f64(r0: int, r1: int, fn: int, x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    for i in range(r0, r1):
        out[i] = call2_f64(fn, x[i], y[i])


def run(function: Any, flat: list[np.ndarray], out: np.ndarray) -> None:
    """`out[i] = function(flat[0][i], ...)` for every element (contiguous flat arrays, f32 or f64),
    split between the cores this thread may use when each gets SPLIT_ELEMENTS or more."""
    address = int(ctypes.cast(function, ctypes.c_void_p).value or 0)
    single = out.dtype == np.float32
    loop: Any
    if len(flat) == 1:
        loop = _unary_f32 if single else _unary_f64
    else:
        loop = _binary_f32 if single else _binary_f64
    args: tuple[Any, ...] = (address, *flat, out)
    parts = min(threads.share(), max(1, out.size // SPLIT_ELEMENTS))
    if parts <= 1:
        loop(0, out.size, *args)
    else:
        threads.split_rows(loop, out.size, parts, args)
