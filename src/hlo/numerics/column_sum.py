"""Column sums in the order of XLA:CPU's vectorized reduce kernel. When an f32/f64 add-reduce
of at least 4096 elements reduces dimensions that are not the trailing ones (the kept trailing
dimensions contiguous in memory: a column sum), XLA:CPU (jaxlib 0.10.2) hands it to YNNPACK's
kernel for strided reductions, which adds whole rows of columns at once. The order below was
read off XLA:CPU's results (tests/golden/ops/exact_column_sums.npz, made by
tools/make_exactness_fixtures.py, family column_sums; inputs where every grouping gives
different bits).

Per column, over the reduced rows (row-major over the reduced dimensions):
- with more than one thread in XLA:CPU's pool (vector_sum.tiled; with one, a single run of the
  kernel below over all the rows), the rows are cut into *chunks* of 128 KiB of the input
  (CHUNK_BYTES // (columns * itemsize) rows); each chunk is summed as below, and the chunks'
  sums, as rows, are summed again by the kernel below, without cutting them again (one chunk:
  its sum). When a single row is larger than a chunk, the rows are instead added one by one to
  the init value, in order;
- within a chunk, a *group* is 4 consecutive rows summed in order from zero (the last group
  zero-padded), a *sub-block* 4 groups summed in order from zero, a *block* 256 rows: its 16
  sub-blocks summed in order from zero;
- the blocks are joined with Kahan's compensation (y = b - c, t = s + y, c = (t - s) - y), the
  last, partial block (its full sub-blocks, then its remaining groups summed from zero, added
  last) coming in as the final step `s + (tail - c)` (with no partial block: `s - c`).
A chunk of at most 4 rows is a single group. The init value is otherwise added last, as in
hlo.numerics.vector_sum; so are non-finite lanes handled. The lanes are the columns themselves,
so the order does not depend on the vector width (XLA:CPU limited to AVX2 or SSE4.2 gives the
same bits).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .vector_sum import CHUNK_BYTES, MIN_ELEMENTS, Flush, _add, _chains, _sub, kahan, tiled

GROUP = 4  # rows
BLOCK = 256  # rows: 16 sub-blocks of 4 groups
SLAB_BYTES = 4 << 20  # of input per pass of the first kernel runs (see _slabs)


def applies(dtype: np.dtype, shape: Sequence[int], axes: Sequence[int]) -> bool:
    """Whether this add-reduce is a column sum XLA:CPU runs in the strided kernel's order: f32
    or f64, the reduced dimensions consecutive and followed by at least one kept dimension."""
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or not axes:
        return False
    axes = sorted(axes)
    if axes != list(range(axes[0], axes[-1] + 1)) or axes[-1] == len(shape) - 1:
        return False
    if int(np.prod(shape[axes[-1] + 1 :], dtype=np.int64)) == 1:
        return False  # one column: XLA:CPU drops dimensions of size 1, a trailing sum then
    size = int(np.prod(shape, dtype=np.int64))
    results = size // max(int(np.prod([shape[d] for d in axes], dtype=np.int64)), 1)
    return max(size, results) >= MIN_ELEMENTS


def column_sum(x: np.ndarray, init: np.ndarray, axes: Sequence[int], flush: Flush) -> np.ndarray:
    """Sum the consecutive, non-trailing `axes` of `x` (f32 or f64) and add `init`."""
    first, last = min(axes), max(axes)
    lead, trail = x.shape[:first], x.shape[last + 1 :]
    cols = int(np.prod(trail, dtype=np.int64))
    work = np.ascontiguousarray(x).reshape(int(np.prod(lead, dtype=np.int64)), -1, cols)
    if flush is not None:
        work = flush(work)
    if not tiled():  # one kernel run over every row (XLA:CPU with one thread)
        total = init.astype(x.dtype) + (_kernel(work, flush) + x.dtype.type(0))
    elif cols * x.dtype.itemsize > CHUNK_BYTES:  # a row per chunk, each added to the result
        total = np.broadcast_to(init.astype(x.dtype) + x.dtype.type(0), (work.shape[0], cols))
        for k in range(work.shape[1]):
            total = _add(total, work[:, k], flush)
    else:
        sums = _chunked(work, flush)
        total = init.astype(x.dtype) + (sums + x.dtype.type(0))  # + 0: the kernel's zero start
    if flush is not None:
        total = flush(total)
    return total.astype(x.dtype, copy=False).reshape(lead + trail)


def _chunked(x: np.ndarray, flush: Flush) -> np.ndarray:
    """[slices, rows, cols] -> [slices, cols], through chunks of CHUNK_BYTES of rows. The chunks'
    sums go into the next kernel run's sub-block sums a slab at a time (that run adds them 16 at
    a time in order from zero, whatever comes before or after): a [4096, 4096] sum held its 512
    chunk sums (8 MB) for a 16 KB result, now their 32 sub-block sums (512 KB)."""
    slices, rows, cols = x.shape
    per = CHUNK_BYTES // (cols * x.dtype.itemsize)
    if rows <= per:
        return _kernel(x, flush)
    full = rows // per
    sub = GROUP * GROUP
    streamed = full // sub * sub if full + (rows > full * per) > GROUP else 0  # (few: one group)
    subs = np.empty((slices, streamed // sub, cols), x.dtype)
    step = -(-max(1, SLAB_BYTES // (per * cols * x.dtype.itemsize)) // sub) * sub
    for a in range(0, streamed, step):
        b = min(streamed, a + step)
        sums = _sums(x[:, a * per : b * per].reshape(slices * (b - a), per, cols), flush)
        grouped = _groups(sums.reshape(slices, b - a, cols), flush).reshape(
            slices, (b - a) // sub, GROUP, cols
        )
        subs[:, a // sub : b // sub] = _chains(grouped, flush)
        del sums, grouped
    rest = [_sums(x[:, streamed * per : full * per].reshape(-1, per, cols), flush).reshape(slices, -1, cols)]
    if rows > full * per:
        rest.append(_kernel(x[:, full * per :], flush)[:, None])
    parts = np.concatenate(rest, axis=1)
    if not streamed:
        return _kernel(parts, flush)
    return _join(subs, parts, flush)


def _sums(chunks: np.ndarray, flush: Flush) -> np.ndarray:
    """[chunks, per, cols] -> [chunks, cols]: each chunk's kernel run."""
    if flush is None and chunks.shape[1] < BLOCK and len(chunks):
        return _slabs(chunks)
    return _kernel(chunks, flush)


