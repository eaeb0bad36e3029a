"""Every instruction's value on XLA:CPU (`hlo bisect --reference xla`): the entry is given a new
root, a tuple of the instructions asked for, so each becomes an output of the module XLA compiles
(in batches, each one run of the child process of reference.run_on_xla, when there are many).

XLA optimizes the changed module on its own terms: with every value an output, fusion and
algebraic simplification may round a value differently from the original module's run, never by
more than the usual tolerances."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..shape import Shape
from .extract import config_for
from .reference import run_on_xla

BATCH = 500  # outputs per XLA run: one compile each


def outputs_module(module: Module, names: Sequence[str]) -> Module:
    """`module` whose entry returns the tuple of the instructions `names` (arrays of the entry)."""
    entry = module.entry
    taken = {i.name for c in module.computations for i in c.instructions}
    root = "bisect.outputs"
    while root in taken:
        root += "_"
    shape = Shape.make_tuple([entry[n].shape for n in names])
    tuple_instr = Instruction(root, Opcode.TUPLE, shape, tuple(names))
    new_entry = entry.replace(instructions=(*entry.instructions, tuple_instr), root_name=root)
    computations = tuple(new_entry if c.name == entry.name else c for c in module.computations)
    # The result changed: the entry layout, aliasing and a schedule no longer hold.
    return module.replace(
        computations=computations,
        config=config_for(module, new_entry),
        input_output_alias=(),
        buffer_donors=(),
        is_scheduled=False,
    )


def comparable(instr: Instruction) -> bool:
    """An array value XLA can return (tuples are compared through their elements, tokens never)."""
    return instr.shape.is_array and instr.opcode is not Opcode.PARAMETER


def xla_values(
    module: Module, inputs: list[Any], names: Sequence[str], batch: int = BATCH
) -> dict[str, dict[tuple[int, ...], np.ndarray]]:
    """XLA:CPU's value of each entry instruction in `names` that `comparable` accepts."""
    wanted = [n for n in names if comparable(module.entry[n])]
    out: dict[str, dict[tuple[int, ...], np.ndarray]] = {}
    for start in range(0, len(wanted), batch):
        part = wanted[start : start + batch]
        results = run_on_xla(outputs_module(module, part), inputs)
        out.update({n: {(): v} for n, v in zip(part, results)})
    return out
