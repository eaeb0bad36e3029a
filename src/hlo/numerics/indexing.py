"""Gather in full generality (page 003's formal definitions, batching dimensions included), on
whole arrays with NumPy advanced indexing, and the index map and start positions it shares
with scatter (hlo.numerics.scatter). Gather clamps each slice's start so the slice fits (XLA's
semantics)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class IndexMap:
    """Where the indices' vectors go in the operand: `to_operand[k]` is the operand dimension
    of vector element k; batching pairs (operand dimension, indices dimension)."""

    index_vector_dim: int
    to_operand: tuple[int, ...]
    operand_batching: tuple[int, ...] = ()
    indices_batching: tuple[int, ...] = ()


def starts_of(indices: np.ndarray, m: IndexMap, rank: int) -> np.ndarray:
    """Per batch position, the start index in every operand dimension (int64, unclamped):
    shape (batch dims of the indices..., operand rank)."""
    ivd = m.index_vector_dim
    vectors = indices[..., None] if ivd == indices.ndim else np.moveaxis(indices, ivd, -1)
    if vectors.dtype == np.uint64:  # the only unsigned type whose values int64 cannot hold
        vectors = np.minimum(vectors, np.uint64(np.iinfo(np.int64).max))
    vectors = vectors.astype(np.int64)
    batch_shape = vectors.shape[:-1]
    starts = np.zeros((*batch_shape, rank), dtype=np.int64)
    for k, d in enumerate(m.to_operand):
        starts[..., d] = vectors[..., k]
    batch_axes = [d for d in range(indices.ndim) if d != ivd]
    for od, idim in zip(m.operand_batching, m.indices_batching):
        axis = batch_axes.index(idim)
        view = [1] * len(batch_shape)
        view[axis] = batch_shape[axis]
        starts[..., od] = np.arange(batch_shape[axis]).reshape(view)
    return starts


def gather(
    operand: np.ndarray,
    indices: np.ndarray,
    m: IndexMap,
    offset_dims: Sequence[int],
    collapsed: Sequence[int],
    slice_sizes: Sequence[int],
) -> np.ndarray:
    """XLA's Gather: a slice of `slice_sizes` at each (clamped) start; collapsed and batching
    dimensions dropped; the slice dimensions placed at `offset_dims` of the result."""
    rank = operand.ndim
    starts = starts_of(indices, m, rank)
    batch_shape = starts.shape[:-1]
    nb = len(batch_shape)
    high = np.array([n - s for n, s in zip(operand.shape, slice_sizes)], dtype=np.int64)
    starts = np.clip(starts, 0, np.maximum(high, 0))
    full = _whole_or_single(operand, starts, slice_sizes)
    if full is None:
        full = _windows_at(operand, starts, slice_sizes)
    dropped = set(collapsed) | set(m.operand_batching)
    full = full.reshape((*batch_shape, *[s for d, s in enumerate(slice_sizes) if d not in dropped]))
    out_rank = full.ndim
    batch_positions = [d for d in range(out_rank) if d not in offset_dims]
    source = [0] * out_rank
    for k, d in enumerate(batch_positions):
        source[d] = k
    for k, d in enumerate(offset_dims):
        source[d] = nb + k
    return np.transpose(full, source)


def _whole_or_single(
    operand: np.ndarray, starts: np.ndarray, slice_sizes: Sequence[int]
) -> np.ndarray | None:
    """The slices when each dimension is taken whole or one element at a time (an embedding
    lookup: whole rows): the single-element dimensions indexed by their starts, the others as
    they are — NumPy copies rows instead of indexing every element. Shape (batch..., slice
    sizes...); None when some slice is neither."""
    rank = operand.ndim
    if not all(s in (1, n) for s, n in zip(slice_sizes, operand.shape)):
        return None
    points = [d for d in range(rank) if slice_sizes[d] == 1 and operand.shape[d] != 1]
    if not points:  # (every batch position takes the whole operand)
        return None
    whole = [d for d in range(rank) if d not in points]
    picked = operand.transpose([*points, *whole])[tuple(starts[..., d] for d in points)]
    return picked.reshape((*starts.shape[:-1], *slice_sizes))


def _windows_at(operand: np.ndarray, starts: np.ndarray, slice_sizes: Sequence[int]) -> np.ndarray:
    """The slices of `slice_sizes` at every start, by indexing each element: (batch..., slice
    sizes...)."""
    rank = operand.ndim
    batch_shape = starts.shape[:-1]
    nb = len(batch_shape)
    index = []
    for d in range(rank):
        view = [1] * (nb + rank)
        view[nb + d] = slice_sizes[d]
        index.append(
            starts[..., d].reshape(*batch_shape, *[1] * rank) + np.arange(slice_sizes[d]).reshape(view)
        )
    return operand[tuple(index)]  # type: ignore[no-any-return]
