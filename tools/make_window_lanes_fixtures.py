"""Make tests/golden/ops/exact_window_lanes.npz: f32/f64 reduce-window sums over windows of 2 to 5
dimensions whose rows LLVM's loop vectorizer takes as lanes, or not (hlo.numerics.window_vector
rows_apply and fold_rows): NHWC and NCHW pooling windows (sizes of 1 in the batch and feature
dimensions), 3-D and 4-D windows with more than two dimensions of several positions (the outer
ones stay loops around the vector loop), whole runs of consecutive elements, 2-row windows of
stride 1, window dilation and padding outside the rows; and the windows XLA:CPU folds in order
(operand strides that are not powers of two, 3x3x3 windows, padding along the rows). Base
dilation is not modelled. Values are signed powers of two over many binades with short
mantissas, so each order of the additions gives its own bits. Read by the op tables like every
ops/ file; the maker records the ISA and whether XLA:CPU gives the same bits under AVX2 and
SSE4.2. Also tests/golden/ops/exact_window_dilated_rows.npz: sums whose minor window dimension
of 100+ positions is dilated, summed by the vector loop with its own rounds and tails
(hlo.numerics.window_vector.fold). Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_window_lanes_fixtures.py
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_exactness_fixtures import OUT, _isa, _powers, _row_sum, replay_under_isa
from make_op_fixtures import Case, write_family

# (shape, window) whose rows XLA:CPU sums as lanes (as seen on this machine, x86-64 AVX-512)
LANES = [
    ((2, 16, 16, 4), "size=1x2x2x1 stride=1x2x2x1"),  # NHWC 2x2 pooling, 4 features
    ((2, 8, 8, 8), "size=1x2x2x1"),  # 2 rows of stride 1: batch, columns and features loop around
    ((2, 16, 16, 2), "size=1x4x2x1 stride=1x2x2x1"),
    ((1, 16, 16, 2), "size=1x8x2x1 stride=1x2x1x1"),
    ((2, 3, 16, 16), "size=1x1x2x2 stride=1x1x2x2"),  # NCHW
    ((1, 2, 4, 4), "size=1x1x2x2"),
    ((3, 16, 5), "size=1x4x5 stride=1x2x1"),  # whole rows of 5 consecutive elements
    ((8, 8, 8), "size=2x2x2 stride=2x2x2"),  # the outer window dimension loops around the lanes
    ((16, 8, 16), "size=2x2x2"),
    ((6, 9, 8), "size=3x4x2 stride=2x1x2"),
    ((4, 8, 8, 4), "size=2x2x2x2 stride=2x2x2x2"),
    ((3, 5, 8, 4, 2), "size=2x2x1x2x2 stride=1x2x1x1x1"),
    ((2, 16, 16, 4), "size=1x2x2x1 stride=1x2x2x1 rhs_dilate=1x2x2x1"),  # loads 128 and 8 apart
    ((3, 8, 8, 4), "size=2x2x2x1 stride=1x2x2x1 pad=1_1x0_0x0_0x0_0"),  # padding outside the rows
    ((40, 16), "size=2x2 stride=2x1 rhs_dilate=1x2"),
]
# folded in order by XLA:CPU
IN_ORDER = [
    ((2, 16, 16, 3), "size=1x2x2x1 stride=1x2x2x1"),  # the strides 48 and 3 are not powers of two
    ((1, 1, 4, 4), "size=1x1x2x2"),  # 2 rows of stride 1 with one other output dimension
    ((2, 12, 12, 4), "size=1x2x2x1 stride=1x2x2x1"),
    ((8, 8, 8), "size=3x3x3 stride=2x2x2"),  # 3 rows
    ((9, 9, 9), "size=3x3x3 stride=2x2x2 pad=1_1x1_1x1_1"),
    ((2, 8, 8, 4), "size=1x2x2x1 stride=1x2x2x1 pad=0_0x1_0x0_1x0_0"),  # padding
    ((2, 9, 9, 4), "size=1x2x2x1 rhs_dilate=1x2x2x1"),  # window dilation: loads 72 and 8 apart
]
# not modelled (hlo folds them in order): base dilation, whose holes LLVM may also vectorize
NOT_MODELLED = [((6, 8, 8), "size=2x2x2 lhs_dilate=1x2x1")]


def _values(t: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Signed powers of two over 48 (f64: 120) binades times 1 to 1.875: a window's few sums
    round, and differently in each order."""
    x = _powers(t, shape, rng, 24 if t == "f32" else 60)
    return (x * (1 + rng.integers(0, 8, shape) / 8)).astype(x.dtype)


