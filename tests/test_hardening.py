"""Bad input gets an answer or an `hlo` error, never a traceback, a silent wrong answer, an
allocation the process cannot afford or a run without end (docs/HARDENING.md). Each case here was
found by fuzzing or a hostile reading of the interfaces, and is kept as a regression case."""

# ruff: noqa: E501  (HLO text)
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo import budget
from hlo.errors import CollectiveError, EvalError, HloError, ParseError

ROOT = Path(__file__).resolve().parent.parent


def module(body: str, header: str = "HloModule m") -> hlo.Module:
    return hlo.parse_module(f"{header}\n{body}", "t.hlo")


ADD = "add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT r = f32[] add(a, b) }\n"


# -- tracebacks that are now errors ------------------------------------------------------------
def test_rng_uniform_with_b_below_a_gives_a_result() -> None:
    """Page 003: the result of b <= a is implementation-defined; hlo gives a (no traceback)."""
    m = module(
        "ENTRY e { a = f32[] constant(2)  b = f32[] constant(1)\n ROOT r = f32[4] rng(a, b), distribution=rng_uniform }"
    )
    assert np.array_equal(hlo.run(m), np.full(4, 2, np.float32))
    m = module(
        "ENTRY e { a = s32[] constant(5)  b = s32[] constant(5)\n ROOT r = s32[3] rng(a, b), distribution=rng_uniform }"
    )
    assert np.array_equal(hlo.run(m), np.full(3, 5, np.int32))


def test_rng_uniform_over_the_whole_u64_range_runs() -> None:
    m = module(
        "ENTRY e { a = u64[] constant(0)  b = u64[] constant(18446744073709551615)\n ROOT r = u64[64] rng(a, b), distribution=rng_uniform }"
    )
    assert hlo.run(m).dtype == np.uint64


def test_an_unknown_escape_in_metadata_is_a_located_error() -> None:
    with pytest.raises(ParseError, match=r"t.hlo:2:\d+: error: .*unknown escape sequence \\\("):
        module('ENTRY e { ROOT a = f32[] constant(2), metadata={op_name="a\\(b"} }')


def test_a_lone_surrogate_is_a_located_error() -> None:
    with pytest.raises(ParseError, match=r"t.hlo:2:\d+: error: the text holds a lone surrogate U\+D800"):
        module('ENTRY e { ROOT a = f32[] constant(2), metadata={op_name="a\ud800b"} }')
    with pytest.raises(ParseError, match="lone surrogate"):
        hlo.parse_shape("f32[\udc80]")


@pytest.mark.parametrize("depth", [500, 5000])
def test_deeply_nested_shapes_are_an_error(depth: int) -> None:
    with pytest.raises(ParseError, match=r"nests too deeply|maximum recursion depth"):
        hlo.parse_shape("(" * depth + "f32[]" + ")" * depth)


def test_hlo_layout_of_a_deep_shape_is_an_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hlo", "layout", "(" * 500 + "f32[]" + ")" * 500],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "nests too deeply" in done.stderr


@pytest.mark.parametrize("value", ["abc", b"abc", [[1.0], [1.0, 2.0]], {"a": 1}, None])
def test_run_with_a_non_array_argument_is_an_error(value: object) -> None:
    m = module("ENTRY e { ROOT a = f32[3] parameter(0) }")
    with pytest.raises(EvalError, match=r"argument 0 \(a\) must be f32\[3\]"):
        hlo.run(m, value)


def test_reduce_scatter_that_does_not_split_is_a_located_error() -> None:
    m = module(
        ADD
        + "ENTRY e { x = f32[4] parameter(0)\n ROOT s = f32[2] reduce-scatter(x), channel_id=1, replica_groups={}, dimensions={0}, to_apply=add }",
        "HloModule m, replica_count=2, num_partitions=3",
    )
    with pytest.raises(
        CollectiveError,
        match=r"t.hlo:4:\d+: error: %s: scatters dimension 0 of f32\[4\]\{0\} over the 6 devices of its group \(2 replicas x 3 partitions\): the result's 2 elements x 6 devices must be the operand's 4",
    ):
        hlo.run(m, np.ones(4, np.float32))


def test_reduce_scatter_of_dynamic_sizes_that_do_not_split_is_a_located_error() -> None:
    m = module(
        ADD
        + "ENTRY e { x = f32[<=4] parameter(0)\n ROOT s = f32[<=2] reduce-scatter(x), replica_groups={}, dimensions={0}, to_apply=add }",
        "HloModule m, replica_count=2",
    )
    with pytest.raises(
        CollectiveError,
        match=r"t.hlo:4:\d+: error: device \d: %s: the operand's dimension 0 has 3 elements at run time, which do not split evenly among the 2 devices",
    ):
        hlo.run(m, np.ones(3, np.float32))


