"""XLA:CPU's own tanh and f32 erf (hlo.numerics.xla_tanh, xla_erf, odd_rational): both ways of
computing them — NumPy with exact fused multiply-adds, and the compiled loop — against XLA:CPU's
bits (tests/golden/ops/exact_tanh_erf.npz, made by tools/make_tanh_erf_fixtures.py), and the
compiled tiers really calling the loop. The fixture's cases through the engine, and with each
tier forced on, are in test_engine_ops, test_fusion_tier and test_entry_tier."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import hlo
import test_engine_ops
from hlo import RunOptions
from hlo.numerics import odd_rational, subnormals, xla_erf, xla_tanh
from hlo.runtime import fusion
from hlo.runtime.run import Executable

FORMS = {("tanh", "f32"): xla_tanh.F32, ("tanh", "f64"): xla_tanh.F64, ("erf", "f32"): xla_erf.F32}
LLVMLITE = importlib.util.find_spec("llvmlite") is not None


def fixture_cases() -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    """(op, type, input, XLA:CPU's output) of the f32 and f64 cases."""
    d = test_engine_ops.data("exact_tanh_erf")
    found = []
    for family, k in test_engine_ops.cases():
        if family != "exact_tanh_erf":
            continue
        text, t = str(d[f"case{k}_hlo"]), str(d[f"case{k}_types"][0])
        op = "tanh" if " tanh(" in text else "erf"
        if (op, t) in FORMS:
            found.append((op, t, d[f"case{k}_arg0"], d[f"case{k}_out"]))
    return found


CASES = fixture_cases()
IDS = [f"{op}-{t}" for op, t, _, _ in CASES]


def bits(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).view(f"u{x.dtype.itemsize}")


def test_the_fixture_holds_every_form() -> None:
    assert sorted((op, t) for op, t, _, _ in CASES) == sorted(FORMS)


@pytest.mark.parametrize(("op", "t", "x", "want"), CASES, ids=IDS)
def test_numpy_gives_xla_cpus_bits(op: str, t: str, x: np.ndarray, want: np.ndarray) -> None:
    """NaN payloads, signed zeros and subnormal inputs included, in and out of the CPU's mode."""
    form = FORMS[(op, t)]
    np.testing.assert_array_equal(bits(odd_rational.in_numpy(form, x, flush=True)), bits(want))
    with subnormals.flushing_subnormals(True):
        np.testing.assert_array_equal(bits(odd_rational.in_numpy(form, x, flush=True)), bits(want))


@pytest.mark.skipif(not LLVMLITE, reason="llvmlite is not installed")
@pytest.mark.parametrize(("op", "t", "x", "want"), CASES, ids=IDS)
def test_the_compiled_loop_gives_xla_cpus_bits(op: str, t: str, x: np.ndarray, want: np.ndarray) -> None:
    from hlo.numerics import odd_rational_loop

    form = FORMS[(op, t)]
    out = np.empty_like(x)
    with subnormals.flushing_subnormals(True):
        assert odd_rational_loop.run(form, x, out, flush=True) == subnormals.active()
    if subnormals.active() or not subnormals.supported():
        np.testing.assert_array_equal(bits(out), bits(want))
    # split between threads: a long array of the same values
    long = np.tile(x, 600)
    with subnormals.flushing_subnormals(True):
        got = odd_rational.evaluate(form, long)
    np.testing.assert_array_equal(bits(got), bits(np.tile(want, 600)))


@pytest.mark.skipif(not LLVMLITE, reason="llvmlite is not installed")
@pytest.mark.parametrize(("op", "t", "x", "want"), CASES, ids=IDS)
def test_without_flushing_the_two_ways_agree(op: str, t: str, x: np.ndarray, want: np.ndarray) -> None:
    """RunOptions(flush_denormals=False): subnormal inputs and results kept, the same bits either
    way (XLA:CPU always flushes: no fixture)."""
    from hlo.numerics import odd_rational_loop

    form = FORMS[(op, t)]
    tiny = np.finfo(x.dtype).tiny
    x = np.concatenate([x, np.array([tiny / 3, -tiny / 5, tiny * 1.5], x.dtype)])
    out = np.empty_like(x)
    with subnormals.keeping_subnormals():
        assert odd_rational_loop.run(form, x, out, flush=False)
    expected = odd_rational.in_numpy(form, x, flush=False)
    np.testing.assert_array_equal(bits(out), bits(expected))
    assert (expected[-3:] != 0).all()  # (erf's and tanh's of subnormals: subnormal, not flushed)


def test_f64_erf_is_the_c_librarys_and_tanh_of_complex_numpys() -> None:
    """The forms cover what XLA:CPU approximates itself, nothing else."""
    assert odd_rational.named("xla_erf", "float64") is None
    assert odd_rational.named("xla_tanh", "float64") is xla_tanh.F64
    z = np.array([0.5 + 1j, -2 - 0.25j], np.complex64)
    np.testing.assert_array_equal(xla_tanh.tanh(z), np.tanh(z))


TIER_MODULE = """HloModule m

ENTRY main {
  a = f32[4096] parameter(0)
  b = f64[4096] parameter(1)
  t = f32[4096] tanh(a)
  e = f32[4096] erf(a)
  s = f32[4096] add(t, e)
  u = f64[4096] tanh(b)
  ROOT r = (f32[4096], f64[4096]) tuple(s, u)
}
"""


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
def test_the_fusion_tier_calls_the_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    """tanh (f32, f64) and f32 erf run compiled inside fused groups, with the interpreter's bits."""
    from hlo.numerics import entry_tier, fused_source, fusion_tier

    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)
    monkeypatch.setattr(fusion, "MIN_MEMBERS", 1)
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)
    monkeypatch.setattr(fused_source, "BLOCK_ELEMENTS", 1000)  # (several blocks)
    rng = np.random.default_rng(3)
    a = rng.uniform(-9, 9, 4096).astype(np.float32)
    b = rng.uniform(-21, 21, 4096)
    module = hlo.parse_module(TIER_MODULE)
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    got = compiled(a, b)
    want = hlo.run(module, a, b, jit="off")
    for g, w in zip(got, want):
        np.testing.assert_array_equal(bits(g), bits(w))
    groups = [s.fn for s in compiled.entry.steps if isinstance(s.fn, fusion_tier.CompiledGroup)]
    assert groups and all(g.compiled_calls for g in groups)


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
def test_the_entry_tier_calls_the_loops_and_leaves_f64_erf(monkeypatch: pytest.MonkeyPatch) -> None:
    from hlo.numerics import jit_entry

    monkeypatch.setattr(jit_entry, "MIN_INSTRUCTIONS", 1)
    rng = np.random.default_rng(4)
    a = rng.uniform(-9, 9, 4096).astype(np.float32)
    b = rng.uniform(-21, 21, 4096)
    module = hlo.parse_module(TIER_MODULE)
    executable = Executable(module, RunOptions(jit="eager"))
    got = executable(a, b)
    assert executable.compiled is not None and executable.compiled.kernel.fn is not None
    want = hlo.run(module, a, b, jit="off")
    for g, w in zip(got, want):
        np.testing.assert_array_equal(bits(g), bits(w))
    f64_erf = hlo.parse_module(TIER_MODULE.replace("u = f64[4096] tanh(b)", "u = f64[4096] erf(b)"))
    refused = Executable(f64_erf, RunOptions(jit="eager"))
    got = refused(a, b)
    assert refused.compiled is None or refused.compiled.kernel.fn is None
    np.testing.assert_array_equal(bits(got[1]), bits(hlo.run(f64_erf, a, b, jit="off")[1]))


