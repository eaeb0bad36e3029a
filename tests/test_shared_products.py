"""Multiplies with several users (hlo.numerics.cpu_kernels and contraction): XLA:CPU copies a
multiply into each consumer's kernel and LLVM fuses each copy into its add, unless consumers
share a kernel or the multiply is written on its own. Every output of every case against
XLA:CPU's (tests/golden/kernels/shared_products.npz, tools/make_exactness_fixtures.py), bit for
bit, in every way of running."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.numerics import contraction, cpu_kernels

FIXTURES = Path(__file__).parent / "golden" / "kernels" / "shared_products.npz"
with np.load(FIXTURES) as _data:
    CASES = sum(1 for k in _data.files if k.endswith("_hlo"))
MODES = [("off", True), ("off", False), ("eager", True)]


def _case(k: int) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    with np.load(FIXTURES) as d:
        args = [d[f"case{k}_arg{j}"] for j in range(8) if f"case{k}_arg{j}" in d.files]
        outs = [d[f"case{k}_out{j}"] for j in range(16) if f"case{k}_out{j}" in d.files]
        return str(d[f"case{k}_hlo"]), args, outs


@pytest.mark.parametrize("k", range(CASES))
@pytest.mark.parametrize(("jit", "fuse"), MODES)
def test_every_output_matches_xla_cpu(k: int, jit: str, fuse: bool) -> None:
    text, args, want = _case(k)
    got = hlo.run(hlo.parse_module(text), *args, jit=jit, fuse=fuse)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want)
    for j, (g, w) in enumerate(zip(got, want)):
        assert np.asarray(g).tobytes() == w.tobytes(), f"output {j} of\n{text}"


def test_the_fixtures_need_the_copies() -> None:
    """Counting a multiply's users over the whole computation (no kernels) fuses none of the
    shared ones: the fixtures hold outputs that only the per-kernel copies give."""
    text, args, want = _case(0)  # "two kernels": both consumers fused with a copy each
    module = hlo.parse_module(text)
    a, b, c, d = args
    assert "tuple(u, v)" in text
    plain = (a * b + c, d - a * b)
    assert any((p != w).any() for p, w in zip(plain, want))
    made = contraction.contracted(module.entry, module)
    assert [contraction.mark(made.by_name[n]) is not None for n in ("u", "v")] == [True, True]


def test_a_kernel_computing_a_value_differently_gets_its_own_copy() -> None:
    """v is fused with its product in w's kernel (the product's only use there) but not in u's,
    where the product has two uses: two instructions compute v, each read by its kernel."""
    text = """HloModule m
ENTRY e {
  a = f32[64] parameter(0)
  b = f32[64] parameter(1)
  c = f32[64] parameter(2)
  m = f32[64] multiply(a, a)
  k = f32[64] multiply(m, b)
  v = f32[64] add(k, m)
  u = f32[64] maximum(v, k)
  w = f32[64] add(v, c)
  ROOT t = (f32[64], f32[64], f32[64]) tuple(u, w, m)
}
"""
    module = hlo.parse_module(text)
    groups = cpu_kernels.kernels(module.entry)
    assert groups.roots_of("v") == {"u", "w"} and groups.roots_of("m") == {"m", "u", "w"}
    made = contraction.contracted(module.entry, module)
    copies = [i for i in made.instructions if i.name.startswith("v")]
    assert len(copies) == 2 and sum(contraction.mark(i) is not None for i in copies) == 1
