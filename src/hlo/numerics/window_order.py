"""The order in which XLA:CPU visits the positions of a window (reduce-window, and the
reduce-window select-and-scatter becomes), so that order-revealing reducers, cancelling float
sums and ties get its bits.

XLA:CPU folds each output's window in nested loops, one per window dimension, row-major; the
positions outside the operand (padding, base-dilation holes) are skipped by a test in the loop
body. Its emitter first tries to hoist that test out: going from the minor window dimension to
the major ones (while the loops already passed hold fewer than 64 positions), it takes the first
dimension whose test involves its window offset and would no longer involve it without the last
offset, and folds every position with another offset first (row-major), then every position
with the last offset (row-major). A 2x2 window padded on its minor dimension is therefore folded
column by column, a "SAME" 3x3/2 max-pool's window as columns 0-1 row-major, then column 2.

Whether a test "involves" an offset is decided by XLA's simplification of the test, which this
module models per dimension (each dimension's tests involve only its own output index `d` and
window offset `s`): the position `d*stride + s*dilation` must fall within the operand's extent
in the padded, base-dilated coordinates (`[max(low, 0), min(low + (n-1)*base, padded-1)]`), and
with base dilation > 1 on a real element (`(position - low) mod base == 0`). A test is dropped
when its bounds hold for every `d` and `s`; a test on `s` alone becomes a bound of `s`; a sum
tested against [0, H] whose multiplied part decides it alone loses the other term; a modulus
test `s mod base == 0` rescales `s` to the real offsets; a modulus whose argument stays within
[0, base) becomes an equality; `d mod base == 0` tightens d's upper bound, but only after the
first simplification, and a `d` so pinned to one value is not substituted. Checked against
XLA:CPU (jaxlib 0.10.2) on random windows of ranks 1-4, sizes 1-6, strides, dilations and
paddings (tests/test_window_order.py pins cases).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from math import gcd

from ..ir.attrs import Window, WindowDimension

_HOIST_LIMIT = 64  # positions of the inner window loops beyond which XLA:CPU stops trying


@dataclass(frozen=True)
class _Axis:
    trips: int  # the iterations of this window loop once its bounds are tightened
    tested: bool  # whether the in-bounds test involves the window offset
    hoistable: bool  # whether the test stops involving it without the last offset
    last: int  # the last offset the loop visits


def _range_tested(d_hi: int, cd: int, cs: int, low: int, high: int, s_lo: int, s_hi: int) -> bool:
    """Whether the test `d*cd + s*cs in [low, high]` (d in [0, d_hi], s in [s_lo, s_hi]) still
    involves `s` after simplification. A single output (`d_hi` 0 from the start) is substituted,
    unlike a `d` whose bound a modulus tightened to 0 (hence the callers' `d_hi` of -1 for the
    former)."""
    if s_lo == s_hi or d_hi < 0:
        return False  # a single value is substituted: a bound of the other variable
    if s_lo * cs >= low and d_hi * cd + s_hi * cs <= high:
        return False  # always holds
    while low == 0:
        # within [0, high], the multiplied terms decide alone when the rest cannot change the
        # quotient by their common factor
        if cd == 1 and cs > 1:
            return (high - d_hi) // cs != high // cs
        if cs == 1 and cd > 1:
            return (high - s_hi) // cd != (high - s_lo) // cd
        if cd > 1 and cs > 1 and gcd(cd, cs) > 1:
            g = gcd(cd, cs)
            cd, cs, high = cd // g, cs // g, high // g
            if d_hi * cd + s_hi * cs <= high:
                return False
            continue
        return True
    return True


def _axis(n: int, w: WindowDimension, count: int) -> _Axis:
    """How XLA:CPU's emitter sees the window loop of one dimension (`count` outputs)."""
    size, st, low, dil, base = w.size, w.stride, w.padding_low, w.window_dilation, w.base_dilation
    if size == 1 or count == 0 or n == 0:
        return _Axis(1, False, False, 0)
    padded = (n - 1) * base + 1 + low + w.padding_high
    lo, hi = max(low, 0), min(low + (n - 1) * base, padded - 1)
    d_hi = count - 1
    # the modulus test without its terms that are multiples of the base dilation
    s_mod = base > 1 and dil % base != 0
    d_mod = base > 1 and count > 1 and st % base != 0
    shift = low if base > 1 and low % base != 0 else 0
    # a test `d mod base == 0` tightens d's upper bound to a real element, but only once the
    # first simplification is over: it counts when the emitter tries to hoist
    d_last = d_hi
    if d_mod and not s_mod and st == 1 and shift == 0:
        d_last = d_hi // base * base
    s_lo, s_hi = 0, size - 1
    if count == 1:  # the range test is of s alone: its bounds
        s_lo, s_hi = max(s_lo, -(-lo // dil)), min(s_hi, hi // dil)
    elif lo == 0 and st == 1 and dil > 1 and (hi - d_hi) // dil == hi // dil:
        s_hi = min(s_hi, hi // dil)
    if s_lo > s_hi:
        return _Axis(0, False, False, 0)
    range_test = _range_tested(d_hi if count > 1 else -1, st, dil, lo, hi, s_lo, s_hi)
    scale = 1
    mod_test = False
    if s_mod and s_lo != s_hi:
        if dil == 1 and not d_mod and shift == 0:
            scale = base  # s = base * s': the loop visits the real offsets only
            s_lo, s_hi = s_lo // base, s_hi // base
        elif not d_mod and s_lo * dil - shift >= 0 and s_hi * dil - shift < base:
            return _Axis(1, False, False, s_hi)  # an equality: s is one value
        else:
            mod_test = True
    trips, last = s_hi - s_lo + 1, s_hi * scale
    if not (range_test or mod_test) or s_lo == s_hi:
        return _Axis(trips, False, False, last)
    if s_hi - 1 == s_lo:
        return _Axis(trips, True, True, last)  # without the last offset s is one value
    if mod_test and (d_mod or not (s_lo * dil - shift >= 0 and (s_hi - 1) * dil - shift < base)):
        return _Axis(trips, True, False, last)
    hoistable = not _range_tested(d_last if count > 1 else -1, st, dil * scale, lo, hi, s_lo, s_hi - 1)
    return _Axis(trips, True, hoistable, last)


@lru_cache(maxsize=256)
def hoisted(shape: tuple[int, ...], window: Window, counts: tuple[int, ...]) -> tuple[int, int] | None:
    """(dimension, offset) whose last offset XLA:CPU folds after all the others, or None when it
    folds the window row-major. `counts`: the outputs along each dimension."""
    inner = 1
    for a in reversed(range(len(shape))):
        if inner >= _HOIST_LIMIT:
            break
        axis = _axis(shape[a], window.dimensions[a], counts[a])
        inner *= axis.trips
        if axis.tested and axis.hoistable:
            return a, axis.last
    return None


def positions(shape: Sequence[int], window: Window, counts: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The window positions (offsets per dimension) in the order XLA:CPU folds them."""
    sizes = [d.size for d in window.dimensions]
    split = hoisted(tuple(shape), window, tuple(counts))
    if split is None:
        yield from product(*map(range, sizes))
        return
    a, last = split
    yield from (p for p in product(*map(range, sizes)) if p[a] != last)
    yield from (p for p in product(*map(range, sizes)) if p[a] == last)
