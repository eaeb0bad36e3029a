"""The compiled loop tier (hlo.numerics.loop_tier): a compiled while loop gives the interpreter's
bits exactly — random loops over every supported op and type with special values (NaN, infinities,
signed zeros, subnormals, integer extremes), and the corpus of XLA:CPU dumps run with the tier
forced on — and hlo runs the same without numba, with jit="off" or with a loop it cannot
compile."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hlo
from hlo.numerics import loop_tier
from hlo.runtime import Executable
from loop_modules import while_loop_text
from test_engine_programs import RUNNING, leaves, load

numba = pytest.importorskip("numba")

N = 8  # elements per array of the random loops
FLOAT_OPS = [
    "add", "subtract", "multiply", "divide", "maximum", "minimum", "negate", "abs", "sign", "floor",
    "ceil", "round-nearest-afz", "round-nearest-even", "sqrt", "exponential", "log", "sine", "cosine", "tanh",
    "logistic", "rsqrt", "log-plus-one", "exponential-minus-one", "is-finite", "compare",
    "select", "clamp", "to-s32", "to-u8", "to-pred", "to-other-float", "reduce", "broadcast", "slice",
    "dynamic-slice", "dynamic-update-slice", "concatenate", "iota", "transpose", "clamp-scalar",
    "maximum-scalar", "minimum-scalar",
]  # fmt: skip
INT_OPS = [
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
    "not", "shift-left", "shift-right-logical", "shift-right-arithmetic", "compare", "select",
    "clamp", "to-f32", "to-f64", "to-s8", "to-u64", "to-pred", "reduce", "broadcast", "slice",
    "dynamic-slice", "dynamic-update-slice", "concatenate", "iota", "transpose",
]  # fmt: skip
SIGNED_ONLY = {"negate", "abs", "sign"}
UNARY = {
    "negate", "abs", "sign", "floor", "ceil", "round-nearest-afz", "round-nearest-even", "sqrt",
    "exponential", "log", "sine", "cosine", "tanh", "logistic", "rsqrt", "log-plus-one",
    "exponential-minus-one", "not",
}  # fmt: skip


def _op_lines(op: str, t: str, float_type: bool) -> tuple[list[str], str]:
    """Body lines computing `op` of %a and %b (t[N] each) into %r, and r's shape."""
    v = f"{t}[{N}]"
    if op in UNARY:
        return [f"%r = {v} {op}(%a)"], v
    if op == "is-finite":
        return [f"%r = pred[{N}] is-finite(%a)"], f"pred[{N}]"
    if op == "compare":
        kind = "FLOAT" if float_type else ("SIGNED" if t[0] == "s" else "UNSIGNED")
        return [f"%r = pred[{N}] compare(%a, %b), direction=LT, type={kind}"], f"pred[{N}]"
    if op == "select":
        return [f"%p = pred[{N}] compare(%a, %b), direction=GE", f"%r = {v} select(%p, %b, %a)"], v
    if op in ("clamp-scalar", "maximum-scalar", "minimum-scalar"):  # rank 0: the interpreter's scalar path
        pick = [
            f"%x = {t}[1] slice(%b), slice={{[2:3]}}",
            f"%xs = {t}[] reshape(%x)",
            f"%h = {t}[1] slice(%b), slice={{[5:6]}}",
            f"%hs = {t}[] reshape(%h)",
            f"%lo = {t}[] slice-scalar",
        ]
        if op == "clamp-scalar":
            return [*pick, f"%r = {t}[] clamp(%lo, %xs, %hs)"], f"{t}[]"
        return [*pick, f"%r = {t}[] {op[:7]}(%lo, %xs)"], f"{t}[]"
    if op == "clamp":
        return [f"%lo = {t}[] slice-scalar", f"%r = {v} clamp(%lo, %a, %b)"], v
    if op.startswith("to-"):
        target = {"other-float": "f64" if t == "f32" else "f32"}.get(op[3:], op[3:])
        return [f"%r = {target}[{N}] convert(%a)"], f"{target}[{N}]"
    if op == "reduce":
        return [
            f"%z = {t}[] constant(0)",
            f"%r = {t}[] reduce(%a, %z), dimensions={{0}}, to_apply=%sum",
        ], f"{t}[]"
    if op == "broadcast":
        return [
            f"%lo = {t}[] slice-scalar",
            f"%r = {t}[2,{N}] broadcast(%lo), dimensions={{}}",
        ], f"{t}[2,{N}]"
    if op == "slice":
        return [f"%r = {t}[3] slice(%a), slice={{[1:7:2]}}"], f"{t}[3]"
    if op == "dynamic-slice":
        return [f"%r = {t}[3] dynamic-slice(%a, %i), dynamic_slice_sizes={{3}}"], f"{t}[3]"
    if op == "dynamic-update-slice":
        return [f"%u = {t}[3] slice(%b), slice={{[0:3]}}", f"%r = {v} dynamic-update-slice(%a, %u, %i)"], v
    if op == "concatenate":
        return [f"%r = {t}[{2 * N}] concatenate(%a, %b), dimensions={{0}}"], f"{t}[{2 * N}]"
    if op == "iota":
        return [f"%r = {t}[2,4] iota(), iota_dimension=1"], f"{t}[2,4]"
    if op == "transpose":
        return [f"%m = {t}[2,4] reshape(%a)", f"%r = {t}[4,2] transpose(%m), dimensions={{1,0}}"], f"{t}[4,2]"
    return [f"%r = {v} {op}(%a, %b)"], v