def _slabs(x: np.ndarray) -> np.ndarray:
    """[chunks, rows < BLOCK, cols] -> [chunks, cols], the chunks' sums when the next kernel
    run sums them again (CPU flushing or none). That run starts from zero, so the sign of a zero
    chunk sum cannot show (0 + -0 is +0) and the kernel's `+ 0` steps are left out; the chunks
    go SLAB at a time so that the temporaries stay in the cache and are reused: 3x faster on
    [4096, 4096] than whole-array passes, same bits."""
    chunks, rows, cols = x.shape
    out = np.empty((chunks, cols), x.dtype)
    step = max(1, SLAB_BYTES // max(rows * cols * x.dtype.itemsize, 1))
    for a in range(0, chunks, step):
        _signless(x[a : a + step], out[a : a + step])
    return out


def _signless(x: np.ndarray, out: np.ndarray) -> None:
    """`_kernel(x, None)` for fewer than BLOCK rows, up to the sign of a zero, into `out`."""
    rows = x.shape[1]
    whole = rows // (GROUP * GROUP)
    parts = []
    if whole:
        subs = _chains(_groups(x[:, : whole * GROUP * GROUP], None).reshape(len(x), whole, GROUP, -1), None)
        parts.append(subs)
    if rows > whole * GROUP * GROUP:
        parts.append(_groups(x[:, whole * GROUP * GROUP :], None))
    first = True
    for p in parts:  # the sub-blocks in order, then the remaining groups in order, then joined
        acc = p[:, 0]
        for k in range(1, p.shape[1]):
            acc = acc + p[:, k]
        if first:
            np.copyto(out, acc)
            first = False
        else:
            np.add(out, acc, out=out)


def _groups(x: np.ndarray, flush: Flush) -> np.ndarray:
    """[s, rows, cols] -> [s, ceil(rows / 4), cols]: groups of 4 rows, the last zero-padded."""
    s, rows, cols = x.shape
    count = -(-rows // GROUP)
    if count * GROUP != rows:
        padded = np.zeros((s, count * GROUP, cols), x.dtype)
        padded[:, :rows] = x
        x = padded
    return _chains(x.reshape(s, count, GROUP, cols), flush)


def _in_order(parts: np.ndarray, flush: Flush) -> np.ndarray:
    """[..., k, cols] -> [..., cols]: summed one after the other from zero."""
    acc = _add(parts[..., 0, :], parts.dtype.type(0), flush)  # 0 + p is p + 0
    for k in range(1, parts.shape[-2]):
        acc = _add(acc, parts[..., k, :], flush)
    return acc


def _kernel(x: np.ndarray, flush: Flush) -> np.ndarray:
    """[s, rows, cols] -> [s, cols]: one kernel run per slice."""
    s, rows, cols = x.shape
    if rows <= GROUP:
        return _groups(x, flush)[:, 0]
    whole = rows // (GROUP * GROUP)
    subs = _chains(_groups(x[:, : whole * GROUP * GROUP], flush).reshape(s, whole, GROUP, cols), flush)
    return _join(subs, x[:, whole * GROUP * GROUP :], flush)


def _join(subs: np.ndarray, rest: np.ndarray, flush: Flush) -> np.ndarray:
    """The end of a kernel run of more than GROUP rows, from its sub-block sums [s, n, cols]
    and the rows after them [s, r, cols]."""
    if rest.shape[1] >= GROUP * GROUP:  # (whole sub-blocks among the rows after)
        more = rest.shape[1] // (GROUP * GROUP) * GROUP * GROUP
        extra = _chains(_groups(rest[:, :more], flush).reshape(len(rest), -1, GROUP, rest.shape[2]), flush)
        subs, rest = np.concatenate([subs, extra], axis=1), rest[:, more:]
    s, n, cols = subs.shape
    per_block = BLOCK // (GROUP * GROUP)
    count = n // per_block
    zeros = np.zeros((s, cols), subs.dtype)
    total, c, plain = zeros, zeros, zeros
    if count:
        blocks = _in_order(subs[:, : count * per_block].reshape(s, count, per_block, cols), flush)
        total, c, plain = kahan(blocks, zeros, flush)  # column by column
    tail = zeros
    if n > count * per_block:
        tail = _in_order(subs[:, count * per_block :], flush)
    if rest.shape[1]:
        tail = _add(tail, _in_order(_groups(rest, flush), flush), flush)
    if not count:  # no compensation yet: 0 + (tail - 0) is tail + 0, in one pass
        return _add(tail, subs.dtype.type(0), flush)
    result = _add(total, _sub(tail, c, flush), flush)
    bad = ~np.isfinite(result)
    if bad.any():  # inf - inf in the compensation: XLA:CPU keeps the plain sum's inf or NaN
        result = np.where(bad, _add(plain, tail, flush), result)
    return result
