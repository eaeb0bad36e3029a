"""Float max/min reduces in the way of XLA:CPU's vectorized reduce kernel. XLA:CPU (jaxlib
0.10.2) hands an f32/f64 reduce whose reducer is a plain maximum or minimum to YNNPACK, as it
does sums (hlo.numerics.vector_sum), when the operand or the result has at least 4096 elements.
That kernel compares with the CPU's max/min instructions, which are not NaN-propagating and do
not order -0 below +0: `step(a, b)` is `a if a > b else b` for max (`a < b` for min), so a NaN
or a tie of zeros gives `b`. The rule below was read off XLA:CPU's results
(tests/golden/ops/exact_vector_extremes.npz, made by tools/make_exactness_fixtures.py, family
vector_extremes) for reductions over the trailing dimensions:

- per result, the reduced elements (row-major) are cut into vectors of W lanes (64 bytes: 16
  f32 or 8 f64), the last one padded with -inf for max (+inf for min);
- each lane folds its elements in order from the first: `acc = step(acc, x)`. A NaN becomes the
  lane's value and the next element of the lane replaces it (all the lane's earlier elements
  are lost); a tie of zeros takes the later one;
- the lanes are halved (lane i = step(lane i, lane i + W/2), ...) to one value, so a NaN
  survives only in the last lane;
- the result is `step(value, init)`: a NaN value gives the init value, a tie with it the init.
When at most 3 results are reduced and each has more than 128 KiB of elements, the elements
are first cut into chunks (as many whole slices of the first reduced dimension as fit in 128 KiB,
at least one; one element is such a slice when one dimension is reduced), each reduced to a
value as above, and the chunks' values are reduced again as one row.
Without NaN and zero results no tie or NaN can show: the plain NumPy extreme is taken then, the
rule only for the results that need it. Reduced dimensions that are not consecutive:
hlo.numerics.split_extreme; bf16/f16: `narrow_extreme`; columns: hlo.numerics.column_extreme.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .vector_sum import CHUNK_BYTES, MIN_ELEMENTS, SPLIT_RESULTS, VECTOR_BYTES, Flush, trailing


def applies(dtype: np.dtype, shape: Sequence[int], axes: Sequence[int]) -> bool:
    """Whether XLA:CPU runs this max/min reduce in the vector kernel (and it is modelled)."""
    sizes = trailing(dtype, shape, axes)
    return sizes is not None and max(sizes) >= MIN_ELEMENTS


def step(a: np.ndarray, b: np.ndarray, is_max: bool) -> np.ndarray:
    """The CPU's max/min instruction: `b` unless `a` is strictly beyond it (NaN and ties: `b`)."""
    return np.where(a > b, a, b) if is_max else np.where(a < b, a, b)


def vector_extreme(
    x: np.ndarray, init: np.ndarray, axes: Sequence[int], is_max: bool, flush: Flush
) -> np.ndarray:
    """Reduce the trailing `axes` of `x` (f32 or f64) by max or min, as the vector kernel does."""
    lead = x.shape[: x.ndim - len(axes)]
    rows = np.ascontiguousarray(x).reshape(int(np.prod(lead, dtype=np.int64)), -1)
    start = init.astype(x.dtype)
    plain = (np.maximum if is_max else np.minimum).reduce(rows, axis=1)
    if flush is not None:
        plain = flush(plain)
    # A NaN anywhere makes the plain extreme NaN; a zero extreme may hide a tie of signs
    odd = np.isnan(plain) | (plain == 0)
    if odd.any():
        picked = rows[odd] if flush is None else flush(rows[odd])
        split = rows.shape[0] <= SPLIT_RESULTS
        inner = int(np.prod(x.shape[x.ndim - len(axes) + 1 :], dtype=np.int64))
        plain[odd] = _reduce(picked, inner, split, is_max)
    result = step(plain, start, is_max)
    if flush is not None:
        result = flush(result)
    return result.astype(x.dtype, copy=False).reshape(lead)


