"""Constant folding at plan time (runtime/constant_fold.py): pure ops of constants are computed
once when the plan is made, giving the values the steps would compute."""

from __future__ import annotations

import numpy as np

import hlo

LOOP = """HloModule m
cond { p = (s32[], f32[3]) parameter(0)  i = s32[] get-tuple-element(p), index=0
       n = s32[] constant(4)  ROOT lt = pred[] compare(i, n), direction=LT }
body {
  p = (s32[], f32[3]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[3] get-tuple-element(p), index=1
  c = f32[] constant(0.5)
  b = f32[3] broadcast(c), dimensions={}
  k = f32[3] iota(), iota_dimension=0
  s = f32[3] add(b, k)
  m = f32[3] multiply(v, s)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[3]) tuple(j, m)
}
ENTRY e {
  z = s32[] constant(0)
  x = f32[3] parameter(0)
  t = (s32[], f32[3]) tuple(z, x)
  w = (s32[], f32[3]) while(t), condition=cond, body=body
  ROOT r = f32[3] get-tuple-element(w), index=1
}
"""


def test_pure_ops_of_constants_are_computed_once_when_planned() -> None:
    executable = hlo.compile_module(hlo.parse_module(LOOP, "t.hlo"))
    x = np.array([1.0, -2.0, 3.0], np.float32)
    got = executable(x)
    np.testing.assert_array_equal(got, x * np.array([0.5, 1.5, 2.5], np.float32) ** 4)
    body = executable.context.plans["body"]
    folded = {s.instruction.name for s in body.steps if not s.inputs and s.instruction.operands}
    assert folded == {"b", "s"}  # broadcast and add of constants; m reads the loop's value
    assert {s.instruction.name for s in body.steps if not s.inputs} >= {"c", "k", "one"}
