"""Fuzzing kept in the suite (docs/HARDENING.md): hypothesis feeds hostile input to every input
surface — shape and layout text, mutated real dumps through parse -> verify -> run, random
builder programs, the memory functions, `.npz` input files — and asserts only that each gives a
result or an `hlo` error (an HloError), never another exception, a hang or a huge allocation.
Each property is bounded (a few seconds); tools/fuzz_atheris.py runs the long, coverage-guided
version."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hlo
from hlo import budget
from hlo.errors import HloError
from hlo.replay.inputs import random_value
from hlo.replay.npz import load_inputs

DUMPS = sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo"))
SMALL_DUMPS = [p for p in DUMPS if p.stat().st_size < 20_000]
LIMITS = {"max_iterations": 200, "memory_limit": 16 << 20, "timeout": 5.0}
FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))

SHAPE_ALPHABET = "fsupredbc0123456789[](){}<=?,:*#TLESMDPCH()_ x"
SHAPE_WORDS = ["f32", "bf16", "s4", "pred", "u8", "token", "tuple", "(", ")", "[", "]", "{", "}", ",",
               "<=", "?", ":", "T(", "L(", "E(", "S(", "*(", "#(", "SC(", "D(", "P(", "M(", "*",
               "0", "1", "2", "3", "8", "128", "-1", "2147483648", "99999999999"]  # fmt: skip


def answers(fn, *args):  # type: ignore[no-untyped-def]
    """The result of fn(*args), or None if it raised an HloError (anything else propagates)."""
    try:
        return fn(*args)
    except HloError:
        return None


text_of_words = st.lists(st.sampled_from(SHAPE_WORDS), max_size=30).map("".join)
text_of_chars = st.text(alphabet=SHAPE_ALPHABET, max_size=40)


@FAST
@given(st.one_of(text_of_words, text_of_chars))
def test_shape_text_parses_or_is_an_error(text: str) -> None:
    shape = answers(hlo.parse_shape, text)
    if shape is not None:
        assert hlo.parse_shape(str(shape)) == shape
        if shape.is_array and not shape.is_unbounded_dynamic:
            size = answers(hlo.byte_size, shape)
            assert size is None or size >= 0


@FAST
@given(st.one_of(text_of_words, text_of_chars))
def test_layout_text_parses_or_is_an_error(text: str) -> None:
    from hlo.text.shape_codec import parse_layout

    answers(parse_layout, text)


def mutate(text: str, data: st.DataObject) -> str:
    """A few edits of a real dump: spans deleted, duplicated, or overwritten with bytes of it."""
    for _ in range(data.draw(st.integers(1, 4))):
        if not text:
            break
        start = data.draw(st.integers(0, len(text) - 1))
        end = min(len(text), start + data.draw(st.integers(0, 40)))
        kind = data.draw(st.sampled_from(["delete", "duplicate", "replace", "digit"]))
        if kind == "delete":
            text = text[:start] + text[end:]
        elif kind == "duplicate":
            text = text[:end] + text[start:end] + text[end:]
        elif kind == "replace":
            other = data.draw(st.integers(0, len(text) - 1))
            text = text[:start] + text[other : other + end - start] + text[end:]
        else:
            text = (
                text[:start]
                + data.draw(st.sampled_from(["0", "-1", "7", "65536", "4294967296", "1e9", "nan"]))
                + text[end:]
            )
    return text


def small_enough(module: hlo.Module) -> bool:
    from hlo.budget import array_bytes

    return all(array_bytes(i.shape) < 1 << 20 for c in module.computations for i in c.instructions)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SMALL_DUMPS), st.data())
def test_mutated_dumps_parse_verify_and_run_or_are_errors(path: Path, data: st.DataObject) -> None:
    text = mutate(path.read_text(), data)
    module = answers(hlo.parse_module, text, path.name)
    if module is None:
        return
    answers(module.to_text)
    if answers(hlo.verify, module) is None and small_enough(module):
        config = module.config
        if config.replica_count * config.num_partitions == 1:
            rng = np.random.default_rng(0)
            args = answers(lambda: [random_value(s, rng) for s in module.entry.parameter_shapes])
            if args is not None:
                answers(lambda: hlo.run(module, *args, **LIMITS))


UNARY = ["Neg", "Abs", "Exp", "Sqrt", "Not", "Sign"]
BINARY = ["Add", "Mul", "Sub", "Div", "Max", "And", "Rem"]


@FAST
@given(st.data())
def test_random_builder_programs_run_or_are_errors(data: st.DataObject) -> None:
    from hlo import ops

    b = hlo.XlaBuilder("fuzz")
    types = ["f32", "s32", "pred", "bf16", "u8"]
    values = []
    for k in range(data.draw(st.integers(1, 3))):
        dims = data.draw(st.lists(st.integers(0, 4), max_size=3))
        shape = f"{data.draw(st.sampled_from(types))}[{','.join(map(str, dims))}]"
        values.append(ops.Parameter(b, k, shape, f"p{k}"))
    try:
        for _ in range(data.draw(st.integers(1, 6))):
            kind = data.draw(
                st.sampled_from(["unary", "binary", "reshape", "transpose", "broadcast", "const"])
            )
            x = data.draw(st.sampled_from(values))
            if kind == "unary":
                values.append(getattr(ops, data.draw(st.sampled_from(UNARY)))(x))
            elif kind == "binary":
                values.append(
                    getattr(ops, data.draw(st.sampled_from(BINARY)))(x, data.draw(st.sampled_from(values)))
                )
            elif kind == "reshape":
                values.append(ops.Reshape(x, data.draw(st.lists(st.integers(-1, 6), max_size=3))))
            elif kind == "transpose":
                values.append(ops.Transpose(x, data.draw(st.lists(st.integers(-1, 3), max_size=3))))
            elif kind == "broadcast":
                values.append(ops.Broadcast(x, data.draw(st.lists(st.integers(0, 3), max_size=2))))
            else:
                values.append(
                    ops.ConstantR0(
                        b, data.draw(st.one_of(st.integers(-(2**70), 2**70), st.floats(), st.booleans()))
                    )
                )
        computation = b.build()
    except HloError:
        return
    rng = np.random.default_rng(0)
    entry = computation.module.entry
    args = [random_value(s, rng) for s in entry.parameter_shapes]
    answers(lambda: hlo.run(computation, *args, **LIMITS))


@FAST
@given(st.one_of(text_of_words, text_of_chars), st.binary(max_size=64))
def test_memory_functions_answer_or_are_errors(text: str, data: bytes) -> None:
    shape = answers(hlo.parse_shape, text)
    if (
        shape is None
        or not shape.is_array
        or shape.is_unbounded_dynamic
        or not shape.element_type.has_numpy_dtype
    ):
        return
    answers(hlo.from_physical, data, shape)
    if budget.array_bytes(shape) < 1 << 16 and answers(hlo.byte_size, shape) is not None:
        dims = tuple(max(d, 0) for d in shape.dimensions)
        array = np.zeros(dims, shape.element_type.numpy_dtype)
        physical = answers(hlo.to_physical, array, shape)
        if physical is not None and len(physical) < 1 << 20:
            back = hlo.from_physical(physical, shape)
            assert back.shape == dims


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(
        st.binary(max_size=200),
        st.sampled_from([b"PK\x03\x04", b"\x93NUMPY\x01\x00"]).map(lambda h: h + b"\0" * 40),
    )
)
def test_npz_input_files_load_or_are_errors(data: bytes) -> None:
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".npz") as f:
        f.write(data)
        f.flush()
        answers(load_inputs, f.name, (hlo.parse_shape("f32[2]"),))
