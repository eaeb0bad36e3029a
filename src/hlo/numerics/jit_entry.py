"""The compiled entry tier's code generator: a whole computation (the entry, with the
computations its fusions and calls apply inlined) as the source of one function numba compiles,
`entry(p0, ..., k0, ..., fp) -> (r0, ...)` over flat arrays (a scalar in a one-element array),
each op written by the loop tier's emitters (hlo.numerics.jit_ops, jit_data_ops) with the
interpreter's bits; repeated blocks become loops (hlo.numerics.jit_reroll).

`qualifies` is the cheap test (every op has an emitter, every type is one the tier computes in,
every value is small); `entry_source` writes the source. Both run in a background thread.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..shape import Shape
from . import contraction
from .jit_codegen import (
    GENERATOR_VERSION,
    TYPES,
    Gen,
    Unsupported,
    Val,
    check_shape,
    emitter_for,
    live_instructions,
)
from .jit_reroll import Region, find_regions

log = logging.getLogger("hlo.jit")

MAX_ELEMENTS = 4096  # elements of one value, at most: on larger arrays NumPy's whole-array loops win
MIN_INSTRUCTIONS = 16  # fewer: the interpreter's overhead is small next to a compiled call's
MAX_LINES = 2000  # generated lines, at most: numba compiles about 300 a second
ENTRY_VERSION = "2"  # (2: fusions and calls inlined before the blocks are found)


@dataclass(frozen=True)
class EntrySource:
    """A generated computation: its source, constants, the NumPy loops it calls, its
    parameters' and result's shapes, and its key (the disk cache's name for it)."""

    source: str
    constants: tuple[np.ndarray, ...]
    ufuncs: tuple[tuple[str, str], ...]
    parameters: tuple[Shape, ...]
    result: Shape
    key: str


def small_shape(shape: Shape) -> bool:
    """Whether a value is one the tier compiles: static, of its types, at most MAX_ELEMENTS."""
    if shape.is_tuple:
        return all(small_shape(s) for s in shape.tuple_shapes)
    return shape.is_static and shape.element_type in TYPES and shape.element_count <= MAX_ELEMENTS


def qualifies(module: Module, name: str) -> bool:
    """Whether the computation is worth compiling and may compile: at least MIN_INSTRUCTIONS
    instructions, only ops with emitters, small values of the tier's types; parameters and
    result arrays or one tuple of arrays."""
    comp = module.computation(name)
    if any(p.shape.is_tuple for p in comp.parameters):
        return False
    root = comp.by_name[comp.root_name].shape
    if root.is_tuple and any(s.is_tuple for s in root.tuple_shapes):
        return False
    count = 0
    seen: set[str] = set()
    stack = [name]
    while stack:
        c = module.computation(stack.pop())
        for instr in c.instructions:
            count += 1
            if not small_shape(instr.shape):
                return False
            if instr.opcode is not Opcode.PARAMETER and emitter_for(instr.opcode) is None:
                return False
            for called in _called(instr):
                if called not in seen:
                    seen.add(called)
                    stack.append(called)
    return count >= MIN_INSTRUCTIONS


def _called(instr: Instruction) -> tuple[str, ...]:
    """The computations an op with an emitter applies (fusion, call, reduce): read from its
    attributes (cheaper than the generic lookup, on 10,000 instructions)."""
    if not instr.attrs:
        return ()
    found: list[str] = []
    for key in ("calls", "to_apply"):
        value = instr.attrs.get(key)
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, tuple):
            found.extend(value)
    return tuple(found)


def _emit(g: Gen, instr: Instruction, values: dict[str, Val], args: list[Val]) -> None:
    check_shape(instr.shape)
    values[instr.name] = g.emit(instr, args)


def _loop(g: Gen, line: list[Instruction], region: Region, values: dict[str, Val]) -> None:
    """Blocks 0 to count-2 of a region as a Python loop whose carried values are variables
    `c<n>`; the last block written out (its values are the ones read after the region)."""
    start, period, count = region.start, region.period, region.count
    template = line[start + period : start + 2 * period]  # block 1: its operands say where they point
    carried: dict[int, Val] = {}
    for q, source in sorted(region.carried.items()):
        initial = values[source]
        if initial.items:
            raise Unsupported("a tuple carried between repeated blocks")
        var = g.name("c")
        g.line(f"{var} = {initial.var}")
        carried[q] = Val(initial.shape, var)
    g.line(f"for _ in range({count - 1}):")
    g.indent += 1
    block: dict[str, Val] = {}
    offset = {instr.name: i for i, instr in enumerate(template)}
    previous = {instr.name: i for i, instr in enumerate(line[start : start + period])}
    for i, instr in enumerate(template):
        args = []
        for o in instr.operands:
            if o in offset and offset[o] < i:
                args.append(block[o])
            elif o in previous:
                args.append(carried[previous[o]])
            else:
                args.append(values[o])
        _emit(g, instr, block, args)
    new = [block[template[q].name] for q in sorted(carried)]
    if any(v.items for v in new):
        raise Unsupported("a tuple carried between repeated blocks")
    if new:
        targets = ", ".join(carried[q].var for q in sorted(carried))
        g.line(f"{targets}, = {', '.join(v.var for v in new)},")
    g.indent -= 1
    # The last block reads the carried variables where block count-2's values would be.
    before = line[start + (count - 2) * period : start + (count - 1) * period]
    for q, v in carried.items():
        values[before[q].name] = v
    for instr in line[start + (count - 1) * period : start + count * period]:
        _emit(g, instr, values, [values[o] for o in instr.operands])


