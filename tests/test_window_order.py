"""The order of the window kernels against XLA:CPU where it can show.

tests/golden/ops/exact_window_order.npz (run by the op tables, test_engine_ops.py) pins the
row-major fold and scan of reduce-window and select-and-scatter and the update order of
scatter-add. tests/golden/windows_column_order.npz holds the windows XLA:CPU (jaxlib 0.10.2)
does not fold row-major: its emitter folds the last offset of one padded window dimension after
all the others (a 2x3 window padded 0_0x0_1 column by column, 0_0x1_1 row-major), and scans
select-and-scatter's windows in that order too; hlo.numerics.window_order models when. The cases
are order-revealing (a reducer spelling out its fold order, float sums that cancel, ties in
select-and-scatter and in a variadic argmax), with cases of each branch of the rule, row-major
ones included. Made by tools/make_window_fixtures.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo

COLUMNS = Path(__file__).parent / "golden" / "windows_column_order.npz"


def _count() -> int:
    with np.load(COLUMNS) as d:
        return sum(1 for k in d.files if k.endswith("_hlo"))


@pytest.mark.parametrize("k", range(_count()))
def test_windows_in_xla_order(k: int) -> None:
    with np.load(COLUMNS) as d:
        text = str(d[f"case{k}_hlo"])
        args = [d[f"case{k}_arg{j}"] for j in range(3) if f"case{k}_arg{j}" in d.files]
        want = d[f"case{k}_out"]
    got = hlo.run(hlo.parse_module(text), *args)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.view(f"u{got.dtype.itemsize}"), want.view(f"u{want.dtype.itemsize}"))
