"""Module verification: the structural rules of HLO (unique names, operands defined before use,
no cycles, called computations present and of the right arity, parameters 0..n-1, one root, one
entry). Errors are `VerifyError`s that name the instruction and point at it in the text."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .errors import VerifyError
from .ir.computation import Computation
from .ir.instruction import Instruction
from .ir.module import Module
from .ir.opcode import Opcode
from .ops.registry import called_computation_names


def verify(module: Module, all_errors: bool = False) -> list[VerifyError]:
    """Raise the first VerifyError (or, with `all_errors`, return every one found)."""
    errors = []
    for error in structural_errors(module):
        if not all_errors:
            raise error
        errors.append(error)
    return errors


def _error(instr: Instruction | None, computation: Computation | None, rule: str, what: str) -> VerifyError:
    where = (
        f"%{instr.name}: "
        if instr is not None
        else (f"computation {computation.name}: " if computation else "")
    )
    span = instr.span if instr is not None else (computation.span if computation is not None else None)
    return VerifyError(f"{where}{rule}: {what}", span)


def structural_errors(module: Module) -> Iterator[VerifyError]:
    names = [c.name for c in module.computations]
    for name in {n for n in names if names.count(n) > 1}:
        yield _error(None, module.by_name[name], "unique computation names", f"{name} is defined twice")
    if module.entry_name not in module.by_name:
        yield _error(None, None, "one entry computation", f"the entry {module.entry_name} does not exist")
    for c in module.computations:
        yield from _computation_errors(module, c)


def _computation_errors(module: Module, c: Computation) -> Iterator[VerifyError]:
    seen: dict[str, Instruction] = {}
    for i in c.instructions:
        if i.name in seen:
            yield _error(i, c, "unique instruction names", f"{i.name} is defined twice in {c.name}")
        for o in i.operands:
            if o not in seen:
                what = "is used before it is defined" if o in c.by_name else "does not exist"
                yield _error(i, c, "operands defined before use", f"operand {o} {what}")
        for p in i.control_predecessors:
            if p not in seen:
                yield _error(
                    i, c, "control predecessors defined before use", f"{p} is not defined before {i.name}"
                )
        for callee in called_computation_names(i):
            if callee not in module.by_name:
                yield _error(i, c, "called computations exist", f"computation {callee} does not exist")
            elif callee == c.name:
                yield _error(i, c, "no cycles", f"{c.name} calls itself")
        yield from _callee_arity(module, c, i)
        seen[i.name] = i
    if c.root_name not in c.by_name:
        yield _error(None, c, "one root", f"the root {c.root_name} does not exist")
    numbers = sorted(
        i.attrs.get("parameter_number", -1) for i in c.instructions if i.opcode is Opcode.PARAMETER
    )
    if numbers != list(range(len(numbers))):
        yield _error(None, c, "parameters numbered 0..n-1", f"parameter numbers are {numbers}")


# How many parameters each called computation must take, given the instruction.
ARITY: dict[Opcode, Callable[[Instruction, str], int | None]] = {
    Opcode.CALL: lambda i, a: len(i.operands),
    Opcode.MAP: lambda i, a: len(i.operands),
    Opcode.FUSION: lambda i, a: len(i.operands),
    Opcode.WHILE: lambda i, a: 1,
    Opcode.CONDITIONAL: lambda i, a: 1,
    Opcode.REDUCE: lambda i, a: len(i.operands),
    Opcode.REDUCE_WINDOW: lambda i, a: len(i.operands),
    Opcode.SORT: lambda i, a: 2 * len(i.operands),
    Opcode.SCATTER: lambda i, a: 2 * (len(i.operands) // 2),
    Opcode.SELECT_AND_SCATTER: lambda i, a: 2,
    Opcode.SCAN: lambda i, a: len(i.operands),
    Opcode.ALL_REDUCE: lambda i, a: 2,
    Opcode.ALL_REDUCE_START: lambda i, a: 2,
    Opcode.REDUCE_SCATTER: lambda i, a: 2,
    Opcode.ASYNC_START: lambda i, a: None,
}


def _callee_arity(module: Module, c: Computation, i: Instruction) -> Iterator[VerifyError]:
    rule = ARITY.get(i.opcode)
    if rule is None:
        return
    for callee in called_computation_names(i):
        if callee not in module.by_name:
            continue
        expected = rule(i, callee)
        got = len(module.computation(callee).parameters)
        if expected is not None and got != expected:
            yield _error(
                i,
                c,
                "called computation arity",
                f"{callee} takes {got} parameters, {i.opcode.text} gives it {expected}",
            )
