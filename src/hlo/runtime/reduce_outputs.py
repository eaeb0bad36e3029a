"""Variadic reduces of which one output is read, at plan time: XLA removes a variadic reduce's
unused outputs when its reducer computes each output from that output's own two parameters, so
the output that is read is reduced alone, as a reduce of one operand (XLA:CPU's vector kernels
or its tree rewrite, hlo.numerics.reduction.one_output_fn), not in the variadic reduce's own
in-order loop. Checked on XLA:CPU's optimized modules (jaxlib 0.10.2): with one output read
through get-tuple-element the module holds a plain reduce; with every output read, the variadic
reduce stays. Only the run plan changes: the step still returns every output."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.context import KernelContext
from ..numerics.reduction import one_output_fn


def read_outputs(order: list[Instruction], c: Computation) -> dict[str, int]:
    """The variadic reduces of `order` that only get-tuple-elements of one index read (not the
    root), with that index."""
    reduces = {i.name for i in order if i.opcode is Opcode.REDUCE and len(i.operands) > 2}
    reduces.discard(c.root_name)
    read: dict[str, set[int]] = {}
    for i in order:
        for o in i.operands:
            if o in reduces:
                read.setdefault(o, set()).add(
                    i.attrs["index"] if i.opcode is Opcode.GET_TUPLE_ELEMENT else -1
                )
    return {name: next(iter(ks)) for name, ks in read.items() if len(ks) == 1 and -1 not in ks}


def bind(i: Instruction, k: int, ctx: KernelContext) -> Callable[..., Any] | None:
    """The reduce's kernel with output `k` reduced alone where XLA does so (None: it does not)."""
    return one_output_fn(i, ctx, k)
