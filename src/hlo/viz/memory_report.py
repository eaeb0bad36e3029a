"""Where a module's memory goes: every buffer of the entry computation with its logical bytes (the
elements' own bits) and physical bytes under its layout (tile padding, element size, `L(n)`), and
the peak of the engine's live set.

The peak is a static walk of the entry schedule doing what runtime/planner.py plans and runtime/plan.py runs:
parameters are live from the start, each instruction's value appears when it runs, and a value is
dropped after the step that last uses it (the root is kept). Values that only forward another
(get-tuple-element, bitcast, tuple leaves) take no bytes of their own; called computations (fusion
bodies, reducers) are not walked: their values live inside one step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..dtypes import PrimitiveType
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..memory import byte_size, plan
from ..runtime.plan import SIDE_EFFECTING
from ..shape import Shape

# Results that are a view of an operand's buffer, as in XLA's buffer assignment.
FORWARDING = frozenset({Opcode.GET_TUPLE_ELEMENT, Opcode.BITCAST})


@dataclass(frozen=True)
class Buffer:
    instruction: str
    index: tuple[int, ...]  # the shape index of the leaf (() for the whole value)
    shape: Shape
    kind: str  # "parameter N", "output", "temporary" or "index table"
    logical: int
    physical: int

    @property
    def padding(self) -> int:
        return self.physical - self.logical

    @property
    def memory_space(self) -> int:
        return self.shape.layout.memory_space if self.shape.is_array and self.shape.layout else 0

    @property
    def label(self) -> str:
        suffix = "{" + ",".join(map(str, self.index)) + "}" if self.index else ""
        return f"%{self.instruction}{suffix}"


@dataclass(frozen=True)
class MemoryReport:
    computation: str
    buffers: tuple[Buffer, ...]  # largest physical first
    peak_bytes: int
    peak_at: str  # the instruction whose step reaches the peak
    peak_live: tuple[str, ...]  # the values live at the peak

    @property
    def logical(self) -> int:
        return sum(b.logical for b in self.buffers)

    @property
    def physical(self) -> int:
        return sum(b.physical for b in self.buffers)


def logical_bytes(shape: Shape) -> int:
    """The elements' own bits, rounded up to a byte: what the array holds, whatever its layout. A
    pred counts as a byte (its one bit is never packed by default; a byte is its size everywhere
    in XLA), so only E(n) packing, sub-byte integers and floats, and tiles show as padding."""
    if not shape.is_array:
        return byte_size(shape)
    count = math.prod(plan(shape).dims)
    et = shape.element_type
    bits = 8 if et is PrimitiveType.PRED else et.bit_width
    return -(-count * bits // 8)


def own_buffers(i: Instruction, kind: str) -> list[Buffer]:
    """The buffers an instruction defines (XLA's defining values): all leaves of a parameter or
    of an op that makes a tuple of new arrays, only the index table of a `tuple` (its leaves are
    its operands'), nothing for forwarding ops."""
    if i.opcode in FORWARDING:
        return []
    shape = i.shape
    if not shape.is_tuple:
        return [Buffer(i.name, (), shape, kind, logical_bytes(shape), byte_size(shape))]
    table = byte_size(shape)
    out = [Buffer(i.name, (), shape, "index table" if kind == "temporary" else kind, table, table)]
    if i.opcode is Opcode.TUPLE:
        return out
    for index, leaf in shape.leaves():
        if index and not leaf.is_tuple:
            out.append(Buffer(i.name, index, leaf, kind, logical_bytes(leaf), byte_size(leaf)))
    return out


def live_instructions(c: Computation) -> list[Instruction]:
    """The instructions the engine runs, in schedule order: what the root and side effects need,
    and every parameter (dead-code elimination as runtime/planner.py does it)."""
    seeds = [c.root_name] + [i.name for i in c.instructions if i.opcode in SIDE_EFFECTING]
    needed: set[str] = set()
    while seeds:
        name = seeds.pop()
        if name not in needed:
            needed.add(name)
            seeds.extend((*c[name].operands, *c[name].control_predecessors))
    live = needed | {p.name for p in c.parameters}
    return [i for i in c.instructions if i.name in live]


def memory_report(module: Module, computation: str | None = None) -> MemoryReport:
    comp = module.computation(computation) if computation else module.entry
    order = live_instructions(comp)
    buffers: dict[str, list[Buffer]] = {}
    for i in order:
        if i.opcode is Opcode.PARAMETER:
            kind = f"parameter {i.attrs.get('parameter_number', 0)}"
        else:
            kind = "output" if i.name == comp.root_name else "temporary"
        buffers[i.name] = own_buffers(i, kind)
    size = {name: sum(b.physical for b in bs) for name, bs in buffers.items()}
    last_use: dict[str, int] = {}
    for k, i in enumerate(order):
        for o in i.operands:
            last_use[o] = k
    frees: dict[int, list[str]] = {}
    for name, k in last_use.items():
        if name != comp.root_name:
            frees.setdefault(k, []).append(name)
    live = {i.name for i in order if i.opcode is Opcode.PARAMETER}
    current = sum(size[n] for n in live)
    peak, peak_at, peak_live = current, order[0].name if order else comp.root_name, tuple(sorted(live))
    for k, i in enumerate(order):
        if i.opcode is not Opcode.PARAMETER:
            live.add(i.name)
            current += size[i.name]
        if current > peak:
            peak, peak_at = current, i.name
            peak_live = tuple(n.name for n in order if n.name in live)
        for name in frees.get(k, ()):
            if name in live:
                live.discard(name)
                current -= size[name]
    every = [b for bs in buffers.values() for b in bs]
    every.sort(key=lambda b: (-b.physical, b.label))
    return MemoryReport(comp.name, tuple(every), peak, peak_at, peak_live)
