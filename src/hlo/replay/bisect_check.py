"""Is a divergent instruction itself at fault? Its operands agree only within tolerance, and an
instruction can magnify their small differences (an add that cancels, a division by a small
value) past it. Run on hlo with the reference's values of its operands, the instruction either
gives the reference's value (the difference was inherited) or still differs (it computes
differently: the cause). The first instruction that still differs is where to look."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ir.opcode import Opcode
from ..numerics.context import RunOptions
from ..numerics.contraction import fused_product
from ..runtime.run import Executable
from .bisect import Bisection
from .compare import compare_output
from .extract import Source, extract_with_sources
from .values import leaf_values

MAX_CHECKS = 200  # divergent instructions re-run at most (each is one small run)


def at_fault(
    result: Bisection, name: str, rtol: float | None = None, atol: float | None = None
) -> bool | None:
    """Whether `name` still differs from the reference when given the reference's operands;
    None when the reference lacks an operand's value (the entry's parameters are shared)."""
    extraction = extract_with_sources(result.module, name, height=0, keep=fused_product(result.module, name))
    arguments = reference_operands(result, extraction.sources)
    if arguments is None:
        return None
    value = Executable(extraction.module, RunOptions(fuse=False))(*arguments)
    want = result.reference.get(name, {})
    for index, got in leaf_values(value):
        if index in want:
            ref = np.asarray(want[index])
            ref = ref.astype(got.dtype) if ref.dtype != got.dtype else ref
            if not compare_output(name, got, ref, rtol, atol).ok:
                return True
    return False


def first_at_fault(
    result: Bisection, rtol: float | None = None, atol: float | None = None
) -> tuple[str | None, bool | None, int]:
    """(the first divergent instruction that is at fault or cannot be told, at_fault's answer
    for it, how many were checked); the name is None when every one checked inherited its
    difference."""
    checked = 0
    for name in result.differing[:MAX_CHECKS]:
        checked += 1
        fault = at_fault(result, name, rtol, atol)
        if fault is not False:
            return name, fault, checked
    return None, False, checked


def reference_operands(result: Bisection, sources: Sequence[Source]) -> list[Any] | None:
    """The reference's values of an extracted instruction's parameters (in hlo's types), an entry
    parameter's from hlo's run when the reference has none (both ran on the same arguments);
    None when one is missing."""
    out = []
    for s in sources:
        leaves = result.reference.get(s.name, {})
        mine = result.ours.get(s.name, {}).get(s.index)
        if s.index in leaves:
            value = np.asarray(leaves[s.index])
            out.append(value.astype(mine.dtype) if mine is not None and value.dtype != mine.dtype else value)
        elif result.module.entry[s.name].opcode is Opcode.PARAMETER and mine is not None:
            out.append(mine)
        else:
            return None
    return out
