"""Faults over MPI: a rank that fails before the run starts (its inputs file missing or corrupt,
on that rank only) ends every rank within the timeout with the cause and the rank, no hang; a
whole-run --timeout ends a runaway loop on every rank."""

# ruff: noqa: E501  (command lines)
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import mpiexec_or_skip

MPIEXEC = mpiexec_or_skip()

MODULE = """HloModule m, replica_count=4

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

ENTRY e {
  x = f32[3] parameter(0)
  ROOT s = f32[3] all-reduce(x), replica_groups={}, to_apply=add
}
"""

SPIN = """HloModule spin, replica_count=2

cond { p = s32[] parameter(0)  ROOT c = pred[] constant(true) }
body { p = s32[] parameter(0)  one = s32[] constant(1)  ROOT a = s32[] add(p, one) }
ENTRY e { z = s32[] constant(0)  ROOT w = s32[] while(z), condition=cond, body=body }
"""


def mpirun(n: int, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    done = subprocess.run(
        [MPIEXEC, "-n", str(n), sys.executable, "-m", "hlo", "run", *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return done, time.monotonic() - start


def inputs(tmp_path: Path, skip: int | None = None, corrupt: int | None = None) -> str:
    for d in range(4):
        path = tmp_path / f"in{d}.npz"
        if d == corrupt:
            path.write_bytes(b"not a zip file")
        elif d != skip:
            np.savez(path, arg0=np.full(3, d, np.float32))
    return str(tmp_path / "in{device}.npz")


@pytest.mark.parametrize("fault", ["missing", "corrupt", "missing key"])
def test_a_rank_failing_before_the_run_ends_every_rank(tmp_path, fault):
    module = tmp_path / "m.hlo"
    module.write_text(MODULE)
    if fault == "missing key":
        path = inputs(tmp_path)
        np.savez(tmp_path / "in2.npz", other=np.zeros(3, np.float32))
    else:
        path = inputs(
            tmp_path, skip=2 if fault == "missing" else None, corrupt=2 if fault == "corrupt" else None
        )
    done, took = mpirun(4, str(module), "--backend", "mpi", "--inputs", path, "--timeout", "30")
    assert done.returncode != 0
    assert took < 60
    assert "rank 2:" in done.stderr and "in2.npz" in done.stderr
    for d in (0, 1, 3):
        assert f"device {d}: not run, because rank 2 failed before the run" in done.stderr


def test_a_bad_module_on_every_rank_ends_every_rank(tmp_path):
    module = tmp_path / "m.hlo"
    module.write_text("HloModule m\nENTRY e { ROOT x = f32[3] parameter(0), oops }")
    done, took = mpirun(2, str(module), "--backend", "mpi", "--timeout", "30")
    assert done.returncode != 0 and took < 60
    assert done.stderr.count("m.hlo:2:") >= 1


def test_the_whole_run_timeout_holds_over_mpi(tmp_path):
    module = tmp_path / "spin.hlo"
    module.write_text(SPIN)
    done, took = mpirun(2, str(module), "--backend", "mpi", "--timeout", "3", "--max-iterations", "0")
    assert done.returncode != 0
    assert took < 60
    assert "the run is still going after the timeout of 3 seconds" in done.stderr


DYNAMIC = """HloModule m, replica_count=2
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT r = f32[] add(a, b) }
ENTRY e { x = f32[<=4] parameter(0)
  ROOT s = f32[<=4] all-reduce(x), replica_groups={}, to_apply=add }
"""


def test_dynamic_sizes_that_differ_across_ranks_are_a_located_error(tmp_path):
    """MPI would reduce buffers of different lengths without a word (a silent wrong answer)."""
    module = tmp_path / "dyn.hlo"
    module.write_text(DYNAMIC)
    for d, n in enumerate((2, 3)):
        np.savez(tmp_path / f"in{d}.npz", arg0=np.ones(n, np.float32))
    done, took = mpirun(
        2, str(module), "--backend", "mpi", "--inputs", str(tmp_path / "in{device}.npz"), "--timeout", "30"
    )
    assert done.returncode != 0 and took < 60
    assert (
        "dyn.hlo:4:8: error: %s: device 1 brings operands of other sizes than device 0's [2]" in done.stderr
    )


def test_a_killed_rank_ends_the_job(tmp_path):
    module = tmp_path / "killed_rank.hlo"
    module.write_text(
        SPIN.replace(
            "ROOT a = s32[] add(p, one)",
            "q = s32[] add(p, one)\n ROOT a = s32[] all-reduce(q), replica_groups={}, to_apply=sum",
        ).replace(
            "cond {",
            "sum { a = s32[] parameter(0)  b = s32[] parameter(1)  ROOT r = s32[] add(a, b) }\ncond {",
        )
    )
    start = time.monotonic()
    job = subprocess.Popen(
        [MPIEXEC, "-n", "2", sys.executable, "-m", "hlo", "run", str(module), "--backend", "mpi", "--timeout", "20", "--max-iterations", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        ranks: list[int] = []
        while len(ranks) < 2 and time.monotonic() - start < 30:
            time.sleep(0.5)
            ranks = rank_pids(module)
        assert len(ranks) == 2
        time.sleep(1.0)
        os.kill(ranks[1], 9)
        job.wait(timeout=60)
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()
    assert job.returncode != 0
    assert time.monotonic() - start < 90
    assert rank_pids(module) == []  # no orphan rank


def rank_pids(module: Path) -> list[int]:
    """The ranks (python processes, not mpiexec) running `module`."""
    found = subprocess.run(["pgrep", "-f", f"hlo run {module}"], capture_output=True, text=True)
    pids = []
    for p in found.stdout.split():
        try:
            argv0 = Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")[0].decode()
        except OSError:
            continue
        if Path(argv0).name.startswith("python"):
            pids.append(int(p))
    return pids
