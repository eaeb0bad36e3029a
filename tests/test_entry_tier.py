"""The compiled entry tier (hlo.numerics.entry_tier): a whole computation of many instructions on
small values compiled by numba gives XLA:CPU's bits on its fixtures and the interpreter's bits
on random programs (repeated blocks, written as loops, among them); the first call is the
interpreter's; jit="off", a computation that does not qualify and a failing compilation leave
everything to the interpreter."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hlo
import test_engine_ops
from hlo.numerics import entry_tier, jit_entry, jit_reroll
from hlo.runtime import Executable

numba = pytest.importorskip("numba")

FIXTURES = Path(__file__).parent / "golden" / "entry_tier"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.hlo"))


def _bits(a: object, b: object, any_nan: bool = False) -> None:
    """The same bits; with `any_nan`, a NaN matches any NaN: LLVM gives a NaN's sign no meaning
    (it folds `(-a) + b` into `b - a`), so a compiled NaN may differ from the interpreter's in
    its sign bit, as XLA:CPU's own code may."""
    xs = a if isinstance(a, tuple) else (a,)
    ys = b if isinstance(b, tuple) else (b,)
    assert len(xs) == len(ys)
    for x, y in zip(xs, ys):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape, (x, y)
        if any_nan and x.dtype.kind == "f":
            x, y = np.where(np.isnan(x), np.nan, x), np.where(np.isnan(y), np.nan, y)
        assert x.tobytes() == y.tobytes(), (x, y)


def _sets(name: str) -> list[tuple[list[np.ndarray], list[np.ndarray]]]:
    data = np.load(FIXTURES / f"{name}.npz")
    sets = []
    for k in range(len(data.files)):
        args = [data[f] for f in sorted(data.files) if f.startswith(f"set{k}_arg")]
        outs = [data[f"set{k}_out{j}"] for j in range(len(data.files)) if f"set{k}_out{j}" in data.files]
        if args:
            sets.append((args, outs))
    return sets


def _eager(module: hlo.Module, **options: object) -> Executable:
    executable = Executable(module, hlo.RunOptions(jit="eager", **options))  # type: ignore[arg-type]
    assert executable.compiled is not None
    return executable


@pytest.mark.parametrize("name", NAMES)
def test_fixtures_give_xla_cpus_bits_compiled(name: str) -> None:
    """Each fixture compiled before its first call gives XLA:CPU's outputs bit for bit, on
    every input set (NaN, infinities, subnormals, integer extremes); the interpreter too."""
    module = hlo.parse_module((FIXTURES / f"{name}.hlo").read_text())
    compiled, interpreted = _eager(module), Executable(module, hlo.RunOptions(jit="off"))
    for args, outs in _sets(name):
        expected = tuple(outs) if len(outs) > 1 else outs[0]
        _bits(compiled(*args), expected)
        _bits(interpreted(*args), expected)
    assert compiled.compiled is not None and compiled.compiled.kernel.fn is not None


def test_the_scalar_chain_is_one_loop() -> None:
    """A chain traced from a Python loop becomes a loop over one block: a short source."""
    module = hlo.parse_module((FIXTURES / "chain_f32.hlo").read_text())
    source = jit_entry.entry_source(module, module.entry.name, True)
    assert source is not None
    assert "for _ in range(" in source.source and source.source.count("\n") < 60


def test_a_chain_inside_one_fusion_is_inlined_and_compiled() -> None:
    """XLA's optimized text holds the chain as one fusion (the entry: parameters and the fusion):
    its computation is inlined, so the chain is again one loop, and gives XLA:CPU's bits."""
    text = (FIXTURES / "chain_f32.hlo").read_text().replace("ENTRY main.1 {", "fused {")
    text += """
ENTRY e {
  x = f32[] parameter(0)
  a = f32[] parameter(1)
  c = f32[] parameter(2)
  ROOT f = f32[] fusion(x, a, c), kind=kLoop, calls=fused
}
"""
    module = hlo.parse_module(text)
    source = jit_entry.entry_source(module, module.entry.name, True)
    assert source is not None
    assert "for _ in range(" in source.source and source.source.count("\n") < 60
    compiled = _eager(module)
    for args, outs in _sets("chain_f32"):
        _bits(compiled(*args), outs[0])
    assert compiled.compiled is not None and compiled.compiled.kernel.fn is not None


