"""Which instructions of a computation XLA:CPU computes together in one kernel (its loop fusion).

What LLVM may contract into an FMA depends on what it sees in one kernel: a multiply with two
users in one kernel stays a multiply, one copied into two kernels is fused into each consumer.
XLA:CPU's instruction fusion may duplicate: it visits consumers from the root up and fuses into
each one the producers it accepts, copying a producer with several users into every user that
takes it; a producer some user refuses is also computed on its own (its own kernel, read from
memory by that user). A user refuses a producer when either cannot be loop fused (a tuple, dot,
sort, custom call, reduce-window... take no producers; parameters and non-scalar constants are
never fused), when the producer is the computation's root, when a producer with several users is
expensive (exp, log, tanh, divide, reduce...; broadcasts and widening converts excepted) or is
an op emitted once (concatenate, pad, reduce, dynamic-update-slice), when an expensive producer's
elements would be read many times (a broadcast's operand, a pad's value, a reduce's init), for
concatenates of more than 8 operands or along a long minor dimension, and when the producer is
"globally unfusible": it reads more elements than it writes (operands counted once, not when at
most one of them has the result's rank) and some user cannot fuse it on every path from it.

Fusion sees the computation after XLA's CSE (which takes `b*a` for `a*b`) and its algebraic
simplifier: `as_fused` applies the CSE and the simplifications that remove an op outright
(`max(x, x)` is x, a copy that keeps the layout is its operand); its value-changing rewrites
come before (simplifier_rules, applied by contraction.contracted). Modelled from XLA's
instruction fusion (InstructionFusion, CpuInstructionFusion) and checked against XLA:CPU's
optimized modules.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dtypes import PrimitiveType
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import repeats, tree_reduce, vector_sum

ELEMENTWISE = frozenset(
    {Opcode.ABS, Opcode.ACOS, Opcode.ACOSH, Opcode.ADD, Opcode.AND, Opcode.ASIN, Opcode.ASINH,
     Opcode.ATAN2, Opcode.ATANH, Opcode.BITCAST_CONVERT, Opcode.CBRT, Opcode.CEIL, Opcode.CLAMP,
     Opcode.CLZ, Opcode.COMPARE, Opcode.COMPLEX, Opcode.CONVERT, Opcode.COPY, Opcode.COS,
     Opcode.COSH, Opcode.DIVIDE, Opcode.ERF, Opcode.EXP, Opcode.EXPM1, Opcode.FLOOR, Opcode.IMAG,
     Opcode.IS_FINITE, Opcode.LOG, Opcode.LOG1P, Opcode.LOGISTIC, Opcode.MAXIMUM, Opcode.MINIMUM,
     Opcode.MULTIPLY, Opcode.NEGATE, Opcode.NOT, Opcode.OR, Opcode.POPULATION_COUNT, Opcode.POWER,
     Opcode.REAL, Opcode.REDUCE_PRECISION, Opcode.REMAINDER, Opcode.ROUND_NEAREST_AFZ,
     Opcode.ROUND_NEAREST_EVEN, Opcode.RSQRT, Opcode.SELECT, Opcode.SHIFT_LEFT,
     Opcode.SHIFT_RIGHT_ARITHMETIC, Opcode.SHIFT_RIGHT_LOGICAL, Opcode.SIGN, Opcode.SIN, Opcode.SINH,
     Opcode.SQRT, Opcode.SUBTRACT, Opcode.TAN, Opcode.TANH, Opcode.XOR, Opcode.STOCHASTIC_CONVERT}
)  # fmt: skip
_LOOP_FUSIBLE = ELEMENTWISE | {
    Opcode.BITCAST, Opcode.BROADCAST, Opcode.CONCATENATE, Opcode.DYNAMIC_SLICE,
    Opcode.DYNAMIC_UPDATE_SLICE, Opcode.GATHER, Opcode.IOTA, Opcode.PAD, Opcode.REDUCE,
    Opcode.RESHAPE, Opcode.REVERSE, Opcode.SLICE, Opcode.TRANSPOSE,
}  # fmt: skip
_EXPENSIVE = frozenset(
    {Opcode.EXP, Opcode.EXPM1, Opcode.LOG, Opcode.LOG1P, Opcode.ERF, Opcode.TANH, Opcode.SQRT,
     Opcode.RSQRT, Opcode.CBRT, Opcode.POWER, Opcode.ATAN2, Opcode.ACOS, Opcode.ACOSH, Opcode.ASIN,
     Opcode.ASINH, Opcode.ATANH, Opcode.SINH, Opcode.COSH, Opcode.LOGISTIC, Opcode.DOT,
     Opcode.REDUCE, Opcode.GATHER, Opcode.REDUCE_WINDOW, Opcode.PARAMETER}
)  # fmt: skip
_EMITTED_ONCE = frozenset(
    {Opcode.CONCATENATE, Opcode.DOT, Opcode.DYNAMIC_UPDATE_SLICE, Opcode.PAD, Opcode.REDUCE,
     Opcode.REDUCE_WINDOW}
)  # fmt: skip
_IDEMPOTENT = frozenset({Opcode.MAXIMUM, Opcode.MINIMUM, Opcode.AND, Opcode.OR})
_PURE = (_LOOP_FUSIBLE - {Opcode.DYNAMIC_UPDATE_SLICE, Opcode.STOCHASTIC_CONVERT}) | {
    Opcode.REDUCE_WINDOW, Opcode.DOT, Opcode.GET_TUPLE_ELEMENT, Opcode.TUPLE
}  # fmt: skip
_COMPLEX = frozenset({PrimitiveType.C64, PrimitiveType.C128})
_FLOATS = frozenset({PrimitiveType.F16, PrimitiveType.BF16, PrimitiveType.F32, PrimitiveType.F64})
VECTOR_ELEMENTS = vector_sum.MIN_ELEMENTS  # YNNPACK takes ops with an operand or result this large
_SEARCH_LIMIT = 20_000  # instructions a path check visits before it calls the producer unfusible


@dataclass(frozen=True)
class Kernels:
    """The kernels of a computation, each named by its root (the instruction it writes)."""

    holding: dict[str, frozenset[str]]  # instruction -> roots of the kernels computing a copy

    def roots_of(self, name: str) -> frozenset[str]:
        """The kernels computing `name` (none: a parameter or constant read from memory)."""
        return self.holding.get(name, frozenset())


def as_fused(comp: Computation) -> tuple[Computation, dict[str, str]]:
    """The computation as XLA's fusion sees it, and what each instruction removed reads instead:
    repeats of a pure instruction read the first (repeats.merged), `max(x, x)`, `-(-x)` and a
    copy that keeps the layout read x. The root may be one of those removed."""
    return repeats.merged(comp, lambda i: i.opcode in _PURE, _simplified)


def _simplified(i: Instruction, kept: dict[str, Instruction]) -> str | None:
    """What XLA's simplifier replaces the instruction with, of the removals modelled."""
    operands = i.operands
    if i.opcode in _IDEMPOTENT and len(set(operands)) == 1:
        return operands[0]
    inner = kept.get(operands[0]) if operands else None
    if inner is None:
        return None
    if i.opcode is Opcode.COPY and inner.shape == i.shape:
        return operands[0]
    if i.opcode is Opcode.NEGATE and inner.opcode is Opcode.NEGATE:
        return inner.operands[0]  # -(-x) is x
    return None


