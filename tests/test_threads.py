"""Each device's thread knows how many cores its kernels may use (numerics/threads.py): all of
them for one device, a share when several devices run in the process (at least one)."""

from __future__ import annotations

import numpy as np

import hlo
from hlo.numerics import threads
from hlo.runtime.blas_threads import cores

MODULE = """HloModule m{replicas}
ENTRY e {{ p = f32[2] parameter(0)  ROOT c = f32[2] custom-call(p), custom_call_target="record_share" }}
"""


def test_the_run_gives_each_device_its_share_of_the_cores() -> None:
    seen: list[int] = []

    def record_share(x: np.ndarray) -> np.ndarray:
        seen.append(threads.share())
        return x

    hlo.register_custom_call("record_share", record_share)
    x = np.ones(2, np.float32)
    hlo.run(hlo.parse_module(MODULE.format(replicas="")), x)
    assert seen == [cores()]
    seen.clear()
    hlo.run(hlo.parse_module(MODULE.format(replicas=", replica_count=4")), x)
    assert seen == [max(1, cores() // 4)] * 4
    assert threads.share() == 1  # outside a run