@pytest.mark.parametrize("op", ["all-reduce", "reduce-scatter"])
def test_dynamic_collective_operands_of_different_sizes_are_an_error(op: str) -> None:
    result = "f32[<=4]" if op == "all-reduce" else "f32[<=2]"
    extra = ", dimensions={0}" if op == "reduce-scatter" else ""
    m = module(
        ADD
        + f"ENTRY e {{ x = f32[<=4] parameter(0)\n ROOT s = {result} {op}(x), replica_groups={{}}{extra}, to_apply=add }}",
        "HloModule m, replica_count=2",
    )
    with pytest.raises(
        CollectiveError,
        match=r"%s: the group's operands have different sizes at run time \(member 0: \[2\], member 1: \[4\]\)",
    ):
        hlo.run(m, [[np.ones(2, np.float32)], [np.ones(4, np.float32)]])


# -- silent wrong answers -----------------------------------------------------------------------
@pytest.mark.parametrize("param", ["f32[<=10]", "f32[?]"])
def test_a_dynamic_argument_does_not_broadcast(param: str) -> None:
    m = module(
        f"ENTRY e {{ p = {param} parameter(0)\n q = f32[10] parameter(1)\n ROOT b = f32[10] add(p, q) }}"
    )
    with pytest.raises(
        EvalError,
        match=r"t.hlo:4:\d+: error: %b: operand 1 has the sizes \[10\] at run time, operand 0 has \[1\]",
    ):
        hlo.run(m, np.ones(1, np.float32), np.ones(10, np.float32))
    assert np.array_equal(
        hlo.run(m, np.ones(10, np.float32), np.ones(10, np.float32)), np.full(10, 2, np.float32)
    )


def test_clamp_with_scalar_bounds_of_a_dynamic_operand_runs() -> None:
    m = module(
        "ENTRY e { lo = f32[] constant(0)  hi = f32[] constant(1)  p = f32[<=4] parameter(0)\n ROOT c = f32[<=4] clamp(lo, p, hi) }"
    )
    assert np.array_equal(hlo.run(m, np.array([-1, 2], np.float32)), np.array([0, 1], np.float32))


# -- the allocation guard ---------------------------------------------------------------------
HUGE = "f32[1000000000000]"


@pytest.mark.parametrize(
    "body, name",
    [
        (f"ENTRY e {{ ROOT a = {HUGE} parameter(0) }}", "%a (parameter)"),
        (
            f"ENTRY e {{ c = f32[] constant(2)\n ROOT b = {HUGE} broadcast(c), dimensions={{}} }}",
            "%b (broadcast)",
        ),
        (f"ENTRY e {{ ROOT i = {HUGE} iota(), iota_dimension=0 }}", "%i (iota)"),
    ],
)
def test_values_over_the_budget_are_refused_before_running(body: str, name: str) -> None:
    m = module(body)
    with pytest.raises(
        budget.MemoryBudgetError,
        match=rf"t.hlo:\d+:\d+: error: {re.escape(name)} f32\[1000000000000\]\{{0\}} needs 4,000,000,000,000 bytes, over the memory budget",
    ):
        hlo.run(m, *([np.ones(1, np.float32)] if "parameter" in body else []))


def test_a_constant_over_the_budget_is_a_parse_error() -> None:
    with pytest.raises(
        ParseError,
        match=r"t.hlo:2:\d+: error: the constant f32\[1000000000000\]\{0\} needs 4,000,000,000,000 bytes",
    ):
        module(f"ENTRY e {{ ROOT a = {HUGE} constant(2) }}")


def test_memory_limit_option_sets_the_budget() -> None:
    m = module("ENTRY e { ROOT i = s32[1000] iota(), iota_dimension=0 }")
    with pytest.raises(
        budget.MemoryBudgetError, match="needs 4,000 bytes, over the memory budget of 3,999 bytes"
    ):
        hlo.run(m, memory_limit=3999)
    assert hlo.run(m, memory_limit=4000)[-1] == 999
    assert hlo.run(m, memory_limit=0)[-1] == 999  # 0: no check
    with pytest.raises(HloError, match="memory_limit must be an integer >= 0 or None: got -1"):
        hlo.run(m, memory_limit=-1)