def one_kernel(comp: Computation) -> Kernels:
    """A computation emitted whole into one kernel (a fusion's or a reducer's)."""
    root = comp.root_name
    return Kernels({i.name: frozenset([root]) for i in comp.instructions if not _leaf(i)})


def kernels(comp: Computation) -> Kernels:
    """XLA:CPU's kernels of a computation its instruction fusion runs on (an entry computation,
    a loop's body and condition, a conditional's branches)."""
    grouping = _Grouping(comp)
    holding: dict[str, frozenset[str]] = {}
    for i in reversed(comp.instructions):
        if _leaf(i):
            continue
        users = grouping.users.get(i.name, ())
        taken = [u for u in users if grouping.takes(u, i)]
        found: set[str] = set()
        if i.name == comp.root_name or not users or len(taken) < len(users):
            found.add(i.name)  # computed on its own: its own kernel
        for u in taken:
            found |= holding[u.name]
        holding[i.name] = frozenset(found)
    return Kernels(holding)


def _leaf(i: Instruction) -> bool:
    return i.opcode is Opcode.PARAMETER or i.opcode is Opcode.CONSTANT


class _Grouping:
    """The fusion decisions of one computation (CpuInstructionFusion::ShouldFuse and the
    globally unfusible producers of InstructionFusion)."""

    def __init__(self, comp: Computation) -> None:
        self.comp = comp
        self.by_name = comp.by_name
        self.position = {i.name: k for k, i in enumerate(comp.instructions)}
        self.users: dict[str, list[Instruction]] = {}
        for i in comp.instructions:
            for o in dict.fromkeys(i.operands):
                self.users.setdefault(o, []).append(i)
        self.spread: set[str] = set()  # broadcasts, and elementwise ops of broadcasts only
        for i in comp.instructions:
            if _spread(i, self.spread):
                self.spread.add(i.name)
        self.unfusible: set[str] = set()
        for i in reversed(comp.instructions):
            if not _leaf(i) and self._globally_unfusible(i):
                self.unfusible.add(i.name)

    def takes(self, consumer: Instruction, producer: Instruction) -> bool:
        """Whether the consumer's kernel computes the producer (a copy of it)."""
        return producer.name not in self.unfusible and self.should_fuse(consumer, producer)

    def should_fuse(self, consumer: Instruction, producer: Instruction) -> bool:
        if producer.name == self.comp.root_name or _leaf(producer):
            return False
        if producer.opcode not in _LOOP_FUSIBLE or consumer.opcode not in _LOOP_FUSIBLE:
            return False
        if _long_concatenate(producer) or _long_concatenate(consumer):
            return False
        if consumer.opcode is Opcode.REDUCE and not loop_reduce(consumer, self.by_name):
            return False
        expensive = _expensive(producer, self.by_name)
        if expensive and _reuses(consumer, producer.name):
            return False
        if len(self.users.get(producer.name, ())) > 1:
            if producer.opcode in _EMITTED_ONCE:
                return False
            if expensive and not _always_duplicable(producer, self.by_name):
                return False
        return True

    def _globally_unfusible(self, producer: Instruction) -> bool:
        users = self.users.get(producer.name, ())
        if len(users) < 2 or producer.opcode not in _LOOP_FUSIBLE or not producer.shape.is_array:
            return False  # (fused nowhere anyway, or into its one user)
        operands = [self.by_name[o].shape for o in dict.fromkeys(producer.operands)]
        if not all(s.is_array for s in operands) or _at_most_unary(producer, self.by_name, self.spread):
            return False
        if sum(s.element_count for s in operands) <= producer.shape.element_count:
            return False
        if not all(self.should_fuse(u, producer) for u in users):
            return True  # a user that cannot take it at all
        reach = self._descendants(producer, max(self.position[u.name] for u in users))
        if reach is None:
            return True
        known: dict[str, bool] = {}
        return not all(self._on_all_paths(producer, u, reach, known) for u in users)

    def _descendants(self, producer: Instruction, last: int) -> set[str] | None:
        """What depends on the producer up to position `last` (paths to its users end there)."""
        seen: set[str] = set()
        stack = [producer.name]
        while stack:
            name = stack.pop()
            for u in self.users.get(name, ()):
                if u.name not in seen and self.position[u.name] < last:
                    seen.add(u.name)
                    stack.append(u.name)
            if len(seen) > _SEARCH_LIMIT:
                return None
        return seen

    def _on_all_paths(
        self, producer: Instruction, consumer: Instruction, reach: set[str], known: dict[str, bool]
    ) -> bool:
        """Whether every path from the producer to the consumer can be fused, link by link
        (InstructionFusion::CanFuseOnAllPaths), without recursion."""
        stack: list[tuple[Instruction, bool]] = [(consumer, False)]
        while stack:
            value, expanded = stack.pop()
            if value.name in known:
                continue
            on_path = [self.by_name[o] for o in dict.fromkeys(value.operands)]
            on_path = [o for o in on_path if o.name == producer.name or o.name in reach]
            if not expanded:
                pending = [o for o in on_path if o.name != producer.name and o.name not in known]
                if pending:
                    stack.append((value, True))
                    stack.extend((o, False) for o in pending)
                    continue
            known[value.name] = value.opcode in _LOOP_FUSIBLE and all(
                (o.name == producer.name or (o.name not in self.unfusible and known[o.name]))
                and self.should_fuse(value, o)
                for o in on_path
            )
        return known[consumer.name]


