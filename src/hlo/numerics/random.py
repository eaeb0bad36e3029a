"""Random numbers: rng-bit-generator bit for bit as XLA:CPU computes it (Threefry-2x32 with 20
rounds and Philox-4x32 with 10, fed by counters the way XLA's RngBitGeneratorExpander and
prng library lay them out), and rng uniform/normal from a seeded NumPy generator (XLA does not
fix their bits). All arithmetic is on uint32/uint64 arrays, wrapping."""

from __future__ import annotations

import math

import numpy as np

from ..ir.attrs import RandomAlgorithm

U32, U64 = np.uint32, np.uint64
_MASK32 = U64(0xFFFFFFFF)


def _lo_hi(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=U64)
    return (x & _MASK32).astype(U32), (x >> U64(32)).astype(U32)


def _key(key: np.uint64) -> tuple[np.uint32, np.uint32]:
    value = int(key)
    return U32(value & 0xFFFFFFFF), U32(value >> 32)


def _u64(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(U64) | (hi.astype(U64) << U64(32))


# -- Threefry ---------------------------------------------------------------------------------
_ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)


def threefry2x32(
    x0: np.ndarray, x1: np.ndarray, k0: np.uint32, k1: np.uint32
) -> tuple[np.ndarray, np.ndarray]:
    """Threefry-2x32, 20 rounds (Salmon et al. 2011), as XLA's prng library."""
    ks = (U32(k0), U32(k1), U32(0x1BD11BDA ^ int(k0) ^ int(k1)))
    x0 = x0 + ks[0]
    x1 = x1 + ks[1]
    for block in range(5):
        for r in _ROTATIONS[4 * (block % 2) : 4 * (block % 2) + 4]:
            x0 = x0 + x1
            x1 = (x1 << U32(r)) | (x1 >> U32(32 - r))
            x1 = x0 ^ x1
        x0 = x0 + ks[(block + 1) % 3]
        x1 = x1 + U32((int(ks[(block + 2) % 3]) + block + 1) & 0xFFFFFFFF)
    return x0, x1


def _threefry_u32(key: np.uint64, counter: np.uint64, shape: tuple[int, ...]) -> tuple[np.ndarray, np.uint64]:
    """32-bit values: the shape split in halves along its first even (else largest) dimension,
    each counter giving two values."""
    k0, k1 = _key(key)
    if not shape:
        half: tuple[int, ...] = (1,)
        split = 0
    else:
        even = [d for d, n in enumerate(shape) if n % 2 == 0]
        split = even[0] if even else int(np.argmax(shape))
        half = shape[:split] + ((shape[split] + 1) // 2, 1) + shape[split + 1 :]
    count = math.prod(half)
    inputs = counter + np.arange(count, dtype=U64)
    lo, hi = _lo_hi(inputs)
    y0, y1 = threefry2x32(lo, hi, k0, k1)
    new_counter = U64((int(counter) + count) % 2**64)
    if not shape:
        return y0.reshape(()), new_counter
    pair = np.concatenate([y0.reshape(half), y1.reshape(half)], axis=split + 1)
    full = pair.reshape(shape[:split] + (2 * half[split],) + shape[split + 1 :])
    return full[tuple(slice(0, n) for n in shape)], new_counter


def _threefry_u64(key: np.uint64, counter: np.uint64, shape: tuple[int, ...]) -> tuple[np.ndarray, np.uint64]:
    k0, k1 = _key(key)
    count = math.prod(shape)
    lo, hi = _lo_hi(counter + np.arange(count, dtype=U64))
    y0, y1 = threefry2x32(lo, hi, k0, k1)
    return _u64(y0, y1).reshape(shape), U64((int(counter) + count) % 2**64)


# -- Philox -----------------------------------------------------------------------------------
def philox4x32(x: list[np.ndarray], k0: np.uint32, k1: np.uint32) -> list[np.ndarray]:
    """Philox-4x32, 10 rounds."""
    key0, key1 = U32(k0), U32(k1)
    for _ in range(10):
        p0 = x[0].astype(U64) * U64(0xD2511F53)
        p1 = x[2].astype(U64) * U64(0xCD9E8D57)
        hi0, lo0 = (p0 >> U64(32)).astype(U32), (p0 & _MASK32).astype(U32)
        hi1, lo1 = (p1 >> U64(32)).astype(U32), (p1 & _MASK32).astype(U32)
        x = [hi1 ^ x[1] ^ key0, lo1, hi0 ^ x[3] ^ key1, lo0]
        key0 = U32((int(key0) + 0x9E3779B9) & 0xFFFFFFFF)
        key1 = U32((int(key1) + 0xBB67AE85) & 0xFFFFFFFF)
    return x


def _philox_blocks(
    key: np.uint64, low: np.uint64, high: np.uint64, blocks: int
) -> tuple[list[np.ndarray], tuple[np.uint64, np.uint64]]:
    """Philox outputs for the 128-bit counters (high, low) + 0..blocks-1; the new counter."""
    k0, k1 = _key(key)
    steps = np.arange(blocks, dtype=U64)
    new_low = low + steps
    new_high = np.where(new_low < low, high + U64(1), high).astype(U64)
    a, b = _lo_hi(new_low)
    c, d = _lo_hi(new_high)
    end_low = U64((int(low) + blocks) % 2**64)
    end_high = U64((int(high) + 1) % 2**64) if end_low < low else U64(high)
    return philox4x32([a, b, c, d], k0, k1), (end_low, end_high)


def _philox(
    key: np.uint64, low: np.uint64, high: np.uint64, shape: tuple[int, ...], bits: int
) -> tuple[np.ndarray, tuple[np.uint64, np.uint64]]:
    count = math.prod(shape)
    if bits == 64:
        out, state = _philox_blocks(key, low, high, -(-2 * count // 4))
        words = np.stack([_u64(out[0], out[1]), _u64(out[2], out[3])], axis=1).reshape(-1)
    else:
        out, state = _philox_blocks(key, low, high, -(-count // 4))
        words = np.stack(out, axis=1).reshape(-1)
    return words[:count].reshape(shape), state


# -- the op -------------------------------------------------------------------------------------
def rng_bit_generator(
    algorithm: RandomAlgorithm, state: np.ndarray, shape: tuple[int, ...], dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray]:
    """(new state, random bits of `shape` read as `dtype`). DEFAULT is Philox on CPU. Types
    narrower than 32 bits take the low bits of 32-bit values, as XLA does."""
    dtype = np.dtype(dtype)
    state = np.asarray(state, dtype=U64)
    bits = 8 * dtype.itemsize
    key = U64(state[0])
    if algorithm is RandomAlgorithm.THREE_FRY:
        values, counter = (_threefry_u64 if bits == 64 else _threefry_u32)(key, U64(state[1]), shape)
        new_state = np.concatenate([[key], [counter], state[2:]]).astype(U64)
    else:
        if state.shape[0] >= 3:
            low, high = U64(state[1]), U64(state[2])
        else:
            low, high = U64(state[1]), U64(state[0])
        values, (end_low, end_high) = _philox(key, low, high, shape, 64 if bits == 64 else 32)
        tail = [end_low, end_high] if state.shape[0] >= 3 else [end_low]
        new_state = np.concatenate([[key], tail, state[1 + len(tail) :]]).astype(U64)
    unsigned = np.dtype(f"u{dtype.itemsize}")
    return new_state, values.astype(unsigned).view(dtype)
