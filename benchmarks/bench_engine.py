"""Benchmark: the engine against XLA:CPU on the bundled examples and on larger programs.

For each module: the first `hlo.run` (verify + plan + run), then the median of repeated runs;
with jax installed (the `dev` extra), the median of XLA:CPU's runs of the same HLO text. Run by
hand:

    python benchmarks/bench_engine.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

import hlo
import hlo.runtime.run
from hlo.cli.run import example_text
from hlo.replay.inputs import random_value

DUMPS = Path(__file__).resolve().parent.parent / "tests" / "golden" / "dumps"


def big_mlp(batch: int = 256, width: int = 1024, layers: int = 4) -> str:
    """A ReLU MLP forward pass: `layers` dense layers of width x width."""
    lines = ["HloModule big_mlp", "", "ENTRY main {", f"  x0 = f32[{batch},{width}] parameter(0)"]
    for k in range(layers):
        lines.append(f"  w{k} = f32[{width},{width}] parameter({k + 1})")
    lines.append("  zero = f32[] constant(0)")
    lines.append(f"  zeros = f32[{batch},{width}] broadcast(zero), dimensions={{}}")
    for k in range(layers):
        lines.append(
            f"  d{k} = f32[{batch},{width}] dot(x{k}, w{k}), "
            "lhs_contracting_dims={1}, rhs_contracting_dims={0}"
        )
        lines.append(f"  x{k + 1} = f32[{batch},{width}] maximum(d{k}, zeros)")
    lines.append(f"  ROOT out = f32[{batch},{width}] tanh(x{layers})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def big_conv(batch: int = 16, size: int = 64, channels: int = 64) -> str:
    return (
        "HloModule big_conv\n\nENTRY main {\n"
        f"  x = f32[{batch},{size},{size},{channels}] parameter(0)\n"
        f"  k = f32[3,3,{channels},{channels}] parameter(1)\n"
        f"  ROOT c = f32[{batch},{size},{size},{channels}] convolution(x, k), "
        "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n}\n"
    )


def xla_cpu_runner(text: str):  # type: ignore[no-untyped-def]
    try:
        import jax
        import jax.extend
        from jax._src.lib import _jax
        from jax._src.lib import xla_client as xc
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    module = xc.hlo.hlo_module_from_text(text)
    computation = xc.XlaComputation(module.as_serialized_hlo_module_proto())
    mlir = _jax.mlir.xla_computation_to_mlir_module(computation)
    backend = jax.extend.backend.get_backend("cpu")
    executable = backend.compile_and_load(
        mlir, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions()
    )

    def run(*args):  # type: ignore[no-untyped-def]
        buffers = [jax.device_put(a) for a in args]
        outs = executable.execute(buffers)
        for o in outs:
            o.block_until_ready()
        return outs

    return run


def median_time(fn, args, repeats: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    programs = [(name, example_text(name)[0]) for name in ("mlp", "cnn", "transformer")]
    programs += [("big_mlp (256x1024, 4 layers)", big_mlp()), ("big_conv (16x64x64x64, 3x3)", big_conv())]
    print(f"{'program':32} {'hlo first':>10} {'hlo run':>10} {'XLA:CPU':>10} {'ratio':>7}")
    for name, text in programs:
        module = hlo.parse_module(text)
        generator = np.random.default_rng(0)
        args = [random_value(s, generator) for s in module.entry.parameter_shapes]
        t = time.perf_counter()
        hlo.run(module, *args)
        first = time.perf_counter() - t
        repeats = 5 if "big" in name else 20
        executable = hlo.runtime.run.compile_module(module)
        ours = median_time(executable, args, repeats)
        xla = xla_cpu_runner(text)
        theirs = median_time(xla, args, repeats) if xla is not None else float("nan")
        ratio = ours / theirs if xla is not None else float("nan")
        print(f"{name:32} {first * 1e3:9.1f}ms {ours * 1e3:9.2f}ms {theirs * 1e3:9.2f}ms {ratio:6.1f}x")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
