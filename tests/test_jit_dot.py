"""Dots in the compiled loop tier (hlo.numerics.jit_linear): a loop whose body has dots of every
form NumPy's matmul tells apart (dot, gemv either way, gemm, k = 1, batches, transposed
operands) and of YNNPACK's plans (hlo.numerics.ynn_dot) gives the interpreter's bits when
compiled, for every supported type, with and without flushing, on special and random values;
RNN-like loops of BLAS sizes that run threaded; the dumps with dots compiled; and the
interpreter alone when NumPy's BLAS is not found."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hlo
from hlo.numerics import jit_linear, loop_tier
from loop_modules import while_loop_text
from test_engine_programs import load
from test_jit import assert_loop_compiles, assert_same_bits, zeros_after_three

numba = pytest.importorskip("numba")
if jit_linear.numpy_blas() is None:
    pytest.skip(
        "NumPy's bundled OpenBLAS is not found: dots stay on the interpreter", allow_module_level=True
    )

N = 64  # elements of each state array
# (lhs slice length, lhs shape, rhs slice length, rhs shape, dimension numbers, result shape)
DOTS = [
    (48, "6,8", 8, "8", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "6"),  # matrix @ vector
    (8, "8", 48, "8,6", "lhs_contracting_dims={0}, rhs_contracting_dims={0}", "6"),  # vector @ matrix
    (8, "8", 8, "8", "lhs_contracting_dims={0}, rhs_contracting_dims={0}", ""),  # dot
    (48, "6,8", 48, "8,6", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "6,6"),  # gemm
    (6, "6,1", 4, "1,4", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "6,4"),  # k = 1
    (1, "1,1", 4, "1,4", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "1,4"),  # k = m = 1
    (5, "5,1", 1, "1,1", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "5,1"),  # k = n = 1
    (48, "2,3,8", 48, "2,8,3", "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
     "rhs_contracting_dims={1}", "2,3,3"),  # batched gemm
    (48, "8,6", 48, "6,8", "lhs_contracting_dims={0}, rhs_contracting_dims={1}", "6,6"),  # transposed
    (48, "2,3,8", 16, "2,8", "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
     "rhs_contracting_dims={1}", "2,3"),  # batched matrix @ vector
    (48, "8,2,3", 16, "8,2", "lhs_batch_dims={1}, lhs_contracting_dims={0}, rhs_batch_dims={1}, "
     "rhs_contracting_dims={0}", "2,3"),  # batched, batch and contracting dimensions not leading
    (48, "4,2,6", 48, "2,6,4", "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}", "4,4"),  # two
    (24, "2,3,4", 4, "4", "lhs_contracting_dims={2}, rhs_contracting_dims={0}", "2,3"),  # m of two dims
    # YNNPACK's (hlo.numerics.ynn_dot): four sums a result, a tail of k, one sum, the rhs [n, k]
    (64, "4,16", 64, "16,4", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "4,4"),
    (54, "6,9", 36, "9,4", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "6,4"),
    (4, "2,2", 64, "2,32", "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "2,32"),
    (48, "6,8", 48, "6,8", "lhs_contracting_dims={1}, rhs_contracting_dims={1}", "6,6"),
]  # fmt: skip


def dot_loop_text(t: str, steps: int) -> str:
    """A loop over (i, a, b, results...): each dot of DOTS on slices of a and b; a moves to b,
    and b becomes a [8,8] @ [8,8] dot of them, so that dots feed dots."""
    v = f"{t}[{N}]"
    lines, shapes, results = [], [], []
    for k, (ln, ls, rn, rs, dims, out) in enumerate(DOTS):
        lines += [
            f"  %l{k} = {t}[{ln}] slice(%a), slice={{[{N - ln}:{N}]}}",
            f"  %lr{k} = {t}[{ls}] reshape(%l{k})",
            f"  %r{k} = {t}[{rn}] slice(%b), slice={{[0:{rn}]}}",
            f"  %rr{k} = {t}[{rs}] reshape(%r{k})",
            f"  %d{k} = {t}[{out}] dot(%lr{k}, %rr{k}), {dims}",
        ]
        shapes.append(f"{t}[{out}]")
        results.append(f"%d{k}")
    head = [
        "  %one = s32[] constant(1)",
        "  %next = s32[] add(%i, %one)",
        f"  %am = {t}[8,8] reshape(%a)",
        f"  %bm = {t}[8,8] reshape(%b)",
        f"  %ab = {t}[8,8] dot(%am, %bm), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}",
        f"  %nb = {v} reshape(%ab)",
    ]
    return while_loop_text(
        "dots", t, N, shapes, steps, "\n".join(head + lines), f"%next, %b, %nb, {', '.join(results)}"
    )


TYPES = ["f32", "f64", "s32", "u8", "s64"]
_MODULES: dict[str, hlo.Module] = {}


def _module(t: str) -> hlo.Module:
    if t not in _MODULES:
        _MODULES[t] = hlo.parse_module(dot_loop_text(t, 2))
    return _MODULES[t]


def _values(t: np.dtype) -> st.SearchStrategy[np.ndarray]:
    """Random normal values with a few special ones (NaN, infinities, signed zeros, subnormals
    in floats; extremes in integers) dropped in."""
    if t.kind == "f":
        tiny = float(np.finfo(t).tiny)
        specials = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny / 4, -tiny / 4, tiny, 1e30, -1e-30]
    else:
        info = np.iinfo(t)
        specials = [0, 1, int(info.min), int(info.max), int(info.max) // 3]

    def make(seed: int, spots: list[int], picks: list[int]) -> np.ndarray:
        rng = np.random.default_rng(seed)
        if t.kind == "f":
            x = rng.standard_normal(N).astype(t)
        else:
            info = np.iinfo(t)
            x = rng.integers(int(info.min), int(info.max), N, dtype=t, endpoint=True)
        for spot, pick in zip(spots, picks):
            x[spot] = t.type(specials[pick % len(specials)])
        return x

    return st.builds(
        make,
        st.integers(0, 2**32 - 1),
        st.lists(st.integers(0, N - 1), max_size=6),
        st.lists(st.integers(0, 99), min_size=6, max_size=6),
    )


@pytest.mark.parametrize("flush", [True, False], ids=["flush", "noflush"])
@pytest.mark.parametrize("t", TYPES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_compiled_dots_give_the_interpreters_bits(t: str, flush: bool, data: st.DataObject) -> None:
    module = _module(t)
    dtype = np.dtype(hlo.parse_shape(f"{t}[]").element_type.numpy_dtype)
    a, b = data.draw(_values(dtype)), data.draw(_values(dtype))
    args = [np.array(0, np.int32), a, b, *zeros_after_three(module)]
    off = hlo.run(module, *args, jit="off", flush_denormals=flush)
    on = hlo.run(module, *args, jit="eager", flush_denormals=flush)
    assert_same_bits(off, on)


@pytest.mark.parametrize("t", TYPES)
def test_the_dot_loops_compile(t: str) -> None:
    assert_loop_compiles(_module(t))


def rnn_text(t: str, size: int, steps: int) -> str:
    """h = tanh(w @ h + u @ x) for `steps` steps: a gemv of `size` (threaded in OpenBLAS from
    about 96) and a [size, size] @ [size, 2] gemm."""
    return f"""HloModule rnn

