"""Small float sums whose rows XLA:CPU's code generator vectorizes as lanes.

XLA:CPU emits a reduce of fewer than 4096 elements whose reduced dimensions are all 32 or
shorter (longer ones go to its tree rewrite first, hlo.numerics.tree_reduce) as loops: over the
results, then over the reduced dimensions in row-major order, each add carrying LLVM's
`reassoc` flag. The loop over the reduced dimensions' last dimension (a row) is unrolled, and
LLVM's loop vectorizer may then take the loop over the dimension before it (the rows, `a`) as a
vector of `lanes` running sums: row r goes into lane r mod lanes, each row's elements in
order, the sum so far in lane 0 (the others start at -0), and after the vector loop the lanes
are halved (upper half onto the lower) to one; rows past the last whole round of lanes are
then added one by one. Reduced dimensions outside `a` stay loops around all this, each
starting from the sum so far.

Where its cost model takes the rows (measured on x86-64 with AVX-512, which prefers 256-bit
vectors: 8 f32 or 4 f64 lanes; ~2,500 random f32/f64 reduces of 2 to 4 dimensions,
tests/golden/ops/exact_reduce_lanes.npz):
- rows that are whole runs of consecutive elements (the reduced dimensions from `a` inwards
  are the operand's innermost, nothing kept between) of at most 8 elements: lanes of 8 for
  f32 rows of up to 6 elements, 4 for rows of 7 or 8 (f64: 4 and 2);
- rows of 2 elements whose loads lie a power of two of elements apart, both between and
  within rows, when the rows fill exactly one vector (2, 4 or 8 rows; f64: 2 or 4);
- fewer than 16 rows only when no row is left over after the lanes, the lanes no more than
  the largest power of two at most the rows and the widest vector (8 f32, 4 f64) dividing
  the rows: 8 f32 rows of 5 in 8 lanes, but 12 of them in order.
Not taken here (XLA:CPU sometimes vectorizes them): strided rows over 16 or more rows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .tree_reduce import WINDOW

_WIDEST = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}  # lanes of one 256-bit vector
_LONGEST_ROW = 8  # whole runs longer than this are summed in order
_TINY = 16  # fewer rows than this: vectorized only without rows left over


@dataclass(frozen=True)
class Lanes:
    """How the vector loop takes the rows: `count` lanes over the first `whole` rows."""

    count: int
    whole: int


def lanes(dtype: np.dtype, shape: tuple[int, ...], dims: tuple[int, ...]) -> Lanes | None:
    """How XLA:CPU's vector loop sums the rows of this add-reduce (None: in order)."""
    if dtype not in _WIDEST or math.prod(shape) == 0:
        return None
    return _lanes(dtype, tuple(shape), tuple(sorted(dims)))


