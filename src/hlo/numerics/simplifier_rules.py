"""The rewrites of XLA's algebraic simplifier (jaxlib 0.10.2) that change float values, in the
order it tries them, for XLA:CPU's options (no fast math). Each rule takes the graph
(simplifier_rewrites.Graph) and an instruction and returns what replaces it, or None.

divide `a / b`:
- `a / pow(x, y)` is `a * pow(x, -y)`; `a / sqrt(x)` is `a * rsqrt(x)` and `a / rsqrt(x)` is
  `a * sqrt(x)` when `b` has no other use (also under reshapes of one use);
- `a / c`, c constant and `a` not, is `a * (1 / c)`, the inverse computed in the element type;
- on CPU, `a / broadcast(x)` with `x` of no other use (real types) is `a * broadcast(1 / x)`:
  softmax's division by its row sums (`1 / sqrt(v)` then becomes `rsqrt(v)`);
- `(p / q) / (r / s)` is `(p * s) / (q * r)`, `(p / q) / r` is `p / (q * r)`, `a / (p / q)`
  is `(a * q) / p`.
multiply: `x * 1` is x; constants gathered: `(a * c1) * (b * c2)` is `(a * b) * (c1 * c2)`,
`(a * c1) * c2` is `a * (c1 * c2)`, `(a * c) * broadcast(b)` is `a * broadcast(b * c)`, and
`(a * broadcast(c1)) * broadcast(c2)` is `a * broadcast(c1 * c2)` (c scalar constants).
add: `x + (+0)` is x; `(a + c1) + c2` is `a + (c1 + c2)`, `(c1 - a) + c2` is `(c1 + c2) - a`;
subtract: `a - c` is `a + (-c)`.
power: `pow(a, 2)` is `a * a`, `pow(a, 3)` is `a * (a * a)`, `pow(a, -1)` is `1 / a`.
maximum, minimum: `max(x, -inf)` and `min(x, inf)` are x.
"""

from __future__ import annotations

import numpy as np

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .simplifier_rewrites import Graph, Rule

_MUL, _ADD, _DIV = Opcode.MULTIPLY, Opcode.ADD, Opcode.DIVIDE


def divide(g: Graph, i: Instruction) -> Instruction | None:
    a, b = (g[o] for o in i.operands)
    if b.opcode is Opcode.POWER:
        x, y = b.operands
        negated = g.new(i, "neg", Opcode.NEGATE, g[y].shape, (y,))
        return g.become(i, _MUL, (a.name, g.new(i, "pow", Opcode.POWER, b.shape, (x, negated))))
    root = _reshaped(g, b)
    if root.opcode in (Opcode.SQRT, Opcode.RSQRT) and g.one_use(root.name):
        opcode = Opcode.RSQRT if root.opcode is Opcode.SQRT else Opcode.SQRT
        inverse = g.new(i, "inv", opcode, root.shape, root.operands)
        if root is not b:
            inverse = g.new(i, "inv_shape", Opcode.RESHAPE, b.shape, (inverse,))
        return _times(g, i, a.name, inverse)
    if g.constant(b.name):  # a / c => a * (1 / c); both constant: folded whole
        if g.constant(a.name):
            return None
        if b.opcode is not Opcode.BROADCAST:
            return _times(g, i, a.name, _inverse(g, i, b))
        inverse = _inverse(g, i, g[b.operands[0]])
        return _times(g, i, a.name, g.spread(i, inverse, b.shape, b.attrs.get("dimensions", ())))
    if g.spreads(b.name) and not i.shape.element_type.is_complex and g.spread_alone(b.operands[0]):
        inverse = _inverse(g, i, g[b.operands[0]])
        return _times(g, i, a.name, g.new(i, "bcast", Opcode.BROADCAST, b.shape, (inverse,), b.attrs))
    if a.opcode is _DIV and b.opcode is _DIV:  # (p/q)/(r/s) => (p*s)/(q*r)
        (p, q), (r, s) = a.operands, b.operands
        return g.become(i, _DIV, (_product(g, i, p, s), _product(g, i, q, r)))
    if a.opcode is _DIV:  # (p/q)/r => p/(q*r)
        p, q = a.operands
        return g.become(i, _DIV, (p, _product(g, i, q, b.name)))
    if b.opcode is _DIV:  # a/(p/q) => (a*q)/p
        p, q = b.operands
        return g.become(i, _DIV, (_product(g, i, a.name, q), p))
    return None


