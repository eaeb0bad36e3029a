"""Make tests/golden/rng_bit_generator_cases.npz: rng-bit-generator on XLA:CPU for each algorithm,
state size, output type and several shapes (dev only: needs jax, see ../shared/ORACLE.md).

    python tools/make_rng_fixtures.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "rng_bit_generator_cases.npz"

CASES = [
    (algorithm, state_size, dtype, shape)
    for algorithm in ("rng_three_fry", "rng_philox", "rng_default")
    for state_size in ((2,) if algorithm == "rng_three_fry" else (2, 3))
    for dtype in ("u32", "u64", "u8", "u16", "s32")
    for shape in ((), (5,), (2, 3), (3, 5), (4, 1, 3))
]


def run_on_cpu(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    import jax
    import jax.extend

    jax.config.update("jax_enable_x64", True)  # u64 states
    from jax._src.lib import _jax
    from jax._src.lib import xla_client as xc

    module = xc.hlo.hlo_module_from_text(text)
    computation = xc.XlaComputation(module.as_serialized_hlo_module_proto())
    mlir = _jax.mlir.xla_computation_to_mlir_module(computation)
    backend = jax.extend.backend.get_backend("cpu")
    executable = backend.compile_and_load(
        mlir, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions()
    )
    return [np.asarray(o) for o in executable.execute([jax.device_put(a) for a in args])]


def main() -> None:
    rng = np.random.default_rng(7)
    arrays: dict[str, np.ndarray] = {}
    for k, (algorithm, state_size, dtype, shape) in enumerate(CASES):
        dims = ",".join(map(str, shape))
        state = rng.integers(0, 2**63, size=state_size, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        text = (
            "HloModule rng\n\nENTRY main {\n"
            f"  s = u64[{state_size}] parameter(0)\n"
            f"  r = (u64[{state_size}], {dtype}[{dims}]) rng-bit-generator(s), algorithm={algorithm}\n"
            f"  a = u64[{state_size}] get-tuple-element(r), index=0\n"
            f"  b = {dtype}[{dims}] get-tuple-element(r), index=1\n"
            f"  ROOT t = (u64[{state_size}], {dtype}[{dims}]) tuple(a, b)\n}}\n"
        )
        new_state, bits = run_on_cpu(text, [state])
        arrays[f"case{k}_algorithm"] = np.array(algorithm)
        arrays[f"case{k}_dtype"] = np.array(dtype)
        arrays[f"case{k}_shape"] = np.array(shape, dtype=np.int64)
        arrays[f"case{k}_state"] = state
        arrays[f"case{k}_new_state"] = new_state
        arrays[f"case{k}_bits"] = bits
    np.savez_compressed(OUT, **arrays)
    print(f"{OUT.name}: {len(CASES)} cases")


if __name__ == "__main__":
    main()
