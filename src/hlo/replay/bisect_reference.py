"""The references `hlo bisect` compares with, each as instruction name -> value: a `--dump-values`
directory (of another run, another machine), another module run by hlo on the same inputs (matched
by instruction name: XLA keeps names through most passes), or XLA:CPU (xla_values.py)."""

from __future__ import annotations

from typing import Any

from ..errors import HloError
from ..ir.module import Module
from ..numerics.context import RunOptions
from .bisect import AllValues, Values, of_computation, record
from .load import load
from .values import read_dump


def dump_reference(module: Module, directory: str) -> tuple[Values, AllValues, list[Any] | None]:
    """The dump's values of the entry's instructions, all its values, and the dump's entry
    arguments when it holds every one (`hlo run --dump-values` records the entry's parameters)."""
    dump = read_dump(directory)
    names = set(module.entry.by_name)
    overlap: dict[str, int] = {}
    for computation, name in dump:
        overlap[computation] = overlap.get(computation, 0) + (name in names)
    # The entry of the same name; else the dumped computation sharing the most names with it.
    chosen = (
        module.entry_name
        if overlap.get(module.entry_name)
        else max(overlap, key=overlap.__getitem__, default="")
    )
    values = {n: leaves for (c, n), leaves in dump.items() if c == chosen and n in names}
    if not values:
        raise HloError(
            f"{directory}: no value of any instruction of {module.name}'s entry computation "
            f"{module.entry_name} (no common names): a dump of another module?"
        )
    inputs = []
    for p in module.entry.parameters:
        value = values.get(p.name, {}).get(())
        if value is None or not p.shape.is_array or value.shape != p.shape.dimensions:
            return values, dump, None
        inputs.append(value)
    return values, dump, inputs


def module_reference(
    module: Module, path: str, inputs: list[Any], options: RunOptions
) -> tuple[Values, AllValues]:
    """The values of another module (any format `load` reads) run by hlo on the same inputs: its
    entry's by name, and all of them."""
    other = load(path).module
    mine, theirs = module.entry.parameter_shapes, other.entry.parameter_shapes
    if len(mine) != len(theirs):
        raise HloError(f"{path}: {len(theirs)} parameters, the module bisected has {len(mine)}")
    for k, (a, b) in enumerate(zip(mine, theirs)):
        if not a.compatible(b):
            raise HloError(
                f"{path}: parameter {k} is {b.to_string(print_layout=False)}, "
                f"the module bisected has {a.to_string(print_layout=False)}"
            )
    every = record(other, inputs, options)
    values = of_computation(every, other.entry_name)
    if not set(values) & (set(module.entry.by_name) - {p.name for p in module.entry.parameters}):
        raise HloError(
            f"{path}: no instruction of its entry has the name of one in {module.name}'s entry "
            "(no common names)"
        )
    return values, every
