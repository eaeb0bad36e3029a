"""One device's run for `hlo run`: timing over `--iterations`, recorded values for
`--dump-values`, and a progress line on standard error (rich) once a run passes one second."""

from __future__ import annotations

import dataclasses
import statistics
import sys
import threading
import time
from typing import Any

from ..ir.module import Module
from ..numerics.context import RunOptions
from ..replay.instrument import Watch, describe_progress, instrument_if
from ..replay.values import dump_values
from ..runtime.run import Executable

PROGRESS_AFTER = 1.0  # seconds


class Progress:
    """A rich status line on a terminal's stderr, shown once the run takes longer than a second."""

    def __init__(self, watch: Watch, total: int) -> None:
        self.watch, self.total = watch, total
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._show, daemon=True)

    def __enter__(self) -> Progress:
        if sys.stderr.isatty():
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()

    def _show(self) -> None:
        if self.done.wait(PROGRESS_AFTER):
            return
        try:
            from rich.console import Console
        except ImportError:  # rich is optional: a plain line rewritten in place
            width = 0
            while True:
                text = describe_progress(self.watch, self.total)
                sys.stderr.write("\r" + text.ljust(width))
                sys.stderr.flush()
                width = max(width, len(text))
                if self.done.wait(0.2):
                    sys.stderr.write("\r" + " " * width + "\r")
                    sys.stderr.flush()
                    return
        with Console(stderr=True).status(describe_progress(self.watch, self.total)) as status:
            while not self.done.wait(0.2):
                status.update(describe_progress(self.watch, self.total))


def execute(
    module: Module,
    inputs: list[Any],
    options: RunOptions,
    iterations: int = 0,
    dump_dir: str | None = None,
    started: float | None = None,
) -> Any:
    """Run once (and `iterations` more times, timed); returns the first result."""
    started = time.perf_counter() if started is None else started
    if dump_dir is not None:  # every value recorded: no fused steps
        options = dataclasses.replace(options, fuse=False)
    executable = Executable(module, options)
    watch = Watch(record=dump_dir is not None)
    # Watched by recorded values, or by a terminal's progress line.
    restore = instrument_if(executable, watch, dump_dir is not None or sys.stderr.isatty())
    total = sum(len(c.instructions) for c in module.computations)
    with Progress(watch, total):
        result = executable(*inputs)
    first = time.perf_counter() - started
    if dump_dir is not None:
        values = {(module.entry_name, p.name): v for p, v in zip(module.entry.parameters, inputs)}
        values.update(watch.values)
        types = {
            (c.name, i.name): i.shape.to_string(print_layout=False)
            for c in module.computations
            for i in c.instructions
        }
        count = dump_values(dump_dir, values, types)
        print(f"wrote {count} values to {dump_dir} (index.json)", file=sys.stderr)
    if iterations:
        restore()  # timed runs as the engine runs them
        times = []
        for _ in range(iterations):
            t0 = time.perf_counter()
            executable(*inputs)
            times.append(time.perf_counter() - t0)
        print(
            f"{iterations} runs after a warm-up: min {_ms(min(times))}, "
            f"median {_ms(statistics.median(times))}, max {_ms(max(times))}; "
            f"first result {_ms(first)} (parse + plan + run)"
        )
    return result


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"

