"""The engine's less common ops: scan, dynamic dimension sizes, stochastic conversion, infeed,
outfeed and send/recv on one device, native linear algebra and batch normalization against
their definitions, top-k ties, and that every op runs."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.ir.opcode import Opcode
from hlo.ops.registry import spec


def test_every_opcode_has_a_kernel():
    missing = {op.text for op in Opcode if op is not Opcode.PARAMETER and spec(op).kernel is None}
    assert missing == set()


def test_an_unsupported_op_is_a_clear_error(monkeypatch):
    """An opcode without a kernel (none today) is an error naming the instruction."""
    monkeypatch.setattr(spec(Opcode.RAGGED_DOT), "kernel", None)
    module = hlo.parse_module(
        "HloModule m\nENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[1,3,4] parameter(1)\n"
        "  g = s64[1] parameter(2)\n  ROOT r = f32[2,4] ragged-dot(a, b, g), lhs_contracting_dims={1}, "
        "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}\n}\n",
        "r.hlo",
    )
    with pytest.raises(
        hlo.HloError, match=r"r\.hlo:\d+:\d+: error: %r: ragged-dot is not supported by the engine yet"
    ):
        hlo.run(module, np.zeros((2, 3), np.float32), np.zeros((1, 3, 4), np.float32), np.zeros(1, np.int64))


SCAN = """HloModule m
step {
  x = f32[3] parameter(0)
  c = f32[3] parameter(1)
  s = f32[3] add(c, x)
  ROOT r = (f32[3], f32[3]) tuple(s, s)
}
ENTRY e {
  xs = f32[4,3] parameter(0)
  init = f32[3] parameter(1)
  ROOT r = (f32[4,3], f32[3]) scan(xs, init), dimensions={0}, num_carries=1, to_apply=step%s
}
"""


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_is_a_cumulative_sum(reverse):
    xs = np.arange(12, dtype=np.float32).reshape(4, 3)
    module = hlo.parse_module(SCAN % (", is_reverse=true" if reverse else ""))
    outputs, carry = hlo.run(module, xs, np.zeros(3, np.float32))
    expected = np.cumsum(xs[::-1], axis=0)[::-1] if reverse else np.cumsum(xs, axis=0)
    assert outputs.tolist() == expected.tolist()
    assert carry.tolist() == xs.sum(axis=0).tolist()


def test_dimension_sizes():
    text = """HloModule m
ENTRY e {
  a = f32[5] parameter(0)
  n = s32[] constant(3)
  d = f32[<=5] set-dimension-size(a, n), dimensions={0}
  ROOT s = s32[] get-dimension-size(d), dimensions={0}
}
"""
    assert int(hlo.run(hlo.parse_module(text), np.arange(5, dtype=np.float32))) == 3


def test_stochastic_convert_rounds_by_the_random_bits():
    text = """HloModule m
ENTRY e {
  x = f32[6] parameter(0)
  r = u32[6] parameter(1)
  ROOT c = s32[6] stochastic-convert(x, r)
}
"""
    x = np.array([1.25, 1.25, -1.25, -1.25, np.inf, np.nan], np.float32)
    r = np.array([0, 2**31, 0, 2**31, 0, 0], np.uint32)  # 1/4 of the range: up below 2^30
    got = hlo.run(hlo.parse_module(text), x, r)
    assert got.tolist() == [2, 1, -2, -1, 2**31 - 1, 0]


FEEDS = """HloModule m
ENTRY e {
  t0 = token[] after-all()
  in = (f32[2], token[]) infeed(t0)
  v = f32[2] get-tuple-element(in), index=0
  t1 = token[] get-tuple-element(in), index=1
  d = f32[2] add(v, v)
  s = (f32[2], u32[], token[]) send(d, t1), channel_id=1
  sd = token[] send-done(s), channel_id=1
  r = (f32[2], u32[], token[]) recv(sd), channel_id=1
  rd = (f32[2], token[]) recv-done(r), channel_id=1
  got = f32[2] get-tuple-element(rd), index=0
  t2 = token[] get-tuple-element(rd), index=1
  o = token[] outfeed(got, t2)
  ROOT out = f32[2] negate(got)
}
"""


def test_infeed_outfeed_send_recv():
    module = hlo.parse_module(FEEDS, "feeds.hlo")
    sink: list = []
    result = hlo.run(module, infeed=[np.array([1, 2], np.float32)], outfeed=sink)
    assert result.tolist() == [-2.0, -4.0]
    assert [v.tolist() for v in sink] == [[2.0, 4.0]]
    with pytest.raises(hlo.EvalError, match=r"feeds\.hlo:4:\d+: error: %in: the infeed ran dry"):
        hlo.run(module)
    with pytest.raises(hlo.EvalError, match=r"%in: the infeed value must be f32\[2\]"):
        hlo.run(module, infeed=[np.zeros(3, np.float32)])


def test_native_cholesky_and_triangular_solve():
    text = """HloModule m
