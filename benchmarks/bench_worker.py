"""One measuring process of benchmarks/bench_xla.py: runs one HLO text on one engine and writes
what it saw as JSON (and, when asked, its results as arrays).

    python benchmarks/bench_worker.py ENGINE TEXT INPUTS OUT.json [--save-outputs PREFIX]
        [--warmup W] [--reps N] [--budget SECONDS]

ENGINE is `hlo` (parse + plan + run in this fresh process, then repeated runs of the planned
module; `--no-flush` runs with RunOptions(flush_denormals=False)) or `xla` (jaxlib's XLA:CPU:
the same text compiled with no compilation cache, then repeated executions on buffers already
on the device). Imports are not timed on either side.
The hlo process never imports jax, and caps its address space so that a runaway allocation
fails with MemoryError instead of taking the machine.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import leaves, load_arrays, reset_rss_peak, rss_now, rss_peak, save_arrays

# Results that alias another value in NumPy (no new buffer): not counted in the live set.
_VIEWS = {"tuple", "get-tuple-element", "bitcast", "parameter", "constant"}


def live_set_bytes(module: Any) -> int:
    """The largest sum of live array results over the entry's schedule, each value live from its
    instruction to its last use (the root to the end), parameters and constants not counted; an
    instruction that calls computations (call, while, fusion, ...) adds the largest live set of
    those while it runs: the memory the plan cannot do without, to hold the peak RSS against."""
    peaks: dict[str, int] = {}

    def bytes_of(i: Any) -> int:
        if i.opcode.text in _VIEWS:
            return 0
        leaves = (s for _, s in i.shape.leaves())
        return sum(s.element_count * max(1, s.element_type.bit_width // 8) for s in leaves if s.is_array)

    def peak_of(c: Any) -> int:
        if c.name in peaks:
            return peaks[c.name]
        peaks[c.name] = 0  # a recursive call (not in valid HLO) counts nothing
        last: dict[str, int] = {}
        for k, i in enumerate(c.instructions):
            for o in i.operands:
                last[o] = k
        size: dict[str, int] = {}
        live = peak = 0
        for k, i in enumerate(c.instructions):
            size[i.name] = bytes_of(i)
            inner = max((peak_of(module.computation(n)) for n in i.called_computations), default=0)
            peak = max(peak, live + size[i.name] + inner)
            live += size[i.name]
            for o in set(i.operands):
                if last[o] == k and o != c.root_name:
                    live -= size.get(o, 0)
        peaks[c.name] = peak
        return peak

    return peak_of(module.entry)


def _timed(fn: Callable[[], Any], warmup: int, reps: int, budget: float) -> tuple[Any, dict[str, Any]]:
    """Warm up, then time runs (at least 3, at most `reps`, stopping after `budget` seconds);
    the memory a run adds to the resting process (everything loaded, no result held) is the
    peak RSS over the timed runs above the RSS before them."""
    for _ in range(warmup):
        fn()
    gc.collect()
    base = rss_now()
    reset_rss_peak()
    times: list[float] = []
    start = time.perf_counter()
    out = None
    while len(times) < reps and (len(times) < 3 or time.perf_counter() - start < budget):
        out = None  # the last result is not held during the next run
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return out, {"times": times, "base_rss": base, "peak_rss": rss_peak()}


def traced_peak(fn: Callable[[], Any]) -> int:
    """What one more run allocates at its peak, result included, as tracemalloc sees it (NumPy
    reports its data buffers to it): the kernels' temporaries, which the RSS misses once glibc
    keeps freed blocks in its heap. A run of its own after the timed ones, as tracing slows
    every allocation. Background compilations still under way (a cold disk cache) finish
    first: their allocations are the compiler's, not the run's."""
    for thread in threading.enumerate():
        if thread.name.startswith("hlo-jit"):
            thread.join(timeout=120)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def run_hlo(text_path: Path, args: list[Any], opts: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    import hlo

    try:
        from hlo.runtime import compile_module  # after the runtime split
    except ImportError:
        from hlo.runtime import compile_module
    text = text_path.read_text()
    t0 = time.perf_counter()
    module = hlo.parse_module(text, text_path.name)
    t1 = time.perf_counter()
    jit = {"jit": opts.jit} if opts.jit else {}  # (older versions have no RunOptions.jit)
    executable = compile_module(module, hlo.RunOptions(flush_denormals=not opts.no_flush, **jit))
    t2 = time.perf_counter()
    out = executable(*args)
    t3 = time.perf_counter()
    first_peak = rss_peak()
    out = None
    out, timed = _timed(lambda: executable(*args), opts.warmup, opts.reps, opts.budget)
    saved, out = leaves(out), None  # the result of the timed runs is not held while tracing
    traced = traced_peak(lambda: executable(*args))
    report = {
        "first": t3 - t0,
        "parse": t1 - t0,
        "plan": t2 - t1,
        "first_run": t3 - t2,
        "first_peak_rss": first_peak,
        "live_set": live_set_bytes(module),
        "traced_peak": traced,
        "argument_bytes": sum(int(getattr(a, "nbytes", 0)) for a in leaves(args)),
        **timed,
    }
    return report, saved


def run_xla(text_path: Path, args: list[Any], opts: argparse.Namespace) -> tuple[dict[str, Any], Any]:
    import jax
    import jax.extend
    import numpy as np
    from jax._src.lib import _jax
    from jax._src.lib import xla_client as xc

    backend = jax.extend.backend.get_backend("cpu")
    devices = xc.DeviceList(tuple(backend.devices()[:1]))
    text = text_path.read_text()
    t0 = time.perf_counter()
    module = xc.hlo.hlo_module_from_text(text)
    computation = xc.XlaComputation(module.as_serialized_hlo_module_proto())
    mlir = _jax.mlir.xla_computation_to_mlir_module(computation)
    executable = backend.compile_and_load(mlir, devices, xc.CompileOptions())
    t1 = time.perf_counter()
    buffers = [jax.device_put(a) for a in args]

    def execute() -> Any:
        outs = executable.execute(buffers)
        for o in outs:
            o.block_until_ready()
        return outs

    out = execute()
    t2 = time.perf_counter()
    first_peak = rss_peak()
    out = None
    out, timed = _timed(execute, opts.warmup, opts.reps, opts.budget)
    report = {
        "first": t2 - t0,
        "compile": t1 - t0,
        "first_run": t2 - t1,
        "first_peak_rss": first_peak,
        **timed,
    }
    return report, [np.asarray(o) for o in out]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", choices=("hlo", "xla"))
    parser.add_argument("text", type=Path)
    parser.add_argument("inputs", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--save-outputs", type=Path)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--budget", type=float, default=5.0)
    parser.add_argument("--no-flush", action="store_true", help="hlo: keep subnormals (RunOptions)")
    parser.add_argument("--jit", choices=("auto", "eager", "off"), help="hlo: RunOptions.jit")
    parser.add_argument("--memory-limit", type=float, default=16.0, help="GiB of address space (hlo)")
    opts = parser.parse_args()
    if opts.engine == "hlo":
        limit = int(opts.memory_limit * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ.setdefault("JAX_ENABLE_COMPILATION_CACHE", "false")
    args = load_arrays(opts.inputs)
    try:
        report, outputs = (run_hlo if opts.engine == "hlo" else run_xla)(opts.text, args, opts)
    except (Exception, MemoryError) as e:  # reported, not raised: the table shows what failed
        message = " ".join(f"{type(e).__name__}: {e}".split())
        opts.out.write_text(json.dumps({"error": message[:300], "peak_rss": rss_peak()}))
        return
    if opts.save_outputs is not None:
        save_arrays(opts.save_outputs, outputs)
    opts.out.write_text(json.dumps(report))


if __name__ == "__main__":
    main()