def _chain(ops: list[str], t: str, repeat: int, skip: bool = False) -> str:
    """An entry of `repeat` blocks, each applying `ops` to the previous block's x and the
    parameters a, b; with `skip`, each block also reads the value two blocks back (no loop)."""
    lines = [f"  x0 = {t}[] parameter(0)", f"  a = {t}[] parameter(1)", f"  b = {t}[] parameter(2)"]
    previous = ["x0", "x0"]
    for r in range(repeat):
        x = previous[-1]
        for k, op in enumerate(ops):
            name = f"y{r}_{k}"
            if op == "select":
                lines.append(f"  p{r}_{k} = pred[] compare({x}, a), direction=LT")
                lines.append(f"  {name} = {t}[] select(p{r}_{k}, {x}, b)")
            elif op in ("negate", "abs", "sqrt", "exponential", "tanh", "floor"):
                lines.append(f"  {name} = {t}[] {op}({x})")
            else:
                lines.append(f"  {name} = {t}[] {op}({x}, {'a' if k % 2 else 'b'})")
            x = name
        if skip:
            lines.append(f"  s{r} = {t}[] add({x}, {previous[-2]})")
            x = f"s{r}"
        previous.append(x)
    lines[-1] = "  ROOT" + lines[-1][1:]
    return "HloModule chain\n\nENTRY main {\n" + "\n".join(lines) + "\n}\n"


FLOAT = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "select", "negate", "abs", "sqrt",
         "exponential", "tanh", "floor"]  # fmt: skip
INT = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "select", "xor",
       "shift-left", "shift-right-arithmetic", "negate"]  # fmt: skip
SPECIAL = {
    "f32": [0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e-39, -3e-40, 3.4e38, 0.999, 7.0],
    "f64": [0.0, -0.0, 1.5, -2.25, np.inf, np.nan, 1e-310, 1.7e308, 0.999, -7.0],
    "s32": [0, 1, -1, 3, -7, 31, 2**31 - 1, -(2**31), 100000],
}


