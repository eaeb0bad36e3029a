"""Device arrays of shardings, meshes and iota replica groups (XLA's tile_assignment.cc).

An array of device ids is either explicit (the ids, row-major) or an *iota*: `iota(prod R)` reshaped
to R, transposed by P and reshaped to the array's dims, written `[dims]<=[R]T(P)`. Iotas are kept
canonical (printer notes §6.10), so equal iotas print equally; transposing one keeps the iota form
whenever XLA's algorithm does, so normalized shardings print exactly as XLA prints them.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def canonicalize_iota(
    reshape_dims: Sequence[int], perm: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """XLA's CanonicalizeIotaDims: drop size-1 dims and merge runs of dims that stay major-to-minor
    after the transpose, until nothing changes; `[3,4,5]T(1,2,0)` becomes `[3,20]T(1,0)`."""
    dims, p = list(reshape_dims), list(perm)
    if len(dims) <= 1:
        return tuple(dims), tuple(p)
    while True:
        if 1 in dims:
            new_index = np.cumsum([d != 1 for d in dims]) - 1
            p = [int(new_index[q]) for q in p if dims[q] != 1]
            dims = [d for d in dims if d != 1]
        changed = False
        base = 0
        for i in range(1, len(dims)):
            if p[base] + (i - base) == p[i]:
                dims[p[base]] *= dims[p[i]]
                dims[p[i]] = 1
                changed = True
            else:
                base = i
        if not changed:
            break
    return (tuple(dims), tuple(p)) if dims else ((1,), (0,))


def check_permutation(perm: Sequence[int], rank: int, what: str) -> None:
    if sorted(perm) != list(range(rank)):
        raise ValueError(f"{what} ({','.join(map(str, perm))}) is not a permutation of 0..{rank - 1}")


class _TransposeKind(enum.Enum):
    NOOP = 0  # nothing moves
    RESHAPE = 1  # only size-1 dims move: the flat array is unchanged
    TRANSPOSE = 2


def _transpose_kind(dims: Sequence[int], perm: Sequence[int]) -> _TransposeKind:
    kind = _TransposeKind.NOOP
    prev = -1
    for i, d in enumerate(perm):
        if dims[d] == 1:
            if d != i and dims[i] != 1:
                kind = _TransposeKind.RESHAPE
            continue
        if d <= prev:
            return _TransposeKind.TRANSPOSE
        prev = d
    return kind


def _prime_factors(n: int) -> list[int]:
    factors = []
    while n % 2 == 0 and n > 1:
        factors.append(2)
        n //= 2
    f = 3
    while f * f <= n:
        while n % f == 0:
            factors.append(f)
            n //= f
        f += 2
    return factors + ([n] if n > 1 else [])


@dataclass(frozen=True)
class IotaTileAssignment:
    """`[dims]<=[reshape_dims]T(transpose_perm)`; build it with `create` to get the canonical form."""

    dims: tuple[int, ...]
    reshape_dims: tuple[int, ...]
    transpose_perm: tuple[int, ...]

    @staticmethod
    def create(
        dims: Sequence[int], reshape_dims: Sequence[int] | None = None, perm: Sequence[int] | None = None
    ) -> IotaTileAssignment:
        """Validated and canonical; without reshape dims the plain iota over `dims`."""
        dims = tuple(int(d) for d in dims)
        if any(d < 0 for d in dims):
            raise ValueError(f"negative dimension in [{','.join(map(str, dims))}]")
        reshape = (math.prod(dims),) if reshape_dims is None else tuple(int(d) for d in reshape_dims)
        p = tuple(range(len(reshape))) if perm is None else tuple(int(x) for x in perm)
        if not reshape:
            raise ValueError("the iota reshape dimensions must not be empty")
        if len(p) != len(reshape):
            raise ValueError(
                f"iota_transpose_perm should have the same rank as iota_reshape_dims : "
                f"expected {len(reshape)}, saw {len(p)}."
            )
        check_permutation(p, len(reshape), "the iota transpose")
        if math.prod(reshape) != math.prod(dims):
            raise ValueError(
                f"the iota [{','.join(map(str, reshape))}] has {math.prod(reshape)} devices but "
                f"[{','.join(map(str, dims))}] needs {math.prod(dims)}"
            )
        return IotaTileAssignment(dims, *canonicalize_iota(reshape, p))

    def array(self) -> np.ndarray:
        n = math.prod(self.reshape_dims)
        return (
            np.arange(n, dtype=np.int64)
            .reshape(self.reshape_dims)
            .transpose(self.transpose_perm)
            .reshape(self.dims)
        )

    def transpose(self, perm: Sequence[int]) -> IotaTileAssignment | None:
        """The iota of the array transposed by `perm`, or None where XLA's IotaTileAssignment::
        Transpose gives up (the caller then materializes the array)."""
        dims = self.dims
        kind = _transpose_kind(dims, perm)
        if kind is _TransposeKind.NOOP:
            return self
        new_dims = [dims[p] for p in perm]
        if kind is _TransposeKind.RESHAPE:
            return IotaTileAssignment.create(new_dims, self.reshape_dims, self.transpose_perm)
        if len(self.reshape_dims) == 1:
            return IotaTileAssignment.create(new_dims, dims, perm)
        reshape, tperm = self.reshape_dims, self.transpose_perm
        one_to_non_one: list[int] = []
        non_one: list[int] = []
        pure = True
        for d in dims:
            if d == 1:
                one_to_non_one.append(-1)
                continue
            if len(non_one) >= len(reshape) or reshape[tperm[len(non_one)]] != d:
                pure = False
            one_to_non_one.append(len(non_one))
            non_one.append(d)
        if pure:
            new_perm = [tperm[one_to_non_one[p]] for p in perm if dims[p] != 1]
            return IotaTileAssignment.create(new_dims, reshape, new_perm)
        return self._transpose_decanonicalized(perm, new_dims, non_one, one_to_non_one)

    def _transpose_decanonicalized(
        self, perm: Sequence[int], new_dims: list[int], non_one: list[int], one_to_non_one: list[int]
    ) -> IotaTileAssignment | None:
        """Split the reshape dims into prime factors, group them to match the array's dims, and
        transpose the groups (XLA's FullyDecanonicalize path)."""
        factors: list[int] = []
        starts = [0]
        for size in self.reshape_dims:
            factors += _prime_factors(size)
            starts.append(len(factors))
        fperm: list[int] = []  # the transpose over factors
        origin: list[int] = []  # fperm index -> original reshape dim
        by_origin: list[list[int]] = [[] for _ in self.reshape_dims]
        for old in self.transpose_perm:
            for j in range(starts[old], starts[old + 1]):
                fperm.append(j)
                origin.append(old)
                by_origin[old].append(len(fperm) - 1)

        def candidate(target: int, idx: int) -> int | None:
            dim = fperm[idx]
            if target % factors[dim] == 0:
                return dim
            for later in by_origin[origin[idx]]:
                if later > idx and target % factors[fperm[later]] == 0:
                    other = fperm[later]
                    factors[dim], factors[other] = factors[other], factors[dim]
                    return dim
            return None

        groups: list[list[int]] = [[] for _ in non_one]
        idx = 0
        for i, target in enumerate(non_one):
            if idx >= len(factors):
                break
            dim = candidate(target, idx)
            while dim is not None:
                target //= factors[dim]
                groups[i].append(dim)
                idx += 1
                if idx >= len(factors):
                    break
                dim = candidate(target, idx)
            if target != 1:
                return None
        flat = [g for p in perm if one_to_non_one[p] >= 0 for g in groups[one_to_non_one[p]]]
        if len(flat) != len(fperm):
            return None
        return IotaTileAssignment.create(new_dims, factors, flat)


@dataclass(frozen=True, eq=False)
class TileAssignment:
    """An array of device ids of shape `dims`: an iota (`iota` set) or explicit ids (`devices`,
    row-major). Equality is by value, as XLA's (two iotas compare by their canonical forms)."""

    dims: tuple[int, ...]
    devices: tuple[int, ...] | None = None
    iota: IotaTileAssignment | None = None

    def __post_init__(self) -> None:
        if (self.devices is None) == (self.iota is None):
            raise ValueError("a tile assignment is either explicit devices or an iota")
        if self.iota is not None and self.iota.dims != self.dims:
            raise ValueError("the iota's dimensions differ from the tile assignment's")
        if self.devices is not None and len(self.devices) != math.prod(self.dims):
            raise ValueError(
                f"[{','.join(map(str, self.dims))}] needs {math.prod(self.dims)} device ids, "
                f"found {len(self.devices)}"
            )

    @staticmethod
    def make_iota(
        dims: Sequence[int], reshape_dims: Sequence[int] | None = None, perm: Sequence[int] | None = None
    ) -> TileAssignment:
        iota = IotaTileAssignment.create(dims, reshape_dims, perm)
        return TileAssignment(iota.dims, iota=iota)

    @staticmethod
    def from_array(array: np.ndarray) -> TileAssignment:
        return TileAssignment(tuple(array.shape), devices=tuple(int(x) for x in array.ravel()))

    @property
    def ndims(self) -> int:
        return len(self.dims)

    @property
    def num_elements(self) -> int:
        return math.prod(self.dims)

    def array(self) -> np.ndarray:
        """The device ids as an int64 array of shape `dims`."""
        if self.iota is not None:
            return self.iota.array()
        return np.array(self.devices, dtype=np.int64).reshape(self.dims)

    def reshape(self, dims: Sequence[int]) -> TileAssignment:
        if self.iota is not None:
            return TileAssignment.make_iota(dims, self.iota.reshape_dims, self.iota.transpose_perm)
        return TileAssignment.from_array(self.array().reshape(tuple(dims)))

    def transpose(self, perm: Sequence[int]) -> TileAssignment:
        if _transpose_kind(self.dims, perm) is _TransposeKind.NOOP:
            return self
        if self.iota is not None:
            iota = self.iota.transpose(perm)
            if iota is not None:
                return TileAssignment(iota.dims, iota=iota)
        return TileAssignment.from_array(self.array().transpose(tuple(perm)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileAssignment):
            return NotImplemented
        if self.iota is not None and other.iota is not None:
            return self.iota == other.iota
        return self.dims == other.dims and bool(np.array_equal(self.array(), other.array()))

    def __hash__(self) -> int:
        return hash((self.dims, self.array().tobytes()))