def _leaves(v: Val) -> list[Val]:
    return [x for item in v.items for x in _leaves(item)] if v.items else [v]


INLINED = (Opcode.FUSION, Opcode.CALL)


def _inline(
    module: Module, comp: Computation, names: dict[str, str], prefix: str, line: list[Instruction]
) -> str:
    """Append the computation's live instructions to `line`, each fusion's or call's computation
    in its place (renamed under the caller's name, its parameters the caller's operands), and
    return the name of its root's value. (XLA's optimized text holds a chain of scalar ops as
    one fusion of 10,000 instructions: inlined, its repeated blocks are found like the entry's;
    as one call of the emitters it was 10,000 lines, too many to compile.)"""
    for instr in live_instructions(contraction.contracted(comp, module)):  # (XLA's FMAs)
        if instr.opcode is Opcode.PARAMETER:
            continue
        operands = tuple(names[o] for o in instr.operands)
        called = _called(instr) if instr.opcode in INLINED else ()
        if len(called) == 1:
            inner = module.computation(called[0])
            bound = {
                p.name: operands[p.attrs.get("parameter_number", 0)]
                for p in inner.instructions
                if p.opcode is Opcode.PARAMETER
            }
            names[instr.name] = _inline(module, inner, bound, f"{prefix}{instr.name}/", line)
            continue
        names[instr.name] = prefix + instr.name
        line.append(
            instr.replace(name=prefix + instr.name, operands=operands)
            if prefix or operands != instr.operands
            else instr
        )
    return names[comp.root_name]


def entry_source(
    module: Module, name: str, flush: bool, folded: Mapping[str, Any] | None = None
) -> EntrySource | None:
    """The computation as one function's source; None if the tier cannot compile it (an op
    or form without an emitter, or more than MAX_LINES lines even with its loops)."""
    comp = module.computation(name)
    try:
        g = Gen(module, flush, folded)
        params = [Val(p.shape, f"a{k}") for k, p in enumerate(comp.parameters)]
        for p in params:
            check_shape(p.shape)
        values: dict[str, Val] = {}
        line: list[Instruction] = []
        for instr in comp.instructions:
            if instr.opcode is Opcode.PARAMETER:
                values[instr.name] = params[instr.attrs.get("parameter_number", 0)]
        root_name = _inline(module, comp, {n: n for n in values}, "", line)
        regions = find_regions(line)
        k = 0
        while k < len(line):
            region = regions.get(k)
            if region is not None:
                _loop(g, line, region, values)
                k += region.period * region.count
                continue
            instr = line[k]
            _emit(g, instr, values, [values[o] for o in instr.operands])
            k += 1
            if len(g.lines) > MAX_LINES:
                raise Unsupported(f"more than {MAX_LINES} lines")
        root = values[root_name]
        if len(g.lines) + sum(len(f) for f in g.extra) > MAX_LINES:
            raise Unsupported(f"more than {MAX_LINES} lines")
    except Unsupported as e:
        log.debug("hlo.jit: the computation %s stays on the interpreter: %s", name, e)
        return None
    outs = _leaves(root)
    # Scalars come and go in one-element arrays (numba passes a scalar through a double, which
    # the CPU's flush-to-zero mode would flush); an array the function returns is its own copy
    # when it is a parameter (the caller's array is never handed back writable twice).
    head = ", ".join(f"{p.var}_" if p.scalar else p.var for p in params)
    unpack = [f"    {p.var} = {p.var}_[0]" for p in params if p.scalar]
    results = ", ".join(f"np.full(1, {v.var})" if v.scalar else f"{v.var}.copy()" for v in outs)
    consts = "".join(f"k{n}, " for n in range(len(g.constants)))
    lines = [
        f"def entry({head}{', ' if params else ''}{consts}fp):",
        *unpack,
        *g.lines,
        f"    return ({results},)",
    ]
    functions = "\n\n".join("\n".join(f) for f in g.extra)
    source = functions + "\n\n" + "\n".join(lines) + "\n"
    key = hashlib.sha256(f"{GENERATOR_VERSION} {ENTRY_VERSION}\n{flush}\n{source}".encode()).hexdigest()[:24]
    return EntrySource(
        source, tuple(g.constants), tuple(g.ufuncs), tuple(p.shape for p in params), root.shape, key
    )
