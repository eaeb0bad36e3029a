"""Make tests/golden/entry_tier/: programs the compiled entry tier takes (many instructions on
small values, loops of jax unrolled into repeated blocks) with XLA:CPU's outputs, for
tests/test_entry_tier.py. Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_entry_tier_fixtures.py

For each program `<name>`: `<name>.hlo` (unoptimized HLO text, one parameter per argument) and
`<name>.npz` with several input sets: `set<k>_arg<j>` and XLA:CPU's outputs `set<k>_out<j>`
(leaves of the result in order). The programs use only ops XLA:CPU computes exactly (float
arithmetic, comparisons, integer ops, conversions): the tests compare bits.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "entry_tier"
TINY = float(np.finfo(np.float32).tiny)


def chain_f32(x: Any, a: Any, c: Any) -> Any:
    """A recurrence of multiply-adds, divisions, square roots and max/min: 8 ops a step."""
    import jax.numpy as jnp

    for _ in range(200):
        x = jnp.sqrt(jnp.abs(x * a + c)) / (a - c)
        x = jnp.maximum(x, c) - jnp.minimum(x, a)
    return x


def chain_s32(x: Any, a: Any) -> Any:
    """Integer wrap-around, division and remainder by values that reach zero, shifts, xor."""
    from jax import lax

    for _ in range(120):
        x = x * a + 7
        x = lax.div(x, a - 3) ^ lax.rem(x, a + 1)
        x = lax.shift_right_arithmetic(x, a & 7) + lax.shift_left(x, a & 3)
    return x


def select_f64(x: Any, y: Any) -> Any:
    """Comparisons and selects with a scalar and a tuple result."""
    import jax.numpy as jnp

    for _ in range(60):
        x, y = jnp.where(x < y, x + y, x * 0.5), jnp.where(x >= y, y - x, y * 1.5)
    return x, y


def small_arrays(x: Any, b: Any) -> Any:
    """Arrays of 8: broadcasts, reductions, slices, concatenation, conversions."""
    import jax.numpy as jnp

    for _ in range(40):
        # (an integer sum: XLA:CPU vectorizes float sums of a few elements in its own order)
        s = jnp.sum((x - b).astype(jnp.int32)).astype(jnp.float32)
        x = (jnp.concatenate([x[4:], x[:4]]) + s) * 0.25
        b = (b.astype(jnp.int32) + 1).astype(jnp.float32) * 0.5
    return x, b


PROGRAMS: dict[str, tuple[Callable[..., Any], list[list[Any]]]] = {
    "chain_f32": (
        chain_f32,
        [
            [np.float32(0.5), np.float32(0.999), np.float32(0.001)],
            [np.float32(-3.0), np.float32(1.25), np.float32(-0.75)],
            [np.float32(TINY / 4), np.float32(TINY), np.float32(-TINY / 8)],
            [np.float32(np.nan), np.float32(2.0), np.float32(0.0)],
            [np.float32(1e30), np.float32(-1e-30), np.float32(np.inf)],
        ],
    ),
    "chain_s32": (
        chain_s32,
        [
            [np.int32(1), np.int32(3)],
            [np.int32(-7), np.int32(5)],
            [np.int32(2**31 - 1), np.int32(-2)],
            [np.int32(-(2**31)), np.int32(-1)],
        ],
    ),
    "select_f64": (
        select_f64,
        [
            [np.float64(1.0), np.float64(2.0)],
            [np.float64(-0.0), np.float64(0.0)],
            [np.float64(np.nan), np.float64(1e-310)],
        ],
    ),
    "small_arrays": (
        small_arrays,
        [
            [np.linspace(-1, 1, 8, dtype=np.float32), np.arange(8, dtype=np.float32)],
            [
                np.array([TINY / 2, -TINY, 1e38, -1e38, 0.0, -0.0, np.nan, 3.0], np.float32),
                np.full(8, 2.5, np.float32),
            ],
        ],
    ),
}


def main() -> None:
    import jax

    jax.config.update("jax_enable_x64", True)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (fn, sets) in PROGRAMS.items():
        jitted = jax.jit(fn, keep_unused=True)
        text = jitted.lower(*sets[0]).as_text(dialect="hlo")
        arrays: dict[str, np.ndarray] = {}
        for k, args in enumerate(sets):
            outs = jax.tree.leaves(jitted(*args))
            for j, a in enumerate(args):
                arrays[f"set{k}_arg{j}"] = np.asarray(a)
            for j, o in enumerate(outs):
                arrays[f"set{k}_out{j}"] = np.asarray(o)
        (OUT / f"{name}.hlo").write_text(text)
        np.savez(OUT / f"{name}.npz", **arrays)
        print(name, len(text.splitlines()), "lines,", len(sets), "input sets")


if __name__ == "__main__":
    main()