def multiply(g: Graph, i: Instruction) -> Instruction | None:
    lhs, rhs = i.operands
    identity = _identity(g, i, 1)
    if identity is not None:
        return identity
    pairs = ((lhs, rhs), (rhs, lhs))
    for left, right in pairs:  # (a*c1) * (b*c2) => (a*b) * (c1*c2)
        first_pair, second_pair = _scaled(g, left), _scaled(g, right)
        if first_pair and second_pair:
            (a1, c1), (a2, c2) = first_pair, second_pair
            product = _constant_product(g, i, c1, c2)
            return g.become(i, _MUL, (g.binary(i, _MUL, i.shape, a1, a2), product))
    for left, right in pairs:  # (a*c1) * c2 => a * (c1*c2)
        scaled = _scaled(g, left)
        if scaled and g.literal(right):
            return g.become(i, _MUL, (scaled[0], _constant_product(g, i, scaled[1], right)))
    found = next(
        (
            (f, right)
            for spread in (False, True)
            for left, right in pairs
            if (f := _scaled(g, left, spread)) is not None
        ),
        None,
    )
    if found is not None:  # (a*c) * broadcast(b) => a * broadcast(b*c), c a scalar constant
        (a, c), spread_by = found
        source = g[g[spread_by].operands[0]] if g[spread_by].opcode is Opcode.BROADCAST else None
        if not g[c].shape.dimensions and source is not None and not g.constant(source.name):
            inner = g.binary(i, _MUL, source.shape, source.name, g.spread(i, c, source.shape, ()))
            dimensions = g[spread_by].attrs.get("dimensions", ())
            return g.become(i, _MUL, (a, g.spread(i, inner, i.shape, dimensions)))
    first = g[lhs]
    if first.opcode is _MUL:  # (a * broadcast(c1)) * broadcast(c2) => a * broadcast(c1*c2)
        s1, s2 = g.spread_scalar(first.operands[1]), g.spread_scalar(rhs)
        if s1 is not None and s2 is not None:
            return g.become(i, _MUL, (first.operands[0], _constant_product(g, i, s1, s2)))
    return None


def add(g: Graph, i: Instruction) -> Instruction | None:
    lhs, rhs = i.operands
    identity = _identity(g, i, 0)
    if identity is not None:
        return identity
    if g.literal(lhs) and not g.literal(rhs):  # constants to the right
        lhs, rhs = rhs, lhs
    first = g[lhs]
    for opcode, build in ((_ADD, _ADD), (Opcode.SUBTRACT, Opcode.SUBTRACT)):
        if first.opcode is not opcode:
            continue
        a, c1 = first.operands if opcode is _ADD else first.operands[::-1]  # (c1 - a) + c2
        constants = _constant_pair(g, c1, rhs)
        if constants is None or g.literal(a):
            continue
        total = _constant_sum(g, i, *constants)
        return g.become(i, _ADD, (a, total)) if build is _ADD else g.become(i, Opcode.SUBTRACT, (total, a))
    return None if (lhs, rhs) == tuple(i.operands) else g.become(i, _ADD, (lhs, rhs))


def subtract(g: Graph, i: Instruction) -> Instruction | None:
    a, c = i.operands
    if g.all_of(c, 0):
        return g.alias(i, a)
    if g.literal(c):  # a - c => a + (-c)
        return g.become(i, _ADD, (a, g.new(i, "neg", Opcode.NEGATE, g[c].shape, (c,))))
    spread = g[c]
    if spread.opcode is Opcode.BROADCAST and g.literal(spread.operands[0]):  # (the negate sinks)
        source = g[spread.operands[0]]
        negated = g.new(i, "neg", Opcode.NEGATE, source.shape, (source.name,))
        return g.become(i, _ADD, (a, g.spread(i, negated, spread.shape, spread.attrs.get("dimensions", ()))))
    return None


def power(g: Graph, i: Instruction) -> Instruction | None:
    a, y = i.operands
    if g.all_of(y, 2):
        return g.become(i, _MUL, (a, a))
    if g.all_of(y, 3):
        return g.become(i, _MUL, (a, g.binary(i, _MUL, i.shape, a, a)))
    if g.all_of(y, -1):
        return g.become(i, _DIV, (g.like(i, i.shape, 1), a))
    return None


def extreme(g: Graph, i: Instruction) -> Instruction | None:
    """max(x, -inf) and min(x, +inf) are x (NaN propagates either way): jax's max with an
    initial value, which then no longer stands between a reduce and its readers."""
    return _identity(g, i, -np.inf if i.opcode is Opcode.MAXIMUM else np.inf)


RULES: dict[Opcode, Rule] = {
    Opcode.MAXIMUM: extreme,
    Opcode.MINIMUM: extreme,
    Opcode.DIVIDE: divide,
    Opcode.MULTIPLY: multiply,
    Opcode.ADD: add,
    Opcode.SUBTRACT: subtract,
    Opcode.POWER: power,
}


