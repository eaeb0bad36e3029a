"""A stable sort's order by one integer key of at most 32 bits, in about the memory of the
operand: each position's key and index packed into one int64 (key high, index low), sorted in
place, the indices then kept as int32 in the first half of the same buffer, which is shrunk.

argsort's int64 order beside the key, then beside the result, held 1.5x the live set of a
sort of 1M f32 (the key 4 MB + the order 8 MB); here the packed keys (8 MB) are the peak. The
packed values are distinct, so any sort of them is the stable order (NumPy's default sort, not
its slower stable one), and the result is the argsort's, bit for bit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import numpy as np

BLOCK = 1 << 16  # positions (of the last axis) whose key, or result, is made at once
KeyOf = Callable[[Sequence[np.ndarray]], np.ndarray]  # operands (a slice of positions) -> key


def stable_order(key_of: KeyOf, operands: Sequence[np.ndarray]) -> np.ndarray | None:
    """The stable ascending order by `key_of` along the last axis, as int32; None when the key
    is not an integer of at most 32 bits or the rows are too long for 32-bit indices."""
    shape = operands[0].shape
    n = shape[-1]
    if n >= 1 << 31 or n == 0 or 0 in shape:
        return None
    flat = np.empty(int(np.prod(shape, dtype=np.int64)), np.int64)  # (owns its buffer: resized)
    packed = flat.reshape(shape)
    positions = np.arange(min(n, BLOCK), dtype=np.int64)
    for a in range(0, n, BLOCK):
        b = min(n, a + BLOCK)
        key = np.asarray(key_of([o[..., a:b] for o in operands]))
        if key.dtype.kind not in "biu" or key.dtype.itemsize > 4:
            return None
        part = packed[..., a:b]
        part[...] = key
        if key.dtype == np.uint32:  # (into the signed high word, the order kept)
            part -= 1 << 31
        part <<= 32
        part |= positions[: b - a] + a
    packed.sort(axis=-1)
    del packed, part
    return _low_words(flat, shape)


def _low_words(flat: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The low 32 bits of each of `flat`'s int64s, as int32 moved into the buffer's first half,
    which then is all that is kept (a realloc: no second array)."""
    total = flat.size
    low = 0 if sys.byteorder == "little" else 1  # element i's low word is words[2 * i + low]
    words = flat.view(np.int32)
    a = 0
    while a < total:  # forwards: a block's sources lie at or after its destination's end
        b = min(total, a + max(BLOCK, a)) if a else min(total, BLOCK)
        words[a:b] = words[2 * a + low : 2 * b + low : 2]  # (the first block overlaps: NumPy buffers it)
        a = b
    del words
    flat.resize((total + 1) // 2, refcheck=False)
    return flat.view(np.int32)[:total].reshape(shape)


def gather(operand: np.ndarray, order: np.ndarray) -> np.ndarray:
    """`take_along_axis(operand, order, -1)` a block of positions at a time: NumPy makes intp
    indices of int32 ones, which would be twice the order's size at once."""
    out = np.empty(order.shape, operand.dtype)
    n = order.shape[-1]
    for a in range(0, n, BLOCK):
        b = min(n, a + BLOCK)
        out[..., a:b] = np.take_along_axis(operand, order[..., a:b].astype(np.intp), axis=-1)
    return out
