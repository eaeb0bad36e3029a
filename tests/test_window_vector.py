"""Where reduce-window sums take XLA:CPU's vector-loop order (hlo.numerics.window_vector); the
values are pinned by tests/golden/ops/exact_window_sums.npz (test_engine_ops.py)."""

from __future__ import annotations

import numpy as np
import pytest

from hlo.ir.attrs import Window, WindowDimension
from hlo.ir.opcode import Opcode
from hlo.numerics import numerics, window_vector
from hlo.numerics.window_fold import fold_window_known

D = WindowDimension


@pytest.mark.parametrize(
    ("dtype", "shape", "dims", "applies"),
    [
        (np.float32, (2, 140), (D(1), D(100)), True),
        (np.float64, (2, 140), (D(1), D(100)), True),
        (np.float32, (2, 140), (D(1), D(99)), False),  # unrolled: folded in order
        (np.float32, (20, 20), (D(10), D(10)), False),
        (np.float32, (5, 230), (D(3), D(200)), True),
        (np.float32, (3, 300), (D(2, 1, 1, 0), D(120)), True),  # padding skips whole rows
        (np.float32, (2, 300), (D(1), D(120, 7)), True),
        (np.float32, (220, 3), (D(200), D(1)), False),  # a major dimension vectorized: not modelled
        (np.float32, (110, 105), (D(100), D(100)), False),
        (np.float32, (2, 200), (D(1), D(150, 1, 20, 20)), False),  # padded minor: not modelled
        (np.float32, (2, 300), (D(1), D(120, 1, 0, 0, 1, 2)), False),  # window dilation: not modelled
        (np.float32, (2, 100), (D(1), D(150, 1, 0, 0, 2)), False),  # base dilation: in order
        (np.float16, (2, 140), (D(1), D(100)), False),  # rounds at every step
        (np.int32, (2, 140), (D(1), D(100)), False),
        (np.float32, (0, 140), (D(1), D(100)), False),
    ],
)
def test_applies_where_modelled(dtype, shape, dims, applies):
    assert window_vector.applies(np.zeros(shape, dtype), Window(dims)) is applies


def test_software_flushing_flushes_elements_and_partial_sums():
    # the CPU's mode off: flushed as every step of the vector loop would flush
    x = np.full((1, 130), 1e-39, np.float32)  # 128 of them unflushed add up to a normal number
    window = Window((D(1), D(128)))
    got = window_vector.fold(x, np.float32(0), window, numerics.flush_denormals)
    want = fold_window_known(Opcode.ADD, np.add, x, np.float32(0), window, numerics.flush_denormals)
    assert np.array_equal(got, want) and np.all(got == 0)
    assert np.all(window_vector.fold(x, np.float32(0), window, None) > 1e-37)
