"""FFT, Cholesky, triangular solve and batch normalization, batched, on NumPy's LAPACK and
SciPy's pocketfft, computed in the operands' working type and cast to the result type."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..ir.attrs import FftType, TransposeA
from . import pocketfft, threads
from .numerics import compute_dtype


def fft(x: np.ndarray, kind: FftType, lengths: Sequence[int], out: np.dtype) -> np.ndarray:
    """The four FFT types over the last len(lengths) dimensions."""
    axes = tuple(range(x.ndim - len(lengths), x.ndim))
    workers = threads.share()
    result: np.ndarray
    if x.size == 0 or 0 in lengths:
        result = _fft_scipy(x, kind, lengths, axes, workers)
    elif kind is FftType.FFT or kind is FftType.IFFT:
        # (SciPy's pocketfft: 3-4x NumPy's on c64 here, and it runs on several cores)
        result = pocketfft.c2c(x, axes, kind is FftType.FFT, workers)
    elif kind is FftType.RFFT:
        result = pocketfft.r2c(x, axes, workers)
    else:
        result = pocketfft.c2r(x, axes, lengths[-1], workers)
    return result.astype(out, copy=False)


def _fft_scipy(
    x: np.ndarray, kind: FftType, lengths: Sequence[int], axes: tuple[int, ...], workers: int
) -> np.ndarray:
    """Through `scipy.fft` itself: empty operands and zero lengths, which it rejects or pads."""
    import scipy.fft

    if kind is FftType.FFT:
        return scipy.fft.fftn(x, axes=axes, workers=workers)  # type: ignore[no-any-return]
    if kind is FftType.IFFT:
        return scipy.fft.ifftn(x, axes=axes, workers=workers)  # type: ignore[no-any-return]
    if kind is FftType.RFFT:
        return scipy.fft.rfftn(x, s=lengths, axes=axes, workers=workers)  # type: ignore[no-any-return]
    return scipy.fft.irfftn(x, s=lengths, axes=axes, workers=workers)  # type: ignore[no-any-return]


def cholesky(a: np.ndarray, lower: bool) -> np.ndarray:
    """The Cholesky factor in the named triangle, zeros in the other; a matrix that is not
    positive definite gives NaNs (XLA:CPU does not fail)."""
    work = a.astype(compute_dtype(a.dtype), copy=False)
    if not lower:
        work = np.conj(np.swapaxes(work, -1, -2))
    try:
        factor = np.linalg.cholesky(work)
    except np.linalg.LinAlgError:
        factor = _cholesky_each(work)
    if not lower:
        factor = np.conj(np.swapaxes(factor, -1, -2))
    return factor.astype(a.dtype)


def _cholesky_each(work: np.ndarray) -> np.ndarray:
    """Matrix by matrix (only after a batch failed): NaNs where a factor does not exist."""
    flat = work.reshape(-1, *work.shape[-2:])
    out = np.empty_like(flat)
    for k, m in enumerate(flat):
        try:
            out[k] = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            out[k] = np.nan
    return out.reshape(work.shape)


def triangular_solve(
    a: np.ndarray, b: np.ndarray, left_side: bool, lower: bool, unit_diagonal: bool, transpose: TransposeA
) -> np.ndarray:
    """x with op(a) x = b (left side) or x op(a) = b, reading only a's named triangle."""
    work = a.astype(compute_dtype(a.dtype), copy=False)
    tri = np.tril(work) if lower else np.triu(work)
    if unit_diagonal:
        n = tri.shape[-1]
        tri = tri.copy()
        tri[..., np.arange(n), np.arange(n)] = 1
    if transpose is TransposeA.TRANSPOSE:
        tri = np.swapaxes(tri, -1, -2)
    elif transpose is TransposeA.ADJOINT:
        tri = np.conj(np.swapaxes(tri, -1, -2))
    rhs = b.astype(compute_dtype(b.dtype), copy=False)
    if left_side:
        x = np.linalg.solve(tri, rhs)
    else:
        x = np.swapaxes(np.linalg.solve(np.swapaxes(tri, -1, -2), np.swapaxes(rhs, -1, -2)), -1, -2)
    return x.astype(b.dtype)


def _feature_view(v: np.ndarray, rank: int, feature: int) -> np.ndarray:
    shape = [1] * rank
    shape[feature] = v.shape[0]
    return v.reshape(shape)


def batch_norm_training(
    x: np.ndarray, scale: np.ndarray, offset: np.ndarray, epsilon: float, feature: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(normalized, mean, variance) over every dimension but the feature one (page 003)."""
    work = x.astype(compute_dtype(x.dtype), copy=False)
    axes = tuple(d for d in range(x.ndim) if d != feature)
    mean = work.mean(axis=axes)
    var = ((work - _feature_view(mean, x.ndim, feature)) ** 2).mean(axis=axes)
    out = batch_norm_inference(x, scale, offset, mean, var, epsilon, feature)
    return out, mean.astype(x.dtype), var.astype(x.dtype)


def batch_norm_inference(
    x: np.ndarray,
    scale: np.ndarray,
    offset: np.ndarray,
    mean: np.ndarray,
    var: np.ndarray,
    epsilon: float,
    feature: int,
) -> np.ndarray:
    work = x.astype(compute_dtype(x.dtype), copy=False)
    dtype = work.dtype

    def view(v: np.ndarray) -> np.ndarray:
        return _feature_view(v.astype(dtype, copy=False), x.ndim, feature)

    eps = dtype.type(epsilon)
    out = (work - view(mean)) / np.sqrt(view(var) + eps) * view(scale) + view(offset)
    return out.astype(x.dtype)


def batch_norm_grad(
    x: np.ndarray,
    scale: np.ndarray,
    mean: np.ndarray,
    var: np.ndarray,
    grad_out: np.ndarray,
    epsilon: float,
    feature: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grad operand, grad scale, grad offset) by page 003's formulas."""
    work = x.astype(compute_dtype(x.dtype), copy=False)
    dtype = work.dtype
    g = grad_out.astype(dtype, copy=False)
    axes = tuple(d for d in range(x.ndim) if d != feature)

    def view(v: np.ndarray) -> np.ndarray:
        return _feature_view(v.astype(dtype, copy=False), x.ndim, feature)

    centered = work - view(mean)
    inv_std = 1 / np.sqrt(view(var) + dtype.type(epsilon))
    grad_offset = g.sum(axis=axes)
    grad_scale = (g * centered * inv_std).sum(axis=axes)
    count = x.size // x.shape[feature] if x.size else 1
    mean_g = view(grad_offset) / count
    mean_gc = view((g * centered).sum(axis=axes)) / count
    grad_x = view(scale) * inv_std * (g - mean_g - centered * mean_gc * inv_std**2)
    return grad_x.astype(x.dtype), grad_scale.astype(x.dtype), grad_offset.astype(x.dtype)
