"""Sort and top-k on whole arrays.

A comparator that is one `compare(p0, p1)` of the first operand's two parameters becomes a
stable `argsort` of a key (TOTALORDER comparisons sort total-order keys); any other comparator
(jax's NaN-canonicalizing total order, lexicographic multi-key comparators, ...) runs lifted to
arrays inside a vectorized bottom-up merge sort: log2(n) merge levels, each placing every element
by a binary search in the neighbouring run (log2(n) comparator calls on whole arrays), so
O(log^2 n) calls in all, never one per element. Both are stable, as XLA's stable sort.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ir.attrs import ComparisonDirection, ComparisonType
from ..ir.computation import Computation
from ..ir.opcode import Opcode
from . import bits, numerics
from .computations import lifted
from .context import KernelContext
from .packed_order import gather, stable_order

Comparator = Callable[..., Any]


def sort_keys(c: Computation, operand_types: Sequence[Any]) -> Callable[[np.ndarray], np.ndarray] | None:
    """For a comparator `compare(p0, p1), direction=LT|GT` (other parameters unused): a
    function giving an ascending sort key of operand 0; None for any other comparator."""
    root = c.root
    params = c.parameters
    if root.opcode is not Opcode.COMPARE or len(c.instructions) != len(params) + 1:
        return None
    names = [p.name for p in params]
    direction = root.attrs["direction"]
    if root.operands == (names[0], names[1]):
        descending = direction is ComparisonDirection.GT
    elif root.operands == (names[1], names[0]):
        descending = direction is ComparisonDirection.LT
    else:
        return None
    if direction not in (ComparisonDirection.LT, ComparisonDirection.GT):
        return None
    t = operand_types[0]
    if t.is_complex:
        return None
    if root.attrs["type"] is ComparisonType.TOTALORDER:
        width = t.bit_width

        def total(x: np.ndarray) -> np.ndarray:
            k = bits.total_order_key(x, width)
            return ~k if descending else k

        return total

    def plain(x: np.ndarray) -> np.ndarray:
        work = x.astype(numerics.compute_dtype(x.dtype), copy=False)
        if work.dtype == np.bool_:
            work = work.astype(np.int8)
        if not descending:
            return work
        return ~work if work.dtype.kind in "iu" else -work

    return plain


def merge_sort_order(values: Sequence[np.ndarray], less: Comparator) -> np.ndarray:
    """The stable sorting permutation of each row (last axis) of `values` (equal shapes) under
    the comparator `less(a0, b0, a1, b1, ...) -> pred`, as an int64 array of that shape."""
    shape = values[0].shape
    n = shape[-1]
    order = np.broadcast_to(np.arange(n), shape).copy()
    width = 1
    positions = np.arange(n)
    while width < n:
        current = [np.take_along_axis(v, order, axis=-1) for v in values]
        block = positions // (2 * width) * (2 * width)
        offset = positions - block
        left = offset < width
        own = np.where(left, offset, offset - width)
        other_start = np.where(left, block + width, block)
        other_len = np.clip(n - other_start, 0, width)
        lo = np.zeros(n, dtype=np.int64)
        hi = other_len.astype(np.int64)
        lo, hi = np.broadcast_to(lo, shape).copy(), np.broadcast_to(hi, shape).copy()
        while True:
            active = lo < hi
            if not active.any():
                break
            mid = (lo + hi) // 2
            at = np.minimum(other_start + mid, n - 1)
            other = [np.take_along_axis(v, at, axis=-1) for v in current]
            # left elements count the right run's elements strictly less than them; right
            # elements count the left run's elements not greater than them (stability)
            left_pred = np.asarray(less(*_interleave(other, current)), dtype=bool)
            right_pred = ~np.asarray(less(*_interleave(current, other)), dtype=bool)
            pred = np.where(left, left_pred, right_pred) & active
            lo = np.where(pred, mid + 1, lo)
            hi = np.where(pred | ~active, hi, mid)
        target = block + own + lo
        new = np.empty_like(order)
        np.put_along_axis(new, target, order, axis=-1)
        order = new
        width *= 2
    return order


def _interleave(a: Sequence[np.ndarray], b: Sequence[np.ndarray]) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for x, y in zip(a, b):
        out += [x, y]
    return out


def sort_fn(
    computation: str, dimension: int, ctx: KernelContext, operand_types: Sequence[Any]
) -> Callable[..., Any]:
    """The kernel of sort: every operand permuted along `dimension` by the order of the keys."""
    from .sort_keys import comparator_keys

    key = sort_keys(ctx.module.computation(computation), operand_types)
    keys = None if key is not None else comparator_keys(ctx.module.computation(computation), ctx)
    less = None if key is not None or keys is not None else lifted(ctx, computation, "sort")

    def run(*operands: np.ndarray) -> Any:
        moved = [np.moveaxis(o, dimension, -1) for o in operands]
        if moved[0].shape[-1] <= 1 or moved[0].size == 0:
            results = list(operands)
        else:
            one_key = (
                (lambda ms: key(ms[0])) if key is not None else keys[0] if keys and len(keys) == 1 else None
            )
            packed = stable_order(one_key, moved) if one_key is not None else None
            if packed is not None:  # (an int32 order, in about the operand's memory)
                order = packed
            elif key is not None:
                order = np.argsort(key(moved[0]), axis=-1, kind="stable")
            elif keys is not None:
                # lexsort: the last key is the primary one; stable like XLA's stable sort
                order = np.lexsort([k(moved) for k in reversed(keys)], axis=-1)
            else:
                assert less is not None
                order = merge_sort_order(moved, less)
                _check_strict_weak_order(less, [np.take_along_axis(m, order, axis=-1) for m in moved])
            take = gather if order.dtype == np.int32 else lambda m, o: np.take_along_axis(m, o, axis=-1)
            results = [np.moveaxis(take(m, order), -1, dimension) for m in moved]
        return tuple(results) if len(results) > 1 else results[0]

    return run


def _check_strict_weak_order(less: Comparator, ordered: list[np.ndarray]) -> None:
    """Two whole-array checks a comparator must pass for the sort to mean anything: no element
    is less than itself, and after sorting no element is less than the one before it."""
    from ..errors import EvalError

    if np.asarray(less(*_interleave(ordered, ordered)), dtype=bool).any():
        raise EvalError("the comparator is not a strict weak order: it finds an element less than itself")
    later = [o[..., 1:] for o in ordered]
    earlier = [o[..., :-1] for o in ordered]
    if np.asarray(less(*_interleave(later, earlier)), dtype=bool).any():
        raise EvalError(
            "the comparator is not a strict weak order: sorted by it, an element is still less than "
            "the one before it"
        )


TOP_K_BLOCK = 1 << 18  # elements of rows whose keys are made at once (each row is its own top-k)


def top_k(x: np.ndarray, k: int, largest: bool, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest (or smallest) along the last axis, in order, ties to the lower index; floats
    in their total order (NaN above +inf). Many rows go a block at a time: their keys (as large
    as the operand: 16 MB of a [1024,4096] top-64's 25 MB peak) exist for one block only."""
    n = x.shape[-1] if x.ndim else 1
    rows = x.size // n if n else 0
    per = max(1, TOP_K_BLOCK // max(1, n))
    if x.ndim >= 2 and rows > per and k <= n:
        flat = x.reshape(rows, n)
        values = np.empty((rows, k), x.dtype)
        order = np.empty((rows, k), np.int32)
        for a in range(0, rows, per):
            values[a : a + per], order[a : a + per] = _top_k(flat[a : a + per], k, largest, width)
        return values.reshape(*x.shape[:-1], k), order.reshape(*x.shape[:-1], k)
    return _top_k(x, k, largest, width)


def _top_k(x: np.ndarray, k: int, largest: bool, width: int) -> tuple[np.ndarray, np.ndarray]:
    if x.dtype.kind in "iub":
        key = x.astype(np.int64) if x.dtype != np.uint64 else x
    else:
        key = bits.total_order_key(x, width)
    if largest:  # (in place when the key is a new array: a second one is top-k's peak memory)
        key = np.invert(key, out=key) if key is not x else ~key
    order = _smallest_k(key, k)
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


def _smallest_k(key: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k smallest keys of each row, ascending, ties to the lower index: a stable
    argsort's first k. For k much smaller than the row, a partition finds the k-th key, the
    keys below it and the first ties at it are taken in index order, and only those k are
    sorted (stably, so ties stay in index order) — O(n) per row instead of O(n log n)."""
    n = key.shape[-1]
    if k <= 0 or n == 0:
        return np.zeros((*key.shape[:-1], 0), np.intp)
    if 8 * k > n or key.ndim == 0:
        return np.argsort(key, axis=-1, kind="stable")[..., :k]
    if key.dtype.itemsize <= 4:
        found = _smallest_k_by_threshold(key, k)
        if found is not None:
            return found
    kth = np.partition(key, k - 1, axis=-1)[..., k - 1 : k]
    taken = key <= kth
    extra = np.count_nonzero(taken, axis=-1) > k  # rows with more ties at the k-th key than room
    if extra.any():
        rows = taken[extra]
        ties = rows & (key[extra] == kth[extra])
        room = k - np.count_nonzero(rows & ~ties, axis=-1, keepdims=True)
        taken[extra] = (rows & ~ties) | (ties & (np.cumsum(ties, axis=-1) <= room))
    candidates = np.nonzero(taken.reshape(-1, n))[1].reshape(*key.shape[:-1], k)
    chosen = np.take_along_axis(key, candidates, axis=-1)
    return np.take_along_axis(candidates, np.argsort(chosen, axis=-1, kind="stable"), axis=-1)


def _smallest_k_by_threshold(key: np.ndarray, k: int) -> np.ndarray | None:
    """`_smallest_k` for keys of up to 32 bits without partitioning whole rows (np.partition
    was ~90% of a [1024,4096] top-64). A row is split into 4k disjoint strided chunks; their
    minima are 4k distinct keys, so the k-th smallest of the minima, T, is at least the row's
    k-th smallest key: the k smallest keys are all <= T. Only the keys <= T (~70 of 4096 on
    random rows) are sorted, each packed with its index into one int64 so that ties order by
    index. None when too many keys pass (many ties): the caller partitions then."""
    n = key.shape[-1]
    rows = key.reshape(-1, n)
    chunks = 4 * k
    size = n // chunks  # >= 2: the caller takes this path only for 8k <= n
    minima = rows[:, : chunks * size].reshape(len(rows), size, chunks).min(axis=1)
    threshold = np.partition(minima, k - 1, axis=-1)[:, k - 1 : k]
    passed = rows <= threshold
    counts = np.count_nonzero(passed, axis=-1)
    width = int(counts.max())
    if 4 * width > n:
        return None
    flat = np.flatnonzero(passed)
    row = np.repeat(np.arange(len(rows)), counts)
    packed = (rows.ravel().take(flat).astype(np.int64) << 32) | (flat - row * n)
    starts = np.cumsum(counts) - counts
    table = np.full((len(rows), width), np.iinfo(np.int64).max)  # (never among a row's k first)
    table[row, np.arange(len(flat)) - np.repeat(starts, counts)] = packed
    table.sort(axis=-1)
    return (table[:, :k] & 0xFFFFFFFF).astype(np.intp).reshape(*key.shape[:-1], k)
