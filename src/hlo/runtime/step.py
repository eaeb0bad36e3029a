"""One step of a plan: a kernel bound to its instruction, where its operands and result live
(slots), and the slots to free after it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..ir.instruction import Instruction


@dataclass(frozen=True)
class Step:
    instruction: Instruction
    fn: Callable[..., Any]
    inputs: tuple[int, ...]
    output: int
    frees: tuple[int, ...]
