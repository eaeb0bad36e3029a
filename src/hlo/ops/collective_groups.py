"""Who meets whom at a collective: the devices of a run, the participants of a group (XLA's
GetParticipatingDevices for each group mode) and the pattern of what a collective computes, for
the backends of hlo.runtime (in process, MPI) and the collective kernels alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import CollectiveError
from ..ir.instruction import Instruction
from .registry import spec

GroupsFn = Callable[[list[Any]], list[Any]]


@dataclass(frozen=True)
class Pattern:
    """What a collective computes, for a backend that moves buffers (MPI) rather than calling
    `combine` on the group's values (the in-process backend ignores it). `kind`:
    "reduce" (every member gets fold(values)); "reduce_scatter" (member k gets piece k of
    fold(values) along `dim`); "gather" (concatenation along `dim`); "all_to_all" (member j gets
    piece j of every member, concatenated along `dim`); "broadcast" (the first member's value);
    "permute" (`pairs` of group positions). `fold` folds a list of equal arrays in group order;
    `exact` names the recognised reducer when every order of folding gives the same bits."""

    kind: str
    dim: int = 0
    fold: Callable[..., Any] | None = None
    exact: str | None = None
    pairs: tuple[tuple[int, int], ...] = ()


@dataclass
class Devices:
    replicas: int
    partitions: int

    @property
    def count(self) -> int:
        return self.replicas * self.partitions

    def ids(self, device: int) -> tuple[int, int]:
        return divmod(device, self.partitions)


def participants(
    devices: Devices, device: int, mode: str, groups: Sequence[Sequence[int]], what: str
) -> tuple[int, ...]:
    """The devices, in group order, that take part with `device` (XLA's GetParticipatingDevices
    for the group mode): `mode` is "replicas", "partitions", "replicas+partitions" or "flat"."""
    replica, partition = devices.ids(device)
    if mode == "replicas":
        groups = groups or [range(devices.replicas)]
        group = _find(groups, replica, what, "replica", devices.replicas)
        return tuple(r * devices.partitions + partition for r in group)
    if mode == "partitions":
        groups = groups or [range(devices.partitions)]
        group = _find(groups, partition, what, "partition", devices.partitions)
        return tuple(replica * devices.partitions + p for p in group)
    if mode == "replicas+partitions":
        groups = groups or [range(devices.replicas)]
        group = _find(groups, replica, what, "replica", devices.replicas)
        return tuple(r * devices.partitions + p for r in group for p in range(devices.partitions))
    groups = groups or [range(devices.count)]
    return tuple(_find(groups, device, what, "device", devices.count))


def _find(groups: Sequence[Sequence[int]], member: int, what: str, kind: str, count: int) -> tuple[int, ...]:
    found = [tuple(g) for g in groups if member in g]
    for g in groups:
        for i in g:
            if not 0 <= i < count:
                raise CollectiveError(
                    f"{what}: replica_groups names {kind} {i}, but there are {count} {kind}s"
                )
    if not found:
        raise CollectiveError(f"{what}: {kind} {member} is in no replica group")
    return found[0]


def group_mode(instr: Instruction) -> str:
    has_channel = instr.attrs.get("channel_id") is not None
    if not has_channel:
        return "replicas"
    if "use_global_device_ids" not in spec(instr.opcode).by_name:
        return "partitions"
    return "flat" if instr.attrs.get("use_global_device_ids") else "replicas+partitions"
