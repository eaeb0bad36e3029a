"""Repeated pure instructions computed once at plan time (hlo.runtime.cse, as XLA's HloCSE):
the run gives the op-by-op run's bits, impure ops and control dependencies are never merged,
and op-by-op runs keep every value for `--dump-values`."""

from __future__ import annotations

import numpy as np

import hlo
from hlo.runtime import cse
from hlo.runtime.run import Executable

# jax's unoptimized layernorm repeats `x - mean` (sub.8..sub.11 repeat sub.12..sub.15).
LAYERNORM = """
HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[8,6] parameter(0)
  zero = f32[] constant(0)
  sum = f32[8] reduce(x, zero), dimensions={1}, to_apply=add
  n = f32[8] broadcast(f32[] constant(6)), dimensions={}
  mean = f32[8] divide(sum, n)
  b1 = f32[8,6] broadcast(mean), dimensions={0}
  d1 = f32[8,6] subtract(x, b1)
  b2 = f32[8,6] broadcast(mean), dimensions={0}
  d2 = f32[8,6] subtract(x, b2)
  sq = f32[8,6] multiply(d2, d2)
  var = f32[8] reduce(sq, zero), dimensions={1}, to_apply=add
  v = f32[8,6] broadcast(var), dimensions={0}
  ROOT out = f32[8,6] multiply(d1, v)
}
"""


def test_repeats_are_dropped_and_read_from_the_first() -> None:
    c = hlo.parse_module(LAYERNORM).entry
    m = cse.merged(c)
    names = {i.name for i in m.instructions}
    assert "b2" not in names and "d2" not in names
    assert m.by_name["sq"].operands == ("d1", "d1")
    assert len(m.instructions) == len(c.instructions) - 2


def test_merged_run_gives_the_op_by_op_bits() -> None:
    x = np.random.default_rng(0).standard_normal((8, 6)).astype(np.float32)
    module = hlo.parse_module(LAYERNORM)
    fused = hlo.run(module, x)
    plain = hlo.run(module, x, fuse=False)
    assert fused.tobytes() == plain.tobytes()
    # the value itself: (x - mean) * sum((x - mean)^2) per row, in f32
    mean = x.sum(axis=1, dtype=np.float32) / np.float32(6)
    d = x - mean[:, None]
    np.testing.assert_allclose(fused, d * (d * d).sum(axis=1)[:, None], rtol=1e-5)


def test_a_repeated_root_gives_the_first_instance() -> None:
    text = """
HloModule m
ENTRY e {
  x = s32[4] parameter(0)
  a = s32[4] multiply(x, x)
  ROOT b = s32[4] multiply(x, x)
}
"""
    module = hlo.parse_module(text)
    assert cse.merged(module.entry).root_name == "a"
    got = hlo.run(module, np.array([1, -2, 3, 40000], np.int32))
    assert got.tolist() == [1, 4, 9, 1600000000]


def test_rng_and_differing_attributes_are_not_merged() -> None:
    text = """
HloModule m
ENTRY e {
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  r1 = f32[64] rng(lo, hi), distribution=rng_uniform
  r2 = f32[64] rng(lo, hi), distribution=rng_uniform
  x = f32[2,3] parameter(0)
  t1 = f32[3,2] transpose(x), dimensions={1,0}
  y = f32[3,2] parameter(1)
  t2 = f32[3,2] add(y, y)
  ROOT t = (f32[64], f32[64], f32[3,2], f32[3,2]) tuple(r1, r2, t1, t2)
}
"""
    module = hlo.parse_module(text)
    assert len(cse.merged(module.entry).instructions) == len(module.entry.instructions)
    r1, r2, _, _ = hlo.run(module, np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32))
    assert not np.array_equal(r1, r2)  # two draws, not one


def test_control_dependencies_keep_both() -> None:
    text = """
HloModule m
ENTRY e {
  x = f32[4] parameter(0)
  a = f32[4] negate(x)
  b = f32[4] negate(x), control-predecessors={a}
  ROOT t = (f32[4], f32[4]) tuple(a, b)
}
"""
    entry = hlo.parse_module(text).entry
    assert cse.merged(entry) is entry


def test_op_by_op_plans_keep_every_instruction() -> None:
    module = hlo.parse_module(LAYERNORM)
    names = {s.instruction.name for s in Executable(module, hlo.RunOptions(fuse=False)).entry.steps}
    assert {"b2", "d2"} <= names
    fused = {s.instruction.name for s in Executable(module, hlo.RunOptions()).entry.steps}
    assert "d2" not in fused


def test_a_commutative_op_repeats_with_its_operands_swapped() -> None:
    """`b*a` repeats `a*b` (XLA's HloCSE takes a commutative op's operands in either order);
    `a-b` does not repeat `b-a`."""
    text = """HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  m = f32[4] multiply(a, b)
  n = f32[4] multiply(b, a)
  s = f32[4] subtract(a, b)
  t = f32[4] subtract(b, a)
  ROOT r = (f32[4], f32[4], f32[4], f32[4]) tuple(m, n, s, t)
}
"""
    m = cse.merged(hlo.parse_module(text).entry)
    assert "n" not in m.by_name and m.root.operands == ("m", "m", "s", "t")
