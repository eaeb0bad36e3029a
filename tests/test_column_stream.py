"""Column sums of many chunks: their sums go into sub-block sums a slab at a time
(hlo.numerics.column_sum._chunked), XLA:CPU's bits (tests/golden/column_stream.npz, made by
tools/make_column_stream_fixtures.py, which also makes the inputs), without holding every chunk's
sum."""

from __future__ import annotations

import importlib.util
import threading
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.numerics import column_sum

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "make_column_stream", ROOT / "tools" / "make_column_stream_fixtures.py"
)
assert _spec is not None and _spec.loader is not None
maker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(maker)
EXPECTED = np.load(ROOT / "tests" / "golden" / "column_stream.npz")


@pytest.mark.parametrize("case", range(len(maker.CASES)))
def test_many_chunks_give_xla_cpus_bits(case: int) -> None:
    shape, dim, t = maker.CASES[case]
    x = maker.inputs(shape, t)
    assert column_sum.applies(x.dtype, shape, [dim])
    got = np.asarray(hlo.run(hlo.parse_module(maker.text(shape, dim, t)), x, jit="off"))
    assert got.dtype == EXPECTED[f"case{case}"].dtype and got.tobytes() == EXPECTED[f"case{case}"].tobytes()


def test_the_chunks_sums_are_not_all_held() -> None:
    """300 chunk sums would be 4.8 MB; their sub-block sums are 19 x 16 KB, beside one slab's
    temporaries."""
    shape, dim, t = maker.CASES[0]
    x = maker.inputs(shape, t)
    module = hlo.parse_module(maker.text(shape, dim, t))
    hlo.run(module, x, jit="off")
    for thread in threading.enumerate():  # (earlier tests' compilations allocate meanwhile)
        if thread.name.startswith("hlo-"):
            thread.join()
    tracemalloc.start()
    hlo.run(module, x, jit="off")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 3 << 20
