"""Complex dots' compiled sums and Eigen's plan (hlo.numerics.complex_dot, complex_dot_tier,
eigen_contraction). Their bits against XLA:CPU are the fixtures' (exact_complex_dots.npz, in
test_engine_ops.py and, compiled, test_entry_tier.py)."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.numerics import complex_dot_tier, eigen_contraction, threads
from hlo.runtime import blas_threads

TEXT = """HloModule m
ENTRY e {
  p = c64[64,100] parameter(0)
  q = c64[100,72] parameter(1)
  ROOT r = c64[64,72] dot(p, q), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def _values(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-20, 20, shape)
    return (x + 1j * rng.standard_normal(shape)).astype(np.complex64)


@pytest.mark.parametrize("flush", [True, False])
def test_compiled_sums_give_the_interpreters_bits(flush: bool) -> None:
    pytest.importorskip("numba")
    rng = np.random.default_rng(3)
    x, y = _values((64, 100), rng), _values((100, 72), rng)
    x[0, :4] = [np.inf, np.nan, 1e-40, -0.0]
    y[5, :3] = [1e-42j, -np.inf, 3e38]
    module = hlo.parse_module(TEXT)
    compiled = np.asarray(hlo.run(module, x, y, jit="eager", flush_denormals=flush))
    assert complex_dot_tier._kernel is not None and complex_dot_tier._kernel.fn is not None
    interpreted = np.asarray(hlo.run(module, x, y, jit="off", flush_denormals=flush))
    np.testing.assert_array_equal(compiled.view(np.uint32), interpreted.view(np.uint32))


def test_small_products_stay_on_numpy() -> None:
    a = np.ones((1, 4, 4), np.complex64)
    assert complex_dot_tier.four_sums(a, a, "eager") is None


@pytest.mark.parametrize(
    ("m", "k", "n", "parts", "rows"),
    [
        # (the dot's m, k, n: Eigen's output is n x m) as XLA:CPU's results showed them
        (16, 700, 16, [[(0, 240), (240, 480), (480, 700)]], None),  # one thread, balanced blocks
        (64, 700, 64, [[(0, 320), (320, 640), (640, 700)]], 32),  # two threads over tiles
        (31, 269, 88, [[(0, 269)]], 44),  # sharded by row: tiles of a multiple of 4
        (40, 700, 40, [[(0, 320), (320, 352)], [(352, 672), (672, 700)]], None),  # k shared
    ],
)
def test_eigen_plans_measured_on_xla(m: int, k: int, n: int, parts: list, rows: int | None) -> None:
    plan = eigen_contraction.schedule(np.dtype(np.complex64), n, m, k, 2)
    assert plan.parts == parts
    assert plan.rows == rows


@pytest.mark.parametrize(
    ("t", "batch", "m", "k", "n"), [("c64", 2, 128, 400, 256), ("c128", 1, 256, 300, 256)]
)
def test_compiled_sums_split_between_cores_give_the_interpreters_bits(
    t: str, batch: int, m: int, k: int, n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Products large enough to split their batches (or, one batch, their rows) between cores."""
    pytest.importorskip("numba")
    splits = []
    split_rows = threads.split_rows
    monkeypatch.setattr(threads, "split_rows", lambda *args: (splits.append(args[1:3]), split_rows(*args)))
    rng = np.random.default_rng(4)
    text = (
        f"HloModule m\nENTRY e {{\n  p = {t}[{batch},{m},{k}] parameter(0)\n"
        f"  q = {t}[{batch},{k},{n}] parameter(1)\n"
        f"  ROOT r = {t}[{batch},{m},{n}] dot(p, q), lhs_batch_dims={{0}}, rhs_batch_dims={{0}}, "
        "lhs_contracting_dims={2}, rhs_contracting_dims={1}\n}\n"
    )
    dtype = np.complex64 if t == "c64" else np.complex128
    x, y = _values((batch, m, k), rng).astype(dtype), _values((batch, k, n), rng).astype(dtype)
    module = hlo.parse_module(text)
    compiled = np.asarray(hlo.run(module, x, y, jit="eager"))
    if blas_threads.cores() > 1:
        assert (batch if batch > 1 else m, 2) in splits
    interpreted = np.asarray(hlo.run(module, x, y, jit="off"))
    np.testing.assert_array_equal(compiled.view(np.uint8), interpreted.view(np.uint8))
