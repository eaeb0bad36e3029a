"""Dev tool (run by make_stablehlo_fixtures.py, in a process of its own: it needs 4 CPU devices):
sharded jax programs as StableHLO, with Shardy shardings (`sdy.sharding`, what jax writes by
default) and with `mhlo.sharding` strings (jax_use_shardy_partitioner off), and jaxlib's own
conversion of each to HLO, into tests/golden/stablehlo/shardings/<name>.mlir and
<name>.xla.hlo."""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

from pathlib import Path

import jax
import jax.numpy as jnp
from jax._src.lib import _jax  # private: pinned jax version in the dev extra
from jax._src.lib import xla_client as xc
from jax.experimental.layout import Format, Layout
from jax.sharding import NamedSharding, SingleDeviceSharding
from jax.sharding import PartitionSpec as P

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "stablehlo" / "shardings"


def _one(a: jax.Array) -> jax.Array:
    return a * 2


def _two(a: jax.Array, b: jax.Array) -> tuple[jax.Array, jax.Array]:
    return a * 2 + b, a.sum()


def _pair(a: jax.Array, b: jax.Array) -> tuple[jax.Array, jax.Array]:
    return a * 2, b + 1


def cases() -> dict[str, tuple[object, tuple[P, ...], object, int]]:
    """name: (function, argument specs, result spec(s), mesh rank)."""
    return {
        "one": (_one, (P("y", "x"),), P(None, ("x", "y")), 2),
        "two": (_two, (P("x", None), P()), (P(None, "y"), P()), 2),
        "axes_major_first": (_two, (P(("y", "x"), None), P(None, "x")), (P("y", None), P()), 2),
        "one_axis": (_one, (P("x", None),), P(None, "x"), 1),
    }


def write_shardings() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    meshes = {1: jax.make_mesh((4,), ("x",)), 2: jax.make_mesh((2, 2), ("x", "y"))}
    for shardy in (True, False):
        jax.config.update("jax_use_shardy_partitioner", shardy)
        for name, (fn, specs, out, rank) in cases().items():
            mesh = meshes[rank]
            outs = (
                tuple(NamedSharding(mesh, s) for s in out)
                if isinstance(out, tuple)
                else NamedSharding(mesh, out)
            )
            jitted = jax.jit(
                fn, in_shardings=tuple(NamedSharding(mesh, s) for s in specs), out_shardings=outs
            )
            text = jitted.lower(*(jnp.ones((4, 4)) for _ in specs)).as_text()
            xla = _jax.mlir.mlir_module_to_xla_computation(
                text, use_tuple_args=False, return_tuple=isinstance(out, tuple)
            )
            options = xc.hlo.HloPrintOptions()
            options.print_large_constants = True
            full = f"{name}_{'sdy' if shardy else 'mhlo'}"
            (OUT / f"{full}.mlir").write_text(text)
            (OUT / f"{full}.xla.hlo").write_text(xla.get_hlo_module().to_string(options))
            print(f"shardings {full}")
    # Result layouts jax writes as `mhlo.layout_mode` (on an empty mesh): XLA's conversion leaves
    # the entry layout at its default (the layout is the compiler's to choose later).
    jax.config.update("jax_use_shardy_partitioner", True)
    device = SingleDeviceSharding(jax.devices()[0])
    jitted = jax.jit(
        _pair,
        in_shardings=(Format(Layout((0, 1)), device), device),
        out_shardings=(Format(Layout((0, 1)), device), Format(Layout((1, 0)), device)),
    )
    text = jitted.lower(jnp.ones((4, 4)), jnp.ones((4, 4))).as_text()
    xla = _jax.mlir.mlir_module_to_xla_computation(text, use_tuple_args=False, return_tuple=True)
    (OUT / "layout_mode_sdy.mlir").write_text(text)
    (OUT / "layout_mode_sdy.xla.hlo").write_text(xla.get_hlo_module().to_string(xc.hlo.HloPrintOptions()))
    print("shardings layout_mode_sdy")


if __name__ == "__main__":
    write_shardings()