%cond (c: (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2])) -> pred[] {{
  %c = (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2]) parameter(0)
  %n = s32[] get-tuple-element(%c), index=0
  %limit = s32[] constant({steps})
  ROOT %lt = pred[] compare(%n, %limit), direction=LT
}}

%body (s: (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2])) -> (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2]) {{
  %s = (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %h = {t}[{size}] get-tuple-element(%s), index=1
  %w = {t}[{size},{size}] get-tuple-element(%s), index=2
  %x = {t}[{size},2] get-tuple-element(%s), index=3
  %one = s32[] constant(1)
  %next = s32[] add(%i, %one)
  %wh = {t}[{size}] dot(%w, %h), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  %hw = {t}[{size}] dot(%h, %w), lhs_contracting_dims={{0}}, rhs_contracting_dims={{1}}
  %wx = {t}[{size},2] dot(%w, %x), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  %x0 = {t}[{size},1] slice(%wx), slice={{[0:{size}], [0:1]}}
  %x1 = {t}[{size}] reshape(%x0)
  %sum = {t}[{size}] add(%wh, %hw)
  %sum2 = {t}[{size}] add(%sum, %x1)
  %nh = {t}[{size}] tanh(%sum2)
  %nx = {t}[{size},2] tanh(%wx)
  ROOT %t = (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2]) tuple(%next, %nh, %w, %nx)
}}

