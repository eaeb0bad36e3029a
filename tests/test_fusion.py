"""Loop fusion (runtime/fusion.py): chains of elementwise ops run block by block give bit for
bit the values of the op-by-op run, which the corpus holds against XLA:CPU's outputs. Blocks of a
few elements make every program of the corpus fuse, over many blocks and a partial last one."""

from __future__ import annotations

import json

import numpy as np
import pytest

import hlo
from hlo.numerics.context import RunOptions
from hlo.numerics.fma import fma
from hlo.runtime import fusion
from test_engine_programs import RANDOM, RUNNING, leaves, load


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fusion, "BLOCK_ELEMENTS", 3)
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)


def fused_steps(executable: hlo.Executable) -> int:
    plans = [executable.entry, *executable.context.plans.values()]
    return sum(1 for p in plans for s in p.steps if _fused(s.fn))


def _fused(fn: object) -> bool:
    """A fused step's function: the interpreted group, or the compiled tier's wrapper of it."""
    return getattr(fn, "__qualname__", "").startswith("group_runner") or hasattr(fn, "interpreted")


@pytest.mark.parametrize("optimized", [False, True], ids=["hlo", "opt.hlo"])
@pytest.mark.parametrize("name", sorted(set(RUNNING) - RANDOM))
def test_fused_programs_give_the_unfused_bits(name: str, optimized: bool, tiny_blocks: None) -> None:
    module, args, expected = load(name, optimized)
    fused = hlo.compile_module(module, RunOptions(fuse=True))
    plain = hlo.compile_module(module, RunOptions(fuse=False))
    got, want = leaves(fused(*args)), leaves(plain(*args))
    assert fused_steps(plain) == 0
    for k, (g, w, e) in enumerate(zip(got, want, expected)):
        assert g.dtype == w.dtype and g.shape == w.shape and g.tobytes() == w.tobytes(), f"out{k}"
        if e.dtype.kind in "fc":
            np.testing.assert_allclose(g.astype(e.dtype), e, rtol=2e-4, atol=1e-5, err_msg=f"out{k}")
        else:
            np.testing.assert_array_equal(g.astype(e.dtype), e, err_msg=f"out{k}")


def test_the_corpus_fuses(tiny_blocks: None) -> None:
    counts = {}
    for name in ("elementwise", "mlp_grad", "transformer_block"):
        module, _, _ = load(name)
        counts[name] = fused_steps(hlo.compile_module(module, RunOptions(fuse=True)))
    assert all(n > 0 for n in counts.values()), counts


CYCLE = """HloModule m
ENTRY e {
  p = f32[6,4] parameter(0)
  a = f32[6,4] exponential(p)
  s = f32[6,4] reverse(a), dimensions={1}
  b = f32[6,4] add(a, s)
  lo = f32[] constant(0.5)
  hi = f32[] constant(2)
  c = f32[6,4] clamp(lo, b, hi)
  r = f32[4,6] transpose(c), dimensions={1,0}
  t = f32[6,4] transpose(r), dimensions={1,0}
  ROOT m = f32[6,4] multiply(t, c)
}
"""


def test_a_group_never_contains_both_ends_of_a_path_through_another_op(tiny_blocks: None) -> None:
    module = hlo.parse_module(CYCLE)
    by_name = module.entry.by_name
    found = fusion.groups(module.entry.instructions, by_name)
    names = [{i.name for i in g} for g in found]
    assert {"b", "c"} in names  # a feeds the reverse, whose result b needs: a stays alone
    assert not any({"a", "b"} <= g or {"c", "m"} <= g for g in names)
    p = np.arange(24, dtype=np.float32).reshape(6, 4)[::-1].copy() / 10
    fused = hlo.run(module, p, fuse=True)
    want = np.clip(np.exp(p) + np.exp(p)[:, ::-1], 0.5, 2)
    np.testing.assert_allclose(fused, want * want, rtol=1e-6)
    assert fused.tobytes() == hlo.run(module, p, fuse=False).tobytes()


CHAIN = """HloModule m
ENTRY e {
  p = f32[8,5] parameter(0)
  a = f32[8,5] exponential(p)
  b = f32[8,5] multiply(a, p)
  ROOT c = f32[8,5] add(b, a)
}
"""


