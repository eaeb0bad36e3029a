"""Row reduces of the compiled fusion tier (hlo.numerics.fused_source), as plain functions that
the generated module compiles with numba: one row's float sum in the order of XLA:CPU's vector
kernel (hlo.numerics.vector_sum) and one row's max/min by its rule
(hlo.numerics.vector_extreme), step for step, so the bits are the interpreter's.

`x[lo:lo + n]` is the row; `sc` is scratch of at least 7 rows of `w` lanes (w: 64 bytes of the
element type); `zero` and `init` are one-element arrays of the type (a scalar argument would
pass through a double). Sums flush nothing here (the tier runs them only where the CPU's mode
flushes); a max/min row's elements are flushed in software, as the interpreter does."""

from __future__ import annotations

import math
from typing import Any

BLOCK = 1024  # as hlo.numerics.vector_sum


def row_sum(x: Any, lo: int, n: int, w: int, sc: Any, zero: Any, init: Any) -> Any:
    """One row's sum plus the init value, as hlo.numerics.vector_sum for one of more than 3
    results. Each sub-block of 16 vectors is (((0 + c0) + c1) + c2) + c3 per lane, each chain
    c = (((0 + v0) + v1) + v2) + v3 (einsum's order in the interpreter: from a zeroed output);
    the sub-blocks of the full blocks, then those of the partial block, in one loop."""
    z = zero[0]
    s, c, plain, block, sub, chain, tail = sc[0], sc[1], sc[2], sc[3], sc[4], sc[5], sc[6]
    subs = BLOCK // (16 * w)
    count = n // BLOCK
    for lane in range(w):
        s[lane] = z
        c[lane] = z
        plain[lane] = z
        tail[lane] = z
    full = count * subs
    one = count == 1 and n == BLOCK
    for q in range(full + (n - count * BLOCK) // (16 * w)):
        at = lo + q * 16 * w
        for lane in range(w):
            sub[lane] = z
        for k in range(4):
            for lane in range(w):
                chain[lane] = z
            for v in range(4):
                base = at + (k * 4 + v) * w
                for lane in range(w):
                    chain[lane] = chain[lane] + x[base + lane]
            for lane in range(w):
                sub[lane] = sub[lane] + chain[lane]
        if q >= full:  # a whole sub-block of the partial block
            for lane in range(w):
                tail[lane] = tail[lane] + sub[lane]
            continue
        j = q % subs
        for lane in range(w):
            block[lane] = sub[lane] if j == 0 else block[lane] + sub[lane]
        if j != subs - 1:
            continue
        if one:
            for lane in range(w):
                s[lane] = block[lane] + z  # one block: b + 0 in every lane
            continue
        for lane in range(w):
            y = block[lane] - c[lane]
            t = s[lane] + y
            c[lane] = (t - s[lane]) - y
            s[lane] = t
            plain[lane] = plain[lane] + block[lane]
    m = n - count * BLOCK
    start = count * BLOCK + (m // (16 * w)) * 16 * w
    rest = n - start
    for k in range((rest + 4 * w - 1) // (4 * w)):  # the last chains one by one, zero-padded
        for lane in range(w):
            chain[lane] = z
        for v in range(4):
            for lane in range(w):
                e = (k * 4 + v) * w + lane
                chain[lane] = chain[lane] + (x[lo + start + e] if e < rest else z)
        for lane in range(w):
            tail[lane] = tail[lane] + chain[lane]
    for lane in range(0 if one else w):
        v = s[lane] + (tail[lane] - c[lane])
        if v - v != z:  # not finite: the compensation met inf - inf; the plain sum's value
            v = plain[lane] + tail[lane]
        s[lane] = v
    half = w // 2  # the lanes halved to one value, plus zero (the kernel's start), plus the init
    while half >= 1:
        for lane in range(half):
            s[lane] = s[lane] + s[lane + half]
        half //= 2
    return init[0] + (s[0] + z)


def row_max(x: Any, lo: int, n: int, w: int, sc: Any, fill: Any, init: Any, ftz: bool, tiny: Any) -> Any:
    """One row's max as hlo.numerics.vector_extreme: `step(a, b)` is a if a > b else b; lanes
    folded in order from `fill` (-inf), the last vector padded with it, halved, then the init.
    With `ftz` the interpreter flushes the row's elements first; that changes nothing unless
    the value is NaN, zero or subnormal, so only such a row is folded again, flushed."""
    acc = sc[0]
    f = fill[0]
    full = n // w
    for flushed in range(2 if ftz else 1):
        for lane in range(w):
            acc[lane] = f
        if flushed:
            for e in range(n):
                b = x[lo + e]
                if abs(b) < tiny:
                    b = (b - b) if math.copysign(1.0, b) > 0 else -(b - b)
                a = acc[e % w]
                acc[e % w] = a if a > b else b
        else:
            for v in range(full):
                at = lo + v * w
                for lane in range(w):
                    a, b = acc[lane], x[at + lane]
                    acc[lane] = a if a > b else b
            for e in range(full * w, n):
                a, b = acc[e % w], x[lo + e]
                acc[e % w] = a if a > b else b
        if n > full * w:  # the padding of the last vector
            for lane in range(n - full * w, w):
                a = acc[lane]
                acc[lane] = a if a > f else f
        half = w // 2
        while half >= 1:
            for lane in range(half):
                a, b = acc[lane], acc[lane + half]
                acc[lane] = a if a > b else b
            half //= 2
        if abs(acc[0]) >= tiny:  # (not NaN, zero or subnormal)
            break
    a, b = acc[0], init[0]
    return a if a > b else b


def row_min(x: Any, lo: int, n: int, w: int, sc: Any, fill: Any, init: Any, ftz: bool, tiny: Any) -> Any:
    """row_max's rule for min (`a if a < b else b`, from +inf)."""
    acc = sc[0]
    f = fill[0]
    full = n // w
    for flushed in range(2 if ftz else 1):
        for lane in range(w):
            acc[lane] = f
        if flushed:
            for e in range(n):
                b = x[lo + e]
                if abs(b) < tiny:
                    b = (b - b) if math.copysign(1.0, b) > 0 else -(b - b)
                a = acc[e % w]
                acc[e % w] = a if a < b else b
        else:
            for v in range(full):
                at = lo + v * w
                for lane in range(w):
                    a, b = acc[lane], x[at + lane]
                    acc[lane] = a if a < b else b
            for e in range(full * w, n):
                a, b = acc[e % w], x[lo + e]
                acc[e % w] = a if a < b else b
        if n > full * w:  # the padding of the last vector
            for lane in range(n - full * w, w):
                a = acc[lane]
                acc[lane] = a if a < f else f
        half = w // 2
        while half >= 1:
            for lane in range(half):
                a, b = acc[lane], acc[lane + half]
                acc[lane] = a if a < b else b
            half //= 2
        if abs(acc[0]) >= tiny:  # (not NaN, zero or subnormal)
            break
    a, b = acc[0], init[0]
    return a if a < b else b
