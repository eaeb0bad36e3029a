"""Adds XLA:CPU fuses with a multiply (hlo.numerics.contraction). Their bits against XLA:CPU are
the fixtures' (exact_contractions.npz, in test_engine_ops.py); here: every way of running gives
those bits, chains thousands of instructions deep, and the rewrite leaves alone what XLA does not
fuse."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.numerics import contraction
from hlo.numerics.fma import fma


def _chain(t: str, n: int, steps: int) -> str:
    """x <- x*a + b, `steps` times, written out."""
    lines = [f"  x0 = {t}[{n}] parameter(0)", f"  a = {t}[{n}] parameter(1)", f"  b = {t}[{n}] parameter(2)"]
    for k in range(steps):
        lines.append(f"  m{k} = {t}[{n}] multiply(x{k}, a)")
        lines.append(f"  x{k + 1} = {t}[{n}] add(m{k}, b)")
    lines[-1] = "  ROOT " + lines[-1].strip()
    return "HloModule chain\n\nENTRY main {\n" + "\n".join(lines) + "\n}\n"


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_a_long_chain_is_an_fma_a_step_in_every_mode(t):
    dtype = np.float32 if t == "f32" else np.float64
    rng = np.random.default_rng(5)
    x, a, b = (rng.uniform(-0.9, 0.9, 64).astype(dtype) for _ in range(3))
    module = hlo.parse_module(_chain(t, 64, 1500))  # (deeper than Python's recursion limit)
    want = x
    for _ in range(1500):
        want = fma(want, a, b)
    for fuse in (True, False):
        for jit in ("off", "eager"):
            got = np.asarray(hlo.run(module, x, a, b, fuse=fuse, jit=jit))
            np.testing.assert_array_equal(got, want, err_msg=f"fuse={fuse} jit={jit}")
    assert (np.asarray(hlo.run(module, x, a, b, jit="off")) != _plain(x, a, b, 1500)).any()


def _plain(x, a, b, steps):
    for _ in range(steps):
        x = x * a + b
    return x


def test_the_fused_group_of_large_arrays_gives_the_interpreter_bits():
    n = 1 << 21  # (the compiled fusion tier's size)
    rng = np.random.default_rng(6)
    a, b, c, d = (rng.standard_normal(n).astype(np.float32) for _ in range(4))
    text = (
        f"HloModule big\n\nENTRY main {{\n  a = f32[{n}] parameter(0)\n  b = f32[{n}] parameter(1)\n"
        f"  c = f32[{n}] parameter(2)\n  d = f32[{n}] parameter(3)\n  m = f32[{n}] multiply(a, b)\n"
        f"  s = f32[{n}] subtract(c, m)\n  k = f32[{n}] multiply(s, d)\n  n = f32[{n}] negate(k)\n"
        f"  ROOT r = f32[{n}] add(n, a)\n}}\n"
    )
    module = hlo.parse_module(text)
    want = fma(-fma(-a, b, c), d, a)
    for jit in ("off", "eager"):
        np.testing.assert_array_equal(np.asarray(hlo.run(module, a, b, c, d, jit=jit)), want)


def test_what_xla_does_not_fuse_is_left_alone():
    text = """HloModule m

ENTRY main {
  a = f32[8] parameter(0)
  b = f32[8] parameter(1)
  c = f32[8] parameter(2)
  m = f32[8] multiply(a, b)
  u = f32[8] add(m, c)
  v = f32[8] subtract(m, c)
  w = f32[8] multiply(u, v)
  h = bf16[8] convert(a)
  hm = bf16[8] multiply(h, h)
  hs = bf16[8] add(hm, h)
  hf = f32[8] convert(hs)
  k = f32[] constant(3)
  kb = f32[8] broadcast(k), dimensions={}
  kk = f32[8] multiply(kb, kb)
  kc = f32[8] add(kk, c)
  dead = f32[8] add(m, c)
  ROOT t = (f32[8], f32[8], f32[8]) tuple(w, hf, kc)
}
"""
    module = hlo.parse_module(text)
    comp = module.entry
    contracted = contraction.contracted(comp, module)  # two users, bf16, a hoisted product
    assert all(contraction.mark(i) is None for i in contracted.instructions)
    assert contracted.by_name["kc"].operands == ("c", "kk")  # (StableHLO's: the constant to the right)


def test_bisect_keeps_the_fused_multiply():
    module = hlo.parse_module(_chain("f32", 4, 2))
    assert contraction.fused_product(module, "x2") == {"m1"}
    assert contraction.fused_product(module, "m1") == frozenset()
