"""`hlo run A B C ...` (or `hlo run DIR/*.pb`): each module runs in turn (a snapshot with its
recorded arguments, compared with its result) and a table sums up: file, format, outputs, the
verdict and the time. Exit status 1 if any module fails or mismatches."""

from __future__ import annotations

import argparse
import contextlib
import io
import time

from ..errors import HloError


def run_many(args: argparse.Namespace, paths: list[str]) -> int:
    from .run import _check_arguments, run_one

    if args.output or args.inputs or args.dump_values:
        raise HloError("hlo run: --output, --inputs and --dump-values take one module, not several")
    _check_arguments(args)
    rows = []
    status = 0
    for path in paths:
        args.module, args.snapshot = path, False
        buffer = io.StringIO()
        started = time.perf_counter()
        try:
            with contextlib.redirect_stdout(buffer):
                code = run_one(args, started)
            lines = buffer.getvalue().strip().splitlines()
            verdict = next((line for line in reversed(lines) if line.startswith("compared with")), "ran")
            verdict = verdict.split(": ", 1)[1] if verdict.startswith("compared with") else verdict
        except HloError as e:
            code, verdict = 1, f"error: {e}"
        status = max(status, code)
        rows.append((path, verdict, f"{(time.perf_counter() - started) * 1e3:.1f} ms"))
    width = max(len(r[0]) for r in rows)
    print(f"{'module':<{width}}  {'time':>10}  result")
    for path, verdict, took in rows:
        print(f"{path:<{width}}  {took:>10}  {verdict}")
    return status
