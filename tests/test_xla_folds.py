"""Which reductions XLA constant-folds (hlo.runtime.xla_folds) and the evaluator's order for them
(hlo.numerics.evaluator_fold). Values against XLA:CPU: tests/golden/ops/exact_constant_folds.npz
(made by tools/make_exactness_fixtures.py, run by test_engine_ops.py); here the predicate."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.runtime import pad_merge, xla_folds

_MODULE = """HloModule m
f { p = f32[] parameter(0)  q = f32[] parameter(1)  ROOT r = f32[] add(p, q) }
ENTRY e {
  c = f32[6] constant({1, 2, 3, 4, 5, 6})  z = f32[] constant(0)  y = f32[6] parameter(0)
  i = f32[6] iota(), iota_dimension=0  k = f32[] constant(2)  b = f32[6] broadcast(k), dimensions={}
  BODY
}"""


@pytest.mark.parametrize(
    ("body", "folded"),
    [
        ("ROOT out = f32[] reduce(c, z), dimensions={0}, to_apply=f", {"out": False}),
        ("ROOT out = f32[] reduce(i, z), dimensions={0}, to_apply=f", {"out": False}),  # the init a constant
        ("ROOT out = f32[] reduce(y, z), dimensions={0}, to_apply=f", {}),  # a parameter
        ("m = f32[6] multiply(i, b)  ROOT out = f32[] reduce(m, z), dimensions={0}, to_apply=f", {}),
        ("a = f32[6] add(c, b)  ROOT out = f32[] reduce(a, z), dimensions={0}, to_apply=f", {"out": False}),
        ("ROOT out = f32[3] reduce-window(c, z), window={size=2 stride=2}, to_apply=f", {"out": False}),
        ("ROOT out = f32[1] reduce-window(c, z), window={size=6}, to_apply=f", {"out": True}),  # a reduce
    ],
)
def test_xla_folds_reductions_of_constants(body: str, folded: dict[str, bool]) -> None:
    c = hlo.parse_module(_MODULE.replace("BODY", body)).entry
    order = list(c.instructions)
    merges = pad_merge.plan_merges(order, c, hlo.parse_module(_MODULE.replace("BODY", body)))
    assert xla_folds.folded_reductions(order, c, merges) == folded


def test_a_folded_sum_is_accumulated_in_f64() -> None:
    """2^24 + 1 + 1: rounded once (2^24 + 2), not per step (2^24), as XLA's evaluator gives."""
    text = _MODULE.replace(
        "BODY",
        "x = f32[3] constant({16777216, 1, 1})  ROOT out = f32[] reduce(x, z), dimensions={0}, to_apply=f",
    )
    assert np.asarray(hlo.run(hlo.parse_module(text), np.zeros(6, np.float32))) == np.float32(16777218)


@pytest.mark.parametrize(
    ("body", "elementwise"),
    [
        ("ROOT out = f32[6] exponential(c)", {"out"}),
        ("ROOT out = f32[6] exponential(y)", set()),  # a parameter
        ("ROOT out = f32[6] exponential(i)", set()),  # an iota alone: no constant operand
        ("ROOT out = f32[6] add(c, i)", {"out"}),  # an iota beside a constant
        ("ROOT out = f32[6] exponential(b)", {"out"}),  # sunk below the broadcast, then folded
        ("m = f32[6] multiply(b, b)  ROOT out = f32[6] tanh(m)", {"m", "out"}),  # both sunk
        ("d = f32[6] broadcast(z), dimensions={}  ROOT out = f32[6] add(b, d)", {"out"}),
        ("m = f32[6] multiply(i, b)  ROOT out = f32[6] exponential(m)", set()),
    ],
)
def test_xla_folds_elementwise_ops_of_constants(body: str, elementwise: set[str]) -> None:
    module = hlo.parse_module(_MODULE.replace("BODY", body))
    c = module.entry
    order = list(c.instructions)
    assert xla_folds.folded(order, c, pad_merge.plan_merges(order, c, module))[1] == elementwise