ENTRY %main (h: {t}[{size}], w: {t}[{size},{size}], x: {t}[{size},2]) -> (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2]) {{
  %h = {t}[{size}] parameter(0)
  %w = {t}[{size},{size}] parameter(1)
  %x = {t}[{size},2] parameter(2)
  %zero = s32[] constant(0)
  %init = (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2]) tuple(%zero, %h, %w, %x)
  ROOT %r = (s32[], {t}[{size}], {t}[{size},{size}], {t}[{size},2]) while(%init), condition=%cond, body=%body
}}
"""  # noqa: E501


@pytest.mark.parametrize("t", ["f32", "f64"])
@pytest.mark.parametrize("size", [3, 17, 64, 130, 300])
def test_rnn_loops_of_blas_sizes_give_the_interpreters_bits(t: str, size: int) -> None:
    module = hlo.parse_module(rnn_text(t, size, 20))
    rng = np.random.default_rng(size)
    dtype = np.float32 if t == "f32" else np.float64
    args = [
        rng.standard_normal(size).astype(dtype),
        (rng.standard_normal((size, size)) / np.sqrt(size)).astype(dtype),
        rng.standard_normal((size, 2)).astype(dtype),
    ]
    assert_same_bits(hlo.run(module, *args, jit="off"), hlo.run(module, *args, jit="eager"))


@pytest.mark.parametrize("name", ["scan_rnn", "stack_frames"])
@pytest.mark.parametrize("optimized", [False, True], ids=["hlo", "opt.hlo"])
def test_dumps_with_dots_compile_and_give_the_same_bits(name: str, optimized: bool) -> None:
    module, args, _ = load(name, optimized)
    before = set(loop_tier._kernels)
    on = hlo.run(module, *args, jit="eager")
    new = [loop_tier._kernels[k] for k in set(loop_tier._kernels) - before]
    assert_same_bits(hlo.run(module, *args, jit="off"), on)
    assert all(k.fn is not None for k in new)
    assert any(
        loop_tier.loop_source(module, i.attrs["condition"], i.attrs["body"], i.shape, True) is not None
        for c in module.computations
        for i in c.instructions
        if i.opcode.text == "while"
    )


def test_without_numpys_blas_dots_stay_on_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jit_linear, "numpy_blas", lambda: None)
    module = _module("f32")
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    assert (
        loop_tier.loop_source(module, instr.attrs["condition"], instr.attrs["body"], instr.shape, True)
        is None
    )
    integers = _module("s32")  # (integer dots need no BLAS)
    instr = next(i for i in integers.entry.instructions if i.opcode.text == "while")
    assert loop_tier.loop_source(integers, instr.attrs["condition"], instr.attrs["body"], instr.shape, True)


def test_a_dot_of_mixed_types_stays_on_the_interpreter() -> None:
    text = rnn_text("f32", 4, 3).replace(
        "%wh = f32[4] dot(%w, %h)", "%hd = f64[4] convert(%h)\n  %wh0 = f64[4] dot(%w, %hd)"
    )
    text = text.replace(
        "%sum = f32[4] add(%wh, %hw)", "%wh = f32[4] convert(%wh0)\n  %sum = f32[4] add(%wh, %hw)"
    )
    module = hlo.parse_module(text)
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    assert (
        loop_tier.loop_source(module, instr.attrs["condition"], instr.attrs["body"], instr.shape, True)
        is None
    )


SCAN = """HloModule scan

