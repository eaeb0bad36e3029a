"""Devices as MPI ranks (`mpiexec -n N hlo run MODULE --backend mpi`): rank d runs device d.

Collectives of arrays run as MPI collectives on the group's sub-communicator (runtime.mpi_buffers:
all-reduce, reduce-scatter, all-gather, all-to-all, broadcast; permutes point to point), after a
small header exchange that checks every member is at the same collective. The rest (tuple
all-to-all, ragged-all-to-all, reducers of tuples) send each value to the other members (pickled,
point to point, tagged by the instruction and how many times it ran) and compute the group's
result locally with the in-process backend's code. Both ways agree with the in-process backend
bit for bit. A rank that ends or fails tells every other rank; a rank waiting for one that has
ended, or for longer than the timeout, aborts the job with an error on every rank instead of
hanging.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import CollectiveError, HloError
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ops.collective_groups import Devices, GroupsFn, Pattern
from . import mpi_buffers

_DATA_TAGS = 30000
_NOTICE = 32000  # "I ended" / "I failed" messages


_RUNS = [0]
_RANKS_HERE: list[int] = []


def _next_run() -> int:
    """Runs in one process are numbered alike on every rank (each rank makes the same runs)."""
    _RUNS[0] += 1
    return _RUNS[0]


def comm_world() -> Any:
    try:
        from mpi4py import MPI
    except ImportError:
        raise HloError(
            "the MPI backend needs mpi4py: pip install 'hlo[mpi]' (mpi4py with the mpich wheel)"
        ) from None
    return MPI.COMM_WORLD


@dataclass
class MpiRendezvous:
    comm: Any
    devices: Devices
    timeout: float = 300.0
    ended: dict[int, str] = field(default_factory=dict)
    passed: dict[int, dict[str, int]] = field(default_factory=dict)
    run: int = field(default_factory=lambda: _next_run())
    comms: dict[tuple[int, ...], Any] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)

    def ranks_here(self) -> int:
        """How many ranks share this rank's machine (asked once per process: collective)."""
        if not _RANKS_HERE:
            from mpi4py import MPI

            _RANKS_HERE.append(self.comm.Split_type(MPI.COMM_TYPE_SHARED).Get_size())
        return _RANKS_HERE[0]

    def prepare(self, module: Module) -> None:
        """Make the sub-communicators of the module's collectives (every rank, same order)."""
        self.comms = mpi_buffers.group_comms(self.comm, module, self.devices)
        self.names = {
            zlib.crc32(i.name.encode()): i.name for c in module.computations for i in c.instructions
        }

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
        if len(group) == 1:
            return combine([value])[0]
        arrays = list(value) if isinstance(value, tuple) else [value]
        if pattern is not None and all(isinstance(a, np.ndarray) for a in arrays):
            if pattern.kind == "permute":
                tag = self._tag(instr, count)
                wait = self._waiter(instr, count, group)
                out = mpi_buffers.permute(self.comm, tag, device, group, pattern.pairs, arrays, wait)
                return tuple(out) if isinstance(value, tuple) else out[0]
            comm = self.comms.get(group)
            if comm is not None and (pattern.kind != "all_to_all" or len(arrays) == 1):
                sizes = tuple(a.shape for a in arrays)
                wait = self._checked(comm, instr, count, group, self._waiter(instr, count, group), sizes)
                out = [mpi_buffers.run_pattern(comm, pattern, a, wait) for a in arrays]
                wait(None)
                return tuple(out) if isinstance(value, tuple) else out[0]
        return self._exchange_values(instr, count, device, group, value, combine)

    def _tag(self, instr: Instruction, count: int) -> int:
        return zlib.crc32(f"{self.run}:{instr.name}:{count}".encode()) % _DATA_TAGS

    def _checked(
        self,
        comm: Any,
        instr: Instruction,
        count: int,
        group: tuple[int, ...],
        wait: mpi_buffers.Wait,
        sizes: tuple[tuple[int, ...], ...] = (),
    ) -> mpi_buffers.Wait:
        """`wait`, checking first that every member of the group is at this collective for the
        same time: a header exchange started now, overlapping the first data request (which it
        precedes on the communicator) and waited for before it. `wait(None)` just checks."""
        # the operands' sizes travel too: dynamic dimensions may differ from rank to rank, and
        # MPI would combine buffers of different lengths without a word
        mine = np.array([zlib.crc32(instr.name.encode()), count, zlib.crc32(repr(sizes).encode())], np.int64)
        headers = np.empty((len(group), 3), np.int64)
        pending = [comm.Iallgather(mine, headers)]

        def checked(request: Any) -> None:
            if pending:
                wait(pending.pop())
                for d, (name, times, shape_sum) in zip(group, headers):
                    if name == mine[0] and times == count and shape_sum != mine[2]:
                        self.abort(
                            f"%{instr.name}: device {d} brings operands of other sizes than device "
                            f"{self.comm.Get_rank()}'s {' '.join(str(list(s)) for s in sizes)} "
                            f"(group {list(group)}): the dynamic sizes must agree"
                        )
                    if name != mine[0] or times != count:
                        where = self.names.get(int(name), "another collective")
                        self.abort(
                            f"%{instr.name}: device {d} is at %{where} (time {times}) while device "
                            f"{self.comm.Get_rank()} waits at %{instr.name} (time {count}) with group "
                            f"{list(group)}"
                        )
            if request is not None:
                wait(request)

        return checked

    def _gone(self, device: int, instr: Instruction, count: int) -> bool:
        """Whether `device` has ended without running `instr` for the `count`-th time (one that
        ended after it finishes its part of the collective while it waits for the others)."""
        return device in self.ended and self.passed.get(device, {}).get(instr.name, 0) <= count

    def _waiter(self, instr: Instruction, count: int, group: tuple[int, ...]) -> mpi_buffers.Wait:
        """Wait for an MPI request, watching for ended group members and the timeout."""

        def wait(request: Any) -> None:
            if request.Test():
                return
            deadline = time.monotonic() + self.timeout
            next_look = 0.0
            while not request.Test():
                now = time.monotonic()
                if now >= next_look:
                    next_look = now + 0.002
                    self._poll_notices()
                    gone = [d for d in group if self._gone(d, instr, count)]
                    if gone:
                        self.abort(
                            f"%{instr.name}: device {gone[0]} {self.ended[gone[0]]} without reaching this "
                            f"collective, which device {self.comm.Get_rank()} waits at"
                        )
                    if now > deadline:
                        self.abort(
                            f"%{instr.name}: device {self.comm.Get_rank()} waited {self.timeout:.0f} s at "
                            f"this collective (group {list(group)}): deadlock"
                        )
                time.sleep(0)

        return wait

    def _exchange_values(
        self,
        instr: Instruction,
        count: int,
        device: int,
        group: tuple[int, ...],
        value: Any,
        combine: GroupsFn,
    ) -> Any:
        """The general way: every member's value to every other, pickled; combined locally."""
        key = (self.run, instr.name, count, group)
        tag = self._tag(instr, count)
        requests = [self.comm.isend((key, value), dest=d, tag=tag) for d in group if d != device]
        values = {device: value}
        for d in group:
            if d != device:
                values[d] = self._receive(instr, d, tag, key)
        for r in requests:
            r.wait()
        outputs = combine([values[d] for d in group])
        return outputs[group.index(device)]

    def _receive(self, instr: Instruction, source: int, tag: int, key: tuple[Any, ...]) -> Any:
        """The message of `source` for this collective (probed first, so a message of any size
        is received whole), watching for ended ranks and the timeout meanwhile."""
        deadline = time.monotonic() + self.timeout
        while not self.comm.iprobe(source=source, tag=tag):
            self._poll_notices()
            if self._gone(source, instr, key[2]):
                self.abort(
                    f"%{instr.name}: device {source} {self.ended[source]} without reaching this collective, "
                    f"which device {self.comm.Get_rank()} waits at"
                )
            if time.monotonic() > deadline:
                self.abort(
                    f"%{instr.name}: device {self.comm.Get_rank()} waited {self.timeout:.0f} s for device "
                    f"{source}: deadlock"
                )
            time.sleep(0.0002)
        got_key, value = self.comm.recv(source=source, tag=tag)
        if got_key != key:
            self.abort(
                f"%{instr.name}: rank {source} sent for %{got_key[1]} (time {got_key[2]}, group "
                f"{list(got_key[3])}) while this rank waits at %{key[1]} (time {key[2]}, "
                f"group {list(key[3])})"
            )
        return value

    def _poll_notices(self) -> None:
        while self.comm.iprobe(tag=_NOTICE):
            status_source = self._probe_source()
            run, notice, passed = self.comm.recv(source=status_source, tag=_NOTICE)
            if run == self.run:  # notices of earlier runs in this process are stale
                self.ended[status_source] = notice
                self.passed[status_source] = passed

    def _probe_source(self) -> int:
        from mpi4py import MPI

        status = MPI.Status()
        self.comm.probe(tag=_NOTICE, status=status)
        return int(status.Get_source())

    def finish(self, device: int, error: str | None = None, passed: dict[str, int] | None = None) -> None:
        """Tell every other rank that this one has ended (or failed), and how many times it ran
        each collective (`passed`)."""
        notice = "failed" if error else "ended"
        requests = [
            self.comm.isend((self.run, notice, dict(passed or {})), dest=d, tag=_NOTICE)
            for d in range(self.comm.Get_size())
            if d != device
        ]
        if error is None:  # every rank ended: take the others' notices so none is left pending
            self.comm.Barrier()
            self._poll_notices()
        for r in requests:
            r.wait()

    def abort(self, message: str) -> None:
        """Fail this rank's run (the command line then reports it and aborts every rank)."""
        raise CollectiveError(message)
