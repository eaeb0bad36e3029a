"""How Eigen's tensor contraction on a thread pool splits a product: a complex dot (XLA:CPU's
dot thunk; hlo.numerics.complex_dot computes each piece) and an f32 convolution (XLA:CPU's
convolution thunk: the image's patches times the kernel, each kernel call oneDNN's sgemm;
hlo.numerics.conv_chains): written from Eigen's
TensorContractionThreadPool, TensorCostModel and GeneralBlockPanelKernel as compiled into
jaxlib 0.10.2 (an AVX build without FMA: 4 c64 or 2 c128 values a vector, kernels of mr = 8 / 4
rows and nr = 4 columns; caches as Eigen reads them on the x86-64 machine measured: L1 32 KiB,
L2 1 MiB, L3 320 MiB), and checked against XLA:CPU's results (exact_complex_dots.npz).

Eigen's cost model picks one of three paths:
- sequential (one thread): k in blocks of at most 336 (c64) / 248 (c128), balanced so that the
  last block is as large as possible, each added to the result in turn;
- parallel over output tiles: k in blocks of at most 320 / 248, not balanced; each kernel call
  takes a tile of Eigen's rows (the dot's columns), a multiple of mr, or only of nr where Eigen
  shards the output by row (its vectors then restart every such tile);
- sharded by k (small outputs with a long k): k cut into one slice per thread, each a product of
  its own (blocks of at most 320 / 248), the partial results then added: in twos with two
  threads, in Eigen's groups of four with more.

f32 (8 values a vector, mr = 16): Eigen's blocks refined for oneDNN (TensorContractionBlocking's
specialization: k cut into equal slices rounded up to 8, row and column blocks scaled to
oneDNN's unrolling), and oneDNN cuts a block of more than 384 into halves, each added to the
result in turn. A convolution's rhs is an image-patch expression whose index arithmetic Eigen's
cost model counts (`patch` cycles a coefficient), which moves the thread count and the choice
to shard by k (exact_conv_chains.npz).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

PACKET = {np.dtype(np.complex64): 4, np.dtype(np.complex128): 2, np.dtype(np.float32): 8}
MR = {np.dtype(np.complex64): 8, np.dtype(np.complex128): 4, np.dtype(np.float32): 16}
NR = 4
PEEL = 8
L1, L2, L3 = 32 * 1024, 1024 * 1024, 320 * 1024 * 1024
LOAD = STORE = 11.0 / 64  # cycles a byte (TensorCostModel)
STARTUP = PER_THREAD = 100_000
K_CAP = 320  # the parallel branch's cap on k blocks
BY_K_FIXED, BY_K_PER_THREAD = 100_000, 3000  # cycles sharding by k costs


DNNL_M, DNNL_N, DNNL_SCALE_M = 48, 24, 1.5  # oneDNN's unrolling, and Eigen's scale of its row blocks
DNNL_K = 384  # the longest k oneDNN's sgemm sums in one pass
# Eigen's cost of an image-patch coefficient's index: 3 int64 divisions (24 cycles each) and 14
# multiplies, over a vector of 8 (TensorImagePatchOp::costPerCoeff)
PATCH_CYCLES = (3 * 24 + 14) / 8


class _Traits(NamedTuple):
    packet: int
    mr: int
    size: int
    patch: float  # cycles the rhs's index arithmetic costs a coefficient
    dnnl: bool  # kernel calls are oneDNN's sgemm (f32)


Slices = list[tuple[int, int]]


def _traits(dtype: np.dtype, patch: float) -> _Traits:
    return _Traits(PACKET[dtype], MR[dtype], dtype.itemsize, patch, dtype == np.float32)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _round_up(x: int, step: int) -> int:
    return x + step - 1 - (x + step - 1) % step


def _k_limit(t: _Traits) -> int:
    """(L1 - mr*nr*size) / ((mr + nr) * size): the k a block of the kernel keeps in L1."""
    return (L1 - t.mr * NR * t.size) // ((t.mr + NR) * t.size)


def _parallel_blocking(t: _Traits, k: int, m: int, n: int, threads: int) -> tuple[int, int, int]:
    """Eigen's blocking sizes (kc, mc, nc) for more than one thread."""
    cache = max(8, min(_k_limit(t), K_CAP))
    if cache < k:
        k = cache - cache % 8
    n_cache = (L2 - L1) // (NR * t.size * k)
    per_thread = _cdiv(n, threads)
    n = n_cache - n_cache % NR if n_cache <= per_thread else min(n, _round_up(per_thread, NR))
    m_cache = (L3 - L2) // (t.size * k * threads)
    per_thread = _cdiv(m, threads)
    m = m_cache - m_cache % t.mr if t.mr <= m_cache < per_thread else min(m, _round_up(per_thread, t.mr))
    return k, m, n


