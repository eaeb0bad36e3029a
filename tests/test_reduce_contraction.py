"""Products fused into a small reduce's loop as FMA chains (hlo.numerics.reduce_contraction).
XLA:CPU's values are in tests/golden/ops/exact_reduce_products.npz (test_engine_ops); these pin
the chain's form, the results LLVM's vector loop leaves plain, and the compiled tiers."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.dtypes import PrimitiveType
from hlo.numerics import contraction, jit_entry, reduce_contraction
from hlo.numerics.fma import fma
from hlo.numerics.reduce_contraction import FusedReduce
from hlo.numerics.reduce_lanes import Lanes
from hlo.runtime import Executable

F32, F64 = PrimitiveType.F32, PrimitiveType.F64


def _module(body: str, t: str = "f32", shape: str = "8,16", out: str = "8", init: str = "constant(0)") -> str:
    return f"""HloModule m
add {{ a = {t}[] parameter(0) b = {t}[] parameter(1) ROOT s = {t}[] add(a, b) }}
ENTRY e {{
  x = {t}[{shape}] parameter(0)
  y = {t}[{shape}] parameter(1)
  {body}
  z = {t}[] {init}
  ROOT r = {t}[{out}] reduce(m, z), dimensions={{1}}, to_apply=add
}}"""


def _args(shape: tuple[int, ...] = (8, 16), seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(2)]


def test_a_row_of_products_is_an_fma_chain_from_the_init_value():
    x, y = _args()
    got = np.asarray(
        hlo.run(hlo.parse_module(_module("m = f32[8,16] multiply(x, y)", init="constant(0.75)")), x, y)
    )
    acc = np.full(8, 0.75, np.float32)
    for k in range(16):
        acc = fma(x[:, k], y[:, k], acc)
    assert got.tobytes() == acc.tobytes()
    plain = np.float32(0.75) + np.cumsum(x * y, axis=1, dtype=np.float32)[:, -1]
    assert got.tobytes() != plain.tobytes()  # (the products rounded first give other bits here)


def test_a_square_from_plus_zero_fuses_its_first_two_products():
    """LLVM drops the add of +0 to x*x (it cannot be -0): fma(x0, x0, x1*x1), then the chain."""
    x, y = _args(seed=1)
    module = hlo.parse_module(_module("m = f32[8,16] multiply(x, x)"))
    want = fma(x[:, 0], x[:, 0], x[:, 1] * x[:, 1])
    for k in range(2, 16):
        want = fma(x[:, k], x[:, k], want)
    for jit in ("off", "eager"):
        assert np.asarray(hlo.run(module, x, y, jit=jit)).tobytes() == want.tobytes()
    fused = reduce_contraction.mark(contraction.contracted(module.entry, module).root)
    assert fused == FusedReduce(1, 1, True, 0)


@pytest.mark.parametrize(
    ("body", "init", "expected"),
    [
        ("m = f32[8,16] multiply(x, x)", "parameter(2)", FusedReduce(1, 1, False, 0)),
        ("q = f32[8,16] multiply(x, y)\n  m = f32[8,16] negate(q)", "constant(0)", FusedReduce(-1, 1, False, 0)),  # noqa: E501
        ("m = f32[8,16] add(x, y)", "constant(0)", None),  # no product
    ],
)  # fmt: skip
def test_what_is_marked(body, init, expected):
    module = hlo.parse_module(_module(body, init=init))
    assert reduce_contraction.mark(contraction.contracted(module.entry, module).root) == expected


@pytest.mark.parametrize(
    ("t", "results", "length", "rows"),
    [
        (F32, 64, 4, 0),  # rows of 4: an FMA chain, not vectorized
        (F32, 64, 6, 64),
        (F32, 44, 5, 40),  # steps of 8 from 40 results
        (F32, 23, 5, 20),  # steps of 4 below
        (F32, 12, 7, 0),  # under 16 results: 4 or 8 only
        (F32, 4, 6, 4),
        (F64, 12, 8, 12),
        (F64, 23, 8, 22),  # f64 rows of 7-8: steps of 2
        (F64, 23, 6, 20),
        (F64, 6, 5, 0),
        (F32, 64, 9, 0),
    ],
)
def test_vector_rows_as_seen_on_xla_cpu(t, results, length, rows):
    assert reduce_contraction.vector_rows(t, results, length) == rows


def test_vectorized_results_sum_plain_products_the_others_chain():
    """64 results of rows of 6: all in LLVM's vector loop (plain); the compiled tier leaves such a
    reduce to the interpreter."""
    x, y = _args((66, 6), seed=2)
    module = hlo.parse_module(_module("m = f32[66,6] multiply(x, y)", shape="66,6", out="66"))
    got = np.asarray(hlo.run(module, x, y, jit="eager"))
    plain = np.zeros(66, np.float32)
    chain = np.zeros(66, np.float32)
    for k in range(6):
        plain = plain + x[:, k] * y[:, k]
        chain = fma(x[:, k], y[:, k], chain)
    assert got[:64].tobytes() == plain[:64].tobytes() and got[64:].tobytes() == chain[64:].tobytes()


def test_the_entry_tier_compiles_the_chain():
    """A computation long enough for the compiled entry tier: its reduce is the same FMA chain
    (a square from +0 among them), bit for bit with the interpreter."""
    steps = "\n  ".join(f"c{k} = f32[8,16] add(c{k - 1}, y)" for k in range(1, 16))
    body = f"c0 = f32[8,16] add(x, y)\n  {steps}\n  m = f32[8,16] multiply(c15, c15)"
    module = hlo.parse_module(_module(body))
    assert len(module.entry.instructions) >= jit_entry.MIN_INSTRUCTIONS
    x, y = _args(seed=3)
    executable = Executable(module, hlo.RunOptions(jit="eager"))
    got = executable(x, y)
    assert executable.compiled is not None and executable.compiled.kernel.fn is not None
    assert np.asarray(got).tobytes() == np.asarray(hlo.run(module, x, y, jit="off")).tobytes()


LANES = """HloModule m
add {{ a = f32[] parameter(0) b = f32[] parameter(1) ROOT s = f32[] add(a, b) }}
ENTRY e {{
  x = f32[2,{rows},{length}] parameter(0)
  y = f32[2,{rows},{length}] parameter(1)
  m = f32[2,{rows},{length}] multiply(x, {other})
  z = f32[] constant(0)
  ROOT r = f32[2] reduce(m, z), dimensions={{1,2}}, to_apply=add
}}"""


@pytest.mark.parametrize(
    ("rows", "length", "other", "lanes"),
    [
        (4, 4, "y", Lanes(4, 4)),  # rows of up to 4 products: lanes of FMA chains
        (16, 2, "y", Lanes(8, 16)),
        (8, 8, "y", None),  # rows of 8: plain products (the reduce as written)
        (8, 3, "x", Lanes(8, 8)),  # squares alike
        (2, 4, "y", None),  # 2 lanes: not pinned
    ],
)
def test_sums_over_several_dimensions_take_lanes_of_fma_chains(rows, length, other, lanes):
    module = hlo.parse_module(LANES.format(rows=rows, length=length, other=other))
    fused = reduce_contraction.mark(contraction.contracted(module.entry, module).root)
    assert (fused.lanes if fused else None) == lanes
    if lanes is None:
        return
    x, y = _args((2, rows, length), seed=4)
    factor = x if other == "x" else y
    acc = np.zeros((2, lanes.count), np.float32)  # lane 0 from the init value, the others from -0
    acc[:, 1:] = -0.0
    for start in range(0, lanes.whole, lanes.count):
        for e in range(length):
            acc = fma(x[:, start : start + lanes.count, e], factor[:, start : start + lanes.count, e], acc)
    while acc.shape[1] > 1:
        acc = acc[:, : acc.shape[1] // 2] + acc[:, acc.shape[1] // 2 :]
    for jit in ("off", "eager"):
        assert np.asarray(hlo.run(module, x, y, jit=jit)).tobytes() == acc[:, 0].tobytes()
