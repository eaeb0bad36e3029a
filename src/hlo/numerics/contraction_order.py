"""Which product of an add LLVM fuses into an FMA, and what LLVM sees of an add's operands.

Where both operands of an add are products it may fuse, LLVM's Reassociate pass first puts the
operand of lower rank first (loads rank in the order XLA's fused kernel emits them, every op one
more than its highest operand, a negate the same; values hoisted out of the loop lowest), its
instruction combiner turns an add of a negated product into a subtract, and code generation then
fuses the first multiply of an add, the subtracted-from one of a subtract. A product of values
that are the same all along the kernel's innermost loop is hoisted out of it, away from the add.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import cpu_kernels
from .loop_invariance import innermost_dimension

_VIEWS = frozenset(
    {Opcode.BROADCAST, Opcode.RESHAPE, Opcode.BITCAST, Opcode.TRANSPOSE, Opcode.SLICE, Opcode.REVERSE,
     Opcode.COPY, Opcode.CONVERT}
)  # fmt: skip
_LEAVES = frozenset({Opcode.PARAMETER, Opcode.CONSTANT, Opcode.IOTA})
_SINKABLE = cpu_kernels.ELEMENTWISE  # ops of broadcasts XLA's simplifier computes before the broadcast


@dataclass(frozen=True)
class Product:
    """A multiply LLVM may fuse into the add, reached through `negated` negates or not."""

    position: int  # the add's operand it is
    multiply: Instruction
    negated: bool


@dataclass(frozen=True)
class Kernel:
    """One kernel of the computation: its root, what it computes and how often each is read."""

    root: str
    names: set[str]
    uses: dict[str, int]
    invariant: dict[tuple[str, int], bool] = field(
        default_factory=dict
    )  # (contraction_order.invariant's memo)


LINKS = frozenset({Opcode.NEGATE, Opcode.COPY, Opcode.CONVERT})  # between a multiply and its user


def product_through_links(
    start: Instruction, by_name: dict[str, Instruction], kernel: Kernel
) -> Product | None:
    """The multiply `start` is, directly or through negates, copies and converts to its own type
    (which XLA removes or folds into the FMA), when each step is computed in the kernel with one
    use there, is not the kernel's root, and has `start`'s type and dimensions: a product LLVM may
    fuse into the op reading `start` (position 0; the caller sets the operand it is)."""
    t, dims = start.shape.element_type, start.shape.dimensions
    value, negated = start, False
    while True:
        if value.name not in kernel.names or kernel.uses.get(value.name, 0) != 1:
            return None  # read from memory, or read twice
        if value.name == kernel.root or value.control_predecessors:
            return None
        if value.shape.element_type is not t or value.shape.dimensions != dims:
            return None
        if value.opcode is Opcode.MULTIPLY:
            return Product(0, value, negated)
        if value.opcode not in LINKS:
            return None
        if value.opcode is Opcode.CONVERT and by_name[value.operands[0]].shape.element_type is not t:
            return None
        negated ^= value.opcode is Opcode.NEGATE
        value = by_name[value.operands[0]]


def invariant(
    value: Instruction,
    add: Instruction,
    by_name: dict[str, Instruction] | None = None,
    memo: dict[tuple[str, int], bool] | None = None,
) -> bool:
    """The same all along the add's innermost loop: a broadcast that does not map it, or (given
    `by_name`) an elementwise op of such broadcasts only, which XLA computes before broadcasting.
    `memo` keeps the answers of a computation's values (a long chain is then walked once)."""
    minor = innermost_dimension(add)
    if minor is None:
        return False  # no loop: one block
    if value.opcode is Opcode.BROADCAST:
        return minor not in tuple(value.attr("dimensions") or ())
    if by_name is None or value.opcode not in _SINKABLE or not value.operands:
        return False
    found = _invariant_walk(value, add, minor, by_name, memo)
    if memo is not None:
        memo[(value.name, minor)] = found
    return found


