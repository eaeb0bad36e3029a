"""The compiled fusion tier (numerics/fusion_tier.py): a fused group and the trailing reduces
that read it, compiled by numba, give bit for bit the interpreter's values (which the corpus and
the reduce fixtures hold against XLA:CPU); groups it cannot compile stay on the interpreter.
Skipped without numba (the interpreter then runs alone)."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import hlo
import test_engine_ops
from hlo.numerics import entry_tier, fused_source, fusion_tier, jit_codegen, jit_numba
from hlo.numerics.context import RunOptions
from hlo.runtime import fused_group, fusion
from test_engine_programs import leaves, load

pytest.importorskip("numba")

REDUCERS = """
add {
  a = T[] parameter(0)
  b = T[] parameter(1)
  ROOT r = T[] add(a, b)
}

max {
  a = T[] parameter(0)
  b = T[] parameter(1)
  ROOT r = T[] maximum(a, b)
}

min {
  a = T[] parameter(0)
  b = T[] parameter(1)
  ROOT r = T[] minimum(a, b)
}
"""

# (line, operands it takes from the values so far): each makes a T[R,N] value `v<k>`
UNARY = ["exponential", "sinh", "sine", "cbrt", "tanh", "negate", "abs", "rsqrt", "logistic", "floor"]
BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum"]


def group_text(t: str, rows: int, n: int, seed: int) -> str:
    """A random fused group over T[rows, n] (elementwise ops, ufuncs, compare/select, clamp,
    convert, broadcasts of a row and a scalar) with sum, max and min reduces of its values over
    the trailing dimension, and a second group that reads a reduce's result."""
    rng = np.random.default_rng(seed)
    s = f"T[{rows},{n}]"
    lines = [
        f"x = {s} parameter(0)",
        f"y = {s} parameter(1)",
        f"w = T[{n}] parameter(2)",
        "c = T[] parameter(3)",
        f"v0 = {s} broadcast(w), dimensions={{1}}",
        f"v1 = {s} broadcast(c), dimensions={{}}",
        f"v2 = {s} multiply(x, v0)",
        f"v3 = {s} add(v2, y)",
    ]
    count = 4
    for _ in range(10):
        pick = [f"v{k}" for k in rng.choice(count, 3)] + ["x", "y"]
        kind = rng.integers(5)
        if kind == 0:
            line = f"{s} {UNARY[rng.integers(len(UNARY))]}({pick[0]})"
        elif kind == 1:
            lines.append(f"p{count} = pred[{rows},{n}] compare({pick[0]}, {pick[1]}), direction=GT")
            line = f"{s} select(p{count}, {pick[1]}, {pick[2]})"
        elif kind == 2:
            line = f"{s} clamp(v1, {pick[0]}, {pick[3]})"
        elif kind == 3:
            other = "f64" if t == "f32" else "f32"
            lines.append(f"q{count} = {other}[{rows},{n}] convert({pick[0]})")
            line = f"{s} convert(q{count})"
        else:
            line = f"{s} {BINARY[rng.integers(len(BINARY))]}({pick[0]}, {pick[1]})"
        lines.append(f"v{count} = {line}")
        count += 1
    last = f"v{count - 1}"
    lines += [
        "zero = T[] constant(0)",
        "ninf = T[] constant(-inf)",
        "pinf = T[] constant(inf)",
        f"sum = T[{rows}] reduce({last}, zero), dimensions={{1}}, to_apply=add",
        f"big = T[{rows}] reduce(v{count - 2}, ninf), dimensions={{1}}, to_apply=max",
        f"small = T[{rows}] reduce(x, pinf), dimensions={{1}}, to_apply=min",
        f"rb = {s} broadcast(sum), dimensions={{0}}",
        f"d = {s} divide({last}, rb)",
        f"ROOT out = ({s}, T[{rows}], T[{rows}], T[{rows}], {s}) tuple({last}, sum, big, small, d)",
    ]
    body = "\n".join(f"  {line}" for line in lines)
    return f"HloModule g\n{REDUCERS}\nENTRY e {{\n{body}\n}}\n".replace("T[", f"{t}[")


def special_values(t: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Normal values with subnormals, NaN, inf and -0 sprinkled in."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(np.float32 if t == "f32" else np.float64)
    x = rng.standard_normal(shape).astype(dtype)
    tiny = np.finfo(dtype).tiny
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, tiny / 4, -tiny / 3, tiny], dtype)
    where = rng.random(shape) < 0.02
    x[where] = rng.choice(specials, int(where.sum()))
    return x