@pytest.mark.parametrize("flush", [True, False], ids=["flush", "noflush"])
@pytest.mark.parametrize("t", ["f32", "f64", "s32"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_chains_give_the_interpreters_bits(t: str, flush: bool, data: st.DataObject) -> None:
    """Random blocks of ops repeated (a loop) or reading two blocks back (written out), on
    special values: compiled and interpreted results agree bit for bit."""
    ops = data.draw(st.lists(st.sampled_from(FLOAT if t[0] == "f" else INT), min_size=1, max_size=5))
    repeat = data.draw(st.integers(1, 12))
    skip = data.draw(st.booleans())
    module = hlo.parse_module(_chain(ops, t, repeat, skip))
    dtype = np.dtype({"f32": np.float32, "f64": np.float64, "s32": np.int32}[t])
    values = [np.array(data.draw(st.sampled_from(SPECIAL[t]))).astype(dtype) for _ in range(3)]
    off = Executable(module, hlo.RunOptions(jit="off", flush_denormals=flush))(*values)
    on = _eager(module, flush_denormals=flush)
    result = on(*values)
    _bits(result, off, any_nan=True)
    assert on.compiled is not None
    if len(module.entry.instructions) >= jit_entry.MIN_INSTRUCTIONS:  # (else nothing was compiled)
        assert on.compiled.kernel.fn is not None


def test_regions_of_a_chain() -> None:
    """Blocks that read the block before repeat; blocks that read two blocks back repeat in
    pairs; a value read after the region ends it at its block."""
    module = hlo.parse_module(_chain(["multiply", "add"], "f32", 10))
    line = [i for i in module.entry.instructions if i.opcode.text != "parameter"]
    regions = jit_reroll.find_regions(line)
    assert [(r.start, r.period, r.count) for r in regions.values()] == [(0, 2, 10)]
    assert list(regions[0].carried.values()) == ["x0"]
    module = hlo.parse_module(_chain(["multiply", "add"], "f32", 10, skip=True))
    line = [i for i in module.entry.instructions if i.opcode.text != "parameter"]
    assert {r.period for r in jit_reroll.find_regions(line).values()} == {6}  # (two blocks of 3)
    text = _chain(["multiply", "add"], "f32", 10).replace("ROOT y9_1", "y9_1")
    module = hlo.parse_module(text.replace("\n}", "\n  ROOT t = (f32[], f32[]) tuple(y9_1, y3_1)\n}"))
    line = [i for i in module.entry.instructions if i.opcode.text != "parameter"]
    assert [(r.start, r.count) for r in jit_reroll.find_regions(line).values()] == [(0, 4), (8, 6)]


def test_the_first_call_is_the_interpreters_then_it_switches(monkeypatch: pytest.MonkeyPatch) -> None:
    """jit="auto": the first call starts nothing before its result; once hot the compiled
    function takes over between two calls, with the same bits."""
    monkeypatch.setattr(entry_tier, "HOT_CALLS", 2)
    module = hlo.parse_module(_chain(["multiply", "add", "sqrt"], "f32", 30))
    args = [np.float32(0.5), np.float32(0.999), np.float32(0.001)]
    expected = Executable(module, hlo.RunOptions(jit="off"))(*args)
    executable = Executable(module, hlo.RunOptions(jit="auto"))
    compiled = executable.compiled
    assert compiled is not None
    started = []
    monkeypatch.setattr(compiled.kernel, "start", lambda *a, **k: started.append(a))
    _bits(executable(*args), expected)
    assert compiled.calls == 1 and len(started) == 1  # (started after the interpreter's result)
    monkeypatch.undo()
    monkeypatch.setattr(entry_tier, "HOT_CALLS", 2)
    for _ in range(3):
        _bits(executable(*args), expected)
    assert compiled.kernel.done.wait(120)
    calls = compiled.calls
    _bits(executable(*args), expected)
    assert compiled.kernel.fn is not None and compiled.calls == calls  # (compiled: not counted)


def _stays_interpreted(text: str) -> None:
    """The entry does not qualify: compiled before its first call, nothing is compiled, and the
    result is the interpreter's."""
    module = hlo.parse_module(text)
    assert not jit_entry.qualifies(module, module.entry.name)
    shapes = module.entry.parameter_shapes
    args = [np.full(s.dimensions, 1.5, s.element_type.numpy_dtype) for s in shapes]
    executable = Executable(module, hlo.RunOptions(jit="eager"))
    _bits(executable(*args), Executable(module, hlo.RunOptions(jit="off"))(*args))
    assert executable.compiled is None or executable.compiled.kernel.failed


def test_what_does_not_qualify_stays_on_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    chain = hlo.parse_module(_chain(["multiply", "add"], "f32", 20))
    assert jit_entry.qualifies(chain, chain.entry.name)
    assert Executable(chain, hlo.RunOptions(jit="off")).compiled is None
    monkeypatch.setattr(entry_tier.loop_tier, "numba_installed", lambda: False)
    assert Executable(chain, hlo.RunOptions(jit="eager")).compiled is None
    monkeypatch.undo()
    large = _chain(["multiply", "add"], "f32", 20).replace("f32[]", "f32[8192]")
    _stays_interpreted(large.replace("pred[]", "pred[8192]"))
    # Known from the entry's parameters and root alone: no tier, so no trial copy of (possibly
    # large) arguments after the first call.
    assert Executable(hlo.parse_module(large.replace("pred[]", "pred[8192]"))).compiled is None
    _stays_interpreted(_chain(["multiply"], "f32", 3))
    _stays_interpreted(_chain(["multiply", "add"], "f32", 20).replace("multiply(", "atan2("))


def test_a_failing_compilation_falls_back_with_a_debug_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A compilation that raises, or a compiled call that raises, leaves the computation on
    the interpreter: the same values, no error, a debug line saying why."""
    from hlo.numerics import jit_numba

    module = hlo.parse_module(_chain(["multiply", "add", "divide"], "f32", 20))
    args = [np.float32(1.5), np.float32(0.25), np.float32(3.0)]
    expected = Executable(module, hlo.RunOptions(jit="off"))(*args)

    def broken(source: str, name: str) -> object:
        raise RuntimeError("no compiler here")

    monkeypatch.setattr(jit_numba, "compile_function", broken)
    executable = _eager(module)
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        _bits(executable(*args), expected)
        _bits(executable(*args), expected)
    assert "stays on the interpreter: no compiler here" in caplog.text

    def failing_call(*args: object) -> object:
        raise RuntimeError("the call failed")

    monkeypatch.setattr(jit_numba, "compile_function", lambda source, name: failing_call)
    executable = _eager(module)
    compiled = executable.compiled
    assert compiled is not None
    compiled.kernel.start(args, background=False)  # (its trial call fails: still interpreted)
    compiled.kernel.fn, compiled.kernel.failed = failing_call, False
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        _bits(executable(*args), expected)
    assert "goes back to the interpreter: the call failed" in caplog.text
    assert compiled.kernel.fn is None


def test_instrumented_runs_stay_on_the_interpreter() -> None:
    """Replaced steps (hlo bisect, --dump-values) see every instruction: no compiled call."""
    from hlo.replay.instrument import Watch, instrument

    module = hlo.parse_module(_chain(["multiply", "maximum"], "f32", 20))  # (an add would take its multiply)
    executable = _eager(module)
    args = [np.float32(0.5), np.float32(0.999), np.float32(0.001)]
    executable(*args)
    watch = Watch(record=True)
    instrument(executable, watch)
    executable(*args)
    assert watch.steps == 40


def test_hlo_run_jit_flag_on_an_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`hlo run --jit eager` on a qualifying entry prints what `--jit off` prints."""
    from hlo.cli.main import main

    path = tmp_path / "chain.hlo"
    path.write_text(_chain(["multiply", "add", "maximum"], "f32", 20))
    printed = []
    for jit in ("off", "eager"):
        assert main(["run", str(path), "--print", "--jit", jit]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1] and "f32[]" in printed[0]


def test_a_computation_compiled_before_is_loaded_by_the_second_call() -> None:
    """An entry an earlier run compiled (its marker in the disk cache) is loaded after the
    first call, and the second call waits for it: compiled from the second call on."""
    module = hlo.parse_module(_chain(["multiply", "add", "minimum"], "f32", 25))
    args = [np.float32(0.5), np.float32(0.999), np.float32(0.001)]
    expected = Executable(module, hlo.RunOptions(jit="off"))(*args)
    _eager(module)(*args)  # (compiled: into the disk cache)
    executable = Executable(module, hlo.RunOptions(jit="auto"))
    compiled = executable.compiled
    assert compiled is not None
    for _ in range(3):
        _bits(executable(*args), expected)
    assert compiled.calls == 1 and compiled.kernel.cached and compiled.kernel.fn is not None


def test_a_tuple_parameter_has_no_compiled_tier() -> None:
    """An entry taking a tuple runs on the interpreter, every call."""
    text = "HloModule t\n\nENTRY main {\n  p = (f32[], f32[]) parameter(0)\n"
    text += "  ROOT x = f32[] get-tuple-element(p), index=1\n}\n"
    module = hlo.parse_module(text)
    executable = Executable(module, hlo.RunOptions(jit="eager"))
    assert executable.compiled is None
    for _ in range(3):
        assert float(executable((np.float32(1), np.float32(2)))) == 2.0


MLP = """HloModule small_mlp
ENTRY %main (x: f32[8,16], w1: f32[16,16], w2: f32[16,4], v: f32[16]) -> f32[8,4] {
  %x = f32[8,16] parameter(0)
  %w1 = f32[16,16] parameter(1)
  %w2 = f32[16,4] parameter(2)
  %v = f32[16] parameter(3)
  %h = f32[8,16] dot(%x, %w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %b = f32[8,16] broadcast(%v), dimensions={1}
  %hb = f32[8,16] add(%h, %b)
  %t = f32[8,16] tanh(%hb)
  %s = f32[8,16] multiply(%t, %t)
  %u = f32[8,16] subtract(%t, %s)
  %e = f32[8,16] exponential(%u)
  %n = f32[8,16] negate(%e)
  %m = f32[8,16] maximum(%n, %t)
  %xt = f32[16,8] transpose(%x), dimensions={1,0}
  %g = f32[16,16] dot(%xt, %m), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %gv = f32[16] dot(%g, %v), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %gb = f32[8,16] broadcast(%gv), dimensions={1}
  %k = f32[8,16] add(%m, %gb)
  %o = f32[8,4] dot(%k, %w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT %r = f32[8,4] sine(%o)
}
"""


@pytest.mark.parametrize("flush", [True, False])
def test_an_entry_with_dots_calls_the_interpreters_blas(flush: bool) -> None:
    """Dots (gemm, a transposed operand, gemv) in a compiled entry: NumPy's own BLAS routines by
    address (hlo.numerics.jit_linear), so the bits are the interpreter's."""
    module = hlo.parse_module(MLP)
    rng = np.random.default_rng(5)
    shapes = [(8, 16), (16, 16), (16, 4), (16,)]
    args = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    args[0][0, :3] = [1e-40, -0.0, np.inf]
    on = _eager(module, flush_denormals=flush)
    off = Executable(module, hlo.RunOptions(jit="off", flush_denormals=flush))
    _bits(on(*args), off(*args))
    assert on.compiled is not None and on.compiled.kernel.fn is not None


@pytest.mark.parametrize(("family", "k"), test_engine_ops.cases(), ids=lambda x: str(x))
def test_op_fixtures_hold_with_the_tier_forced_on(
    family: str, k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every op fixture against XLA:CPU with the tier forced on (a computation of one instruction
    qualifies): the emitters it shares with the loop tier run each op they take, of every type
    (about 1,250 cases compile; the others stay interpreted). This found u64 start indices
    above int64's range, column sums and reduces of constants, each once compiled wrong."""
    monkeypatch.setattr(jit_entry, "MIN_INSTRUCTIONS", 1)
    test_engine_ops.check_case(family, k, hlo.RunOptions(jit="eager"))


def test_the_forced_op_fixtures_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The forced-on fixtures above really run compiled (a refused computation would pass
    trivially): the first case of each family the emitters cover."""
    monkeypatch.setattr(jit_entry, "MIN_INSTRUCTIONS", 1)
    for family in ("elementwise_unary", "elementwise_binary", "compare", "convert", "data_movement"):
        d = test_engine_ops.data(family)
        module = hlo.parse_module(str(d["case0_hlo"]))
        executable = Executable(module, hlo.RunOptions(jit="eager"))
        executable(
            *(np.ones(p.dimensions, p.element_type.numpy_dtype) for p in module.entry.parameter_shapes)
        )
        assert executable.compiled is not None and executable.compiled.kernel.fn is not None, family


def test_a_compilation_that_fails_once_is_tried_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A failure that passes (another process writing the same disk-cache entry) does not leave
    the computation on the interpreter: it is compiled on the second try."""
    from hlo.numerics import jit_numba

    module = hlo.parse_module(_chain(["multiply", "add", "divide"], "f32", 20))
    args = [np.float32(1.5), np.float32(0.25), np.float32(3.0)]
    expected = Executable(module, hlo.RunOptions(jit="off"))(*args)
    real = jit_numba.compile_function
    failures = [RuntimeError("the cache entry was being written")]

    def once(source: str, name: str) -> object:
        if failures:
            raise failures.pop()
        return real(source, name)

    monkeypatch.setattr(jit_numba, "compile_function", once)
    with caplog.at_level(logging.DEBUG, logger="hlo.jit"):
        executable = _eager(module)
        _bits(executable(*args), expected)
    assert "failed to compile, once more: the cache entry was being written" in caplog.text
    compiled = executable.compiled
    assert compiled is not None and compiled.kernel.fn is not None and not compiled.kernel.failed
