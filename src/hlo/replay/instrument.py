"""Watching a run from outside the engine: every planned step of an Executable (entry and called
computations) is wrapped, to record each instruction's value (`--dump-values`) and to count
progress (instructions done, the current iteration of each while loop). The engine is not
changed: a Plan reads its steps when it runs, so replacing them is enough; use an Executable of
its own (not the shared cache of compile_module)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..ir.module import Module
from ..ir.opcode import Opcode
from ..runtime.plan import Plan
from ..runtime.run import Executable
from ..runtime.step import Step


@dataclass
class Watch:
    """What a wrapped run reports: steps done, while-loop iterations by body, recorded values."""

    record: bool = False
    steps: int = 0
    iterations: dict[str, int] = field(default_factory=dict)
    current_loop: str = ""
    values: dict[tuple[str, str], Any] = field(default_factory=dict)  # (computation, instruction) -> value
    # Several devices in threads: `device` names the running thread's device, and its values
    # go to by_device[device] instead of `values`.
    device: Callable[[], int] | None = None
    by_device: dict[int, dict[tuple[str, str], Any]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


def instrument(executable: Executable, watch: Watch) -> Callable[[], None]:
    """Wrap every step of the executable's plans; returns what takes the wrapping off again
    (timed runs after the first)."""
    plans: dict[str, Plan] = dict(executable.context.plans)
    plans[executable.module.entry_name] = executable.entry
    bodies = {
        i.attr("body")
        for c in executable.module.computations
        for i in c.instructions
        if i.opcode is Opcode.WHILE
    }
    originals = {name: plan.steps for name, plan in plans.items()}
    for name, plan in plans.items():
        plan.steps = tuple(
            _wrap(
                name,
                k == 0 and name in bodies,
                s,
                watch,
                _origin(executable.module, name, s.instruction.name),
            )
            for k, s in enumerate(plan.steps)
        )

    def restore() -> None:
        for name, plan in plans.items():
            plan.steps = originals[name]

    return restore


def instrument_if(executable: Executable, watch: Watch, needed: bool) -> Callable[[], None]:
    """`instrument` when something watches the run (wrapping costs a call per step), else
    nothing to take off."""
    return instrument(executable, watch) if needed else _unwatched


def _unwatched() -> None:
    """Nothing to take off: the run was not watched."""


def _origin(module: Module, computation: str, name: str) -> tuple[str, str] | None:
    """The module's (computation, instruction) a planned step computes: the step's own, or, for
    a step of a call the plan inlined (`call.inner`, numerics/call_inline), the callee's; None
    for a step the plan made (an op XLA's simplifier rewrote into several)."""
    comp = module.by_name.get(computation)
    if comp is None or name in comp.by_name:
        return (computation, name) if comp is not None else None
    for k in range(len(name) - 1, 0, -1):
        if name[k] != ".":
            continue
        call = comp.by_name.get(name[:k])
        if call is not None and call.opcode is Opcode.CALL:
            return _origin(module, call.called_computations[0], name[k + 1 :])
    return None


def _wrap(
    computation: str, first_of_body: bool, step: Step, watch: Watch, origin: tuple[str, str] | None
) -> Step:
    fn = step.fn

    def run(*args: Any) -> Any:
        if first_of_body:
            watch.iterations[computation] = watch.iterations.get(computation, 0) + 1
            watch.current_loop = computation
        value = fn(*args)
        watch.steps += 1
        if watch.record and origin is not None:  # loops: the last iteration's value stays
            if watch.device is None:
                watch.values[origin] = value
            else:
                watch.by_device.setdefault(watch.device(), {})[origin] = value
        return value

    return replace(step, fn=run)


def describe_progress(watch: Watch, total: int) -> str:
    text = f"{watch.steps} instructions done"
    if watch.current_loop:
        text += f", while loop {watch.current_loop}: iteration {watch.iterations.get(watch.current_loop, 0)}"
    return text


ProgressCallback = Callable[[Watch], None]
