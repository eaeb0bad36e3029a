"""Dot products and convolutions on BLAS: dot-general as a batched matmul, convolution as
im2col (strided window views) + batched matmul, grouped by feature or batch groups.

Operands are computed in the result's working type (f32 for bf16/f16/f8 results, int64 or
uint64 for integer results, whose wrap-around then matches XLA's), and rounded once."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.attrs import ConvolutionDimensionNumbers, Window, WindowDimension
from . import blas_small, numerics, subnormals
from .windows import padded, windows

LARGE_GEMM = 1 << 24  # m*n*k from which a convolution's patch matrix is copied positions innermost
PATCH_BYTES = 2 << 20  # the most of a convolution's patch matrix made at once (memory: 8 MB
# pieces were 4.6x the live set of a LeNet step; 32 MB pieces measured no faster than 8 MB)
SMALL_MATRIX_MNK = (
    2 << 20
)  # m*n*k above which OpenBLAS never takes its small-matrix kernels (100^3, with a margin)
MIN_ROWS = 1024  # rows of a patch matrix made at once, at least (see `step` below)


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


def _flushed(x: np.ndarray, in_place: bool = False) -> np.ndarray:
    """`x` with subnormals flushed. BLAS may run on its own threads, outside the CPU's
    flush-to-zero mode, so operands and products are flushed here; when this thread is in that
    mode, a multiplication by one does it in one pass (the values only feed arithmetic, so
    quieting a signalling NaN changes nothing), into `x` itself when the caller owns it."""
    if subnormals.active() and x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        if in_place and x.flags.writeable:
            return np.asarray(np.multiply(x, x.dtype.type(1), out=x))
        return np.asarray(np.multiply(x, x.dtype.type(1)))
    return numerics.flush_denormals(x)


def _prepare(x: np.ndarray, dtype: np.dtype, flush: bool) -> np.ndarray:
    if x.dtype != dtype:
        x = x.astype(numerics.compute_dtype(x.dtype), copy=False)
        x = x.astype(dtype, copy=False) if x.dtype != dtype else x
    return _flushed(x) if flush and dtype.kind in "fc" else x


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


def _contiguous(x: np.ndarray, dtype: np.dtype, order: Sequence[int], flush: bool) -> np.ndarray:
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
        t = _flushed(t)
    return np.ascontiguousarray(t)


def _finish(out: np.ndarray, result: PrimitiveType, flush: bool) -> np.ndarray:
    if flush and out.dtype.kind in "fc":
        out = _flushed(out)
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
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """`dot_general` for operands of these types and ranks, with everything that does not depend
    on the values decided once (a dot in a loop body runs thousands of times)."""
    dtype = accumulator(result, lhs_dtype, rhs_dtype)
    lhs_free = [d for d in range(lhs_rank) if d not in lhs_batch and d not in lhs_contracting]
    rhs_free = [d for d in range(rhs_rank) if d not in rhs_batch and d not in rhs_contracting]
    lhs_order = (*lhs_batch, *lhs_free, *lhs_contracting)
    rhs_order = (*rhs_batch, *rhs_contracting, *rhs_free)
    nb, nm, nn = len(lhs_batch), len(lhs_free), len(rhs_free)
    flush_float = flush and dtype.kind in "fc"
    out_dtype = np.dtype(result.numpy_dtype)

    def run(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
        a = _contiguous(lhs, dtype, lhs_order, flush_float)
        b = _contiguous(rhs, dtype, rhs_order, flush_float)
        batch, m, n = a.shape[:nb], a.shape[nb : nb + nm], b.shape[b.ndim - nn :]
        k = math.prod(a.shape[nb + nm :])
        rows, cols = math.prod(m), math.prod(n)
        a3 = a.reshape(math.prod(batch), rows, k)  # (views: C-contiguous operands)
        b3 = b.reshape(math.prod(batch), k, cols)
        with blas_small.sized(rows, cols, k):
            out = np.matmul(a3, b3)
        out = out.reshape((*batch, *m, *n))
        if flush_float:  # (in place: the product is this function's own array)
            out = _flushed(out, in_place=True)
        return out if out.dtype == out_dtype else numerics.convert(out, result)

    return run


def convolution(
    lhs: np.ndarray,
    rhs: np.ndarray,
    window: Window,
    dnums: ConvolutionDimensionNumbers,
    feature_group_count: int,
    batch_group_count: int,
    result: PrimitiveType,
    flush: bool = True,
) -> np.ndarray:
    """XLA's convolution: out[b, o, p...] = sum over input features i of the group and window
    offsets k of lhs[b', i, p*stride + k*dilation - pad_low (base-dilated)] * rhs[o, i, k]."""
    dtype = accumulator(result, lhs.dtype, rhs.dtype)
    spatial = len(dnums.input_spatial_dimensions)
    x = _prepare(lhs, dtype, False).transpose(
        [dnums.input_batch_dimension, dnums.input_feature_dimension, *dnums.input_spatial_dimensions]
    )
    dims = window.dimensions
    reversed_axes = tuple(dnums.kernel_spatial_dimensions[k] for k, d in enumerate(dims) if d.window_reversal)
    # (O, I, K...) C-contiguous, reversed and flushed in at most one copy (it is reshaped to
    # the filter matrix next, which would copy a transposed or reversed view once more)
    kernel_order = (
        dnums.kernel_output_feature_dimension,
        dnums.kernel_input_feature_dimension,
        *dnums.kernel_spatial_dimensions,
    )
    w = _contiguous(np.flip(rhs, reversed_axes) if reversed_axes else rhs, dtype, kernel_order, flush)
    fill = np.zeros((), dtype)
    whole = Window((WindowDimension(size=1),) * 2 + tuple(dims))
    sizes, strides = [d.size for d in dims], [d.stride for d in dims]
    dilations = [d.window_dilation for d in dims]

    def patches_of(part: np.ndarray) -> np.ndarray:
        """(images, C, P..., K...): the windows over `part`, padded and flushed."""
        before = part
        part = padded(part, whole, fill)
        if flush and dtype.kind in "fc":  # after padding (zeros flush to themselves): one copy, not two
            part = _flushed(part, in_place=part is not before and not np.may_share_memory(part, lhs))
        return windows(part, sizes, strides, dilations)

    n, c = x.shape[:2]
    positions = patches_of(x[:1]).shape[2 : 2 + spatial]
    kernel = w.shape[2:]
    o, i = w.shape[:2]
    p, kk = math.prod(positions), math.prod(kernel)
    flush_product = flush and dtype.kind in "fc"
    if batch_group_count > 1:
        patches = patches_of(x)  # (N, C, P..., K...)
        groups, nb = batch_group_count, n // batch_group_count
        # (B, Nb, C, P, K) -> (B, Nb*P, C*K)
        cols = patches.reshape(groups, nb, c, p, kk).transpose(0, 1, 3, 2, 4).reshape(groups, nb * p, c * kk)
        og = o // groups
        filters = w.reshape(groups, og, i * kk).transpose(0, 2, 1)  # (G, I*K, Og)
        with blas_small.sized(nb * p, og, c * kk):
            product = np.matmul(cols, filters)  # (G, batch*P, Og)
        if flush_product:  # (in place: the product is this function's own array)
            product = _flushed(product, in_place=True)
        out = product.reshape(groups, nb, p, og).transpose(1, 0, 3, 2).reshape(nb, o, *positions)
    else:
        groups, ig = feature_group_count, c // feature_group_count
        og = o // groups
        filters = w.reshape(groups, og, i * kk).transpose(0, 2, 1)  # (G, I*K, Og)
        out = np.empty((n, o, *positions), dtype)
        # A few images at a time, padded, as a patch matrix (N, G, Ig, P, K) -> (G, N*P, Ig*K) of
        # at most PATCH_BYTES (the whole matrix is the kernel size times the input: 9x for 3x3),
        # their product put in the result's order: no padded copy of the whole input, no product
        # of the whole result beside the result (memory: 2.6x the live set of a [32,64,56,56]
        # convolution with them).
        # (and at least MIN_ROWS rows of it: OpenBLAS gives a product of few rows other bits than
        # the same rows of a taller one, measured below ~100 rows; never rows of one image apart)
        step = max(1, PATCH_BYTES // max(1, p * c * kk * dtype.itemsize), -(-MIN_ROWS // max(1, p)))
        # (N, G, Ig, P..., K...) -> (G, N, P..., Ig, K...); for a large product (G, Ig, K..., N,
        # P...) instead, copied with the positions innermost (runs along the input's rows: the
        # [32,64,56,56] convolution's copies took 250 ms with runs of 3, 45 ms so), read
        # transposed by BLAS: the same packed panels and kernel, the same bits. (Below
        # LARGE_GEMM only where _positions_last_pays: OpenBLAS's small-matrix kernels differ by
        # transposition, and in bits.)
        rows_first = [1, 0, *range(3, 3 + spatial), 2, *range(3 + spatial, 3 + 2 * spatial)]
        positions_last = [1, 2, *range(3 + spatial, 3 + 2 * spatial), 0, *range(3, 3 + spatial)]
        # One image's patch matrix above PATCH_BYTES with few rows (a weight gradient: the
        # batch is the contracted feature, the window the whole image) goes a few input
        # features at a time, the products summed: another order of the same sum (within
        # tolerance of XLA:CPU, whose own order is not reproduced); tall matrices are kept whole
        # (their bits are pinned: tests/golden/dot_operands).
        pieces = 1
        if groups == 1 and p < MIN_ROWS and p * ig * kk * dtype.itemsize > PATCH_BYTES:
            step, pieces = 1, min(ig, -(-p * ig * kk * dtype.itemsize // PATCH_BYTES))
        per = -(-ig // pieces)
        for b0 in range(0, n, step):
            b1 = min(n, b0 + step)
            product = None
            for c0 in range(0, ig, per):
                c1 = min(ig, c0 + per)
                piece = _patch_product(
                    patches_of(x[b0:b1, c0:c1] if per < ig else x[b0:b1]),
                    filters[:, c0 * kk : c1 * kk],
                    (b1 - b0, groups, c1 - c0, *positions, *kernel),
                    og,
                    rows_first,
                    positions_last,
                )
                product = piece if product is None else np.add(product, piece, out=product)
                del piece
            assert product is not None
            if flush_product:
                product = _flushed(product, in_place=True)
            out[b0:b1] = (
                product.reshape(groups, b1 - b0, p, og).transpose(1, 0, 3, 2).reshape(b1 - b0, o, *positions)
            )
            del product  # (before the next chunk's are made: one chunk's temporaries at a time)
    order = [dnums.output_batch_dimension, dnums.output_feature_dimension, *dnums.output_spatial_dimensions]
    final = np.empty(len(order), dtype=int)
    final[order] = np.arange(len(order))
    return _finish(out.transpose(final), result, False)


def _positions_last_pays(patches: np.ndarray, filters: np.ndarray, mnk: int) -> bool:
    """Whether a product below LARGE_GEMM also takes the patch matrix copied positions innermost:
    when the copy's runs are longer so (the last position dimension's, against the last window
    dimension's: LeNet's input gradient, 12 against 5, copies 2.3x faster) and the product keeps
    its bits read transposed. OpenBLAS runs a product the same way whichever operand is
    transposed (only its packing differs) except on two paths: its small-matrix kernels, only
    from m*n*k <= 100^3 on (gemm_small_kernel_permit), and its direct kernel, only for two
    untransposed operands (the filters here are read transposed: a view of the (O, I*K) matrix)."""
    if mnk <= SMALL_MATRIX_MNK or filters.flags.c_contiguous or filters.shape[-1] < 2:
        return False
    spatial = (patches.ndim - 2) // 2
    run_positions, run_window = patches.strides[1 + spatial], patches.strides[-1]
    item = patches.itemsize
    if run_positions != item or run_window != item:  # (strided or dilated windows: runs of one)
        return False
    return patches.shape[1 + spatial] > patches.shape[-1]


def _patch_product(
    patches: np.ndarray,
    filters: np.ndarray,
    shape: tuple[int, ...],
    og: int,
    rows_first: Sequence[int],
    positions_last: Sequence[int],
) -> np.ndarray:
    """(G, images*P, Og): the patch matrix of `patches` (N, C, P..., K...) times `filters`."""
    images, groups, ig = shape[:3]
    spatial = (len(shape) - 3) // 2
    p, kk = math.prod(shape[3 : 3 + spatial]), math.prod(shape[3 + spatial :])
    split = patches.reshape(shape)  # (a view)
    if images * p * og * ig * kk >= LARGE_GEMM or _positions_last_pays(
        patches, filters, images * p * og * ig * kk
    ):
        cols = split.transpose(positions_last).reshape(groups, ig * kk, images * p).transpose(0, 2, 1)
    else:
        cols = split.transpose(rows_first).reshape(groups, images * p, ig * kk)  # the one copy
    with blas_small.sized(images * p, og, ig * kk):
        return np.asarray(np.matmul(cols, filters))
