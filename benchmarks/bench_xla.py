"""Benchmark: hlo against XLA:CPU on the workloads of benchmarks/workloads.py (needs the `dev`
extra for jax).

For each workload: lower the jax program with its inputs as parameters, keep the unoptimized HLO
text and the text XLA:CPU optimized it to; then, in rounds, separate fresh processes in turn
(benchmarks/bench_worker.py): hlo on the unoptimized text, hlo on the optimized text, XLA:CPU on
the unoptimized text (the order rotates each round). Each process times its first result
(hlo: parse + plan + run; XLA: compile + run, no compilation cache), warms up, then times
repeated runs. Results are compared leaf by leaf; a ratio is printed only when they agree.

    python benchmarks/bench_xla.py                      # every workload, 3 rounds
    python benchmarks/bench_xla.py --quick              # small sizes, 1 round: for iterating
    python benchmarks/bench_xla.py softmax sort --rounds 5 --reps 20
    python benchmarks/bench_xla.py --list
    python benchmarks/bench_xla.py --variants hlo,hlo_noflush   # also hlo with flush_denormals=False

Prints a Markdown table (medians over every timed run of every round, the ratio of the best
runs, first results, memory) and the geometric means; `--json FILE` keeps the raw measurements
and `--report FILE` prints their table again.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_common import disagreement, load_arrays, save_arrays

HERE = Path(__file__).resolve().parent
# Float sums of millions of elements in a different order (hlo folds in XLA's order within
# tolerance, XLA:CPU vectorizes): the difference grows with the count, not the result.
SCALE = {"sum": 100.0, "cumsum": 10.0, "layernorm": 10.0}
# the unoptimized text, the optimized, no FTZ; loops interpreted only (jit="off"), loops
# compiled before they run (jit="eager"); "hlo" runs with the default jit="auto"
HLO_VARIANTS = ("hlo", "hlo_opt", "hlo_noflush", "hlo_nojit", "hlo_jit")
LABELS = {
    "hlo": "hlo", "hlo_opt": "hlo, optimized text", "hlo_noflush": "hlo, no flushing",
    "hlo_nojit": "hlo, loops interpreted", "hlo_jit": "hlo, loops compiled first",
}  # fmt: skip
JIT = {"hlo_nojit": "off", "hlo_jit": "eager"}


def prepare(name: str, quick: bool, directory: Path) -> None:
    """Write the workload's unoptimized and XLA:CPU-optimized HLO text and its inputs."""
    import jax
    from jax._src.lib import xla_client as xc

    from workloads import make

    fn, inputs = make(name, quick)
    lowered = jax.jit(fn, keep_unused=True).lower(*inputs)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "unopt.hlo").write_text(lowered.as_text(dialect="hlo", debug_info=True))
    options = xc.hlo.HloPrintOptions()
    options.print_large_constants = True
    options.print_metadata = True
    optimized = lowered.compile().runtime_executable().hlo_modules()[0].to_string(options)
    (directory / "opt.hlo").write_text(optimized)
    save_arrays(directory / "inputs", jax.tree.leaves(inputs))


def worker(variant: str, directory: Path, tag: str, opts: argparse.Namespace, save: bool) -> dict[str, Any]:
    engine = "xla" if variant == "xla" else "hlo"
    text = directory / ("opt.hlo" if variant == "hlo_opt" else "unopt.hlo")
    out = directory / f"{variant}.{tag}.json"
    command = [
        sys.executable, str(HERE / "bench_worker.py"), engine, str(text), str(directory / "inputs"), str(out),
        "--warmup", str(opts.warmup), "--reps", str(opts.reps), "--budget", str(opts.budget),
    ]  # fmt: skip
    if variant == "hlo_noflush":
        command.append("--no-flush")
    if variant in JIT:
        command += ["--jit", JIT[variant]]
    if save:
        command += ["--save-outputs", str(directory / f"out_{variant}")]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"no result within {opts.timeout:.0f} s"}
    if not out.exists():
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"error": f"exit {done.returncode}: {last[:200]}"}
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def measure(name: str, directory: Path, opts: argparse.Namespace) -> dict[str, Any]:
    variants = opts.variants
    runs: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    for r in range(opts.rounds):
        order = variants[r % len(variants) :] + variants[: r % len(variants)]
        for variant in order:
            runs[variant].append(worker(variant, directory, str(r), opts, save=r == 0))
    result: dict[str, Any] = {"name": name, "runs": runs}
    theirs = directory / "out_xla"
    for variant in HLO_VARIANTS:
        if variant not in runs:
            continue
        errors = [x["error"] for x in runs[variant] if "error" in x]
        if errors or any("error" in x for x in runs["xla"]):
            result[f"{variant}_check"] = (errors or [x["error"] for x in runs["xla"]])[0]
            continue
        why = disagreement(
            load_arrays(directory / f"out_{variant}"), load_arrays(theirs), SCALE.get(name, 1.0)
        )
        result[f"{variant}_check"] = why or "ok"
    return result


