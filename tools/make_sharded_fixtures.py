"""Make tests/golden/sharded/<name>.hlo + .npz: shard_map programs compiled by XLA:CPU for 4 or
8 devices (the per-device SPMD module, with its collectives), per-device inputs and jax's outputs.
Dev only: needs jax.

    python tools/make_sharded_fixtures.py [NAME ...]

The .npz holds `in{d}_{k}` (argument k of device d) and `out{d}_{k}` (result k of device d).
"""

# ruff: noqa: E501  (tables of programs)
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"

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


# A Megatron-style transformer block (pre-layernorm, causal multi-head attention, GELU MLP):
# heads and the MLP's hidden units are split over "model" (column-sharded in, row-sharded out,
# psum after each), the batch over "data" when the mesh has it.
HEAD_DIM = 8


def layer_norm(x, g):  # type: ignore[no-untyped-def]
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) * jax.lax.rsqrt(var + 1e-5) * g


def transformer(x, wq, wk, wv, wo, w1, w2, g1, g2):  # type: ignore[no-untyped-def]
    b, s, _ = x.shape
    h = layer_norm(x, g1)
    q, k, v = ((h @ w).reshape(b, s, -1, HEAD_DIM) for w in (wq, wk, wv))
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(HEAD_DIM).astype(np.float32)
    causal = jnp.tril(jnp.ones((s, s), bool))
    weights = jax.nn.softmax(jnp.where(causal, scores, -1e9), axis=-1)
    attended = jnp.einsum("bhqk,bkhd->bqhd", weights, v).reshape(b, s, -1)
    x = x + jax.lax.psum(attended @ wo, "model")
    m = jax.nn.gelu(layer_norm(x, g2) @ w1) @ w2
    return (x + jax.lax.psum(m, "model"),)


def transformer_program(batch: int, seq: int, d: int, heads: int, ffn: int, data: int, model: int):  # type: ignore[no-untyped-def]
    """(function, axes, mesh shape, in specs, out specs, argument shapes) of the block."""
    col, row = P(None, "model"), P("model", None)
    if data > 1:
        axes, shape, xs = ("data", "model"), (data, model), P("data", None, None)
    else:
        axes, shape, xs = ("model",), (model,), P()
    args = [(batch, seq, d), (d, heads * HEAD_DIM), (d, heads * HEAD_DIM), (d, heads * HEAD_DIM),
            (heads * HEAD_DIM, d), (d, ffn), (ffn, d), (d,), (d,)]  # fmt: skip
    return transformer, axes, shape, (xs, col, col, col, row, col, row, P(), P()), (xs,), args


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
    "transformer_8": transformer_program(batch=4, seq=32, d=64, heads=8, ffn=256, data=2, model=4),
    "transformer_4": transformer_program(batch=2, seq=32, d=64, heads=8, ffn=256, data=1, model=4),
}


def per_device(x: np.ndarray, sharding) -> list[np.ndarray]:  # type: ignore[no-untyped-def]
    array = jax.device_put(x, sharding)
    shards = sorted(array.addressable_shards, key=lambda s: s.device.id)
    return [np.asarray(s.data) for s in shards]


def build(program, seed: int):  # type: ignore[no-untyped-def]
    """(per-device module text, {in{d}_{k}, out{d}_{k}: arrays}, jitted function, arguments)."""
    f, axes, shape, in_specs, out_specs, arg_shapes = program
    rng = np.random.default_rng(seed)
    mesh = Mesh(np.array(jax.devices()[: int(np.prod(shape))]).reshape(shape), axes)
    fn = jax.jit(shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=False)
                 if "check_vma" in shard_map.__code__.co_varnames
                 else shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_rep=False))  # fmt: skip
    args = [
        (rng.standard_normal(s) / np.sqrt(s[0] if len(s) == 2 else 1)).astype(np.float32) for s in arg_shapes
    ]
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
    return text.replace(str(Path(__file__).resolve()), "tools/make_sharded_fixtures.py"), arrays, fn, args


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, program in PROGRAMS.items():
        if names and name not in names:
            continue
        text, arrays, _, _ = build(program, sorted(PROGRAMS).index(name))
        (OUT / f"{name}.hlo").write_text(text)
        np.savez(OUT / f"{name}.npz", **arrays)
        print(name, "ok")


if __name__ == "__main__":
    main(sys.argv[1:])
