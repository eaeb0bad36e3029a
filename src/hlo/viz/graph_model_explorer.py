"""A module as Model Explorer's graph JSON (the `ai-edge-model-explorer` adapter format:
{"graphs": [{"id", "nodes": [{"id", "label", "namespace", "attrs", "incomingEdges",
"outputsMetadata"}]}]}), so a dump opens there with its computations as collapsible layers.

Called computations are inlined at each call site under the caller's namespace
("fusion.3:fused_computation"): Model Explorer's layers are namespaces, not shared subgraphs. A
callee's parameter k is fed by the caller's operand k and its root feeds the caller, so values can
be followed through the layer."""

from __future__ import annotations

import json
from typing import Any

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .graph_dot import short_shape
from .graph_select import MAX_NODES, Selection, family

CLOSE = {"(": ")", "{": "}", "[": "]"}


def attribute_texts(instr: Instruction) -> list[tuple[str, str]]:
    """The instruction's attributes as the HLO text prints them (`key=value` after the operand
    list), so the panel reads like the dump."""
    text = str(instr).strip()
    start = text.find(f" {instr.opcode.text}(")
    if start < 0:
        return []
    k, depth = start + len(instr.opcode.text) + 1, 0
    while k < len(text):  # the end of the operand list
        depth += text[k] == "("
        depth -= text[k] == ")"
        k += 1
        if depth == 0:
            break
    parts: list[str] = []
    current: list[str] = []
    stack: list[str] = []
    quoted = False
    for ch in text[k:]:
        if ch == '"' and (not current or current[-1] != "\\"):
            quoted = not quoted
        elif not quoted and ch in CLOSE:
            stack.append(CLOSE[ch])
        elif not quoted and stack and ch == stack[-1]:
            stack.pop()
        if ch == "," and not stack and not quoted:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    parts.append("".join(current).strip())
    pairs = [p.split("=", 1) for p in parts if "=" in p]
    return [(key.strip(), value.strip()) for key, value in pairs]


def edge(source: str, input_index: int) -> dict[str, str]:
    return {"sourceNodeId": source, "sourceNodeOutputId": "0", "targetNodeInputId": str(input_index)}


class _Builder:
    def __init__(self, sel: Selection, max_nodes: int) -> None:
        self.sel, self.max_nodes = sel, max_nodes
        self.nodes: list[dict[str, Any]] = []

    def add_computation(self, comp_name: str, prefix: str, feeds: dict[int, str] | None) -> str:
        """Adds a computation's nodes under namespace `prefix`; returns the root's node id."""
        from ..errors import HloError

        comp = self.sel.module.computation(comp_name)
        shown = set(self.sel.shown[comp_name])
        ids = {name: f"{prefix}/{name}" if prefix else name for name in shown}
        inline = len(self.sel.shown) > 1
        for i in self.sel.instructions(comp_name):
            edges = [
                {"sourceNodeId": ids[o], "sourceNodeOutputId": "0", "targetNodeInputId": str(k)}
                for k, o in enumerate(i.operands)
                if o in ids
            ]
            if i.opcode is Opcode.PARAMETER and feeds is not None:
                number = int(i.attrs.get("parameter_number", 0))
                if number in feeds:
                    edges.append(edge(feeds[number], 0))
            for callee in i.called_computations if inline else ():
                layer = f"{i.name}:{callee}"  # not the node's own id: a layer is a namespace
                sub_prefix = f"{prefix}/{layer}" if prefix else layer
                callee_feeds = {k: ids[o] for k, o in enumerate(i.operands) if o in ids}
                root = self.add_computation(callee, sub_prefix, callee_feeds)
                edges.append(edge(root, len(edges)))
            attrs = [
                {"key": "opcode", "value": i.opcode.text},
                {"key": "family", "value": family(i)},
                {"key": "shape", "value": str(i.shape)},
                *({"key": k, "value": v} for k, v in attribute_texts(i)),
            ]
            if i.opcode is Opcode.PARAMETER:
                attrs.append({"key": "parameter_number", "value": str(i.attrs.get("parameter_number", 0))})
            if i.name == comp.root_name:
                attrs.append({"key": "root_of", "value": comp_name})
            self.nodes.append(
                {
                    "id": ids[i.name],
                    "label": i.opcode.text,
                    "namespace": prefix,
                    "attrs": attrs,
                    "incomingEdges": edges,
                    "outputsMetadata": [
                        {"id": "0", "attrs": [{"key": "tensor_shape", "value": short_shape(i)}]}
                    ],
                }
            )
            if len(self.nodes) > self.max_nodes * 4:
                raise HloError(
                    f"inlining called computations gives more than {self.max_nodes * 4} nodes: "
                    "draw a piece with --around INSTR --depth N or --computation NAME"
                )
        return ids[comp.root_name]


def to_model_explorer(sel: Selection, max_nodes: int = MAX_NODES) -> str:
    builder = _Builder(sel, max_nodes)
    builder.add_computation(sel.top, "", None)
    graph = {"id": f"{sel.module.name}/{sel.top}", "nodes": builder.nodes}
    # {"label", "graphs"} is both an adapter's answer and a graph collection
    return json.dumps({"label": sel.module.name, "graphs": [graph]}, indent=1) + "\n"
