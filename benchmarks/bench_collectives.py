"""Benchmark: collectives across devices. In process: an all-reduce of 4 MB per device on 8
devices. Over MPI (run with `mpiexec -n 4 python benchmarks/bench_collectives.py mpi`): the same
all-reduce through the MPI backend against raw mpi4py Allreduce on the same buffers.

    python benchmarks/bench_collectives.py
    mpiexec -n 4 python benchmarks/bench_collectives.py mpi [MB ...]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import hlo
import hlo.runtime.run

N = 1 << 20  # f32 elements per device: 4 MB


def module_text(n: int, times: int = 1) -> str:
    """An all-reduce of f32[n]; with times > 1, that many in a while loop (the per-run costs
    shared by all of them, as in a real program)."""
    head = """HloModule ar

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}
"""
    if times == 1:
        return (
            head
            + f"""
ENTRY e {{
  x = f32[{n}] parameter(0)
  ROOT s = f32[{n}] all-reduce(x), replica_groups={{}}, to_apply=add
}}
"""
        )
    return (
        head
        + f"""
cond {{
  s = (s32[], f32[{n}]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  k = s32[] constant({times})
  ROOT c = pred[] compare(i, k), direction=LT
}}

body {{
  s = (s32[], f32[{n}]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[{n}] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  r = f32[{n}] all-reduce(v), replica_groups={{}}, to_apply=add
  ROOT t = (s32[], f32[{n}]) tuple(j, r)
}}

ENTRY e {{
  x = f32[{n}] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[{n}]) tuple(z, x)
  ROOT w = (s32[], f32[{n}]) while(init), condition=cond, body=body
}}
"""
    )


def in_process(devices: int = 8, repeats: int = 5) -> None:
    module = hlo.parse_module(module_text(N))
    args = [[np.full(N, d, np.float32)] for d in range(devices)]
    executable = hlo.runtime.run.compile_module(module)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        executable.run_devices(args, devices, 1)
        times.append(time.perf_counter() - t)
    median = statistics.median(times)
    print(f"in process, {devices} devices, all-reduce of {4 * N >> 20} MB each: {median * 1e3:.1f} ms")


def over_mpi(n: int = N, times: int = 1, repeats: int = 15) -> None:
    """`times` all-reduces per run (one run, or a loop of them) against as many mpi4py
    Allreduces on the same buffers; the median time per all-reduce."""
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    size, rank = comm.Get_size(), comm.Get_rank()
    executable = hlo.runtime.run.compile_module(hlo.parse_module(module_text(n, times)))
    x = np.full(n, rank, np.float32)
    ours, raw = [], []
    for _ in range(repeats):
        comm.Barrier()
        t = time.perf_counter()
        executable.run_mpi([x], size, 1)
        ours.append((time.perf_counter() - t) / times)
        comm.Barrier()
        t = time.perf_counter()
        y = x
        for _ in range(times):
            out = np.empty_like(y)
            comm.Allreduce(y, out, op=MPI.SUM)
            y = out
        raw.append((time.perf_counter() - t) / times)
    if rank == 0:
        a, b = statistics.median(ours), statistics.median(raw)
        how = "one run" if times == 1 else f"{times} in a loop"
        print(f"MPI, {size} ranks, all-reduce of {4 * n >> 20} MB ({how}): hlo {a * 1e3:.2f} ms, mpi4py "
              f"Allreduce {b * 1e3:.2f} ms ({b / a:.0%} of raw speed)")  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["mpi"]:
        for megabytes in map(int, sys.argv[2:] or ["4"]):
            over_mpi(megabytes << 18)
            over_mpi(megabytes << 18, times=10, repeats=7)
    else:
        in_process()