def test_dump_values_records_the_values_inside_a_chain(tmp_path, tiny_blocks: None) -> None:
    from hlo.cli.main import main

    module = tmp_path / "chain.hlo"
    module.write_text(CHAIN)
    p = np.linspace(-2, 2, 40, dtype=np.float32).reshape(8, 5)
    np.savez(tmp_path / "in.npz", arg0=p)
    dumped = tmp_path / "values"
    assert main(["run", str(module), "--inputs", str(tmp_path / "in.npz"), "--dump-values", str(dumped)]) == 0
    names = {e["name"] for e in json.loads((dumped / "index.json").read_text())}
    assert {"a", "b", "c"} <= names  # fused runs would have no value of a or b
    for flags in ([], ["--no-fusion"]):
        out = tmp_path / f"out{len(flags)}.npz"
        assert (
            main(["run", str(module), "--inputs", str(tmp_path / "in.npz"), "--output", str(out), *flags])
            == 0
        )
    fused, plain = np.load(tmp_path / "out0.npz")["out0"], np.load(tmp_path / "out1.npz")["out0"]
    assert fused.tobytes() == plain.tobytes()
    np.testing.assert_allclose(fused, np.exp(p) * p + np.exp(p), rtol=1e-6)


def test_a_broadcast_of_a_member_stays_out_of_its_group(tiny_blocks: None) -> None:
    # XLA's optimized text broadcasts arrays to their own shape; c's operands would join the
    # broadcast's and a's groups into one where the broadcast reads a member.
    text = """HloModule m
ENTRY e {
  p = f32[6,4] parameter(0)
  a = f32[6,4] exponential(p)
  b = f32[6,4] broadcast(a), dimensions={0,1}
  ROOT c = f32[6,4] add(a, b)
}
"""
    module = hlo.parse_module(text)
    assert not any(
        {"a", "b"} <= {i.name for i in g}
        for g in fusion.groups(module.entry.instructions, module.entry.by_name)
    )
    p = np.linspace(-1, 1, 24, dtype=np.float32).reshape(6, 4)
    fused = hlo.run(module, p)
    assert fused.tobytes() == hlo.run(module, p, fuse=False).tobytes()
    np.testing.assert_allclose(fused, 2 * np.exp(p), rtol=1e-6)


def test_broadcasts_the_same_for_every_block_are_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Blocks of 2 rows of 4 over 7 rows (a partial last block): the row-vector and scalar
    # broadcasts are made once per block size, contiguous and read-only; the column broadcast
    # stays a view per block; one fixed broadcast escapes (the tuple's second element).
    monkeypatch.setattr(fusion, "BLOCK_ELEMENTS", 8)
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)
    text = """HloModule m
ENTRY e {
  p = f32[7,4] parameter(0)
  g = f32[4] parameter(1)
  m = f32[7] parameter(2)
  c = f32[] constant(0.5)
  gb = f32[7,4] broadcast(g), dimensions={1}
  cb = f32[7,4] broadcast(c), dimensions={}
  mb = f32[7,4] broadcast(m), dimensions={0}
  a = f32[7,4] subtract(p, mb)
  b = f32[7,4] multiply(a, gb)
  d = f32[7,4] add(b, cb)
  ROOT t = (f32[7,4], f32[7,4]) tuple(d, gb)
}
"""
    module = hlo.parse_module(text)
    found = fusion.groups(module.entry.instructions, module.entry.by_name)
    assert any({"gb", "cb", "d"} <= {i.name for i in g} for g in found)
    p = np.linspace(-1, 1, 28, dtype=np.float32).reshape(7, 4)
    g = np.array([1.5, -2, 0.25, 3], np.float32)
    m = np.linspace(0, 1, 7, dtype=np.float32)
    (d, gb), (d0, gb0) = hlo.run(module, p, g, m), hlo.run(module, p, g, m, fuse=False)
    assert d.tobytes() == d0.tobytes() and gb.tobytes() == gb0.tobytes()
    # (XLA:CPU contracts the multiply into the add: one rounding)
    np.testing.assert_array_equal(d, fma(p - m[:, None], np.broadcast_to(g, (7, 4)), np.float32(0.5)))
    np.testing.assert_array_equal(gb, np.broadcast_to(g, (7, 4)))
