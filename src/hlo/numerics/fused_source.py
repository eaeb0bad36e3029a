"""The compiled fusion tier's code generator: a fused group of hlo.runtime.fusion (elementwise
ops, compare, select, clamp, convert, broadcast over large arrays), with the float reduces over
its trailing dimension that read it (XLA's reduction fusion), as the source of one numba
function that walks the group's rows block by block.

Each op is a *node*: a scalar expression of earlier nodes (written by the compiled loop tier's
emitters, hlo.numerics.jit_ops, so every element has the interpreter's bits), a load (an outside
value's element; a broadcast's operand element at the mapped index), or NumPy's own loop of a
ufunc over a whole block (sin, exp, ...; called by address, as the loop tier calls it). Scalar
nodes run in *passes*: one loop over the block's elements computes, in registers, every node
that does not wait for a ufunc; a value a later pass, a ufunc or a reduce reads is kept in a
block-sized buffer. Reduces run per row at the end of a block (hlo.numerics.jit_rows), in the
interpreter's order. A group with an op, type or form the tier does not take gives None.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..shape import Shape
from . import ynn_fusion
from .fused_nodes import Elements, Node
from .fused_scope import SCALAR_OPS, Reduce
from .jit_codegen import (
    GENERATOR_VERSION,
    Unsupported,
    Val,
    emitter_for,
    flat_index,
    log,
    type_name,
)
from .jit_ops import UFUNCS

Op = Opcode
BLOCK_ELEMENTS = 1 << 14  # elements per block: the buffers of a block stay in the core's L2
VERSION = "1"


@dataclass(frozen=True)
class FusedSource:
    """A generated group: its source, NumPy loops, outputs' shapes and the kernel's key."""

    source: str
    ufuncs: tuple[tuple[str, str], ...]
    rows: int  # the group's leading dimension, which calls split
    outputs: tuple[Shape, ...]  # escaping values, then reduce results
    key: str
    scalars: tuple[bool, ...] = ()  # per input: only its first element is read


def fused_source(
    module: Module,
    group: Sequence[Instruction],
    reduces: Sequence[Reduce],
    outside: Sequence[Instruction],
    escaping: Sequence[str],
    flush: bool,
) -> FusedSource | None:
    """The group as a function `fused(r0, r1, *inputs, *outputs, fp)` that computes rows
    [r0, r1) of the leading dimension into the outputs (flat arrays: the escaping values, then
    the reduce results); inputs are `outside` flat (a scalar as one element, each reduce's init
    among them). None if the tier cannot compile it."""
    try:
        return _generate(module, group, reduces, outside, escaping, flush)
    except Unsupported as e:
        last = group[-1] if group else reduces[0].instr  # (no members: a reduce alone)
        log.debug("hlo.jit: the fused group of %s stays on the interpreter: %s", last.name, e)
        return None


def _generate(
    module: Module,
    group: Sequence[Instruction],
    reduces: Sequence[Reduce],
    outside: Sequence[Instruction],
    escaping: Sequence[str],
    flush: bool,
) -> FusedSource:
    # (no members: a reduce alone, of an outside value)
    dims = tuple((group[-1] if group else outside[0]).shape.dimensions)
    rank = len(dims)
    g = Elements(module, flush, rank)
    inner = math.prod(dims[1:])
    loops = [f"i{d}" for d in range(rank)]
    value: dict[str, str] = {}  # instruction name -> node variable
    scalars: list[str] = []
    for j, o in enumerate(outside):
        type_name(o.shape.element_type)
        # A scalar, or a scalar broadcast outside the group (a constant folded to a whole
        # array at plan time): its first element.
        if not o.shape.dimensions or (o.opcode is Op.BROADCAST and not o.attr("dimensions")):
            scalars.append(f"    x{j} = in{j}[0]")
            value[o.name] = g.add(Node(f"x{j}", o.shape.element_type, f"x{j}", load=True))
        elif tuple(o.shape.dimensions) == dims:
            value[o.name] = g.add(Node(f"e{j}", o.shape.element_type, f"r_in{j}[iL]", load=True))
    index_of = {o.name: j for j, o in enumerate(outside)}
    shapes = {i.name: i.shape for i in (*outside, *group)}
    for m in group:
        type_name(m.shape.element_type)
        if m.attrs and m.attrs.get(ynn_fusion.MARK):
            raise Unsupported("YNNPACK's own exp, log, ... (the interpreter's)")
        if m.opcode is Op.BROADCAST:
            value[m.name] = _broadcast(g, m, index_of, value, dims, outside)
            continue
        args = [Val(shapes[o], value[o]) for o in m.operands]
        if m.opcode in UFUNCS:
            value[m.name] = g.ufunc_node(UFUNCS[m.opcode], args[0])
            continue
        if m.opcode not in SCALAR_OPS or emitter_for(m.opcode) is None:
            raise Unsupported(m.opcode.text)
        emitter = emitter_for(m.opcode)
        assert emitter is not None
        value[m.name] = emitter(g, m, args).var
    if g.constants:
        raise Unsupported("constants")
    nodes = g.nodes
    reduce_nodes = []
    for r in reduces:
        x = value[r.instr.operands[0]]
        if nodes[x].load and not nodes[x].expr.startswith("r_in"):
            x = g.add(Node(g.name("n"), nodes[x].type, x, [x]))  # kept in a buffer
        reduce_nodes.append(x)
    out_vars = [value[name] for name in escaping]
    passes = _passes(nodes)
    lines = _body(g, nodes, passes, out_vars, reduce_nodes, reduces, dims, loops, inner, index_of, flush)
    params = [f"in{j}" for j in range(len(outside))]
    params += [f"out{k}" for k in range(len(escaping))] + [f"red{k}" for k in range(len(reduces))]
    source = "\n".join(
        [
            "_row_sum = _jit(_r.row_sum)",
            "_row_max = _jit(_r.row_max)",
            "_row_min = _jit(_r.row_min)",
            "",
            "",
            f"def fused(r0, r1, {', '.join(params)}, fp):",
            *scalars,
            *lines,
        ]
    )
    outputs = [shapes[name] for name in escaping] + [r.instr.shape for r in reduces]
    # (the NumPy loops are in the key: kernels of one key share their pointers)
    key = hashlib.sha256(
        f"{GENERATOR_VERSION} {VERSION}\n{flush}\n{source}\n{g.ufuncs}".encode()
    ).hexdigest()[:24]
    scalar = tuple(f"    x{j} = in{j}[0]" in scalars for j in range(len(outside)))
    return FusedSource(source, tuple(g.ufuncs), dims[0], tuple(outputs), key, scalar)


def _tiny(t: PrimitiveType) -> str:
    return f"{type_name(t)}({float(np.finfo(np.dtype(t.numpy_dtype)).tiny)!r})"


def _broadcast(
    g: Elements,
    m: Instruction,
    index_of: dict[str, int],
    value: dict[str, str],
    dims: tuple[int, ...],
    outside: Sequence[Instruction],
) -> str:
    """A broadcast's element: its operand (outside the group) at the mapped index."""
    operand = m.operands[0]
    j = index_of[operand]
    source = outside[j]
    if not source.shape.dimensions:
        return value[operand]
    mapped = tuple(m.attr("dimensions"))
    names = [*(f"i{d}" for d in range(len(dims) - 1)), "iL" if len(dims) > 1 else "(b0 + iL)"]
    index = flat_index([names[d] for d in mapped], tuple(source.shape.dimensions))
    return g.add(Node(g.name("n"), m.shape.element_type, f"in{j}[{index}]", load=True))