def _blocking(t: _Traits, k: int, m: int, n: int, threads: int, by_col: bool) -> tuple[int, int, int]:
    """TensorContractionBlocking's (kc, mc, nc): Eigen's (computed with m and n swapped where
    the output is sharded by row), refined for oneDNN where it computes the blocks."""
    if threads == 1:
        kc, mc, nc = _sequential_kc(t, k, m, n), m, n
    elif by_col:
        kc, mc, nc = _parallel_blocking(t, k, m, n, threads)
    else:
        kc, nc, mc = _parallel_blocking(t, k, n, m, threads)
    if not t.dnnl:
        return kc, mc, nc
    mc = min(m, _round_up(int(mc * DNNL_SCALE_M), DNNL_M))
    nc = min(n, _round_up(nc, DNNL_N))
    slices = max(1, _cdiv(k, kc))
    return min(k, _round_up(k // slices, 8)), mc, nc


def _sequential_kc(t: _Traits, k: int, m: int, n: int) -> int:
    if max(k, m, n) < 48:
        return k
    most = max(_k_limit(t) & ~(PEEL - 1), 1)
    if k <= most:
        return k
    rest = k % most
    return most if rest == 0 else most - PEEL * ((most - 1 - rest) // (PEEL * (k // most + 1)))


def _bandwidth(t: _Traits, bm: int, bn: int, bk: int) -> float:
    if bk == 1:
        return 4.0
    return 2.0 if bm < NR or bn < t.mr else 1.0  # (0.5 with FMA; this build has none)


def _total(size: float, loaded: float, stored: float, cycles: float) -> float:
    return size * (LOAD * loaded + STORE * stored + cycles)


def _shard_by_col(m: int, n: int, threads: int) -> bool:
    if m // threads >= NR and (
        n // threads < NR
        or (n // threads < 4 * NR and n % (threads * NR) != 0 and (m % (threads * NR) == 0 or m // n >= 6))
    ):
        return False
    return not (n // threads < 16 * NR and m > n * 32)


def _threads(t: _Traits, m: int, n: int, k: int, most: int) -> int:
    """TensorCostModel's thread count for the output tiles."""
    by_col = _shard_by_col(m, n, 2)
    bk, bm, bn = _blocking(t, k, m, n, 2, by_col)
    cycles = bk * _bandwidth(t, bm, bn, bk) / t.packet + t.patch * bk / m
    loaded = t.size * bk / m if by_col else t.size * bk / n
    cost = _total(float(m) * n, loaded, t.size, cycles)
    return min(most, max(1, int((cost - STARTUP) / PER_THREAD + 0.9)))


def _threads_by_k(t: _Traits, m: int, n: int, k: int, most: int) -> int:
    cycles = _bandwidth(t, n, m, k) * m * n / t.packet + t.patch * n  # (its tests with m and n swapped)
    parallel = _total(k, t.size * n, t.size, cycles)
    reduction = _total(m * n, 2.0, 1.0, 1.0 / t.packet)
    best, least = 1, parallel
    for nt in range(2, most + 1, 2):
        cost = parallel / nt + BY_K_FIXED + nt * (reduction + BY_K_PER_THREAD)
        if cost < least:
            best, least = nt, cost
    return best


def _by_k(t: _Traits, m: int, n: int, k: int, threads: int, by_k: int) -> bool:
    if n == 1 or by_k < 2 or by_k < threads or m * n * t.size > L3 // by_k or k // by_k < 2 * NR:
        return False
    return max(m, n) // threads < NR or (k // by_k > 8 * NR and (min(m, n) < 2 * NR or by_k > threads))


def _split(start: int, stop: int, block: int) -> Slices:
    return [(s, min(s + block, stop)) for s in range(start, stop, max(block, 1))]


class Plan(NamedTuple):
    """`parts`: the partial products (added together at the end, see `combine`), each as the k
    slices it adds to its result in turn; `rows`: how many of Eigen's rows (the dot's columns)
    one kernel call takes (its vectors restart at each such tile), None for all."""

    parts: list[Slices]
    rows: int | None


def schedule(dtype: np.dtype, m: int, n: int, k: int, most: int, patch: float = 0.0) -> Plan:
    """Eigen's plan for its m x n output (the dot's n x m) over k, with `most` threads; `patch`:
    the cycles the rhs's index arithmetic costs a coefficient (PATCH_CYCLES for a convolution)."""
    t = _traits(dtype, patch)
    if k == 0:
        return Plan([[]], None)
    threads = _threads(t, m, n, k, most)
    by_k = _threads_by_k(t, m, n, k, most)
    if _by_k(t, m, n, k, threads, by_k):
        block = min(k, max(12 * t.packet, _round_up(_cdiv(k, by_k), 8)))
        pieces = _split(0, k, block)
        parts = [
            _kernel_calls(t, _split(s, e, _blocking(t, e - s, m, n, len(pieces), True)[0])) for s, e in pieces
        ]
        return Plan(parts, None)
    if n == 1 or threads == 1:
        return Plan([_kernel_calls(t, _split(0, k, _blocking(t, k, m, n, 1, True)[0]))], None)
    by_col = _shard_by_col(m, n, threads)
    kc, mc, _ = _blocking(t, k, m, n, threads, by_col)
    # (complex: Eigen's rows in tiles of a multiple of nr only where the output is sharded by row)
    return Plan([_kernel_calls(t, _split(0, k, kc))], mc)


def _kernel_calls(t: _Traits, slices: Slices) -> Slices:
    """The k slices the kernel adds to the result in turn: oneDNN halves a block of more than
    DNNL_K (rounded up first) and adds each half."""
    if not t.dnnl:
        return slices
    out: Slices = []
    for start, stop in slices:
        pieces = _cdiv(stop - start, DNNL_K)
        out += _split(start, stop, _cdiv(stop - start, pieces))
    return out


Add = Callable[[np.ndarray, np.ndarray], np.ndarray]


def combine(dtype: np.dtype, parts: list[np.ndarray], add: Add) -> np.ndarray:
    """The partial results ([batch, rows, cols]) of a product sharded by k added (with `add`) as
    Eigen adds them: in groups of four, (B0 + B1) + (B2 + B3) over the whole vectors of each
    flat result and B0 + ((B1 + B2) + B3) over the rest, a smaller last group in turn; then the
    groups' sums, three at a time, then one at a time."""
    packet = PACKET[dtype]

    def four(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
        out = add(add(a, b), add(c, d))
        flat, tail = out.reshape(len(out), -1), add(a, add(add(b, c), d)).reshape(len(out), -1)
        whole = flat.shape[1] // packet * packet
        flat[:, whole:] = tail[:, whole:]
        return out

    heads = []
    for g in range(0, len(parts), 4):
        group = parts[g : g + 4]
        if len(group) == 4:
            heads.append(four(*group))
        else:
            total = group[0]
            for p in group[1:]:
                total = add(total, p)
            heads.append(total)
    result, i = heads[0], 1
    while i + 2 < len(heads):
        result = four(result, heads[i], heads[i + 1], heads[i + 2])
        i += 3
    for h in heads[i:]:
        result = add(result, h)
    return result
