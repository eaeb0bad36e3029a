"""exp, expm1 and logistic against XLA:CPU (tests/golden/ops/exact_exp.npz, made by
tools/make_exactness_fixtures.py family "exp") on each of the interpreter's paths: NumPy's
passes (small arrays, or no llvmlite) and the vectorized LLVM loop (hlo.numerics.xla_exp_loop),
forced either way; and the paths' corner cases: NaN's sign, the clamps, expm1 of subnormals."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import hlo
from hlo.numerics import xla_exp_loop
from test_engine_ops import OPS, decode, same_bits

HAS_LLVMLITE = importlib.util.find_spec("llvmlite") is not None


def _real_cases() -> list[int]:
    with np.load(OPS / "exact_exp.npz") as d:
        count = sum(1 for k in d.files if k.endswith("_hlo"))
        return [k for k in range(count) if str(d[f"case{k}_types"][0])[0] in "fb"]


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "llvm"])
@pytest.mark.parametrize("k", _real_cases())
def test_each_path_gives_xla_cpus_bits(k: int, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled and not HAS_LLVMLITE:
        pytest.skip("llvmlite is not installed")
    monkeypatch.setattr(xla_exp_loop, "takes", lambda size: compiled)
    with np.load(OPS / "exact_exp.npz") as d:
        text = str(d[f"case{k}_hlo"])
        types = [str(t) for t in d[f"case{k}_types"]]
        x = decode(d[f"case{k}_arg0"], types[0])
        want = decode(d[f"case{k}_out"], types[-1])
    got = hlo.compile_module(hlo.parse_module(text), hlo.RunOptions(jit="off"))(x)
    ok = same_bits(got, want)
    assert ok.all(), f"{text.splitlines()[-2].strip()}: {x[~ok][:4]} gave {got[~ok][:4]}, not {want[~ok][:4]}"


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "llvm"])
@pytest.mark.parametrize("t", ["f32", "f64"])
def test_nan_sign_clamps_and_subnormals(t: str, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """XLA:CPU (jaxlib 0.10.2): exp and expm1 keep a NaN's sign, logistic flips it (1/(1 +
    exp(-x))); exp(-inf) = 0, exp(inf) = inf, expm1(-inf) = -1; the f32 clamp at -87.8 gives
    exactly 0 (2^-127 built from bits), and expm1 returns a subnormal input as it is."""
    if compiled and not HAS_LLVMLITE:
        pytest.skip("llvmlite is not installed")
    monkeypatch.setattr(xla_exp_loop, "takes", lambda size: compiled)
    dtype = np.float32 if t == "f32" else np.float64
    tiny = np.finfo(dtype).tiny
    x = np.array([np.nan, -np.nan, np.inf, -np.inf, -87.8, tiny / 4], dtype)

    def run(op: str) -> np.ndarray:
        text = f"HloModule m\n\nENTRY main {{\n  a = {t}[6] parameter(0)\n  ROOT r = {t}[6] {op}(a)\n}}\n"
        return hlo.compile_module(hlo.parse_module(text), hlo.RunOptions(jit="off"))(x)  # type: ignore[no-any-return]

    e, m, s = run("exponential"), run("exponential-minus-one"), run("logistic")
    assert list(np.signbit(e[:2])) == [False, True] and list(np.signbit(m[:2])) == [False, True]
    assert list(np.signbit(s[:2])) == [True, False] and np.isnan(s[:2]).all()
    assert e[2] == np.inf and e[3] == 0 and m[3] == -1 and s[2] == 1 and s[3] == 0
    assert (e[4] == 0) == (t == "f32")
    assert m[5].tobytes() == x[5].tobytes()
