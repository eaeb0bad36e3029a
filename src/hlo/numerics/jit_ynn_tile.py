"""One output tile of YNNPACK's product (hlo.numerics.ynn_dot) in numba code, for the compiled
loop tier: the same sums, in the same order, as the interpreter's, one result at a time.
Imported by generated code only (numba is installed then)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .jit_fma import fma_f32, fma_f64
from .jit_scalar import flush as _flush_py
from .jit_scalar import fma_nan_first as _fma_nan_py

_jit = njit(cache=False, error_model="numpy")
flush = _jit(_flush_py)
fma_nan_first = _jit(_fma_nan_py)


@_jit
def _step(x: Any, y: Any, s: Any, fused: bool, wide: bool, flushing: bool, tiny: Any) -> Any:
    if fused:
        r = fma_f64(x, y, s) if wide else fma_f32(x, y, s)
        r = fma_nan_first(r, x, y, s)
    else:
        p = x * y
        r = _add(s, flush(p, tiny) if flushing else p, flushing, tiny)
    return flush(r, tiny) if flushing else r


@_jit
def _add(x: Any, y: Any, flushing: bool, tiny: Any) -> Any:
    """x + y, x where it is NaN (the interpreter's rule: hlo.numerics.ynn_dot.add_first_nan)."""
    if x != x:
        return x
    r = x + y
    return flush(r, tiny) if flushing else r


@_jit
def tile(
    a: Any, b: Any, out: Any, a0: int, b0: int, o0: int, k: int, n: int,
    rows: tuple[int, int], cols: tuple[int, int], whole: int, step: int, tile_k: int,
    fused: bool, wide: bool, flushing: bool, tiny: Any,
) -> None:  # fmt: skip
    """out[i, j] for the tile's rows and columns: a [m, k] at a0, b [k, n] at b0, out [m, n]
    at o0 (flat arrays); chunks of `step` over the first `whole` products, then the rest
    padded to tile_k, each chunk's tile_k sums joined pairwise and added to the total."""
    sums = np.zeros(4, out.dtype)
    zero = sums[0]  # (+0 of out's type)
    for i in range(rows[0], rows[1]):
        for j in range(cols[0], cols[1]):
            total = zero
            first = True
            k0 = 0
            while k0 < k:
                k1 = min(whole, k0 + step) if k0 < whole else k
                length = ((k1 - k0 + tile_k - 1) // tile_k) * tile_k
                for r in range(tile_k):
                    sums[r] = zero
                for kk in range(k0, k0 + length):
                    x, y = zero, zero
                    if kk < k1:
                        x, y = a[a0 + i * k + kk], b[b0 + kk * n + j]
                    r = (kk - k0) % tile_k
                    sums[r] = _step(x, y, sums[r], fused, wide, flushing, tiny)
                s = sums[0]
                if tile_k == 2:
                    s = _add(sums[0], sums[1], flushing, tiny)
                elif tile_k == 4:
                    low = _add(sums[0], sums[1], flushing, tiny)
                    s = _add(low, _add(sums[2], sums[3], flushing, tiny), flushing, tiny)
                total = s if first else _add(s, total, flushing, tiny)
                first = False
                k0 = k1
            out[o0 + i * n + j] = total
