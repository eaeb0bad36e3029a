"""A pad read by a reduce-window, against XLA:CPU (jaxlib 0.10.2): XLA merges the pad into the
window's padding when its value is the init value's (then skipped, in XLA:CPU's window order),
hlo.runtime.pad_merge does the same in the run plan. tests/golden/windows_pad_merge.npz (made by
tools/make_window_fixtures.py) has a reducer spelling its fold order (a padded position folded
in shows as a 07), cancelling f32 sums and the cases XLA does not merge (another value, a
reshape between, rank 1, negative edges, a variadic window, select-and-scatter, ...).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.ir.opcode import Opcode
from hlo.numerics.context import RunOptions
from hlo.replay.instrument import Watch, instrument
from hlo.runtime.run import Executable

CASES = Path(__file__).parent / "golden" / "windows_pad_merge.npz"


def _count() -> int:
    with np.load(CASES) as d:
        return sum(1 for k in d.files if k.endswith("_hlo"))


def _case(k: int) -> tuple[str, list[np.ndarray], np.ndarray]:
    with np.load(CASES) as d:
        text = str(d[f"case{k}_hlo"])
        args = [d[f"case{k}_arg{j}"] for j in range(3) if f"case{k}_arg{j}" in d.files]
        return text, args, d[f"case{k}_out"]


@pytest.mark.parametrize("k", range(_count()))
def test_pad_merged_as_xla(k: int) -> None:
    text, args, want = _case(k)
    got = hlo.run(hlo.parse_module(text), *args)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.view(f"u{got.dtype.itemsize}"), want.view(f"u{want.dtype.itemsize}"))


TEXT = """HloModule m

f {
  p = s64[] parameter(0)
  q = s64[] parameter(1)
  k = s64[] constant(100)
  m = s64[] multiply(p, k)
  ROOT r = s64[] add(m, q)
}

ENTRY main {
  x = s64[2,2] parameter(0)
  z = s64[] constant(7)
  pd = s64[2,3] pad(x, z), padding=0_0x0_1
  ROOT r = s64[2,2] reduce-window(pd, z), window={size=1x2}, to_apply=f
}
"""


def test_padded_positions_skipped() -> None:
    # each window: init 7, then its real elements; the padded 7 of the last column is skipped
    x = np.array([[1, 2], [3, 4]], np.int64)
    got = hlo.run(hlo.parse_module(TEXT), x)
    assert got.tolist() == [[70102, 702], [70304, 704]]


@pytest.mark.parametrize("fuse", [True, False])
def test_pad_value_still_recorded(fuse: bool) -> None:
    # --dump-values and bisect watch every step: the pad's step still runs and gives its value
    module = hlo.parse_module(TEXT)
    executable = Executable(module, RunOptions(fuse=fuse))
    watch = Watch(record=True)
    instrument(executable, watch)
    x = np.array([[1, 2], [3, 4]], np.int64)
    assert executable(x).tolist() == [[70102, 702], [70304, 704]]
    assert watch.values[("main", "pd")].tolist() == [[1, 2, 7], [3, 4, 7]]


def test_module_keeps_its_pad() -> None:
    module = hlo.parse_module(TEXT)
    hlo.run(module, np.array([[1, 2], [3, 4]], np.int64))
    assert [i.opcode for i in module.entry.instructions].count(Opcode.PAD) == 1
    assert "pad(s64[2,2]{1,0} %x, s64[] %z), padding=0_0x0_1" in module.to_text()
