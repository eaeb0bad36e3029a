"""The function of a fused step (hlo.runtime.fusion): the group run block by block by the
interpreter, or, with the compiled tier (hlo.numerics.fusion_tier), one compiled function that
also computes the reduces over the group's trailing dimension that read it (XLA's reduction
fusion). Both give the same tuple, bit for bit: the escaping values, then the reduce results.
In the interpreter a reduce the tier took reads its operand as a whole array, as it would
unfused."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..numerics import fused_scope, fused_source, fusion_tier, loop_tier
from ..numerics.context import RunOptions
from . import fusion
from .fusion import closed, group_runner
from .step import Step

log = logging.getLogger("hlo.jit")
# jit="auto" compiles groups (and lone reduces) of at least this many elements: a group's
# compilation takes about a second of the interpreter's GIL while it runs in the background, and
# the smaller groups of a training step gained nothing measurable compiled (MLP step 0.98-1.14x,
# transformer 0.9x of the interpreter's time) while their first process ran 5x slower until the
# compilations ended (RESULTS.md, the compiled fusion tier). jit="eager" compiles every group.
AUTO_MIN_ELEMENTS = 1 << 21


@dataclass(frozen=True)
class FusionTier:
    """What the compiled tier needs of a plan: the module (reducers) and the run options."""

    module: Module
    flush: bool
    eager: bool

    @staticmethod
    def of(module: Module, options: RunOptions) -> FusionTier | None:
        """The tier for a plan, or None (jit="off", or numba not installed)."""
        mode = getattr(options, "jit", "off")
        if mode == "off" or not loop_tier.numba_installed():
            return None
        return FusionTier(module, options.flush_denormals, mode == "eager")


def group_fn(
    group: list[Instruction],
    outside: list[str],
    escaping: list[str],
    step_of: dict[str, Step],
    by_name: dict[str, Instruction],
    index: dict[str, int],
    users: dict[str, set[str]],
    root: str,
    tier: FusionTier | None,
) -> tuple[Callable[..., tuple[np.ndarray, ...]], list[Instruction], list[str]]:
    """The fused step's function of the values it reads (`outside`, then the init values of
    the reduces it took in), those reduces, and the values it gives (then the reduces')."""
    fns = {m.name: step_of[m.name].fn for m in group}
    if tier is None or not (tier.eager or group[-1].shape.element_count >= AUTO_MIN_ELEMENTS):
        return group_runner(group, fns, outside, escaping, by_name), [], escaping
    dims = tuple(group[-1].shape.dimensions)
    names = {m.name for m in group}
    reduces: list[tuple[Instruction, str]] = []
    for s in step_of.values():
        r = s.instruction
        if r.opcode is not Opcode.REDUCE or r.operands[0] not in names:
            continue
        kind = fused_scope.reduce_kind(r, tier.module, dims)
        taken = [*group, *(x for x, _ in reduces), r]
        if kind is not None and closed(taken, index, by_name):
            reduces.append((r, kind))
    reads = list(dict.fromkeys([*outside, *(r.operands[1] for r, _ in reduces)]))
    unsupported = fused_scope.unsupported(group, [by_name[o] for o in reads])
    if unsupported:  # (the reduces stay steps of their own: every escaping value still leaves)
        log.debug("hlo.jit: the fused group of %s stays on the interpreter: %s", group[-1].name, unsupported)
        return group_runner(group, fns, outside, escaping, by_name), [], escaping
    # A value only the reduces read no longer leaves the group (the root always does).
    inside = names | {r.name for r, _ in reduces}
    escaping = [e for e in escaping if e == root or any(u not in inside for u in users.get(e, ()))]
    make = functools.partial(
        fused_source.fused_source,
        tier.module,
        group,
        [fused_scope.Reduce(r, kind) for r, kind in reduces],
        [by_name[o] for o in reads],
        escaping,
        tier.flush,
    )
    kept = list(dict.fromkeys([*escaping, *(r.operands[0] for r, _ in reduces)]))
    run = group_runner(group, fns, outside, kept, by_name)
    interpreted = _with_reduces(run, len(outside), kept, escaping, [r for r, _ in reduces], step_of, reads)
    compiled = fusion_tier.CompiledGroup(make, interpreted, tier.flush, tier.eager)
    return compiled, [r for r, _ in reduces], escaping


def _with_reduces(
    run: Callable[..., tuple[np.ndarray, ...]],
    count: int,
    kept: list[str],
    escaping: list[str],
    reduces: Sequence[Instruction],
    step_of: dict[str, Step],
    reads: list[str],
) -> Callable[..., tuple[np.ndarray, ...]]:
    """The interpreted group, then each reduce's own kernel on its whole operand."""
    kernels: list[tuple[Any, int, int]] = [
        (step_of[r.name].fn, kept.index(r.operands[0]), reads.index(r.operands[1])) for r in reduces
    ]

    def interpreted(*values: np.ndarray) -> tuple[np.ndarray, ...]:
        outs = run(*values[:count])
        results = tuple(fn(outs[x], values[init]) for fn, x, init in kernels)
        return (*outs[: len(escaping)], *results)

    return interpreted


def lone_reduce(step: Step, by_name: dict[str, Instruction], tier: FusionTier | None) -> Step:
    """A reduce no group took, of a large f32/f64 value over its trailing dimension, compiled
    alone (its operand read in place), else the step as it is."""
    r = step.instruction
    if tier is None or r.opcode is not Opcode.REDUCE or len(r.operands) != 2:
        return step
    operand = by_name[r.operands[0]]
    least = fusion.MIN_ELEMENTS if tier.eager else max(fusion.MIN_ELEMENTS, AUTO_MIN_ELEMENTS)
    if not operand.shape.is_array or operand.shape.element_count < least:
        return step
    kind = fused_scope.reduce_kind(r, tier.module, tuple(operand.shape.dimensions))
    if kind is None:
        return step
    reads = [operand, by_name[r.operands[1]]]
    make = functools.partial(
        fused_source.fused_source, tier.module, [], [fused_scope.Reduce(r, kind)], reads, [], tier.flush
    )
    return replace(step, fn=fusion_tier.CompiledGroup(make, step.fn, tier.flush, tier.eager, single=True))