ENTRY e {
  a = f64[2,3,3] parameter(0)
  b = f64[2,3,2] parameter(1)
  l = f64[2,3,3] cholesky(a), lower=true
  ROOT x = f64[2,3,2] triangular-solve(l, b), left_side=true, lower=true, transpose_a=NO_TRANSPOSE
}
"""
    rng = np.random.default_rng(0)
    m = rng.standard_normal((2, 3, 3))
    a = m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3)
    b = rng.standard_normal((2, 3, 2))
    x = hlo.run(hlo.parse_module(text), a, b)
    np.testing.assert_allclose(np.linalg.cholesky(a) @ x, b, rtol=1e-10)


def test_batch_norm_formulas():
    text = """HloModule m
ENTRY e {
  x = f32[4,3,5] parameter(0)
  s = f32[3] parameter(1)
  o = f32[3] parameter(2)
  ROOT t = (f32[4,3,5], f32[3], f32[3]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=1
}
"""
    rng = np.random.default_rng(1)
    x, s, o = rng.standard_normal((4, 3, 5)).astype(np.float32), np.float32([1, 2, 3]), np.float32([0, 1, -1])
    y, mean, var = hlo.run(hlo.parse_module(text), x, s, o)
    m, v = x.mean(axis=(0, 2)), x.var(axis=(0, 2))
    np.testing.assert_allclose(mean, m, rtol=1e-5)
    np.testing.assert_allclose(var, v, rtol=1e-5)
    expected = (x - m[None, :, None]) / np.sqrt(v[None, :, None] + 0.001) * s[None, :, None] + o[
        None, :, None
    ]
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)


def test_topk_ties_go_to_the_lower_index():
    text = (
        "HloModule m\nENTRY e {\n  a = s32[6] parameter(0)\n"
        "  ROOT t = (s32[3], s32[3]) topk(a), k=3, largest=true\n}\n"
    )
    values, indices = hlo.run(hlo.parse_module(text), np.array([4, 9, 4, 9, 1, 4], np.int32))
    assert values.tolist() == [9, 9, 4] and indices.tolist() == [1, 3, 0]


def _reduce(b, x, op):
    f = hlo.XlaBuilder(op.__name__)
    op(hlo.ops.Parameter(f, 0, "f32[]", "a"), hlo.ops.Parameter(f, 1, "f32[]", "b"))
    init = 0.0 if op is hlo.ops.Add else 1.0
    return hlo.ops.Reduce(b, x, hlo.ops.ConstantR0(b, init), f.build(), [0])


@pytest.mark.parametrize(("size", "total", "product"), [(5, 15.0, 120.0), (6, 21.0, 720.0)])
def test_page_003_dynamic_size_reductions(size, total, product):
    b = hlo.XlaBuilder("dyn")
    v = hlo.ops.ConstantR1(b, [float(k) for k in range(1, 11)])
    padded = hlo.ops.SetDimensionSize(v, hlo.ops.ConstantR0(b, size), 0)
    hlo.ops.Tuple(
        b,
        [
            _reduce(b, padded, hlo.ops.Add),
            _reduce(b, padded, hlo.ops.Mul),
            hlo.ops.GetDimensionSize(padded, 0),
        ],
    )
    s, p, n = hlo.run(b.build())
    assert (float(s), float(p), int(n)) == (total, product, size)


def test_dynamic_reshape_keeps_the_dynamic_size():
    text = """HloModule m
ENTRY e {
  a = f32[4,3] parameter(0)
  n = s32[] constant(2)
  d = f32[<=4,3] set-dimension-size(a, n), dimensions={0}
  r = f32[<=12] reshape(d)
  ROOT s = s32[] get-dimension-size(r), dimensions={0}
}
"""
    assert int(hlo.run(hlo.parse_module(text), np.zeros((4, 3), np.float32))) == 6


def test_broadcast_carries_a_dynamic_size():
    text = """HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  n = s32[] constant(3)
  d = f32[<=4] set-dimension-size(a, n), dimensions={0}
  b = f32[2,<=4] broadcast(d), dimensions={1}
  ROOT s = s32[] get-dimension-size(b), dimensions={1}
}
"""
    assert int(hlo.run(hlo.parse_module(text), np.zeros(4, np.float32))) == 3


def test_a_comparator_that_is_not_a_strict_weak_order_is_an_error():
    text = """HloModule m
