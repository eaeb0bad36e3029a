"""Several devices in one process: one thread per device runs the same plan; collectives meet at
a rendezvous. Device id = replica * num_partitions + partition.

At a collective each device deposits its value under a key (the instruction, how many times
this device has run it, its group); the last member to arrive computes every member's result
(deterministically, in group order) and wakes the others. A device that ends while others wait
for it, or devices all waiting at different collectives, end the run with a CollectiveError
naming the instructions and devices: never a hang.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import CollectiveError, HloError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ops.collective_groups import Devices, GroupsFn, Pattern, group_mode


@dataclass
class Rendezvous:
    """Where the devices' threads meet at collectives."""

    devices: Devices
    condition: threading.Condition = field(default_factory=threading.Condition)
    slots: dict[tuple[Any, ...], dict[int, Any]] = field(default_factory=dict)
    results: dict[tuple[tuple[Any, ...], int], Any] = field(default_factory=dict)
    waiting: dict[int, tuple[str, tuple[int, ...]]] = field(default_factory=dict)
    finished: dict[int, str] = field(default_factory=dict)
    failure: str | None = None

    def exchange(
        self,
        instr: Instruction,
        count: int,
        device: int,
        group: tuple[int, ...],
        value: Any,
        combine: GroupsFn,
        pattern: Pattern | None = None,
    ) -> Any:
        """Deposit `value`; return this device's share of `combine(values in group order)`."""
        key = (instr.name, count, group)
        with self.condition:
            self._check()
            slot = self.slots.setdefault(key, {})
            slot[device] = value
            if len(slot) == len(group):
                del self.slots[key]
                try:
                    outputs = combine([slot[d] for d in group])
                except HloError as e:
                    self.failure = f"%{instr.name}: {e.message}"
                    self.condition.notify_all()
                    raise
                for d, out in zip(group, outputs):
                    self.results[(key, d)] = out
                    self.waiting.pop(d, None)  # released: no longer blocked, even before it wakes
                self.condition.notify_all()
            else:
                self.waiting[device] = (instr.name, group)
                try:
                    while (key, device) not in self.results:
                        self._check()
                        self._check_progress(instr, group, slot)
                        self.condition.wait(timeout=1.0)
                finally:
                    self.waiting.pop(device, None)
            return self.results.pop((key, device))

    def finish(self, device: int, error: str | None = None) -> None:
        with self.condition:
            self.finished[device] = error or "finished"
            if error is not None and self.failure is None:
                self.failure = f"device {device} failed: {error}"
            self.condition.notify_all()

    def _check(self) -> None:
        if self.failure is not None:
            raise CollectiveError(self.failure)

    def _check_progress(self, instr: Instruction, group: tuple[int, ...], slot: dict[int, Any]) -> None:
        missing = [d for d in group if d not in slot]
        gone = [d for d in missing if d in self.finished]
        if gone:
            self.failure = (
                f"%{instr.name}: device{'s' if len(gone) > 1 else ''} {', '.join(map(str, gone))} "
                f"ended without reaching this collective, which devices {', '.join(map(str, sorted(slot)))} "
                f"wait at"
            )
            self.condition.notify_all()
            raise CollectiveError(self.failure)
        running = [d for d in range(self.devices.count) if d not in self.finished]
        if running and all(d in self.waiting for d in running):
            where = "; ".join(f"device {d} at %{self.waiting[d][0]}" for d in sorted(self.waiting))
            self.failure = f"deadlock: every device waits at a collective that cannot complete ({where})"
            self.condition.notify_all()
            raise CollectiveError(self.failure)


def run_devices(run_one: Callable[[int], Any], devices: Devices, rendezvous: Rendezvous) -> list[Any]:
    """Run `run_one(device)` on one thread per device; the results in device order, or the
    first error (a device's own error before the collective errors it caused in others)."""
    results: list[Any] = [None] * devices.count
    errors: list[tuple[int, BaseException]] = []

    def main(device: int) -> None:
        try:
            results[device] = run_one(device)
            rendezvous.finish(device)
        except BaseException as e:  # reported below, in the caller's thread
            errors.append((device, e))
            rendezvous.finish(device, e.message if isinstance(e, HloError) else repr(e))

    threads = [threading.Thread(target=main, args=(d,), daemon=True) for d in range(devices.count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        own = [e for e in errors if not isinstance(e[1], CollectiveError)]
        device, error = (own or errors)[0]
        names_device = isinstance(error, CollectiveError) and "device " in error.message
        if isinstance(error, HloError) and not names_device and devices.count > 1:
            raise type(error)(f"device {device}: {error.message}", error.span) from error
        raise error
    return results


def check_collectives(module: Any, devices: Devices) -> None:
    """Before any device starts: every replica group and permute pair of the module names
    devices that exist for this run (their shapes were checked by the verifier)."""
    for c in module.computations:
        for i in c.instructions:
            if i.opcode is Opcode.REDUCE_SCATTER:
                _check_scatter_split(i, c, devices)
            groups_attr = i.attrs.get("replica_groups")
            pairs = i.attrs.get("source_target_pairs")
            if groups_attr is None and pairs is None:
                continue
            mode = group_mode(i)
            count = {
                "replicas": devices.replicas, "partitions": devices.partitions,
                "replicas+partitions": devices.replicas, "flat": devices.count,
            }[mode]  # fmt: skip
            kind = {"replicas": "replica", "partitions": "partition", "replicas+partitions": "replica"}.get(
                mode, "device"
            )
            named = [d for g in (groups_attr.groups() if groups_attr is not None else ()) for d in g]
            named += [d for pair in (pairs or ()) for d in pair]
            bad = sorted({d for d in named if not 0 <= d < count})
            if bad:
                raise CollectiveError(
                    f"%{i.name}: names {kind} {', '.join(map(str, bad))}, but this run has {count} {kind}s "
                    f"({devices.replicas} replicas x {devices.partitions} partitions)",
                    i.span,
                )


def _check_scatter_split(i: Any, c: Any, devices: Devices) -> None:
    """A reduce-scatter with empty replica groups scatters over every device of its mode, which
    only the run knows: the operand must split evenly among them (the verifier cannot tell)."""
    groups = i.attrs.get("replica_groups")
    if groups is not None and groups.groups():
        return
    size = {
        "replicas": devices.replicas, "partitions": devices.partitions,
        "replicas+partitions": devices.count, "flat": devices.count,
    }[group_mode(i)]  # fmt: skip
    dim = i.attrs["dimensions"][0]
    for operand_name, result in zip(i.operands, i.shape.tuple_shapes if i.shape.is_tuple else (i.shape,)):
        operand = c.by_name[operand_name].shape
        n, m = operand.dimensions[dim], result.dimensions[dim]
        if not operand.is_static or n == m * size:
            continue
        raise CollectiveError(
            f"%{i.name}: scatters dimension {dim} of {operand} over the {size} devices of its group "
            f"({devices.replicas} replicas x {devices.partitions} partitions): the result's {m} "
            f"elements x {size} devices must be the operand's {n}",
            i.span,
        )
