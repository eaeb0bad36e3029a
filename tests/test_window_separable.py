"""Max/min reduce-windows folded one window dimension at a time (hlo.numerics.window_separable)
give exactly what the row-major fold of every window gives (the order XLA:CPU's fixtures pin,
tests/test_window_order.py): over random windows, strides, paddings (negative too) and blocks,
with ties of signed zeros, infinities and NaNs of several payloads."""

from __future__ import annotations

import numpy as np
import pytest

from hlo.ir.attrs import Window, WindowDimension
from hlo.ir.opcode import Opcode
from hlo.numerics import numerics, subnormals, window_separable
from hlo.numerics.window_fold import fold_window, fold_window_known

VALUES = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, 3.0, -0.0, 0.0, 7.25])


def _case(rng: np.random.Generator, dtype: type, nan: bool) -> tuple[np.ndarray, Window]:
    rank = int(rng.integers(1, 5))
    shape = tuple(int(n) for n in rng.integers(1, 9, rank))
    dims = []
    for n in shape:
        if rng.random() < 0.3:
            dims.append(WindowDimension(1))
            continue
        size = int(rng.integers(1, min(n, 4) + 2))
        low, high = (int(p) for p in rng.integers(-1, 3, 2))
        dims.append(WindowDimension(size, int(rng.integers(1, 4)), low, high))
    x = rng.choice(VALUES, shape).astype(dtype)
    if nan:
        flat = x.reshape(-1)
        at = rng.integers(0, flat.size, 2)
        flat[at[0]] = np.nan
        flat[at[1]] = -np.frombuffer(np.array(np.nan, dtype).tobytes(), dtype)[0]  # another payload
    return x, Window(tuple(dims))


def _reference(combine: object, x: np.ndarray, init: np.ndarray, window: Window) -> np.ndarray:
    return fold_window(lambda a, b: combine(a, b), (x,), (init,), window)[0]  # type: ignore[operator]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("opcode", [Opcode.MAXIMUM, Opcode.MINIMUM])
def test_separable_extremes_match_the_row_major_fold(dtype: type, opcode: Opcode) -> None:
    rng = np.random.default_rng(7)
    combine = numerics.maximum if opcode is Opcode.MAXIMUM else numerics.minimum
    checked = 0
    for k in range(400):
        x, window = _case(rng, dtype, nan=k % 5 == 0)
        init = np.array(rng.choice([-np.inf, np.inf, 0.0, -0.0, 2.0]), dtype)
        want = _reference(combine, x, init, window)
        got = fold_window_known(opcode, combine, x, init, window, None)
        assert got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (x.shape, window, init)
        checked += window_separable.applies(window, x.shape)
    assert checked > 200  # most cases ran the separable fold


