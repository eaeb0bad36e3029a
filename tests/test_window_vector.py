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
        (np.float32, (2, 300), (D(1), D(120, 1, 0, 0, 1, 2)), True),  # window dilation: its own tails
        (np.float32, (5, 300), (D(2, 1, 0, 0, 1, 2), D(120)), False),  # ... but not on a major dimension
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


@pytest.mark.parametrize(
    ("dtype", "shape", "dims", "applies"),
    [
        (np.float32, (64, 64), (D(2, 2), D(2)), True),  # rows of 2 over a row of a power-of-two length
        (np.float32, (40, 4), (D(2, 3), D(2)), True),
        (np.float32, (64, 64), (D(2), D(2)), False),  # 2 rows with a major stride of 1: in order
        (np.float32, (2, 128), (D(2), D(2)), True),  # ... unless there is one row of outputs
        (np.float32, (40, 5), (D(2, 2), D(2)), False),  # rows of 5 elements: in order
        (np.float32, (40, 5), (D(4), D(5)), True),  # whole operand rows
        (np.float32, (40, 6), (D(8), D(6)), True),
        (np.float32, (40, 7), (D(8), D(7)), False),  # 224 bytes: not seen vectorized as lanes
        (np.float32, (40, 12), (D(2, 2), D(12)), False),  # rows longer than 8
        (np.float32, (40, 16), (D(2, 2), D(8)), False),
        (np.float32, (40, 16), (D(3, 2), D(2)), False),  # 3 rows: in order
        (np.float32, (40, 16), (D(16), D(2)), False),  # 16 rows: not modelled
        (np.float32, (40, 16), (D(2, 2), D(1)), False),  # rows of one position: in order
        (np.float64, (40, 16), (D(4), D(2)), True),
        (np.float64, (40, 4), (D(4), D(4)), True),
        (np.float64, (40, 8), (D(4), D(8)), False),  # 256 bytes
        (np.float64, (40, 16), (D(8), D(2)), True),  # f64 windows of 8 rows: 4 lanes of 2 rows
        (np.float64, (40, 16), (D(8, 2), D(2)), False),  # ... in order with a stride above 1
        (np.float64, (8, 8), (D(8), D(2, 2)), False),  # ... or one output along the rows
        (np.float64, (40, 4), (D(8, 3), D(4)), True),  # whole rows, up to 4 positions
        (np.float64, (3, 20, 8), (D(1), D(8), D(2)), False),  # in more dimensions: not modelled
        (np.float32, (40, 16), (D(2, 2, 1, 0), D(2)), False),  # padding: in order
        (np.float32, (40, 16), (D(2, 2), D(2, 1, 0, 0, 1, 2)), True),  # dilation: loads 16 and 2 apart
        (np.float32, (40, 16), (D(2, 2), D(2, 1, 0, 0, 1, 3)), False),  # 3 apart
        (np.float16, (40, 16), (D(2, 2), D(2)), False),
        (np.float32, (1, 16), (D(2, 2), D(2)), False),  # no outputs
    ],
)
def test_rows_apply_where_seen(dtype, shape, dims, applies):
    assert window_vector.rows_apply(np.zeros(shape, dtype), Window(dims)) is applies