def _identity(g: Graph, i: Instruction, value: float) -> Instruction | None:
    """A binary op with an operand all `value` (bit for bit), its identity: the other operand."""
    lhs, rhs = i.operands
    if g.all_of(rhs, value):
        return g.alias(i, lhs)
    if g.all_of(lhs, value):
        return g.alias(i, rhs)
    return None


def _inverse(g: Graph, near: Instruction, x: Instruction) -> str:
    """`1 / x` as a new divide of x's shape (simplified itself in a later round)."""
    return g.new(near, "recip", _DIV, x.shape, (g.like(near, x.shape, 1), x.name))


def _reshaped(g: Graph, b: Instruction) -> Instruction:
    """What `b` holds under reshapes and broadcasts that only reshape, each of one use: XLA's
    simplifier removes those or moves them above elementwise ops (a layer norm's
    `x / broadcast(sqrt(v))` reaches `1 / sqrt(v)` through jax's reshapes)."""
    while b.opcode in (Opcode.RESHAPE, Opcode.BITCAST, Opcode.BROADCAST) and g.one_use(b.name):
        if b.opcode is Opcode.BROADCAST and g.spreads(b.name):
            break
        b = g[b.operands[0]]
    return b


def _times(g: Graph, i: Instruction, a: str, b: str) -> Instruction:
    return g.alias(i, b) if g.all_of(a, 1) else g.become(i, _MUL, (a, b))


def _product(g: Graph, near: Instruction, p: str, q: str) -> str:
    """p * q as a new multiply; p or q itself where the other is all ones (XLA drops `x * 1`)."""
    if g.all_of(p, 1):
        return q
    if g.all_of(q, 1):
        return p
    small = _sunk(g, p, q)
    if small is not None:  # broadcasts alike: XLA multiplies before it broadcasts
        (p0, q0), dimensions = small
        inner = g.binary(near, _MUL, g[p0].shape, p0, q0)
        return g.spread(near, inner, near.shape, dimensions)
    return g.binary(near, _MUL, near.shape, p, q)


def _sunk(g: Graph, p: str, q: str) -> tuple[tuple[str, str], tuple[int, ...]] | None:
    """The operands of two broadcasts XLA's simplifier moves an elementwise op before (of the
    same shape along the same dimensions, or one spreading a scalar), and their dimensions."""
    a, b = g[p], g[q]
    if a.opcode is not Opcode.BROADCAST or b.opcode is not Opcode.BROADCAST:
        return None
    x, y = g[a.operands[0]], g[b.operands[0]]
    dims_a, dims_b = a.attrs.get("dimensions", ()), b.attrs.get("dimensions", ())
    if x.shape.dimensions == y.shape.dimensions and dims_a == dims_b:
        return (x.name, y.name), tuple(dims_a)
    if not y.shape.dimensions and x.shape.dimensions:
        return (x.name, g.spread(g[p], y.name, x.shape, ())), tuple(dims_a)
    if not x.shape.dimensions and y.shape.dimensions:
        return (g.spread(g[q], x.name, y.shape, ()), y.name), tuple(dims_b)
    return None


def _scaled(g: Graph, name: str, spread: bool = False) -> tuple[str, str] | None:
    """(a, c) where the value is `a * c` (either order), a not a literal and c a literal (with
    `spread`: c broadcasts a literal, which is returned)."""
    i = g[name]
    if i.opcode is not _MUL:
        return None
    for a, c in (i.operands, i.operands[::-1]):
        if g.literal(a):
            continue
        if not spread and g.literal(c):
            return a, c
        if spread and g[c].opcode is Opcode.BROADCAST and g.literal(g[c].operands[0]):
            return a, g[c].operands[0]
    return None


def _constant_pair(g: Graph, c1: str, c2: str) -> tuple[str, str] | None:
    """Two literals, or the scalar literals two broadcasts spread."""
    if g.literal(c1) and g.literal(c2):
        return c1, c2
    s1, s2 = g.spread_scalar(c1), g.spread_scalar(c2)
    return (s1, s2) if s1 is not None and s2 is not None else None


def _constant_product(g: Graph, near: Instruction, c1: str, c2: str) -> str:
    return _combined(g, near, _MUL, c1, c2)


def _constant_sum(g: Graph, near: Instruction, c1: str, c2: str) -> str:
    return _combined(g, near, _ADD, c1, c2)


def _combined(g: Graph, near: Instruction, opcode: Opcode, c1: str, c2: str) -> str:
    """c1 op c2 (folded when the plan runs), broadcast to `near`'s shape when a scalar."""
    first = g[c1]
    value = g.binary(near, opcode, first.shape, c1, c2)
    if not first.shape.dimensions and near.shape.dimensions:
        return g.spread(near, value, near.shape, ())
    return value