def _expensive(i: Instruction, by_name: dict[str, Instruction]) -> bool:
    """CpuInstructionFusion::IsExpensive."""
    t = i.shape.element_type if i.shape.is_array else None
    if i.opcode in _EXPENSIVE:
        return True
    if i.opcode in (Opcode.DIVIDE, Opcode.REMAINDER):
        if t in _FLOATS or t in _COMPLEX:
            return True
        return by_name[i.operands[0]].opcode is not Opcode.CONSTANT  # (the dividend)
    if i.opcode in (Opcode.ABS, Opcode.SIGN, Opcode.SIN, Opcode.COS, Opcode.TAN):
        return by_name[i.operands[0]].shape.element_type in _COMPLEX
    if i.opcode is Opcode.CONVERT:
        source = by_name[i.operands[0]].shape.element_type
        return source is PrimitiveType.F32 and t is PrimitiveType.BF16
    return False


def _always_duplicable(i: Instruction, by_name: dict[str, Instruction]) -> bool:
    """A broadcast, or a convert that widens (no more expensive than the read it replaces)."""
    if i.opcode is Opcode.BROADCAST:
        return True
    if i.opcode is not Opcode.CONVERT:
        return False
    source = by_name[i.operands[0]].shape.element_type
    return source.bit_width <= i.shape.element_type.bit_width


