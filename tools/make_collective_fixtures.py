"""Make tests/golden/collectives.npz: collectives run on XLA:CPU with several devices (replicas
and partitions), per-device inputs and outputs. Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_collective_fixtures.py

Case k holds `case{k}_hlo`, `case{k}_replicas`, `case{k}_partitions`, `case{k}_dtype` and, per
device d, `case{k}_in{d}` and `case{k}_out{d}` (bf16 stored as its raw uint16 bits).
"""

# ruff: noqa: E501  (HLO text lines)
from __future__ import annotations

import os
from pathlib import Path

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"

import ml_dtypes
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "collectives.npz"


def reducer(t: str, op: str) -> str:
    return f"red {{\n  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  ROOT r = {t}[] {op}(a, b)\n}}\n\n"


def case(body: str, t: str, in_shape: str, out_shape: str, fn: str = "") -> str:
    return (
        f"HloModule m\n\n{fn}ENTRY main {{\n  x = {t}[{in_shape}] parameter(0)\n"
        f"  ROOT r = {t}[{out_shape}] {body}\n}}\n"
    )


CASES = [
    # (hlo, dtype, replicas, partitions)
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "f32", "3", "3", reducer("f32", "add")),
        "f32",
        4,
        1,
    ),
    (
        case(
            "all-reduce(x), replica_groups={{3,0},{1,2}}, to_apply=red",
            "f32",
            "3",
            "3",
            reducer("f32", "add"),
        ),
        "f32",
        4,
        1,
    ),
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "f32", "3", "3", reducer("f32", "maximum")),
        "f32",
        4,
        1,
    ),
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "f32", "3", "3", reducer("f32", "minimum")),
        "f32",
        4,
        1,
    ),
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "bf16", "3", "3", reducer("bf16", "add")),
        "bf16",
        4,
        1,
    ),
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "f16", "3", "3", reducer("f16", "add")),
        "f16",
        4,
        1,
    ),
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "s32", "3", "3", reducer("s32", "add")),
        "s32",
        4,
        1,
    ),
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "s32", "3", "3", reducer("s32", "multiply")),
        "s32",
        4,
        1,
    ),
    (case("all-gather(x), replica_groups={}, dimensions={1}", "f32", "2,3", "2,12"), "f32", 4, 1),
    (case("all-gather(x), replica_groups={{3,0},{1,2}}, dimensions={0}", "f32", "2,3", "4,3"), "f32", 4, 1),
    (
        case(
            "reduce-scatter(x), replica_groups={}, dimensions={0}, to_apply=red",
            "f32",
            "8,2",
            "2,2",
            reducer("f32", "add"),
        ),
        "f32",
        4,
        1,
    ),
    (
        case(
            "reduce-scatter(x), replica_groups={{1,0},{2,3}}, dimensions={1}, to_apply=red",
            "f32",
            "2,4",
            "2,2",
            reducer("f32", "add"),
        ),
        "f32",
        4,
        1,
    ),
    (case("all-to-all(x), replica_groups={{0,1,2,3}}, dimensions={0}", "f32", "8,3", "8,3"), "f32", 4, 1),
    (case("all-to-all(x), replica_groups={{0,1},{2,3}}, dimensions={1}", "f32", "2,4", "2,4"), "f32", 4, 1),
    (
        case("collective-permute(x), source_target_pairs={{0,1},{1,2},{2,3},{3,0}}", "f32", "3", "3"),
        "f32",
        4,
        1,
    ),
    (case("collective-permute(x), source_target_pairs={{0,2},{2,1}}", "f32", "3", "3"), "f32", 4, 1),
    # replicas x partitions: the group modes
    (
        case("all-reduce(x), replica_groups={}, to_apply=red", "f32", "3", "3", reducer("f32", "add")),
        "f32",
        2,
        2,
    ),
    (
        case(
            "all-reduce(x), channel_id=1, replica_groups={}, to_apply=red",
            "f32",
            "3",
            "3",
            reducer("f32", "add"),
        ),
        "f32",
        2,
        2,
    ),
    (
        case(
            "all-reduce(x), channel_id=1, replica_groups={{0,3},{1,2}}, use_global_device_ids=true, to_apply=red",
            "f32",
            "3",
            "3",
            reducer("f32", "add"),
        ),
        "f32",
        2,
        2,
    ),
    (
        case("all-gather(x), channel_id=1, replica_groups={}, dimensions={0}", "f32", "1,3", "4,3"),
        "f32",
        2,
        2,
    ),
    (
        case("collective-permute(x), channel_id=1, source_target_pairs={{0,1},{1,0}}", "f32", "3", "3"),
        "f32",
        2,
        2,
    ),
    (
        case("all-to-all(x), channel_id=1, replica_groups={{0,1}}, dimensions={0}", "f32", "4,3", "4,3"),
        "f32",
        2,
        2,
    ),
]


