"""Fast paths of scans give the bits of the folds they stand in for: a forward reduce-window of
2-16 elements (the windows XLA:CPU's scan rewrite leaves, in its optimized text) as a running
fold against the windowed fold pinned by tests/golden/ops/exact_window_order.npz, and rows of
up to 64 scanned a position at a time against ufunc.accumulate (NumPy's own running fold)."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.numerics import reduction, scan

# magnitudes over many binades, signed zeros, subnormals: every regrouping shows in the bits
VALUES = np.array([0.0, -0.0, 1.0, -1.0, 3e7, -3e7, 1e-40, -1e-40, 2.5, 1e-3, -7e5], np.float32)


def _module(op: str, rows: int, n: int, low: int, out: int, t: str) -> hlo.Module:
    return hlo.parse_module(
        f"""HloModule s
f {{ a = {t}[] parameter(0)  b = {t}[] parameter(1)  ROOT s = {t}[] {op}(a, b) }}
ENTRY e {{ x = {t}[{rows},{n}] parameter(0)  i = {t}[] parameter(1)
  ROOT r = {t}[{rows},{out}] reduce-window(x, i), window={{size=1x{n} pad=0_0x{low}_0}}, to_apply=f }}"""
    )


@pytest.mark.parametrize("op", ["add", "multiply"])
@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("flush", [True, False])
def test_short_forward_windows_match_the_windowed_fold(op: str, t: str, flush: bool, monkeypatch) -> None:
    rng = np.random.default_rng(11)
    dtype = np.float32 if t == "f32" else np.float64
    cases = []
    for n in (2, 5, 16):
        for low in (n - 1, n):  # inclusive, exclusive
            x = rng.choice(VALUES, size=(5000, n)).astype(dtype)
            init = np.array(rng.choice(VALUES[2:]), dtype)
            cases.append((n, low, x, init))
    options = hlo.RunOptions(flush_denormals=flush)
    fast = [
        hlo.compile_module(_module(op, 5000, n, low, n + (low == n), t), options)(x, i)
        for n, low, x, i in cases
    ]
    monkeypatch.setattr(reduction, "scan_axis", lambda shape, window, short=False: None)
    for (n, low, x, init), got in zip(cases, fast):
        ordered = hlo.compile_module(_module(op, 5000, n, low, n + (low == n), t), options)(x, init)
        assert got.shape == ordered.shape
        assert np.array_equal(got.view(f"u{got.itemsize}"), ordered.view(f"u{got.itemsize}")), (n, low)


@pytest.mark.parametrize("ufunc", [np.add, np.multiply, np.maximum])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("exclusive", [False, True])
def test_short_rows_match_accumulate(ufunc: np.ufunc, dtype: type, exclusive: bool) -> None:
    rng = np.random.default_rng(5)
    for shape in ((4096 * 3 + 7, 16), (50, 100, 3), (9000, 64)):
        x = (rng.choice(VALUES, size=shape) if dtype is np.float32 else rng.integers(-9, 9, shape)).astype(
            dtype
        )
        init = np.array(3, dtype)
        for operand in (x, x[..., ::-1]):  # contiguous and not
            with np.errstate(all="ignore"):  # (products of the spread overflow, as the plan allows)
                got = scan._accumulated(ufunc, operand, init, exclusive)
            width = shape[-1] + exclusive
            want = np.empty((*shape[:-1], width), dtype)
            want[..., 0] = init
            body = want[..., int(exclusive) :]
            body[...] = operand
            body[..., 0] = ufunc(init, operand[..., 0])
            with np.errstate(all="ignore"):  # (products of the spread overflow)
                ufunc.accumulate(body, axis=-1, dtype=dtype, out=body)
            assert np.array_equal(got.view(f"u{got.itemsize}"), want.view(f"u{got.itemsize}"))