def compiled_groups(executable: hlo.Executable) -> list[fusion_tier.CompiledGroup]:
    return [s.fn for s in executable.entry.steps if isinstance(s.fn, fusion_tier.CompiledGroup)]


def assert_same_bits(a: object, b: object) -> None:
    """The same bits, but for a NaN's sign and payload (as the XLA:CPU fixtures are held): where
    two NaNs meet in a sum, x86 keeps the first operand's, and neither NumPy's loops nor the
    compiled code promise which operand comes first."""
    for x, y in zip(leaves(a), leaves(b), strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape
        if x.dtype.kind == "f":
            nan = np.isnan(x)
            assert (nan == np.isnan(y)).all(), (x, y)
            x, y = np.where(nan, 0, x), np.where(nan, 0, y)
        assert x.tobytes() == y.tobytes(), (x, y)


@pytest.mark.parametrize("flush", [True, False], ids=["flush", "keep"])
@pytest.mark.parametrize(
    ("t", "rows", "n", "seed"),
    [("f32", 37, 1000, 1), ("f32", 9, 5000, 2), ("f64", 41, 1024, 3), ("f64", 5, 4500, 4)],
)
def test_compiled_groups_give_the_interpreters_bits(
    t: str, rows: int, n: int, seed: int, flush: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows of fewer and more than 4096 elements (a partial block of 1024, one block, several),
    blocks that do not divide the rows, special values everywhere."""
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)
    monkeypatch.setattr(fused_source, "BLOCK_ELEMENTS", 7 * n)  # 7 rows a block: a partial last one
    module = hlo.parse_module(group_text(t, rows, n, seed))
    args = [special_values(t, (rows, n), seed), special_values(t, (rows, n), seed + 10)]
    args += [special_values(t, (n,), seed + 20), special_values(t, (), seed + 30) + 1]
    compiled = hlo.compile_module(module, RunOptions(jit="eager", flush_denormals=flush))
    expected = hlo.run(module, *args, jit="off", flush_denormals=flush)
    assert_same_bits(expected, compiled(*args))
    groups = compiled_groups(compiled)
    assert groups and all(g.compiled_calls == 1 for g in groups)  # it ran compiled
    # the sum and the max went into the first group; the min, of a parameter, runs alone
    assert sum(1 for g in groups for o in g.source.outputs if o.rank == 1) == 3
    assert sum(1 for g in groups if g.single) == 1


def test_large_row_sums_give_the_interpreters_bits() -> None:
    """Rows of 1111 elements (a block and a partial one) over 600 results, values over seven
    orders of magnitude (every grouping gives different bits): the interpreter's vector-kernel
    order, which tests/golden/ops/exact_vector_sums.npz pins to XLA:CPU's."""
    rng = np.random.default_rng(5)
    for t, dtype in (("f32", np.float32), ("f64", np.float64)):
        text = f"""HloModule s
{REDUCERS.replace("T[", f"{t}[")}
ENTRY e {{
  x = {t}[600,1111] parameter(0)
  one = {t}[] constant(1)
  b = {t}[600,1111] broadcast(one), dimensions={{}}
  m = {t}[600,1111] multiply(x, b)
  a = {t}[600,1111] add(m, m)
  zero = {t}[] constant(0)
  ROOT s = {t}[600] reduce(a, zero), dimensions={{1}}, to_apply=add
}}
"""
        module = hlo.parse_module(text)
        x = (rng.standard_normal((600, 1111)) * 10.0 ** rng.integers(-3, 4, (600, 1111))).astype(dtype)
        compiled = hlo.compile_module(module, RunOptions(jit="eager"))
        assert_same_bits(hlo.run(module, x, jit="off"), compiled(x))
        assert compiled_groups(compiled)[0].kernel.fn is not None


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fusion, "BLOCK_ELEMENTS", 3)
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)
    monkeypatch.setattr(fused_source, "BLOCK_ELEMENTS", 5)


