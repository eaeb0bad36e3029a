"""Property: random valid builder programs print as HLO text that parses back to an equal module,
verifies clean, and keeps every instruction's shape."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import hlo
from hlo import XlaOp, ops

TYPES = ["f32", "bf16", "s32", "u8", "pred", "f64", "s4"]


def _param_shapes() -> st.SearchStrategy[str]:
    dims = st.lists(st.integers(0, 4), min_size=0, max_size=3)
    return st.builds(lambda t, d: f"{t}[{','.join(map(str, d))}]", st.sampled_from(TYPES), dims)


def _is_float(x: XlaOp) -> bool:
    return x.shape.element_type.is_floating_point


def _is_int(x: XlaOp) -> bool:
    return x.shape.element_type.is_integral


def _steps() -> dict[str, Callable[[st.DataObject, list[XlaOp]], XlaOp | None]]:
    """Each step draws an op that is valid for the values built so far (or None)."""

    def pick(
        data: st.DataObject, values: list[XlaOp], ok: Callable[[XlaOp], bool] = lambda x: True
    ) -> XlaOp | None:
        candidates = [v for v in values if v.shape.is_array and ok(v)]
        return data.draw(st.sampled_from(candidates)) if candidates else None

    def unary(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values, _is_float)
        if x is None:
            return None
        fn = data.draw(st.sampled_from(["Exp", "Neg", "Abs", "Tanh", "Floor", "Sqrt", "Logistic", "Sign"]))
        return getattr(ops, fn)(x)

    def binary(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values, lambda v: v.shape.element_type.text != "pred")
        if x is None:
            return None
        same = [v for v in values if v.shape.is_array and v.shape.compatible(x.shape)]
        y = data.draw(st.sampled_from(same))
        fn = data.draw(st.sampled_from(["Add", "Sub", "Mul", "Max", "Min"]))
        return getattr(ops, fn)(x, y)

    def compare(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values)
        if x is None:
            return None
        fn = data.draw(st.sampled_from(["Eq", "Ne", "Lt", "Ge"]))
        return getattr(ops, fn)(x, x)

    def convert(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values)
        if x is None:
            return None
        return ops.ConvertElementType(x, data.draw(st.sampled_from(TYPES)))

    def transpose(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values)
        if x is None:
            return None
        perm = data.draw(st.permutations(range(x.shape.rank)))
        return ops.Transpose(x, list(perm))

    def reshape(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values)
        if x is None:
            return None
        n = int(np.prod(x.shape.dimensions))
        sizes = [n] if n else [0, 3]
        if n and n % 2 == 0 and data.draw(st.booleans()):
            sizes = [2, n // 2]
        return ops.Reshape(x, sizes)

    def broadcast(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values, lambda v: v.shape.rank <= 2)
        if x is None:
            return None
        return ops.Broadcast(x, [data.draw(st.integers(1, 3))])

    def slice_(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values, lambda v: v.shape.rank >= 1)
        if x is None:
            return None
        starts, limits = [], []
        for d in x.shape.dimensions:
            a = data.draw(st.integers(0, d))
            starts.append(a)
            limits.append(data.draw(st.integers(a, d)))
        return ops.Slice(x, starts, limits, [1] * x.shape.rank)

    def concat(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values, lambda v: v.shape.rank >= 1)
        if x is None:
            return None
        return ops.ConcatInDim(x.builder, [x, x], 0)

    def rev(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values, lambda v: v.shape.rank >= 1)
        return None if x is None else ops.Rev(x, [0])

    def select(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values)
        if x is None:
            return None
        return ops.Select(ops.Lt(x, x), x, x)

    def tuple_(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        items = data.draw(st.lists(st.sampled_from(values), min_size=1, max_size=3))
        t = ops.Tuple(values[0].builder, items)
        return ops.GetTupleElement(t, data.draw(st.integers(0, len(items) - 1)))

    def constant(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        b = values[0].builder
        return ops.ConstantR1(b, data.draw(st.lists(st.integers(-5, 5), max_size=4)), "s32")

    def shift(data: st.DataObject, values: list[XlaOp]) -> XlaOp | None:
        x = pick(data, values, _is_int)
        return None if x is None else ops.ShiftLeft(x, x)

    return {f.__name__: f for f in (unary, binary, compare, convert, transpose, reshape, broadcast,
                                    slice_, concat, rev, select, tuple_, constant, shift)}  # fmt: skip


STEPS = _steps()


@settings(max_examples=120, deadline=None)
@given(st.lists(_param_shapes(), min_size=1, max_size=3), st.data())
def test_random_builder_programs_round_trip(param_shapes: list[str], data: st.DataObject) -> None:
    b = hlo.XlaBuilder("random")
    values = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(param_shapes)]
    for _ in range(data.draw(st.integers(1, 12))):
        step = STEPS[data.draw(st.sampled_from(sorted(STEPS)))]
        result = step(data, values)
        if result is not None:
            values.append(result)
    comp = b.build(values[-1])
    text = comp.to_text()
    parsed = hlo.parse_module(text)
    assert parsed == comp.module, text
    assert parsed.to_text() == text
    assert hlo.verify(parsed, all_errors=True) == []
    built = {i.name: i.shape for i in comp.computation.instructions}
    for i in parsed.entry.instructions:
        assert i.shape == built[i.name]
