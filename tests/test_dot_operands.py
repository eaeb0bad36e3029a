"""Dot operands of 64K elements and more are read for subnormals rather than copied flushed
(hlo.numerics.linear.contiguous): XLA:CPU's bits still (tests/golden/dot_operands, made by
tools/make_dot_operand_fixtures.py), and no copy of an operand that needs none; a large
convolution's patch matrix copied positions innermost; a weight gradient's made a few features
at a time; a mid-sized one's copied so too where its positions run longer than its window."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.dtypes import PrimitiveType
from hlo.numerics import conv_chains, convolution, linear, subnormals

FIXTURES = Path(__file__).parent / "golden" / "dot_operands"


def _case() -> tuple[hlo.Module, list[np.ndarray], list[np.ndarray]]:
    module = hlo.parse_module((FIXTURES / "large_dots.hlo").read_text())
    data = np.load(FIXTURES / "large_dots.npz")
    return module, [data[f"arg{k}"] for k in range(4)], [data[f"out{k}"] for k in range(2)]


def test_large_operands_with_subnormals_give_xla_cpus_bits() -> None:
    module, args, expected = _case()
    got = hlo.run(module, *args, jit="off")
    for g, e in zip(got, expected):
        assert np.asarray(g).tobytes() == e.tobytes()


def test_the_subnormal_rows_decide_the_fixture() -> None:
    """Read as numbers, the subnormals give other values: the fixture can tell."""
    module, args, expected = _case()
    got = hlo.run(module, *args, jit="off", flush_denormals=False)
    assert np.any(np.asarray(got[0])[8:16] != 0) and np.any(np.asarray(got[1])[:, 0:8] != 0)
    assert not np.array_equal(np.asarray(got[0]), expected[0])


@pytest.mark.parametrize("dtype, subnormal", [(np.float32, -1e-40), (np.float64, 1e-310)])
@pytest.mark.parametrize("flushing", [False, True])
def test_subnormals_are_found_in_any_piece(dtype: type, subnormal: float, flushing: bool) -> None:
    """In the CPU's flush mode too (where a float comparison reads them as zero)."""
    x = np.ones(3 * linear.CHECK_ELEMENTS + 5, dtype)
    x[::7] = 0.0  # zeros are not subnormals
    x[5] = -0.0
    x[3] = np.nan
    ys = []
    for at in (0, linear.CHECK_ELEMENTS + 1, x.size - 1):
        ys.append(x.copy())
        ys[-1][at] = subnormal  # (outside the mode, which would flush it on the way in)
    with subnormals.flushing_subnormals(flushing):
        assert not linear._has_subnormals(x)
        assert all(linear._has_subnormals(y) for y in ys)


def test_a_c_contiguous_operand_without_subnormals_is_not_copied() -> None:
    """The memory of a 512^3 matmul: its product (1 MB), not copies of the operands (2 MB)."""
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((2, 512, 512), dtype=np.float32)
    fn = linear.dot_general_fn(a.dtype, b.dtype, 2, 2, (), (1,), (), (0,), PrimitiveType.F32)
    with subnormals.flushing_subnormals(True):
        fn(a, b)
        tracemalloc.start()
        out = fn(a, b)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < out.nbytes + (512 << 10)


def test_a_large_convolutions_patches_copied_positions_innermost_give_xla_cpus_bits() -> None:
    module = hlo.parse_module((FIXTURES / "large_conv.hlo").read_text())
    data = np.load(FIXTURES / "large_conv.npz")
    x, k = data["arg0"], data["arg1"]
    assert convolution.LARGE_GEMM <= 48 * 48 * 64 * 32 * 9  # (the product of one image)
    got = hlo.run(module, x, k, jit="off")
    assert np.asarray(got).tobytes() == data["out0"].tobytes()


def test_a_weight_gradients_patch_matrix_goes_a_few_features_at_a_time() -> None:
    """LeNet's first weight gradient: one image whose patch matrix (25 rows, 3.7 MB) is above
    PATCH_BYTES is made in pieces of input features, never whole, and gives XLA:CPU's values
    (small integers: exact in any order)."""
    module = hlo.parse_module((FIXTURES / "weight_gradient.hlo").read_text())
    data = np.load(FIXTURES / "weight_gradient.npz")
    x, g = data["arg0"], data["arg1"]
    whole = 25 * 64 * 24 * 24 * 4  # the patch matrix: positions x (features * window)
    assert whole > convolution.PATCH_BYTES
    hlo.run(module, x, g, jit="off")
    tracemalloc.start()
    got = hlo.run(module, x, g, jit="off")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert np.asarray(got).tobytes() == data["out0"].tobytes()
    assert peak < whole


def test_subnormals_are_told_from_their_neighbours() -> None:
    """The bounds of the check: the smallest normal and zeros are not subnormals, the largest
    and smallest subnormals are, of either sign; an operand half zeros (a ReLU's output)."""
    for dtype in (np.float32, np.float64):
        info = np.finfo(dtype)
        largest_subnormal = np.nextafter(dtype(info.tiny), dtype(0))
        for value in (info.tiny, -info.tiny, 0.0, -0.0, np.inf, -np.inf, np.nan, info.max, 1.0):
            assert not linear._has_subnormals(np.full(5, value, dtype))
        for value in (
            largest_subnormal,
            -largest_subnormal,
            info.smallest_subnormal,
            -info.smallest_subnormal,
        ):
            assert linear._has_subnormals(np.array([1.0, value], dtype))
        relu = np.maximum(np.random.default_rng(0).standard_normal(2 * linear.CHECK_ELEMENTS), 0).astype(
            dtype
        )
        assert not linear._has_subnormals(relu)
        relu[-1] = info.smallest_subnormal
        assert linear._has_subnormals(relu)


def test_a_mid_sized_convolutions_patches_copied_positions_innermost_give_xla_cpus_bits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """LeNet's input gradient: products below LARGE_GEMM (a few images each) whose positions run
    longer than the window's rows take the positions-innermost copy too, with XLA:CPU's values
    (small integers: exact in any order)."""
    module = hlo.parse_module((FIXTURES / "input_gradient.hlo").read_text())
    data = np.load(FIXTURES / "input_gradient.npz")
    monkeypatch.setattr(conv_chains, "route", lambda *a: None)  # (the BLAS product, as YNNPACK's are)
    taken: list[bool] = []
    decide = convolution._positions_last_pays
    monkeypatch.setattr(convolution, "_positions_last_pays", lambda *a: taken.append(decide(*a)) or taken[-1])
    got = hlo.run(module, data["arg0"], data["arg1"], jit="off")
    assert np.asarray(got).tobytes() == data["out0"].tobytes()
    assert any(taken)


def test_the_two_patch_copies_give_the_same_bits_on_any_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Above OpenBLAS's small-matrix sizes the product reads either copy alike: the same bits for
    values whose sums round."""
    monkeypatch.setattr(conv_chains, "route", lambda *a: None)  # (the BLAS product, as YNNPACK's are)
    module = hlo.parse_module((FIXTURES / "input_gradient.hlo").read_text())
    rng = np.random.default_rng(3)
    g = rng.standard_normal((64, 16, 8, 8)).astype(np.float32)
    k = rng.standard_normal((16, 6, 5, 5)).astype(np.float32)
    positions_last = np.asarray(hlo.run(module, g, k, jit="off"))
    monkeypatch.setattr(convolution, "_positions_last_pays", lambda *a: False)
    rows_first = np.asarray(hlo.run(module, g, k, jit="off"))
    assert positions_last.tobytes() == rows_first.tobytes()