def test_to_physical_of_a_huge_tile_is_refused() -> None:
    s = hlo.parse_shape("f32[3]{0:T(1099511627776)}")
    assert hlo.byte_size(s) == 4 << 40
    with pytest.raises(budget.MemoryBudgetError, match=r"the physical buffer of f32\[3\]"):
        hlo.to_physical(np.zeros(3, np.float32), s)


def test_the_default_budget_is_below_what_the_process_may_use() -> None:
    available = budget.available_bytes()
    assert available is not None and available > 0
    default = budget.default_budget()
    assert default is not None and 0 < default <= available


def test_the_budget_reads_rlimit_as(monkeypatch: pytest.MonkeyPatch) -> None:
    resource = pytest.importorskip("resource")
    monkeypatch.setattr(
        resource, "getrlimit", lambda _: (budget._own_virtual_size() + (1 << 20), resource.RLIM_INFINITY)
    )
    left = budget._rlimit_left()
    assert left is not None and left <= 1 << 20
    assert budget.available_bytes() is not None and budget.available_bytes() <= 1 << 20  # type: ignore[operator]


# -- bounded by default -------------------------------------------------------------------------
SPIN = """HloModule spin
cond { p = s32[] parameter(0)  ROOT c = pred[] constant(true) }
body { p = s32[] parameter(0)  one = s32[] constant(1)  ROOT a = s32[] add(p, one) }
ENTRY e { z = s32[] constant(0)  ROOT w = s32[] while(z), condition=cond, body=body }
"""


def test_a_runaway_loop_stops_at_max_iterations() -> None:
    m = hlo.parse_module(SPIN, "spin.hlo")
    with pytest.raises(
        EvalError, match=r"spin.hlo:4:\d+: error: %w: the loop is still running after 1000 iterations"
    ):
        hlo.run(m, max_iterations=1000)


def test_a_runaway_loop_stops_at_the_timeout() -> None:
    m = hlo.parse_module(SPIN, "spin.hlo")
    with pytest.raises(EvalError, match=r"the run is still going after the timeout of 0\.5 seconds"):
        hlo.run(m, timeout=0.5)


def test_a_runaway_loop_stops_at_the_timeout_on_every_device() -> None:
    m = hlo.parse_module(SPIN.replace("HloModule spin", "HloModule spin, replica_count=2"), "spin.hlo")
    with pytest.raises(EvalError, match=r"device [01]: .*the run is still going after the timeout"):
        hlo.run(m, timeout=0.5)


