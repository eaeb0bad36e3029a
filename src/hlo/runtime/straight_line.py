"""A plan's steps as one generated Python function.

Interpreting a plan costs a loop iteration, a list of operands, a slot store and a deadline
check per step (about 1 µs, as much as a NumPy op on a small array). The same steps written out
as straight-line Python — `v3 = f2(v0, v1)`, `del v0` after a value's last use — cost only the
kernel calls: values live in the function's local variables, kernels are bound as defaults.
Nothing else changes: the same kernels in the same order, values freed at the same points.

When a kernel fails, the failing step is found from the traceback's line number in the
generated function (and its operands from the frame's variables), so errors name the
instruction exactly as the interpreting loop did. The deadline of a run (`timeout=`) is
checked on entry and every `CHECK_EVERY` steps.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np

from .step import Step

CHECK_EVERY = 32  # steps between two deadline checks


@dataclass(frozen=True)
class Runner:
    """The generated function and the map from its line numbers to step indices."""

    fn: Callable[..., Any]
    step_at_line: dict[int, int]

    def failed_step(self, tb: TracebackType | None) -> tuple[int, dict[str, Any]] | None:
        """The index of the step that raised, and the generated frame's variables, if the
        exception passed through the generated function."""
        code = self.fn.__code__
        while tb is not None:
            if tb.tb_frame.f_code is code:
                k = self.step_at_line.get(tb.tb_lineno)
                return None if k is None else (k, tb.tb_frame.f_locals)
            tb = tb.tb_next
        return None


def generate(
    steps: Sequence[Step],
    parameter_slots: Sequence[int],
    root_slot: int,
    deadline: Callable[[], tuple[float, float] | None],
    late: Callable[[int], None],
) -> Runner:
    """Write `steps` as one function of the parameters' values returning the root's value.
    `deadline()` gives this thread's (monotonic deadline, timeout) or None; `late(k)` raises
    the timeout error for step k."""
    params = sorted(set(parameter_slots))
    if len(params) != len(parameter_slots):
        raise ValueError("two parameters share a slot")
    arg_names = [f"v{s}" for s in parameter_slots]
    lines = [f"def run({', '.join(arg_names)}):", "    _dl = _deadline()"]
    lines.append("    if _dl is not None and _now() > _dl[0]: _late(0)")
    step_at_line: dict[int, int] = {}
    defined = set(parameter_slots)
    for k, step in enumerate(steps):
        if k and k % CHECK_EVERY == 0:
            lines.append(f"    if _dl is not None and _now() > _dl[0]: _late({k})")
        args = ", ".join(f"v{i}" for i in step.inputs)
        inline = getattr(step.fn, "inline", None)  # (ufunc, result is 0-d): the kernel is that call
        if inline is not None and inline[1]:  # (a ufunc gives a NumPy scalar for 0-d operands)
            lines.append(f"    v{step.output} = _asarray(_f{k}({args}))")
        else:
            lines.append(f"    v{step.output} = _f{k}({args})")
        step_at_line[len(lines)] = k
        defined.add(step.output)
        gone = [f"v{i}" for i in step.frees if i in defined]
        if gone:
            lines.append(f"    del {', '.join(gone)}")
            step_at_line[len(lines)] = k
            defined.difference_update(step.frees)
    lines.append(f"    return v{root_slot}")
    namespace: dict[str, Any] = {
        "_deadline": deadline,
        "_now": time.monotonic,
        "_late": late,
        "_asarray": np.asarray,
    }
    namespace.update({f"_f{k}": getattr(step.fn, "inline", (step.fn,))[0] for k, step in enumerate(steps)})
    code = compile("\n".join(lines), "<hlo plan>", "exec")
    exec(code, namespace)
    return Runner(namespace["run"], step_at_line)