@pytest.mark.parametrize(
    ("dtype", "shape", "dims", "applies"),
    [
        # NHWC pooling: the operand's strides along H and W (elements) are powers of two or not
        (np.float32, (2, 16, 16, 4), (D(1), D(2, 2), D(2, 2), D(1)), True),
        (np.float64, (2, 16, 16, 4), (D(1), D(2, 2), D(2, 2), D(1)), True),
        (np.float32, (2, 16, 16, 3), (D(1), D(2, 2), D(2, 2), D(1)), False),
        (np.float32, (2, 12, 12, 4), (D(1), D(2, 2), D(2, 2), D(1)), False),
        (np.float32, (2, 16, 16, 2), (D(1), D(4, 2), D(2, 2), D(1)), True),
        # NCHW: 2 rows of stride 1 need two other loops of several trips (here C and W)
        (np.float32, (1, 2, 4, 4), (D(1), D(1), D(2), D(2)), True),
        (np.float32, (1, 1, 4, 4), (D(1), D(1), D(2), D(2)), False),
        (np.float32, (3, 16, 5), (D(1), D(4, 2), D(5)), True),  # whole runs of 5 elements
        (np.float32, (2, 10, 5), (D(1), D(2), D(5)), True),  # ... 2 rows of stride 1, one loop around
        (np.float32, (40, 5), (D(2), D(5)), False),  # ... and none
        # more dimensions of several positions: the outer ones loop around the lanes
        (np.float32, (8, 8, 8), (D(2, 2), D(2, 2), D(2, 2)), True),
        (np.float32, (16, 8, 16), (D(2), D(2), D(2)), True),
        (np.float32, (8, 8, 8), (D(3, 2), D(3, 2), D(3, 2)), False),  # 3 rows: in order
        (np.float32, (9, 9, 9), (D(3, 2, 1, 1), D(2, 2, 1, 1), D(2, 2, 1, 1)), False),  # padding
        (np.float32, (6, 8, 8), (D(2), D(2, 1, 0, 0, 2), D(2)), False),  # base dilation
        (np.float32, (4, 8, 8), (D(2), D(2), D(1)), True),  # the wide dimensions need not be minor
        (np.float32, (3, 8, 8, 4), (D(2, 1, 1, 1), D(2, 2), D(2, 2), D(1)), True),  # padding outside
        (np.float32, (2, 16, 16, 4), (D(1), D(2, 2, 0, 0, 1, 2), D(2, 2, 0, 0, 1, 2), D(1)), True),
        (np.float32, (2, 9, 9, 4), (D(1), D(2, 1, 0, 0, 1, 2), D(2, 1, 0, 0, 1, 2), D(1)), False),
    ],
)
def test_rows_apply_in_more_dimensions(dtype, shape, dims, applies):
    assert window_vector.rows_apply(np.zeros(shape, dtype), Window(dims)) is applies


def test_rows_fold_lanes_then_halves():
    # rows 0-3 of one window as lanes: (1.5 + row 0) + (row 2), (row 1) + (row 3), then added
    x = np.array([[2.0**24, 1], [1, 1], [-(2.0**24), 1], [1, 1]], np.float32)
    got = window_vector.fold_rows(x, np.float32(1.5), Window((D(4), D(2))), None)
    lanes = [np.float32(1.5) + x[0, 0] + x[0, 1], x[1, 0] + x[1, 1], x[2, 0] + x[2, 1], x[3, 0] + x[3, 1]]
    want = (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
    in_order = fold_window_known(Opcode.ADD, np.add, x, np.float32(1.5), Window((D(4), D(2))), None)
    assert got.shape == (1, 1) and got[0, 0] == want and got[0, 0] != in_order[0, 0]


def test_rows_fold_with_outer_window_loops():
    # a 2x2x2 window: for each position of its outer dimension the sum so far enters lane 0
    x = np.array([[[2.0**24, 1], [1, 1]], [[-(2.0**24), 1], [3, 1]]], np.float32)
    window = Window((D(2), D(2), D(2)))
    kept = x.copy()
    got = window_vector.fold_rows(x, np.float32(1.5), window, None)
    assert np.array_equal(x, kept)  # its sums are its own: the operand is never summed into
    acc = np.float32(1.5)
    for plane in x:
        acc = (acc + plane[0, 0] + plane[0, 1]) + (plane[1, 0] + plane[1, 1])
    in_order = fold_window_known(Opcode.ADD, np.add, x, np.float32(1.5), window, None)
    assert got.shape == (1, 1, 1) and got[0, 0, 0] == acc and got[0, 0, 0] != in_order[0, 0, 0]


def test_rows_software_flushing():
    x = np.full((2, 2), 1e-39, np.float32)
    window = Window((D(2), D(2)))
    assert window_vector.fold_rows(x, np.float32(0), window, numerics.flush_denormals)[0, 0] == 0
    assert window_vector.fold_rows(x, np.float32(0), window, None)[0, 0] > 1e-39