def family() -> Iterator[Case]:
    rng = np.random.default_rng(61)
    for t in ("f32", "f64"):
        for k, (shape, window) in enumerate([*LANES, *IN_ORDER]):
            if t == "f64" and "x8x" in window:
                continue  # f64 windows of 8 rows: not modelled
            init = ("0", "1.5", "-0")[k % 3]
            yield _row_sum(t, shape, window, init), [_values(t, shape, rng)], [t, t], True
        for shape, window in NOT_MODELLED:  # no cancellation: the order stays within tolerance
            yield _row_sum(t, shape, window, "1.5"), [np.abs(_values(t, shape, rng))], [t, t], False
        x = _values(t, (2, 8, 8, 4), rng)
        x[0, 0, 0, 0], x[0, 1, 1, 1], x[1, 2, 3, 0], x[1, 5, 4, 2], x[0, 6, :, :] = (
            np.inf,
            -np.inf,
            np.inf,
            np.nan,
            -0.0,
        )
        for init in ("0", "-0"):
            yield _row_sum(t, (2, 8, 8, 4), "size=1x2x2x1 stride=1x2x2x1", init), [x], [t, t], True
    for k, (shape, window) in enumerate(F64_EIGHT):
        exact = len(shape) == 2
        x = _values("f64", shape, rng)
        yield (
            _row_sum("f64", shape, window, ("1.5", "0")[k % 2]),
            [x if exact else np.abs(x)],
            ["f64", "f64"],
            exact,
        )


# f64 windows of 8 rows on 2-D operands: two rows a lane (4 lanes of 256 bits), or in order
F64_EIGHT = [
    ((40, 16), "size=8x2"),
    ((30, 3), "size=8x3 stride=2x1"),  # whole rows
    ((40, 4), "size=8x4 stride=3x1"),
    ((40, 16), "size=8x2 stride=2x1"),  # in order: a stride above 1
    ((8, 8), "size=8x2 stride=1x2"),  # in order: one output along the rows
    ((3, 20, 8), "size=1x8x2"),  # in order: more dimensions are not modelled (equal here)
]


def dilated_rows() -> Iterator[Case]:
    """Windows whose minor dimension has 100+ positions with window dilation: every count of
    elements the vector loop leaves over (1 to 32, f64: 1 to 16), strides, several operand rows,
    a 2-row window, init values, signed zeros, infinities, NaN."""
    rng = np.random.default_rng(62)
    for t, lanes in (("f32", 32), ("f64", 16)):
        for k, size in enumerate(range(100, 100 + lanes)):
            dil, stride = 2 + k % 2, (1, 3, 1, 7)[k % 4]
            n = (size - 1) * dil + 1 + (k * 5) % 17
            init = ("0", "1.5", "-0")[k % 3]
            window = f"size=1x{size} stride=1x{stride} rhs_dilate=1x{dil}"
            yield _row_sum(t, (2, n), window, init), [_values(t, (2, n), rng)], [t, t], True
        yield (
            _row_sum(t, (5, 400), "size=2x150 stride=2x3 rhs_dilate=1x2", "1.5"),
            [_values(t, (5, 400), rng)],
            [t, t],
            True,
        )
        x = _values(t, (2, 300), rng)
        x[0, 4], x[1, 50], x[1, 80], x[0, 200], x[1, 1:300:2] = np.inf, -np.inf, np.inf, np.nan, -0.0
        for init in ("0", "-0"):
            yield _row_sum(t, (2, 300), "size=1x137 rhs_dilate=1x2", init), [x], [t, t], True


def _write(path: Path, cases: Iterator[Case]) -> None:
    write_family(path, cases)
    same = [isa for isa in ("AVX2", "SSE4_2") if replay_under_isa(path, isa) == 0]
    print(f"  the same bits under --xla_cpu_max_isa: {same}")
    with np.load(path) as d:
        arrays = {k: d[k] for k in d.files}
    np.savez_compressed(path, isa=np.array(_isa()), same_under=np.array(" ".join(same)), **arrays)


def main() -> None:
    _write(OUT / "exact_window_lanes.npz", family())
    _write(OUT / "exact_window_dilated_rows.npz", dilated_rows())


if __name__ == "__main__":
    main()
