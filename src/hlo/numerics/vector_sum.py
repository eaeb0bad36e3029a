"""Float sums in the order of XLA:CPU's vectorized reduce kernel. XLA:CPU (jaxlib 0.10.2) hands a
reduce to its YNNPACK library instead of its tree rewrite (hlo.numerics.tree_reduce) when the
reducer is a plain add of f32 or f64 and the operand or the result has at least 4096 elements.
The order below was read off XLA:CPU's results (tests/golden/ops/exact_vector_sums.npz, made by
tools/make_exactness_fixtures.py; inputs where every grouping gives different bits) for
reductions over the trailing dimensions; column sums follow hlo.numerics.column_sum; the
others (reduced dimensions not consecutive, and several reduced dimensions long enough to be
cut into chunks) keep the tree order, which is then not XLA:CPU's. Measured on x86-64 with
AVX-512; the vector is 64 bytes wide (16 f32 or 8 f64 lanes) whatever the host's vector
extensions (YNNPACK's float sums are written to give the same bits everywhere; XLA:CPU limited
to AVX2 or SSE4.2 gives the same bits, see the fixture's `isa` and `same_under` notes).

Per result, the reduced elements (row-major) are cut into vectors of W lanes:
- a *chain* is 4 consecutive vectors summed in order, a *sub-block* 4 chains summed in order;
- a *block* is 1024 elements: its sub-blocks summed in order from zero;
- the blocks of a result are summed lane by lane with Kahan's compensation (y = b - c,
  t = s + y, c = (t - s) - y); the last, partial block (the full sub-blocks, then its chains
  one by one, the last chain zero-padded) comes in as the final step `s + (tail - c)`
  (with no partial block: `s - c`);
- the W lanes are then halved (lane i + lane i + W/2, ...) to one value.
When at most 3 results are reduced (and XLA:CPU has more than one thread, `tiled`), the
elements are first cut into chunks of 128 KiB, each reduced as above, and the vector of chunk
results is reduced again the same way. The init value is added last (an init of zero is not
added at all: the result of all-zero input is +0).
Non-finite lanes take the plain sum of the same terms: XLA:CPU gives inf where the compensated
steps would make inf - inf.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from . import threads

MIN_ELEMENTS = 4096  # below this XLA:CPU keeps the reduce to itself
VECTOR_BYTES = 64
BLOCK = 1024  # elements
CHUNK_BYTES = 128 << 10
SPLIT_RESULTS = 3  # up to this many results, long reductions are cut into chunks first
SPLIT_ELEMENTS = 1 << 20  # from this many elements a sum's rows (or chunks) are split between cores

Flush = Callable[[np.ndarray], np.ndarray] | None


def tiled() -> bool:
    """Whether XLA:CPU cuts long sums into 128 KiB tiles (chunks), each its own kernel run: with
    more than one thread in its pool (seen on 2; a process pinned to one core cuts none, each
    result is one kernel run: tests/golden/ops/exact_one_thread_sums.npz)."""
    return threads.xla_threads() > 1


def trailing(dtype: np.dtype, shape: Sequence[int], axes: Sequence[int]) -> tuple[int, int] | None:
    """(elements, results) of an f32/f64 reduce over trailing dimensions; None for any other."""
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)) or not axes:
        return None
    rank = len(shape)
    if sorted(axes) != list(range(rank - len(axes), rank)):
        return None  # reductions over leading or inner dimensions
    return int(np.prod(shape, dtype=np.int64)), int(np.prod(shape[: rank - len(axes)], dtype=np.int64))


def applies(dtype: np.dtype, shape: Sequence[int], axes: Sequence[int]) -> bool:
    """Whether XLA:CPU runs this add-reduce in the vector kernel's order (and it is modelled)."""
    sizes = trailing(dtype, shape, axes)
    if sizes is None:
        return False
    size, results = sizes
    long = size // max(results, 1) > CHUNK_BYTES // dtype.itemsize
    if len(axes) > 1 and results <= SPLIT_RESULTS and long and tiled():
        return False  # several reduced dimensions cut into chunks: XLA:CPU cuts them otherwise
    return max(size, results) >= MIN_ELEMENTS


