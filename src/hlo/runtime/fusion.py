"""Loop fusion, as XLA's: chains of elementwise ops over large arrays run block by block.

Each op of a chain over a 4M-element array reads and writes 16 MB: the chain runs at memory
speed, from and to RAM. Run instead over blocks of rows small enough to stay in the core's cache
(`BLOCK_ELEMENTS`), every op of the chain in turn on the block, the chain reads its inputs and
writes its outputs once (benchmarks/RESULTS.md: 3.3x on a 12-op chain).

A group is a set of fusible instructions (elementwise ops, compare, select, clamp, convert,
bitcast-convert of one width, reduce-precision, and broadcast, which becomes a view) of the
same dimensions, planned already: each member keeps its bound kernel, so a fused run computes bit
for bit what the unfused run computes, one block of rows at a time. Operands from outside a
group have the group's dimensions (sliced per block), are scalars, or feed a broadcast. No path
may leave a group and come back to it (a group runs as one step). Values used outside their
group (or the root) are written to whole arrays; the others live one block at a time. Reduces
are not members (XLA's reduction fusion): folded block by block, a reduce pays its Python steps
once per block, which measured slower on softmax and layernorm than reading the whole operand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ops.registry import spec
from .step import Step

if TYPE_CHECKING:
    from .fused_group import FusionTier

BLOCK_ELEMENTS = 1 << 17  # elements per block: 512 KB of f32, measured best on a 12-op chain (RESULTS.md)
MIN_ELEMENTS = 2 * BLOCK_ELEMENTS  # smaller arrays gain nothing from blocking
MIN_MEMBERS = 2  # one instruction alone gains nothing from fusing (tests force 1)

FUSIBLE = frozenset(
    {Opcode.COMPARE, Opcode.SELECT, Opcode.CLAMP, Opcode.CONVERT, Opcode.BITCAST_CONVERT,
     Opcode.REDUCE_PRECISION, Opcode.BROADCAST}
)  # fmt: skip


def fusible(i: Instruction, by_name: dict[str, Instruction]) -> bool:
    s = i.shape
    if s.is_tuple or not s.is_static or not s.dimensions:
        return False
    if math.prod(s.dimensions) < MIN_ELEMENTS:
        return False
    if i.opcode is Opcode.BROADCAST:
        return True
    if not (i.opcode in FUSIBLE or spec(i.opcode).elementwise):
        return False
    return all(
        by_name[o].shape.dimensions in (s.dimensions, ()) and by_name[o].shape.is_static for o in i.operands
    )


def groups(
    instructions: Sequence[Instruction],
    by_name: dict[str, Instruction],
    folded: AbstractSet[str] = frozenset(),
) -> list[list[Instruction]]:
    """Groups of two or more fusible instructions (not folded to constants), in plan order, none
    on both sides of a path that leaves it."""
    index = {i.name: k for k, i in enumerate(instructions)}
    group_of: dict[str, int] = {}
    members: dict[int, list[Instruction]] = {}
    for k, i in enumerate(instructions):
        if i.name in folded or not fusible(i, by_name):
            continue
        joined = {
            group_of[o]
            for o in i.operands
            if o in group_of
            and by_name[o].shape.dimensions == i.shape.dimensions
            and i.opcode is not Opcode.BROADCAST
        }  # (a broadcast's operand stays outside: its block is a view of the whole operand)
        # All the operands' groups if that stays closed, else the largest one that does.
        choices = [sorted(joined)] + [[g] for g in sorted(joined, key=lambda g: -len(members[g]))]
        chosen = next(
            (
                gs
                for gs in choices
                if gs and closed([i, *(m for g in gs for m in members[g])], index, by_name)
            ),
            None,
        )
        if chosen:
            g = chosen[0]
            merged = [i, *(m for h in chosen for m in members.pop(h))]
            for m in merged:
                group_of[m.name] = g
            members[g] = sorted(merged, key=lambda m: index[m.name])
        else:
            g = k
            members[g] = [i]
        group_of[i.name] = g
    return [m for m in members.values() if len(m) >= MIN_MEMBERS]


def closed(candidate: list[Instruction], index: dict[str, int], by_name: dict[str, Instruction]) -> bool:
    """No operand from outside the set depends on a member of the set (else the set could not
    run as one step), and no broadcast reads a member. The search walks up from the outside
    operands, only through instructions after the set's first member (plan order is a
    topological order: nothing before it can depend on a member)."""
    inside = {m.name for m in candidate}
    if any(m.opcode is Opcode.BROADCAST and m.operands[0] in inside for m in candidate):
        return False  # a broadcast's block is a view of its whole operand: never a member's block
    first = min(index[m.name] for m in candidate)
    stack = [o for m in candidate for o in m.operands if o not in inside and index.get(o, -1) > first]
    seen: set[str] = set()
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for o in by_name[name].operands:
            if o in inside:
                return False
            if index.get(o, -1) > first and o not in seen:
                stack.append(o)
    return True


def broadcast_block(i: Instruction) -> Callable[[np.ndarray, int, int], np.ndarray]:
    """The rows [r0, r1) of a broadcast's result, as a view of its operand."""
    dims = tuple(i.attr("dimensions"))
    order = sorted(range(len(dims)), key=lambda d: dims[d])
    rank = len(i.shape.dimensions)
    expanded = [1] * rank
    out_dims = tuple(i.shape.dimensions)

    def block(x: np.ndarray, r0: int, r1: int) -> np.ndarray:
        x = np.transpose(x, order) if order != sorted(order) else x
        if dims and 0 in dims:  # the rows come from the operand's dimension mapped to 0
            x = x[r0:r1]
        shape = list(expanded)
        for d, n in zip(sorted(dims), x.shape):
            shape[d] = n
        return np.broadcast_to(x.reshape(shape), (r1 - r0, *out_dims[1:]))

    return block


