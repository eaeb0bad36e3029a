"""An immutable, hashable mapping: the attributes of an instruction are one."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(Mapping[K, V]):
    """A dict that cannot change after it is made; keeps insertion order; hashable when its
    values are."""

    __slots__ = ("_data", "_hash")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._data: dict[K, V] = dict(*args, **kwargs)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"

    def set(self, key: K, value: V) -> FrozenDict[K, V]:
        """A copy with `key` set to `value`."""
        data = dict(self._data)
        data[key] = value
        return FrozenDict(data)

    def without(self, key: K) -> FrozenDict[K, V]:
        return FrozenDict({k: v for k, v in self._data.items() if k != key})
