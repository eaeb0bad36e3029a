"""Planning: a computation turned, once, into a Plan (hlo.runtime.plan). Its live instructions
in order, each bound to its kernel (the op's kernel factory runs once, with the instruction's
attributes), each value freed after its last use; instructions that neither feed the root nor
have a side effect are left out, as XLA's dead-code elimination would. Pure ops of constants
are folded as XLA's folders fold them (constant_fold, mlir_folds, xla_folds), pads merged into
the reduce-windows that read them, repeated pure instructions computed once, chains of
elementwise ops grouped (fusion). Called computations (reducers, loop bodies, branches) are
planned once and shared.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import budget
from ..errors import EvalError, HloError
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..numerics import contraction, evaluator_fold, libm_fold, reduce_contraction, ynn_exp, ynn_fusion
from ..numerics.context import RunOptions
from ..ops.registry import spec
from ..shape import Shape
from . import constant_fold, cse, fusion, mlir_folds, pad_merge, reduce_outputs, xla_folds
from .fused_group import FusionTier
from .plan import SIDE_EFFECTING, Plan
from .step import Step


@dataclass
class PlanContext:
    """The runtime's side of hlo.numerics.context.KernelContext: what a kernel factory may ask
    for while it binds an instruction (the module, the run options, the plans of the
    computations the instruction calls)."""

    module: Module
    options: RunOptions
    plans: dict[str, Plan] = field(default_factory=dict)
    local: threading.local = field(default_factory=threading.local)  # per-thread run state
    planning: list[Computation] = field(default_factory=list)  # computations being planned
    budget: int | None = -1  # bytes one value may take (None: no limit; -1: from the options)
    folded: dict[str, Any] = field(default_factory=dict)  # plan-time values by instruction name

    def __post_init__(self) -> None:
        if self.budget == -1:  # (a copy with other options keeps the memory limit's: _unflushed)
            self.budget = budget.resolve(self.options.memory_limit)

    @property
    def state(self) -> dict[str, Any]:
        """The state of the run on this thread (rng, feeds, the device and its rendezvous): one
        plan serves every device's thread."""
        state = getattr(self.local, "state", None)
        if state is None:
            state = self.local.state = {}
        return state  # type: ignore[no-any-return]

    def operand_shapes(self, instr: Instruction) -> tuple[Shape, ...]:
        """The shapes of an instruction's operands (in the computation being planned)."""
        by_name = self.planning[-1].by_name
        return tuple(by_name[o].shape for o in instr.operands)

    def producers(self, instr: Instruction) -> tuple[Instruction, ...]:
        """The instructions an instruction's operands come from (in the computation being
        planned)."""
        by_name = self.planning[-1].by_name
        return tuple(by_name[o] for o in instr.operands)

    def computation(self, name: str) -> Plan:
        """The plan of a called computation (planned once)."""
        plan = self.plans.get(name)
        if plan is None:
            plan = plan_computation(self.module.computation(name), self)
            self.plans[name] = plan
        return plan

    def plan(self, computation: Computation) -> Plan:
        """A computation made by a kernel (not in the module), planned in this context."""
        return plan_computation(computation, self)

    def is_elementwise(self, instr: Instruction) -> bool:
        return spec(instr.opcode).elementwise