def _passes(nodes: dict[str, Node]) -> dict[str, int]:
    """Each computed node's pass: a ufunc's result is ready one pass after its operand's."""
    passes: dict[str, int] = {}
    for var, node in nodes.items():
        if node.load:
            continue
        before = max((passes.get(a, 0) for a in node.args), default=0)
        passes[var] = before + 1 if node.ufunc else before
    return passes


def _body(
    g: Elements,
    nodes: dict[str, Node],
    passes: dict[str, int],
    out_vars: list[str],
    reduce_nodes: list[str],
    reduces: Sequence[Reduce],
    dims: tuple[int, ...],
    loops: list[str],
    inner: int,
    index_of: dict[str, int],
    flush: bool,
) -> list[str]:
    """The function's lines: buffers, then per block the passes, ufunc calls and row reduces."""
    last = max(passes.values(), default=0)
    buffered: set[str] = {x for x in reduce_nodes if not nodes[x].load}  # (an input is read in place)
    for var, node in nodes.items():
        for a in node.args:
            if a in passes and not nodes[a].ufunc and (node.ufunc or passes[var] > passes[a]):
                buffered.add(a)
    buffered |= {v for v, n in nodes.items() if n.ufunc}
    # A ufunc's result the group gives out is written by NumPy's loop into the output itself.
    home = {v: k for k, v in reversed(list(enumerate(out_vars))) if nodes[v].ufunc}
    rows = max(1, BLOCK_ELEMENTS // max(inner, 1))
    size = rows * inner
    lines = [
        f"    b_{v} = np.empty({size}, {type_name(nodes[v].type)})" for v in sorted(buffered - set(home))
    ]
    for k, r in enumerate(reduces):
        t = type_name(r.instr.shape.element_type)
        width = 64 // np.dtype(r.instr.shape.element_type.numpy_dtype).itemsize
        fill = {"sum": "0", "max": "-np.inf", "min": "np.inf"}[r.kind]
        lines.append(f"    sc{k} = np.zeros((7, {width}), {t})")
        lines.append(f"    z{k} = np.full(1, {fill}, {t})")
    lines.append(f"    for b0 in range(r0, r1, {rows}):")
    lines.append(f"        b1 = min(b0 + {rows}, r1)")
    lines.append(f"        base = b0 * {inner}")
    lines.append(f"        n = (b1 - b0) * {inner}")
    for p in range(last + 1):
        for var, node in nodes.items():
            if node.ufunc and passes[var] == p:
                src = node.args[0]
                source = f"b_{src}[:n]"
                if nodes[src].load:  # an input with the group's dimensions: its rows
                    source = nodes[src].expr[2:].replace("[iL]", "[base:base + n]")
                if src in home:
                    source = f"out{home[src]}[base:base + n]"
                target = f"out{home[var]}[base:base + n]" if var in home else f"b_{var}[:n]"
                lines.append(f"        _ufunc(fp[{node.row}], {source}, {target})")
        body = [v for v, n in nodes.items() if not n.load and not n.ufunc and passes[v] == p]
        writes = [(k, v) for k, v in enumerate(out_vars) if passes.get(v, 0) == p and home.get(v) != k]
        if not body and not writes:
            continue
        lines += _pass(g, nodes, passes, p, body, writes, buffered, home, dims, loops)
    rows_per_block = math.prod(dims[1:-1])
    n_last = dims[-1]
    for k, (r, x) in enumerate(zip(reduces, reduce_nodes)):
        init = f"in{index_of[r.instr.operands[1]]}"
        width = 64 // np.dtype(r.instr.shape.element_type.numpy_dtype).itemsize
        fn = {"sum": "_row_sum", "max": "_row_max", "min": "_row_min"}[r.kind]
        row = f"b_{x}, q * {n_last}"
        if nodes[x].load:  # an input with the group's dimensions: read where it is
            row = f"{nodes[x].expr[2:].split('[')[0]}, (b0 * {rows_per_block} + q) * {n_last}"
        elif x in home:
            row = f"out{home[x]}, (b0 * {rows_per_block} + q) * {n_last}"
        ftz = f", {flush}, {_tiny(r.instr.shape.element_type)}" if r.kind != "sum" else ""
        result = f"{fn}({row}, {n_last}, {width}, sc{k}, z{k}, {init}{ftz})"
        if r.kind != "sum" and flush:
            result = f"_flush({result}, {_tiny(r.instr.shape.element_type)})"
        lines.append(f"        for q in range((b1 - b0) * {rows_per_block}):")
        lines.append(f"            red{k}[b0 * {rows_per_block} + q] = {result}")
    return lines


def _pass(
    g: Elements,
    nodes: dict[str, Node],
    passes: dict[str, int],
    p: int,
    body: list[str],
    writes: list[tuple[int, str]],
    buffered: set[str],
    home: dict[str, int],
    dims: tuple[int, ...],
    loops: list[str],
) -> list[str]:
    """One loop over the block's elements: loads, the pass's nodes, buffer and output writes."""
    needed: list[str] = []
    for a in [*(a for v in body for a in nodes[v].args), *(v for _, v in writes)]:
        if a not in needed and a not in body:
            needed.append(a)
    rank = len(dims)
    if rank == 1:  # the block is one row
        lines, pad = [], "        "
        lines.append(pad + "rb, lb, L = b0, 0, b1 - b0")
    else:
        lines = ["        for i0 in range(b0, b1):"]
        for d in range(1, rank - 1):
            lines.append("    " * (d + 2) + f"for {loops[d]} in range({dims[d]}):")
        pad = "    " * (rank + 1)
        lines.append(pad + f"L = {dims[-1]}")
        lines.append(pad + f"rb = ({flat_index(loops[:-1], dims[:-1])}) * L")
        lines.append(pad + "lb = rb - base")
    # Rows as slices: indices from range(L) are known not negative (no wraparound test), so
    # the element loop vectorizes.
    rows_in = sorted({nodes[a].expr[2:].split("[")[0] for a in needed if nodes[a].expr.startswith("r_in")})
    lines += [pad + f"r_{x} = {x}[rb:rb + L]" for x in rows_in]
    read = [a for a in needed if not nodes[a].load]
    for a in [*read, *(v for v in body if v in buffered)]:
        lines.append(
            pad + (f"r_b_{a} = out{home[a]}[rb:rb + L]" if a in home else f"r_b_{a} = b_{a}[lb:lb + L]")
        )
    lines += [pad + f"r_out{k} = out{k}[rb:rb + L]" for k, _ in writes]
    lines.append(pad + "for iL in range(L):")
    pad += "    "
    for a in needed:
        node = nodes[a]
        if node.load:
            if node.expr != a:
                lines.append(pad + f"{a} = {node.expr}")
        else:
            lines.append(pad + f"{a} = r_b_{a}[iL]")
    for v in body:
        lines.append(pad + f"{v} = {nodes[v].expr}")
        if v in buffered:
            lines.append(pad + f"r_b_{v}[iL] = {v}")
    for k, v in writes:
        lines.append(pad + f"r_out{k}[iL] = {v}")
    return lines
