"""The compiled scatter tier (numerics/scatter_tier.py): a scatter with a recognised combiner,
compiled by numba, gives bit for bit XLA:CPU's values on every scatter op fixture (duplicates
whose f32 sums cancel show the update order; every index type; windows that do not fit) and the
interpreter's on generated scatters; what it does not take stays on the interpreter. Skipped
without numba."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import pytest

import hlo
import test_engine_ops
from hlo.numerics import entry_tier, scatter_tier
from hlo.numerics.context import RunOptions
from hlo.ops import scatter as scatter_ops
from test_fusion_tier import assert_same_bits

pytest.importorskip("numba")


def scatters(executable: hlo.Executable) -> list[scatter_tier.CompiledScatter]:
    plans = {id(p): p for p in [executable.entry, *executable.context.plans.values()]}
    return [s.fn for p in plans.values() for s in p.steps if isinstance(s.fn, scatter_tier.CompiledScatter)]


def _scatter_cases() -> list[tuple[str, int]]:
    return [
        (f, k)
        for f, k in test_engine_ops.cases()
        if " scatter(" in str(test_engine_ops.data(f)[f"case{k}_hlo"])
    ]


@pytest.fixture
def no_entry_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)


@pytest.mark.parametrize(("family", "k"), _scatter_cases(), ids=lambda x: str(x))
def test_op_fixtures_hold_with_the_tier_forced_on(family: str, k: int, no_entry_tier: None) -> None:
    """Every scatter op fixture against XLA:CPU with jit="eager" (each scatter the tier takes
    runs compiled from its first call)."""
    test_engine_ops.check_case(family, k, RunOptions(jit="eager"))


def test_the_forced_op_fixtures_compile(no_entry_tier: None) -> None:
    """The fixtures above really run compiled (a refused scatter would pass trivially): every
    f32 one whose computation is one add, multiply, maximum or minimum of its parameters (the
    others: computations run lifted, narrow floats, s4)."""
    taken = 0
    for family, k in _scatter_cases():
        d = test_engine_ops.data(family)
        module = hlo.parse_module(str(d[f"case{k}_hlo"]))
        executable = hlo.compile_module(module, RunOptions(jit="eager"))
        types = [str(t) for t in d[f"case{k}_types"]]
        args = [test_engine_ops.decode(d[f"case{k}_arg{j}"], types[j]) for j in range(len(types) - 1)]
        executable(*args)
        c = module.computation(module.entry.root.attrs["to_apply"])
        known = c.root.opcode.text in ("add", "multiply", "maximum", "minimum") and len(c.instructions) == 3
        if types[0] == "f32" and known:
            assert any(s.compiled_calls for s in scatters(executable)), (family, k)
            taken += 1
    assert taken >= 17


COMBINERS = {
    "add": "add",
    "multiply": "multiply",
    "maximum": "maximum",
    "minimum": "minimum",
    "and": "and",
    "or": "or",
    "xor": "xor",
}
FLOATS = ["f32", "f64"]
INTEGERS = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]
INDEX_TYPES = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]


def scatter_text(
    t: str, combiner: str, it: str, shape: tuple[int, int], count: int, width: int, rows: bool
) -> str:
    """A scatter of `count` updates into T[shape]: whole rows of `width` (rows) at indices of
    dimension 0, or windows [1, width] at (row, column) index pairs."""
    n, m = shape
    if combiner == "replace":
        body = "  ROOT r = T[] parameter(1)"
        head = "  a = T[] parameter(0)\n"
    else:
        head = "  a = T[] parameter(0)\n  b = T[] parameter(1)\n"
        body = f"  ROOT r = T[] {combiner}(a, b)"
    if rows:
        idx, upd = f"{it}[{count},1]", f"T[{count},{m}]"
        dims = "update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}"
    else:
        idx, upd = f"{it}[{count},2]", f"T[{count},1,{width}]"
        dims = "update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}"
    text = (
        f"HloModule m\n\nf {{\n{head}{body}\n}}\n\nENTRY main {{\n"
        f"  x = T[{n},{m}] parameter(0)\n  i = {idx} parameter(1)\n  u = {upd} parameter(2)\n"
        f"  ROOT s = T[{n},{m}] scatter(x, i, u), {dims}, index_vector_dim=1, to_apply=f\n}}\n"
    )
    return text.replace("T[", f"{t}[")


def values(t: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    dtype = np.dtype(hlo.parse_shape(f"{t}[]").element_type.numpy_dtype)
    if t == "pred":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    # cancelling sums, signed zeros, NaN, infinities and subnormals: where the order or the
    # combiner's rule for ties shows
    pool = np.array([1e8, -1e8, 1.0, -1.0, 0.5, 0.0, -0.0, np.nan, np.inf, -np.inf, 1e-40, -1e-40, 3e-39])
    picked = rng.choice(pool, shape).astype(dtype)
    return np.where(rng.random(shape) < 0.5, picked, rng.standard_normal(shape).astype(dtype))


def indices(it: str, shape: tuple[int, ...], high: int, rng: np.random.Generator) -> np.ndarray:
    dtype = np.dtype(hlo.parse_shape(f"{it}[]").element_type.numpy_dtype)
    info = np.iinfo(dtype)
    got = rng.integers(0, min(high + 2, int(info.max)), shape).astype(dtype)  # some out of range
    edge = rng.random(shape) < 0.05
    extreme = np.where(rng.random(shape) < 0.5, info.min, info.max).astype(dtype)
    return np.where(edge, extreme, got)


def generated() -> list[tuple[str, str, str, bool, int]]:
    cases = []
    seed = 0
    for t in [*FLOATS, *INTEGERS, "pred"]:
        kinds = ["add", "multiply", "maximum", "minimum", "replace"]
        if t not in FLOATS:
            kinds += ["and", "or", "xor"]
        for kind in kinds:
            for rows in (True, False):
                cases.append((t, kind, INDEX_TYPES[seed % len(INDEX_TYPES)], rows, seed))
                seed += 1
    return cases


@pytest.mark.parametrize(("t", "kind", "it", "rows", "seed"), generated(), ids=lambda x: str(x))
def test_generated_scatters_match_the_interpreter(
    t: str, kind: str, it: str, rows: bool, seed: int, no_entry_tier: None
) -> None:
    """Random scatters (duplicate indices, windows that do not fit, every combiner, element and
    index type) compiled give the interpreter's bits."""
    rng = np.random.default_rng(seed)
    shape, count, width = (7, 5), 40, 3
    text = scatter_text(t, COMBINERS.get(kind, kind), it, shape, count, width, rows)
    module = hlo.parse_module(text)
    x = values(t, shape, rng)
    i = indices(it, (count, 1 if rows else 2), shape[0] if rows else shape[1], rng)
    u = values(t, (count, shape[1]) if rows else (count, 1, width), rng)
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    got = compiled(x, i, u)
    assert [s.compiled_calls for s in scatters(compiled)] == [1]
    assert_same_bits(got, hlo.run(module, x, i, u, jit="off"))


