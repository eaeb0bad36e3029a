"""Which instructions a drawing of a module shows: one computation and the computations it calls,
or the neighbourhood of one instruction. Shared by the Graphviz and Model Explorer writers, so both
draw the same piece and refuse the same oversized graphs."""

from __future__ import annotations

import difflib
import sys
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import HloError
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..ops.registry import REGISTRY, load_all, spec

MAX_NODES = 400  # beyond this a drawing is a grey smear: say so and suggest --around


@dataclass(frozen=True)
class Selection:
    """The computations to draw, each with the instruction names shown (in schedule order), and
    which computation is the top one (the others are drawn as clusters inside it)."""

    module: Module
    top: str
    shown: dict[str, tuple[str, ...]]
    focus: str | None = None  # the --around instruction, highlighted

    @property
    def node_count(self) -> int:
        return sum(len(v) for v in self.shown.values())

    def instructions(self, computation: str) -> list[Instruction]:
        comp = self.module.computation(computation)
        return [comp[n] for n in self.shown[computation]]


def family(instr: Instruction) -> str:
    """The op family: the hlo.ops module that holds the op's shape rule (elementwise, reduce, ...)."""
    if instr.opcode is Opcode.PARAMETER:
        return "parameter"  # it has no shape rule: its shape is given
    op = spec(instr.opcode)
    fn = op.shape_rule or op.kernel
    return _family_of(fn) if fn is not None else "other"


def _family_of(fn: Callable[..., Any]) -> str:
    """The family of the module that defines `fn`: the module's name, or the FAMILY it declares
    (a module split out of a family, as binary_ops.py out of elementwise.py, keeps the family's
    name and colour in pictures)."""
    module = fn.__module__
    return str(getattr(sys.modules[module], "FAMILY", module.rsplit(".", 1)[-1]))


def families() -> list[str]:
    """Every family name, in a fixed order (so each keeps its colour from module to module)."""
    load_all()  # every family into the registry
    names = {_family_of(fn) for s in REGISTRY.values() if (fn := s.shape_rule or s.kernel)}
    return sorted(names | {"other", "parameter"})


def find_computation(module: Module, name: str) -> Computation:
    if name in module.by_name:
        return module.computation(name)
    near = difflib.get_close_matches(name, list(module.by_name), n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    raise HloError(f"no computation named {name!r} in module {module.name}{hint}")


def find_instruction(module: Module, name: str) -> tuple[Computation, Instruction]:
    for comp in module.computations:
        if name in comp.by_name:
            return comp, comp[name]
    every = [i.name for c in module.computations for i in c.instructions]
    near = difflib.get_close_matches(name, every, n=3)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    raise HloError(f"no instruction named {name!r} in module {module.name}{hint}")


def _with_callees(module: Module, top: str) -> dict[str, tuple[str, ...]]:
    shown: dict[str, tuple[str, ...]] = {}
    todo = [top]
    while todo:
        name = todo.pop()
        if name in shown:
            continue
        comp = module.computation(name)
        shown[name] = tuple(i.name for i in comp.instructions)
        for i in comp.instructions:
            todo.extend(c for c in i.called_computations if c not in shown)
    return shown


def select(
    module: Module,
    computation: str | None = None,
    around: str | None = None,
    depth: int = 2,
    max_nodes: int = MAX_NODES,
) -> Selection:
    """The piece to draw. `around`: the instructions within `depth` operand/user steps of it in
    its own computation (called computations are named on the nodes, not drawn)."""
    if around is not None:
        if depth < 0:
            raise HloError("--depth must be >= 0")
        comp, focus = find_instruction(module, around)
        users: dict[str, list[str]] = {i.name: [] for i in comp.instructions}
        for i in comp.instructions:
            for o in i.operands:
                users[o].append(i.name)
        seen = {focus.name: 0}
        queue = deque([focus.name])
        while queue:
            name = queue.popleft()
            if seen[name] == depth:
                continue
            for nxt in (*comp[name].operands, *users[name]):
                if nxt not in seen:
                    seen[nxt] = seen[name] + 1
                    queue.append(nxt)
        names = tuple(i.name for i in comp.instructions if i.name in seen)
        sel = Selection(module, comp.name, {comp.name: names}, focus.name)
    else:
        top = find_computation(module, computation).name if computation else module.entry.name
        sel = Selection(module, top, _with_callees(module, top))
    if sel.node_count > max_nodes:
        raise HloError(
            f"the graph has {sel.node_count} instructions, too many to draw legibly (limit {max_nodes}): "
            "draw a piece with --around INSTR --depth N or --computation NAME, or raise --max-nodes"
        )
    return sel
