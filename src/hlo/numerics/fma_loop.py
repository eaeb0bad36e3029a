"""The exact fused multiply-add over arrays as machine code made ahead of time: `llvm.fma` in a
loop, the CPU's FMA instruction where hlo.numerics.native_image runs. hlo.numerics.fma's NumPy
form takes ~15 passes an element for f64 (Dekker's product and three two-sums); the complex
multiply and divide call it for every part, ~0.15 s for 1M c128 products, this ~2 ms. Where the
image does not run, the NumPy form computes the same bits."""

from __future__ import annotations

import ctypes
import functools
from typing import Any

import numpy as np

from . import native_image

MIN_ELEMENTS = 256  # below: the NumPy form (a ctypes call and copies cost more)


def module(width: int) -> str:
    """The module's name in the native image."""
    return f"fma/fma_{width}"


def name(width: int) -> str:
    """The loop `(n, a, b, c, out)`: out[i] = a[i] * b[i] + c[i], one rounding."""
    return f"ternary_fma_f{width}"


def chain_name(width: int) -> str:
    """The loop `(k, n, a, b, out)`: for each i < k in turn, out[j] = a[i] * b[i, j] + out[j]
    (one rounding) for every j < n, b row-major [k, n]: n FMA chains in k order from out's
    values (a vector times a matrix, as XLA:CPU's GEMV emitter sums it: hlo.numerics.row_vector_dot)."""
    return f"chain_fma_f{width}"


def module_ir(width: int) -> str:
    """The loop's LLVM IR (read by hlo.numerics.native_sources; needs llvmlite)."""
    from llvmlite import ir

    from .llvm_jit import counted_loop

    real = ir.FloatType() if width == 32 else ir.DoubleType()
    i64, pointer = ir.IntType(64), ir.PointerType(real)
    mod = ir.Module(name=f"hlo_fma_{width}")
    fma = ir.Function(mod, ir.FunctionType(real, [real] * 3), name=f"llvm.fma.f{width}")
    fn = ir.Function(
        mod, ir.FunctionType(ir.VoidType(), [i64, pointer, pointer, pointer, pointer]), name=name(width)
    )
    n, a, b, c, out = fn.args

    def step(builder: Any, i: Any) -> None:
        values = [builder.load(builder.gep(p, [i])) for p in (a, b, c)]
        builder.store(builder.call(fma, values), builder.gep(out, [i]))

    counted_loop(fn, n, step)
    _chain(mod, fma, real, width)
    return str(mod)


def _chain(mod: Any, fma: Any, real: Any, width: int) -> None:
    from llvmlite import ir

    i64, pointer = ir.IntType(64), ir.PointerType(real)
    fn = ir.Function(
        mod, ir.FunctionType(ir.VoidType(), [i64, i64, pointer, pointer, pointer]), name=chain_name(width)
    )
    k, n, a, b, out = fn.args
    entry, outer, inner, latch, done = (
        fn.append_basic_block(x) for x in ("entry", "outer", "inner", "latch", "done")
    )
    builder = ir.IRBuilder(entry)
    zero, one = i64(0), i64(1)
    some = builder.and_(builder.icmp_signed(">", k, zero), builder.icmp_signed(">", n, zero))
    builder.cbranch(some, outer, done)
    builder = ir.IRBuilder(outer)
    i = builder.phi(i64)
    i.add_incoming(zero, entry)
    x = builder.load(builder.gep(a, [i]))
    row = builder.gep(b, [builder.mul(i, n)])
    builder.branch(inner)
    builder = ir.IRBuilder(inner)
    j = builder.phi(i64)
    j.add_incoming(zero, outer)
    slot = builder.gep(out, [j])
    total = builder.call(fma, [x, builder.load(builder.gep(row, [j])), builder.load(slot)])
    builder.store(total, slot)
    j_next = builder.add(j, one)
    j.add_incoming(j_next, inner)
    builder.cbranch(builder.icmp_signed("<", j_next, n), inner, latch)
    builder = ir.IRBuilder(latch)
    i_next = builder.add(i, one)
    i.add_incoming(i_next, latch)
    builder.cbranch(builder.icmp_signed("<", i_next, k), outer, done)
    ir.IRBuilder(done).ret_void()


@functools.cache
def _loop(width: int) -> Any:
    address = native_image.function(native_image.APPROXIMATIONS, module(width), name(width))
    if address is None:
        return None
    pointer = ctypes.c_void_p
    return ctypes.CFUNCTYPE(None, ctypes.c_int64, pointer, pointer, pointer, pointer)(address)


@functools.cache
def _chain_loop(width: int) -> Any:
    address = native_image.function(native_image.APPROXIMATIONS, module(width), chain_name(width))
    if address is None:
        return None
    pointer = ctypes.c_void_p
    return ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, pointer, pointer, pointer)(address)


def chains(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
    """out[j] = fma(a[i], b[i, j], out[j]) for i = 0, 1, ... in turn (a [k], b [k, n] and out
    [n] contiguous, one float type; out updated in place); False where the machine code does
    not run here."""
    loop = _chain_loop(8 * out.dtype.itemsize)
    if loop is None:
        return False
    loop(b.shape[0], b.shape[1], a.ctypes.data, b.ctypes.data, out.ctypes.data)
    return True


def apply(a: np.ndarray, b: np.ndarray, c: np.ndarray, dtype: np.dtype) -> np.ndarray | None:
    """a*b + c rounded once in `dtype` (f32 or f64), broadcast; None where the machine code
    does not run here or the arrays are small."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    size = int(np.prod(shape))
    if size < MIN_ELEMENTS:
        return None
    loop = _loop(8 * dtype.itemsize)
    if loop is None:
        return None
    a, b, c = (np.ascontiguousarray(np.broadcast_to(np.asarray(v, dtype), shape)) for v in (a, b, c))
    out = np.empty(shape, dtype)
    loop(size, a.ctypes.data, b.ctypes.data, c.ctypes.data, out.ctypes.data)
    return out
