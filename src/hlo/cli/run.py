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
"""

from __future__ import annotations

import argparse
import zipfile
from importlib import resources
from typing import Any

import numpy as np

from .. import budget
from ..dtypes import PrimitiveType
from ..errors import HloError
from ..literal import Literal
from ..numerics.numerics import is_ml_dtype
from ..runtime.run import run as run_module
from ..shape import Shape
from ..text.literal_codec import print_literal
from ..text.parser import parse_module
from .limits import add_limit_arguments, run_limits
from .textfiles import read_text

EXAMPLES = {
    "mlp": "a two-layer MLP's loss and gradients (jax.value_and_grad)",
    "cnn": "a small convolutional network: convolutions, pooling, dense layer",
    "transformer": "a transformer block: attention, layer norm, MLP",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("module", nargs="?", help="an HLO text file ('-' reads standard input)")
    parser.add_argument("--example", choices=sorted(EXAMPLES), help="run a bundled module")
    parser.add_argument("--inputs", help="a .npz file with arg0, arg1, ...")
    parser.add_argument("--output", help="write the results to this .npz file (out0, out1, ...)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs and rng ops")
    parser.add_argument("--print", action="store_true", help="print the results (default without --output)")
    parser.add_argument(
        "--max-iterations", type=int,
        help="stop a while loop after this many iterations (default 1000000; 0: none)",
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
    add_limit_arguments(parser)


def example_text(name: str) -> tuple[str, str]:
    path = resources.files("hlo") / "examples" / f"{name}.hlo"
    return path.read_text(), f"example {name} ({EXAMPLES[name]})"


def module_text(args: argparse.Namespace) -> tuple[str, str]:
    if args.example:
        return example_text(args.example)
    if args.module:
        return read_text(args.module)
    raise HloError("hlo run: give a MODULE file or --example NAME (one of: " + ", ".join(EXAMPLES) + ")")


def run(args: argparse.Namespace) -> int:
    if args.backend == "mpi":
        return _run_mpi(args)
    text, name = module_text(args)
    module = parse_module(text, name)
    params = module.entry.parameter_shapes
    replicas = args.replicas or module.config.replica_count
    partitions = args.partitions or module.config.num_partitions
    count = replicas * partitions

    def inputs_for(device: int) -> list[Any]:
        if args.inputs:
            return load_inputs(args.inputs.replace("{device}", str(device)), params)
        generator = np.random.default_rng(args.seed + device)  # each device its own inputs
        return [random_value(s, generator) for s in params]

    options = {"seed": args.seed, **run_limits(args)}
    if count == 1:
        results = [run_module(module, *inputs_for(0), **options)]
    else:
        results = run_module(
            module, [inputs_for(d) for d in range(count)], num_replicas=replicas, num_partitions=partitions,
            **options,
        )  # fmt: skip
    for device, result in enumerate(results):
        _report(args, module, name, result, device if count > 1 else None)
    return 0


def _run_mpi(args: argparse.Namespace) -> int:
    """This rank's device. Every rank first agrees that all are ready (runtime.mpi_start), so
    one that fails before the run ends the others too, each with the cause."""
    import sys
    import time

    from ..numerics.context import RunOptions
    from ..runtime.mpi import comm_world
    from ..runtime.mpi_start import agree_to_start
    from ..runtime.run import compile_module

    comm = comm_world()
    device = comm.Get_rank()
    timeout = args.timeout or 300.0
    error = None
    try:
        text, name = module_text(args)
        module = parse_module(text, name)
        replicas = args.replicas or module.config.replica_count
        partitions = args.partitions or module.config.num_partitions
        params = module.entry.parameter_shapes
        if args.inputs:
            inputs = load_inputs(args.inputs.replace("{device}", str(device)), params)
        else:
            generator = np.random.default_rng(args.seed + device)
            inputs = [random_value(s, generator) for s in params]
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
    _report(args, module, name, result, device)
    return 0


def _report(args: argparse.Namespace, module: Any, name: str, result: Any, device: int | None) -> None:
    leaves = list(flatten(result))
    if args.output:
        path = args.output.replace("{device}", str(device)) if device is not None else args.output
        if device is not None and "{device}" not in args.output and device > 0:
            return  # one output file: the first device's results
        save(path, leaves)
    if args.print or not args.output:
        where = f" device {device}" if device is not None else ""
        print(f"{name}{where}: {len(leaves)} result{'s' if len(leaves) != 1 else ''}")
        for k, (value, shape) in enumerate(zip(leaves, flatten_shape(module.entry.root.shape))):
            literal = print_literal(Literal(_static(shape, value), value))
            print(f"out{k}: {shape.to_string(print_layout=False)} {literal}")


def _static(shape: Shape, value: np.ndarray) -> Shape:
    return Shape.array(shape.element_type, value.shape)


def flatten(value: Any) -> Any:
    if isinstance(value, tuple):
        for v in value:
            yield from flatten(v)
    elif isinstance(value, np.ndarray):
        yield value


def flatten_shape(shape: Shape) -> Any:
    if shape.is_tuple:
        for s in shape.tuple_shapes:
            yield from flatten_shape(s)
    elif shape.is_array:
        yield shape


def random_value(shape: Shape, generator: np.random.Generator) -> Any:
    """A seeded random value of `shape` (dynamic dimensions at their bound)."""
    if shape.is_tuple:
        return tuple(random_value(s, generator) for s in shape.tuple_shapes)
    if not shape.is_array:
        return None
    budget.check_shape(shape, "a random input", budget.default_budget())
    dims = tuple(max(d, 0) for d in shape.dimensions)
    t = shape.element_type
    dtype = np.dtype(t.numpy_dtype)
    if t is PrimitiveType.PRED:
        return generator.random(dims) < 0.5
    if t.is_integral:
        return generator.integers(0, 8, size=dims).astype(dtype)
    if t.is_complex:
        return (generator.standard_normal(dims) + 1j * generator.standard_normal(dims)).astype(dtype)
    return generator.standard_normal(dims).astype(np.float32).astype(dtype)


def load_inputs(path: str, params: tuple[Shape, ...]) -> list[Any]:
    try:
        data = np.load(path)  # (allow_pickle is False: a file cannot run code)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise HloError(f"{path}: cannot read the inputs: {e}") from None
    values = []
    for k, shape in enumerate(params):
        key = f"arg{k}"
        if key not in data.files:
            raise HloError(f"{path}: has no {key} for parameter {k} ({shape})")
        try:
            array = data[key]
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:  # object arrays: no pickles
            raise HloError(f"{path}: cannot read {key}: {e}") from None
        if shape.is_array and shape.element_type.has_numpy_dtype:
            target = np.dtype(shape.element_type.numpy_dtype)
            if array.dtype != target:
                with np.errstate(all="ignore"):
                    array = array.astype(target)
        values.append(array)
    return values


def save(path: str, leaves: list[np.ndarray]) -> None:
    arrays = {}
    for k, value in enumerate(leaves):
        if is_ml_dtype(value.dtype):  # bf16, f8, 4-bit ints: stored widened
            value = value.astype(np.float32 if _is_float(value.dtype) else _int_of(value.dtype))
        arrays[f"out{k}"] = value
    np.savez(path, **arrays)  # type: ignore[arg-type]


def _is_float(dtype: np.dtype) -> bool:
    from ..dtypes import from_numpy_dtype

    return from_numpy_dtype(dtype).is_floating_point


def _int_of(dtype: np.dtype) -> type:
    from ..dtypes import from_numpy_dtype

    return np.int8 if from_numpy_dtype(dtype).is_signed_integral else np.uint8
