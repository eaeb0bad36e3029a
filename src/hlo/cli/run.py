"""Run an HLO module on NumPy and print or save its results.

Inputs come from `--inputs IN.npz` (`arg0, arg1, ...` by parameter number) or, without it, from
a generator seeded by `--seed` (plus the device number; floats from a normal distribution,
integers in [0, 8), random predicates). Several devices (`--replicas`, `--partitions`, by default
the module's) run as threads (`--backend inprocess`) or one per MPI rank (`--backend mpi` under
`mpiexec -n N`); a `{device}` in `--inputs`/`--output` paths becomes the device number.
Results are printed in XLA's literal text (`--print`, the default without `--output`) and saved
with `--output OUT.npz` as `out0, out1, ...`, the leaves of the result depth first. Types NumPy
cannot store (bf16, f8, 4-bit ints) are stored widened (float32, int8/uint8) and converted on
the way in. `--example NAME` runs a bundled module.

The module may also be an HloModuleProto / HloProto (`.pb`, `.pbtxt`) or an HloSnapshot: a
snapshot runs with its recorded arguments and is compared with its recorded result. `--compare
REF.npz|SNAPSHOT` or `--reference xla` (the same module on XLA:CPU, needs jaxlib) compare the
results (`--rtol`, `--atol`, `--signed-zeros`); the verdict is one line, exit status 1 on a mismatch.
On several devices (in process) each device is compared (`device N outK`, the reference a .npz of
out{device}_{k} or a path with `{device}`), timed together and dumped to DIR/device{N}/.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import HloError
from ..numerics.context import JIT_MODES, RunOptions
from ..replay.compare import compare_outputs, verdict
from ..replay.inputs import MODES, make_inputs, parse_range
from ..replay.load import load
from ..replay.npz import load_inputs
from ..replay.output import check_writable
from ..replay.reference import check_reference, leaves, load_reference, run_on_xla
from ..text.parser import parse_module
from .examples import NAMES, load_example
from .execute import execute
from .execute_devices import compare_devices, execute_devices
from .limits import DEFAULT_MAX_ITERATIONS, add_limit_arguments, run_limits
from .run_output import report, show


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "modules", nargs="*", metavar="module",
        help="module files: HLO text, .pb, .pbtxt, snapshots ('-' reads standard input)",
    )  # fmt: skip
    parser.add_argument("--example", choices=NAMES, help="run a bundled module")
    parser.add_argument("--inputs", help="a .npz file with arg0, arg1, ...")
    parser.add_argument("--output", help="write the results to this .npz file (out0, out1, ...)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs and rng ops")
    parser.add_argument("--print", action="store_true", help="print the results (default without --output)")
    parser.add_argument(
        "--max-iterations", type=int,
        help=f"stop a while loop after this many iterations (default {DEFAULT_MAX_ITERATIONS}; 0: no limit)",
    )  # fmt: skip
    parser.add_argument("--replicas", type=int, help="replicas (default: the module's replica_count)")
    parser.add_argument("--partitions", type=int, help="partitions (default: the module's num_partitions)")
    parser.add_argument(
        "--backend", choices=("inprocess", "mpi"), default="inprocess",
        help="several devices as threads of this process, or one per MPI rank (under mpiexec)",
    )  # fmt: skip
    parser.add_argument(
        "--timeout", type=float,
        help="end the run after this many seconds (default: none; over MPI a rank waits 300 s at "
        "most at a collective)",
    )  # fmt: skip
    parser.add_argument(
        "--jit", choices=JIT_MODES, default="auto",
        help="while loops, and entries of many instructions on small values, compiled by numba if "
        "installed: auto (once hot, in the background), eager (before they run), off (interpreter "
        "only); the same results either way",
    )  # fmt: skip
    add_limit_arguments(parser)
    parser.add_argument("--cast", action="store_true", help="convert --inputs arrays of another type")
    parser.add_argument(
        "--compare", metavar="REF", help="compare with a .npz (out0, ...) or a snapshot's result"
    )
    parser.add_argument(
        "--reference", choices=("xla",), help="compare with the module run on XLA:CPU (jaxlib)"
    )
    parser.add_argument("--rtol", type=float, help="relative tolerance (default per element type)")
    parser.add_argument("--atol", type=float, help="absolute tolerance (default per element type)")
    parser.add_argument("--signed-zeros", action="store_true", help="-0.0 and +0.0 do not match")
    parser.add_argument(
        "--inputs-mode", choices=MODES, help="inputs: random (default), zeros, device-id, or the snapshot's"
    )
    parser.add_argument("--random-range", metavar="LO,HI", help="random inputs uniform in [LO, HI)")
    parser.add_argument("--print-inputs", action="store_true", help="print the inputs")
    parser.add_argument("--iterations", type=int, default=0, help="time N runs after a warm-up")
    parser.add_argument("--dump-values", metavar="DIR", help="write every instruction's value as .npy")
    parser.add_argument("--print-full", action="store_true", help="print large arrays in full")


def _check_arguments(args: argparse.Namespace) -> None:
    args.random = parse_range(args.random_range)
    if args.iterations < 0:
        raise HloError(f"hlo run: --iterations must be >= 0, not {args.iterations}")
    if args.example and args.module:
        raise HloError("hlo run: give a MODULE file or --example NAME, not both")
    if args.seed < 0:
        raise HloError(f"hlo run: --seed must be >= 0, not {args.seed}")
    for name in ("replicas", "partitions"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise HloError(f"hlo run: --{name} must be >= 1, not {value}")
    if args.max_iterations is not None and args.max_iterations < 0:
        raise HloError(f"hlo run: --max-iterations must be >= 0, not {args.max_iterations}")
    if args.output:
        check_writable(args.output.replace("{device}", "0"))


def expand(paths: list[str]) -> list[str]:
    """A directory stands for the snapshots XLA dumped into it."""
    out: list[str] = []
    for path in paths:
        if not os.path.isdir(path):
            out.append(path)
            continue
        found = sorted(str(p) for p in Path(path).glob("*.pb") if "snapshot" in p.name)
        if not found:
            raise HloError(f"{path}: a directory without snapshots (*.snapshot.*.pb) to run")
        out.extend(found)
    return out


def run(args: argparse.Namespace) -> int:
    modules = expand(args.modules)
    args.module = modules[0] if len(modules) == 1 else None
    if len(modules) <= 1:
        _check_arguments(args)
        return run_one(args, time.perf_counter())
    from .run_many import run_many

    return run_many(args, modules)


def run_one(args: argparse.Namespace, started: float) -> int:
    if args.backend == "mpi":
        return _run_mpi(args)
    module, name, snapshot_args, recorded = _load(args)
    return _run_loaded(args, started, module, name, snapshot_args, recorded)


def _load(args: argparse.Namespace) -> tuple[Any, str, Any, Any]:
    """(module, name, a snapshot's arguments, a snapshot's result) of the module to run."""
    snapshot_args: Any = None
    recorded: Any = None
    if args.example:
        example = args.example_info = load_example(args.example)
        module, name = parse_module(example.text, example.title), example.title
    elif args.module:
        loaded = load(args.module)
        module, name = loaded.module, loaded.name
        snapshot_args, recorded = loaded.arguments, loaded.result
        args.snapshot = recorded is not None
        args.module_proto = loaded.decoded.module.SerializeToString() if loaded.decoded is not None else None
        if args.inputs_mode == "snapshot" and snapshot_args is None:
            raise HloError(f"{name}: --inputs-mode snapshot needs a snapshot file (it holds no arguments)")
        if args.inputs_mode not in (None, "snapshot"):
            snapshot_args = None
    else:
        raise HloError("hlo run: give a MODULE file or --example NAME (one of: " + ", ".join(NAMES) + ")")
    return module, name, snapshot_args, recorded


def _run_loaded(
    args: argparse.Namespace, started: float, module: Any, name: str, snapshot_args: Any, recorded: Any
) -> int:
    params = module.entry.parameter_shapes
    replicas = args.replicas or module.config.replica_count
    partitions = args.partitions or module.config.num_partitions
    count = replicas * partitions
    if count > 1 and args.reference:
        raise HloError(f"hlo run: --reference xla takes one device; {name} runs on {count}")

    def inputs_for(device: int) -> list[Any]:
        if args.inputs:
            return load_inputs(args.inputs.replace("{device}", str(device)), params, args.cast)
        if snapshot_args is not None:
            return list(snapshot_args)
        if args.inputs_mode == "snapshot":
            raise HloError(f"{name}: --inputs-mode snapshot needs a snapshot file")
        return make_inputs(
            module, args.inputs_mode or "random", args.seed, device, args.random, args.memory_limit
        )

    if args.print_inputs:
        for k, (value, param) in enumerate(zip(inputs_for(0), module.entry.parameters)):
            print(f"arg{k} {param.name}: {show(value, args.print_full)}")
    run_options = RunOptions(seed=args.seed, **run_limits(args))  # type: ignore[arg-type]
    if count == 1:
        results = [execute(module, inputs_for(0), run_options, args.iterations, args.dump_values, started)]
    else:
        per_device = [inputs_for(d) for d in range(count)]
        results = execute_devices(
            module, per_device, run_options, replicas, partitions, args.iterations, args.dump_values, started
        )
    for device, result in enumerate(results):
        report(args, module, name, result, device if count > 1 else None)
    if count > 1 and args.compare:
        return compare_devices(args, results)
    if count == 1 and (args.compare or args.reference or recorded is not None):
        return _compare(args, module, results[0], inputs_for(0), recorded)
    return 0


def _compare(args: argparse.Namespace, module: Any, result: Any, inputs: list[Any], recorded: Any) -> int:
    got = leaves(result)
    if args.reference == "xla":
        where, want = "XLA:CPU", run_on_xla(module, inputs, getattr(args, "module_proto", None))
    elif args.compare:
        where, want = args.compare, load_reference(args.compare, len(got))
    else:
        where, want = "the snapshot's result", leaves(recorded)
    got = check_reference(where, got, want)
    # jax's result names (jax.result_info in its StableHLO) do not reach XLA's HLO or its dumps
    # (checked with jax 0.10.2): outputs are out0, out1, ...
    names = [f"out{k}" for k in range(len(got))]
    reports = compare_outputs(names, got, want, args.rtol, args.atol, args.signed_zeros)
    for r in reports:  # one line per output, then the verdict
        print(r.describe())
    print(f"compared with {where}: {verdict(reports)}")
    return 0 if all(r.ok for r in reports) else 1


def _run_mpi(args: argparse.Namespace) -> int:
    """This rank's device. Every rank first agrees that all are ready (runtime.mpi_start), so one
    that fails before the run (a missing or corrupt file on that rank) ends the others too, each
    with the cause."""
    from ..runtime.mpi import comm_world
    from ..runtime.mpi_start import agree_to_start
    from ..runtime.run import compile_module

    comm = comm_world()
    device = comm.Get_rank()
    timeout = args.timeout or 300.0
    error = None
    try:
        module, name, _, _ = _load(args)
        if args.compare or args.reference or args.iterations or args.dump_values:
            raise HloError(
                "hlo run: --compare, --reference, --iterations and --dump-values run the devices in this "
                "process (not with --backend mpi)"
            )
        replicas = args.replicas or module.config.replica_count
        partitions = args.partitions or module.config.num_partitions
        params = module.entry.parameter_shapes
        if args.inputs:
            inputs = load_inputs(args.inputs.replace("{device}", str(device)), params, args.cast)
        else:
            inputs = make_inputs(
                module, args.inputs_mode or "random", args.seed, device, args.random, args.memory_limit
            )
        executable = compile_module(module, RunOptions(seed=args.seed, **run_limits(args)))  # type: ignore[arg-type]
    except HloError as e:
        error = f"rank {device}: {e}"
    try:
        agree_to_start(comm, error, timeout)
    except HloError as e:
        print(str(e) if error is None else error, file=sys.stderr, flush=True)
        if "did not start" in e.message:  # a rank is gone or stuck: end the whole job
            time.sleep(0.5)
            comm.Abort(1)
        return 1
    try:
        result = executable.run_mpi(inputs, replicas, partitions, timeout)
    except HloError as e:
        print(f"rank {device}: {e}", file=sys.stderr, flush=True)
        time.sleep(0.5)  # let mpiexec forward the message before the abort tears the job down
        comm.Abort(1)
        return 1
    report(args, module, name, result, device)
    return 0
