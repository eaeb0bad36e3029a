"""Module verification, as XLA's HloVerifier: first the structural rules of HLO (unique names,
operands defined before use, no cycles, called computations present and of the right arity,
parameters 0..n-1, one root, one entry), then every instruction's shape rule (the one the builder
and the parser use): the rule must accept the operands and attributes and give the written result
shape (compared ignoring layout, as XLA's layout-insensitive verifier does). Errors are
`VerifyError`s that name the instruction and the rule and point at it in the text."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .errors import HloError, VerifyError
from .ir.computation import Computation
from .ir.instruction import Instruction
from .ir.module import Module
from .ir.opcode import Opcode
from .ops.registry import ShapeContext, called_computation_names, spec
from .shape import Shape


def verify(module: Module, all_errors: bool = False) -> list[VerifyError]:
    """Raise the first VerifyError (or, with `all_errors`, return every one found). Shape rules
    run only where the structure is sound (operands and callees exist)."""
    structural = list(structural_errors(module))
    if structural and not all_errors:
        raise structural[0]
    errors = structural
    flagged = {id(e.instruction) for e in structural if e.instruction is not None}
    for error in shape_errors(module, skip=flagged):
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
    return VerifyError(f"{where}{rule}: {what}", span, instr)


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


# -- shapes -----------------------------------------------------------------------------------
# Opcodes whose operands may mix floating-point precisions (XLA's verifier lets them: they pass
# data through, group it in tuples, or compute in a declared type).
MIXED_PRECISION_OK = frozenset(
    {
        Opcode.CALL, Opcode.CONDITIONAL, Opcode.CONSTANT, Opcode.CONVOLUTION, Opcode.DOT,
        Opcode.RAGGED_DOT, Opcode.SCALED_DOT, Opcode.ALL_REDUCE, Opcode.ALL_REDUCE_START,
        Opcode.ALL_REDUCE_DONE, Opcode.ALL_GATHER, Opcode.ALL_GATHER_START, Opcode.ALL_GATHER_DONE,
        Opcode.ASYNC_DONE, Opcode.ASYNC_UPDATE, Opcode.ASYNC_START, Opcode.COLLECTIVE_PERMUTE,
        Opcode.COLLECTIVE_PERMUTE_START, Opcode.COLLECTIVE_PERMUTE_DONE, Opcode.COPY_DONE,
        Opcode.COPY_START, Opcode.CUSTOM_CALL, Opcode.DOMAIN, Opcode.FUSION, Opcode.GET_TUPLE_ELEMENT,
        Opcode.OPTIMIZATION_BARRIER, Opcode.INFEED, Opcode.OUTFEED, Opcode.PARAMETER, Opcode.RECV,
        Opcode.RECV_DONE, Opcode.REDUCE_PRECISION, Opcode.REDUCE_WINDOW, Opcode.SEND, Opcode.SEND_DONE,
        Opcode.SORT, Opcode.TUPLE, Opcode.WHILE,
    }
)  # fmt: skip


def shape_errors(module: Module, skip: frozenset[int] | set[int] = frozenset()) -> Iterator[VerifyError]:
    """Each instruction against its op's shape rule (but those whose ids are in `skip`); the
    entry against the module's layout."""

    def program_shape(name: str) -> tuple[tuple[Shape, ...], Shape]:
        callee = module.computation(name)
        return callee.parameter_shapes, callee.result_shape

    computations = module.by_name
    for c in module.computations:
        for i in c.instructions:
            if id(i) in skip or any(o not in c.by_name for o in i.operands):
                continue  # reported by the structural rules
            if any(callee not in computations for callee in called_computation_names(i)):
                continue
            operands = tuple(c.by_name[o].shape for o in i.operands)
            error = _shape_error(i, operands, program_shape)
            if error is not None:
                yield _error(i, c, *error)
    yield from _entry_layout_errors(module)


def _shape_error(
    i: Instruction,
    operands: tuple[Shape, ...],
    program_shape: Callable[[str], tuple[tuple[Shape, ...], Shape]],
) -> tuple[str, str] | None:
    """(rule, what was found) if the instruction breaks its op's shape rule."""
    op_spec = spec(i.opcode)
    if i.opcode not in MIXED_PRECISION_OK:
        floats = {
            leaf.element_type
            for s in operands
            for _, leaf in s.leaves()
            if leaf.element_type.is_floating_point
        }
        if len(floats) > 1:
            found = ", ".join(str(s) for s in operands)
            return "operands of one floating-point precision", f"found {found}"
    if op_spec.shape_rule is None:
        return None
    try:
        preferred = i.shape.element_type if i.shape.is_array else None
        inferred = op_spec.shape_rule(
            ShapeContext(i.opcode, operands, i.attrs, program_shape, preferred, i.shape)
        )
    except HloError as e:
        rule, _, found = e.message.partition(": ")
        return (rule, found) if found else (i.opcode.text, e.message)
    if not inferred.compatible(i.shape):
        return "result shape", f"{i.opcode.text} of {_shapes(operands)} gives {inferred}, not {i.shape}"
    return None


def _shapes(shapes: tuple[Shape, ...]) -> str:
    return "(" + ", ".join(str(s) for s in shapes) + ")"


def _entry_layout_errors(module: Module) -> Iterator[VerifyError]:
    layout = module.config.entry_computation_layout
    entry = module.by_name.get(module.entry_name)
    if layout is None or entry is None:
        return
    params = entry.parameter_shapes
    if len(layout.parameters) != len(params) or not all(
        a.compatible(b) for a, b in zip(layout.parameters, params)
    ):
        yield _error(
            None,
            entry,
            "entry_computation_layout matches the entry",
            f"parameters {_shapes(layout.parameters)}, the entry takes {_shapes(params)}",
        )
    if not layout.result.compatible(entry.result_shape):
        yield _error(
            None,
            entry,
            "entry_computation_layout matches the entry",
            f"result {layout.result}, the entry gives {entry.result_shape}",
        )
