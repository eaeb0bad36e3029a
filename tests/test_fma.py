"""hlo.numerics.fma: `a*b + c` rounded once, checked against exact rational arithmetic (the
IEEE definition) on values chosen so that two roundings differ."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from hlo.numerics.fma import fma


def _rounded_once(a: float, b: float, c: float, dtype: type) -> np.ndarray:
    """The exact a*b + c, rounded to dtype by Fraction -> nearest candidate (no fma involved)."""
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    guess = dtype(float(exact)) if abs(exact) < 2**127 or dtype is np.float64 else dtype(np.inf)
    best = guess
    for candidate in (np.nextafter(guess, dtype(-np.inf)), guess, np.nextafter(guess, dtype(np.inf))):
        if not np.isfinite(candidate):
            continue
        gap, best_gap = abs(Fraction(float(candidate)) - exact), abs(Fraction(float(best)) - exact)
        even = int(np.array(candidate).view(np.uint32 if dtype is np.float32 else np.uint64)) % 2 == 0
        if gap < best_gap or (gap == best_gap and even):
            best = candidate
    return np.array(best, dtype=dtype)


def _cases(dtype: type, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    near = -(x * y)  # cancellation: the product's low bits decide
    bits = 24 if dtype is np.float32 else 53
    # ties: products of half-width integers plus a half step land on midpoints after one rounding
    i = rng.integers(2 ** (bits // 2), 2 ** (bits // 2 + 1), n).astype(dtype)
    j = rng.integers(2 ** (bits // 2), 2 ** (bits // 2 + 1), n).astype(dtype) + dtype(0.5)
    quarter = rng.choice(np.array([0.25, -0.25, 0.75, 3.0], dtype=dtype), n)
    return np.concatenate([x, i]), np.concatenate([y, j]), np.concatenate([near, quarter])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_rounds_once(dtype: type) -> None:
    a, b, c = _cases(dtype, 3000)
    got = fma(a, b, c)
    want = np.array([_rounded_once(float(p), float(q), float(r), dtype) for p, q, r in zip(a, b, c)])
    assert got.dtype == dtype
    assert np.array_equal(got.view(np.uint8), want.view(np.uint8))
    # the cases are ones where two roundings differ: the test would fail on a*b + c
    assert np.count_nonzero((a * b + c) != want) > 100


def test_fma_edges() -> None:
    inf, nan = np.inf, np.nan
    got = fma(
        np.array([inf, 0.0, 1e308, -0.0, 2.0**-600, 3.0]),
        np.array([0.0, 5.0, 3.0, 1.0, 2.0**-600, 1.0]),
        np.array([1.0, -0.0, -1.5e308, -0.0, 0.0, nan]),
    )
    assert np.isnan(got[0]) and np.isnan(got[5])
    assert got[1] == 0 and not np.signbit(got[1])  # +0 + -0 is +0
    # the product overflows, the exact sum does not
    assert got[2] == float(Fraction(1e308) * 3 + Fraction(-1.5e308))
    assert got[3] == 0 and np.signbit(got[3])  # -0 + -0 stays -0
    assert got[4] == 0.0  # 2^-1200 rounds to zero
    # an infinite addend wins over a finite product whose rounding overflows the other way
    assert fma(np.array([1e200]), np.array([-1e200]), np.array([inf]))[0] == inf
    assert fma(np.array([-1e200]), np.array([-1e200]), np.array([-inf]))[0] == -inf
    with pytest.raises(TypeError, match="f32 or f64"):
        fma(np.array([1], np.int32), np.array([1], np.int32), np.array([1], np.int32))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_of_scalars(dtype: type) -> None:
    """0-d operands (a scalar program's values) round once as arrays do, ties and subnormals too."""
    a, b, c = _cases(dtype, 200)
    tiny = np.finfo(dtype).smallest_subnormal
    zeros_and_subnormals = [(0.0, -0.5, 0.0), (tiny * 3, 0.5, 0.0), (tiny * 5, -0.5, tiny), (1.0, 1.0, -1.0)]
    a, b, c = (np.concatenate([v, np.array(w, dtype)]) for v, w in zip((a, b, c), zip(*zeros_and_subnormals)))
    for p, q, r in zip(a, b, c):
        got = fma(np.asarray(p), np.asarray(q), np.asarray(r))
        want = np.asarray(_rounded_once(float(p), float(q), float(r), dtype), dtype)
        assert got.shape == () and got.tobytes() == want.tobytes()


def test_fma_matches_the_compiled_tiers_intrinsic() -> None:
    numba = pytest.importorskip("numba")
    from hlo.numerics.jit_fma import fma_f32, fma_f64

    @numba.njit(cache=False)
    def run32(a, b, c, out):  # type: ignore[no-untyped-def]
        for i in range(a.size):
            out[i] = fma_f32(a[i], b[i], c[i])

    @numba.njit(cache=False)
    def run64(a, b, c, out):  # type: ignore[no-untyped-def]
        for i in range(a.size):
            out[i] = fma_f64(a[i], b[i], c[i])

    for dtype, run in ((np.float32, run32), (np.float64, run64)):
        a, b, c = _cases(dtype, 20000)
        out = np.empty_like(a)
        run(a, b, c, out)
        assert np.array_equal(out.view(np.uint8), fma(a, b, c).view(np.uint8))