le {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = pred[] compare(a, b), direction=LE
  ROOT r = pred[] and(c, c)
}
ENTRY e {
  x = f32[5] parameter(0)
  ROOT s = f32[5] sort(x), dimensions={0}, to_apply=le
}
"""
    with pytest.raises(
        hlo.EvalError,
        match=r"%s: the comparator is not a strict weak order: it finds an element less than itself",
    ):
        hlo.run(hlo.parse_module(text), np.arange(5, dtype=np.float32))


def test_sort_with_a_comparator_that_is_no_key_runs_the_merge_sort():
    # a - b < 0 reads both parameters at once: no key to extract, so the vectorized merge sort
    text = """HloModule m
lt {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  pa = s32[] parameter(2)
  pb = s32[] parameter(3)
  d = s32[] subtract(a, b)
  z = s32[] constant(0)
  ROOT r = pred[] compare(d, z), direction=LT
}
ENTRY e {
  x = s32[2,9] parameter(0)
  i = s32[2,9] iota(), iota_dimension=1
  ROOT s = (s32[2,9], s32[2,9]) sort(x, i), dimensions={1}, is_stable=true, to_apply=lt
}
"""
    x = np.array([[5, 3, 5, 1, 3, 9, 0, 5, 3], [2, 2, 2, 1, 1, 1, 0, 0, 0]], np.int32)
    values, order = hlo.run(hlo.parse_module(text), x)
    assert values.tolist() == np.sort(x, axis=1).tolist()
    assert order.tolist() == np.argsort(x, axis=1, kind="stable").tolist()


def test_lexicographic_comparator():
    text = """HloModule m
lex {
  a0 = f32[] parameter(0)
  b0 = f32[] parameter(1)
  a1 = s32[] parameter(2)
  b1 = s32[] parameter(3)
  lt0 = pred[] compare(a0, b0), direction=LT, type=TOTALORDER
  eq0 = pred[] compare(a0, b0), direction=EQ, type=TOTALORDER
  gt1 = pred[] compare(a1, b1), direction=GT
  tie = pred[] and(eq0, gt1)
  ROOT r = pred[] or(lt0, tie)
}
ENTRY e {
  x = f32[6] parameter(0)
  y = s32[6] parameter(1)
  ROOT s = (f32[6], s32[6]) sort(x, y), dimensions={0}, is_stable=true, to_apply=lex
}
"""
    x = np.array([2.0, 1.0, 2.0, np.nan, 1.0, -0.0], np.float32)
    y = np.array([1, 5, 7, 0, 2, 3], np.int32)
    keys, second = hlo.run(hlo.parse_module(text), x, y)
    assert second.tolist() == [3, 5, 2, 7, 1, 0]  # -0 < 1 (5 before 2) < 2 (7 before 1) < NaN
    assert np.array_equal(keys, [-0.0, 1, 1, 2, 2, np.nan], equal_nan=True) and np.signbit(keys[0])
