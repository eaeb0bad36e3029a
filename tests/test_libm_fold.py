"""Elementwise ops of constants folded as XLA folds them (hlo.numerics.libm_fold,
hlo.runtime.mlir_folds): which folder takes an op, and what happens where the C math library
or the per-element budget is missing. Values against XLA:CPU: tests/golden/ops/
exact_elementwise_folds.npz (made by tools/make_fold_fixtures.py, run by test_engine_ops.py)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import hlo
from hlo.ir.opcode import Opcode
from hlo.numerics import libm, libm_fold
from hlo.runtime import mlir_folds

# exp(1.0847852), from XLA:CPU: 2.9588041 by its kernel (of a parameter), 2.9588044 folded (of a
# constant: StableHLO's folder, double exp rounded once)
X = np.float32(1.0847852)
CONSTANT = "HloModule m\nENTRY e {\n  c = f32[4] constant({1.0847852, 1, 2, 3})\n  ROOT r = f32[4] exponential(c)\n}\n"  # noqa: E501
PARAMETER = "HloModule m\nENTRY e {\n  c = f32[4] parameter(0)\n  ROOT r = f32[4] exponential(c)\n}\n"
ARG = np.array([X, 1, 2, 3], np.float32)


def _run(text: str, *args: np.ndarray) -> np.ndarray:
    return np.asarray(hlo.run(hlo.parse_module(text), *args, jit="off"))


@pytest.fixture
def no_libm(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    libm.c_function.cache_clear()
    monkeypatch.setattr(libm, "library", lambda: None)
    yield
    libm.c_function.cache_clear()


def test_a_folded_exp_takes_the_folders_value_not_the_kernels() -> None:
    assert _run(CONSTANT)[0] == np.float32(2.9588044)
    assert _run(PARAMETER, ARG)[0] == np.float32(2.9588041)


def test_without_a_c_math_library_the_kernel_folds(no_libm: None) -> None:
    """Where ctypes loads no libm (another platform), folds fall back to the op's kernel."""
    assert libm_fold.fold(Opcode.EXP, [ARG], ARG.dtype, wide=True) is None
    np.testing.assert_array_equal(_run(CONSTANT), _run(PARAMETER, ARG))


def test_beyond_the_call_budget_the_kernel_folds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a compiled call loop, ctypes calls fold up to LIMIT elements."""
    monkeypatch.setattr(libm_fold.libm, "loop_available", lambda dtype, arity: False)
    monkeypatch.setattr(libm_fold, "LIMIT", 3)
    assert libm_fold.fold(Opcode.EXP, [ARG], ARG.dtype, wide=True) is None
    np.testing.assert_array_equal(_run(CONSTANT), _run(PARAMETER, ARG))


def test_a_broadcast_costs_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """The operand's broadcast dimensions are left out: 2^20 elements of one value fold."""
    monkeypatch.setattr(libm_fold, "LIMIT", 1)
    x = np.broadcast_to(X, (1024, 1024))
    value = libm_fold.fold(Opcode.EXP, [x], x.dtype, wide=True)
    assert value is not None and value.shape == (1024, 1024) and value[5, 7] == np.float32(2.9588044)


def test_other_types_are_not_covered() -> None:
    for x in (np.arange(3, dtype=np.int32), np.ones(3, np.complex64)):
        assert libm_fold.fold(Opcode.EXP, [x], x.dtype, wide=False) is None


@pytest.mark.parametrize(
    ("values", "folded"),
    [("{1, 2, 3}", True), ("{1, 0, 3}", False), ("{1, -2, 3}", False), ("{1, nan, 3}", True)],
)
def test_stablehlo_refuses_log_of_values_not_above_zero(values: str, folded: bool) -> None:
    c = np.array([float(v) for v in values.strip("{}").split(", ")], np.float32)
    folds = mlir_folds.MlirFolds()
    module = hlo.parse_module(
        f"HloModule m\nENTRY e {{\n  c = f32[3] constant({values})\n  ROOT r = f32[3] log(c)\n}}\n"
    )
    constant, log = module.entry.instructions
    assert folds.visit(constant, {})
    assert folds.visit(log, {"c": c}) is folded


