"""A sort by one integer key of at most 32 bits orders packed (key, index) int64s and keeps the
indices as int32 (hlo.numerics.packed_order): XLA:CPU's results (tests/golden/sort_order, made
by tools/make_sort_order_fixtures.py; ties that stability decides, rows of many blocks), and a
peak below argsort's int64 order beside the key."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.numerics import packed_order

FIXTURES = Path(__file__).parent / "golden" / "sort_order"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.hlo"))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("block", [packed_order.BLOCK, 777])
def test_sorts_give_xla_cpus_results(monkeypatch: pytest.MonkeyPatch, name: str, block: int) -> None:
    monkeypatch.setattr(packed_order, "BLOCK", block)  # (777: rows of several blocks)
    data = np.load(FIXTURES / "sort_order.npz")
    module = hlo.parse_module((FIXTURES / f"{name}.hlo").read_text())
    args = [data[k] for k in sorted(k for k in data.files if k.startswith(f"{name}_arg"))]
    outs = [data[k] for k in sorted(k for k in data.files if k.startswith(f"{name}_out"))]
    got = hlo.run(module, *args, jit="off")
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    assert len(got) == len(outs)
    for g, e in zip(got, outs):
        assert np.asarray(g).dtype == e.dtype and np.asarray(g).tobytes() == e.tobytes()


def test_the_fixtures_ties_need_stability() -> None:
    """The rows hold equal keys of different bits (+0 and -0, NaNs): an unstable order shows."""
    x = np.load(FIXTURES / "sort_order.npz")["sort_rows_arg0"]
    assert np.count_nonzero(x.view(np.uint32) == 0x80000000) and np.count_nonzero(x == 0) > 100
    assert len(np.unique(x[np.isnan(x)].view(np.uint32))) > 1


def test_a_key_of_more_than_32_bits_or_a_float_key_is_left_to_argsort() -> None:
    x = np.arange(10.0)
    assert packed_order.stable_order(lambda ops: ops[0].astype(np.int64), [x]) is None
    assert packed_order.stable_order(lambda ops: ops[0], [x]) is None


SORT = """HloModule s
lt { a = f32[] parameter(0)  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER }
ENTRY e { x = f32[1048576] parameter(0)
  ROOT r = f32[1048576] sort(x), dimensions={0}, is_stable=true, to_apply=lt }"""


def test_the_peak_of_a_sort_of_1m_f32_is_near_its_packed_keys() -> None:
    """The packed keys (8 MB) and a block's temporaries; argsort's was the key (4 MB) beside its
    int64 order (8 MB), then the order beside the result (4 MB)."""
    x = np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32)
    module = hlo.parse_module(SORT)
    hlo.run(module, x, jit="off")
    tracemalloc.start()
    got = hlo.run(module, x, jit="off")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert np.array_equal(np.asarray(got), np.sort(x))  # (distinct normal values: one answer)
    assert peak < (8 << 20) + (2 << 20)
