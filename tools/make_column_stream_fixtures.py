"""Make tests/golden/column_stream.npz: column sums of many 128 KiB chunks (hlo.numerics.
column_sum streams their sums into sub-block sums a slab at a time), with XLA:CPU's outputs,
for tests/test_column_stream.py. The inputs are not stored (tens of MB): `inputs` makes them
from the shape by integer arithmetic alone, the test calls it too. Dev only: needs jax
(../shared/ORACLE.md).

    python tools/make_column_stream_fixtures.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "column_stream.npz"
# (shape, reduced dimension): per = 8 rows a chunk for 4096 f32 columns, 4 for 4096 f64 ones
CASES = [
    ((2403, 4096), 0, "f32"),  # 300 chunks and 3 rows: Kahan-joined blocks, slabs, a partial chunk
    ((2, 180, 4096), 1, "f32"),  # two slices of 22 chunks and 4 rows
    ((249, 4096), 0, "f32"),  # 31 chunks and 1 row: the rows after the streamed ones fill a sub-block
    ((1100, 4096), 0, "f64"),  # 275 chunks of 4 rows
]
TEXT = """HloModule column_stream
add {{ a = {t}[] parameter(0)  b = {t}[] parameter(1)  ROOT s = {t}[] add(a, b) }}
ENTRY e {{ x = {t}[{shape}] parameter(0)  z = {t}[] constant(0)
  ROOT r = {t}[{out}] reduce(x, z), dimensions={{{dim}}}, to_apply=add }}"""


def text(shape: tuple[int, ...], dim: int, t: str) -> str:
    out = ",".join(str(n) for k, n in enumerate(shape) if k != dim)
    return TEXT.format(t=t, shape=",".join(map(str, shape)), out=out, dim=dim)


def inputs(shape: tuple[int, ...], t: str) -> np.ndarray:
    """Values of either sign over 16 binades, from a multiplicative hash of the position: every
    grouping of the sums gives other bits."""
    u = (np.arange(int(np.prod(shape)), dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(1 << 32)
    u = u.astype(np.uint32).reshape(shape)
    exponent = (117 + ((u >> 27) & 15)).astype(np.uint32)
    bits = ((u >> 31) << 31) | (exponent << 23) | (u & 0x7FFFFF)
    x = bits.view(np.float32)
    return x if t == "f32" else x.astype(np.float64) * (1 + 2.0**-40)


def main() -> None:
    import jax
    import jax.extend
    from jax._src.lib import _jax
    from jax._src.lib import xla_client as xc

    backend = jax.extend.backend.get_backend("cpu")
    devices = xc.DeviceList(tuple(backend.devices()[:1]))
    if any(t == "f64" for *_, t in CASES):
        jax.config.update("jax_enable_x64", True)
    arrays = {}
    for k, (shape, dim, t) in enumerate(CASES):
        module = xc.hlo.hlo_module_from_text(text(shape, dim, t))
        mlir = _jax.mlir.xla_computation_to_mlir_module(
            xc.XlaComputation(module.as_serialized_hlo_module_proto())
        )
        executable = backend.compile_and_load(mlir, devices, xc.CompileOptions())
        (out,) = executable.execute([jax.device_put(inputs(shape, t))])
        arrays[f"case{k}"] = np.asarray(out)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}: {[a.shape for a in arrays.values()]}")


if __name__ == "__main__":
    main()