@pytest.mark.skipif(not LLVMLITE, reason="llvmlite is not installed")
def test_small_arrays_take_numpy_until_the_loop_is_compiled_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first result of a small array does not wait for llvmlite; enough small calls compile
    the loop in a background thread, and later calls use it; a large array waits for it."""
    import threading

    from hlo.numerics import native_image, odd_rational_loop

    monkeypatch.setattr(native_image, "_loaded", lambda image: None)  # (llvmlite's way: no image)
    monkeypatch.setattr(odd_rational_loop, "_addresses", {})
    monkeypatch.setattr(odd_rational_loop, "_aside", set())
    monkeypatch.setattr(odd_rational, "_numpy_elements", {})
    compiled = threading.Event()
    real = odd_rational_loop._compile

    def compile_and_tell(form: odd_rational.OddRational) -> int:
        address = real(form)
        compiled.set()
        return address

    monkeypatch.setattr(odd_rational_loop, "_compile", compile_and_tell)
    x = np.linspace(-3, 3, 1000, dtype=np.float32)
    odd_rational.evaluate(xla_tanh.F32, x)
    assert odd_rational_loop.usable(xla_tanh.F32) is None and not compiled.is_set()
    for _ in range(odd_rational.BACKGROUND_AFTER // (x.size + odd_rational.CALL_ELEMENTS)):
        odd_rational.evaluate(xla_tanh.F32, x)
    assert compiled.wait(60)
    assert odd_rational_loop.usable(xla_tanh.F32)
    assert odd_rational_loop.usable(xla_tanh.F64) is None
    big = np.linspace(-30, 30, odd_rational.COMPILED_MIN_ELEMENTS // odd_rational.F64_WEIGHT)
    odd_rational.evaluate(xla_tanh.F64, big)
    assert odd_rational_loop.usable(xla_tanh.F64)


@pytest.mark.skipif(not LLVMLITE, reason="llvmlite is not installed")
def test_a_loop_that_cannot_be_compiled_leaves_numpy_its_work(monkeypatch: pytest.MonkeyPatch) -> None:
    from hlo.numerics import native_image, odd_rational_loop

    monkeypatch.setattr(native_image, "_loaded", lambda image: None)  # (llvmlite's way: no image)
    monkeypatch.setattr(odd_rational_loop, "_addresses", {})

    def fail(form: odd_rational.OddRational) -> int:
        raise RuntimeError("no LLVM here")

    monkeypatch.setattr(odd_rational_loop, "_compile", fail)
    x = np.linspace(-9, 9, odd_rational.COMPILED_MIN_ELEMENTS, dtype=np.float32)
    with subnormals.flushing_subnormals(True):
        got = odd_rational.evaluate(xla_tanh.F32, x)
    np.testing.assert_array_equal(bits(got), bits(odd_rational.in_numpy(xla_tanh.F32, x)))
    assert odd_rational_loop.usable(xla_tanh.F32) is False
    with pytest.raises(RuntimeError, match="could not be compiled"):
        odd_rational_loop.address(xla_tanh.F32)  # (the compiled tiers then keep the interpreter)