def test_the_embedding_gradient_matches_the_interpreter(no_entry_tier: None) -> None:
    """Rows of 64 with many repeated ids (the windows as one run, the loop's sliced form)."""
    rng = np.random.default_rng(7)
    module = hlo.parse_module(scatter_text("f32", "add", "s32", (50, 64), 500, 0, True))
    x = np.zeros((50, 64), np.float32)
    i = rng.integers(-2, 52, (500, 1)).astype(np.int32)
    u = values("f32", (500, 64), rng)
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    assert_same_bits(compiled(x, i, u), hlo.run(module, x, i, u, jit="off"))
    assert scatters(compiled)[0].compiled_calls == 1


def run_calls(options: RunOptions, count: int = 3) -> tuple[Any, list[scatter_tier.CompiledScatter]]:
    module = hlo.parse_module(scatter_text("f32", "add", "s32", (8, 4), 6, 0, True))
    compiled = hlo.compile_module(module, options)
    args = (
        np.zeros((8, 4), np.float32),
        np.arange(6, dtype=np.int32).reshape(6, 1) % 3,
        np.ones((6, 4), np.float32),
    )
    for _ in range(count):
        got = compiled(*args)
    return got, scatters(compiled)


def test_jit_off_never_compiles() -> None:
    assert run_calls(RunOptions(jit="off"))[1] == []


