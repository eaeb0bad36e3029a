"""The arithmetic XLA's algebraic simplifier rewrites before XLA:CPU compiles a module, rewritten
alike at plan time: these rewrites change the last bits of results (a mean is `sum * (1/n)`,
softmax multiplies by the reciprocal of its row sums), so XLA:CPU's values are the rewritten
graph's. The rules, in the simplifier's order, are in simplifier_rules; this module is the
graph they work on.

The simplifier runs to a fixed point, with constant folding between its rounds: a value is
constant here where folding makes it one (an expression of constants, and iotas, alone), a
*literal* where it becomes a constant instruction and a *spread scalar* where it stays a
broadcast of one (XLA folds no broadcast: `op(broadcast(c))` becomes `broadcast(op(c))`). A
rewritten instruction keeps its name; the instructions made for it are named after it and
placed before it. bf16 arithmetic is left alone: XLA:CPU first makes each bf16 op an f32 op
between converts, which no rule then sees through.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction, new_instruction
from ..ir.opcode import Opcode
from ..literal import Literal
from ..shape import Shape

_FOLDABLE = frozenset(
    {Opcode.ADD, Opcode.SUBTRACT, Opcode.MULTIPLY, Opcode.DIVIDE, Opcode.NEGATE, Opcode.CONVERT,
     Opcode.RESHAPE, Opcode.BROADCAST, Opcode.SQRT, Opcode.RSQRT, Opcode.POWER, Opcode.EXP,
     Opcode.LOG, Opcode.MAXIMUM, Opcode.MINIMUM, Opcode.ABS, Opcode.TRANSPOSE, Opcode.SLICE,
     Opcode.CONSTANT, Opcode.BITCAST_CONVERT, Opcode.SELECT, Opcode.COMPARE}
)  # fmt: skip
_STABLEHLO_FOLDS = frozenset(
    {
        Opcode.ADD,
        Opcode.SUBTRACT,
        Opcode.MULTIPLY,
        Opcode.DIVIDE,
        Opcode.NEGATE,
        Opcode.CONVERT,
        Opcode.RESHAPE,
        Opcode.MAXIMUM,
        Opcode.MINIMUM,
        Opcode.ABS,
        Opcode.TRANSPOSE,
        Opcode.SLICE,
        Opcode.SELECT,
        Opcode.COMPARE,
        Opcode.SQRT,
        Opcode.RSQRT,
        Opcode.EXP,
        Opcode.LOG,
    }
)  # fmt: skip  (the ops StableHLO's folder computes: runtime.mlir_folds)
_COMMUTATIVE = frozenset({Opcode.ADD, Opcode.MULTIPLY, Opcode.MAXIMUM, Opcode.MINIMUM})
_ROUNDS = 8  # the simplifier's pipeline runs to a fixed point; these graphs settle in two or three

Rule = Callable[["Graph", Instruction], "Instruction | None"]


def rewritten(comp: Computation) -> Computation:
    """The computation with its arithmetic rewritten as XLA's simplifier rewrites it; `comp`
    itself when nothing changes."""
    from .simplifier_rules import RULES

    if not any(i.opcode in RULES for i in comp.instructions):
        return comp
    current = comp
    for k in range(_ROUNDS):
        graph = Graph(current, first=k == 0)
        instructions = tuple(graph.visit(RULES))
        if not graph.changed:
            break
        current = current.replace(instructions=instructions)
    return current


class Graph:
    """One round of the simplifier over a computation: the values the rules test, and the
    instructions they make."""

    def __init__(self, comp: Computation, first: bool = False) -> None:
        self.comp = comp
        self.first = first  # before XLA's constant folding first runs: StableHLO's folds only
        self.fresh: set[str] = set()  # made this round: constants only once folding has run
        self.by_name = dict(comp.by_name)
        self.taken = set(self.by_name)
        self.live = comp.needed()  # (XLA removes dead instructions first)
        self.uses = _uses(comp, self.live)
        self._constant: dict[str, bool] = {}
        self._literal: dict[str, bool] = {}
        self._folded: dict[str, bool] = {}
        self.changed = False
        self.made: list[Instruction] = []

    def visit(self, rules: dict[Opcode, Rule]) -> Iterator[Instruction]:
        for i in self.comp.instructions:
            swapped = self._commuted(i)
            if swapped is not i:
                self.changed = True
                i = self.by_name[i.name] = swapped
            rule = rules.get(i.opcode)
            kind = i.shape.element_type if not i.shape.is_tuple else None
            wanted = (
                kind is not None
                and (kind.is_floating_point or kind.is_complex)
                and kind is not PrimitiveType.BF16
            )
            wanted = wanted and i.name in self.live  # (XLA's DCE removes the others first)
            wanted = wanted and not self.constant(i.name)  # (folded, op by op, before any rule)
            replacement = rule(self, i) if rule is not None and wanted else None
            if replacement is None:
                self.made = []  # (a rule that made nothing it uses)
                yield i
                continue
            self.changed = True
            yield from self.made
            self.made = []
            self.by_name[i.name] = replacement  # (later instructions see it rewritten)
            for o in i.operands:
                self.uses[o] = self.uses.get(o, 0) - 1
            for o in replacement.operands:
                self.uses[o] = self.uses.get(o, 0) + 1
            yield replacement

    def _commuted(self, i: Instruction) -> Instruction:
        """A commutative op with its constant operand moved to the right, as StableHLO's
        canonicalizer moves it before XLA sees the module (which operand is which decides what
        the rules below match)."""
        if i.opcode not in _COMMUTATIVE or len(i.operands) != 2:
            return i
        lhs, rhs = i.operands
        if self.folded(lhs) and not self.folded(rhs):
            return i.replace(operands=(rhs, lhs))
        return i

    def folded(self, name: str) -> bool:
        """Whether StableHLO's folder makes the value a constant: an expression of constants
        whose broadcasts spread one element (no iota)."""

        def step(i: Instruction) -> bool | None:
            if not self.constant(i.name) or i.opcode is Opcode.IOTA:
                return False
            if i.opcode is Opcode.CONSTANT:
                return True
            if i.opcode is Opcode.BROADCAST and self.by_name[i.operands[0]].shape.element_count != 1:
                return False
            return None  # as its operands

        return self._bottom_up(name, self._folded, step, all)

    def __getitem__(self, name: str) -> Instruction:
        return self.by_name[name]

    # -- what the rules test -------------------------------------------------------------------------
    def one_use(self, name: str) -> bool:
        """XLA's `one use`: one user, reading it once."""
        return self.uses.get(name, 0) == 1

    def spread_alone(self, name: str) -> bool:
        """Whether a broadcast's operand has no other use. One of one element but some
        dimensions has none: XLA reshapes it to a scalar for each broadcast first."""
        shape = self.by_name[name].shape
        return (bool(shape.dimensions) and int(np.prod(shape.dimensions)) == 1) or self.one_use(name)

    def constant(self, name: str) -> bool:
        """Whether constant folding makes the value a constant (or a broadcast of one): an
        expression of constants and iotas, at least one of them a constant."""

        def step(i: Instruction) -> bool | None:
            if i.shape.is_tuple or i.opcode is Opcode.IOTA:
                return False
            if i.opcode is Opcode.CONSTANT:
                return True
            return None if i.opcode in _FOLDABLE else False

        return self._bottom_up(name, self._constant, step, None)

    def literal(self, name: str) -> bool:
        """A constant instruction by now: a constant expression with no broadcast in it,
        folded by StableHLO before the first round, by XLA's constant folding before the
        others (what a rule made this round is not folded yet)."""

        def step(i: Instruction) -> bool | None:
            if i.name in self.fresh or not self.constant(i.name):
                return False
            if i.opcode is Opcode.CONSTANT:
                return True
            if i.opcode is Opcode.BROADCAST or (self.first and i.opcode not in _STABLEHLO_FOLDS):
                return False
            return None

        return self._bottom_up(name, self._literal, step, all)

    def _bottom_up(
        self,
        name: str,
        table: dict[str, bool],
        step: Callable[[Instruction], bool | None],
        combine: Callable[[Iterable[bool]], bool] | None,
    ) -> bool:
        """A property of a value decided by `step`, or (None) by its operands' through `combine`
        (None: the constant rule), memoized in `table`; iterative, as chains can be long."""
        stack = [name]
        while stack:
            current = stack[-1]
            if current in table:
                stack.pop()
                continue
            i = self.by_name[current]
            own = step(i)
            if own is not None:
                table[current] = own
                stack.pop()
                continue
            pending = [o for o in i.operands if o not in table]
            if pending:
                stack.extend(pending)
                continue
            values = [table[o] for o in i.operands]
            if combine is not None:
                table[current] = combine(values)
            else:  # all operands constants or iotas, one of them a constant
                iota = [self.by_name[o].opcode is Opcode.IOTA for o in i.operands]
                table[current] = all(v or t for v, t in zip(values, iota)) and any(values)
            stack.pop()
        return table[name]

    def spreads(self, name: str) -> bool:
        """Whether the value is a broadcast XLA keeps one: it adds elements (one that only adds
        dimensions of size 1 in order is a reshape to XLA's simplifier)."""
        i = self.by_name[name]
        if i.opcode is not Opcode.BROADCAST:
            return False
        source = self.by_name[i.operands[0]]
        dimensions = tuple(i.attrs.get("dimensions", ()))
        same = int(np.prod(source.shape.dimensions)) == int(np.prod(i.shape.dimensions))
        return not (same and dimensions == tuple(sorted(dimensions)))

    def spread_scalar(self, name: str) -> str | None:
        """The scalar literal a value broadcasts (XLA's `broadcast(ConstantScalar)`), if it does."""
        i = self.by_name[name]
        if i.opcode is not Opcode.BROADCAST:
            return None
        inner = self.by_name[i.operands[0]]
        if not self.literal(inner.name) or int(np.prod(inner.shape.dimensions)) != 1:
            return None
        return inner.name

    def all_of(self, name: str, value: float) -> bool:
        """Whether every element is `value` (looking through broadcasts), bit for bit as XLA's
        IsAll compares (+0 is not -0)."""
        i = self.by_name[name]
        while i.opcode is Opcode.BROADCAST:
            i = self.by_name[i.operands[0]]
        if i.opcode is not Opcode.CONSTANT or i.shape.is_tuple or i.attrs["literal"].is_elided:
            return False
        array = np.asarray(i.attrs["literal"].to_numpy())
        want = np.asarray(value, dtype=array.dtype)
        return bool(array.size) and array.tobytes() == np.broadcast_to(want, array.shape).tobytes()

    # -- making instructions --------------------------------------------------------------------
    def new(
        self,
        near: Instruction,
        tag: str,
        opcode: Opcode,
        shape: Shape,
        operands: tuple[str, ...],
        attrs: FrozenDict[str, Any] | None = None,
    ) -> str:
        """A new instruction named after `near`, placed before it."""
        name, k = f"{near.name}.{tag}", 1
        while name in self.taken:
            k += 1
            name = f"{near.name}.{tag}{k}"
        self.taken.add(name)
        self.fresh.add(name)
        instr = new_instruction(
            name, opcode, shape, operands=operands, attrs=attrs if attrs is not None else FrozenDict(),
            metadata=near.metadata, span=near.span,
        )  # fmt: skip
        self.by_name[name] = instr
        self.made.append(instr)
        for o in operands:
            self.uses[o] = self.uses.get(o, 0) + 1
        return name

    def scalar(self, near: Instruction, kind: PrimitiveType, value: float) -> str:
        literal = Literal.from_array(np.asarray(value, dtype=kind.numpy_dtype), kind)
        return self.new(near, "c", Opcode.CONSTANT, Shape.scalar(kind), (), FrozenDict({"literal": literal}))

    def like(self, near: Instruction, shape: Shape, value: float) -> str:
        """XLA's MakeScalarLike: the value in the shape's type, broadcast to it."""
        one = self.scalar(near, shape.element_type, value)
        return self.spread(near, one, shape, ())

    def spread(self, near: Instruction, name: str, shape: Shape, dimensions: tuple[int, ...]) -> str:
        if tuple(self.by_name[name].shape.dimensions) == tuple(shape.dimensions):
            return name
        attrs: FrozenDict[str, Any] = FrozenDict({"dimensions": dimensions})
        return self.new(near, "bcast", Opcode.BROADCAST, shape, (name,), attrs)

    def binary(self, near: Instruction, opcode: Opcode, shape: Shape, a: str, b: str) -> str:
        return self.new(near, opcode.text[:3], opcode, shape, (a, b))

    def become(self, i: Instruction, opcode: Opcode, operands: tuple[str, ...]) -> Instruction:
        """`i` recomputed as another op of its shape, under its name."""
        return i.replace(opcode=opcode, operands=operands, attrs=FrozenDict())

    def alias(self, i: Instruction, target: str) -> Instruction:
        """`i` replaced by another value of its shape (kept as a copy under its name)."""
        return i.replace(opcode=Opcode.COPY, operands=(target,), attrs=FrozenDict())


def _uses(comp: Computation, live: set[str]) -> dict[str, int]:
    """How often each value is read by the live instructions (one read: XLA's one use, one
    user reading it once; the root's being returned does not count)."""
    reads: dict[str, int] = {}
    for i in comp.instructions:
        if i.name in live:
            for o in i.operands:
                reads[o] = reads.get(o, 0) + 1
    return reads