def loop_text(t: str, ops: list[str], steps: int) -> str:
    """A module whose while loop runs `steps` iterations of a body that computes every op of
    `ops` on the state (a, b) and keeps each result in the state; a and b move on each step."""
    float_type = t[0] == "f"
    results, shapes, body = [], [], []
    for k, op in enumerate(ops):
        lines, shape = _op_lines(op, t, float_type)
        text = "\n".join("  " + line for line in lines)
        text = text.replace("slice-scalar", "reshape(%a1)")
        text = re.sub(r"%(r|p|lo|z|u|m|x|xs|h|hs)\b", lambda m, k=k: f"%{m.group(1)}{k}", text)
        body.append(text)
        results.append(f"%r{k}")
        shapes.append(shape)
    head = [
        f"  %a1 = {t}[1] slice(%a), slice={{[1:2]}}",
        "  %one = s32[] constant(1)",
        "  %next = s32[] add(%i, %one)",
    ]
    reducer = f"""%sum (x: {t}[], y: {t}[]) -> {t}[] {{
  %x = {t}[] parameter(0)
  %y = {t}[] parameter(1)
  ROOT %s = {t}[] add(%x, %y)
}}

"""
    root = f"%next, %b, %r0, {', '.join(results)}"
    return while_loop_text("loop", t, N, shapes, steps, "\n".join(head + body), root, reducer)


def _special(t: np.dtype) -> list[object]:
    if t.kind == "f":
        info = np.finfo(t)
        tiny = float(info.tiny)
        return [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, np.inf, -np.inf, np.nan, tiny / 4, -tiny / 4,
                tiny, float(info.max), -float(info.max), 1e10, -3e9, 300.7, -129.5, 0.1]  # fmt: skip
    info = np.iinfo(t)
    return [
        0,
        1,
        -1 if t.kind == "i" else 2,
        int(info.min),
        int(info.max),
        7,
        31,
        33,
        64,
        100,
        int(info.max) // 3,
    ]


def _arrays(t: np.dtype) -> st.SearchStrategy[np.ndarray]:
    """Special values; for floats also arrays of only zeros and subnormals (the ties of max,
    min and clamp, where flushing decides)."""
    values = st.sampled_from(_special(t))
    if t.kind == "f":
        tiny = float(np.finfo(t).tiny)
        values = st.one_of(values, st.sampled_from([0.0, -0.0, tiny / 4, -tiny / 4]))
    return st.lists(values, min_size=N, max_size=N).map(lambda v: _cast(v, t))


def _cast(values: list[object], t: np.dtype) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # (out-of-range specials wrap, as intended)
        return np.array(values).astype(t)


