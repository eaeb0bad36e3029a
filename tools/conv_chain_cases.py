"""Cases of make_exactness_fixtures' `conv_chains` family: float convolutions in XLA:CPU's order
(hlo.numerics.conv_chains): f32 on Eigen's contraction with oneDNN's sgemm (its plans: one
thread, tiles on two, sharded by k; blocks over 384 halved), Eigen's GEMV for one output
position, XLA's elemental loop (f64, window reversal, 4 spatial dimensions, tiny arrays);
NHWC and other dimension numbers (XLA transposes them), strides, padding, window dilation. Dev only."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

Case = tuple[str, list[np.ndarray], list[str], bool]


def _text(t: str, lhs: list[int], rhs: list[int], out: list[int], labels: str, window: str) -> str:
    a, b, c = (f"{t}[{','.join(map(str, s))}]" for s in (lhs, rhs, out))
    return (
        f"HloModule m\n\nENTRY main {{\n  x = {a} parameter(0)\n  k = {b} parameter(1)\n"
        f"  ROOT c = {c} convolution(x, k), window={{{window}}}, dim_labels={labels}\n}}\n"
    )


_CASES = [  # (type, lhs, rhs, out, dim_labels, window)
    # one thread (small outputs), tiles on two threads, k blocks, sharded by k
    ("f32", [2, 8, 8, 3], [3, 3, 3, 8], [2, 6, 6, 8], "b01f_01io->b01f", "size=3x3"),
    ("f32", [1, 10, 10, 16], [3, 3, 16, 16], [1, 8, 8, 16], "b01f_01io->b01f", "size=3x3"),
    ("f32", [1, 12, 12, 16], [5, 5, 16, 16], [1, 8, 8, 16], "b01f_01io->b01f", "size=5x5"),
    ("f32", [8, 35, 26, 11], [8, 7, 11, 13], [8, 28, 24, 13], "b01f_01io->b01f", "size=8x7 pad=0_0x2_2"),
    ("f32", [4, 33, 17, 14], [8, 6, 14, 5], [4, 26, 16, 5], "b01f_01io->b01f", "size=8x6 pad=0_0x2_2"),
    ("f32", [4, 21, 30, 16], [2, 7, 16, 2], [4, 10, 28, 2], "b01f_01io->b01f", "size=2x7 stride=2x1 pad=0_0x2_2"),
    ("f32", [2, 29, 12, 5], [4, 6, 5, 4], [2, 13, 9, 4], "b01f_01io->b01f", "size=4x6 stride=2x1 pad=0_0x1_1"),
    ("f32", [1, 7, 20, 16], [6, 7, 16, 2], [1, 3, 16, 2], "b01f_01io->b01f", "size=6x7 stride=2x1 pad=2_2x1_1"),
    ("f32", [6, 18, 5, 8], [7, 5, 8, 7], [6, 7, 3, 7], "b01f_01io->b01f", "size=7x5 stride=2x1 pad=1_1x1_1"),
    ("f32", [1, 1, 131, 6], [1, 23, 6, 12], [1, 1, 109, 12], "b01f_01io->b01f", "size=1x23"),
    ("f32", [1, 1, 69, 16], [1, 20, 16, 12], [1, 1, 50, 12], "b01f_01io->b01f", "size=1x20"),
    # oneDNN halves a block of 385-400
    ("f32", [1, 6, 6, 16], [5, 5, 16, 4], [1, 2, 2, 4], "b01f_01io->b01f", "size=5x5"),
    ("f32", [3, 1, 131, 3], [1, 129, 3, 4], [3, 1, 3, 4], "b01f_01io->b01f", "size=1x129"),
    ("f32", [1, 1, 104, 4], [1, 99, 4, 4], [1, 1, 6, 4], "b01f_01io->b01f", "size=1x99"),
    # one output position: Eigen's GEMV (k whole below 128, blocks of 16 above)
    ("f32", [1, 3, 3, 5], [3, 3, 5, 13], [1, 1, 1, 13], "b01f_01io->b01f", "size=3x3"),
    ("f32", [1, 7, 7, 16], [7, 7, 16, 16], [1, 1, 1, 16], "b01f_01io->b01f", "size=7x7"),
    # other dimension numbers, 1-D and 3-D, dilations
    ("f32", [4, 3, 16, 16], [8, 3, 3, 3], [4, 8, 14, 14], "bf01_oi01->bf01", "size=3x3"),
    ("f32", [4, 16, 16, 3], [3, 3, 3, 8], [4, 8, 8, 8], "b01f_01io->b01f", "size=3x3 stride=2x2 pad=1_1x1_1"),
    ("f32", [2, 12, 12, 4], [3, 3, 4, 6], [2, 8, 8, 6], "b01f_01io->b01f", "size=3x3 rhs_dilate=2x2"),
    ("f32", [3, 40, 7], [5, 7, 9], [3, 36, 9], "b0f_0io->b0f", "size=5"),
    ("f32", [2, 6, 6, 6, 3], [3, 3, 3, 3, 5], [2, 4, 4, 4, 5], "b012f_012io->b012f", "size=3x3x3"),
    ("f32", [8, 6, 6, 16], [8, 3, 3, 4], [4, 4, 16, 4], "f01b_i01o->01bf", "size=3x3 rhs_dilate=1x1"),
    # XLA's elemental loop: f64, window reversal, 4 spatial dimensions, tiny arrays
    ("f64", [2, 8, 8, 3], [3, 3, 3, 8], [2, 8, 8, 8], "b01f_01io->b01f", "size=3x3 pad=1_1x1_1"),
    ("f64", [2, 9, 7, 16], [3, 2, 16, 12], [2, 4, 8, 12], "b01f_01io->b01f", "size=3x2 stride=2x1 pad=0_1x1_1"),
    ("f32", [2, 8, 8, 3], [3, 3, 3, 8], [2, 6, 6, 8], "b01f_01io->b01f", "size=3x3 rhs_reversal=1x1"),
    ("f32", [1, 4, 4, 4, 4, 3], [2, 2, 2, 2, 3, 4], [1, 3, 3, 3, 3, 4], "b0123f_0123io->b0123f", "size=2x2x2x2"),
    ("f32", [1, 3, 3, 1], [3, 3, 1, 2], [1, 1, 1, 2], "b01f_01io->b01f", "size=3x3"),
]  # fmt: skip


def family_conv_chains() -> Iterator[Case]:
    rng = np.random.default_rng(311)
    for t, lhs, rhs, out, labels, window in _CASES:
        dtype = np.float32 if t == "f32" else np.float64
        for _ in range(2):
            args = [rng.standard_normal(lhs).astype(dtype), rng.standard_normal(rhs).astype(dtype)]
            yield _text(t, lhs, rhs, out, labels, window), args, [t] * 3, True
