"""Fast paths of reduce give the bits of the ordered fold they stand in for (the ordered fold is
the one pinned to XLA:CPU's fixtures in tests/golden/ops/exact_sums.npz): float max/min reduces
as one NumPy reduce, on the values where order or flushing could show (signed zeros,
subnormals, infinities)."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.numerics import reduction

VALUES = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 1e-40, -1e-40, 2.5, -2.5], np.float32)


def _module(op: str, dims: str) -> hlo.Module:
    return hlo.parse_module(
        f"""HloModule s
f {{ a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] {op}(a, b) }}
ENTRY e {{ x = f32[40,70] parameter(0)  i = f32[] parameter(1)
  ROOT r = f32[{dims}] reduce(x, i), dimensions={{1}}, to_apply=f }}"""
    )


@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize("flush", [True, False])
def test_max_and_min_reduces_match_the_ordered_fold(op: str, flush: bool, monkeypatch) -> None:
    rng = np.random.default_rng(7)
    cases = []
    for trial in range(60):
        pool = VALUES[:2] if trial % 3 == 0 else VALUES
        cases.append(
            (rng.choice(pool, size=(40, 70)).astype(np.float32), np.array(rng.choice(VALUES), np.float32))
        )
    fast = hlo.compile_module(_module(op, "40"), hlo.RunOptions(flush_denormals=flush))
    got = [fast(x, init) for x, init in cases]
    monkeypatch.setattr(reduction, "_extreme", lambda *args: None)
    ordered = hlo.compile_module(_module(op, "40"), hlo.RunOptions(flush_denormals=flush))
    for (x, init), g in zip(cases, got):
        want = ordered(x, init)
        assert np.array_equal(g.view(np.uint32), want.view(np.uint32)), (x, init, g, want)


@pytest.mark.parametrize("family", ["exact_sums", "exact_long_reduces"])
def test_small_sums_folded_as_one_accumulate_give_xla_cpus_bits(family: str, monkeypatch) -> None:
    """The tree rewrite's windows and final folds of small f32/f64 sums run as one NumPy
    accumulate each (hlo.numerics.ordered_fold.accumulated), with XLA:CPU's bits."""
    from hlo.numerics import ordered_fold
    from test_engine_ops import check_case, data

    calls = []
    real = ordered_fold.accumulated
    monkeypatch.setattr(ordered_fold, "accumulated", lambda *a: calls.append(1) or real(*a))
    d = data(family)
    count = sum(1 for k in d.files if k.endswith("_hlo"))
    for k in range(count):
        check_case(family, k)
    assert calls


def test_small_unpadded_window_sums_folded_as_one_accumulate_give_xla_cpus_bits(monkeypatch) -> None:
    """Reduce-window sums whose windows lie inside the operand, folded row-major, run as one
    accumulate (hlo.numerics.window_fold), with XLA:CPU's bits."""
    from hlo.numerics import window_fold
    from test_engine_ops import check_case, data

    calls = []
    real = window_fold.accumulated
    monkeypatch.setattr(window_fold, "accumulated", lambda *a: calls.append(1) or real(*a))
    for family in ("exact_reduce_window", "exact_window_sums", "exact_window_order", "exact_sums"):
        d = data(family)
        for k in range(sum(1 for name in d.files if name.endswith("_hlo"))):
            check_case(family, k)
    assert calls


def test_sums_split_between_cores_give_xla_cpus_bits(monkeypatch) -> None:
    """The rows of a vector sum, or the 128 KiB chunks of one of at most 3 results, are summed
    on several cores (each is its own kernel run): the vector-sum fixtures keep XLA:CPU's bits
    with every sum split, down to one row or chunk per core."""
    from hlo.numerics import threads, vector_sum
    from test_engine_ops import check_case, data

    splits = []
    real = threads.split_rows
    monkeypatch.setattr(vector_sum, "SPLIT_ELEMENTS", 1)
    monkeypatch.setattr(threads, "split_rows", lambda *a: splits.append(a[1:3]) or real(*a))
    monkeypatch.setattr(threads, "share", lambda: 3)
    for family in ("exact_vector_sums", "exact_split_sums"):
        d = data(family)
        for k in range(sum(1 for f in d.files if f.endswith("_hlo"))):
            check_case(family, k)
    assert splits and all(parts > 1 for _, parts in splits)