@pytest.mark.parametrize("name", ["elementwise", "mlp_grad", "transformer_block"])
def test_programs_give_the_same_bits_with_the_tier_forced_on(
    name: str, tiny_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Programs of the corpus (XLA:CPU's outputs), every group compiled where it can be (the
    entry tier, which would compile these small entries whole, kept out)."""
    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)
    module, args, expected = load(name, False)
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    got = leaves(compiled(*args))
    assert_same_bits(tuple(leaves(hlo.run(module, *args, jit="off", fuse=False))), tuple(got))
    assert any(g.compiled_calls for g in compiled_groups(compiled))
    for g, e in zip(got, expected):
        if e.dtype.kind in "fc":
            np.testing.assert_allclose(g.astype(e.dtype), e, rtol=2e-4, atol=1e-5)


FALLBACK = """HloModule f
ENTRY e {
  x = f32[600,500] parameter(0)
  a = f32[600,500] atan2(x, x)
  ROOT b = f32[600,500] add(a, x)
}
"""


def test_a_group_the_tier_cannot_compile_stays_on_the_interpreter(caplog: pytest.LogCaptureFixture) -> None:
    module = hlo.parse_module(FALLBACK)
    x = np.linspace(-3, 3, 300000, dtype=np.float32).reshape(600, 500)
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    assert not compiled_groups(compiled)
    assert "stays on the interpreter: atan2" in caplog.text
    assert_same_bits(hlo.run(module, x, jit="off"), compiled(x))


FALLBACK_WITH_A_SUM = """HloModule f

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

ENTRY e {
  x = f32[600,500] parameter(0)
  a = f32[600,500] atan2(x, x)
  b = f32[600,500] add(a, x)
  z = f32[] constant(0)
  ROOT s = f32[600] reduce(b, z), dimensions={1}, to_apply=add
}
"""


def test_a_refused_group_keeps_the_value_its_sum_reads() -> None:
    """A group refused at plan time, whose value only a trailing sum reads: the sum stays a step
    of its own and the group still gives it the value (it gave None once: the run failed)."""
    module = hlo.parse_module(FALLBACK_WITH_A_SUM)
    x = np.linspace(-3, 3, 300000, dtype=np.float32).reshape(600, 500)
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    assert_same_bits(hlo.run(module, x, jit="off"), compiled(x))


@pytest.mark.parametrize(
    ("error", "logged"),
    [
        (jit_codegen.Unsupported, "the fused group of total stays on the interpreter: a form refused"),
        (RuntimeError, "a fused group stays on the interpreter: a form refused"),
    ],
)
def test_a_lone_reduce_the_tier_cannot_write_stays_on_the_interpreter(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, error: type[Exception], logged: str
) -> None:
    """A large row sum no group makes is compiled alone; a form its generator refuses (the log
    names the reduce: the group has no members to name), or a failure of the generator itself,
    leaves it interpreted."""

    def refuse(*args: object) -> None:
        raise error("a form refused for the test")

    monkeypatch.setattr(fused_source, "_generate", refuse)
    module = hlo.parse_module(LONE_SUM)
    x = special_values("f32", (64, 5000), 0)
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        compiled = hlo.compile_module(module, RunOptions(jit="eager"))
        assert compiled_groups(compiled)
        got = compiled(x)
    assert logged in caplog.text
    assert_same_bits(hlo.run(module, x, jit="off"), got)
    np.testing.assert_allclose(got, x.astype(np.float64).sum(axis=1), rtol=1e-5)


LONE_SUM = """
HloModule lone
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[64,5000] parameter(0)
  zero = f32[] constant(0)
  ROOT total = f32[64] reduce(x, zero), dimensions={1}, to_apply=add
}
"""


def test_a_failed_compilation_falls_back(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("no compiler today")

    monkeypatch.setattr(jit_numba, "compile_function", broken)
    monkeypatch.setattr(fusion_tier, "_kernels", {})
    module = hlo.parse_module(group_text("f32", 300, 1000, 7))
    args = [special_values("f32", (300, 1000), k) for k in range(2)]
    args += [special_values("f32", (1000,), 2), np.float32(2)]
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        compiled = hlo.compile_module(module, RunOptions(jit="eager"))
        got = compiled(*args)
    assert "no compiler today" in caplog.text
    kernels = [g.kernel for g in compiled_groups(compiled) if g.kernel is not None]
    assert kernels and all(k.failed for k in kernels)  # (a group with YNNPACK's exp has none)
    assert_same_bits(hlo.run(module, *args, jit="off"), got)


def test_off_and_unfused_keep_the_interpreter() -> None:
    module = hlo.parse_module(group_text("f32", 300, 1000, 8))
    assert not compiled_groups(hlo.compile_module(module, RunOptions(jit="off")))
    assert not compiled_groups(hlo.compile_module(module, RunOptions(jit="eager", fuse=False)))


def test_auto_compiles_from_the_second_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """jit="auto": the first call is the interpreter's alone; the second starts the compilation
    (in the background) and the calls after it run compiled once it is ready."""
    monkeypatch.setattr(fusion_tier, "_kernels", {})
    monkeypatch.setattr(fused_group, "AUTO_MIN_ELEMENTS", 1000)
    module = hlo.parse_module(group_text("f32", 300, 1000, 9))
    args = [special_values("f32", (300, 1000), k) for k in range(2)]
    args += [special_values("f32", (1000,), 2), np.float32(2)]
    expected = hlo.run(module, *args, jit="off")
    executable = hlo.compile_module(module, RunOptions(jit="auto"))
    assert_same_bits(expected, executable(*args))
    groups = compiled_groups(executable)
    assert groups and all(g.kernel is None for g in groups)  # (not even its source written)
    assert_same_bits(expected, executable(*args))
    assert all(g.kernel is not None and g.kernel.started for g in groups)
    for g in groups:
        assert g.kernel.done.wait(120)
    assert_same_bits(expected, executable(*args))
    assert all(g.kernel.fn is not None for g in groups)


def test_auto_leaves_small_groups_to_the_interpreter() -> None:
    """jit="auto" compiles only groups of AUTO_MIN_ELEMENTS or more; "eager" compiles them all."""
    module = hlo.parse_module(group_text("f32", 300, 1000, 9))
    assert fused_group.AUTO_MIN_ELEMENTS > 300 * 1000
    assert not compiled_groups(hlo.compile_module(module, RunOptions(jit="auto")))
    assert compiled_groups(hlo.compile_module(module, RunOptions(jit="eager")))


INTEGER_OPS = {
    "signed": ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "xor",
               "shift-left", "shift-right-arithmetic"],
    "unsigned": ["add", "subtract", "multiply", "divide", "remainder", "maximum", "or",
                 "shift-right-logical"],
}  # fmt: skip


def integer_text(rows: int, n: int) -> str:
    """One group over every integer type the tier takes and pred: each type's ops on values
    converted from the s32 inputs (wrapping, division by zero, shifts past the width), a
    compare and select per type, negate/abs/not/sign, and a convert to f32 of each result."""
    s = f"[{rows},{n}]"
    lines = [f"x = s32{s} parameter(0)", f"y = s32{s} parameter(1)"]
    outs = []
    for t in ("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"):
        ops = INTEGER_OPS["signed" if t[0] == "s" else "unsigned"]
        lines += [f"{t}_a = {t}{s} convert(x)", f"{t}_b = {t}{s} convert(y)"]
        last = f"{t}_a"
        for k, op in enumerate(ops):
            lines.append(f"{t}_{k} = {t}{s} {op}({last}, {t}_b)")
            last = f"{t}_{k}"
        unary = ["negate", "abs", "sign", "not"] if t[0] == "s" else ["not"]
        for k, op in enumerate(unary):
            lines.append(f"{t}_u{k} = {t}{s} {op}({last})")
            last = f"{t}_u{k}"
        lines += [
            f"{t}_p = pred{s} compare({last}, {t}_b), direction=LT",
            f"{t}_q = pred{s} not({t}_p)",
            f"{t}_s = {t}{s} select({t}_q, {last}, {t}_a)",
            f"{t}_f = f32{s} convert({t}_s)",
        ]
        outs.append(f"{t}_f")
    shapes = ", ".join(f"f32{s}" for _ in outs)
    lines.append(f"ROOT out = ({shapes}) tuple({', '.join(outs)})")
    body = "\n".join(f"  {line}" for line in lines)
    return f"HloModule ints\n\nENTRY e {{\n{body}\n}}\n"


def test_integer_and_predicate_groups_give_the_interpreters_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)  # (small values)
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)
    monkeypatch.setattr(fused_source, "BLOCK_ELEMENTS", 64)  # many blocks, a partial last one
    module = hlo.parse_module(integer_text(13, 50))
    rng = np.random.default_rng(11)
    x = rng.integers(-(2**31), 2**31, (13, 50), dtype=np.int64).astype(np.int32)
    y = rng.integers(-40, 40, (13, 50)).astype(np.int32)  # zeros, negative and long shifts
    x[0, :8] = [0, -1, 1, 2**31 - 1, -(2**31), 255, -128, 65535]
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    assert_same_bits(hlo.run(module, x, y, jit="off"), compiled(x, y))
    groups = compiled_groups(compiled)
    assert len(groups) == 8 and all(g.compiled_calls == 1 for g in groups)  # a group per type


TWO_SIZES = """HloModule two
ENTRY e {
  x = f32[300,100] parameter(0)
  y = f32[500,100] parameter(1)
  a = f32[300,100] multiply(x, x)
  b = f32[300,100] maximum(a, x)
  c = f32[500,100] multiply(y, y)
  d = f32[500,100] maximum(c, y)
  ROOT t = (f32[300,100], f32[500,100]) tuple(b, d)
}
"""


def test_groups_differing_only_in_rows_share_a_function(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two groups are the same source (the number of rows is an argument): one compiled
    function, each call with its own rows and outputs."""
    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)  # (small values)
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)
    module = hlo.parse_module(TWO_SIZES)
    x, y = special_values("f32", (300, 100), 1), special_values("f32", (500, 100), 2)
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    assert_same_bits(hlo.run(module, x, y, jit="off"), compiled(x, y))
    groups = compiled_groups(compiled)
    assert len(groups) == 2 and groups[0].kernel is groups[1].kernel
    assert [g.compiled_calls for g in groups] == [1, 1]