def group_runner(
    group: list[Instruction],
    fns: dict[str, Callable[..., Any]],
    outside: list[str],
    escaping: list[str],
    by_name: dict[str, Instruction],
) -> Callable[..., tuple[np.ndarray, ...]]:
    """The function of one fused step: the outside values in, the escaping values out (whole
    arrays), computed block by block. (On one core: blocks on two threads measured no faster on
    the chains and 2x slower in a transformer step, where BLAS's spinning threads hold the other
    core; benchmarks/RESULTS.md.)"""
    dims = tuple(group[-1].shape.dimensions)
    rows = max(1, BLOCK_ELEMENTS // max(math.prod(dims[1:]), 1))
    small = rows * math.prod(dims[1:]) <= BLOCK_ELEMENTS
    position = {m.name: k for k, m in enumerate(group)}
    outside_at = {name: k for k, name in enumerate(outside)}
    last_user: dict[str, int] = {}
    for k, m in enumerate(group):
        for o in m.operands:
            if o in position:
                last_user[o] = k
    steps = []
    for k, m in enumerate(group):
        refs = []
        for o in m.operands:
            if o in position:
                refs.append((IN, position[o]))
            elif m.opcode is Opcode.BROADCAST or by_name[o].shape.dimensions != dims:
                refs.append((WHOLE, outside_at[o]))  # a broadcast's operand, or a scalar
            else:
                refs.append((ROWS, outside_at[o]))
        drop = tuple(position[o] for o, u in last_user.items() if u == k and o not in escaping)
        kernel: Callable[..., Any] = broadcast_block(m) if m.opcode is Opcode.BROADCAST else fns[m.name]
        # An escaping value a single ufunc computes is written straight into its whole array.
        into = escaping.index(m.name) if m.name in escaping and hasattr(kernel, "inline") else -1
        if into >= 0:
            kernel = kernel.inline[0]  # type: ignore[attr-defined]
        # A broadcast whose rows do not come from its operand gives the same block every time:
        # made once per run, contiguous (NumPy runs a binary op on a broadcast view 1.5-2x
        # slower than on a contiguous block; RESULTS.md), unless a block is large (huge rows).
        fixed = m.opcode is Opcode.BROADCAST and 0 not in tuple(m.attr("dimensions")) and small
        kind = FIXED if fixed else VIEW if m.opcode is Opcode.BROADCAST else OP
        steps.append((kind, kernel, tuple(refs), drop, into))
    out_types = [np.dtype(by_name[name].shape.element_type.numpy_dtype) for name in escaping]
    out_shapes = [tuple(by_name[name].shape.dimensions) for name in escaping]
    copied = [(e, position[name]) for e, name in enumerate(escaping) if not any(s[4] == e for s in steps)]

    def run(*values: np.ndarray) -> tuple[np.ndarray, ...]:
        outs = [np.empty(shape, t) for shape, t in zip(out_shapes, out_types)]
        made: dict[tuple[int, int], np.ndarray] = {}  # (step, rows) -> a fixed broadcast's block

        def rows_of(r0: int, r1: int) -> None:
            block: list[Any] = [None] * len(steps)
            for k, (kind, kernel, refs, drop, into) in enumerate(steps):
                if kind == FIXED:
                    fixed = made.get((k, r1 - r0))
                    if fixed is None:
                        fixed = np.ascontiguousarray(kernel(values[refs[0][1]], r0, r1))
                        fixed.flags.writeable = False  # shared by the blocks
                        made[(k, r1 - r0)] = fixed
                    block[k] = fixed
                    continue
                if kind == VIEW:
                    block[k] = kernel(values[refs[0][1]], r0, r1)
                    continue
                args = [
                    block[j] if how == IN else values[j][r0:r1] if how == ROWS else values[j]
                    for how, j in refs
                ]
                if into >= 0:
                    block[k] = kernel(*args, out=outs[into][r0:r1])
                else:
                    block[k] = kernel(*args)
                for j in drop:
                    block[j] = None
            for e, j in copied:
                outs[e][r0:r1] = block[j]

        for r0 in range(0, dims[0], rows):
            rows_of(r0, min(r0 + rows, dims[0]))
        return tuple(outs)

    return run


IN, ROWS, WHOLE = 0, 1, 2  # where a member's operand comes from, per block
OP, VIEW, FIXED = 0, 1, 2  # a member's kind: an op; a broadcast (a view per block); one made once


def fuse_steps(
    steps: Sequence[Step],
    computation: Computation,
    slot_of: dict[str, int],
    slot_count: int,
    folded: AbstractSet[str],
    tier: FusionTier | None = None,
) -> tuple[tuple[Step, ...], int]:
    """The steps with each group replaced by one fused step (writing a tuple of its escaping
    values, then of the reduces it took in, to a new slot) and a step per value that takes it
    out of the tuple; in an order where every value is made before it is used; frees
    recomputed. With `tier`, groups run compiled once ready (hlo.numerics.fusion_tier), with
    the trailing reduces that read them; nothing in `folded` (values XLA computes at compile
    time) is grouped or compiled alone. Returns the steps and the new slot count."""
    from .fused_group import group_fn, lone_reduce  # (it builds on this module)

    by_name = computation.by_name
    found = groups([s.instruction for s in steps], by_name, folded)
    if not found:
        return tuple(
            s if s.instruction.name in folded else lone_reduce(s, by_name, tier) for s in steps
        ), slot_count
    users: dict[str, set[str]] = {}
    for s in steps:
        for o in s.instruction.operands:
            users.setdefault(o, set()).add(s.instruction.name)
    step_of = {s.instruction.name: s for s in steps}
    node_of: dict[str, int] = {}  # instruction name -> node (index into nodes)
    nodes: list[tuple[list[Step], list[str]]] = []  # the steps of a node, the values it reads
    index = {s.instruction.name: k for k, s in enumerate(steps)}
    for group in found:
        names = {m.name for m in group}
        outside = list(dict.fromkeys(o for m in group for o in m.operands if o not in names))
        escaping = [
            m.name for m in group if m.name == computation.root_name or users.get(m.name, set()) - names
        ]
        fn, reduces, escaping = group_fn(
            group, outside, escaping, step_of, by_name, index, users, computation.root_name, tier
        )
        reads = list(dict.fromkeys([*outside, *(r.operands[1] for r in reduces)]))
        tuple_slot, slot_count = slot_count, slot_count + 1
        fused = Step(group[-1], fn, tuple(slot_of[o] for o in reads), tuple_slot, ())
        picks = [
            Step(by_name[name], _pick(j), (tuple_slot,), slot_of[name], ())
            for j, name in enumerate([*escaping, *(r.name for r in reduces)])
        ]
        for m in [*group, *reduces]:
            node_of[m.name] = len(nodes)
        nodes.append(([fused, *picks], reads))
    for s in steps:
        if s.instruction.name not in node_of:
            node_of[s.instruction.name] = len(nodes)
            operands = [*s.instruction.operands, *s.instruction.control_predecessors]
            nodes.append(([s if s.instruction.name in folded else lone_reduce(s, by_name, tier)], operands))
    ordered: list[Step] = []
    done: set[int] = set()

    for s in steps:  # depth first, without recursion: each node after the nodes it reads
        stack = [(node_of[s.instruction.name], False)]
        while stack:
            n, expanded = stack.pop()
            if expanded:
                ordered.extend(nodes[n][0])
                continue
            if n in done:
                continue
            done.add(n)
            stack.append((n, True))
            stack.extend(
                (node_of[name], False)
                for name in reversed(nodes[n][1])
                if name in node_of and node_of[name] not in done
            )
    return _with_frees(ordered, computation.root_name, slot_of), slot_count


def _pick(j: int) -> Callable[[tuple[np.ndarray, ...]], np.ndarray]:
    return lambda values: values[j]


def _with_frees(steps: list[Step], root: str, slot_of: dict[str, int]) -> tuple[Step, ...]:
    """The steps with each slot freed after its last reader (the root's value is kept)."""
    last: dict[int, int] = {}
    for k, s in enumerate(steps):
        for i in s.inputs:
            last[i] = k
    keep = slot_of[root]
    frees: dict[int, list[int]] = {}
    for slot, k in last.items():
        if slot != keep:
            frees.setdefault(k, []).append(slot)
    return tuple(replace(s, frees=tuple(frees.get(k, ()))) for k, s in enumerate(steps))
