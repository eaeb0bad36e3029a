"""Benchmark: a Megatron-style transformer block sharded with shard_map (tools/make_sharded_fixtures.py),
the per-device module XLA:CPU compiled, run by hlo on 8 devices in process (2x4 data x model mesh)
and on 4 MPI ranks (4-way model mesh), against jax/XLA:CPU on the same program. Needs jax (the
dev extra) to make the modules at benchmark size; without it, the small test fixtures are used.

    python benchmarks/bench_sharded.py            # both, at benchmark size
    python benchmarks/bench_sharded.py --small    # the test fixtures' size
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import hlo

ROOT = Path(__file__).resolve().parent.parent
SIZE = {"batch": 8, "seq": 256, "d": 512, "heads": 64, "ffn": 2048}  # 64 heads of 8: d_model 512


def make(small: bool, work: Path) -> dict[str, tuple[Path, float | None]]:
    """Write <name>.hlo and <name>.npz for transformer_8 and transformer_4 into `work`; the jax
    time of each (None without jax)."""
    made: dict[str, tuple[Path, float | None]] = {}
    try:
        if small:
            raise ImportError
        sys.path.insert(0, str(ROOT / "tools"))
        import make_sharded_fixtures as tool  # needs jax; sets the host device count
    except ImportError:
        for name in ("transformer_8", "transformer_4"):
            for ext in ("hlo", "npz"):
                shutil.copy(ROOT / "tests" / "golden" / "sharded" / f"{name}.{ext}", work / f"{name}.{ext}")
            made[name] = (work / f"{name}.hlo", None)
        return made
    for name, data, model in (("transformer_8", 2, 4), ("transformer_4", 1, 4)):
        batch = SIZE["batch"] if data > 1 else SIZE["batch"] // 2
        program = tool.transformer_program(
            batch, SIZE["seq"], SIZE["d"], SIZE["heads"], SIZE["ffn"], data, model
        )
        text, arrays, fn, args = tool.build(program, 0)
        times = []
        for _ in range(5):
            t = time.perf_counter()
            for out in fn(*args):
                out.block_until_ready()
            times.append(time.perf_counter() - t)
        (work / f"{name}.hlo").write_text(text)
        np.savez(work / f"{name}.npz", **arrays)
        made[name] = (work / f"{name}.hlo", statistics.median(times))
    return made


def first(result: object) -> np.ndarray:
    """The first result of a device (the module's root may be the array or a tuple of it)."""
    return np.asarray(result[0] if isinstance(result, tuple) else result)


def device_args(data: np.lib.npyio.NpzFile, devices: int) -> list[list[np.ndarray]]:
    params = len({k.split("_")[1] for k in data.files if k.startswith("in0_")})
    return [[data[f"in{d}_{k}"] for k in range(params)] for d in range(devices)]


def in_process(path: Path, repeats: int = 3) -> tuple[float, float]:
    """Median seconds of hlo.run on every device, and the largest difference from jax."""
    module = hlo.parse_module(path.read_text(), path.name)
    data = np.load(path.with_suffix(".npz"))
    devices = module.config.replica_count * module.config.num_partitions
    args = device_args(data, devices)
    times, results = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        results = hlo.run(module, args)
        times.append(time.perf_counter() - t)
    diff = max(float(np.max(np.abs(first(r) - data[f"out{d}_0"]))) for d, r in enumerate(results))
    return statistics.median(times), diff


def over_mpi(path: Path, ranks: int = 4) -> str:
    """Run this script as an MPI worker on `ranks` ranks; its report line."""
    mpiexec = shutil.which("mpiexec", path=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    if mpiexec is None:
        return "no mpiexec (install the mpi extra)"
    done = subprocess.run(
        [mpiexec, "-n", str(ranks), sys.executable, __file__, "--mpi-worker", str(path)],
        capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    return done.stdout.strip() or done.stderr.strip()[-2000:]


def mpi_worker(path: Path, repeats: int = 3) -> None:
    from mpi4py import MPI

    from hlo.runtime.run import compile_module

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    module = hlo.parse_module(path.read_text(), path.name)
    data = np.load(path.with_suffix(".npz"))
    args = device_args(data, size)[rank]
    executable = compile_module(module)
    times = []
    for _ in range(repeats):
        comm.Barrier()
        t = time.perf_counter()
        result = executable.run_mpi(args, module.config.replica_count, module.config.num_partitions)
        comm.Barrier()
        times.append(time.perf_counter() - t)
    diff = float(np.max(np.abs(first(result) - data[f"out{rank}_0"])))
    diffs = comm.gather(diff, root=0)
    if rank == 0:
        print(f"{statistics.median(times) * 1e3:.0f} ms (max |hlo - jax| {max(diffs or [0]):.1e})")


def main() -> None:
    if sys.argv[1:2] == ["--mpi-worker"]:
        mpi_worker(Path(sys.argv[2]))
        return
    small = "--small" in sys.argv
    with tempfile.TemporaryDirectory() as tmp:
        made = make(small, Path(tmp))
        path8, jax8 = made["transformer_8"]
        path4, jax4 = made["transformer_4"]
        seconds, diff = in_process(path8)
        jax_text = f", jax/XLA:CPU {jax8 * 1e3:.0f} ms" if jax8 else ""
        print(
            f"in process, 8 devices (2x4 mesh): {seconds * 1e3:.0f} ms (max |hlo - jax| {diff:.1e}){jax_text}"
        )
        jax_text = f"; jax/XLA:CPU {jax4 * 1e3:.0f} ms" if jax4 else ""
        print(f"MPI, 4 ranks (4-way model mesh): {over_mpi(path4)}{jax_text}")
        seconds, diff = in_process(path4)
        print(
            f"in process, 4 devices (4-way model mesh): {seconds * 1e3:.0f} ms (max |hlo - jax| {diff:.1e})"
        )


if __name__ == "__main__":
    main()
