"""numba kernels for the compiled-tier candidates of benchmarks/bench_tiers.py: each stands for
one slow workload of the speed issue, written as a compiled tier would emit it (f32 arithmetic
throughout, XLA's order of accumulation kept where it decides the bits). `cache=True` so that a
second process loads them from numba's on-disk cache (NUMBA_CACHE_DIR)."""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import prange

F = np.float32
TINY = F(np.finfo(np.float32).tiny)


@numba.njit(cache=True)
def noop(x: np.ndarray) -> float:
    """Nothing: its first call in a process measures numba's own start (codegen, cache index)."""
    return x[0]


@numba.njit(cache=True)
def while_loop(v: np.ndarray, w: np.ndarray, steps: int) -> np.ndarray:
    """fori_loop(0, steps, v * w + sin(v) * 0.01): the whole loop as one function."""
    v = v.copy()
    c = F(0.01)
    for _ in range(steps):
        for j in range(v.size):
            v[j] = v[j] * w[j] + F(math.sin(v[j])) * c
    return v


@numba.njit(parallel=True, cache=True)
def chain12(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    """The 12-op chain of workloads.chain12 fused into one parallel loop, no temporaries."""
    for i in prange(x.size):
        a = x[i] * F(1.5) + y[i]
        b = F(math.tanh(a)) - x[i]
        c = F(math.exp(-abs(b)))
        d = max(c, y[i]) * F(0.25)
        out[i] = F(math.sqrt(d * d + F(1.0))) / (c + F(2.0))


@numba.njit(parallel=True, cache=True)
def chain12_flushed(x: np.ndarray, y: np.ndarray, out: np.ndarray) -> None:
    """chain12 with FTZ/DAZ done inside the kernel: inputs and every intermediate flushed."""
    for i in prange(x.size):
        xi, yi = x[i], y[i]
        xi = xi if abs(xi) >= TINY else xi * F(0)
        yi = yi if abs(yi) >= TINY else yi * F(0)
        a = xi * F(1.5) + yi
        a = a if abs(a) >= TINY else a * F(0)
        b = F(math.tanh(a)) - xi
        b = b if abs(b) >= TINY else b * F(0)
        c = F(math.exp(-abs(b)))
        c = c if abs(c) >= TINY else c * F(0)
        d = max(c, yi) * F(0.25)
        d = d if abs(d) >= TINY else d * F(0)
        r = F(math.sqrt(d * d + F(1.0))) / (c + F(2.0))
        out[i] = r if abs(r) >= TINY else r * F(0)


@numba.njit(parallel=True, cache=True)
def max_pool(x: np.ndarray, out: np.ndarray) -> None:
    """3x3 window, stride 2, padding 0 before and 1 after (SAME for 56 -> 28), init -inf;
    NaN propagates as XLA's maximum does."""
    n, c, h, w = x.shape
    oh, ow = out.shape[2], out.shape[3]
    for p in prange(n * c):
        b, ch = p // c, p % c
        for i in range(oh):
            for j in range(ow):
                m = -np.inf
                for di in range(3):
                    r = 2 * i + di
                    if r >= h:
                        continue
                    for dj in range(3):
                        s = 2 * j + dj
                        if s < w:
                            v = x[b, ch, r, s]
                            if v > m or v != v:
                                m = v
                out[b, ch, i, j] = m


@numba.njit(parallel=True, cache=True)
def select_and_scatter(x: np.ndarray, g: np.ndarray, out: np.ndarray) -> None:
    """The max-pool gradient: per window the first position whose value no later one beats
    (select = ge keeps the current), then source values added in window order (row-major), as
    XLA does; planes are independent, so they run in parallel without changing the order."""
    n, c, h, w = x.shape
    oh, ow = g.shape[2], g.shape[3]
    for p in prange(n * c):
        b, ch = p // c, p % c
        for r in range(h):
            for s in range(w):
                out[b, ch, r, s] = 0
        for i in range(oh):
            for j in range(ow):
                br, bs = -1, -1
                best = F(0)
                for di in range(3):
                    r = 2 * i + di
                    if r >= h:
                        continue
                    for dj in range(3):
                        s = 2 * j + dj
                        if s >= w:
                            continue
                        v = x[b, ch, r, s]
                        if br < 0 or not (best >= v):
                            br, bs, best = r, s, v
                out[b, ch, br, bs] += g[b, ch, i, j]


@numba.njit(parallel=True, cache=True)
def scatter_add(ids: np.ndarray, updates: np.ndarray, out: np.ndarray) -> None:
    """out[ids[k]] += updates[k] in the order of k; out-of-range ids skipped (XLA's rule).
    Parallel over blocks of columns: every column still sees its updates in order."""
    rows, cols = out.shape
    out[:] = 0
    block = 32
    for cb in prange((cols + block - 1) // block):
        lo, hi = cb * block, min(cols, cb * block + block)
        for k in range(ids.size):
            i = ids[k]
            if 0 <= i < rows:
                for j in range(lo, hi):
                    out[i, j] += updates[k, j]


@numba.njit(parallel=True, cache=True)
def top_k(x: np.ndarray, k: int, values: np.ndarray, indices: np.ndarray) -> None:
    """Per row the k largest, largest first, ties to the lower index (an insertion into a sorted
    buffer of k; most elements fail the first comparison)."""
    rows, n = x.shape
    for r in prange(rows):
        vals = np.empty(k, x.dtype)
        idx = np.empty(k, np.int32)
        count = 0
        for j in range(n):
            v = x[r, j]
            if count == k and not (v > vals[k - 1]):
                continue
            pos = count if count < k else k - 1
            while pos > 0 and v > vals[pos - 1]:
                if pos < k:
                    vals[pos] = vals[pos - 1]
                    idx[pos] = idx[pos - 1]
                pos -= 1
            vals[pos] = v
            idx[pos] = j
            if count < k:
                count += 1
        values[r, :] = vals
        indices[r, :] = idx


@numba.njit(parallel=True, cache=True)
def count_subnormal(x: np.ndarray) -> int:
    """How many values of a flat f32 array are subnormal: one read pass, no temporaries."""
    total = 0
    for i in prange(x.size):
        v = x[i]
        if v != 0 and abs(v) < TINY:
            total += 1
    return total


KERNELS = (
    "noop",
    "while_loop",
    "chain12",
    "chain12_flushed",
    "max_pool",
    "select_and_scatter",
    "scatter_add",
    "top_k",
    "count_subnormal",
    "bf16_fma",
)


@numba.njit(parallel=True, cache=True)
def bf16_fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, out: np.ndarray) -> None:
    """a * b + c on bf16 values held as their uint16 bits (numba has no bf16 type): per block,
    the operands widened to f32 in a uint32 scratch viewed as f32 (a bf16's bits are the top half
    of its f32's), the multiply and the add each rounded to bf16 as hlo does (to nearest even; a
    NaN stays a quiet NaN)."""
    block = 4096
    for blk in prange((a.size + block - 1) // block):
        lo = blk * block
        m = min(block, a.size - lo)
        x, y, z = np.empty(m, np.uint32), np.empty(m, np.uint32), np.empty(m, np.uint32)
        for j in range(m):
            x[j] = np.uint32(a[lo + j]) << 16
            y[j] = np.uint32(b[lo + j]) << 16
            z[j] = np.uint32(c[lo + j]) << 16
        xf, yf, zf = x.view(np.float32), y.view(np.float32), z.view(np.float32)
        for j in range(m):
            xf[j] = xf[j] * yf[j]
        _round_bf16(x)
        for j in range(m):
            xf[j] = xf[j] + zf[j]
        _round_bf16(x)
        for j in range(m):
            out[lo + j] = np.uint16(x[j] >> 16)


@numba.njit(cache=True)
def _round_bf16(u: np.ndarray) -> None:
    """Round f32 bit patterns in place to the nearest bf16 (ties to even), low half cleared."""
    for j in range(u.size):
        v = u[j]
        if (v & 0x7FFFFFFF) > 0x7F800000:  # NaN: quiet, payload's top kept
            u[j] = (v | 0x400000) & 0xFFFF0000
        else:
            u[j] = (v + 0x7FFF + ((v >> 16) & 1)) & 0xFFFF0000
