"""The speed benchmark's own logic (benchmarks/bench_common.py, bench_worker.py, bench_xla.py):
it refuses to report a ratio when hlo and XLA:CPU disagree, and its memory yardstick (the
plan's largest live set) is what the schedule implies. jax is not needed: these parts run on
hand-made values."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import hlo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_common import disagreement, load_arrays, save_arrays
from bench_worker import live_set_bytes
from bench_xla import report


def test_agreeing_results_pass():
    a = np.array([1.0, 2.0, np.nan, np.inf], np.float32)
    assert disagreement([a, np.arange(3)], [a.copy(), np.arange(3)]) is None
    assert disagreement([a * (1 + 1e-5)], [a]) is None  # within f32 tolerance


@pytest.mark.parametrize(
    ("ours", "theirs", "why"),
    [
        ([np.zeros(3)], [np.zeros(3), np.zeros(3)], "1 results against 2"),
        ([np.zeros(3, np.float32)], [np.zeros(4, np.float32)], r"float32\[3\] against float32\[4\]"),
        ([np.zeros(3, np.float32)], [np.zeros(3, np.float64)], "float32.* against float64"),
        ([np.array([1, 2, 3])], [np.array([1, 2, 4])], "1 of 3 integers differ"),
        ([np.array([1.0, np.nan], np.float32)], [np.array([1.0, 2.0], np.float32)], "NaN"),
        ([np.array([np.inf], np.float32)], [np.array([-np.inf], np.float32)], "infinities"),
        ([np.array([1.0, 2.0], np.float32)], [np.array([1.0, 2.01], np.float32)], "max difference"),
    ],
)
def test_disagreeing_results_are_named(ours, theirs, why):
    assert disagreement(ours, theirs) is not None
    assert re.search(why, disagreement(ours, theirs))


def test_narrow_floats_have_a_wider_tolerance():
    a = np.array([1.0, 2.0], ml_dtypes.bfloat16)
    b = np.array([1.0, 2.015625], ml_dtypes.bfloat16)  # one bf16 ulp at 2
    assert disagreement([a], [b]) is None
    assert disagreement([a.astype(np.float32)], [b.astype(np.float32)]) is not None


def test_arrays_round_trip_through_disk_with_their_types(tmp_path):
    arrays = [
        np.arange(6, dtype=np.float32).reshape(2, 3),
        np.array([1.5, -2.0], ml_dtypes.bfloat16),
        np.array(3, np.int32),
        np.array([True, False]),
    ]
    save_arrays(tmp_path / "x", arrays)
    back = load_arrays(tmp_path / "x")
    assert [(b.dtype, b.shape) for b in back] == [(a.dtype, a.shape) for a in arrays]
    assert all(np.array_equal(a, b) for a, b in zip(arrays, back))


LIVE = """
HloModule live

body {
  p = f32[100] parameter(0)
  q = f32[100] add(p, p)
  ROOT r = f32[100] multiply(q, q)
}

ENTRY main {
  x = f32[1000] parameter(0)
  a = f32[1000] negate(x)
  b = f32[1000] abs(a)
  c = f32[1000] add(a, b)
  t = f32[10] slice(c), slice={[0:10]}
  s = f32[100] parameter(1)
  k = f32[100] call(s), to_apply=body
  ROOT out = (f32[10], f32[100]) tuple(t, k)
}
"""


def test_live_set_follows_the_schedule():
    # a, b live together with c (12 KB); then c frees a and b... : the peak is a + b + c;
    # the call adds its body's peak (q and r: 800 bytes) on top of t (40) and its own result.
    module = hlo.parse_module(LIVE)
    assert live_set_bytes(module) == 3 * 4000


def test_report_refuses_a_ratio_when_results_disagree():
    run = {"times": [1.0], "first": 2.0, "parse": 0.1, "plan": 0.1, "first_run": 1.0}
    run.update(base_rss=0, peak_rss=0, first_peak_rss=0, live_set=0)
    result = {
        "name": "w",
        "runs": {"hlo": [run], "hlo_opt": [run], "xla": [dict(run, times=[0.5])]},
        "hlo_check": "result 0: max difference 1 against magnitude 1",
        "hlo_opt_check": "ok",
    }
    table = report([result], {"w": "a workload"})
    row = table.splitlines()[2]
    assert "disagree" in row and "2x" in row  # the optimized text agrees: its ratio is shown
    assert "w (hlo): result 0: max difference" in table
