"""Which elementwise instructions XLA:CPU hands to YNNPACK together with a large reduce, and so
computes with YNNPACK's own functions (ynn_exp.py) rather than its approximations.

XLA's library rewriter (YnnMatcher, jaxlib 0.10.2) starts a YNNPACK fusion at a reduce YNNPACK
takes (an add, max or min of the two parameters; f32 or f64, or bf16/f16 max and min; 4096 or
more elements in the operand or the result) and grows it: a producer joins when every user of it
is in the fusion, a consumer when the member it reads has no other user. Only ops YNNPACK has
join (exp, expm1, tanh, logistic, log, log1p, sqrt, rsqrt, erf, abs, floor, ceil, sign, round,
negate, convert, add, subtract, multiply, divide, maximum, minimum, power; not sin, cos, tan,
cbrt, atan2, remainder), of f32, f64, bf16, s8 or u8 elements (no f16) and themselves 4096+
elements (or an operand); broadcasts, reshapes, transposes and constants join at any size.
Elementwise ops alone start nothing (`exp(x)` of a million elements stays XLA's), and a dot's
fusion does not grow. So softmax's `exp(x - max(x))` over 4096+ elements is YNNPACK's exp, its
row sums a fusion of their own (the exp has two users).

Of the members, the ones whose values differ from XLA's are marked (`MARK`): f32 and f64 exp,
expm1, tanh, logistic, log, log1p, erf and rsqrt (ynn_exp.py, ynn_math.py), measured bit for
bit. The others are plain IEEE arithmetic in both.
"""

from __future__ import annotations

from collections import deque

from ..dtypes import PrimitiveType
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode

MARK = "ynn_elementwise"  # attribute of an instruction YNNPACK computes with its own function
MIN_ELEMENTS = 4096
_ELEMENTWISE = frozenset(
    {Opcode.ABS, Opcode.CEIL, Opcode.CONVERT, Opcode.ERF, Opcode.EXP, Opcode.EXPM1, Opcode.FLOOR,
     Opcode.LOG, Opcode.LOG1P, Opcode.LOGISTIC, Opcode.NEGATE, Opcode.ROUND_NEAREST_EVEN,
     Opcode.RSQRT, Opcode.SIGN, Opcode.SQRT, Opcode.TANH, Opcode.ADD, Opcode.DIVIDE,
     Opcode.MAXIMUM, Opcode.MINIMUM, Opcode.MULTIPLY, Opcode.POWER, Opcode.SUBTRACT}
)  # fmt: skip
_SHAPING = frozenset({Opcode.BROADCAST, Opcode.RESHAPE, Opcode.BITCAST, Opcode.TRANSPOSE, Opcode.CONSTANT})
_TYPES = frozenset(
    {PrimitiveType.F32, PrimitiveType.F64, PrimitiveType.BF16, PrimitiveType.S8, PrimitiveType.U8}
)
_OWN = frozenset(
    {
        Opcode.EXP,
        Opcode.EXPM1,
        Opcode.TANH,
        Opcode.LOGISTIC,
        Opcode.LOG,
        Opcode.LOG1P,
        Opcode.ERF,
        Opcode.RSQRT,
    }
)  # YNNPACK's own functions: marked
_REDUCERS = frozenset({Opcode.ADD, Opcode.MAXIMUM, Opcode.MINIMUM})


def marked(comp: Computation, module: Module) -> frozenset[str]:
    """The instructions of a computation (as XLA's fusion sees it) that YNNPACK computes with its
    own functions."""
    if not any(i.opcode in _OWN for i in comp.instructions):
        return frozenset()
    by_name = comp.by_name
    live = comp.needed()  # (XLA removes dead instructions first: their reads are no uses)
    users: dict[str, list[str]] = {}
    for i in comp.instructions:
        if i.name in live:
            for o in dict.fromkeys(i.operands):
                users.setdefault(o, []).append(i.name)
    taken: set[str] = set()
    for start in reversed(comp.instructions):
        if start.name in taken or start.name not in live or not _starts(start, by_name, module):
            continue
        taken |= _grown(start, comp, users)
    return frozenset(
        n
        for n in taken
        if by_name[n].opcode in _OWN
        and by_name[n].shape.element_type in (PrimitiveType.F32, PrimitiveType.F64)
    )


def _starts(i: Instruction, by_name: dict[str, Instruction], module: Module) -> bool:
    """A reduce YNNPACK takes."""
    if i.opcode is not Opcode.REDUCE or len(i.operands) != 2 or i.shape.is_tuple:
        return False
    operand = by_name[i.operands[0]]
    if max(operand.shape.element_count, i.shape.element_count) < MIN_ELEMENTS:
        return False
    reducer = module.computation(i.attrs["to_apply"])
    root = reducer.root
    if root.opcode not in _REDUCERS or len(reducer.instructions) != 3:
        return False
    if not all(reducer.by_name[o].opcode is Opcode.PARAMETER for o in root.operands):
        return False
    kind = i.shape.element_type
    if root.opcode is Opcode.ADD:
        return kind in (PrimitiveType.F32, PrimitiveType.F64) and operand.shape.element_type is kind
    return kind in (PrimitiveType.F32, PrimitiveType.F64, PrimitiveType.BF16, PrimitiveType.F16)


def _joins(i: Instruction, by_name: dict[str, Instruction]) -> bool:
    if i.shape.is_tuple:
        return False
    if i.opcode in _SHAPING:
        if i.opcode is Opcode.BROADCAST:
            dims = tuple(i.attrs.get("dimensions", ()))
            return dims == tuple(sorted(dims))
        return True
    if i.opcode not in _ELEMENTWISE:
        return False
    operands = [by_name[o] for o in i.operands]
    if any(v.shape.element_type not in _TYPES for v in (i, *operands)):
        return False
    return max(v.shape.element_count for v in (i, *operands)) >= MIN_ELEMENTS


def _grown(start: Instruction, comp: Computation, users: dict[str, list[str]]) -> set[str]:
    """The fusion grown from a starting reduce (breadth first)."""
    by_name = comp.by_name
    fusion = {start.name}
    queue = deque([start.name])
    while queue:
        name = queue.popleft()
        for p in dict.fromkeys(by_name[name].operands):
            producer = by_name[p]
            if p in fusion or producer.opcode is Opcode.PARAMETER or not _joins(producer, by_name):
                continue
            if all(u in fusion for u in users.get(p, ())) and p != comp.root_name:
                fusion.add(p)
                queue.append(p)
        readers = users.get(name, ())
        if len(readers) == 1 and name != comp.root_name and readers[0] not in fusion:
            consumer = by_name[readers[0]]
            if _joins(consumer, by_name):
                fusion.add(consumer.name)
                queue.append(consumer.name)
    return fusion