def _median(runs: list[dict[str, Any]], key: str) -> float:
    if key == "times":
        return statistics.median(t for x in runs for t in x["times"])
    return statistics.median(x[key] for x in runs)


def _t(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def _mb(nbytes: float) -> str:
    return f"{nbytes / 2**20:.0f}"


def _traced(runs: list[dict[str, Any]]) -> str:
    """tracemalloc's peak of one run (the largest over the processes) against the live set: what
    the kernels allocate, temporaries included, which the RSS misses once freed blocks stay in
    glibc's heap. (Older measurements have no such key.)"""
    peaks = [x["traced_peak"] for x in runs if "traced_peak" in x]
    if not peaks:
        return "-"
    live = runs[0]["live_set"]
    ratio = f" ({max(peaks) / live:.2g}x" if live else " ("
    # The peak memory of a run against the plan's largest live set, the arguments (live the
    # whole run) counted on both sides: a reduce's live set alone is its result, a few bytes.
    arguments = runs[0].get("argument_bytes")
    if arguments is not None and live + arguments:
        ratio += f"; with the arguments {(max(peaks) + arguments) / (live + arguments):.2g}x"
    ratio = ratio + ")" if ratio != " (" else ""
    return _mb(max(peaks)) + ratio


def report(results: list[dict[str, Any]], titles: dict[str, str]) -> str:
    variants = [v for v in HLO_VARIANTS if v in results[0]["runs"]]
    head = (
        "| workload | XLA:CPU | "
        + "".join(f"{LABELS[v]} | ratio | " for v in variants)
        + "ratio of best times (hlo) | XLA:CPU first | hlo first | ratio | hlo first: parse / plan / run "
        "| peak RSS, MB: XLA / hlo "
        "| MB a run adds: XLA / hlo / live set | hlo's traced peak, MB (x live set; with the arguments) |\n"
        + "|---" * (10 + 2 * len(variants))
        + "|\n"
    )
    rows, notes = [], []
    ratios: dict[str, list[float]] = {v: [] for v in (*HLO_VARIANTS, "best", "first")}
    for res in results:
        runs, name = res["runs"], res["name"]
        cells = [titles[name]]
        xla_ok = all("error" not in x for x in runs["xla"])
        xla = _median(runs["xla"], "times") if xla_ok else math.nan
        cells.append(_t(xla) if xla_ok else "fails")
        for variant in variants:
            check = res[f"{variant}_check"]
            if all("error" not in x for x in runs[variant]):
                ours = _median(runs[variant], "times")
                cells.append(_t(ours))
                if check == "ok":
                    ratios[variant].append(ours / xla)
                    cells.append(f"{ours / xla:.2g}x")
                else:
                    cells.append("disagree")
                    notes.append(f"{name} ({variant}): {check}")
            else:
                cells += ["fails", ""]
                notes.append(f"{name} ({variant}): {check}")
        hlo_ok = all("error" not in x for x in runs["hlo"])
        if hlo_ok and xla_ok and res["hlo_check"] == "ok":
            # interference from other processes only adds time: the best runs are its floor
            best = min(t for x in runs["hlo"] for t in x["times"]) / min(
                t for x in runs["xla"] for t in x["times"]
            )
            ratios["best"].append(best)
            cells.append(f"{best:.2g}x")
        else:
            cells.append("")
        xla_first = _median(runs["xla"], "first") if xla_ok else math.nan
        hlo_first = _median(runs["hlo"], "first") if hlo_ok else math.nan
        cells += [_t(xla_first) if xla_ok else "", _t(hlo_first) if hlo_ok else ""]
        if xla_ok and hlo_ok and res["hlo_check"] == "ok":
            ratios["first"].append(hlo_first / xla_first)
            cells.append(f"{hlo_first / xla_first:.2g}x")
        else:
            cells.append("")
        split = ("parse", "plan", "first_run")
        cells.append(" / ".join(_t(_median(runs["hlo"], k)) for k in split) if hlo_ok else "")
        peaks, adds = [], []
        for variant in ("xla", "hlo"):
            ok = [x for x in runs[variant] if "error" not in x]
            peaks.append(_mb(max(max(x["peak_rss"], x["first_peak_rss"]) for x in ok)) if ok else "-")
            adds.append(_mb(max(x["peak_rss"] - x["base_rss"] for x in ok)) if ok else "-")
        adds.append(_mb(runs["hlo"][0]["live_set"]) if hlo_ok else "-")
        cells += [" / ".join(peaks), " / ".join(adds), _traced(runs["hlo"]) if hlo_ok else "-"]
        rows.append("| " + " | ".join(cells) + " |\n")
    text = head + "".join(rows)
    means = []
    labels = (
        ("hlo", "hlo"),
        ("hlo_opt", "hlo on the optimized text"),
        ("hlo_noflush", "hlo without flushing"),
        ("best", "best times"),
        ("first", "first result"),
    )
    for key, label in labels:
        if ratios[key]:
            mean = math.exp(statistics.fmean(math.log(r) for r in ratios[key]))
            means.append(f"{label} {mean:.3g}x ({len(ratios[key])} workloads)")
    text += "\nGeometric means of the ratios: " + "; ".join(means) + ".\n"
    loads = [x for res in results for x in res.get("load", ())]
    if loads:
        text += (
            f"\n{platform.python_implementation()} {platform.python_version()}, NumPy {np.__version__}, "
            f"{os.cpu_count()} cores; 1-minute load average {min(loads):.1f}-{max(loads):.1f} "
            "(above the core count, other processes share the cores: expect noise).\n"
        )
    if notes:
        text += "\n" + "".join(f"- {n}\n" for n in notes)
    return text


def main() -> None:
    from workloads import WORKLOADS

    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("workloads", nargs="*", help="names (default: all; --list shows them)")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--quick", action="store_true", help="small sizes, one round, few repetitions")
    parser.add_argument("--rounds", type=int, help="processes per engine and text (default 3; quick 1)")
    parser.add_argument("--reps", type=int, help="timed runs per process, at most (default 10; quick 3)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed runs after the first result")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds of timed runs per process")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per process")
    parser.add_argument("--dir", type=Path, help="where texts, inputs, results go (default: temporary)")
    parser.add_argument("--json", type=Path, help="write the raw measurements here")
    parser.add_argument("--reuse", action="store_true", help="keep the texts and inputs already in --dir")
    parser.add_argument("--report", type=Path, help="print the table of a --json file and stop")
    parser.add_argument(
        "--variants",
        default="hlo,hlo_opt",
        help="hlo runs to compare with XLA:CPU, from hlo (the unoptimized text), hlo_opt (the optimized "
        "text), hlo_noflush (the unoptimized text, flush_denormals=False)",
    )
    opts = parser.parse_args()
    if opts.report:
        print(report(json.loads(opts.report.read_text()), {w.name: w.title for w in WORKLOADS}))
        return
    if opts.list:
        for w in WORKLOADS:
            print(f"{w.name:18} {w.title}")
        return
    opts.rounds = opts.rounds or (1 if opts.quick else 3)
    opts.reps = opts.reps or (3 if opts.quick else 10)
    chosen = opts.variants.split(",")
    if "hlo" not in chosen or any(v not in HLO_VARIANTS for v in chosen):
        parser.error(f"--variants: a list from {', '.join(HLO_VARIANTS)} that includes hlo")
    opts.variants = (*chosen, "xla")
    names = opts.workloads or [w.name for w in WORKLOADS]
    titles = {w.name: w.title for w in WORKLOADS}
    unknown = [n for n in names if n not in titles]
    if unknown:
        parser.error(f"unknown workloads {unknown}; --list shows them")
    root = opts.dir or Path(tempfile.mkdtemp(prefix="hlo-bench-"))
    results = []
    for name in names:
        t = time.perf_counter()
        if not (opts.reuse and (root / name / "opt.hlo").exists()):
            prepare(name, opts.quick, root / name)
        load = os.getloadavg()[0]
        results.append(measure(name, root / name, opts))
        done = results[-1]
        done["load"] = [load, os.getloadavg()[0]]  # the 1-minute load average before and after
        checks = ", ".join(f"{v}: {done[f'{v}_check']}" for v in HLO_VARIANTS if v in done["runs"])
        print(f"{name}: {time.perf_counter() - t:.0f} s ({checks})", file=sys.stderr, flush=True)
    print(report(results, titles))
    if opts.json:
        opts.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
