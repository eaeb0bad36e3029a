"""StableHLO collectives read and run on several devices, checked against the worked examples of
the StableHLO specification (docs/spec.md: all_to_all, all_gather, collective_permute)."""

# ruff: noqa: E501  (MLIR text)
from __future__ import annotations

import numpy as np

import hlo

ALL_TO_ALL = """func.func public @main(%arg0: tensor<2x4xi64>) -> tensor<4x2xi64> {
  %0 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
       split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xi64>) -> tensor<4x2xi64>
  return %0 : tensor<4x2xi64>
}
"""
ALL_GATHER = """func.func public @main(%arg0: tensor<2x2xi64>) -> tensor<2x4xi64> {
  %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
       channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>}> : (tensor<2x2xi64>) -> tensor<2x4xi64>
  return %0 : tensor<2x4xi64>
}
"""
PERMUTE = """func.func public @main(%arg0: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>,
       channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>}> : (tensor<2x2xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}
"""


def test_all_to_all_with_another_concat_dimension() -> None:
    m = hlo.parse_stablehlo(ALL_TO_ALL)
    x0 = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    x1 = np.array([[9, 10, 11, 12], [13, 14, 15, 16]])
    r0, r1 = hlo.run(m, [[x0], [x1]], num_replicas=2)
    np.testing.assert_array_equal(r0, [[1, 2], [5, 6], [9, 10], [13, 14]])
    np.testing.assert_array_equal(r1, [[3, 4], [7, 8], [11, 12], [15, 16]])
    assert [i.opcode.text for i in m.entry.instructions][1:] == [
        "all-to-all",
        "reshape",
        "transpose",
        "reshape",
    ]


def test_all_gather() -> None:
    m = hlo.parse_stablehlo(ALL_GATHER)
    x0, x1 = np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])
    r0, r1 = hlo.run(m, [[x0], [x1]], num_replicas=2)
    np.testing.assert_array_equal(r0, [[1, 2, 5, 6], [3, 4, 7, 8]])
    np.testing.assert_array_equal(r1, r0)


def test_collective_permute() -> None:
    m = hlo.parse_stablehlo(PERMUTE)
    xs = [np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]]), np.array([[9, 10], [11, 12]])]
    r0, r1, r2 = hlo.run(m, [[x] for x in xs], num_replicas=3)
    np.testing.assert_array_equal(r0, [[0, 0], [0, 0]])
    np.testing.assert_array_equal(r1, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(r2, [[5, 6], [7, 8]])
