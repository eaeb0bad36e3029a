"""Float reduce-window sums whose rows XLA:CPU's code generator vectorizes: when the minor window
dimension spans 100 positions or more (fewer are unrolled and folded in order), the loop over it
becomes a vector loop of running sums, so each row of a window is summed in that loop's order,
the sum so far entering as the start of the row (tests/golden/ops/exact_window_sums.npz).

The row's elements go in turn into `lanes` running sums (f32: 32, four vectors of 8; f64: 16,
four vectors of 4), the sum so far in the first; the vectors are added in order and their lanes
halved until one is left. The fewer than `lanes` elements past the last whole round then go,
`tail` at a time, into a vector of `tail` lanes holding the sum so far in its first, halved
again; the last ones are added one by one. `tail` depends only on how many are left (_TAILS).
Each running sum is one shifted pass over every window at once (hlo.numerics.window_fold).

The adds XLA:CPU emits for a reduce-window carry LLVM's `reassoc` flag, so LLVM's loop vectorizer
may also take the loop over the window's second innermost dimension of several positions (the
loop inside it fully unrolled) when its cost model finds that cheaper: each of the window's rows
is then a lane summed in order, the first from the sum so far (the init value, or what the
window loops outside have summed), and the lanes are halved (rows_apply and fold_rows: windows
of 2, 4 or 8 rows, tests/golden/ops/exact_window_rows.npz for 2-D ones, exact_window_lanes.npz
for pooling windows and windows of 3 to 5 dimensions).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import numpy as np

from ..ir.attrs import Window
from . import subnormals
from .window_fold import Flush, Slices, output_dims, passes
from .window_order import positions

MIN_ROW = 100  # positions of the minor window dimension from which XLA:CPU vectorizes it
# the vector width (lanes of one vector) and the lanes of the vector loop, by element type
_SHAPES = {np.dtype(np.float32): (8, 32), np.dtype(np.float64): (4, 16)}
# the width of the vector taking the elements left after the last whole round, by their count
# (seen with XLA:CPU's fixtures; with fewer than 4 left they are added one by one)
_TAILS = {
    np.dtype(np.float32): (0,) * 4 + (2,) * 4 + (4,) * 8 + (8,) * 4 + (4,) * 4 + (8,) * 4 + (4,) * 4,
    np.dtype(np.float64): (0,) * 4 + (2,) * 4 + (4,) * 8,
}
# with window dilation on the minor dimension one wide load serves several dilated elements, so
# LLVM leaves at least one round to the next loop (the vector loop's last round of 32 whole is
# left over) and at least one element to scalar adds: the width of the vector taking the 1 to
# 32 (f64: 16) elements left, by their count (seen on 1,300 XLA:CPU cases, none otherwise)
_DILATED_TAILS = {
    np.dtype(np.float32): (0,) * 5 + (2,) * 3 + (8,) * 5 + (4,) * 3 + ((8,) * 4 + (4,) * 4) * 2 + (0,),
    np.dtype(np.float64): (0,) * 5 + (2,) * 3 + (4,) * 8 + (0,),
}


def applies(x: np.ndarray, window: Window) -> bool:
    """Whether this sum's window rows are vectorized in the order modelled here: an f32/f64
    operand, a minor window dimension of 100+ positions with no padding or base dilation
    (window dilation changes where the rounds end, _DILATED_TAILS), the other dimensions under
    100 positions with no dilation (padding there skips whole rows), the positions folded
    row-major."""
    return x.dtype in _SHAPES and x.size > 0 and _applies(x.shape, window)


@functools.lru_cache(maxsize=256)
def _applies(shape: tuple[int, ...], window: Window) -> bool:
    dims = window.dimensions
    if not dims:
        return False
    minor = dims[-1]
    if minor.size < MIN_ROW or minor.padding_low or minor.padding_high:
        return False
    if any(d.base_dilation != 1 for d in dims) or any(d.window_dilation != 1 for d in dims[:-1]):
        return False
    if any(d.size >= MIN_ROW for d in dims[:-1]):
        return False  # a major dimension of 100+ positions is vectorized another way (not pinned)
    count = output_dims(shape, window)
    if 0 in count:
        return False
    order = list(positions(shape, window, count))
    return order == sorted(order)


Add = Callable[[np.ndarray, np.ndarray], np.ndarray]


def fold(x: np.ndarray, init: np.ndarray, window: Window, flush: Flush | None) -> np.ndarray:
    """The reduce-window sum of `x` from `init`, each row in XLA:CPU's vector-loop order; with
    `flush` (XLA:CPU's flush-to-zero) every element and partial sum flushed (by the CPU's mode
    when it is on: NumPy's sums then flush as XLA:CPU's do)."""
    add: Add = np.add
    if flush is not None:
        init = flush(init)
        if not subnormals.active():
            x = flush(x)
            add = functools.partial(_flushed, flush)
    acc = np.array(np.broadcast_to(init, output_dims(x.shape, window)), dtype=x.dtype)
    width = window.dimensions[-1].size
    dilated = window.dimensions[-1].window_dilation > 1
    steps = passes(x.shape, window)
    for start in range(0, len(steps), width):  # one row of every window per chunk
        row = steps[start : start + width]
        out = row[0][0]
        acc[out] = _row(acc[out], x, [at for _, at in row], add, dilated)
    return acc


# windows of whole operand rows: the longest rows (LLVM's largest interleaved group) and the
# most bytes a window may hold (f32 8x6 and f64 4x4 seen vectorized, f32 8x7 and f64 4x8 not)
_MAX_WHOLE_ROW = 8
_MAX_WHOLE_BYTES = 192
# the rows of the windows whose rows are seen vectorized as lanes, by element type (f64 windows
# of 8 rows were lanes over operands of up to 16 rows, in other orders or in order over 40)
_ROWS = {np.dtype(np.float32): (2, 4, 8), np.dtype(np.float64): (2, 4, 8)}
_VECTOR_BYTES = 32  # XLA:CPU prefers 256-bit vectors: 8 rows of f64 are 4 lanes of 2 rows each


def rows_apply(x: np.ndarray, window: Window) -> bool:
    """Whether this f32/f64 sum's window rows are lanes of LLVM's vector loop (fold_rows). The
    rows run along the window's second innermost dimension of more than one position (`a`),
    their positions along the innermost (`b`); window dimensions of several positions outside
    `a` stay loops around the vector loop. Taken: no base dilation, no padding from `a` inwards,
    2, 4 or 8 rows (f64: 2 or 4) of 2 or more positions, and loads the cost model finds cheap:
    rows of 2 positions whose loads lie a power of two of elements apart both between rows and
    within a row (the operand's strides along `a` and `b` times the window dilation), or whole
    runs of up to 8 consecutive elements (`b` the innermost dimension of more than one element,
    undilated, spanned whole; up to 192 bytes a window); a 2-row window of stride 1 over several
    outputs along `a` only inside enough other loops of several trips (_two_rows). f64 windows of
    8 rows, on 2-D operands only, are 4 lanes of two rows each (rows r and r + 4), for rows of 2
    with a stride of 1 and several outputs along `a`, or whole rows of up to 4. Checked against
    XLA:CPU (x86-64, AVX-512) on ~4,400 2-D windows, ~10,000 of 2 to 5 dimensions (random ones,
    NHWC/NCHW pooling windows, window dilation, padding) and 700 f64 8-row ones, none taken
    wrongly; not taken, though XLA:CPU vectorizes them in other orders: 4- and 8-row windows of 2
    positions over rows of 3 with one output per row, f64 8-row windows of 3 or more dimensions,
    16-row windows, whole rows past the limits, some dilated loads 3 apart, a few 2-row windows
    of stride 1."""
    return x.dtype in _ROWS and x.ndim >= 2 and x.size > 0 and _rows_apply(x.dtype, x.shape, window)


@functools.lru_cache(maxsize=256)
def _rows_apply(dtype: np.dtype, shape: tuple[int, ...], window: Window) -> bool:
    dims = window.dimensions
    if any(d.base_dilation != 1 for d in dims):
        return False
    wide = [k for k, d in enumerate(dims) if d.size > 1]
    if len(wide) < 2:
        return False
    a, b = wide[-2:]
    major, minor = dims[a], dims[b]
    if any(d.padding_low or d.padding_high for d in dims[a:]):
        return False  # padding outside them skips whole rows; inside, a test in the vector loop
    count = output_dims(shape, window)
    if major.size not in _ROWS[dtype] or not 2 <= minor.size < MIN_ROW or 0 in count:
        return False
    # the elements between two rows and between two positions of a row
    along_a, along_b = math.prod(shape[a + 1 :]), math.prod(shape[b + 1 :])
    step_a, step_b = along_a * major.window_dilation, along_b * minor.window_dilation
    whole = (
        step_b == 1
        and minor.size == along_a == step_a <= _MAX_WHOLE_ROW
        and major.size * minor.size * dtype.itemsize <= _MAX_WHOLE_BYTES
    )
    pairs = minor.size == 2 and _power_of_two(step_a) and _power_of_two(step_b)
    if major.size * dtype.itemsize > _VECTOR_BYTES:  # f64 windows of 8 rows, two rows a lane:
        if len(shape) != 2:  # seen on 2-D operands only (in more dimensions often in other orders)
            return False
        whole = step_b == 1 and minor.size == along_a == step_a <= 4
        return whole or (pairs and major.stride == 1 and count[a] > 1)
    if not (whole or pairs):
        return False
    return major.size > 2 or major.stride > 1 or count[a] == 1 or _two_rows(count, a, len(wide) - 2, step_a)


def _two_rows(count: tuple[int, ...], a: int, outer: int, step: int) -> bool:
    """Whether a 2-row window of stride 1 over several outputs along `a` is taken as lanes: the
    loops of more than one trip around its vector loop decide (the output loops inside and
    outside `a`'s, the `outer` window loops), as seen on XLA:CPU: with rows a power of two of
    elements apart, two such loops, one of them inside `a`'s (or three, one a window loop);
    otherwise (whole runs of 3, 5, 6 or 7 elements) one."""
    inner = sum(1 for n in count[a + 1 :] if n > 1)
    loops = sum(1 for n in count[:a] if n > 1) + outer
    if not _power_of_two(step):
        return inner + loops >= 1
    return inner + loops >= 2 and (inner >= 1 or (outer >= 1 and loops >= 3))


def _power_of_two(n: int) -> bool:
    return n & (n - 1) == 0


def fold_rows(x: np.ndarray, init: np.ndarray, window: Window, flush: Flush | None) -> np.ndarray:
    """The reduce-window sum of `x` from `init` with each window row a lane of a vector loop: for
    each position of the window's outer dimensions in turn, the row's positions summed in order
    (the first row from the sum so far), the lanes halved."""
    add: Add = np.add
    if flush is not None:
        init = flush(init)
        if not subnormals.active():
            x = flush(x)
            add = functools.partial(_flushed, flush)
    dims = window.dimensions
    wide = [k for k, d in enumerate(dims) if d.size > 1]
    rows, width = dims[wide[-2]].size, dims[wide[-1]].size
    lanes = min(rows, _VECTOR_BYTES // x.dtype.itemsize)  # row r goes into lane r mod lanes
    count = output_dims(x.shape, window)
    whole = tuple(slice(0, n, 1) for n in count)
    steps = passes(x.shape, window)  # whole blocks: no padding along the rows or in them
    blocks = [steps[start : start + rows * width] for start in range(0, len(steps), rows * width)]
    if all(out == whole for out, _ in steps):  # every block covers every output
        acc, owned = np.asarray(init, dtype=x.dtype), False  # lane 0 starts from the init value
        for block in blocks:  # one position of the outer window dimensions
            sums = [
                _lane(acc if r == 0 else None, x, _reads(block, r, rows, lanes, width), add, owned)
                for r in range(lanes)
            ]
            acc, owned = _halved(sums, add), True
        return acc
    # padding outside the rows: a block adds to the outputs whose element it holds is real
    acc = np.array(np.broadcast_to(init, count), dtype=x.dtype)
    for block in blocks:
        out = block[0][0]
        sums = [
            _lane(acc[out] if r == 0 else None, x, _reads(block, r, rows, lanes, width), add)
            for r in range(lanes)
        ]
        acc[out] = _halved(sums, add)
    return acc


def _reads(
    block: Sequence[tuple[Slices, Slices]], lane: int, rows: int, lanes: int, width: int
) -> list[Slices]:
    """The reads of one lane: the rows lane, lane + lanes, ... of the block, each in order."""
    return [at for r in range(lane, rows, lanes) for _, at in block[r * width : (r + 1) * width]]


def _flushed(flush: Flush, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return flush(np.add(a, b))


def _row(
    acc: np.ndarray, x: np.ndarray, reads: Sequence[Slices], add: Add, dilated: bool = False
) -> np.ndarray:
    """acc plus one row of each window, the row's k-th elements being `x[reads[k]]`; `dilated`:
    each vector loop leaves its last round (at least one element) to the next."""
    width, lanes = _SHAPES[x.dtype]
    keep = 1 if dilated else 0  # the elements a loop must leave over
    whole = (len(reads) - keep) // lanes * lanes
    if whole:
        sums = [_lane(acc if lane == 0 else None, x, reads[lane:whole:lanes], add) for lane in range(lanes)]
        vectors = [sums[v * width : (v + 1) * width] for v in range(lanes // width)]
        joined = vectors[0]
        for vector in vectors[1:]:
            joined = [add(a, b) for a, b in zip(joined, vector)]
        acc = _halved(joined, add)
    left = reads[whole:]
    tail = (_DILATED_TAILS if dilated else _TAILS)[x.dtype][len(left)]
    done = (len(left) - keep) // tail * tail if tail else 0
    if done:
        acc = _halved(
            [_lane(acc if lane == 0 else None, x, left[lane:done:tail], add) for lane in range(tail)], add
        )
        left = left[done:]
    for at in left:
        acc = add(acc, x[at])
    return acc


def _lane(
    start: np.ndarray | None, x: np.ndarray, reads: Sequence[Slices], add: Add, owned: bool = False
) -> np.ndarray:
    """One running sum: `start` (or, for the lanes that start empty, the first element: the
    vector loop's neutral start adds nothing, not even to a -0) plus each read in turn. A new
    array, unless `start` is `owned` (a sum of ours, then summed into in place); the first add
    makes it, so no copy of `start` or of an element is made first."""
    if start is None:
        start, reads, owned = x[reads[0]], reads[1:], False  # a view of the operand
        if not reads:
            return np.array(start)
    elif not reads:
        return start if owned else np.array(start)
    in_place = add is np.add
    total = np.add(start, x[reads[0]], out=start) if owned and in_place else add(start, x[reads[0]])
    for at in reads[1:]:
        if in_place:
            np.add(total, x[at], out=total)
        else:
            total = add(total, x[at])
    return total


def _halved(lanes: list[np.ndarray], add: Add) -> np.ndarray:
    """A vector's lanes added as XLA:CPU reduces it: the upper half onto the lower, repeatedly."""
    while len(lanes) > 1:
        half = len(lanes) // 2
        if add is np.add:  # the lanes are sums of ours: the lower half takes the upper in place
            lanes = [np.add(a, b, out=a) for a, b in zip(lanes[:half], lanes[half:])]
        else:
            lanes = [add(a, b) for a, b in zip(lanes[:half], lanes[half:])]
    return lanes[0]