def test_blocks_of_leading_dimensions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny blocks: every block boundary of the leading dimensions the window leaves alone."""
    monkeypatch.setattr(window_separable, "BLOCK_BYTES", 8)
    rng = np.random.default_rng(3)
    x = rng.choice(VALUES, (5, 3, 9, 8)).astype(np.float32)
    window = Window(
        (WindowDimension(1), WindowDimension(1), WindowDimension(3, 2, 0, 1), WindowDimension(3, 2, 1, 1))
    )
    init = np.array(-np.inf, np.float32)
    want = _reference(numerics.maximum, x, init, window)
    got = fold_window_known(Opcode.MAXIMUM, numerics.maximum, x, init, window, None)
    assert got.tobytes() == want.tobytes()


def test_logical_or_and_integer_folds() -> None:
    rng = np.random.default_rng(5)
    for _ in range(100):
        x, window = _case(rng, np.float64, nan=False)
        if not window_separable.applies(window, x.shape):
            continue
        bits = x > 0
        for init in (np.bool_(False), np.bool_(True)):
            want = _reference(np.logical_or, bits, np.asarray(init), window)
            assert np.array_equal(window_separable.fold(np.logical_or, bits, np.asarray(init), window), want)
        ints = (x * 4).astype(np.int32, copy=False) if np.isfinite(x).all() else None
        if ints is not None:
            for init in (np.int32(np.iinfo(np.int32).min), np.int32(3)):
                want = _reference(np.maximum, ints, np.asarray(init), window)
                assert np.array_equal(window_separable.fold(np.maximum, ints, np.asarray(init), window), want)


def test_dilated_windows_keep_the_passes() -> None:
    dilated = Window((WindowDimension(2, 1, 0, 0, window_dilation=2),))
    assert not window_separable.applies(dilated, (6,))
    x = np.array([1.0, -0.0, 3.0, 0.0, -5.0, 2.0], np.float32)
    got = fold_window_known(Opcode.MAXIMUM, numerics.maximum, x, np.array(-np.inf, np.float32), dilated, None)
    assert got.tolist() == [3.0, 0.0, 3.0, 2.0]


@pytest.mark.parametrize("mode", [True, False])
def test_subnormal_results_are_flushed(mode: bool) -> None:
    """A subnormal maximum comes out as a zero of its sign, in the CPU's flush-to-zero mode (one
    multiplication by one) and in software."""
    tiny = np.finfo(np.float32).tiny
    x = np.array([[tiny / 4, -tiny / 2, -1.0, tiny / 8], [-tiny / 4, -3.0, -tiny / 2, -2.0]], np.float32)
    window = Window((WindowDimension(1), WindowDimension(2, 2)))
    with subnormals.flushing_subnormals(mode):
        got = fold_window_known(
            Opcode.MAXIMUM,
            numerics.maximum,
            x,
            np.array(-np.inf, np.float32),
            window,
            numerics.flush_denormals,
        )
    assert got.tolist() == [[0.0, 0.0], [-0.0, -0.0]]
    assert np.signbit(got).tolist() == [[False, False], [True, True]]


@pytest.mark.parametrize("mode", [True, False])
def test_subnormals_meet_zeros_as_the_zeros_of_their_signs(mode: bool) -> None:
    """Ties of zeros with subnormals: a subnormal is the zero of its sign (XLA:CPU flushes its
    inputs), and +0 wins a max over -0; in the CPU's mode the operand is not copied flushed for
    the tie (its zero test reads subnormals as zeros already)."""
    tiny = np.finfo(np.float32).tiny
    x = np.array([[-0.0, tiny / 4, -tiny / 4, -0.0, -tiny / 4, 0.0, 5.0, 1.0]], np.float32)
    window = Window((WindowDimension(1), WindowDimension(2, 2)))
    with subnormals.flushing_subnormals(mode):
        got = fold_window_known(
            Opcode.MAXIMUM,
            numerics.maximum,
            x,
            np.array(-np.inf, np.float32),
            window,
            numerics.flush_denormals,
        )
    assert got.tolist() == [[0.0, 0.0, 0.0, 5.0]]
    assert np.signbit(got).tolist() == [[False, True, False, False]]


@pytest.mark.parametrize("mode", [True, False])
@pytest.mark.parametrize("zero_first", [False, True])
def test_a_relus_zeros_are_positive_as_the_general_tie_makes_them(mode: bool, zero_first: bool) -> None:
    """max(x, broadcast +0) clears its zero results through a mask (numerics._positive_zeros):
    -0 and (in the CPU's mode) subnormals below and above zero give +0, NaN payloads (quiet and
    signalling, either sign) pass untouched: the bits of the general tie rule on the same zeros
    as a full array."""
    tiny = np.finfo(np.float32).tiny
    values = np.array([0.0, -0.0, tiny / 4, -tiny / 4, 1.0, -1.0, np.inf, -np.inf, 5e-39], np.float32)
    nans = np.array([0x7FA00001, 0xFFC00002, 0x7FC00000], np.uint32).view(np.float32)
    x = np.tile(np.concatenate([values, nans]), 100)
    with subnormals.flushing_subnormals(mode), np.errstate(all="ignore"):
        zeros = np.broadcast_to(np.float32(0), x.shape)
        pair = (zeros, x) if zero_first else (x, zeros)
        got = numerics.maximum(*pair)
        general = numerics.maximum(*(np.zeros_like(x) if p is zeros else p for p in pair))
    assert got.tobytes() == general.tobytes()
    assert not np.signbit(got[1]) and got[1] == 0  # -0 -> +0
    assert got[len(values) :][:3].view(np.uint32).tolist() == nans.view(np.uint32).tolist()