@functools.lru_cache(maxsize=512)
def _lanes(dtype: np.dtype, shape: tuple[int, ...], dims: tuple[int, ...]) -> Lanes | None:
    if any(shape[d] > WINDOW for d in dims):
        return None
    wide = [d for d in dims if shape[d] > 1]
    if len(wide) < 2:
        return None
    a, b = wide[-2:]
    rows, length = shape[a], shape[b]
    between_rows, within_row = math.prod(shape[a + 1 :]), math.prod(shape[b + 1 :])
    widest = _WIDEST[dtype]
    group = between_rows <= _LONGEST_ROW and (length - 1) * within_row < between_rows
    preferred = widest if between_rows <= 6 else widest // 2  # by the interleaved group's size
    whole_runs = within_row == 1 and between_rows == length <= _LONGEST_ROW
    if rows >= _TINY:
        if not group:
            return None  # (LLVM's interleaved loads: groups of at most 8 elements)
        count = _by_trip_count(preferred, rows, between_rows, whole_runs)
        # with gaps in the group, the last round of rows is left to scalar adds
        return Lanes(count, (rows if whole_runs else rows - 1) // count * count)
    fits = min(widest, 1 << (rows.bit_length() - 1))  # the lanes a vector may have here
    if whole_runs:
        return Lanes(min(preferred, fits), rows) if rows % fits == 0 and fits > 1 else None
    pairs = length == 2 and _power_of_two(between_rows) and _power_of_two(within_row)
    return Lanes(rows, rows) if pairs and rows == fits else None


def _by_trip_count(preferred: int, rows: int, between_rows: int, whole_runs: bool) -> int:
    """The lanes LLVM's cost model picks knowing the rows: the vector loop's cost per round plus
    the rows left to scalar adds. 8 lanes that would leave 4 to 7 rows over become 4 (from 20
    to 23 rows always; from 28 to 31 except for whole runs of 2 and groups of 6 with gaps)."""
    if preferred != 8 or rows % 8 < 4:
        return preferred
    keeps_eight = between_rows == 2 if whole_runs else between_rows == 6
    return 8 if rows >= 24 and keeps_eight else 4


def _power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


Step = Callable[..., np.ndarray]


def fold(
    step: Step,
    x: np.ndarray,
    init: np.ndarray,
    dims: tuple[int, ...],
    taken: Lanes,
    y: np.ndarray | None = None,
    add: Step | None = None,
) -> np.ndarray:
    """The sum of `x` over `dims` from `init` with the rows taken as lanes (see the module),
    each add one `step` (the element type's add, flushed as XLA:CPU flushes). With `y`, each
    element's step is `step(acc, x, y)` (a product fused into the add,
    hlo.numerics.reduce_contraction) and the lanes are halved with `add`."""
    dims = tuple(sorted(dims))
    kept = [d for d in range(x.ndim) if d not in dims]
    wide = [d for d in dims if x.shape[d] > 1]
    a = wide[-2]
    outer = math.prod(x.shape[d] for d in dims if d < a)
    rows, length = x.shape[a], math.prod(x.shape[d] for d in dims if d > a)
    results = [x.shape[d] for d in kept]
    blocks = [
        np.transpose(v, [*kept, *dims]).reshape(-1, outer, rows, length) for v in (x, y) if v is not None
    ]
    halve = add or step
    total = np.array(np.broadcast_to(init, results), dtype=x.dtype).reshape(-1)
    count, whole = taken.count, taken.whole
    for o in range(outer):
        vector = np.full((total.shape[0], count), -0.0, dtype=x.dtype)
        vector[:, 0] = total
        for start in range(0, whole, count):
            for e in range(length):
                vector = step(vector, *(b[:, o, start : start + count, e] for b in blocks))
        while vector.shape[1] > 1:
            half = vector.shape[1] // 2
            vector = halve(vector[:, :half], vector[:, half:])
        total = vector[:, 0]
        for r in range(whole, rows):
            for e in range(length):
                total = step(total, *(b[:, o, r, e] for b in blocks))
    return total.reshape(results)


def tree_level(step: Step, x: np.ndarray, init: np.ndarray, axes: tuple[int, ...]) -> np.ndarray | None:
    """One level of XLA:CPU's tree rewrite (hlo.numerics.tree_reduce) whose windows are summed
    as lanes: windows of 32 along each reduced dimension longer than 32, whole along the
    others, none padded (the longer dimensions multiples of 32). Each window is a reduce of
    its own in the loops above (a [32, 8] window over [64, 8] sums 32 rows of 8 in 4 lanes).
    None when the windows are padded or not summed as lanes."""
    if any(x.shape[d] > WINDOW and x.shape[d] % WINDOW for d in axes):
        return None
    split: list[int] = []
    windows: list[int] = []
    out: list[int] = []
    for d, n in enumerate(x.shape):
        if d in axes and n > WINDOW:
            split += [n // WINDOW, WINDOW]
            out.append(n // WINDOW)
        else:
            split.append(n)
            out.append(1 if d in axes else n)
        if d in axes:
            windows.append(len(split) - 1)
    taken = lanes(x.dtype, tuple(split), tuple(windows))
    if taken is None:
        return None
    return fold(step, x.reshape(split), init, tuple(windows), taken).reshape(out)