%cond (c: (s32[], f32[4], f32[5,4], f32[5,4])) -> pred[] {
  %c = (s32[], f32[4], f32[5,4], f32[5,4]) parameter(0)
  %n = s32[] get-tuple-element(%c), index=0
  %limit = s32[] constant(5)
  ROOT %lt = pred[] compare(%n, %limit), direction=LT
}

%body (s: (s32[], f32[4], f32[5,4], f32[5,4])) -> (s32[], f32[4], f32[5,4], f32[5,4]) {
  %s = (s32[], f32[4], f32[5,4], f32[5,4]) parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %h = f32[4] get-tuple-element(%s), index=1
  %ys = f32[5,4] get-tuple-element(%s), index=2
  %other = f32[5,4] get-tuple-element(%s), index=3
  %one = s32[] constant(1)
  %zero = s32[] constant(0)
  %next = s32[] add(%i, %one)
  %nh = f32[4] sine(%h)
  %row = f32[1,4] reshape(%nh)
  %ys2 = f32[5,4] dynamic-update-slice(%ys, %row, %i, %zero)
  %other2 = f32[5,4] dynamic-update-slice(%other, %row, %next, %zero)
  %late = f32[5,4] add(LATE, %ys2)
  ROOT %t = (s32[], f32[4], f32[5,4], f32[5,4]) tuple(%next, %nh, %ys2, LAST)
}

ENTRY %main (h: f32[4], ys: f32[5,4], other: f32[5,4]) -> (s32[], f32[4], f32[5,4], f32[5,4]) {
  %h = f32[4] parameter(0)
  %ys = f32[5,4] parameter(1)
  %other = f32[5,4] parameter(2)
  %zero = s32[] constant(0)
  %init = (s32[], f32[4], f32[5,4], f32[5,4]) tuple(%zero, %h, %ys, %other)
  ROOT %r = (s32[], f32[4], f32[5,4], f32[5,4]) while(%init), condition=%cond, body=%body
}
"""


@pytest.mark.parametrize(
    ("last", "late", "in_place"),
    [
        ("%other2", "%other", ["s2", "s3"]),
        ("%late", "%ys", []),
        ("%late", "%other", ["s2"]),
        ("%ys2", "%ys", []),
    ],
    ids=["both", "old-value-read-after", "one", "leaves-alias"],
)
def test_scan_outputs_update_in_place_without_writing_the_callers_arrays(
    last: str, late: str, in_place: list[str]
) -> None:
    """A stacked output updated in place (the leaf copied once per call instead of once per
    iteration) when no one reads the old value after the update and the update becomes that
    leaf alone; the caller's arrays stay as they were, and the bits are the interpreter's."""
    module = hlo.parse_module(SCAN.replace("LAST", last).replace("LATE", late))
    instr = next(i for i in module.entry.instructions if i.opcode.text == "while")
    source = loop_tier.loop_source(module, instr.attrs["condition"], instr.attrs["body"], instr.shape, True)
    assert source is not None
    entry_copies = [
        line.strip() for line in source.source.splitlines() if line.startswith("    s") and ".copy()" in line
    ]
    assert entry_copies == [f"{leaf} = {leaf}.copy()" for leaf in in_place]
    args = [
        np.linspace(-1, 1, 4, dtype=np.float32),
        np.ones((5, 4), np.float32),
        np.full((5, 4), 2, np.float32),
    ]
    kept = [a.copy() for a in args]
    on = hlo.run(module, *args, jit="eager")
    for a, b in zip(args, kept):
        assert a.tobytes() == b.tobytes()
    assert_same_bits(hlo.run(module, *args, jit="off"), on)
