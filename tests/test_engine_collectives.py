"""Collectives on several devices in one process: page 003's examples, the group modes XLA
derives from channel_id and use_global_device_ids, async forms, and the errors (a device that
never reaches a collective, devices waiting at different ones) that end a run instead of
hanging it."""

# ruff: noqa: E501  (HLO text lines)
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo import ops

ADD = "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n"


def module(body: str, header: str = "", extra: str = ADD) -> hlo.Module:
    return hlo.parse_module(f"HloModule m{header}\n{extra}ENTRY e {{\n{body}\n}}\n", "m.hlo")


def per_device(*values: list) -> list:
    return [[np.array(v, np.float32)] for v in values]


# -- page 003's examples ----------------------------------------------------------------------
def test_all_reduce_page_003():
    m = module("  x = f32[2] parameter(0)\n  ROOT s = f32[2] all-reduce(x), replica_groups={}, to_apply=add")
    out = hlo.run(m, per_device([1.0, 2.5], [3.0, 5.25]), num_replicas=2)
    assert [o.tolist() for o in out] == [[4.0, 7.75], [4.0, 7.75]]


def test_all_gather_page_003():
    m = module(
        "  x = f32[2] parameter(0)\n  ROOT s = f32[4] all-gather(x), replica_groups={}, dimensions={0}"
    )
    out = hlo.run(m, per_device([1.0, 2.5], [3.0, 5.25]), num_replicas=2)
    assert [o.tolist() for o in out] == [[1.0, 2.5, 3.0, 5.25]] * 2


def test_reduce_scatter_page_003():
    m = module(
        "  x = f32[2] parameter(0)\n"
        "  ROOT s = f32[1] reduce-scatter(x), replica_groups={}, dimensions={0}, to_apply=add"
    )
    out = hlo.run(m, per_device([1.0, 2.25], [3.0, 5.25]), num_replicas=2)
    assert [o.tolist() for o in out] == [[4.0], [7.5]]


def test_all_to_all_page_003():
    b = hlo.XlaBuilder("a2a")
    ops.AllToAll(ops.Parameter(b, 0, "f32[4,16]", "x"), 1, 0, 4)
    computation = b.build()
    inputs = [[np.full((4, 16), 100.0 * d, np.float32) + np.arange(16, dtype=np.float32)] for d in range(4)]
    out = hlo.run(computation, inputs, num_replicas=4)
    for j in range(4):
        assert out[j].shape == (16, 4)
        # device j holds the j-th block of columns of every device, device i's rows at 4i..4i+3
        expected = np.concatenate([inputs[i][0][:, 4 * j : 4 * j + 4] for i in range(4)], axis=0)
        assert np.array_equal(out[j], expected)


# -- groups and modes -------------------------------------------------------------------------
def test_groups_order_the_pieces():
    m = module(
        "  x = f32[1] parameter(0)\n  ROOT s = f32[2] all-gather(x), replica_groups={{3,0},{1,2}}, dimensions={0}"
    )
    out = hlo.run(m, per_device([0], [1], [2], [3]), num_replicas=4)
    assert [o.tolist() for o in out] == [[3, 0], [1, 2], [1, 2], [3, 0]]


