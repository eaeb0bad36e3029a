"""Comparators recognised as sort keys, so sort runs as NumPy's stable argsort/lexsort.

A comparator `compare(f(a_k), f(b_k)), direction=LT|GT` (f any elementwise computation applied
alike to the two parameters of operand k: jax's NaN-canonicalising total order is one) sorts by
the key f(x_k); `or(compare_LT(key0), and(compare_EQ(key0), <rest>))` chains sort
lexicographically by several keys. Each key f runs once, lifted to the whole operand, as its own
small computation cut out of the comparator. Anything else is not recognised (None) and sort uses
the vectorized merge sort.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ir.attrs import ComparisonDirection, ComparisonType
from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import bits, numerics
from .computations import is_elementwise
from .context import KernelContext

Op = Opcode
Key = Callable[[Sequence[np.ndarray]], np.ndarray]  # the operands -> an ascending key
LT, GT, EQ = ComparisonDirection.LT, ComparisonDirection.GT, ComparisonDirection.EQ


def comparator_keys(c: Computation, ctx: KernelContext) -> list[Key] | None:
    """The keys (most significant first) a comparator sorts by, or None."""
    if not is_elementwise(c, ctx):
        return None
    found: list[Key] = []
    node = c.root
    by = c.by_name
    while True:
        if node.opcode is Op.COMPARE:
            key = _compare_key(c, node, ctx, strict=True)
            if key is None:
                return None
            return [*found, key]
        if node.opcode is not Op.OR or len(node.operands) != 2:
            return None
        less, rest = by[node.operands[0]], by[node.operands[1]]
        if less.opcode is not Op.COMPARE or rest.opcode is not Op.AND:
            return None
        equal, tail = by[rest.operands[0]], by[rest.operands[1]]
        if equal.opcode is not Op.COMPARE or equal.attrs["direction"] is not EQ:
            return None
        key = _compare_key(c, less, ctx, strict=True)
        if key is None or not _same_operands(c, less, equal):
            return None
        found.append(key)
        node = tail


def _same_operands(c: Computation, a: Instruction, b: Instruction) -> bool:
    """Whether two compares compare the same two values (in either order)."""
    return sorted(a.operands) == sorted(b.operands) and a.attrs["type"] is b.attrs["type"]


def _compare_key(c: Computation, node: Instruction, ctx: KernelContext, strict: bool) -> Key | None:
    direction = node.attrs["direction"]
    if direction not in (LT, GT):
        return None
    by = c.by_name
    left, right = by[node.operands[0]], by[node.operands[1]]
    params = {p.name: p.attrs["parameter_number"] for p in c.parameters}
    lp, rp = _params_of(c, left), _params_of(c, right)
    if len(lp) != 1 or len(rp) != 1:
        return None
    (a,), (b,) = lp, rp
    na, nb = params[a], params[b]
    if {na, nb} != {na - na % 2, na - na % 2 + 1}:
        return None  # not the two parameters of one operand
    if not _isomorphic(c, left, right, {a: b}):
        return None
    descending = (direction is GT) == (na % 2 == 0)
    operand = na // 2
    key_fn = _cut(c, left, a, ctx)
    t = left.shape.element_type
    if t.is_complex:
        return None
    total = node.attrs["type"] is ComparisonType.TOTALORDER
    width = t.bit_width

    def key(operands: Sequence[np.ndarray]) -> np.ndarray:
        v = np.asarray(key_fn(operands[operand]))
        if total:
            k = bits.total_order_key(v, width)
            return ~k if descending else k
        work = v.astype(numerics.compute_dtype(v.dtype), copy=False)
        if work.dtype == np.bool_:
            work = work.astype(np.int8)
        if not descending:
            return work
        return ~work if work.dtype.kind in "iu" else -work

    return key


def _params_of(c: Computation, node: Instruction) -> set[str]:
    by = c.by_name
    seen: set[str] = set()
    found: set[str] = set()
    stack = [node.name]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        i = by[name]
        if i.opcode is Op.PARAMETER:
            found.add(name)
        stack.extend(i.operands)
    return found


def _isomorphic(c: Computation, a: Instruction, b: Instruction, mapping: dict[str, str]) -> bool:
    """The two sub-DAGs compute the same function, parameter a standing for parameter b."""
    if a.name == b.name:
        return a.opcode is not Op.PARAMETER
    if a.opcode is Op.PARAMETER:
        return mapping.get(a.name) == b.name
    if (
        a.opcode is not b.opcode
        or a.shape != b.shape
        or a.attrs != b.attrs
        or len(a.operands) != len(b.operands)
    ):
        return False
    by = c.by_name
    return all(_isomorphic(c, by[x], by[y], mapping) for x, y in zip(a.operands, b.operands))


def _cut(c: Computation, node: Instruction, param: str, ctx: KernelContext) -> Any:
    """A plan of the sub-DAG computing `node` from parameter `param` (renumbered 0)."""
    by = c.by_name
    needed: set[str] = set()
    stack = [node.name]
    while stack:
        name = stack.pop()
        if name not in needed:
            needed.add(name)
            stack.extend(by[name].operands)
    instructions = []
    for i in c.instructions:
        if i.name in needed:
            if i.name == param:
                i = i.replace(attrs=FrozenDict(parameter_number=0))
            instructions.append(i)
    sub = Computation(f"{c.name}.key.{node.name}", tuple(instructions), node.name)
    return ctx.plan(sub)
