"""A module as Graphviz dot text: one node per instruction coloured by its op family, operand
edges labelled with the value's shape, and each called computation (fusion bodies, loop bodies,
reducers) as a cluster whose root feeds the calling instruction by a dashed edge."""

from __future__ import annotations

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .graph_select import Selection, families, family

# Light fills, dark text: readable in print and on screen; the order follows families().
PALETTE = (
    "#a6cee3",
    "#b2df8a",
    "#fb9a99",
    "#fdbf6f",
    "#cab2d6",
    "#ffff99",
    "#8dd3c7",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#fdb462",
    "#b3de69",
    "#fccde5",
    "#d9d9d9",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
    "#e5d8bd",
    "#c7e9c0",
    "#fee0d2",
    "#deebf7",
    "#efedf5",
    "#fdd0a2",
    "#c6dbef",
    "#e7e1ef",
    "#d4b9da",
    "#f2f0f7",
    "#edf8b1",
    "#ffffcc",
    "#e0ecf4",
    "#f7fcb9",
    "#fff7bc",
)


def colours() -> dict[str, str]:
    return {name: PALETTE[k % len(PALETTE)] for k, name in enumerate(families())}


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def node_id(computation: str, instr: str) -> str:
    return quote(f"{computation}/{instr}")


def short_shape(instr: Instruction) -> str:
    """The shape without its layout (the default layouts only add noise to a picture); tuples
    longer than a few elements are summarized."""
    text = str(instr.shape)
    if instr.shape.is_tuple and len(instr.shape.tuple_shapes) > 3:
        return f"({len(instr.shape.tuple_shapes)} elements)"
    out, depth = [], 0
    for ch in text:
        depth += ch == "{"
        if not depth:
            out.append(ch)
        depth -= ch == "}"
    return "".join(out)


def _label(instr: Instruction, callees_drawn: bool) -> str:
    lines = [instr.name, instr.opcode.text]
    if instr.opcode is Opcode.PARAMETER:
        lines[1] = f"parameter {instr.attrs.get('parameter_number', 0)}"
    if instr.called_computations and not callees_drawn:
        lines.append("calls " + ", ".join(instr.called_computations))
    return "\n".join(lines)


def to_dot(sel: Selection) -> str:
    palette = colours()
    nested = len(sel.shown) > 1
    out = [
        f"digraph {quote(sel.module.name)} {{",
        "  rankdir=TB; compound=true; newrank=true;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=8, color="#555555"];',
    ]
    for comp_name in sel.shown:
        inner = comp_name != sel.top
        indent = "    " if inner else "  "
        if inner:
            out.append(f"  subgraph {quote('cluster_' + comp_name)} {{")
            out.append(f'    label={quote(comp_name)}; style="rounded,dashed"; color="#888888"; fontsize=10;')
        comp = sel.module.computation(comp_name)
        for i in sel.instructions(comp_name):
            attrs = [f"label={quote(_label(i, nested))}", f'fillcolor="{palette.get(family(i), "#ffffff")}"']
            if i.name == comp.root_name:
                attrs.append("penwidth=2")
            if i.name == sel.focus:
                attrs.append('color="#d62728", penwidth=3')
            if i.opcode in (Opcode.PARAMETER, Opcode.CONSTANT):
                attrs.append("shape=ellipse")
            out.append(f"{indent}{node_id(comp_name, i.name)} [{', '.join(attrs)}];")
        if inner:
            out.append("  }")
    for comp_name, names in sel.shown.items():
        comp = sel.module.computation(comp_name)
        shown = set(names)
        for i in sel.instructions(comp_name):
            for o in dict.fromkeys(i.operands):
                if o in shown:
                    label = quote(short_shape(comp[o]))
                    out.append(f"  {node_id(comp_name, o)} -> {node_id(comp_name, i.name)} [label={label}];")
            for callee in i.called_computations if nested else ():
                if callee in sel.shown:
                    root = sel.module.computation(callee).root_name
                    out.append(
                        f"  {node_id(callee, root)} -> {node_id(comp_name, i.name)} "
                        f"[style=dashed, ltail={quote('cluster_' + callee)}];"
                    )
    out.append(_legend(sel, palette))
    out.append("}")
    return "\n".join(out) + "\n"


def _legend(sel: Selection, palette: dict[str, str]) -> str:
    used = sorted({family(i) for c in sel.shown for i in sel.instructions(c)})
    rows = "".join(f'<tr><td bgcolor="{palette[f]}">{f}</td></tr>' for f in used)
    table = (
        f'<<table border="0" cellborder="1" cellspacing="0"><tr><td><b>op family</b></td></tr>{rows}</table>>'
    )
    return f'  "legend" [shape=plaintext, style="", label={table}];'
