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
import hlo.engine

N = 1 << 20  # f32 elements per device: 4 MB


def module_text(n: int) -> str:
    return f"""HloModule ar

add {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}}

ENTRY e {{
  x = f32[{n}] parameter(0)
  ROOT s = f32[{n}] all-reduce(x), replica_groups={{}}, to_apply=add
}}
"""


def in_process(devices: int = 8, repeats: int = 5) -> None:
    module = hlo.parse_module(module_text(N))
    args = [[np.full(N, d, np.float32)] for d in range(devices)]
    executable = hlo.engine.compile_module(module)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        executable.run_devices(args, devices, 1)
        times.append(time.perf_counter() - t)
    median = statistics.median(times)
    print(f"in process, {devices} devices, all-reduce of {4 * N >> 20} MB each: {median * 1e3:.1f} ms")


def over_mpi(n: int = N, repeats: int = 15) -> None:
    from mpi4py import MPI

    comm = MPI.COMM_WORLD
    size, rank = comm.Get_size(), comm.Get_rank()
    module = hlo.parse_module(module_text(n))
    executable = hlo.engine.compile_module(module)
    x = np.full(n, rank, np.float32)
    ours, raw = [], []
    for _ in range(repeats):
        comm.Barrier()
        t = time.perf_counter()
        executable.run_mpi([x], size, 1)
        ours.append(time.perf_counter() - t)
        comm.Barrier()
        out = np.empty_like(x)
        t = time.perf_counter()
        comm.Allreduce(x, out, op=MPI.SUM)
        raw.append(time.perf_counter() - t)
    if rank == 0:
        a, b = statistics.median(ours), statistics.median(raw)
        print(f"MPI, {size} ranks, all-reduce of {4 * n >> 20} MB: hlo {a * 1e3:.1f} ms, mpi4py Allreduce "
              f"{b * 1e3:.1f} ms ({b / a:.0%} of raw speed)")  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["mpi"]:
        for megabytes in map(int, sys.argv[2:] or ["4"]):
            over_mpi(megabytes << 18)
    else:
        in_process()