def vector_sum(x: np.ndarray, init: np.ndarray, axes: Sequence[int], flush: Flush) -> np.ndarray:
    """Sum the trailing `axes` of `x` (f32 or f64) and add `init`, in the vector kernel's order."""
    lead = x.shape[: x.ndim - len(axes)]
    rows = np.ascontiguousarray(x).reshape(int(np.prod(lead, dtype=np.int64)), -1)
    if flush is not None:
        rows = flush(rows)
    sums = _reduce(rows, rows.shape[0] <= SPLIT_RESULTS and tiled(), flush)
    zero = x.dtype.type(0)
    total = init.astype(x.dtype) + (sums + zero)  # + 0 makes -0 partials +0, as the kernel's zero start
    if flush is not None:
        total = flush(total)
    return total.astype(x.dtype, copy=False).reshape(lead)


def _reduce(rows: np.ndarray, split: bool, flush: Flush) -> np.ndarray:
    """[results, n] -> [results]; with `split`, through chunks of CHUNK_BYTES."""
    results, n = rows.shape
    chunk = CHUNK_BYTES // rows.dtype.itemsize
    if not split or n <= chunk:
        return _kernel_on_cores(rows, flush)
    full = n // chunk
    parts = _kernel_on_cores(rows[:, : full * chunk].reshape(results * full, chunk), flush).reshape(
        results, full
    )
    if n > full * chunk:
        parts = np.concatenate([parts, _kernel(rows[:, full * chunk :], flush)[:, None]], axis=1)
    return _reduce(parts, split, flush)


def _kernel_on_cores(rows: np.ndarray, flush: Flush) -> np.ndarray:
    """`_kernel` of [results, n]: each row is its own kernel run, so a large one is split into
    ranges of rows, one per core this thread may use (NumPy lets go of the GIL in einsum)."""
    cores = min(threads.share(), rows.shape[0]) if rows.size >= SPLIT_ELEMENTS else 1
    if cores <= 1:
        return _kernel(rows, flush)
    out = np.empty(rows.shape[0], rows.dtype)

    def some(r0: int, r1: int) -> None:
        out[r0:r1] = _kernel(rows[r0:r1], flush)

    threads.split_rows(some, rows.shape[0], cores, ())
    return out


def _add(a: np.ndarray, b: np.ndarray, flush: Flush) -> np.ndarray:
    return a + b if flush is None else flush(a + b)


def _sub(a: np.ndarray, b: np.ndarray, flush: Flush) -> np.ndarray:
    return a - b if flush is None else flush(a - b)


def kahan(blocks: np.ndarray, zeros: np.ndarray, flush: Flush) -> tuple[np.ndarray, ...]:
    """The blocks ([results, count, ...]) joined by Kahan's compensated sum, block by block
    (sequential by nature, vectorized over the rest): the sum, its compensation, and the plain
    sum of the blocks (the result where the compensation meets inf - inf)."""
    s, c, plain = zeros, zeros, zeros
    for k in range(blocks.shape[1]):
        b = blocks[:, k]
        y = _sub(b, c, flush)
        t = _add(s, y, flush)
        c = _sub(_sub(t, s, flush), y, flush)
        s = t
        plain = _add(plain, b, flush)
    return s, c, plain


def _kernel(rows: np.ndarray, flush: Flush) -> np.ndarray:
    """[results, n] -> [results], one kernel run per result."""
    results, n = rows.shape
    width = VECTOR_BYTES // rows.dtype.itemsize
    count = n // BLOCK
    zeros = np.zeros((results, width), rows.dtype)
    s = c = plain = zeros
    if count:
        blocks = _full_blocks(rows[:, : count * BLOCK].reshape(results, count, BLOCK), width, flush)
        if count == 1 and n == BLOCK:
            # One block per row: the steps below give s = 0 + b and c = +0, or NaN where b is
            # not finite, then s + (0 - c), or there the plain 0 + b: b + 0 in every lane.
            return _halved(_add(blocks[:, 0], rows.dtype.type(0), flush), flush)
        s, c, plain = kahan(blocks, zeros, flush)
    tail = _partial_block(rows[:, count * BLOCK :], width, flush) if n > count * BLOCK else zeros
    lanes = _add(s, _sub(tail, c, flush), flush)
    bad = ~np.isfinite(lanes)
    if bad.any():  # inf - inf in the compensation: XLA:CPU keeps the plain sum's inf or NaN
        lanes = np.where(bad, _add(plain, tail, flush), lanes)
    return _halved(lanes, flush)


