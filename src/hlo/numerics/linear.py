"""Dot products on BLAS: dot-general as a batched matmul, and the operand preparation and result
rounding that convolutions share (hlo.numerics.convolution).

Operands are computed in the result's working type (f32 for bf16/f16/f8 results, int64 or
uint64 for integer results, whose wrap-around then matches XLA's), and rounded once."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ..dtypes import PrimitiveType
from . import (
    blas_small,
    complex_dot,
    matrix_vector_dot,
    numerics,
    row_vector_dot,
    subnormals,
    vector_dot,
    ynn_dot,
)


def accumulator(result: PrimitiveType, *operands: np.dtype) -> np.dtype:
    """The dtype to multiply and accumulate in for a result type."""
    if result.is_complex:
        return np.dtype(np.complex128 if result is PrimitiveType.C128 else np.complex64)
    if result.is_floating_point:
        wide = result is PrimitiveType.F64 or any(d == np.float64 for d in operands)
        return np.dtype(np.float64 if wide else np.float32)
    if result.is_unsigned_integral:
        return np.dtype(np.uint64)
    return np.dtype(np.int64)


def flushed(x: np.ndarray, in_place: bool = False) -> np.ndarray:
    """`x` with subnormals flushed. BLAS may run on its own threads, outside the CPU's
    flush-to-zero mode, so operands and products are flushed here; when this thread is in that
    mode, a multiplication by one does it in one pass (the values only feed arithmetic, so
    quieting a signalling NaN changes nothing), into `x` itself when the caller owns it."""
    if subnormals.active() and x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        if in_place and x.flags.writeable:
            return np.asarray(np.multiply(x, x.dtype.type(1), out=x))
        return np.asarray(np.multiply(x, x.dtype.type(1)))
    return numerics.flush_denormals(x)


def prepare(x: np.ndarray, dtype: np.dtype, flush: bool) -> np.ndarray:
    if x.dtype != dtype:
        x = x.astype(numerics.compute_dtype(x.dtype), copy=False)
        x = x.astype(dtype, copy=False) if x.dtype != dtype else x
    return flushed(x) if flush and dtype.kind in "fc" else x


CHECK_ELEMENTS = 1 << 16  # operands this large are read for subnormals rather than copied


def _has_subnormals(x: np.ndarray) -> bool:
    """Whether a C-contiguous f32 or f64 array holds a subnormal, read in cache-sized pieces (no
    temporary the operand's size). On the bits: in the CPU's flush mode a float comparison reads
    subnormals as zero. The magnitude doubled (the sign shifted out) minus one, as unsigned, is
    below twice the smallest normal's bits minus one exactly for subnormals (zero wraps to the
    top): three passes whatever the values (picking the small ones out first cost a ReLU's
    output, half zeros, 10x more)."""
    bits = np.dtype(f"u{x.dtype.itemsize}")
    flat = x.reshape(-1).view(bits)
    smallest_normal = np.finfo(x.dtype).tiny.view(bits)  # (its bits: the first normal magnitude)
    limit = bits.type(2 * int(smallest_normal) - 1)
    buffer = np.empty(min(CHECK_ELEMENTS, flat.size), bits)
    small = np.empty(buffer.size, np.bool_)
    for start in range(0, flat.size, CHECK_ELEMENTS):
        piece = buffer[: min(CHECK_ELEMENTS, flat.size - start)]
        np.left_shift(flat[start : start + piece.size], bits.type(1), out=piece)
        np.subtract(piece, bits.type(1), out=piece)
        if np.less(piece, limit, out=small[: piece.size]).any():
            return True
    return False


def contiguous(x: np.ndarray, dtype: np.dtype, order: Sequence[int], flush: bool) -> np.ndarray:
    """A dot operand in `dtype`, its dimensions in `order`, C-contiguous and flushed: the operand
    itself when it is so already and holds no subnormal, else one copy. (C-contiguous
    whatever the layouts of the values: NumPy's matmul then picks its BLAS routine by the sizes
    alone, which the compiled loop tier calls alike: jit_linear.)"""
    cast = x.dtype != dtype
    if cast:
        x = x.astype(numerics.compute_dtype(x.dtype), copy=False)
        x = x.astype(dtype, copy=False) if x.dtype != dtype else x
    t = x.transpose(order)
    if flush and subnormals.active() and t.dtype.kind == "f" and t.dtype.itemsize >= 4:
        if t.flags.c_contiguous and (cast or (t.size >= CHECK_ELEMENTS and not _has_subnormals(t))):
            if cast:  # (the cast is this function's own copy)
                np.multiply(t, t.dtype.type(1), out=t)
            return t
        out = np.empty(t.shape, t.dtype)
        np.multiply(t, t.dtype.type(1), out=out)  # flushed (this thread's mode) and C-contiguous at once
        return out
    if flush and dtype.kind in "fc":
        t = flushed(t)
    return np.ascontiguousarray(t)


def finish(out: np.ndarray, result: PrimitiveType, flush: bool) -> np.ndarray:
    if flush and out.dtype.kind in "fc":
        out = flushed(out)
    return numerics.convert(out, result)


def dot_general(
    lhs: np.ndarray,
    rhs: np.ndarray,
    lhs_batch: Sequence[int],
    lhs_contracting: Sequence[int],
    rhs_batch: Sequence[int],
    rhs_contracting: Sequence[int],
    result: PrimitiveType,
    flush: bool = True,
) -> np.ndarray:
    """Batch dimensions, then lhs free, then rhs free dimensions (XLA's dot result order)."""
    fn = dot_general_fn(
        lhs.dtype,
        rhs.dtype,
        lhs.ndim,
        rhs.ndim,
        lhs_batch,
        lhs_contracting,
        rhs_batch,
        rhs_contracting,
        result,
        flush,
    )
    return fn(lhs, rhs)


def dot_general_fn(
    lhs_dtype: np.dtype,
    rhs_dtype: np.dtype,
    lhs_rank: int,
    rhs_rank: int,
    lhs_batch: Sequence[int],
    lhs_contracting: Sequence[int],
    rhs_batch: Sequence[int],
    rhs_contracting: Sequence[int],
    result: PrimitiveType,
    flush: bool = True,
    jit: str = "auto",
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """`dot_general` for operands of these types and ranks, with everything that does not depend
    on the values decided once (a dot in a loop body runs thousands of times); `jit` is
    RunOptions.jit (complex products' compiled sums)."""
    dtype = accumulator(result, lhs_dtype, rhs_dtype)
    lhs_free = [d for d in range(lhs_rank) if d not in lhs_batch and d not in lhs_contracting]
    rhs_free = [d for d in range(rhs_rank) if d not in rhs_batch and d not in rhs_contracting]
    lhs_order = (*lhs_batch, *lhs_free, *lhs_contracting)
    rhs_order = (*rhs_batch, *rhs_contracting, *rhs_free)
    nb, nm, nn = len(lhs_batch), len(lhs_free), len(rhs_free)
    flush_float = flush and dtype.kind in "fc"
    out_dtype = np.dtype(result.numpy_dtype)
    # operands stored in order (lhs [m, k], rhs [k, n]): XLA:CPU's GEMV emitters for m = 1 or n = 1
    lhs_in_order = lhs_order == tuple(range(lhs_rank))
    rhs_stored_kn = not rhs_batch and rhs_order == tuple(range(rhs_rank)) and lhs_in_order
    rhs_transposed = ynn_dot.operands(
        lhs_rank, rhs_rank, lhs_batch, lhs_contracting, rhs_batch, rhs_contracting
    )
    ynn_operands = rhs_transposed is not None and lhs_dtype == rhs_dtype == out_dtype

    def run(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
        a = contiguous(lhs, dtype, lhs_order, flush_float)
        b = contiguous(rhs, dtype, rhs_order, flush_float)
        batch, m, n = a.shape[:nb], a.shape[nb : nb + nm], b.shape[b.ndim - nn :]
        k = math.prod(a.shape[nb + nm :])
        rows, cols = math.prod(m), math.prod(n)
        a3 = a.reshape(math.prod(batch), rows, k)  # (views: C-contiguous operands)
        b3 = b.reshape(math.prod(batch), k, cols)
        if complex_dot.applies(a3.dtype):  # Eigen's products, XLA's multiply and reduce
            out = complex_dot.dot(a3, b3, flush_float, jit)
        elif vector_dot.applies(a3.dtype, rows, cols, k):  # XLA: a multiply and a reduce
            out = vector_dot.vector_dot(a3[:, 0, :], b3[:, :, 0], flush_float)
        elif rhs_stored_kn and row_vector_dot.applies(a3.dtype, a3.shape[0], rows, cols, k):
            out = row_vector_dot.row_vector_dot(a3[0, 0], b3[0], flush_float)
        elif rhs_stored_kn and matrix_vector_dot.applies(a3.dtype, a3.shape[0], rows, cols, k):
            out = matrix_vector_dot.matrix_vector_dot(a3[0], b3[0, :, 0], flush_float)
        elif ynn_operands and ynn_dot.applies(a3.dtype, rows, cols, k):
            out = ynn_dot.dot(a3, b3, bool(rhs_transposed), flush_float)
        else:
            with blas_small.sized(rows, cols, k):
                out = np.matmul(a3, b3)
        out = out.reshape((*batch, *m, *n))
        if flush_float:  # (in place: the product is this function's own array)
            out = flushed(out, in_place=True)
        return out if out.dtype == out_dtype else numerics.convert(out, result)

    return run