def _reduce(rows: np.ndarray, inner: int, split: bool, is_max: bool) -> np.ndarray:
    """[results, n] -> [results] by the kernel's rule, through chunks when `split`."""
    n = rows.shape[1]
    chunk = CHUNK_BYTES // rows.dtype.itemsize
    if not split or n <= chunk:
        return row_values(rows, is_max)
    size = max(1, chunk // inner) * inner  # whole rows of the reduced dimensions but the first
    parts = [row_values(rows[:, i : i + size], is_max) for i in range(0, n, size)]
    return row_values(np.stack(parts, axis=1), is_max)


def row_values(rows: np.ndarray, is_max: bool) -> np.ndarray:
    """[results, n] -> [results]: lanes folded in order, then halved."""
    results, n = rows.shape
    lanes = VECTOR_BYTES // rows.dtype.itemsize
    vectors = -(-n // lanes)
    fill = -np.inf if is_max else np.inf
    if vectors * lanes != n:
        padded = np.full((results, vectors * lanes), fill, rows.dtype)
        padded[:, :n] = rows
        rows = padded
    v = rows.reshape(results, vectors, lanes)
    lane = _fold_lanes(v, is_max, fill)
    while lane.shape[1] > 1:
        half = lane.shape[1] // 2
        lane = step(lane[:, :half], lane[:, half:], is_max)
    return lane[:, 0]


def _fold_lanes(v: np.ndarray, is_max: bool, fill: float) -> np.ndarray:
    """[results, vectors, lanes] -> [results, lanes]: `acc = step(acc, x)` down each lane. Only
    the elements after a lane's last NaN count (NaN itself if that is the lane's last element),
    and of those the last one equal to their extreme (the sign of a tie of zeros)."""
    vectors = v.shape[1]
    nan = np.isnan(v)
    backwards = nan[:, ::-1, :]
    last_nan = np.where(backwards.any(axis=1), vectors - 1 - backwards.argmax(axis=1), -1)
    live = np.arange(vectors)[None, :, None] > last_nan[:, None, :]
    masked = np.where(live, v, fill)
    extreme = masked.max(axis=1) if is_max else masked.min(axis=1)
    equal = live & (v == extreme[:, None, :])
    last = vectors - 1 - equal[:, ::-1, :].argmax(axis=1)
    out = np.take_along_axis(v, last[:, None, :], axis=1)[:, 0, :]
    return np.where(last_nan == vectors - 1, v[:, -1, :], out)  # the NaN itself


def narrow_applies(dtype: np.dtype, size: int, results: int) -> bool:
    """Whether XLA:CPU hands a bf16/f16 max/min reduce to the vector kernel: at least 4096
    elements in the operand or the result, over any dimensions."""
    return dtype.itemsize == 2 and dtype.kind in "fV" and max(size, results) >= MIN_ELEMENTS


def narrow_extreme(x: np.ndarray, init: np.ndarray, axes: Sequence[int], is_max: bool) -> np.ndarray:
    """A bf16/f16 max/min reduce as the vector kernel does it: by the total order of the bits
    read as sign-magnitude integers (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), the
    init value included. So a positive NaN wins a max and loses a min, a negative NaN the
    reverse, and subnormals are kept (no flushing). Read off XLA:CPU's results (the
    vector_extremes fixtures); any order gives the same bits."""
    bits = x.view(np.uint16)
    key = _order_key(bits)
    kept = [d for d in range(x.ndim) if d not in axes]
    flat_key = np.transpose(key, [*kept, *axes]).reshape(int(np.prod([x.shape[d] for d in kept])), -1)
    flat_bits = np.transpose(bits, [*kept, *axes]).reshape(flat_key.shape)
    best = flat_key.argmax(axis=1) if is_max else flat_key.argmin(axis=1)
    rows = np.arange(flat_key.shape[0])
    value, value_key = flat_bits[rows, best], flat_key[rows, best]
    start = np.asarray(init).astype(x.dtype).reshape(1).view(np.uint16)
    start_key = _order_key(start)[0]
    wins = value_key > start_key if is_max else value_key < start_key  # a tie: the same bits
    out = np.where(wins, value, start[0])
    return out.view(x.dtype).reshape([x.shape[d] for d in kept])


def _order_key(bits: np.ndarray) -> np.ndarray:
    """uint16 float bits -> int32 keys in the total order above."""
    b = bits.astype(np.int32)
    return np.where(b & 0x8000, -(b & 0x7FFF) - 1, b)
