"""XLA:CPU's log and log1p (numerics/xla_log.py): both forms, NumPy's with the exact FMA and the
machine code (numerics/xla_log_loop.py: made ahead of time, or llvmlite's from xla_log_llvm.py),
give XLA:CPU's bits on the fixture tests/golden/ops/exact_log.npz
(tools/make_exactness_fixtures.py, family "log"), in the CPU's flush-to-zero mode and with
software flushing."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from hlo.numerics import subnormals, xla_log
from test_engine_ops import check_case, data

LOG_CASES = [
    k
    for k in range(sum(1 for name in data("exact_log").files if name.endswith("_hlo")))
    if "log" in str(data("exact_log")[f"case{k}_hlo"])
]
LLVMLITE = importlib.util.find_spec("llvmlite") is not None


@pytest.mark.parametrize("software", [False, True], ids=["cpu_mode", "software_flush"])
@pytest.mark.parametrize("form", ["numpy", "machine_code"])
@pytest.mark.parametrize("k", LOG_CASES)
def test_each_form_gives_xla_cpus_bits(
    k: int, form: str, software: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if form == "machine_code" and not LLVMLITE:
        pytest.skip("llvmlite is not installed")
    monkeypatch.setattr(xla_log, "compiled", lambda op, x: form == "machine_code")
    if software:
        monkeypatch.setattr(subnormals, "_mode", lambda: None)
    check_case("exact_log", k)


def test_the_fixture_covers_every_float_type_and_both_ops() -> None:
    texts = [str(data("exact_log")[f"case{k}_hlo"]) for k in LOG_CASES]
    for t in ("f32", "f64", "f16", "bf16"):
        for op in ("log(", "log-plus-one("):
            assert any(f"{t}[2048] {op}" in text for text in texts), (t, op)


def test_f64_log_of_subnormals_is_minus_infinity() -> None:
    """XLA:CPU's f64 log gives -inf for a subnormal of either sign (as for a zero), where the C
    library's log in the flush-to-zero mode gives -745.13 (NaN for a negative one)."""
    x = np.array([1e-310, -1e-310, 5e-324, 0.0, -0.0])
    with subnormals.flushing_subnormals():
        got = xla_log.log_f64(x)
    assert (got == -np.inf).all()


@pytest.mark.skipif(not LLVMLITE, reason="llvmlite is not installed")
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", ["log", "log-plus-one"])
def test_the_two_forms_agree_on_random_values(op: str, dtype: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """The NumPy form and the machine code on 20,000 values of every scale (the fixture pins both
    to XLA:CPU; this reaches more of the polynomials' rounding cases)."""
    from hlo.numerics import xla_log_loop

    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-0.5, 3, 10000), 10.0 ** rng.uniform(-30, 30, 10000)]).astype(dtype)
    if op == "log-plus-one":
        x = x[np.abs(x) < 1]
    monkeypatch.setattr(xla_log, "compiled", lambda op, x: False)
    numpy_form = xla_log.log(x) if op == "log" else xla_log.log1p(x)
    bits = f"u{x.itemsize}"
    assert (numpy_form.view(bits) == xla_log_loop.apply(op, x).view(bits)).all()