def inputs(hlo: str, dtype: str, devices: int) -> list[np.ndarray]:
    in_shape = tuple(int(d) for d in hlo.split("x = ")[1].split("[")[1].split("]")[0].split(","))
    rng = np.random.default_rng(len(hlo))
    np_type = {"f32": np.float32, "bf16": ml_dtypes.bfloat16, "f16": np.float16, "s32": np.int32}[dtype]
    values = []
    for d in range(devices):
        if dtype == "s32":
            v = rng.integers(-50, 50, size=in_shape).astype(np.int32)
        else:
            v = (rng.standard_normal(in_shape) * 10).astype(np.float32)
            if d == 1:
                v.reshape(-1)[0] = np.nan  # NaN handling of reducers
            if dtype == "bf16":
                v.reshape(-1)[-1] = 256.0 if d == 0 else 1.0  # rounding once vs stepwise
        values.append(v.astype(np_type))
    return values


def run_on_cpu(text: str, args: list[np.ndarray], replicas: int, partitions: int) -> list[np.ndarray]:
    import jax
    import jax.extend
    from jax._src.lib import _jax
    from jax._src.lib import xla_client as xc
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    module = xc.hlo.hlo_module_from_text(text)
    computation = xc.XlaComputation(module.as_serialized_hlo_module_proto())
    mlir = _jax.mlir.xla_computation_to_mlir_module(computation)
    backend = jax.extend.backend.get_backend("cpu")
    count = replicas * partitions
    devices = backend.devices()[:count]
    options = xc.CompileOptions()
    options.num_replicas = replicas
    options.num_partitions = partitions
    options.device_assignment = xc.DeviceAssignment.create(np.arange(count).reshape(replicas, partitions))
    if partitions > 1:  # XLA:CPU refuses partitions otherwise; the module has no shardings to split
        options.executable_build_options.use_spmd_partitioning = True
    executable = backend.compile_and_load(mlir, xc.DeviceList(tuple(devices)), options)
    mesh = Mesh(np.array(devices), ("d",))
    global_array = jax.make_array_from_single_device_arrays(
        args[0].shape,
        NamedSharding(mesh, PartitionSpec()),
        [jax.device_put(a, dev) for a, dev in zip(args, devices)],
    )
    outs = executable.execute_sharded([global_array]).disassemble_into_single_device_arrays()
    return [np.asarray(o) for o in outs[0]]


def storable(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint16) if x.dtype.type.__module__.startswith("ml_dtypes") else x


def main() -> None:
    arrays: dict[str, np.ndarray] = {}
    k = 0
    for hlo, dtype, replicas, partitions in CASES:
        count = replicas * partitions
        args = inputs(hlo, dtype, count)
        try:
            outs = run_on_cpu(hlo, args, replicas, partitions)
        except Exception as e:  # refused by XLA:CPU: left out
            print("refused:", hlo.splitlines()[-2].strip(), str(e).splitlines()[0][:120])
            continue
        arrays[f"case{k}_hlo"] = np.array(hlo)
        arrays[f"case{k}_dtype"] = np.array(dtype)
        arrays[f"case{k}_replicas"] = np.array(replicas)
        arrays[f"case{k}_partitions"] = np.array(partitions)
        for d in range(count):
            arrays[f"case{k}_in{d}"] = storable(args[d])
            arrays[f"case{k}_out{d}"] = storable(outs[d])
        k += 1
    np.savez_compressed(OUT, **arrays)
    print(f"{OUT.name}: {k} cases")


if __name__ == "__main__":
    main()
