"""Repeated blocks in a straight line of instructions, for the compiled entry tier
(hlo.numerics.jit_entry): a program traced from a Python loop (jax unrolls it) repeats the same
few instructions thousands of times, each block reading the block before it. numba compiles
about 300 lines a second, so such a program is written as a loop over one block instead: the
same ops in the same order, so the same bits, and a compile time that does not grow with the
count.

A region is `count` blocks of `period` instructions; block j's instructions have the op,
shape and attributes of block 0's, and each operand is either a value before the region (the
same for every block), an earlier instruction of the same block (at the same offset), or, for a
block after the first, an instruction of the block just before (the carried values; block 0
reads the initial values there). A block's values may be read only by itself and the next
block, except the last block's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.instruction import Instruction

MAX_PERIOD = 16  # instructions per block, at most
MIN_COUNT = 4  # blocks, at least: fewer are written out


@dataclass(frozen=True)
class Region:
    """`count` repetitions of the `period` instructions from `start` (indices into the line)."""

    start: int
    period: int
    count: int
    carried: dict[int, str]  # offset in the block -> the value block 0 reads there


def find_regions(line: list[Instruction]) -> dict[int, Region]:
    """The repeated regions of `line` (instructions in order, no parameters), by start."""
    index = {instr.name: k for k, instr in enumerate(line)}
    outside: dict[str, int] = {}  # values before the line (parameters): negative numbers
    for instr in line:
        for o in instr.operands:
            if o not in index and o not in outside:
                outside[o] = -1 - len(outside)
    names = {v: k for k, v in {**index, **outside}.items()}
    kinds: dict[object, int] = {}
    kind = []
    for instr in line:
        try:
            kind.append(kinds.setdefault((instr.opcode, instr.shape, instr.attrs), len(kinds)))
        except TypeError:  # (an attribute that does not hash: never part of a block)
            kind.append(-1 - len(kind))
    operands = [[index[o] if o in index else outside[o] for o in instr.operands] for instr in line]
    last_user = [-1] * len(line)
    for k, ops in enumerate(operands):
        for used in ops:
            if used >= 0:
                last_user[used] = max(last_user[used], k)
    finder = _Finder(kind, operands, last_user, names)
    regions: dict[int, Region] = {}
    k = 0
    while k < len(line):
        region = finder.best(k)
        if region is None:
            k += 1
            continue
        regions[k] = region
        k += region.period * region.count
    return regions


class _Finder:
    def __init__(
        self, kind: list[int], operands: list[list[int]], last_user: list[int], names: dict[int, str]
    ) -> None:
        self.kind, self.operands, self.last_user, self.names = kind, operands, last_user, names

    def best(self, start: int) -> Region | None:
        """The region from `start` covering the most instructions (the shortest period on a tie)."""
        best: Region | None = None
        n = len(self.kind)
        for period in range(1, MAX_PERIOD + 1):
            if start + MIN_COUNT * period > n:
                break
            region = self._region(start, period)
            if region is not None and (
                best is None or region.count * region.period > best.count * best.period
            ):
                best = region
                if start + region.count * period >= n - period:
                    break  # (it covers the rest)
        return best

    def _encode(self, k: int, block_start: int, period: int, start: int) -> tuple[int, ...] | None:
        """Instruction k of the block at block_start: its kind, then per operand a pair: (1, d)
        for the instruction d before (in this block or the previous one), (0, o) for value o
        before the region."""
        ops = [self.kind[k]]
        for o in self.operands[k]:
            if o >= block_start - period and o >= start:
                ops += (1, k - o)
            elif o < start:
                ops += (0, o)
            else:
                return None  # two blocks back
        return tuple(ops)

    def _region(self, start: int, period: int) -> Region | None:
        kind, operands = self.kind, self.operands
        second = start + period
        template = [self._encode(k, second, period, start) for k in range(second, second + period)]
        if any(t is None for t in template):
            return None
        carried: dict[int, str] = {}
        for i in range(period):  # block 0 against block 1
            k = start + i
            t = template[i]
            assert t is not None
            if kind[k] != t[0] or 2 * len(operands[k]) != len(t) - 1:
                return None
            for n, o in enumerate(operands[k]):
                relative, at = t[1 + 2 * n], t[2 + 2 * n]
                if not relative:
                    if o != at:
                        return None
                elif at <= i:  # this block
                    if o != k - at:
                        return None
                else:  # the previous block's offset q: block 0 reads a value before the region
                    q = i - at + period
                    if o >= start or carried.setdefault(q, self.names[o]) != self.names[o]:
                        return None
        count = 1
        n = len(kind)
        while True:
            block = start + count * period
            if block + period > n or not self._users_within(block - period, period):
                break
            if any(self._encode(block + i, block, period, start) != template[i] for i in range(period)):
                break
            count += 1
        if count < MIN_COUNT:
            return None
        return Region(start, period, count, carried)

    def _users_within(self, block: int, period: int) -> bool:
        """Whether the block's values are read only by itself and the next block."""
        end = block + 2 * period
        return all(self.last_user[k] < end for k in range(block, block + period))