def test_hlo_run_bounds_loops_by_default(tmp_path: Path) -> None:
    from hlo.cli.limits import DEFAULT_MAX_ITERATIONS, run_limits

    assert DEFAULT_MAX_ITERATIONS == 1_000_000
    import argparse

    args = argparse.Namespace(max_iterations=None, memory_limit=None, timeout=None, no_fusion=False)
    assert run_limits(args)["max_iterations"] == 1_000_000
    args.max_iterations = 0
    assert run_limits(args)["max_iterations"] is None
    path = tmp_path / "spin.hlo"
    path.write_text(SPIN)
    done = subprocess.run(
        [sys.executable, "-m", "hlo", "run", str(path), "--max-iterations", "0", "--timeout", "1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "the run is still going after the timeout of 1 seconds" in done.stderr


def test_hlo_run_memory_limit(tmp_path: Path) -> None:
    path = tmp_path / "iota.hlo"
    path.write_text("HloModule m\nENTRY e { ROOT i = s32[1000] iota(), iota_dimension=0 }")
    done = subprocess.run(
        [sys.executable, "-m", "hlo", "run", str(path), "--memory-limit", "1k"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "needs 4,000 bytes, over the memory budget of 1,024 bytes" in done.stderr


def test_hlo_run_random_inputs_over_the_budget(tmp_path: Path) -> None:
    path = tmp_path / "p.hlo"
    path.write_text(f"HloModule m\nENTRY e {{ ROOT a = {HUGE} parameter(0) }}")
    done = subprocess.run(
        [sys.executable, "-m", "hlo", "run", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr and "over the memory budget" in done.stderr


def test_hlo_layout_png_cells_are_bounded(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hlo", "layout", "f32[4000,4000]", "--rows", "1000", "--cols", "1000", "--png", str(tmp_path / "x.png")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "--png draws at most 16,384 cells" in done.stderr
    assert not (tmp_path / "x.png").exists()


# -- faults across devices, in process ---------------------------------------------------------
FAULT = (
    ADD
    + """ENTRY e { x = f32[2] parameter(0)
 r = u32[] replica-id()
 c = f32[2] custom-call(x, r), custom_call_target="hardening_fail_on_1"
 ROOT s = f32[2] all-reduce(c), replica_groups={}, to_apply=add }"""
)


def test_a_device_with_bad_arguments_is_named_before_any_runs() -> None:
    m = module(
        ADD
        + "ENTRY e { x = f32[2] parameter(0)\n ROOT s = f32[2] all-reduce(x), replica_groups={}, to_apply=add }",
        "HloModule m, replica_count=3",
    )
    with pytest.raises(EvalError, match=r"device 1: argument 0 \(x\) must be f32\[2\]"):
        hlo.run(m, [[np.ones(2, np.float32)], [np.ones(3, np.float32)], [np.ones(2, np.float32)]])


def test_a_device_failing_during_the_run_ends_every_device_with_its_cause() -> None:
    def fail_on_1(x: np.ndarray, r: np.ndarray) -> np.ndarray:
        if int(r) == 1:
            raise EvalError("the target refuses device 1")
        return x

    hlo.register_custom_call("hardening_fail_on_1", fail_on_1)
    m = module(FAULT, "HloModule m, replica_count=3")
    with pytest.raises(EvalError, match=r"device 1: %c: the target refuses device 1"):
        hlo.run(m, np.ones(2, np.float32))


def test_devices_at_different_collectives_end_with_an_error() -> None:
    text = (
        ADD
        + "t { a = f32[2] parameter(0)  ROOT s = f32[2] all-reduce(a), replica_groups={}, to_apply=add }\n"
        + "f { a = f32[2] parameter(0)  g = f32[4] all-gather(a), replica_groups={}, dimensions={0}\n ROOT s = f32[2] slice(g), slice={[0:2]} }\n"
    )
    m = module(
        text
        + "ENTRY e { x = f32[2] parameter(0)\n r = u32[] replica-id()  z = u32[] constant(0)\n p = pred[] compare(r, z), direction=EQ\n"
        " ROOT c = f32[2] conditional(p, x, x), true_computation=t, false_computation=f }",
        "HloModule m, replica_count=2",
    )
    with pytest.raises(CollectiveError, match=r"device [01]"):
        hlo.run(m, np.ones(2, np.float32))


# -- the public API refuses what is not its input ----------------------------------------------
def test_memory_functions_refuse_values_of_the_wrong_kind() -> None:
    s = hlo.parse_shape("f32[3]")
    with pytest.raises(HloError, match=r"an index of f32\[3\]\{0\} is a sequence of integers"):
        hlo.linear_index(s, ("a",))
    with pytest.raises(HloError, match="from_physical takes bytes, a memoryview or an array: got str"):
        hlo.from_physical("abc", s)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"max_iterations": "x"}, "max_iterations must be an integer >= 0 or None: got 'x'"),
        ({"timeout": "x"}, "timeout must be a positive number of seconds or None: got 'x'"),
        ({"timeout": 0}, "timeout must be a positive number"),
        ({"seed": 1.5}, "seed must be an integer: got 1.5"),
        ({"num_replicas": 10**9}, "1000000000 devices; in process each is a thread, at most 4096"),
    ],
)
def test_run_options_are_checked(options: dict[str, object], message: str) -> None:
    m = module("ENTRY e { ROOT a = f32[] constant(2) }")
    with pytest.raises(HloError, match=re.escape(message)):
        hlo.run(m, **options)


@pytest.mark.parametrize(
    "root, message",
    [
        (
            "ROOT d = f32[10] select(c, q, q)",
            r"%d: operand 1 has the sizes \[10\] at run time, operand 0 has \[1\]",
        ),
        (
            "ROOT d = f32[10] map(p, q), dimensions={0}, to_apply=add",
            r"%d: operand 1 has the sizes \[10\] at run time, operand 0 has \[1\]",
        ),
        (
            "ROOT d = f32[] dot(p, q), lhs_contracting_dims={0}, rhs_contracting_dims={0}",
            r"%d: the operands' run-time sizes \(f32\[1\], f32\[10\]\) do not fit dot's rule",
        ),
    ],
)
def test_dynamic_arguments_that_do_not_fit_other_ops_are_errors(root: str, message: str) -> None:
    text = (
        ADD
        + "ENTRY e { p = f32[<=10] parameter(0)\n q = f32[10] parameter(1)\n c = pred[<=10] parameter(2)\n "
        + root
        + " }"
    )
    m = module(text)
    with pytest.raises(EvalError, match=r"t.hlo:\d+:\d+: error: " + message):
        hlo.run(m, np.ones(1, np.float32), np.ones(10, np.float32), np.ones(1, bool))
