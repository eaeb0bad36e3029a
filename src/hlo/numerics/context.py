"""What a kernel may ask of the engine that runs it, as an interface: the kernels (hlo.ops) and
the algorithms they share (hlo.numerics) are written against it, and hlo.runtime's planner
provides it, so nothing below the runtime knows how plans are made or run."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import EvalError
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..shape import Shape

JIT_MODES = ("auto", "eager", "off")


@dataclass(frozen=True)
class RunOptions:
    """How to run: `flush_denormals` as XLA:CPU does (subnormal floats become zero in float
    arithmetic); `max_iterations` stops a while loop that runs longer (None: no limit); `seed`
    seeds the generator of rng ops; `memory_limit` is the byte budget every array of the run
    must fit in (None: a fraction of the memory this process may use, see
    `runtime.budget`; 0: no check); `timeout` ends a run that takes longer, in seconds (None:
    no limit); `fuse` runs chains of elementwise ops over large arrays block by block, as
    XLA's loop fusion does (the same values; False: op by op, e.g. to see every value); `jit`
    runs hot code compiled by numba when it is installed: while loops (hlo.numerics.loop_tier),
    entries of many instructions on small values (hlo.numerics.entry_tier), fused groups over
    large arrays with their trailing reduces (hlo.numerics.fusion_tier) and large scatters with
    a recognised combiner (hlo.numerics.scatter_tier): "auto" (compiled in the background once
    hot), "eager" (compiled before the first iteration or call, whatever the size), "off" (the
    interpreter only); every choice gives the same bits."""

    flush_denormals: bool = True
    max_iterations: int | None = None
    seed: int = 0
    memory_limit: int | None = None
    timeout: float | None = None
    fuse: bool = True
    jit: str = "auto"

    def __post_init__(self) -> None:
        if self.jit not in JIT_MODES:
            raise EvalError(f"jit must be one of {', '.join(JIT_MODES)}: got {self.jit!r}")
        for name, value in (("max_iterations", self.max_iterations), ("memory_limit", self.memory_limit)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise EvalError(f"{name} must be an integer >= 0 or None: got {value!r}")
        timeout = self.timeout
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0
        ):
            raise EvalError(f"timeout must be a positive number of seconds or None: got {self.timeout!r}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise EvalError(f"seed must be an integer: got {self.seed!r}")


class KernelContext(Protocol):
    """What a kernel factory may ask for while it binds an instruction: the module, the run
    options, the per-thread state of the run, and callables for the computations it calls."""

    @property
    def module(self) -> Module: ...

    @property
    def options(self) -> RunOptions: ...

    @property
    def state(self) -> dict[str, Any]:
        """The state of the run on this thread (rng, feeds, the device and its rendezvous)."""
        ...

    def operand_shapes(self, instr: Instruction) -> tuple[Shape, ...]:
        """The shapes of an instruction's operands (in the computation being planned)."""
        ...

    def producers(self, instr: Instruction) -> tuple[Instruction, ...]:
        """The instructions an instruction's operands come from (in the computation being
        planned)."""
        ...

    def computation(self, name: str) -> Callable[..., Any]:
        """A called computation of the module, ready to run (planned once)."""
        ...

    @property
    def folded(self) -> Mapping[str, Any]:
        """The values the plans computed at plan time (constants and pure ops of them, as XLA's
        folders compute them), by instruction name, for the computations planned so far."""
        ...

    def plan(self, computation: Computation) -> Callable[..., Any]:
        """A computation that is not in the module (made by a kernel), ready to run."""
        ...

    def is_elementwise(self, instr: Instruction) -> bool:
        """Whether the op is one of the unary or binary elementwise ops (the registry knows)."""
        ...
