"""How Eigen's tensor contraction on a thread pool splits a complex product (XLA:CPU's dot
thunk; hlo.numerics.complex_dot computes each piece): written from Eigen's
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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

PACKET = {np.dtype(np.complex64): 4, np.dtype(np.complex128): 2}
MR = {np.dtype(np.complex64): 8, np.dtype(np.complex128): 4}
NR = 4
PEEL = 8
L1, L2, L3 = 32 * 1024, 1024 * 1024, 320 * 1024 * 1024
LOAD = STORE = 11.0 / 64  # cycles a byte (TensorCostModel)
STARTUP = PER_THREAD = 100_000
K_CAP = 320  # the parallel branch's cap on k blocks
BY_K_FIXED, BY_K_PER_THREAD = 100_000, 3000  # cycles sharding by k costs


class _Traits(NamedTuple):
    packet: int
    mr: int
    size: int


Slices = list[tuple[int, int]]


def _traits(dtype: np.dtype) -> _Traits:
    return _Traits(PACKET[dtype], MR[dtype], dtype.itemsize)


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
    if by_col:
        bk, bm, bn = _parallel_blocking(t, k, m, n, 2)
    else:
        bk, bn, bm = _parallel_blocking(t, k, n, m, 2)
    cycles = bk * _bandwidth(t, bm, bn, bk) / t.packet
    loaded = t.size * bk / m if by_col else t.size * bk / n
    cost = _total(float(m) * n, loaded, t.size, cycles)
    return min(most, max(1, int((cost - STARTUP) / PER_THREAD + 0.9)))


def _threads_by_k(t: _Traits, m: int, n: int, k: int, most: int) -> int:
    cycles = _bandwidth(t, n, m, k) * m * n / t.packet  # (its tests with m and n swapped)
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


def schedule(dtype: np.dtype, m: int, n: int, k: int, most: int) -> Plan:
    """Eigen's plan for its m x n output (the dot's n x m) over k, with `most` threads."""
    t = _traits(dtype)
    if k == 0:
        return Plan([[]], None)
    threads = _threads(t, m, n, k, most)
    by_k = _threads_by_k(t, m, n, k, most)
    if _by_k(t, m, n, k, threads, by_k):
        block = min(k, max(12 * t.packet, _round_up(_cdiv(k, by_k), 8)))
        pieces = _split(0, k, block)
        parts = [_split(s, e, _parallel_blocking(t, e - s, m, n, len(pieces))[0]) for s, e in pieces]
        return Plan(parts, None)
    if n == 1 or threads == 1:
        return Plan([_split(0, k, _sequential_kc(t, k, m, n))], None)
    if _shard_by_col(m, n, threads):
        kc, rows, _ = _parallel_blocking(t, k, m, n, threads)
    else:  # the roles of m and n swapped: Eigen's rows in tiles of a multiple of nr only
        kc, _, rows = _parallel_blocking(t, k, n, m, threads)
    return Plan([_split(0, k, kc)], rows)


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