FLOOR_AND_CEIL = """HloModule m
ENTRY e {
  x = f32[300,100] parameter(0)
  y = f32[300,100] parameter(1)
  f = f32[300,100] floor(x)
  a = f32[300,100] multiply(f, y)
  c = f32[300,100] ceil(x)
  b = f32[300,100] multiply(c, y)
  ROOT t = (f32[300,100], f32[300,100]) tuple(a, b)
}
"""


def test_groups_differing_only_in_their_numpy_loops_keep_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """floor(x)*y and ceil(x)*y are the same source but for the NumPy loop they call: each group
    runs its own (the second ran the first one's floor once: a silent wrong answer)."""
    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)  # (small values)
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 2)
    module = hlo.parse_module(FLOOR_AND_CEIL)
    x, y = special_values("f32", (300, 100), 3), special_values("f32", (300, 100), 4)
    compiled = hlo.compile_module(module, RunOptions(jit="eager"))
    assert_same_bits(hlo.run(module, x, y, jit="off"), compiled(x, y))
    assert [g.compiled_calls for g in compiled_groups(compiled)] == [1, 1]


@pytest.mark.parametrize(("family", "k"), test_engine_ops.cases(), ids=lambda x: str(x))
def test_op_fixtures_hold_with_the_tier_forced_on(
    family: str, k: int, tiny_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every op fixture against XLA:CPU with the tier forced on: blocks of a few elements and a
    single instruction made a group, so each elementwise op, compare, convert and trailing reduce
    the tier takes runs compiled (about 600 cases; the others stay interpreted)."""
    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)
    monkeypatch.setattr(fusion, "MIN_MEMBERS", 1)
    test_engine_ops.check_case(family, k, RunOptions(jit="eager"))


def test_the_forced_op_fixtures_compile(tiny_blocks: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The forced-on fixtures above really run compiled (a refused group would pass trivially):
    the f32 cases of the elementwise, compare and convert families."""
    monkeypatch.setattr(entry_tier, "for_entry", lambda *args: None)
    monkeypatch.setattr(fusion, "MIN_MEMBERS", 1)
    for family in ("elementwise_unary", "elementwise_binary", "compare", "convert"):
        d = test_engine_ops.data(family)
        k = next(k for f, k in test_engine_ops.cases() if f == family and "f32[" in str(d[f"case{k}_hlo"]))
        compiled = hlo.compile_module(hlo.parse_module(str(d[f"case{k}_hlo"])), RunOptions(jit="eager"))
        compiled(
            *(
                np.zeros(p.dimensions, p.element_type.numpy_dtype)
                for p in compiled.module.entry.parameter_shapes
            )
        )
        assert any(g.compiled_calls for g in compiled_groups(compiled)), family