@pytest.mark.parametrize(
    ("source", "folded"),
    [("f32[] constant(2)", True), ("f32[2] constant({2, 2})", True), ("f32[2] constant({0, -0})", False),
     ("f32[2] iota(), iota_dimension=0", False)],
)  # fmt: skip
def test_stablehlo_folds_broadcasts_of_splats_only(source: str, folded: bool) -> None:
    """A broadcast of one repeated value (by bits: 0 and -0 differ) folds, so an op of it;
    another broadcast and an iota stop the chain (XLA folds what is left, its own way)."""
    dims = "{}" if source.startswith("f32[]") else "{0}"
    module = hlo.parse_module(
        f"HloModule m\nENTRY e {{\n  c = {source}\n  b = f32[2,3] broadcast(c), dimensions={dims}\n"
        "  ROOT r = f32[2,3] tanh(b)\n}\n"
    )
    c, b, r = module.entry.instructions
    folds = mlir_folds.MlirFolds()
    literal = {"f32[] constant(2)": np.float32(2), "f32[2] constant({2, 2})": np.array([2, 2], np.float32),
               "f32[2] constant({0, -0})": np.array([0.0, -0.0], np.float32)}.get(source)  # fmt: skip
    folds.visit(c, {})
    assert folds.visit(b, {} if literal is None else {"c": literal}) is folded
    assert folds.visit(r, {}) is folded


def test_stablehlo_folds_round_double_to_bf16_once() -> None:
    """StableHLO's folder rounds its double results once to bf16 (APFloat); through f32 a double
    just above a bf16 midpoint lands on it and ties to even. Expected values from the definition:
    the nearer bf16 neighbour of the exact double (Fraction arithmetic), ties to the even one."""
    from fractions import Fraction

    import ml_dtypes

    from hlo.numerics.libm_fold import rounded_once

    bf16 = np.dtype(ml_dtypes.bfloat16)
    step = 2.0**-7
    d = np.array(
        [1 + step / 2 + 2.0**-30, 1 + step / 2 - 2.0**-30, 1 + step / 2, 1 + 1.5 * step,
         -(3 + 2.0**-6 + 2.0**-40), 2.0**-130 * (1 + 2.0**-8 + 2.0**-35), 3.4e38, 1e-300,
         -1e-300, np.inf, 0.0]
    )  # fmt: skip
    got = rounded_once(d, bf16)

    with np.errstate(invalid="ignore"):  # (the NaN patterns)
        values = np.arange(1 << 16, dtype=np.uint16).view(bf16).astype(np.float64)
    grid = np.unique(values[np.isfinite(values)])  # every finite bf16, ascending

    def nearest(x: float) -> float:
        if not np.isfinite(x):
            return x
        if abs(Fraction(x)) >= Fraction(grid[-1]) + (Fraction(2**128) - Fraction(grid[-1])) / 2:
            return float(np.copysign(np.inf, x))  # past the midpoint to 2^128: overflows
        k = int(np.searchsorted(grid, x))
        pair = [float(grid[max(k - 1, 0)]), float(grid[min(k, grid.size - 1)])]
        ranked = sorted(
            (abs(Fraction(c) - Fraction(x)), int(np.array(c).astype(bf16).view(np.uint16)) % 2, c)
            for c in pair
        )
        return ranked[0][2]

    want = [nearest(float(x)) for x in d]
    assert [float(v) for v in got] == want
    assert float(d[0].astype(bf16)) != want[0]  # (through f32: the double rounding this avoids)


def test_large_constants_fold_in_the_compiled_loop() -> None:
    """2^17 distinct elements (twice the ctypes budget) fold, each the C function's value (the
    float function for XLA's evaluator, the double one rounded once for StableHLO's folder)."""
    from hlo.numerics import libm

    if not libm.loop_available(np.dtype(np.float32), 1):
        pytest.skip("no compiled call loop here")
    x = np.linspace(-20, 20, 1 << 17, dtype=np.float32)
    for wide in (False, True):
        value = libm_fold.fold(Opcode.EXP, [x], x.dtype, wide=wide, flush=False)
        assert value is not None
        fn = libm.c_function("exp", not wide, 1)
        picked = np.arange(0, x.size, 997)
        want = np.array([fn(float(v)) for v in x[picked]]).astype(np.float32)
        assert np.array_equal(np.asarray(value)[picked].view(np.uint32), want.view(np.uint32))
