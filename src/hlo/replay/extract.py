"""`hlo extract`: a standalone module whose root is one instruction of another, as XLA's
hlo-extractor (`xla/tools/hlo_extractor.cc`) makes it. The cone of the instruction (its operands,
their operands, ...) is kept up to `height` hops; values farther away become parameters of the new
entry, numbered in the order a post-order walk from the root meets them (XLA's numbering), and
computations the kept instructions call come along with their own callees. Names stay.

Two choices differ from XLA's tool, both so that a `--dump-values` directory can feed the result:
constants, iotas and operand-less after-alls are kept as they are rather than turned into
parameters (they cost nothing to recompute and a dump need not hold them; replica-id and
partition-id do become parameters: their value depends on the device), and a tuple-valued
boundary becomes one parameter per leaf rebuilt by `tuple` instructions (a `.npz` holds arrays).
Control predecessors outside the kept instructions are dropped."""

from __future__ import annotations

import difflib
from collections import deque
from dataclasses import dataclass

import numpy as np

from ..errors import HloError
from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.module import ComputationLayout, Module, ModuleConfig
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.order import computation_order
from ..text.stack_frames import canonicalize_stack_frames
from ..verifier import verify

# Producers without operands that are cheaper to keep than to feed: the same value on every run.
KEPT_AS_IS = frozenset({Opcode.CONSTANT, Opcode.IOTA, Opcode.AFTER_ALL})


@dataclass(frozen=True)
class Source:
    """Where a parameter of the extracted module comes from: a value of the original module (the
    instruction `name` of `computation`, leaf `index` of its value; () for an array)."""

    computation: str
    name: str
    index: tuple[int, ...] = ()


@dataclass(frozen=True)
class Extraction:
    module: Module
    sources: tuple[Source, ...]  # by parameter number


def extract(module: Module, name: str, height: int | None = None, computation: str | None = None) -> Module:
    """The module whose root is `name` (in the entry, or in `computation`); `height` None keeps the
    whole cone up to the parameters, 0 makes the instruction's operands parameters."""
    return extract_with_sources(module, name, height, computation).module


