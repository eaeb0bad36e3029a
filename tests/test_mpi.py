"""The MPI backend: `mpiexec -n N hlo run MODULE --backend mpi` gives every rank the result the
in-process backend gives its device, and a rank left waiting at a collective ends the job with an
error instead of hanging."""

# ruff: noqa: E501  (command lines and HLO text)
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

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
  s = f32[3] all-reduce(x), replica_groups={{0,1},{2,3}}, to_apply=add
  g = f32[12] all-gather(x), replica_groups={}, dimensions={0}
  p = f32[3] collective-permute(x), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}
  ROOT t = (f32[3], f32[12], f32[3]) tuple(s, g, p)
}
"""

LOOP = """HloModule m, replica_count=2

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

cond {
  s = (s32[], f32[1]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  z = s32[] constant(0)
  ROOT c = pred[] compare(i, z), direction=GT
}

body {
  s = (s32[], f32[1]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[1] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] subtract(i, one)
  r = f32[1] all-reduce(v), replica_groups={}, to_apply=add
  ROOT t = (s32[], f32[1]) tuple(j, r)
}

ENTRY e {
  x = f32[1] parameter(0)
  n = s32[] parameter(1)
  init = (s32[], f32[1]) tuple(n, x)
  ROOT w = (s32[], f32[1]) while(init), condition=cond, body=body
}
"""


def hlo_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "hlo", *args]


def test_mpi_ranks_match_the_in_process_devices(tmp_path):
    module = tmp_path / "m.hlo"
    module.write_text(MODULE)
    subprocess.run(
        hlo_command("run", str(module), "--output", str(tmp_path / "threads{device}.npz")), check=True
    )
    done = subprocess.run(
        [MPIEXEC, "-n", "4", *hlo_command("run", str(module), "--backend", "mpi", "--output", str(tmp_path / "ranks{device}.npz"))],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for d in range(4):
        ranks, threads = np.load(tmp_path / f"ranks{d}.npz"), np.load(tmp_path / f"threads{d}.npz")
        assert sorted(ranks.files) == ["out0", "out1", "out2"]
        for k in ranks.files:
            assert np.array_equal(ranks[k], threads[k])


def test_a_rank_left_waiting_ends_the_job_with_an_error(tmp_path):
    module = tmp_path / "loop.hlo"
    module.write_text(LOOP)
    for d, n in enumerate((2, 3)):
        np.savez(tmp_path / f"in{d}.npz", arg0=np.ones(1, np.float32), arg1=np.int32(n))
    done = subprocess.run(
        [MPIEXEC, "-n", "2", *hlo_command("run", str(module), "--backend", "mpi", "--inputs", str(tmp_path / "in{device}.npz"), "--timeout", "20")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "device 0 ended without reaching this collective, which device 1 waits at" in done.stderr


def test_rank_count_must_match_the_devices(tmp_path):
    module = tmp_path / "m.hlo"
    module.write_text(MODULE)
    done = subprocess.run(
        [MPIEXEC, "-n", "2", *hlo_command("run", str(module), "--backend", "mpi")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "the MPI backend runs one device per rank: 2 ranks for 4 replicas x 1 partitions" in done.stderr


def test_every_collective_runs_over_mpi_bit_for_bit():
    """XLA:CPU's collective fixtures and more (broadcast, tuples, exact integer reducers, folded
    floats, uneven sizes, ragged and tuple all-to-all, partition groups in a loop) on 4 ranks."""
    done = subprocess.run(
        [MPIEXEC, "-n", "4", sys.executable, str(Path(__file__).parent / "mpi_collectives_check.py")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "checked 29 cases" in done.stdout


BRANCHES = """HloModule m, replica_count=2

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

left {
  a = f32[2] parameter(0)
  ROOT s = f32[2] all-reduce(a), replica_groups={}, to_apply=add
}

right {
  b = f32[2] parameter(0)
  ROOT t = f32[2] all-reduce(b), replica_groups={}, to_apply=add
}

ENTRY e {
  x = f32[2] parameter(0)
  r = u32[] replica-id()
  z = u32[] constant(0)
  p = pred[] compare(r, z), direction=EQ
  ROOT c = f32[2] conditional(p, x, x), true_computation=left, false_computation=right
}
"""


def test_ranks_at_different_collectives_end_the_job_with_an_error(tmp_path):
    module = tmp_path / "branches.hlo"
    module.write_text(BRANCHES)
    done = subprocess.run(
        [MPIEXEC, "-n", "2", *hlo_command("run", str(module), "--backend", "mpi", "--timeout", "20")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert "device 1 is at %t (time 0) while device 0 waits at %s (time 0)" in done.stderr or (
        "device 0 is at %s (time 0) while device 1 waits at %t (time 0)" in done.stderr
    ), done.stderr


def test_a_sharded_transformer_block_over_4_ranks_matches_jax(tmp_path):
    """The per-device module XLA:CPU compiled for a Megatron-style transformer block on a 4-device
    model mesh (tests/golden/sharded/transformer_4), one device per rank."""
    sharded = Path(__file__).parent / "golden" / "sharded"
    data = np.load(sharded / "transformer_4.npz")
    for d in range(4):
        np.savez(tmp_path / f"in{d}.npz", **{f"arg{k}": data[f"in{d}_{k}"] for k in range(9)})
    done = subprocess.run(
        [MPIEXEC, "-n", "4", *hlo_command("run", str(sharded / "transformer_4.hlo"), "--backend", "mpi", "--inputs", str(tmp_path / "in{device}.npz"), "--output", str(tmp_path / "out{device}.npz"))],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for d in range(4):
        got = np.load(tmp_path / f"out{d}.npz")
        np.testing.assert_allclose(got["out0"], data[f"out{d}_0"], rtol=1e-5, atol=1e-6, err_msg=f"rank {d}")
