"""The orders XLA prints in: instructions in post order (ForEachInstructionPostOrder) and
computations callees-first (MakeComputationPostOrder)."""

from __future__ import annotations

from typing import Any

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ops.registry import called_computation_names


def instruction_order(c: Computation, scheduled: bool = False) -> list[Instruction]:
    """A scheduled computation prints in its sequence (the text order); otherwise a depth-first
    post order from each instruction nobody uses, in list order: operands first (operand 0
    first), then control predecessors (the last one first)."""
    if scheduled:
        return list(c.instructions)
    by_name = c.by_name
    used: set[str] = set()
    for i in c.instructions:
        used.update(i.operands)
    state: dict[str, int] = {}  # 1: visiting, 2: done
    order = []
    for start in c.instructions:
        if start.name in used or state.get(start.name) == 2:
            continue
        stack = [start.name]
        while stack:
            name = stack[-1]
            if state.get(name, 0) == 0:
                state[name] = 1
                instr = by_name[name]
                for o in reversed(instr.operands):
                    if state.get(o, 0) != 2:
                        stack.append(o)
                for p in instr.control_predecessors:
                    if state.get(p, 0) != 2:
                        stack.append(p)
            else:
                stack.pop()
                if state[name] != 2:
                    state[name] = 2
                    order.append(by_name[name])
    return order


def computation_order(m: Module) -> list[Computation]:
    """Callees before callers: for each computation nobody calls, in module order, its embedded
    computations (depth first, marked when pushed) and then itself."""
    called: set[str] = set()
    for c in m.computations:
        for i in c.instructions:
            called.update(called_computation_names(i))
    added: set[str] = set()
    order: list[Computation] = []
    for c in m.computations:
        if c.name in called:
            continue
        for e in _embedded(m, c, added):
            order.append(e)
        if c.name not in added:
            added.add(c.name)
            order.append(c)
    # Computations nobody reaches from a root (a call cycle) still print.
    order += [c for c in m.computations if c.name not in added]
    return order


def _embedded(m: Module, root: Computation, added: set[str]) -> list[Computation]:
    """XLA's MakeEmbeddedComputationsList: a DFS over instructions in order; an instruction's
    callees are pushed in reverse (so the first is visited first) and marked when pushed; a
    computation is emitted when its instructions are exhausted."""
    visited: set[str] = set()
    out: list[Computation] = []
    stack: list[list[Any]] = [[root, 0]]
    while stack:
        frame = stack[-1]
        comp, index = frame
        if index == len(comp.instructions):
            stack.pop()
            if comp is not root and comp.name not in added:
                added.add(comp.name)
                out.append(comp)
            continue
        frame[1] += 1
        for name in reversed(called_computation_names(comp.instructions[index])):
            if name not in visited and name in m.by_name:
                visited.add(name)
                stack.append([m.computation(name), 0])
    return out
