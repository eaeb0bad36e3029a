"""Several devices' run for `hlo run` (replicas x partitions as threads of this process): timing
over `--iterations` (every device's run together, as one step of the program), and each
device's recorded values for `--dump-values` in DIR/device{N}/ (an index.json each)."""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import HloError
from ..ir.module import Module
from ..numerics.context import RunOptions
from ..replay.compare import compare_outputs, verdict
from ..replay.device_reference import load_device_references
from ..replay.instrument import Watch, instrument_if
from ..replay.reference import check_reference, leaves
from ..replay.values import dump_values
from ..runtime.run import Executable, check_device_counts
from .execute import Progress, _ms


def execute_devices(
    module: Module,
    per_device: Sequence[Sequence[Any]],
    options: RunOptions,
    replicas: int,
    partitions: int,
    iterations: int = 0,
    dump_dir: str | None = None,
    started: float | None = None,
) -> list[Any]:
    """Run every device once (and `iterations` more times, timed); the first results by device."""
    started = time.perf_counter() if started is None else started
    check_device_counts(module, replicas, partitions)
    if dump_dir is not None:  # every value recorded: no fused steps
        options = dataclasses.replace(options, fuse=False)
    executable = Executable(module, options)
    watch = Watch(record=dump_dir is not None, device=lambda: int(executable.context.state.get("device", 0)))
    # Watched by recorded values, or by a terminal's progress line.
    restore = instrument_if(executable, watch, dump_dir is not None or sys.stderr.isatty())
    total = sum(len(c.instructions) for c in module.computations)
    with Progress(watch, total):
        results = executable.run_devices(per_device, replicas, partitions)
    first = time.perf_counter() - started
    if dump_dir is not None:
        _dump(module, dump_dir, per_device, watch)
    if iterations:
        restore()  # timed runs as the engine runs them
        times = []
        for _ in range(iterations):
            t0 = time.perf_counter()
            executable.run_devices(per_device, replicas, partitions)
            times.append(time.perf_counter() - t0)
        print(
            f"{iterations} runs of {len(per_device)} devices after a warm-up: min {_ms(min(times))}, "
            f"median {_ms(statistics.median(times))}, max {_ms(max(times))}; "
            f"first result {_ms(first)} (parse + plan + run)"
        )
    return list(results)


def _dump(module: Module, directory: str, per_device: Sequence[Sequence[Any]], watch: Watch) -> None:
    path = Path(directory)
    if not path.parent.is_dir():
        raise HloError(f"{directory}: cannot write values: the directory {str(path.parent)!r} does not exist")
    path.mkdir(exist_ok=True)
    types = {
        (c.name, i.name): i.shape.to_string(print_layout=False)
        for c in module.computations
        for i in c.instructions
    }
    count = 0
    for device, inputs in enumerate(per_device):
        values = {(module.entry_name, p.name): v for p, v in zip(module.entry.parameters, inputs)}
        values.update(watch.by_device.get(device, {}))
        count += dump_values(str(path / f"device{device}"), values, types)
    print(
        f"wrote {count} values of {len(per_device)} devices to {directory}/device*/ (index.json)",
        file=sys.stderr,
    )


def compare_devices(args: argparse.Namespace, results: Sequence[Any]) -> int:
    """`--compare` of every device's outputs, named `device N outK`; exit status 1 on a mismatch."""
    got = [leaves(r) for r in results]
    wants = load_device_references(args.compare, len(got), len(got[0]))
    reports = []
    for device, (g, w) in enumerate(zip(got, wants)):
        g = check_reference(f"{args.compare} (device {device})", g, w)
        names = [f"device {device} out{k}" for k in range(len(g))]
        reports += compare_outputs(names, g, w, args.rtol, args.atol, args.signed_zeros)
    for r in reports:  # one line per output, then the verdict
        print(r.describe())
    print(f"compared with {args.compare}: {verdict(reports)}")
    return 0 if all(r.ok for r in reports) else 1

