"""Make tests/golden/sharded/<name>.hlo + .npz: shard_map programs compiled by XLA:CPU for 4
devices (the per-device SPMD module, with its collectives), per-device inputs and jax's outputs.
Dev only: needs jax.

    python tools/make_sharded_fixtures.py

The .npz holds `in{d}_{k}` (argument k of device d) and `out{d}_{k}` (result k of device d).
"""

# ruff: noqa: E501  (tables of programs)
from __future__ import annotations

import os
from pathlib import Path

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

try:
    from jax import shard_map  # type: ignore[attr-defined]
except ImportError:  # older jax
    from jax.experimental.shard_map import shard_map

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "sharded"


def mlp_ring(a, w):  # type: ignore[no-untyped-def]
    h = jnp.tanh(a @ w)
    s = jax.lax.psum(h.sum(axis=0), "x")
    g = jax.lax.all_gather(h[:1], "x", tiled=True)
    p = jax.lax.ppermute(h, "x", [(i, (i + 1) % 4) for i in range(4)])
    return h * s, g, p


def grid(a, b):  # type: ignore[no-untyped-def]
    row = jax.lax.psum(a, "y")
    col = jax.lax.pmax(b, "x")
    t = jax.lax.all_to_all(a, "x", 0, 0, tiled=True)
    r = jax.lax.psum_scatter(b, "y", scatter_dimension=0, tiled=True)
    return row + col, t, r


PROGRAMS = {
    "mlp_ring": (mlp_ring, ("x",), (4,), (P("x"), P()), (P("x"), P(), P("x")), [(8, 3), (3, 5)]),
    "grid": (
        grid,
        ("x", "y"),
        (2, 2),
        (P("x", "y"), P("x", "y")),
        (P("x", "y"), P("x", "y"), P("x", "y")),
        [(4, 4), (4, 4)],
    ),
}


def per_device(x: np.ndarray, sharding) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    array = jax.device_put(x, sharding)
    shards = sorted(array.addressable_shards, key=lambda s: s.device.id)
    return [np.asarray(s.data) for s in shards]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    for name, (f, axes, shape, in_specs, out_specs, arg_shapes) in PROGRAMS.items():
        mesh = Mesh(np.array(jax.devices()[:4]).reshape(shape), axes)
        fn = jax.jit(shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=False)
                     if "check_vma" in shard_map.__code__.co_varnames
                     else shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_rep=False))  # fmt: skip
        args = [rng.standard_normal(s).astype(np.float32) for s in arg_shapes]
        compiled = fn.lower(*args).compile()
        from jax._src.lib import xla_client as xc

        options = xc.hlo.HloPrintOptions()
        options.print_large_constants = True
        text = compiled.runtime_executable().hlo_modules()[0].to_string(options)
        outs = fn(*args)
        arrays: dict[str, np.ndarray] = {}
        for k, (x, spec) in enumerate(zip(args, in_specs)):
            for d, shard in enumerate(per_device(x, jax.sharding.NamedSharding(mesh, spec))):
                arrays[f"in{d}_{k}"] = shard
        for k, out in enumerate(outs):
            shards = sorted(out.addressable_shards, key=lambda s: s.device.id)
            for d, shard in enumerate(shards):
                arrays[f"out{d}_{k}"] = np.asarray(shard.data)
        (OUT / f"{name}.hlo").write_text(
            text.replace(str(Path(__file__).resolve()), "tools/make_sharded_fixtures.py")
        )
        np.savez(OUT / f"{name}.npz", **arrays)
        print(name, "ok")


if __name__ == "__main__":
    main()