def _invariant_walk(
    value: Instruction,
    add: Instruction,
    minor: int,
    by_name: dict[str, Instruction],
    memo: dict[tuple[str, int], bool] | None,
) -> bool:
    stack, seen = [value], set()
    while stack:  # (without recursion: chains run deep)
        v = stack.pop()
        if v.name in seen:
            continue
        seen.add(v.name)
        known = memo.get((v.name, minor)) if memo is not None and v is not value else None
        if known is not None:
            if not known:
                return False
            continue
        if v.opcode is Opcode.BROADCAST:
            if minor in tuple(v.attr("dimensions") or ()):
                return False
        elif v.opcode in _SINKABLE and v.operands and v.shape.dimensions == add.shape.dimensions:
            stack.extend(by_name[o] for o in v.operands)
        else:
            return False
    return True


def first_fused(
    add: Instruction,
    p: Product,
    q: Product,
    by_name: dict[str, Instruction],
    kernel: Kernel,
    constant: dict[str, bool],
) -> Product:
    """Of two fusible products, the one LLVM fuses (p is operand 0)."""
    if add.opcode is Opcode.ADD:
        if p.negated != q.negated:
            return q if p.negated else p  # -p + q is q - p, p + -q is p - q
    elif p.negated == q.negated:
        return p  # (a subtract keeps its order)
    elif not q.negated:
        return p  # -p - q: the negated product's pattern
    # an add (or p - (-q), which is p + q): Reassociate's order, operand 0 on a tie
    ranks = _Ranks(add, by_name, kernel, constant)
    first = ranks.of(add.operands[0])
    second = ranks.of(add.operands[1])
    return q if second < first else p


class _Ranks:
    """LLVM Reassociate's ranks of the values of an add's fused expression: loads numbered in the
    order the kernel emits them (operands left to right, depth first), each op one above its
    highest operand (a negate, copy or view the same), invariants and constants 0."""

    def __init__(
        self, add: Instruction, by_name: dict[str, Instruction], kernel: Kernel, constant: dict[str, bool]
    ) -> None:
        self.add, self.by_name, self.kernel, self.constant = add, by_name, kernel, constant
        self.known: dict[str, int] = {}
        self.loads = 0

    def of(self, name: str) -> int:
        for value in post_order(name, self.by_name, self._leaf):
            self.known[value.name] = self._rank(value)
        return self.known[name]

    def _leaf(self, value: Instruction) -> bool:
        if value.name in self.known:
            return True
        fused = value.opcode in _VIEWS or value.shape.dimensions == self.add.shape.dimensions
        inside = value.name in self.kernel.names  # (else a load of another kernel's result)
        return value.opcode in _LEAVES or not fused or not inside or invariant(value, self.add)

    def _rank(self, value: Instruction) -> int:
        known = self.known.get(value.name)
        if known is not None:
            return known
        if of_constants(value.name, self.by_name, self.constant) or invariant(value, self.add):
            return 0
        if self._leaf(value) or not value.operands:
            self.loads += 1
            return self.loads
        highest = max(self.known[o] for o in value.operands)
        return highest + (0 if value.opcode in _VIEWS or value.opcode is Opcode.NEGATE else 1)


def of_constants(name: str, by_name: dict[str, Instruction], known: dict[str, bool]) -> bool:
    """Computed from constants alone (XLA folds it before code generation)."""

    def leaf(value: Instruction) -> bool:
        return value.name in known or value.opcode is Opcode.PARAMETER or not value.operands

    for value in post_order(name, by_name, leaf):
        if value.name not in known:
            known[value.name] = value.opcode in (Opcode.CONSTANT, Opcode.IOTA) or (
                bool(value.operands)
                and value.opcode is not Opcode.PARAMETER
                and all(known[o] for o in value.operands)
            )
    return known[name]


def post_order(
    name: str, by_name: dict[str, Instruction], leaf: Callable[[Instruction], bool]
) -> list[Instruction]:
    """The instructions `name` depends on (stopping at leaves), operands before their users and
    left to right, without recursion (chains run thousands of instructions deep)."""
    order: list[Instruction] = []
    seen: set[str] = set()
    stack: list[tuple[Instruction, bool]] = [(by_name[name], False)]
    while stack:
        value, expanded = stack.pop()
        if expanded:
            order.append(value)
            continue
        if value.name in seen:
            continue
        seen.add(value.name)
        if leaf(value):
            order.append(value)
            continue
        stack.append((value, True))
        stack.extend((by_name[o], False) for o in reversed(value.operands) if o not in seen)
    return order
