"""The loops of hlo.numerics.libm's calls: one call of a C math function per element, by its
address, with the operands and the result in registers (a subnormal f32 reaches the function as
its bits, as in XLA:CPU's code). On x86-64 Linux the loops are machine code made ahead of time
from `loop_ir` (hlo.numerics.native_loops: no load); elsewhere llvmlite (numba's LLVM binding)
compiles that IR, ~0.1 s to load and ~10 ms for the four loops (one or two operands, f32 or
f64), where numba's import took ~0.6 s of a first result. The loops run through ctypes, which
lets go of the GIL, so a long array is split between the cores this thread may use."""

from __future__ import annotations

import ctypes
import functools
from typing import Any

import numpy as np

from . import native_loops, threads

SPLIT_ELEMENTS = 1 << 15  # per thread: ~0.3 ms of calls, above a split's cost (~20 us)


def loop_ir(width: int, arity: int) -> str:
    """The LLVM IR of `loop(function, n, x[, y], out)` for floats of `width` bits: `out[i] =
    function(x[i][, y[i]])` for i < n (also what tools/make_native_loops.py compiles ahead of
    time, hlo.numerics.native_loops)."""
    from llvmlite import ir

    from . import llvm_jit

    real = ir.FloatType() if width == 32 else ir.DoubleType()
    i64 = ir.IntType(64)
    callee = ir.FunctionType(real, [real] * arity).as_pointer()
    module = ir.Module(name=f"hlo_libm_{width}_{arity}")
    signature = ir.FunctionType(ir.VoidType(), [callee, i64] + [real.as_pointer()] * (arity + 1))
    fn = ir.Function(module, signature, name="loop")
    target, n, *arrays = fn.args

    def step(b: ir.IRBuilder, i: Any) -> None:
        result = b.call(target, [b.load(b.gep(a, [i])) for a in arrays[:arity]])
        b.store(result, b.gep(arrays[arity], [i]))

    llvm_jit.counted_loop(fn, n, step)
    return str(module)


@functools.cache
def _loop(width: int, arity: int) -> Any:
    """The compiled `loop(function, n, x[, y], out)` for floats of `width` bits, as a ctypes
    function: the machine code made ahead of time where it runs (hlo.numerics.native_loops),
    else compiled now by llvmlite."""
    address = native_loops.address(width, arity)
    if address is None:
        address = _compile(width, arity)
    pointer = ctypes.c_void_p
    return ctypes.CFUNCTYPE(None, pointer, ctypes.c_int64, *([pointer] * (arity + 1)))(address)


def _compile(width: int, arity: int) -> int:
    from . import llvm_jit

    return llvm_jit.compile_ir(loop_ir(width, arity), ["loop"], host=False)["loop"]


def run(function: Any, flat: list[np.ndarray], out: np.ndarray, split: bool = True) -> None:
    """`out[i] = function(flat[0][i], ...)` for every element (contiguous flat arrays, f32 or f64),
    split between the cores this thread may use when each gets SPLIT_ELEMENTS or more (`split`;
    not: all in this thread's floating-point mode)."""
    loop = _loop(8 * out.dtype.itemsize, len(flat))
    address = ctypes.cast(function, ctypes.c_void_p).value
    arrays = [*flat, out]
    size = out.itemsize

    def part(r0: int, r1: int) -> None:
        loop(address, r1 - r0, *(a.ctypes.data + r0 * size for a in arrays))

    parts = min(threads.share(), max(1, out.size // SPLIT_ELEMENTS)) if split else 1
    if parts <= 1:
        part(0, out.size)
    else:
        threads.split_rows(part, out.size, parts, ())
