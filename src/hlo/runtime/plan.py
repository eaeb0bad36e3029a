"""Plans: a computation turned, once, into a list of steps for the engine (made by
hlo.runtime.planner), and how they run.

Each step is a kernel already bound to its instruction's attributes (the op's kernel factory ran
at planning time), the slots of its operands, the slot of its result and the slots to free after
it (values are dropped after their last use). A plan runs its steps interpreted on its first
call and as generated straight-line code after (runtime/straight_line.py), within the run's
deadline.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import EvalError, HloError
from ..ir.computation import Computation
from ..ir.opcode import Opcode
from . import straight_line
from .step import Step

# Ops that run even when nothing uses their result.
SIDE_EFFECTING = frozenset(
    {
        Opcode.OUTFEED, Opcode.INFEED, Opcode.SEND, Opcode.SEND_DONE, Opcode.RECV, Opcode.RECV_DONE,
        Opcode.RNG_GET_AND_UPDATE_STATE,
    }
)  # fmt: skip


@dataclass
class Plan:
    """A planned computation; call it with its parameters' values."""

    computation: Computation
    parameter_slots: tuple[int, ...]
    steps: tuple[Step, ...] = ()
    root_slot: int = 0
    slot_count: int = 0

    runner: straight_line.Runner | None = field(default=None, repr=False)
    runner_steps: tuple[Step, ...] | None = field(default=None, repr=False)  # what `runner` runs

    def __call__(self, *args: Any) -> Any:
        """Run the steps: interpreted on the first call (no code to write for a computation run
        once), then as generated straight-line code (runtime/straight_line.py), written at the
        second call. Replacing `steps` (instrumenting) starts over."""
        if self.runner_steps is not self.steps:
            self.runner, self.runner_steps = None, self.steps
            return self._interpret(args)
        runner = self.runner
        if runner is None:
            runner = self.runner = straight_line.generate(
                self.steps, self.parameter_slots, self.root_slot, _deadline, self._late
            )
        try:
            return runner.fn(*args)
        except (HloError, ValueError, IndexError) as e:
            found = runner.failed_step(e.__traceback__)
            if found is None:
                raise
            k, frame = found
            error = self._failure(self.steps[k], [frame.get(f"v{i}") for i in self.steps[k].inputs], e)
            if error is e:
                raise
            raise error from e

    def _interpret(self, args: Sequence[Any]) -> Any:
        slots: list[Any] = [None] * self.slot_count
        for slot, value in zip(self.parameter_slots, args):
            slots[slot] = value
        deadline = _deadline()
        for k, step in enumerate(self.steps):
            if deadline is not None and time.monotonic() > deadline[0]:
                self._late(k)
            try:
                slots[step.output] = step.fn(*[slots[i] for i in step.inputs])
            except (HloError, ValueError, IndexError) as e:
                error = self._failure(step, [slots[i] for i in step.inputs], e)
                if error is e:
                    raise
                raise error from e
            for i in step.frees:
                slots[i] = None
        return slots[self.root_slot]

    def _failure(self, step: Step, values: list[Any], e: Exception) -> Exception:
        """The error to raise for a kernel's failure: hlo errors given the instruction's name
        and place (unless they have a place: raised again as they are), NumPy's size errors
        explained when dynamic sizes disagree."""
        if isinstance(e, HloError):
            if e.span is not None:
                return e
            kind = type(e) if isinstance(e, EvalError) else EvalError  # (a CollectiveError stays one)
            if e.message.startswith("%"):  # named already (a collective's error): give it a place
                return kind(e.message, step.instruction.span)
            return kind(f"%{step.instruction.name}: {e.message}", step.instruction.span)
        return _dynamic_mismatch(self, step, values, e)

    def _late(self, k: int) -> None:
        step = self.steps[min(k, len(self.steps) - 1)] if self.steps else None
        at = _deadline()
        timeout = at[1] if at else 0.0
        name = f"%{step.instruction.name}" if step else f"%{self.computation.root_name}"
        span = step.instruction.span if step else None
        raise EvalError(
            f"{name}: the run is still going after the timeout of {timeout:g} seconds (timeout=, --timeout)",
            span,
        )


def _deadline() -> tuple[float, float] | None:
    return getattr(DEADLINE, "at", None)


# The whole-run deadline of this thread's run, (monotonic time, timeout) or None: checked before
# each step, so a long loop or a long chain of ops ends, not a single kernel.
DEADLINE = threading.local()


def set_deadline(timeout: float | None) -> None:
    """Start this thread's run clock (None: no deadline)."""
    DEADLINE.at = None if timeout is None else (time.monotonic() + timeout, timeout)


def _dynamic_mismatch(plan: Plan, step: Step, values: list[Any], error: Exception) -> Exception:
    """A NumPy failure of a kernel whose operands have dynamic dimensions: their run-time sizes
    do not fit together (XLA requires them to); any other failure is the engine's own."""
    by_name = plan.computation.by_name
    if all(by_name[o].shape.is_static for o in step.instruction.operands):
        return error
    from ..numerics.values import describe

    sizes = ", ".join(describe(v) for v in values)
    return EvalError(
        f"%{step.instruction.name}: the operands' run-time sizes ({sizes}) do not fit "
        f"{step.instruction.opcode.text}'s rule: dynamic sizes must agree ({error})",
        step.instruction.span,
    )
