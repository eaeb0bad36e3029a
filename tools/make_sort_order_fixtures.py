"""Make tests/golden/sort_order/*.hlo and sort_order.npz: sorts as jax writes them, rows of
several thousand elements (the test makes hlo.numerics.packed_order.BLOCK smaller), with ties
that stability decides (+0 and -0, NaNs of several payloads and signs, few distinct values),
keys of several integer widths, along the last and a leading dimension, with XLA:CPU's
outputs, for tests/test_packed_order.py. Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_sort_order_fixtures.py
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "sort_order"


def floats(rng: np.random.Generator, *shape: int) -> np.ndarray:
    x = rng.integers(-3, 4, shape).astype(np.float32)  # few distinct values: ties everywhere
    x[x == 0] = rng.choice(np.array([0.0, -0.0], np.float32), int(np.count_nonzero(x == 0)))
    bits = x.view(np.uint32)
    nan = rng.random(shape) < 0.05  # NaNs of either sign and several payloads
    bits[nan] = rng.choice(np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFA00005], np.uint32), nan.sum())
    return x


def cases(rng: np.random.Generator) -> list[tuple[str, Any, list[np.ndarray]]]:
    import jax.numpy as jnp

    return [
        ("sort_rows", lambda x: jnp.sort(x, axis=1), [floats(rng, 3, 5001)]),
        ("sort_columns", lambda x: jnp.sort(x, axis=0), [floats(rng, 5001, 2)]),
        ("argsort", lambda x: jnp.argsort(x, stable=True), [floats(rng, 10000)]),
        ("sort_u32", jnp.sort, [rng.integers(0, 1 << 32, 8000, dtype=np.uint64).astype(np.uint32)]),
        (
            "argsort_i8",
            lambda x: jnp.argsort(x, stable=True),
            [rng.integers(-128, 128, 5000).astype(np.int8)],
        ),
        ("argsort_descending", lambda x: jnp.argsort(-x, stable=True), [floats(rng, 5000)]),
    ]


def main() -> None:
    import jax

    OUT.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    for name, fn, args in cases(np.random.default_rng(0)):
        lowered = jax.jit(fn, keep_unused=True).lower(*args)
        (OUT / f"{name}.hlo").write_text(lowered.as_text(dialect="hlo"))
        outs = jax.tree_util.tree_leaves(lowered.compile()(*args))
        arrays |= {f"{name}_arg{k}": a for k, a in enumerate(args)}
        arrays |= {f"{name}_out{k}": np.asarray(o) for k, o in enumerate(outs)}
    np.savez_compressed(OUT / "sort_order.npz", **arrays)
    print(f"wrote {OUT}: {sorted(arrays)}")


if __name__ == "__main__":
    main()
