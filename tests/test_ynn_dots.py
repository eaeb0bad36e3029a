"""Matrix products as XLA:CPU runs them on YNNPACK (hlo.numerics.ynn_dot, ynn_kernels): every
case of tests/golden/kernels/ynn_dots.npz (tools/make_exactness_fixtures.py, written on an
AVX-512 CPU) bit for bit, with the kernels of such a CPU whatever this one's; YNNPACK's
choices checked against what the fixtures showed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.numerics import ynn_dot, ynn_kernels

FIXTURES = Path(__file__).parent / "golden" / "kernels" / "ynn_dots.npz"
with np.load(FIXTURES) as _data:
    CASES = sum(1 for k in _data.files if k.endswith("_hlo"))
AVX512 = frozenset(ynn_kernels.ARCHES)  # the CPU the fixtures come from has every instruction set


@pytest.fixture
def avx512(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ynn_kernels, "host_arches", lambda: AVX512)


def _case(k: int) -> tuple[str, list[np.ndarray], np.ndarray]:
    with np.load(FIXTURES) as d:
        return str(d[f"case{k}_hlo"]), [d[f"case{k}_arg0"], d[f"case{k}_arg1"]], d[f"case{k}_out0"]


@pytest.mark.parametrize("k", range(CASES))
def test_every_product_matches_xla_cpu(k: int, avx512: None) -> None:
    text, args, want = _case(k)
    got = hlo.run(hlo.parse_module(text), *args, jit="off")
    assert np.asarray(got).tobytes() == want.tobytes(), text


def test_blas_order_differs_from_the_fixtures() -> None:
    """The cases need the model: NumPy's matmul gives other bits for most of them."""
    differ = 0
    for k in range(CASES):
        text, (a, b), want = _case(k)
        if "batch" in text or "{2,3}" in text or "{1,2}" in text:
            continue
        rhs = b.T if "rhs_contracting_dims={1}" in text else b
        differ += bool((np.matmul(a, rhs) != want).any())
    assert differ >= CASES // 3


@pytest.mark.parametrize(
    ("m", "n", "k", "tile_k", "packed"),
    [(8, 8, 16, 4, True), (8, 16, 40, 4, True), (8, 17, 40, 1, False), (8, 32, 64, 1, False),
     (100, 32, 30, 2, True), (300, 40, 64, 4, True)],
)  # fmt: skip
def test_kernel_choice(m: int, n: int, k: int, tile_k: int, packed: bool) -> None:
    """Small n: four sums a result (the 4-deep kernels); wider products one sum on the rhs
    as it is, unless the lhs has more than 10 row blocks: then the rhs is packed and the
    kernel the cost model picks for m = 2048 decides (two sums for n = 32)."""
    plan = ynn_dot.plan(np.dtype(np.float32), m, n, k, False, AVX512)
    assert (plan.tile_k, plan.packed_columns is not None) == (tile_k, packed)


def test_chunks_of_k_fit_128_kib() -> None:
    """f32, n = 64: k in chunks of 512 (512 x 64 x 4 bytes), n = 20 unpacked: 1638."""
    for n, k, step in ((64, 2000, 512), (20, 2000, 1638)):
        plan = ynn_dot.plan(np.dtype(np.float32), 3, n, k, False, AVX512)
        assert {t.step for t in ynn_dot.tiles(plan, 3, n, k, 4)} == {step}


def test_edge_tiles_may_round_each_product() -> None:
    """17 x 1000 x 775: the last columns' tile takes a kernel without FMAs."""
    plan = ynn_dot.plan(np.dtype(np.float32), 17, 775, 1000, False, AVX512)
    assert {t.fused for t in ynn_dot.tiles(plan, 17, 775, 1000, 4)} == {True, False}


def test_which_dots_run_on_ynnpack() -> None:
    assert ynn_dot.operands(2, 2, (), (1,), (), (0,)) is False  # [m, k] x [k, n]
    assert ynn_dot.operands(2, 2, (), (1,), (), (1,)) is True  # rhs [n, k]
    assert ynn_dot.operands(2, 2, (), (0,), (), (0,)) is None  # lhs [k, m]: not YNNPACK's
    assert ynn_dot.operands(4, 4, (0,), (2, 3), (0,), (2, 1)) is False  # transposed first
    assert not ynn_dot.applies(np.dtype(np.float32), 7, 7, 7)  # all below 8
    assert not ynn_dot.applies(np.dtype(np.float32), 1, 64, 64)  # a vector times a matrix
