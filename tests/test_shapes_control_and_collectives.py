"""Builder functions and shape rules of control flow (Call, CompositeCall, While, Conditional),
custom calls, infeed/outfeed, send/recv and the collectives (AllReduce, AllGather,
ReduceScatter, AllToAll in both forms, CollectivePermute, CollectiveBroadcast, ReplicaId,
PartitionId): good cases give the documented shapes and print/parse back equal; bad cases name
the op, the rule and the shapes, at the user's line."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import hlo
from hlo import ops


def fn(name: str, shapes: list[str], body: Callable[..., Any]) -> hlo.XlaComputation:
    b = hlo.XlaBuilder(name)
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    body(b, *params)
    return b.build()


ADD = fn("add", ["f32[]", "f32[]"], lambda b, x, y: ops.Add(x, y))
DOUBLE = fn("double", ["f32[3]"], lambda b, x: ops.Add(x, x))
NEG = fn("neg", ["f32[3]"], lambda b, x: ops.Neg(x))
COND = fn("cond", ["(s32[], f32[3])"], lambda b, t: ops.Lt(ops.GetTupleElement(t, 0), ops.ConstantR0(b, 10)))
BODY = fn(
    "body", ["(s32[], f32[3])"],
    lambda b, t: ops.Tuple(b, [ops.Add(ops.GetTupleElement(t, 0), ops.ConstantR0(b, 1)), ops.Add(ops.GetTupleElement(t, 1), ops.GetTupleElement(t, 1))]),
)  # fmt: skip
BAD_BODY = fn("bad_body", ["(s32[], f32[3])"], lambda b, t: ops.GetTupleElement(t, 1))
INT_COND = fn("int_cond", ["(s32[], f32[3])"], lambda b, t: ops.GetTupleElement(t, 0))
TO_S32 = fn("to_s32", ["f32[3]"], lambda b, x: ops.ConvertElementType(x, "s32"))


def build(shapes: list[str], body: Callable[..., Any]) -> tuple[hlo.XlaComputation, Any]:
    b = hlo.XlaBuilder("t")
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    out = body(b, *params)
    return b.build(), out


GOOD: list[tuple[str, list[str], Callable[..., Any], str]] = [
    ("call", ["f32[3]"], lambda b, x: ops.Call(b, DOUBLE, [x]), "f32[3]"),
    ("composite", ["f32[3]"], lambda b, x: ops.CompositeCall(b, DOUBLE, [x], "my.double", '{k = 1 : i32}', 1), "f32[3]"),
    ("while", ["(s32[], f32[3])"], lambda b, t: ops.While(COND, BODY, t), "(s32[], f32[3])"),
    ("conditional pred", ["pred[]", "f32[3]"], lambda b, p, x: ops.Conditional(p, x, DOUBLE, x, NEG), "f32[3]"),
    ("conditional index", ["s32[]", "f32[3]"], lambda b, i, x: ops.Conditional(i, [DOUBLE, NEG, DOUBLE], [x, x, x]), "f32[3]"),
    ("custom call", ["f32[3]"], lambda b, x: ops.CustomCall(b, "my_target", [x], "f32[2,2]"), "f32[2,2]"),
    ("infeed", [], lambda b: ops.InfeedWithToken(ops.CreateToken(b), "f32[2]"), "(f32[2], token[])"),
    ("outfeed", ["f32[3]"], lambda b, x: ops.OutfeedWithToken(x, ops.CreateToken(b), "f32[3]"), "token[]"),
    ("all-reduce", ["f32[8]"], lambda b, x: ops.AllReduce(x, ADD, [[0, 1], [2, 3]]), "f32[8]"),
    ("all-reduce tuple", ["f32[8]", "f32[2]"], lambda b, x, y: ops.AllReduceTuple([x, y], ADD), "(f32[8], f32[2])"),
    ("cross-replica-sum", ["f32[8]"], lambda b, x: ops.CrossReplicaSum(x), "f32[8]"),
    ("all-gather", ["f32[2,3]"], lambda b, x: ops.AllGather(x, 1, 4), "f32[2,12]"),
    ("reduce-scatter", ["f32[8,3]"], lambda b, x: ops.ReduceScatter(x, ADD, 0, 4), "f32[2,3]"),
    # page 003: f32[4,16] split along 1 into 4 pieces, concatenated along 0
    ("all-to-all page 003", ["f32[4,16]"], lambda b, x: ops.AllToAll(x, 1, 0, 4), "f32[16,4]"),
    ("collective-permute", ["f32[3]"], lambda b, x: ops.CollectivePermute(x, [(0, 1), (1, 2), (2, 0)]), "f32[3]"),
    ("collective-broadcast", ["f32[3]"], lambda b, x: ops.CollectiveBroadcast(x, [[0, 1]]), "f32[3]"),
    ("replica-id", [], lambda b: ops.ReplicaId(b), "u32[]"),
    ("partition-id", [], lambda b: ops.PartitionId(b), "u32[]"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "body", "expected"), GOOD, ids=[g[0] for g in GOOD])
def test_good_cases_build_print_and_parse(name, shapes, body, expected):
    computation, out = build(shapes, body)
    assert out.shape.to_string(print_layout=False) == expected
    assert hlo.parse_module(computation.to_text()) == computation.module


def test_control_flow_runs():
    computation, _ = build(["(s32[], f32[3])"], lambda b, t: ops.While(COND, BODY, t))
    count, values = hlo.run(computation, (np.int32(7), np.ones(3, np.float32)))
    assert int(count) == 10 and values.tolist() == [8.0, 8.0, 8.0]
    computation, _ = build(["s32[]", "f32[3]"], lambda b, i, x: ops.Conditional(i, [DOUBLE, NEG], [x, x]))
    assert hlo.run(computation, np.int32(1), np.ones(3, np.float32)).tolist() == [-1.0] * 3
    assert hlo.run(computation, np.int32(7), np.ones(3, np.float32)).tolist() == [-1.0] * 3


BAD: list[tuple[str, list[str], Callable[..., Any], str]] = [
    ("call arity", ["f32[3]", "f32[3]"], lambda b, x, y: ops.Call(b, DOUBLE, [x, y]), r"Call: .*1 parameter|Call: .*takes"),
    ("call types", ["s32[3]"], lambda b, x: ops.Call(b, DOUBLE, [x]), r"Call: .*f32\[3\].*s32\[3\]|s32\[3\].*f32\[3\]"),
    ("while body", ["(s32[], f32[3])"], lambda b, t: ops.While(COND, BAD_BODY, t), r"While: .*body"),
    ("while condition", ["(s32[], f32[3])"], lambda b, t: ops.While(INT_COND, BODY, t), r"While: .*condition.*pred"),
    ("conditional selector", ["f32[]", "f32[3]"], lambda b, p, x: ops.Conditional(p, x, DOUBLE, x, NEG), r"Conditional: .*predicate.*pred"),
    ("conditional branches agree", ["s32[]", "f32[3]"], lambda b, i, x: ops.Conditional(i, [DOUBLE, TO_S32], [x, x]), r"Conditional: .*branch"),
    ("conditional counts", ["s32[]", "f32[3]"], lambda b, i, x: ops.Conditional(i, [DOUBLE, NEG], [x]), r"Conditional: needs N >= 1 branch computations and as many branch operands"),
    ("conditional arity", ["s32[]"], lambda b, i: ops.Conditional(i, [DOUBLE]), r"Conditional takes"),
    ("all-reduce reducer", ["s32[8]"], lambda b, x: ops.AllReduce(x, ADD), r"AllReduce: .*"),
    ("all-gather dimension", ["f32[2,3]"], lambda b, x: ops.AllGather(x, 2, 4), r"AllGather: .*dimension"),
    ("reduce-scatter divisible", ["f32[6,3]"], lambda b, x: ops.ReduceScatter(x, ADD, 0, 4), r"ReduceScatter: .*divisible|ReduceScatter: .*6"),
    ("all-to-all split", ["f32[4,15]"], lambda b, x: ops.AllToAll(x, 1, 0, 4), r"AllToAll: .*15.*4|AllToAll: .*divisible"),
    ("collective-permute duplicate source", ["f32[3]"], lambda b, x: ops.CollectivePermute(x, [(0, 1), (0, 2)]), r"CollectivePermute: .*source.*0"),
    ("collective-permute duplicate target", ["f32[3]"], lambda b, x: ops.CollectivePermute(x, [(0, 1), (2, 1)]), r"CollectivePermute: .*target.*1"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "shapes", "body", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_cases_say_what_and_where(name, shapes, body, message):
    with pytest.raises(hlo.HloError) as info:
        build(shapes, body)
    text = str(info.value)
    assert re.search(message, text), text