def plan_computation(c: Computation, ctx: PlanContext) -> Plan:
    written = c
    c = contraction.contracted(c, ctx.module)  # adds XLA:CPU fuses with a multiply: their FMAs
    if ctx.options.fuse:
        c = cse.merged(c)  # repeated pure instructions computed once
    # op by op, a multiply fused into its add keeps a value too (with what it reads now)
    kept_live = _live_instructions(written) & set(c.by_name) if not ctx.options.fuse else set()
    live = _live_instructions(c, kept_live)
    slot_of: dict[str, int] = {}
    order = [i for i in c.instructions if i.name in live]
    for k, i in enumerate(order):
        slot_of[i.name] = k
    merges = pad_merge.plan_merges(order, c, ctx.module)  # reduce-windows that read a pad's operand
    alone = reduce_outputs.read_outputs(order, c)  # variadic reduces of which one output is read
    folds, by_libm = xla_folds.folded(order, c, merges)  # what XLA computes at compile time
    last_use: dict[str, int] = {}
    for k, i in enumerate(order):
        for o in merges[i.name].operands if i.name in merges else i.operands:
            last_use[o] = k
        if i.name not in last_use and i.opcode is Opcode.PAD:
            last_use[i.name] = k  # a pad whose readers all merged it: dropped once computed
    root = c.root_name
    frees: dict[int, list[int]] = {}
    for name, k in last_use.items():
        if name != root:
            frees.setdefault(k, []).append(slot_of[name])
    parameter_slots = tuple(slot_of.get(p.name, len(order)) for p in c.parameters)
    plan = Plan(c, parameter_slots)
    if c.name not in ctx.plans:
        ctx.plans[c.name] = plan  # visible to recursive planning of callees
    steps = []
    constants: dict[str, Any] = {}  # folded values by instruction name
    mlir = mlir_folds.MlirFolds()  # what StableHLO's folder makes constants, before XLA
    kept: set[str] = set()  # ops XLA folds with the C math library: never grouped
    unflushed: PlanContext | None = None  # binds kernels that keep subnormals (StableHLO's folds)
    ctx.planning.append(c)
    try:
        for k, i in enumerate(order):
            _check_size(i, ctx.budget)
            if i.opcode is Opcode.PARAMETER:
                continue
            merge = merges.get(i.name)
            if i.name in folds:
                bind_folded = functools.partial(_bind_folded, ctx=ctx, whole=folds[i.name])
                fn = pad_merge.bind(i, merge, bind_folded) if merge else bind_folded(i)
                inputs = tuple(slot_of[o] for o in (merge.operands if merge else i.operands))
            elif merge is not None:
                fn = pad_merge.bind(i, merge, lambda j: _bind(j, ctx))
                inputs = tuple(slot_of[o] for o in merge.operands)
            elif i.name in alone:
                fn = reduce_outputs.bind(i, alone[i.name], ctx) or _bind(i, ctx)
                inputs = tuple(slot_of[o] for o in i.operands)
            else:
                fn, inputs = _bind(i, ctx), tuple(slot_of[o] for o in i.operands)
            first = i.operands[0] if i.operands else None
            # (most instructions fail the visit's first test: spare them the call)
            wide = (first in mlir.folded or i.opcode is Opcode.CONSTANT) and mlir.visit(i, constants)
            if (wide or i.name in by_libm) and i.opcode in libm_fold.OPCODES:
                # as XLA's folders compute it, with the C math library
                fn = libm_fold.kernel(i.opcode, fn, wide, ctx.options.flush_denormals)
                kept.add(i.name)
            if constant_fold.foldable(i, constants):
                # (StableHLO's folder keeps subnormals, XLA's evaluator flushes them)
                unflushed = unflushed or _unflushed(ctx)
                fn, flush = mlir_folds.folding(
                    i, fn, wide, ctx.options.flush_denormals, functools.partial(_bind, i, unflushed)
                )
                folded = constant_fold.fold(i, fn, constants, flush)
                if folded is not None:
                    fn, inputs = folded, ()
            steps.append(Step(i, fn, inputs, k, tuple(frees.get(k, ()))))
    finally:
        ctx.planning.pop()
    ctx.folded.update(constants)  # (what the compiled tiers take as constants)
    plan.slot_count = len(order) + 1
    plan.steps = tuple(steps)
    if ctx.options.fuse:
        tier = FusionTier.of(ctx.module, ctx.options)  # (None: jit="off" or no numba)
        done = set(constants) | kept | set(folds)  # (what XLA folds stays out of the tiers)
        plan.steps, plan.slot_count = fusion.fuse_steps(steps, c, slot_of, plan.slot_count, done, tier)
    plan.root_slot = slot_of[root]
    return plan


def _unflushed(ctx: PlanContext) -> PlanContext:
    """The context with subnormals kept (flush_denormals off), sharing the plans and the state."""
    return dataclasses.replace(ctx, options=dataclasses.replace(ctx.options, flush_denormals=False))


def _check_size(i: Instruction, limit: int | None) -> None:
    """Refuse, before running, a value larger than the memory budget, naming its instruction."""
    try:
        budget.check_shape(i.shape, f"%{i.name} ({i.opcode.text})", limit)
    except budget.MemoryBudgetError as e:
        raise budget.MemoryBudgetError(e.message, i.span) from None


def _bind_folded(i: Instruction, ctx: PlanContext, whole: bool) -> Callable[..., Any]:
    """A reduction XLA constant-folds: in its evaluator's order where that is modelled."""
    own = _bind(i, ctx)
    return evaluator_fold.kernel(i, ctx, whole, own) or own


def _bind(i: Instruction, ctx: PlanContext) -> Callable[..., Any]:
    if i.attrs and i.attrs.get(ynn_fusion.MARK):  # YNNPACK's own exp, log, ...
        return ynn_exp.function(i.opcode.text, i.shape.element_type.numpy_dtype, ctx.options.flush_denormals)
    fma = contraction.mark(i)
    if fma is not None:
        return contraction.kernel(fma, i, ctx.options.flush_denormals)
    fused = reduce_contraction.mark(i)
    if fused is not None:
        return reduce_contraction.kernel(fused, i, ctx.options.flush_denormals)
    factory = spec(i.opcode).kernel
    if factory is None:
        raise EvalError(
            f"%{i.name}: {i.opcode.text} is not supported by the engine yet (README's Status lists "
            f"the ops it cannot run)",
            i.span,
        )
    try:
        return factory(i, ctx)  # type: ignore[no-any-return]
    except HloError as e:
        if e.span is not None:
            raise
        raise EvalError(f"%{i.name}: {e.message}", i.span) from e


def _live_instructions(c: Computation, also: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Names of the instructions the root depends on, plus side-effecting ones and theirs (and
    `also` and theirs)."""
    by_name = c.by_name
    seeds = [c.root_name, *also] + [
        i.name
        for i in c.instructions
        if i.opcode in SIDE_EFFECTING
        or (i.opcode is Opcode.CUSTOM_CALL and i.attrs.get("custom_call_has_side_effect"))
    ]
    live: set[str] = set()
    stack = list(seeds)
    while stack:
        name = stack.pop()
        if name in live:
            continue
        live.add(name)
        i = by_name[name]
        stack.extend(i.operands)
        stack.extend(i.control_predecessors)
    for p in c.parameters:
        live.add(p.name)
    return live