def _halved(lanes: np.ndarray, flush: Flush) -> np.ndarray:
    """[results, W] -> [results]: lane i + lane i + W/2, ..., to one value."""
    while lanes.shape[1] > 1:
        half = lanes.shape[1] // 2
        lanes = _add(lanes[:, :half], lanes[:, half:], flush)
    return lanes[:, 0]


def _chains(v: np.ndarray, flush: Flush) -> np.ndarray:
    """[..., 4, W] -> [..., W]: four vectors summed in order, from zero. einsum adds them one
    after the other into its zeroed output, vector by vector (its loop runs over the W
    contiguous lanes, so it never regroups the four): 4x faster than four NumPy additions over
    64-byte pieces. Pinned by the fixtures."""
    if flush is None:
        return np.einsum("...kw->...w", v)
    acc = _add(v[..., 0, :], v[..., 1, :], flush)
    acc = _add(acc, v[..., 2, :], flush)
    return _add(acc, v[..., 3, :], flush)


_PAIRS = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


SLAB_ELEMENTS = 1 << 21  # of input per pass of _full_blocks


def _full_blocks(x: np.ndarray, width: int, flush: Flush) -> np.ndarray:
    """[results, count, BLOCK] -> [results, count, W]. Without software flushing, lanes are added
    two at a time as complex numbers (the same two IEEE additions, half the loop overhead: the
    vectors of a chain lie W elements apart, so NumPy steps through 64-byte pieces). A slab of
    SLAB_ELEMENTS at a time (each block is its own sum: the same bits): the chains' sums, a
    quarter of the input, exist for one slab only (2.5 MB, not 20, for a sum over 16M f32)."""
    results, count, _ = x.shape
    if x.size > SLAB_ELEMENTS:
        out = np.empty((results, count, width), x.dtype)
        rows = SLAB_ELEMENTS // (count * BLOCK)
        if rows:
            for a in range(0, results, rows):
                out[a : a + rows] = _full_blocks(x[a : a + rows], width, flush)
        else:
            per = SLAB_ELEMENTS // BLOCK
            for r in range(results):
                for a in range(0, count, per):
                    out[r : r + 1, a : a + per] = _full_blocks(x[r : r + 1, a : a + per], width, flush)
        return out
    pairs = flush is None and x.flags.c_contiguous
    v = x.view(_PAIRS[x.dtype]) if pairs else x
    lanes = width // 2 if pairs else width
    subs = _chains(_chains(v.reshape(results, count, -1, 4, 4, lanes), flush), flush)
    block = subs[:, :, 0]
    for k in range(1, subs.shape[2]):
        block = _add(block, subs[:, :, k], flush)
    return block.view(x.dtype) if pairs else block


def _partial_block(x: np.ndarray, width: int, flush: Flush) -> np.ndarray:
    """[results, m < BLOCK] -> [results, W]: full sub-blocks, then the chains one by one."""
    results, m = x.shape
    sub = 16 * width
    whole = m // sub
    acc = np.zeros((results, width), x.dtype)
    if whole:
        subs = _chains(_chains(x[:, : whole * sub].reshape(results, whole, 4, 4, width), flush), flush)
        for k in range(whole):
            acc = _add(acc, subs[:, k], flush)
    rest = x[:, whole * sub :]
    if rest.shape[1]:
        chain = 4 * width
        count = -(-rest.shape[1] // chain)
        padded = np.zeros((results, count * chain), x.dtype)
        padded[:, : rest.shape[1]] = rest
        chains = _chains(padded.reshape(results, count, 4, width), flush)
        for k in range(count):
            acc = _add(acc, chains[:, k], flush)
    return acc
