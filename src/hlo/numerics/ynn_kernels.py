"""YNNPACK's matrix-product kernels for f32 and f64 on x86-64 and how it picks one: XLA:CPU
runs most f32/f64 dots on YNNPACK (hlo.numerics.ynn_dot), and the kernel it picks decides how
many sums each result is split into (the kernel's `tile_k`) and whether its products are FMAs.

The table lists, for each kernel, its tile (the registers: rows, columns, contracted elements
of one step) and the blocks it is instantiated for, as YNNPACK's kernel list does (read from
the XNNPACK sources bundled with jaxlib 0.10.2; every f32/f64 kernel name in jaxlib's binary
is here). YNNPACK compares kernels by its cost estimate, in f32 arithmetic, and keeps the first
of equal ones: `select`."""

from __future__ import annotations

import functools
import math
import platform
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

# instruction sets, best first, and the Linux CPU flags each needs
ARCHES = {
    "avx512": ("avx512f",),
    "fma3": ("avx2", "fma"),
    "avx2_fma3": ("avx2", "fma"),
    "avx": ("avx",),
    "avx2": ("avx2",),
    "sse2": ("sse2",),
    "none": (),
}
PORTABLE = "none"  # the reference kernel, which YNNPACK's cost model charges 100x


@dataclass(frozen=True)
class Kernel:
    arch: str
    block: tuple[int, int, int]  # rows, columns, contracted elements of one call's block
    tile: tuple[int, int, int]  # the same of one step of its inner loop
    unaligned_b: bool  # runs on a matrix that is not packed (columns in any count)
    fused: bool  # FMAs; else each product rounded before its add

    @property
    def tile_k(self) -> int:
        """How many running sums each result has: product k goes to sum k mod tile_k."""
        return self.tile[2]

    def cost(self, m: int, n: int, k: int) -> np.float32:
        """YNNPACK's estimate for an [m, k] x [k, n] product (its estimate_dot_cost: f32
        arithmetic, the load counts integers)."""
        f = np.float32
        (bm, bn, bk), (tm, tn, tk) = self.block, self.tile
        blocks = f(f(f(math.ceil(m / bm)) * f(math.ceil(n / bn))) * f(math.ceil(k / bk)))
        loads = (bm * bk // (tm * tk)) * 5 + (bn * bk // (tn * tk)) * 11 + 9
        block_cost = f(f(loads) + f(f(tm * tn * tk) * f(1e-4)))
        cost = f(blocks * block_cost)
        return f(cost * f(100)) if self.arch == PORTABLE else cost


def _kernels(
    arch: str, tile: tuple[int, int, int], blocks: Iterable[tuple[int, int]], unaligned_b: bool, fused: bool
) -> list[Kernel]:
    return [Kernel(arch, (m, n, tile[2]), tile, unaligned_b, fused) for m, n in blocks]


def _rows(rows: Iterable[int], cols: int) -> list[tuple[int, int]]:
    return [(r, cols) for r in rows]


_K2_BLOCKS = [(1, 16), (2, 16), (1, 8), (3, 8), (4, 8), (5, 8), (6, 8), (4, 4), (5, 4), (6, 4), (8, 4)]
_K4_BLOCKS = [(1, 32), (2, 32), (1, 16), (3, 16), (4, 16), (5, 16), (2, 8), (4, 8), (6, 8), (4, 4), (8, 4)]
_SSE_BLOCKS = [(1, 16), (2, 16), (3, 16), (1, 8), (2, 8), (3, 8), (4, 8), (4, 4), (6, 4), (8, 4)]
_AVX_BLOCKS = [(1, 32), (2, 32), (1, 16), (2, 16), (3, 16), (4, 16), (4, 8), (6, 8), (8, 8)]
F32 = [
    *_kernels("avx512", (1, 16, 1), _rows(range(1, 6), 64) + _rows(range(1, 6), 32) + [(5, 16)], True, True),
    *_kernels("avx512", (1, 8, 2), _rows(range(1, 6), 32) + [(1, 16), (4, 16), (4, 8), (8, 8)], False, True),
    *_kernels("avx512", (1, 4, 4), _K4_BLOCKS, False, True),
    *_kernels("fma3", (1, 8, 1), [(1, 32), (2, 32)] + _rows(range(1, 7), 16) + [(8, 8)], True, True),
    *_kernels("avx2_fma3", (1, 4, 2), _K2_BLOCKS, False, True),
    *_kernels("avx", (1, 8, 1), _AVX_BLOCKS, True, False),
    *_kernels("avx2", (1, 4, 2), _K2_BLOCKS, False, False),
    *_kernels("sse2", (1, 4, 1), _SSE_BLOCKS, False, False),
    Kernel(PORTABLE, (1, 128, 1), (1, 1, 1), False, False),
]
_F64_AVX_BLOCKS = [(1, 16), (2, 16), *_rows(range(1, 5), 8), (4, 4), (6, 4), (8, 4)]
F64 = [
    *_kernels("avx512", (1, 8, 1), _rows(range(1, 6), 32) + _rows(range(1, 6), 16) + [(5, 8)], True, True),
    *_kernels("fma3", (1, 4, 1), [(1, 16), (2, 16)] + _rows(range(1, 7), 8) + [(8, 4)], True, True),
    *_kernels("avx", (1, 4, 1), _F64_AVX_BLOCKS, True, False),
    Kernel(PORTABLE, (1, 128, 1), (1, 1, 1), False, False),
]


def table(dtype: np.dtype, arches: frozenset[str]) -> list[Kernel]:
    """The kernels for `dtype` (f32, f64) this CPU runs, in YNNPACK's order."""
    kernels = F32 if dtype == np.float32 else F64
    return [kernel for kernel in kernels if kernel.arch in arches]


def select(
    kernels: list[Kernel],
    m: int,
    n: int,
    k: int,
    tile_k: int | None = None,
    packed_columns: int | None = None,
    unaligned_b: bool = False,
) -> tuple[Kernel, np.float32]:
    """The cheapest kernel for an [m, k] x [k, n] product and its cost (the first of equal
    ones), among those with `tile_k` sums a result, whose tile fits a matrix packed in blocks
    of `packed_columns` columns, or, with `unaligned_b`, that run on an unpacked matrix."""
    best: Kernel | None = None
    best_cost = np.float32(np.inf)
    for kernel in kernels:
        if tile_k is not None and kernel.tile_k != tile_k:
            continue
        if unaligned_b and not kernel.unaligned_b:
            continue
        if packed_columns is not None and not kernel.unaligned_b and packed_columns % kernel.tile[1]:
            continue
        cost = kernel.cost(m, n, k)
        if cost < best_cost:
            best, best_cost = kernel, cost
    if best is None:
        raise ValueError(f"no YNNPACK kernel for [{m}, {k}] x [{k}, {n}]")
    return best, best_cost


@functools.cache
def host_arches() -> frozenset[str] | None:
    """The instruction sets YNNPACK's kernels use on this CPU; None off x86-64 Linux (other
    CPUs run other kernels, not modelled)."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None
    from .native_image import cpu_flags

    flags = cpu_flags()
    return frozenset(arch for arch, needs in ARCHES.items() if set(needs) <= flags)