def test_replica_and_partition_ids():
    m = module(
        "  r = u32[] replica-id()\n  p = u32[] partition-id()\n  ROOT t = (u32[], u32[]) tuple(r, p)",
        extra="",
    )
    out = hlo.run(m, num_replicas=2, num_partitions=3)
    assert [(int(r), int(p)) for r, p in out] == [(d // 3, d % 3) for d in range(6)]


def test_cross_replica_groups_stay_within_a_partition():
    m = module("  x = f32[1] parameter(0)\n  ROOT s = f32[1] all-reduce(x), replica_groups={}, to_apply=add")
    out = hlo.run(m, per_device(*[[10.0**d] for d in range(4)]), num_replicas=2, num_partitions=2)
    # devices 0 and 2 are partition 0 of replicas 0 and 1; 1 and 3 partition 1
    assert [float(o[0]) for o in out] == [101.0, 1010.0, 101.0, 1010.0]


def test_channel_id_spans_all_partitions_of_the_listed_replicas():
    m = module(
        "  x = f32[1] parameter(0)\n  ROOT s = f32[1] all-reduce(x), channel_id=1, replica_groups={}, to_apply=add"
    )
    out = hlo.run(m, per_device(*[[10.0**d] for d in range(4)]), num_replicas=2, num_partitions=2)
    assert [float(o[0]) for o in out] == [1111.0] * 4


def test_flattened_ids():
    m = module(
        "  x = f32[1] parameter(0)\n  ROOT s = f32[1] all-reduce(x), channel_id=1, replica_groups={{0,3},{1,2}}, "
        "use_global_device_ids=true, to_apply=add"
    )
    out = hlo.run(m, per_device(*[[10.0**d] for d in range(4)]), num_replicas=2, num_partitions=2)
    assert [float(o[0]) for o in out] == [1001.0, 110.0, 110.0, 1001.0]


def test_collective_permute_and_its_async_form():
    m = module(
        "  x = f32[1] parameter(0)\n  ROOT s = f32[1] collective-permute(x), source_target_pairs={{0,1},{1,2}}",
        extra="",
    )
    out = hlo.run(m, per_device([5], [6], [7]), num_replicas=3)
    assert [float(o[0]) for o in out] == [0.0, 5.0, 6.0]  # device 0 is no one's target: zeros
    m = module(
        "  x = f32[1] parameter(0)\n"
        "  s = (f32[1], f32[1], u32[], u32[]) collective-permute-start(x), source_target_pairs={{0,1},{1,0}}\n"
        "  ROOT d = f32[1] collective-permute-done(s)",
        extra="",
    )
    out = hlo.run(m, per_device([5], [6]), num_replicas=2)
    assert [float(o[0]) for o in out] == [6.0, 5.0]


def test_max_skips_nan_and_bf16_sums_round_once():
    maximum = "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n"
    m = module(
        "  x = f32[2] parameter(0)\n  ROOT s = f32[2] all-reduce(x), replica_groups={}, to_apply=mx",
        extra=maximum,
    )
    out = hlo.run(m, per_device([np.nan, np.nan], [1.0, np.nan]), num_replicas=2)
    assert out[0].tolist() == [1.0, -np.inf]
    add16 = "a16 {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n  ROOT r = bf16[] add(a, b)\n}\n"
    m = module(
        "  x = bf16[1] parameter(0)\n  ROOT s = bf16[1] all-reduce(x), replica_groups={}, to_apply=a16",
        extra=add16,
    )
    import ml_dtypes

    values = [[np.array([v], ml_dtypes.bfloat16)] for v in (256.0, 1.0, 1.0)]
    out = hlo.run(m, values, num_replicas=3)
    assert float(out[0][0]) == 258.0  # in f32: 256 + 1 + 1; stepwise bf16 would give 256


def test_same_arguments_for_every_device():
    m = module("  x = f32[1] parameter(0)\n  ROOT s = f32[1] all-reduce(x), replica_groups={}, to_apply=add")
    out = hlo.run(m, np.array([2.0], np.float32), num_replicas=3)
    assert [float(o[0]) for o in out] == [6.0] * 3


# -- errors, not hangs ------------------------------------------------------------------------
LOOPING = """  x = f32[1] parameter(0)
  n = s32[] parameter(1)
  init = (s32[], f32[1]) tuple(n, x)
  ROOT w = (s32[], f32[1]) while(init), condition=cond, body=body"""
LOOP_FNS = (
    ADD
    + """cond {
  s = (s32[], f32[1]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  z = s32[] constant(0)
  ROOT c = pred[] compare(i, z), direction=GT
}
body {
  s = (s32[], f32[1]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[1] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] subtract(i, one)
  r = f32[1] all-reduce(v), replica_groups={}, to_apply=add
  ROOT t = (s32[], f32[1]) tuple(j, r)
}
"""
)


def test_a_device_running_a_collective_more_times_is_an_error_not_a_hang():
    m = module(LOOPING, extra=LOOP_FNS)
    args = [[np.array([1.0], np.float32), np.int32(2)], [np.array([1.0], np.float32), np.int32(3)]]
    with pytest.raises(
        hlo.CollectiveError,
        match=r"%r\.1: device 0 ended without reaching this collective, which devices 1 wait at",
    ):
        hlo.run(m, args, num_replicas=2)
    _, values = zip(*hlo.run(m, [args[0], args[0]], num_replicas=2))
    assert [float(v[0]) for v in values] == [4.0, 4.0]


def test_groups_naming_missing_devices_fail_before_any_device_starts():
    m = module(
        "  x = f32[1] parameter(0)\n  ROOT s = f32[1] all-reduce(x), replica_groups={{0,1,2}}, to_apply=add"
    )
    with pytest.raises(
        hlo.CollectiveError, match=r"m\.hlo:9:8: error: %s: names replica 2, but this run has 2 replicas"
    ):
        hlo.run(m, np.zeros(1, np.float32), num_replicas=2)


# -- against XLA:CPU --------------------------------------------------------------------------
FIXTURES = np.load(Path(__file__).parent / "golden" / "collectives.npz")
FIXTURE_CASES = sorted({int(k.split("_")[0][4:]) for k in FIXTURES.files})


def _decode(stored: np.ndarray, dtype: str) -> np.ndarray:
    import ml_dtypes

    return stored.view(ml_dtypes.bfloat16) if dtype == "bf16" else stored


@pytest.mark.parametrize("k", FIXTURE_CASES)
def test_matches_xla_cpu(k):
    """Per-device results bit for bit (XLA:CPU folds devices in group order, as hlo does)."""
    text = str(FIXTURES[f"case{k}_hlo"])
    dtype = str(FIXTURES[f"case{k}_dtype"])
    replicas, partitions = int(FIXTURES[f"case{k}_replicas"]), int(FIXTURES[f"case{k}_partitions"])
    count = replicas * partitions
    args = [[_decode(FIXTURES[f"case{k}_in{d}"], dtype)] for d in range(count)]
    got = hlo.run(hlo.parse_module(text), args, num_replicas=replicas, num_partitions=partitions)
    for d in range(count):
        want = _decode(FIXTURES[f"case{k}_out{d}"], dtype)
        assert got[d].dtype == want.dtype and got[d].shape == want.shape
        same = (got[d] == want) | (np.isnan(got[d].astype(np.float64)) & np.isnan(want.astype(np.float64)))
        assert same.all(), f"device {d}: {text.splitlines()[-2].strip()}\n got {got[d]}\nwant {want}"


def test_device_counts_disagreeing_with_the_header_are_an_error():
    m = module(
        "  x = f32[1] parameter(0)\n  ROOT s = f32[1] all-reduce(x), replica_groups={}, to_apply=add",
        ", replica_count=4",
    )
    with pytest.raises(hlo.HloError, match=r"num_replicas=2, but the module's header says replica_count=4"):
        hlo.run(m, np.zeros(1, np.float32), num_replicas=2)
    assert len(hlo.run(m, np.ones(1, np.float32))) == 4  # the header's count by default


def test_ragged_all_to_all():
    m = module(
        "  x = f32[4] parameter(0)\n  o = f32[4] parameter(1)\n  io = s64[2] parameter(2)\n"
        "  ss = s64[2] parameter(3)\n  oo = s64[2] parameter(4)\n  rs = s64[2] parameter(5)\n"
        "  ROOT r = f32[4] ragged-all-to-all(x, o, io, ss, oo, rs), replica_groups={{0,1}}",
        extra="",
    )
    s64 = np.int64
    # device 0 sends rows 0..1 to itself (at 0) and row 1..3 to device 1 (at 1); device 1 sends
    # row 3 to device 0 (at 2) and nothing to itself
    dev0 = [np.array([1, 2, 3, 4], np.float32), np.full(4, -1, np.float32), np.array([0, 1], s64),
            np.array([1, 2], s64), np.array([0, 1], s64), np.array([1, 1], s64)]  # fmt: skip
    dev1 = [np.array([5, 6, 7, 8], np.float32), np.full(4, -2, np.float32), np.array([3, 0], s64),
            np.array([1, 0], s64), np.array([2, 0], s64), np.array([2, 0], s64)]  # fmt: skip
    out = hlo.run(m, [dev0, dev1], num_replicas=2)
    assert out[0].tolist() == [1, -1, 8, -1]
    assert out[1].tolist() == [-2, 2, 3, -2]


def test_ragged_all_to_all_with_several_updates_per_member():
    """Offsets and sizes of shape [members, k]: update (j, u) of a device goes to member j (XLA's
    ragged-all-to-all with num_updates_per_replica = k); worked out by hand."""
    m = module(
        "  x = f32[6] parameter(0)\n  o = f32[8] parameter(1)\n  io = s32[2,2] parameter(2)\n"
        "  ss = s32[2,2] parameter(3)\n  oo = s32[2,2] parameter(4)\n  rs = s32[2,2] parameter(5)\n"
        "  ROOT r = f32[8] ragged-all-to-all(x, o, io, ss, oo, rs), replica_groups={{0,1}}",
        extra="",
    )

    def meta(*rows: list[int]) -> np.ndarray:
        return np.array(rows, np.int32)

    out = np.full(8, -1, np.float32)
    dev0 = [np.arange(6, dtype=np.float32), out, meta([0, 1], [2, 4]), meta([1, 1], [2, 1]),
            meta([0, 3], [4, 6]), meta([1, 1], [1, 1])]  # fmt: skip
    dev1 = [np.arange(10, 16, dtype=np.float32), out, meta([0, 2], [3, 5]), meta([2, 1], [1, 1]),
            meta([1, 5], [2, 7]), meta([1, 1], [1, 1])]  # fmt: skip
    got = hlo.run(m, [dev0, dev1], num_replicas=2)
    assert got[0].tolist() == [0, 10, 11, 1, -1, 12, -1, -1]
    assert got[1].tolist() == [-1, -1, 13, -1, 2, 3, 4, 15]
    bad = [dev0[:2] + [meta([0, 1, 2])] * 4, dev1[:2] + [meta([0, 1, 2])] * 4]
    m3 = module(
        "  x = f32[6] parameter(0)\n  o = f32[8] parameter(1)\n  io = s32[1,3] parameter(2)\n"
        "  ss = s32[1,3] parameter(3)\n  oo = s32[1,3] parameter(4)\n  rs = s32[1,3] parameter(5)\n"
        "  ROOT r = f32[8] ragged-all-to-all(x, o, io, ss, oo, rs), replica_groups={{0,1}}",
        extra="",
    )
    with pytest.raises(hlo.HloError, match="must hold k updates for each of the 2 members"):
        hlo.run(m3, bad, num_replicas=2)


def test_all_reduce_of_scalars_keeps_them_scalars():
    """Folded in group order, in place: ((0.1 + 0.2) + 0.3) + 0.4 in f32, a 0-d result."""
    m = module("  x = f32[] parameter(0)\n  ROOT s = f32[] all-reduce(x), replica_groups={}, to_apply=add")
    out = hlo.run(m, per_device(0.1, 0.2, 0.3, 0.4), num_replicas=4)
    want = ((np.float32(0.1) + np.float32(0.2)) + np.float32(0.3)) + np.float32(0.4)
    assert all(o.shape == () and o.dtype == np.float32 and o == want for o in out)
