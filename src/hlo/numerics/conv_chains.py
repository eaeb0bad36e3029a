"""XLA:CPU's order for the float convolutions it does not give YNNPACK, bit for bit: each
result a sum over the patch matrix's row (window positions outer, input features inner):

- f32 on Eigen's spatial convolution (XLA:CPU's convolution thunk: 1 to 3 spatial dimensions,
  no window reversal, operands and result of more than 8 bytes; XLA first transposes any
  dimension numbers to NHWC/HWIO): the patch matrix [positions, k] times the kernel [k, Cout]
  as Eigen plans it (hlo.numerics.eigen_contraction: k slices, threads, sharding by k), each
  kernel call oneDNN's sgemm: one FMA chain a result over its slice from +0, added to the
  result. With one output position Eigen's GEMV instead: products rounded, then added, in
  blocks of 16 from k = 128 on (this jaxlib's Eigen has no FMA).
- f64 (and f32 that Eigen does not take): XLA's elemental loop, one FMA chain a result.

Not modelled (`route` is None: hlo.numerics.convolution's BLAS product, within rounding): the
2-D NHWC ones with more than 16 input or output features that XLA:CPU gives YNNPACK (f64 ones
of that size take yet another order), grouped convolutions, one output feature on Eigen
(oneDNN's GEMV), base dilation (XLA:CPU's transposed convolution: per window offset a product
over the input features, the offsets' results added into the output in turn), other types.
Measured against XLA:CPU (exact_conv_chains.npz)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..ir.attrs import ConvolutionDimensionNumbers, Window
from . import eigen_contraction, threads
from .ynn_dot import add_first_nan, products_in_order

EIGEN, LOOP = "eigen", "loop"
YNN_FEATURES = 16  # XLA:CPU gives YNNPACK a 2-D NHWC convolution with more features in or out
EIGEN_MIN_BYTES = 9  # arrays Eigen takes: aligned to 16 bytes, which XLA promises only from here
GEMV_WHOLE, GEMV_BLOCK = 128, 16  # Eigen's GEMV sums k whole below GEMV_WHOLE, else in blocks


class Order(NamedTuple):
    """`parts`: the partial results (added as Eigen adds them), each the k slices summed in
    turn into it; `fused`: FMA chains, else each product rounded before its add."""

    parts: list[list[tuple[int, int]]]
    fused: bool


def _ynn_claims(
    window: Window,
    dnums: ConvolutionDimensionNumbers,
    lhs: tuple[int, ...],
    rhs: tuple[int, ...],
    out: tuple[int, ...],
) -> bool:
    """XLA:CPU's test for giving a convolution to YNNPACK (before it transposes dimensions)."""
    dims = window.dimensions
    if len(dims) != 2 or any(d.base_dilation != 1 or d.window_reversal for d in dims):
        return False
    nhwc = (
        dnums.input_batch_dimension == 0
        and dnums.input_feature_dimension == 3
        and tuple(dnums.input_spatial_dimensions) == (1, 2)
        and dnums.kernel_input_feature_dimension == 2
        and dnums.kernel_output_feature_dimension == 3
        and tuple(dnums.kernel_spatial_dimensions) == (0, 1)
        and dnums.output_feature_dimension == 3
        and tuple(dnums.output_spatial_dimensions) == (1, 2)
    )
    if not nhwc or max(lhs[3], out[3]) <= YNN_FEATURES:
        return False
    return all(out[1 + i] <= lhs[1 + i] and rhs[i] <= lhs[1 + i] for i in range(2))


def route(
    dtype: np.dtype,
    window: Window,
    dnums: ConvolutionDimensionNumbers,
    groups: tuple[int, int],
    shapes: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
) -> str | None:
    """EIGEN, LOOP, or None (not modelled) for a convolution computed in `dtype` with these
    (feature, batch) group counts and (lhs, rhs, result) dimensions."""
    lhs, rhs, out = shapes
    if groups != (1, 1) or 0 in lhs or 0 in rhs or 0 in out:
        return None
    if any(d.base_dilation != 1 for d in window.dimensions):
        return None  # (2-D with stride 1: XLA:CPU's transposed convolution, its own order)
    if _ynn_claims(window, dnums, lhs, rhs, out):
        return None
    if dtype == np.float64:
        features = max(lhs[dnums.input_feature_dimension], out[dnums.output_feature_dimension])
        return LOOP if features <= YNN_FEATURES else None
    if dtype != np.float32:
        return None
    spatial = len(window.dimensions)
    small = min(np.prod(s, dtype=np.int64) * dtype.itemsize for s in shapes) < EIGEN_MIN_BYTES
    if spatial > 3 or spatial == 0 or small or any(d.window_reversal for d in window.dimensions):
        return LOOP
    if out[dnums.output_feature_dimension] == 1:
        return None  # (oneDNN's GEMV: its order not pinned)
    return EIGEN


def order(how: str, m: int, n: int, k: int) -> Order:
    """The order of the sums of an [n, k] patch matrix times a [k, m] kernel."""
    if how == LOOP:
        return Order([[(0, k)]], True)
    if n == 1:
        block = k if k < GEMV_WHOLE else GEMV_BLOCK
        return Order([[(s, min(s + block, k)) for s in range(0, k, max(block, 1))]], False)
    plan = eigen_contraction.schedule(
        np.dtype(np.float32), m, n, k, threads.xla_threads(), eigen_contraction.PATCH_CYCLES
    )
    return Order(plan.parts, True)


def partials(filters: np.ndarray, cols: np.ndarray, plan: Order, flush: bool) -> list[np.ndarray]:
    """filters [m, k] times cols [k, n] (C-contiguous, one float type) in `plan`'s order: each
    partial result [m, n] (one, unless Eigen shards the sum by k: then `combined`)."""
    parts = []
    for slices in plan.parts:
        total = None
        for start, stop in slices:
            piece = products_in_order(
                np.ascontiguousarray(filters[:, start:stop]), cols[start:stop], plan.fused, True, flush
            )
            total = piece if total is None else add_first_nan(total, piece, flush)
        if total is None:
            total = np.zeros((filters.shape[0], cols.shape[1]), filters.dtype)
        parts.append(total)
    return parts


def combined(parts: list[np.ndarray], flush: bool) -> np.ndarray:
    """The partial results [m, n] of the whole product added as Eigen adds them."""
    if len(parts) == 1:
        return parts[0]
    flat = [np.ascontiguousarray(p.T)[None] for p in parts]  # (Eigen adds them in the result's order)
    total = eigen_contraction.combine(parts[0].dtype, flat, lambda x, y: add_first_nan(x, y, flush))
    return np.ascontiguousarray(total[0].T)
