"""Small float sums over several dimensions whose rows XLA:CPU's loop vectorizer takes as lanes
(hlo.numerics.reduce_lanes). XLA:CPU's values are in tests/golden/ops/exact_reduce_lanes.npz
(test_engine_ops); these pin the rule's decisions, measured on XLA:CPU's optimized LLVM IR and
results, and the fold's order."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.numerics import reduce_lanes
from hlo.numerics.reduce_lanes import Lanes

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)


@pytest.mark.parametrize(
    ("dtype", "shape", "dims", "taken"),
    [
        (F32, (8, 4, 4), (1, 2), Lanes(4, 4)),  # 4 rows: a vector of 4
        (F32, (1, 8, 8), (1, 2), Lanes(4, 8)),  # rows of 8: 4 lanes, two rounds
        (F32, (8, 8, 5), (1, 2), Lanes(8, 8)),
        (F32, (12, 5), (0, 1), None),  # 8 lanes would leave 4 of 12 rows: in order
        (F64, (12, 5), (0, 1), Lanes(4, 12)),
        (F32, (20, 4), (0, 1), Lanes(4, 20)),  # 8 lanes would leave 4 rows over
        (F32, (28, 2), (0, 1), Lanes(8, 24)),  # ... kept for whole runs of 2
        (F32, (28, 4), (0, 1), Lanes(4, 28)),
        (F32, (17, 6), (0, 1), Lanes(8, 16)),
        (F32, (16, 4, 2), (0, 2), Lanes(4, 12)),  # a group of 8 with gaps: the last round scalar
        (F32, (12, 31, 2, 2), (1, 2), Lanes(4, 28)),
        (F32, (4, 2, 32), (0, 1), Lanes(4, 4)),  # pairs a power of two apart, one vector
        (F64, (8, 2, 32), (0, 1), None),  # ... f64: two vectors, in order
        (F32, (4, 9), (0, 1), None),  # rows of 9: in order
        (F32, (3, 3, 3), (0, 1, 2), None),
        (F32, (8, 64), (0, 1), None),  # the tree rewrite first (tree_level)
        (F32, (16, 8), (1,), None),  # one reduced dimension
        (np.dtype(np.float16), (8, 4), (0, 1), None),
    ],
)
def test_lanes_where_xla_cpu_vectorizes_the_rows(dtype, shape, dims, taken):
    assert reduce_lanes.lanes(dtype, shape, dims) == taken


def _f32_sum(values: list[float]) -> np.float32:
    total = np.float32(values[0])
    for v in values[1:]:
        total = np.float32(total + np.float32(v))
    return total


def test_rows_are_lanes_halved_upper_onto_lower():
    """4 rows of 3 in 4 lanes: each row summed in order (the first from the init value), then
    (l0 + l2) + (l1 + l3). Here 2^24 + 1 rounds back to 2^24: the lanes give 0, row-major order 1."""
    big = 2.0**24
    x = np.array([[big, 1, 1], [-big, 0, 0], [1, 0, 0], [0, 0, 0]], np.float32)
    init = np.float32(0.0)
    rows = [_f32_sum([init, *x[0]]), *(_f32_sum([-0.0, *x[r]]) for r in range(1, 4))]
    want = np.float32(np.float32(rows[0] + rows[2]) + np.float32(rows[1] + rows[3]))
    got = reduce_lanes.fold(np.add, x.reshape(1, 4, 3), np.asarray(init), (1, 2), Lanes(4, 4))
    assert got.tolist() == [want] == [0.0]
    assert _f32_sum([init, *x.ravel()]) == 1.0  # in row-major order


def test_the_compiled_tier_leaves_lane_sums_to_the_interpreter():
    """jit="eager" folds a reduce in row-major order only where XLA:CPU does."""
    text = """HloModule m
add { a = f32[] parameter(0) b = f32[] parameter(1) ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[8,4,4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[8] reduce(x, z), dimensions={1,2}, to_apply=add
}"""
    rng = np.random.default_rng(5)
    x = (rng.choice([-1.0, 1.0], (8, 4, 4)) * np.exp2(rng.integers(-20, 21, (8, 4, 4)))).astype(np.float32)
    module = hlo.parse_module(text)
    interpreted = np.asarray(hlo.run(module, x, jit="off"))
    compiled = np.asarray(hlo.run(module, x, jit="eager"))
    lanes = reduce_lanes.fold(np.add, x, np.zeros((), np.float32), (1, 2), Lanes(4, 4))
    assert interpreted.tobytes() == compiled.tobytes() == lanes.tobytes()
