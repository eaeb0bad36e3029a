"""Inputs made up for a module, as hlo_runner_main offers them (`--inputs-mode`): seeded random
values, zeros, or each device's id. Random integers are valid for how the module uses them: a
parameter that indexes (gather and scatter indices, dynamic-slice and dynamic-update-slice starts)
gets values inside the indexed dimension, so replaying a dumped module does not just clamp every
index to the edge; other integers (sort keys, loop bounds) are small and non-negative."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import budget
from ..dtypes import PrimitiveType
from ..errors import HloError
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..shape import Shape

MODES = ("random", "zeros", "device-id", "snapshot")
# Ops a value passes through unchanged in range (an index parameter converted or reshaped first).
_PASS_THROUGH = {
    Opcode.CONVERT,
    Opcode.RESHAPE,
    Opcode.BITCAST,
    Opcode.BROADCAST,
    Opcode.SLICE,
    Opcode.CONCATENATE,
    Opcode.COPY,
    Opcode.TRANSPOSE,
}


def parse_range(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        lo, hi = (float(x) for x in text.split(","))
    except ValueError:
        raise HloError(f"hlo run: --random-range takes LO,HI (two numbers), not {text!r}") from None
    if not lo < hi:
        raise HloError(f"hlo run: --random-range needs LO < HI, not {text!r}")
    return lo, hi


def index_bounds(c: Computation) -> dict[int, int]:
    """Parameter number -> exclusive upper bound for parameters used as indices."""
    users: dict[str, list[Instruction]] = {}
    for i in c.instructions:
        for o in i.operands:
            users.setdefault(o, []).append(i)
    by_name = c.by_name

    def bound_of_use(user: Instruction, operand_number: int) -> int | None:
        op = user.opcode
        shapes = [by_name[o].shape for o in user.operands]
        if op is Opcode.DYNAMIC_SLICE and operand_number >= 1:
            k = operand_number - 1
            return int(shapes[0].dimensions[k] - user.attr("dynamic_slice_sizes")[k] + 1)
        if op is Opcode.DYNAMIC_UPDATE_SLICE and operand_number >= 2:
            k = operand_number - 2
            return int(shapes[0].dimensions[k] - shapes[1].dimensions[k] + 1)
        if op is Opcode.GATHER and operand_number == 1:
            start_map, sizes = user.attr("start_index_map"), user.attr("slice_sizes")
            if not start_map:
                return None
            return int(min(shapes[0].dimensions[d] - sizes[d] + 1 for d in start_map))
        if op is Opcode.SCATTER and operand_number == len(user.operands) // 2:
            dims = user.attr("scatter_dims_to_operand_dims")
            return int(min(shapes[0].dimensions[d] for d in dims)) if dims else None
        return None

    def bound(name: str, depth: int = 0) -> int | None:
        found: list[int] = []
        for user in users.get(name, []):
            for number, o in enumerate(user.operands):
                if o != name:
                    continue
                b = bound_of_use(user, number)
                if b is None and user.opcode in _PASS_THROUGH and depth < 4:
                    b = bound(user.name, depth + 1)
                if b is not None:
                    found.append(b)
        return max(1, min(found)) if found else None

    out = {}
    for k, p in enumerate(c.parameters):
        b = bound(p.name)
        if b is not None:
            out[k] = b
    return out


def make_inputs(
    module: Module,
    mode: str,
    seed: int,
    device: int = 0,
    random_range: tuple[float, float] | None = None,
    memory_limit: int | None = None,
) -> list[Any]:
    """The entry's arguments of one device, made as `mode` says; each checked against the memory
    budget (hlo.budget: `memory_limit` bytes, None for the default, 0 for none) before it is
    made."""
    params = module.entry.parameter_shapes
    limit = budget.resolve(memory_limit)
    for k, shape in enumerate(params):
        for _, leaf in shape.leaves():
            if leaf.is_array:
                budget.check_shape(leaf, f"input {k} ({module.entry.parameters[k].name}):", limit)
    if mode == "zeros":
        return [_fill(s, 0) for s in params]
    if mode == "device-id":
        return [_fill(s, device) for s in params]
    generator = np.random.default_rng(seed + device)  # each device its own inputs
    bounds = index_bounds(module.entry)
    return [random_value(s, generator, random_range, bounds.get(k)) for k, s in enumerate(params)]


def _fill(shape: Shape, value: int) -> Any:
    if shape.is_tuple:
        return tuple(_fill(s, value) for s in shape.tuple_shapes)
    if not shape.is_array:
        return None
    dims = tuple(max(d, 0) for d in shape.dimensions)
    return np.full(dims, value).astype(np.dtype(shape.element_type.numpy_dtype))


def random_value(
    shape: Shape,
    generator: np.random.Generator,
    random_range: tuple[float, float] | None = None,
    index_bound: int | None = None,
) -> Any:
    """A seeded random value of `shape` (dynamic dimensions at their bound): floats normal (or
    uniform in `random_range`), integers in [0, 8) (or the range, or [0, index_bound))."""
    if shape.is_tuple:
        return tuple(random_value(s, generator, random_range) for s in shape.tuple_shapes)
    if not shape.is_array:
        return None
    dims = tuple(max(d, 0) for d in shape.dimensions)
    t = shape.element_type
    dtype = np.dtype(t.numpy_dtype)
    if t is PrimitiveType.PRED:
        return generator.random(dims) < 0.5
    if t.is_integral:
        lo, hi = (
            (0, 8) if random_range is None else (int(np.ceil(random_range[0])), int(np.ceil(random_range[1])))
        )
        if index_bound is not None:
            lo, hi = 0, index_bound
        if t.is_unsigned_integral:
            lo = max(lo, 0)
        return generator.integers(lo, max(hi, lo + 1), size=dims).astype(dtype)
    if random_range is not None:
        real = generator.uniform(random_range[0], random_range[1], size=dims)
        if t.is_complex:
            real = real + 1j * generator.uniform(random_range[0], random_range[1], size=dims)
        return real.astype(np.float32 if not t.is_complex else dtype).astype(dtype)
    if t.is_complex:
        return (generator.standard_normal(dims) + 1j * generator.standard_normal(dims)).astype(dtype)
    return generator.standard_normal(dims).astype(np.float32).astype(dtype)
