"""Convolution on BLAS, as im2col (strided window views, hlo.numerics.windows) + a batched matmul,
grouped by feature or batch groups; operands prepared and the result rounded as a dot's
(hlo.numerics.linear)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.attrs import ConvolutionDimensionNumbers, Window, WindowDimension
from . import blas_small, conv_chains
from .linear import accumulator, contiguous, finish, flushed, prepare
from .windows import padded, windows

LARGE_GEMM = 1 << 24  # m*n*k from which a convolution's patch matrix is copied positions innermost
PATCH_BYTES = 2 << 20  # the most of a convolution's patch matrix made at once (memory: 8 MB
# pieces were 4.6x the live set of a LeNet step; 32 MB pieces measured no faster than 8 MB)
# m*n*k above which OpenBLAS never takes its small-matrix kernels (100^3, with a margin)
SMALL_MATRIX_MNK = 2 << 20
CHAIN_COLUMNS = 4096  # positions of a patch matrix summed in order at once (fma_loop.chains: 2 to 4x
# faster than 200 or 25,000 a call, measured)
MIN_ROWS = 1024  # rows of a patch matrix made at once, at least (see `step` below)


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
    x = prepare(lhs, dtype, False).transpose(
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
    w = contiguous(np.flip(rhs, reversed_axes) if reversed_axes else rhs, dtype, kernel_order, flush)
    fill = np.zeros((), dtype)
    whole = Window((WindowDimension(size=1),) * 2 + tuple(dims))
    sizes, strides = [d.size for d in dims], [d.stride for d in dims]
    dilations = [d.window_dilation for d in dims]

    def patches_of(part: np.ndarray) -> np.ndarray:
        """(images, C, P..., K...): the windows over `part`, padded and flushed."""
        before = part
        part = padded(part, whole, fill)
        if flush and dtype.kind in "fc":  # after padding (zeros flush to themselves): one copy, not two
            part = flushed(part, in_place=part is not before and not np.may_share_memory(part, lhs))
        return windows(part, sizes, strides, dilations)

    n, c = x.shape[:2]
    positions = patches_of(x[:1]).shape[2 : 2 + spatial]
    kernel = w.shape[2:]
    o, i = w.shape[:2]
    p, kk = math.prod(positions), math.prod(kernel)
    out_dims = [0] * (2 + spatial)
    for d, size in zip(
        (dnums.output_batch_dimension, dnums.output_feature_dimension, *dnums.output_spatial_dimensions),
        (n // batch_group_count, o, *positions),
    ):
        out_dims[d] = size
    shapes = (tuple(lhs.shape), tuple(rhs.shape), tuple(out_dims))
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
            product = flushed(product, in_place=True)
        out = product.reshape(groups, nb, p, og).transpose(1, 0, 3, 2).reshape(nb, o, *positions)
    elif (
        lhs.dtype == rhs.dtype == dtype
        and (how := conv_chains.route(dtype, window, dnums, (feature_group_count, batch_group_count), shapes))
        and (ordered := _in_order(patches_of, x, w, positions, how, flush)) is not None
    ):
        out = ordered
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
                product = flushed(product, in_place=True)
            out[b0:b1] = (
                product.reshape(groups, b1 - b0, p, og).transpose(1, 0, 3, 2).reshape(b1 - b0, o, *positions)
            )
            del product  # (before the next chunk's are made: one chunk's temporaries at a time)
    order = [dnums.output_batch_dimension, dnums.output_feature_dimension, *dnums.output_spatial_dimensions]
    final = np.empty(len(order), dtype=int)
    final[order] = np.arange(len(order))
    return finish(out.transpose(final), result, False)


def _in_order(
    patches_of: Callable[[np.ndarray], np.ndarray],
    x: np.ndarray,
    w: np.ndarray,
    positions: tuple[int, ...],
    how: str,
    flush: bool,
) -> np.ndarray | None:
    """(N, O, P...): x (N, C, S...) convolved with w (O, I, K...) in XLA:CPU's order
    (hlo.numerics.conv_chains), a few images' patch matrix at a time (the partial results of a
    sum Eigen shards by k added once all are made: whole vectors of the whole result); None
    where one image's is more than PATCH_BYTES (a weight gradient's can be)."""
    n, c = x.shape[:2]
    o, spatial = w.shape[0], w.ndim - 2
    p, kk = math.prod(positions), math.prod(w.shape[2:])
    # the kernel as [O, (K..., I)]: window positions outer, input features inner
    filters = np.ascontiguousarray(w.transpose(0, *range(2, 2 + spatial), 1).reshape(o, kk * c))
    plan = conv_chains.order(how, o, n * p, kk * c)
    image_bytes = p * c * kk * x.dtype.itemsize
    if image_bytes > PATCH_BYTES:
        return None  # (one image's patch matrix over PATCH_BYTES: the BLAS product, cut by features)
    step = max(1, min(CHAIN_COLUMNS // max(1, p), PATCH_BYTES // max(1, image_bytes)))
    parts = [np.empty((o, n * p), x.dtype) for _ in plan.parts]
    for b0 in range(0, n, step):
        b1 = min(n, b0 + step)
        patches = patches_of(x[b0:b1])  # (N, C, P..., K...) -> (K..., C, N, P...)
        order = [*range(2 + spatial, 2 + 2 * spatial), 1, 0, *range(2, 2 + spatial)]
        columns = (b1 - b0) * p
        cols = np.ascontiguousarray(patches.transpose(order)).reshape(kk * c, columns)
        # (rows a multiple of 1 KiB apart share cache sets: the loop over k ran 4x slower; a
        # few zero columns more keep them apart)
        if columns % 256 == 0:
            cols = np.concatenate([cols, np.zeros((kk * c, 16), x.dtype)], axis=1)
        for whole, part in zip(parts, conv_chains.partials(filters, cols, plan, flush)):
            whole[:, b0 * p : b1 * p] = part[:, :columns]
    product = conv_chains.combined(parts, flush)
    return product.reshape(o, n, *positions).swapaxes(0, 1)


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
