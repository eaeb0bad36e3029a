"""Column max/min reduces in the way of XLA:CPU's strided reduce kernel. An f32/f64 max or min
reduce of at least 4096 elements over consecutive dimensions followed by kept ones (where
hlo.numerics.column_sum applies to sums) goes to YNNPACK's strided kernel, which compares
whole rows of columns with the CPU's max/min instructions (hlo.numerics.vector_extreme.step:
NaN and ties of zeros give the second operand). The rule below was read off XLA:CPU's results
(tests/golden/ops/exact_vector_extremes.npz, family vector_extremes of
tools/make_exactness_fixtures.py). Per column, over the reduced rows (row-major):

- the rows are cut into chunks of 128 KiB of the input (as column_sum); each chunk is reduced
  as below, and the chunks' values, as rows, are reduced again the same way (one chunk: its
  value). When a single row is larger than a chunk, the rows instead come one by one into the
  init value: `acc = step(row, acc)`, from `acc = init`;
- within a chunk, a *group* is 4 consecutive rows folded in order, `g = step(g, x)` from the
  first (a NaN erases the group's earlier rows, a tie of zeros takes the later row); the last
  group, if partial, is padded with copies of its own first row;
- the groups' values are merged as `acc = step(g, acc)` from -inf (+inf for min): a NaN group
  is dropped, a tie keeps the earlier group;
- the result is `step(value, init)`, as for trailing reduces.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .vector_extreme import step
from .vector_sum import CHUNK_BYTES, Flush

GROUP = 4


def column_extreme(
    x: np.ndarray, init: np.ndarray, axes: Sequence[int], is_max: bool, flush: Flush
) -> np.ndarray:
    """Reduce the consecutive, non-trailing `axes` of `x` (f32 or f64) by max or min."""
    first, last = min(axes), max(axes)
    lead, trail = x.shape[:first], x.shape[last + 1 :]
    cols = int(np.prod(trail, dtype=np.int64))
    work = np.ascontiguousarray(x).reshape(int(np.prod(lead, dtype=np.int64)), -1, cols)
    start = init.astype(x.dtype)
    plain = (np.maximum if is_max else np.minimum).reduce(work, axis=1)
    if flush is not None:
        plain = flush(plain)
    odd = np.isnan(plain) | (plain == 0)  # where a NaN or a tie of zeros can show
    if odd.any():
        picked = work if flush is None else flush(work)
        per_chunk = CHUNK_BYTES // (cols * x.dtype.itemsize)
        if per_chunk == 0:  # a row per chunk, each into the result
            acc = np.broadcast_to(start, plain.shape)
            for k in range(picked.shape[1]):
                acc = step(picked[:, k], acc, is_max)
            plain = np.where(odd, acc, step(plain, start, is_max))
            return _finish(plain, flush, x.dtype, lead + trail)
        plain = np.where(odd, _chunked(picked, per_chunk, is_max), plain)
    return _finish(step(plain, start, is_max), flush, x.dtype, lead + trail)


def _finish(r: np.ndarray, flush: Flush, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    if flush is not None:
        r = flush(r)
    return r.astype(dtype, copy=False).reshape(shape)


def _chunked(work: np.ndarray, per_chunk: int, is_max: bool) -> np.ndarray:
    """[lead, rows, cols] -> [lead, cols]: chunks of rows, their values reduced again."""
    rows = work.shape[1]
    if rows <= per_chunk:
        return column_values(work, is_max)
    parts = [column_values(work[:, i : i + per_chunk], is_max) for i in range(0, rows, per_chunk)]
    return column_values(np.stack(parts, axis=1), is_max)


def column_values(work: np.ndarray, is_max: bool) -> np.ndarray:
    """[lead, rows, cols] -> [lead, cols]: groups of 4 rows folded, their values merged."""
    lead, rows, cols = work.shape
    groups = -(-rows // GROUP)
    if groups * GROUP != rows:
        padded = np.empty((lead, groups * GROUP, cols), work.dtype)
        padded[:, :rows] = work
        padded[:, rows:] = work[:, (groups - 1) * GROUP][:, None, :]  # the last group's first row
        work = padded
    quad = work.reshape(lead, groups, GROUP, cols)
    g = quad[:, :, 0]
    for k in range(1, GROUP):
        g = step(g, quad[:, :, k], is_max)
    # merged from -inf: NaN values dropped, a tie keeps the earliest group
    fill = -np.inf if is_max else np.inf
    kept = np.where(np.isnan(g), fill, g)
    extreme = kept.max(axis=1) if is_max else kept.min(axis=1)
    first = (kept == extreme[:, None, :]).argmax(axis=1)
    return np.take_along_axis(kept, first[:, None, :], axis=1)[:, 0, :]