def find_instruction(
    module: Module, name: str, computation: str | None = None
) -> tuple[Computation, Instruction]:
    """The instruction `name` of the entry (or of `computation`), or an error naming near names."""
    name = name.removeprefix("%")
    if computation is not None and computation not in module.by_name:
        near = difflib.get_close_matches(computation, list(module.by_name), n=3)
        hint = f" (did you mean {', '.join(near)}?)" if near else ""
        raise HloError(f"no computation named {computation!r} in module {module.name}{hint}")
    comp = module.entry if computation is None else module.computation(computation)
    if name in comp.by_name:
        return comp, comp[name]
    near = difflib.get_close_matches(name, list(comp.by_name), n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    elsewhere = [c.name for c in module.computations if name in c.by_name]
    if elsewhere:
        hint += f" (it is in computation {elsewhere[0]}: --computation {elsewhere[0]})"
    raise HloError(f"no instruction named {name!r} in computation {comp.name} of module {module.name}{hint}")


def extract_with_sources(
    module: Module,
    name: str,
    height: int | None = None,
    computation: str | None = None,
    keep: frozenset[str] = frozenset(),
) -> Extraction:
    """`extract`, with where each new parameter's value comes from (for `--values`); the
    instructions `keep` (operands of the root, of their own) count no hop: `hlo bisect` keeps the
    multiply XLA:CPU fuses into an add (hlo.numerics.contraction), so the module computes the add
    as the whole program did."""
    if height is not None and height < 0:
        raise HloError(f"the height must be >= 0, not {height}")
    comp, root = find_instruction(module, name, computation)
    boundary = _boundary(comp, root, height, keep)
    builder = _Builder(module, comp)
    for instr in _post_order(comp, root, boundary):
        if instr.name in boundary or instr.opcode is Opcode.PARAMETER:
            builder.parameter(instr, instr.opcode is not Opcode.PARAMETER)
        else:
            builder.keep(instr)
    kept = {i.name for i in builder.instructions}
    body = tuple(
        i.replace(control_predecessors=tuple(p for p in i.control_predecessors if p in kept))
        for i in builder.instructions
    )
    entry = Computation(comp.name, body, root.name)
    callees = _callees(module, body)
    computations = tuple(c for c in module.computations if c.name in callees and c.name != comp.name)
    new = Module(
        "extracted",
        (*computations, entry),
        comp.name,
        config_for(module, entry),
        # The called computations keep their order, and the entry's post order is a valid
        # schedule: a scheduled module stays one (else the text would reorder its callees).
        is_scheduled=module.is_scheduled,
    )
    # Computations in the order XLA prints them (callees first, as the entry's walk meets them)
    # and only the stack frames the kept instructions name, renumbered as XLA's parser does: the
    # module equals its own text read back.
    new = new.replace(computations=tuple(computation_order(new)))
    new = canonicalize_stack_frames(new, module.stack_frames)
    verify(new)
    return Extraction(new, tuple(builder.sources))


def config_for(module: Module, entry: Computation) -> ModuleConfig:
    """`module`'s device counts, and the entry layout of a new entry (XLA wants a program shape)."""
    layout = ComputationLayout(entry.parameter_shapes, entry.root.shape)
    return ModuleConfig(
        replica_count=module.config.replica_count,
        num_partitions=module.config.num_partitions,
        use_spmd_partitioning=module.config.use_spmd_partitioning,
        entry_computation_layout=layout,
    )


def _boundary(comp: Computation, root: Instruction, height: int | None, keep: frozenset[str]) -> set[str]:
    """Names more than `height` hops from the root (breadth first, as XLA counts), sources kept."""
    if height is None:
        return set()
    hops = {root.name: 0}
    queue = deque([root.name])
    boundary = set()
    while queue:
        instr = comp[queue.popleft()]
        if hops[instr.name] > height:
            if not _kept_source(instr):
                boundary.add(instr.name)
            continue
        for operand in instr.operands:
            if operand not in hops:
                hops[operand] = hops[instr.name] + (0 if operand in keep else 1)
                queue.append(operand)
    return boundary


def _kept_source(instr: Instruction) -> bool:
    return instr.opcode in KEPT_AS_IS and not instr.operands


def _post_order(comp: Computation, root: Instruction, boundary: set[str]) -> list[Instruction]:
    """Operands before users, operands in order; a boundary instruction's operands are not walked."""
    order: list[Instruction] = []
    done: set[str] = set()
    stack: list[tuple[str, bool]] = [(root.name, False)]
    while stack:
        name, expanded = stack.pop()
        if name in done:
            continue
        if expanded:
            done.add(name)
            order.append(comp[name])
            continue
        stack.append((name, True))
        if name not in boundary:
            stack.extend((o, False) for o in reversed(comp[name].operands) if o not in done)
    return order


class _Builder:
    """The new entry's instructions in order, its parameters and their sources."""

    def __init__(self, module: Module, comp: Computation) -> None:
        self.comp = comp
        self.instructions: list[Instruction] = []
        self.sources: list[Source] = []
        self.taken = {i.name for c in module.computations for i in c.instructions}

    def keep(self, instr: Instruction) -> None:
        self.instructions.append(instr)

    def parameter(self, instr: Instruction, split_tuples: bool) -> None:
        """`instr` becomes a parameter; a tuple-valued boundary one parameter per leaf."""
        if split_tuples and instr.shape.is_tuple:
            self._tuple_of_leaves(instr.name, instr.name, instr.shape, (), instr)
            return
        self.instructions.append(self._new_parameter(instr.name, instr.shape, instr))
        self.sources.append(Source(self.comp.name, instr.name, ()))

    def _tuple_of_leaves(
        self, name: str, origin: str, shape: Shape, index: tuple[int, ...], instr: Instruction
    ) -> None:
        parts = []
        for k, sub in enumerate(shape.tuple_shapes):
            # `.leafN`, not `.N`: XLA's parser reads `x.0` as the name `x` made unique, and
            # would rename the one or the other.
            part = self._unique(f"{origin}.leaf{'_'.join(str(i) for i in (*index, k))}")
            if sub.is_tuple:
                self._tuple_of_leaves(part, origin, sub, (*index, k), instr)
            else:
                self.instructions.append(self._new_parameter(part, sub, instr))
                self.sources.append(Source(self.comp.name, origin, (*index, k)))
            parts.append(part)
        self.instructions.append(
            Instruction(name, Opcode.TUPLE, shape, tuple(parts), metadata=instr.metadata)
        )

    def _new_parameter(self, name: str, shape: Shape, instr: Instruction) -> Instruction:
        number: FrozenDict[str, int] = FrozenDict({"parameter_number": len(self.sources)})
        if instr.opcode is Opcode.PARAMETER:
            return instr.replace(attrs=number, control_predecessors=())
        return Instruction(name, Opcode.PARAMETER, shape, attrs=number, metadata=instr.metadata)

    def _unique(self, name: str) -> str:
        while name in self.taken:
            name += "_"
        self.taken.add(name)
        return name


def _callees(module: Module, instructions: tuple[Instruction, ...]) -> set[str]:
    """Every computation the instructions call, and the computations those call."""
    found: set[str] = set()
    todo = [c for i in instructions for c in i.called_computations]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        todo.extend(c for i in module.computation(name).instructions for c in i.called_computations)
    return found


def values_of(
    extraction: Extraction, values: dict[tuple[str, str], dict[tuple[int, ...], np.ndarray]], where: str
) -> list[np.ndarray]:
    """The extracted module's arguments taken from recorded values (a `--dump-values` directory
    read by values.read_dump): parameter k gets the value of its source."""
    out = []
    for k, source in enumerate(extraction.sources):
        leaves = values.get((source.computation, source.name), {})
        if source.index not in leaves:
            part = f" leaf {list(source.index)}" if source.index else ""
            raise HloError(
                f"{where}: no value of %{source.name}{part} (computation {source.computation}) for "
                f"parameter {k} of the extracted module"
            )
        out.append(leaves[source.index])
    return out
