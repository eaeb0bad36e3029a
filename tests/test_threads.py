"""Each device's thread knows how many cores its kernels may use (numerics/threads.py): all of
them for one device, a share when several devices run in the process (at least one)."""

from __future__ import annotations

import numpy as np
import pytest

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


def test_xla_threads_follow_the_environment_and_refuse_nonsense(monkeypatch: pytest.MonkeyPatch) -> None:
    """HLO_XLA_THREADS names XLA:CPU's thread count (the sums' tiles depend on it); without it,
    the process's cores; anything but a positive whole number is a clear error."""
    from hlo.errors import EvalError
    from hlo.numerics import vector_sum

    monkeypatch.setenv("HLO_XLA_THREADS", "1")
    assert threads.xla_threads() == 1 and not vector_sum.tiled()
    monkeypatch.setenv("HLO_XLA_THREADS", "4")
    assert threads.xla_threads() == 4 and vector_sum.tiled()
    monkeypatch.delenv("HLO_XLA_THREADS")
    assert threads.xla_threads() == threads.cores()
    for bad in ("0", "two", "-1", "1.5"):
        monkeypatch.setenv("HLO_XLA_THREADS", bad)
        with pytest.raises(EvalError, match="HLO_XLA_THREADS must be a positive whole number"):
            threads.xla_threads()
