"""Devices as MPI ranks (`mpiexec -n N hlo run MODULE --backend mpi`): rank d runs device d.

At a collective each rank sends its value to the other members of its group and receives
theirs (point to point, tagged by the instruction and how many times it ran), then computes the
group's result locally with the same code as the in-process backend, so both backends agree bit
for bit. A rank that ends or fails tells every other rank; a rank waiting for one that has ended,
or for longer than the timeout, aborts the job with an error on every rank instead of hanging.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from ..errors import CollectiveError, HloError
from ..ir.instruction import Instruction
from .replicas import Devices, GroupsFn

_DATA_TAGS = 30000
_NOTICE = 32000  # "I ended" / "I failed" messages


_RUNS = [0]


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
    run: int = field(default_factory=lambda: _next_run())

    def exchange(
        self,
        instr: Instruction,
        count: int,
        device: int,
        group: tuple[int, ...],
        value: Any,
        combine: GroupsFn,
    ) -> Any:
        key = (self.run, instr.name, count, group)
        tag = zlib.crc32(f"{self.run}:{instr.name}:{count}".encode()) % _DATA_TAGS
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
            if source in self.ended:
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
            run, notice = self.comm.recv(source=status_source, tag=_NOTICE)
            if run == self.run:  # notices of earlier runs in this process are stale
                self.ended[status_source] = notice

    def _probe_source(self) -> int:
        from mpi4py import MPI

        status = MPI.Status()
        self.comm.probe(tag=_NOTICE, status=status)
        return int(status.Get_source())

    def finish(self, device: int, error: str | None = None) -> None:
        """Tell every other rank that this one has ended (or failed)."""
        notice = "failed" if error else "ended"
        requests = [
            self.comm.isend((self.run, notice), dest=d, tag=_NOTICE)
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