def test_auto_leaves_small_scatters_and_takes_large_ones(
    no_entry_tier: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """jit="auto": below AUTO_MIN_ELEMENTS the interpreter alone; above, the first call is the
    interpreter's and the compiled loop takes over once ready."""
    assert run_calls(RunOptions())[1] == []
    monkeypatch.setattr(scatter_ops, "AUTO_MIN_ELEMENTS", 1)
    got, (step,) = run_calls(RunOptions(), count=1)
    assert step.compiled_calls == 0 and step.calls == 1  # the first call: interpreted, nothing started
    assert step.kernel is None
    np.testing.assert_array_equal(got[:3], 2 * np.ones((3, 4), np.float32))


def test_a_failed_compilation_leaves_the_interpreter(
    no_entry_tier: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(self: Any, dtype: Any) -> Any:
        raise RuntimeError("no compiler here")

    monkeypatch.setattr(scatter_tier._Kernel, "compile", broken)
    monkeypatch.setattr(scatter_tier, "_kernels", {})
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        got, (step,) = run_calls(RunOptions(jit="eager"))
    assert step.compiled_calls == 0 and step.kernel is not None and step.kernel.failed
    assert "stays on the interpreter: no compiler here" in caplog.text
    np.testing.assert_array_equal(got[:3], 2 * np.ones((3, 4), np.float32))


def test_a_compilation_that_fails_once_is_tried_again(
    no_entry_tier: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A failure that passes (another process writing the same disk-cache entry) does not leave
    the process on the interpreter: the kernel is compiled on the second try."""
    compile_ = scatter_tier._Kernel.compile
    failures = [RuntimeError("the cache entry was being written")]

    def once(self: Any, dtype: Any) -> Any:
        if failures:
            raise failures.pop()
        return compile_(self, dtype)

    monkeypatch.setattr(scatter_tier._Kernel, "compile", once)
    monkeypatch.setattr(scatter_tier, "_kernels", {})
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        got, (step,) = run_calls(RunOptions(jit="eager"))
    assert "failed to compile, once more: the cache entry was being written" in caplog.text
    assert step.kernel is not None and not step.kernel.failed and step.compiled_calls >= 1
    np.testing.assert_array_equal(got[:3], 2 * np.ones((3, 4), np.float32))


def test_a_failed_run_goes_back_to_the_interpreter(
    no_entry_tier: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    module = hlo.parse_module(scatter_text("f32", "add", "s32", (8, 4), 6, 0, True))
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    args = (np.zeros((8, 4), np.float32), np.zeros((6, 1), np.int32), np.ones((6, 4), np.float32))
    compiled(*args)
    (step,) = scatters(compiled)
    kernel = step.kernel
    assert kernel is not None and kernel.fn is not None

    def broken(*args: Any) -> None:
        raise RuntimeError("bad run")

    fn = kernel.fn
    try:
        kernel.fn = broken
        with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
            got = compiled(*args)
        assert "goes back to the interpreter: bad run" in caplog.text
        assert got[0].tolist() == [6.0] * 4
    finally:
        kernel.fn, kernel.failed = fn, False  # (shared by the process: the other tests use it)


@pytest.mark.parametrize("t", ["bf16", "f16", "c64", "s4"])
def test_types_it_does_not_take_stay_interpreted(t: str, no_entry_tier: None) -> None:
    module = hlo.parse_module(scatter_text(t, "add", "s32", (4, 2), 3, 0, True))
    assert scatters(hlo.compile_module(module, RunOptions(jit="eager"))) == []


def test_lifted_computations_stay_interpreted(no_entry_tier: None) -> None:
    text = scatter_text("f32", "subtract", "s32", (4, 2), 3, 0, True)
    assert scatters(hlo.compile_module(hlo.parse_module(text), RunOptions(jit="eager"))) == []