def _reuses(consumer: Instruction, operand: str) -> bool:
    """Whether the consumer reads elements of `operand` more than once."""
    positions = [k for k, o in enumerate(consumer.operands) if o == operand]
    if consumer.opcode in (Opcode.BROADCAST, Opcode.DOT):
        return True
    if consumer.opcode in (Opcode.GATHER, Opcode.DYNAMIC_SLICE):
        return any(k > 0 for k in positions)
    if consumer.opcode is Opcode.PAD:
        return 1 in positions
    if consumer.opcode is Opcode.REDUCE:
        return any(k >= len(consumer.operands) // 2 for k in positions)
    return False


def loop_reduce(reduce: Instruction, by_name: dict[str, Instruction]) -> bool:
    """A reduce XLA:CPU's loop emitter runs as written: not one its tree rewriter first turns
    into a reduce-window (a reduced dimension longer than 32), not one of 4096+ elements (its
    vector kernels)."""
    operand = by_name[reduce.operands[0]].shape
    if not operand.is_array or operand.element_count >= VECTOR_ELEMENTS:
        return False
    return all(operand.dimensions[d] <= tree_reduce.WINDOW for d in reduce.attr("dimensions") or ())


def _long_concatenate(i: Instruction) -> bool:
    if i.opcode is not Opcode.CONCATENATE:
        return False
    if len(i.operands) > 8:
        return True
    dims = i.shape.dimensions
    axis = (i.attr("dimensions") or (0,))[0]
    return len(dims) >= 2 and axis == len(dims) - 1 and dims[axis] >= 128


def _spread(i: Instruction, spread: set[str]) -> bool:
    """A broadcast, iota or scalar constant, or an elementwise op of such operands only (XLA's
    simplifier sinks the broadcasts below it: it becomes a broadcast)."""
    if i.opcode in (Opcode.BROADCAST, Opcode.IOTA):
        return True
    if i.opcode is Opcode.CONSTANT:
        return i.shape.is_array and i.shape.element_count == 1
    return i.opcode in ELEMENTWISE and bool(i.operands) and all(o in spread for o in i.operands)


def _at_most_unary(i: Instruction, by_name: dict[str, Instruction], spread: set[str]) -> bool:
    """At most one operand has the result's true rank (broadcasts, iotas and scalar constants
    not counted)."""
    rank = _true_rank(i)
    full = 0
    for o in dict.fromkeys(i.operands):
        if o not in spread and _true_rank(by_name[o]) >= rank:
            full += 1
    return full <= 1


def _true_rank(i: Instruction) -> int:
    if not i.shape.is_array:
        return 0
    return sum(1 for d in i.shape.dimensions if d > 1)
