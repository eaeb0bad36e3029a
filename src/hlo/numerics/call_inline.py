"""Calls inlined into their caller, as XLA's CallInliner inlines every call before it simplifies
and fuses a module: what XLA:CPU computes together, and how, does not stop at a call. JAX
emits many (`jnp.var`, `jnp.where` and any nested `jit` are calls); a divisor made constant by
its caller's argument (a variance's `n - ddof`), a multiply in the caller fused into an add in
the callee, are only seen so.

Each instruction of a callee comes in under the call's name (`call.inner`), its parameters read
the call's operands, and its root takes the call's own name: the caller reads the call's value
as before, and a value shown by name (`--dump-values`) is still there. A call with control
dependencies, or to another execution thread, stays a call.
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode


def inlined(comp: Computation, module: Module) -> Computation:
    """The computation with its calls inlined (callees' calls too); `comp` itself when it has
    none."""
    if not any(i.opcode is Opcode.CALL for i in comp.instructions):
        return comp
    taken = set(comp.by_name)
    out: list[Instruction] = []
    changed = False
    for i in comp.instructions:
        callee = _callee(i, comp, module)
        if callee is None:
            out.append(i)
            continue
        changed = True
        out.extend(_body(i, inlined(callee, module), taken))
    return comp.replace(instructions=tuple(out)) if changed else comp


def _callee(i: Instruction, comp: Computation, module: Module) -> Computation | None:
    if i.opcode is not Opcode.CALL or i.control_predecessors:
        return None
    called = i.called_computations
    if len(called) != 1:
        return None
    callee = module.computation(called[0])
    if callee.execution_thread != comp.execution_thread:
        return None
    return callee


def _body(call: Instruction, callee: Computation, taken: set[str]) -> list[Instruction]:
    """The callee's instructions renamed into the caller, its root under the call's name."""
    names: dict[str, str] = {}
    for p in callee.instructions:
        if p.opcode is Opcode.PARAMETER:
            names[p.name] = call.operands[p.attrs.get("parameter_number", 0)]
    body: list[Instruction] = []
    for j in callee.instructions:
        if j.opcode is Opcode.PARAMETER:
            continue
        names[j.name] = call.name if j.name == callee.root_name else _fresh(f"{call.name}.{j.name}", taken)
    for j in callee.instructions:
        if j.opcode is Opcode.PARAMETER:
            continue
        body.append(
            j.replace(
                name=names[j.name],
                operands=tuple(names[o] for o in j.operands),
                control_predecessors=tuple(names[o] for o in j.control_predecessors),
            )
        )
    root = callee.by_name[callee.root_name]
    if root.opcode is Opcode.PARAMETER:  # the call returns an argument as it is
        body.append(call.replace(opcode=Opcode.COPY, operands=(names[root.name],), attrs=type(call.attrs)()))
    return body


def _fresh(name: str, taken: set[str]) -> str:
    found, k = name, 1
    while found in taken:
        k += 1
        found = f"{name}{k}"
    taken.add(found)
    return found
