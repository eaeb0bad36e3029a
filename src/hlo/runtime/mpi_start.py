"""The start of a run over MPI: every rank says whether it is ready (the module read, its inputs
loaded, the plan made) before any rank enters a collective.

Without it a rank that fails before the run (a missing inputs file on that rank only, a key its
`.npz` lacks) ends, while the others wait at their first collective for ever. Each rank sends its
readiness, or its error, to every other one point to point and waits for theirs with a deadline,
so every rank ends within the timeout with the cause and the rank that failed.
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import CollectiveError

_START = 31000  # the tag of the start messages (data tags are below 30000, notices at 32000)


def agree_to_start(comm: Any, error: str | None, timeout: float) -> None:
    """Return when every rank is ready; otherwise a CollectiveError naming the first rank that
    failed and why, or the ranks that did not answer within `timeout` seconds."""
    rank, size = comm.Get_rank(), comm.Get_size()
    requests = [comm.isend(error, dest=d, tag=_START) for d in range(size) if d != rank]
    errors: dict[int, str] = {rank: error} if error is not None else {}
    waiting = set(range(size)) - {rank}
    deadline = time.monotonic() + timeout
    while waiting:
        for d in sorted(waiting):
            if comm.iprobe(source=d, tag=_START):
                message = comm.recv(source=d, tag=_START)
                waiting.discard(d)
                if message is not None:
                    errors[d] = message
        if waiting and time.monotonic() > deadline:
            raise CollectiveError(
                f"device {rank}: rank{'s' if len(waiting) > 1 else ''} {sorted(waiting)} did not "
                f"start the run within {timeout:g} s (ended, or still reading the module)"
            )
        if waiting:
            time.sleep(0.001)
    for r in requests:
        r.wait()
    if errors:
        first = min(errors)
        cause = errors[first]
        if first == rank:
            raise CollectiveError(cause)
        raise CollectiveError(f"device {rank}: not run, because rank {first} failed before the run: {cause}")