def zeros_after_three(module: hlo.Module) -> list[np.ndarray]:
    """Zeros for the entry's parameters after the counter and the two state arrays."""
    return [np.zeros(s.dimensions, s.element_type.numpy_dtype) for s in module.entry.parameter_shapes[3:]]


def assert_same_bits(a: object, b: object) -> None:
    for x, y in zip(leaves(a), leaves(b), strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes(), (x, y)


def _ops_for(t: str) -> list[str]:
    if t[0] == "f":
        return FLOAT_OPS
    return [op for op in INT_OPS if t[0] == "s" or op not in SIGNED_ONLY] + (
        ["negate", "abs"] if t[0] == "s" else []
    )


TYPES = ["f32", "f64", "s32", "s8", "u32", "s64", "u64", "u8"]


@pytest.mark.parametrize("flush", [True, False], ids=["flush", "noflush"])
@pytest.mark.parametrize("t", TYPES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_compiled_loop_gives_the_interpreters_bits(t: str, flush: bool, data: st.DataObject) -> None:
    """Every supported op of type t in one loop body (one compilation per type), on random
    special values: compiled and interpreted states agree bit for bit after 3 iterations."""
    module = _module(t)
    dtype = np.dtype(hlo.parse_shape(f"{t}[]").element_type.numpy_dtype)
    a, b = data.draw(_arrays(dtype)), data.draw(_arrays(dtype))
    start = np.array(data.draw(st.integers(-2, 1)), np.int32)
    args = [start, a, b, *zeros_after_three(module)]
    off = hlo.run(module, *args, jit="off", flush_denormals=flush)
    on = hlo.run(module, *args, jit="eager", flush_denormals=flush)
    assert_same_bits(off, on)


_MODULES: dict[str, hlo.Module] = {}


def _module(t: str) -> hlo.Module:
    if t not in _MODULES:
        _MODULES[t] = hlo.parse_module(loop_text(t, _ops_for(t), 3))
    return _MODULES[t]


@pytest.mark.parametrize("t", TYPES)
def test_the_random_loops_compile(t: str) -> None:
    """The loops above really run compiled (a loop the tier refused would pass trivially)."""
    assert_loop_compiles(_module(t))


def assert_loop_compiles(module: hlo.Module) -> None:
    """The module's while loop is compiled (run eagerly on ones and zeros)."""
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    executable = hlo.compile_module(module, hlo.RunOptions(jit="eager"))
    folded = executable.context.folded  # (the plan's values of constants: in the loop's source)
    source = loop_tier.loop_source(
        module, instr.attrs["condition"], instr.attrs["body"], instr.shape, True, folded
    )
    assert source is not None
    ones = np.ones(source.state[1].dimensions, source.state[1].element_type.numpy_dtype)
    executable(np.array(0, np.int32), ones, ones, *zeros_after_three(module))
    assert loop_tier._kernels[source.key].fn is not None


@pytest.mark.parametrize("optimized", [False, True], ids=["hlo", "opt.hlo"])
@pytest.mark.parametrize("name", RUNNING)
def test_programs_give_the_same_bits_with_the_tier_forced_on(name: str, optimized: bool) -> None:
    module, args, _ = load(name, optimized)
    assert_same_bits(hlo.run(module, *args, jit="off"), hlo.run(module, *args, jit="eager"))


def test_the_while_loop_dump_compiles() -> None:
    module, args, _ = load("while_loop")
    before = set(loop_tier._kernels)
    hlo.run(module, *args, jit="eager")
    new = [loop_tier._kernels[k] for k in set(loop_tier._kernels) - before] or list(
        loop_tier._kernels.values()
    )
    assert any(k.fn is not None for k in new)


def test_a_loop_the_tier_cannot_compile_stays_on_the_interpreter() -> None:
    text = loop_text("f32", ["add"], 3).replace("%r0 = f32[8] add(%a, %b)", "%r0 = f32[8] atan2(%a, %b)")
    module = hlo.parse_module(text)
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    assert (
        loop_tier.loop_source(module, instr.attrs["condition"], instr.attrs["body"], instr.shape, True)
        is None
    )
    args = [np.array(0, np.int32), np.ones(N, np.float32), np.ones(N, np.float32), *zeros_after_three(module)]
    assert_same_bits(hlo.run(module, *args, jit="off"), hlo.run(module, *args, jit="eager"))


def test_without_numba_the_interpreter_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loop_tier, "numba_installed", lambda: False)
    module = hlo.parse_module(loop_text("f32", ["add", "exponential"], 5))
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    plan_context = type("C", (), {"options": hlo.RunOptions(jit="eager"), "module": module})()
    assert loop_tier.for_while(instr, plan_context) is None  # type: ignore[arg-type]


def _hot_loop() -> tuple[hlo.Module, list[np.ndarray]]:
    module = hlo.parse_module(loop_text("f32", ["multiply", "sine", "add"], 3000))
    args = [
        np.array(0, np.int32),
        np.full(N, 0.999, np.float32),
        np.linspace(-1, 1, N, dtype=np.float32),
        *zeros_after_three(module),
    ]
    return module, args


def _started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Kernel starts, recorded; each compiles at once (not in the background), so that the
    switch happens at the iteration the loop proved hot."""
    starts: list[int] = []
    start = loop_tier._Kernel.start
    monkeypatch.setattr(loop_tier, "_kernels", {})  # (not the kernels other tests compiled)

    def at_once(kernel: loop_tier._Kernel, state: object, background: bool) -> None:
        starts.append(1)
        start(kernel, state, background=False)

    monkeypatch.setattr(loop_tier._Kernel, "start", at_once)
    return starts


def test_auto_switches_to_compiled_code_between_iterations(monkeypatch: pytest.MonkeyPatch) -> None:
    """jit="auto": the interpreter starts; after the loop proves hot (here within a first run
    counted as long) the compiled loop takes the state over, the same bits all the way."""
    monkeypatch.setattr(loop_tier, "HOT_ITERATIONS", 2)
    monkeypatch.setattr(loop_tier, "LONG_SECONDS", 0.0)
    starts = _started(monkeypatch)
    module, args = _hot_loop()
    expected = hlo.run(module, *args, jit="off")
    assert_same_bits(expected, hlo.run(module, *args, jit="auto"))
    assert starts == [1]


def test_the_first_run_of_a_loop_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first result is the interpreter's alone (no compilation, no disk-cache lookup
    competing with it); the second run starts the compiled tier."""
    monkeypatch.setattr(loop_tier, "HOT_ITERATIONS", 2)
    starts = _started(monkeypatch)
    module, args = _hot_loop()
    executable = Executable(module, hlo.RunOptions(jit="auto"))
    expected = hlo.run(module, *args, jit="off")
    assert_same_bits(expected, executable(*args))
    assert starts == []
    assert_same_bits(expected, executable(*args))
    assert starts == [1]


def test_max_iterations_stops_a_compiled_loop_with_the_interpreters_error() -> None:
    module = hlo.parse_module(loop_text("s32", ["add"], 100))
    args = [np.array(0, np.int32), np.ones(N, np.int32), np.ones(N, np.int32), *zeros_after_three(module)]
    for jit in ("off", "eager"):
        with pytest.raises(hlo.EvalError, match=r"still running after 10 iterations \(max_iterations=10\)"):
            hlo.run(module, *args, jit=jit, max_iterations=10)
    assert_same_bits(
        hlo.run(module, *args, jit="off", max_iterations=100),
        hlo.run(module, *args, jit="eager", max_iterations=100),
    )


def test_a_bad_jit_option_is_an_error() -> None:
    with pytest.raises(hlo.EvalError, match="jit must be one of auto, eager, off: got 'fast'"):
        hlo.RunOptions(jit="fast")


def test_hlo_run_jit_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`hlo run --jit eager` prints what `--jit off` prints; a mode it does not know is a
    one-line error."""
    from hlo.cli.main import main

    path = tmp_path / "loop.hlo"
    path.write_text(loop_text("f32", ["multiply", "sine", "maximum"], 20))
    printed = []
    for jit in ("off", "eager"):
        assert main(["run", str(path), "--print", "--jit", jit]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1] and "f32[8]" in printed[0]
    assert main(["run", str(path), "--jit", "fast"]) == 1
    assert "argument --jit: invalid choice: 'fast'" in capsys.readouterr().err


@pytest.mark.parametrize("jit", ["eager", "auto"])
def test_devices_in_threads_share_the_compiled_loop(jit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four devices (threads, each in its own flush-to-zero mode) run one compiled loop on their
    own inputs, subnormals among them: each gets the interpreter's bits."""
    monkeypatch.setattr(loop_tier, "HOT_ITERATIONS", 3)
    module = hlo.parse_module(loop_text("f32", ["multiply", "sine", "maximum", "add"], 400))
    per_device = []
    for d in range(4):
        a = np.array([1e-39 * (d + 1), -1e-40, 0.5, -0.0, 3.0, d, 1e30, np.nan], np.float32)
        b = np.linspace(-1, 1, N, dtype=np.float32) * (d + 1)
        per_device.append([np.array(0, np.int32), a, b, *zeros_after_three(module)])
    off = hlo.run(module, per_device, num_replicas=4, jit="off")
    on = hlo.run(module, per_device, num_replicas=4, jit=jit)
    for x, y in zip(off, on, strict=True):
        assert_same_bits(x, y)


@pytest.mark.parametrize("flush", [True, False], ids=["flush", "noflush"])
@pytest.mark.parametrize("t", ["f32", "f64"])
def test_ties_of_zeros_and_subnormals_in_max_min_clamp(t: str, flush: bool) -> None:
    """Every pair of +-0 and +-subnormal through max, min and clamp (arrays and scalars), in one
    iteration: where the CPU's mode reads both as zero, the interpreter's tie rules decide."""
    module = hlo.parse_module(loop_text(t, ["add", "clamp", "maximum", "minimum", *FLOAT_OPS[-3:]], 1))
    dtype = np.dtype(np.float32 if t == "f32" else np.float64)
    zeros = [0.0, -0.0, float(np.finfo(dtype).tiny) / 4, -float(np.finfo(dtype).tiny) / 4]
    pairs = [(x, y) for x in zeros for y in zeros]
    for half in (pairs[:N], pairs[N:]):
        for lo in zeros:
            a = np.array([x for x, _ in half], dtype)
            a[1] = lo  # the scalar bound of clamp
            b = np.array([y for _, y in half], dtype)
            for pick in (2, 5):  # the scalar forms read b[2] and b[5]
                b[pick] = zeros[(pick + int(lo != 0)) % 4]
            args = [np.array(0, np.int32), a, b, *zeros_after_three(module)]
            off = hlo.run(module, *args, jit="off", flush_denormals=flush)
            on = hlo.run(module, *args, jit="eager", flush_denormals=flush)
            assert_same_bits(off, on)


def test_a_failing_compilation_falls_back_silently(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A compilation that raises leaves the loop on the interpreter (same values, no error), and
    says why at debug level; so does a compiled call that raises."""
    from hlo.numerics import jit_numba

    module = hlo.parse_module(loop_text("s32", ["add", "multiply"], 7))
    start, ones = np.array(0, np.int32), np.ones(N, np.int32)
    args = [start, np.arange(N, dtype=np.int32), ones, *zeros_after_three(module)]
    expected = hlo.run(module, *args, jit="off")

    def broken(source: object) -> object:
        raise RuntimeError("no compiler here")

    monkeypatch.setattr(loop_tier, "_kernels", {})
    monkeypatch.setattr(jit_numba, "compile_loop", broken)
    with caplog.at_level("DEBUG", logger="hlo.jit"):
        assert_same_bits(expected, hlo.run(module, *args, jit="eager"))
    assert "stays on the interpreter: no compiler here" in caplog.text

    def failing_call(*args: object) -> object:
        raise RuntimeError("the call failed")

    monkeypatch.setattr(jit_numba, "compile_loop", lambda source: failing_call)
    monkeypatch.setattr(loop_tier, "_kernels", {})
    module = hlo.parse_module(loop_text("s32", ["add", "multiply"], 7))  # (a new plan)
    kernel = loop_tier._kernel(next(iter(_sources(module))))
    kernel.fn, kernel.pointers, kernel.started = failing_call, np.zeros((1, 3), np.intp), True
    kernel.done.set()
    with caplog.at_level("DEBUG", logger="hlo.jit"):
        assert_same_bits(expected, hlo.run(module, *args, jit="eager"))
    assert "goes back to the interpreter: the call failed" in caplog.text


def _sources(module: hlo.Module) -> list[loop_tier.LoopSource]:
    found = []
    for instr in module.entry.instructions:
        if instr.opcode.text == "while":
            source = loop_tier.loop_source(
                module, instr.attrs["condition"], instr.attrs["body"], instr.shape, True
            )
            assert source is not None
            found.append(source)
    return found


_CONSTANT_SUM_LOOP = """HloModule m
add { p = f32[] parameter(0)  q = f32[] parameter(1)  ROOT r = f32[] add(p, q) }
cond { s = (s32[], f32[]) parameter(0)  i = s32[] get-tuple-element(s), index=0  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT }
body { s = (s32[], f32[]) parameter(0)  i = s32[] get-tuple-element(s), index=0
  v = f32[] get-tuple-element(s), index=1  one = s32[] constant(1)  j = s32[] add(i, one)
  k = f32[3] constant({16777216, 1, 1})  z = f32[] constant(0)
  r = f32[] reduce(k, z), dimensions={0}, to_apply=add  w = f32[] add(v, r)
  ROOT t = (s32[], f32[]) tuple(j, w) }
ENTRY e { i0 = s32[] constant(0)  v0 = f32[] parameter(0)  s0 = (s32[], f32[]) tuple(i0, v0)
  ROOT o = (s32[], f32[]) while(s0), condition=cond, body=body }
"""


def test_a_loop_reducing_constants_stays_on_the_interpreter() -> None:
    """XLA folds a reduce of constants in its evaluator's order (hlo.numerics.evaluator_fold), which
    the compiled tier does not follow: such a loop is not compiled."""
    module = hlo.parse_module(_CONSTANT_SUM_LOOP)
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    assert (
        loop_tier.loop_source(module, instr.attrs["condition"], instr.attrs["body"], instr.shape, True)
        is None
    )
    x = np.float32(0)
    assert_same_bits(hlo.run(module, x, jit="off"), hlo.run(module, x, jit="eager"))


def test_loops_differing_only_in_their_numpy_loops_keep_their_own() -> None:
    """A sine loop and a cosine loop are the same source but for the NumPy loop they call: the
    second, compiled after the first, runs its own (they shared the first one's once)."""
    args = [np.array(0, np.int32), np.linspace(-3, 3, N, dtype=np.float32), np.ones(N, np.float32)]
    for op in ("sine", "cosine"):
        module = hlo.parse_module(loop_text("f32", [op], 3))
        assert_loop_compiles(module)
        full = [*args, *zeros_after_three(module)]
        assert_same_bits(hlo.run(module, *full, jit="off"), hlo.run(module, *full, jit="eager"))


RNN_LOOP = """HloModule rnn

%cond (s: (s32[], f32[4], f32[4,4])) -> pred[] {
  %s = (s32[], f32[4], f32[4,4]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(3)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (s: (s32[], f32[4], f32[4,4])) -> (s32[], f32[4], f32[4,4]) {
  %s = (s32[], f32[4], f32[4,4]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %h = f32[4] get-tuple-element(%s), index=1
  %w = f32[4,4] get-tuple-element(%s), index=2
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %d = f32[4] dot(%w, %h), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %t = f32[4] multiply(%d, %h)
  ROOT %r = (s32[], f32[4], f32[4,4]) tuple(%j, %t, %w)
}

ENTRY %main (i: s32[], h: f32[4], w: f32[4,4]) -> (s32[], f32[4], f32[4,4]) {
  %i = s32[] parameter(0)
  %h = f32[4] parameter(1)
  %w = f32[4,4] parameter(2)
  %s = (s32[], f32[4], f32[4,4]) tuple(%i, %h, %w)
  ROOT %loop = (s32[], f32[4], f32[4,4]) while(%s), condition=%cond, body=%body
}
"""


@pytest.mark.parametrize("flush", [True, False])
def test_a_loops_unchanged_weights_are_copied_once_before_it(flush: bool) -> None:
    """The dot's flushed copy of a weight matrix the body hands on unchanged is made before the
    loop, not in every iteration; the bits stay the interpreter's, subnormal weights included,
    and the loop gives the weights back as they came."""
    module = hlo.parse_module(RNN_LOOP)
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    source = loop_tier.loop_source(module, instr.attrs["condition"], instr.attrs["body"], instr.shape, flush)
    assert source is not None
    before_loop = source.source.split("while True:")[0]
    assert ("_flush(s2[" in before_loop) is flush  # (without flushing the dot reads s2 itself)
    tiny = float(np.finfo(np.float32).tiny)
    w = np.array(
        [[1.5, tiny / 3, -2, 0.25], [tiny / 8, 1, 1, -1], [3, -tiny / 2, 0.5, 2], [1, 1, tiny / 5, -0.75]]
    )
    h = np.array([tiny / 2, 1.25, -3, 0.5], np.float32)
    args = [np.array(0, np.int32), h, w.astype(np.float32)]
    off = hlo.run(module, *args, jit="off", flush_denormals=flush)
    on = hlo.run(module, *args, jit="eager", flush_denormals=flush)
    assert_same_bits(off, on)
    assert np.array_equal(on[2].view(np.uint32), args[2].view(np.uint32))


CHAIN_LOOP = """HloModule chain

%cond (s: (s32[], f32[8], f32[8])) -> pred[] {
  %s = (s32[], f32[8], f32[8]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %n = s32[] constant(4)
  ROOT %lt = pred[] compare(%i, %n), direction=LT
}

%body (s: (s32[], f32[8], f32[8])) -> (s32[], f32[8], f32[8]) {
  %s = (s32[], f32[8], f32[8]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %a = f32[8] get-tuple-element(%s), index=1
  %b = f32[8] get-tuple-element(%s), index=2
  %one = s32[] constant(1)
  %j = s32[] add(%i, %one)
  %m = f32[8] multiply(%a, %b)
  %s1 = f32[8] sine(%a)
  %c = f32[8] constant({0.5, -2, 3, 1e-40, -1e-40, 0, 1e30, -7})
  %t = f32[8] multiply(%s1, %c)
  %u = f32[8] add(%m, %t)
  %v = f32[8] maximum(%u, %b)
  %w = f32[8] subtract(%v, %m)
  ROOT %r = (s32[], f32[8], f32[8]) tuple(%j, %w, %u)
}

ENTRY %main (i: s32[], a: f32[8], b: f32[8]) -> (s32[], f32[8], f32[8]) {
  %i = s32[] parameter(0)
  %a = f32[8] parameter(1)
  %b = f32[8] parameter(2)
  %s = (s32[], f32[8], f32[8]) tuple(%i, %a, %b)
  ROOT %loop = (s32[], f32[8], f32[8]) while(%s), condition=%cond, body=%body
}
"""


@pytest.mark.parametrize("flush", [True, False])
def test_a_chain_of_elementwise_ops_runs_as_one_loop(flush: bool) -> None:
    """Values used once by another elementwise op are not written out: the body's six ops run
    as three loops (m and u are read twice, w is a state leaf; sine, t and v go into their
    users' loops), each op still rounded to its type: the interpreter's bits."""
    module = hlo.parse_module(CHAIN_LOOP)
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    source = loop_tier.loop_source(module, instr.attrs["condition"], instr.attrs["body"], instr.shape, flush)
    assert source is not None
    body = source.source.split("while True:")[1]
    assert body.count("in range(8):") == 3  # m, u, w: not s1, t, v
    tiny = float(np.finfo(np.float32).tiny)
    a = np.array([1.5, -0.0, tiny / 3, np.inf, np.nan, 3e38, -2.5, 1e-3], np.float32)
    b = np.array([tiny / 2, 2, -1, 0.5, 1, 2, -np.inf, 0], np.float32)
    args = [np.array(0, np.int32), a, b]
    assert_same_bits(
        hlo.run(module, *args, jit="off", flush_denormals=flush),
        hlo.run(module, *args, jit="eager", flush_denormals=flush),
    )
