"""In-place updates of loop state in the compiled loop tier (hlo.numerics.jit_codegen): a
dynamic-update-slice copies its operand (values are immutable), which for a scan's stacked
outputs ([steps, ...] written one row per iteration) copies the whole stack every iteration.
When the operand is a state leaf that nothing reads after the update and the updated array
becomes that same leaf (and no other), the copy is dropped and the leaf is copied once per call
of the compiled loop instead, so the caller's arrays are never written. And the leaves a body
hands on unchanged (a scan's weights), whose derived copies the generator makes once before
the loop (Gen.before_loop)."""

from __future__ import annotations

import re

from ..ir.computation import Computation
from ..ir.opcode import Opcode

_COPY = re.compile(r"(\s*)(v\d+) = (s\d+)\.copy\(\)")


def reuse_state_buffers(lines: list[str], leaves: list[str], base: str) -> tuple[list[str], list[str]]:
    """The generated loop's lines (`base`: the indentation of the body's own lines) with the
    copies of state leaves that can be updated in place removed, and the leaves to copy on
    entry instead. The body's last line of the form `s0, s1, ..., = o0, o1, ...,` hands the
    next state over."""
    head = f"{base}{', '.join(leaves)}, = "
    assign = max(k for k, line in enumerate(lines) if line.startswith(head))
    outs = [o.strip() for o in lines[assign][len(head) :].split(",") if o.strip()]
    lines, owned = list(lines), []
    for k in range(assign):
        match = _COPY.fullmatch(lines[k])
        if match is None or match.group(1) != base or match.group(3) not in leaves:
            continue
        var, leaf = match.group(2), match.group(3)
        word = re.compile(rf"\b{leaf}\b")
        if outs[leaves.index(leaf)] != var or outs.count(var) != 1 or leaf in outs:
            continue  # the updated array is not (only) the leaf's next value
        if any(word.search(line) for line in lines[k + 1 : assign]):
            continue  # the old value is read after the update
        lines[k] = f"{base}{var} = {leaf}"
        owned.append(leaf)
    return lines, owned


def unchanged_leaves(body: Computation) -> list[int]:
    """The positions of the tuple state that a loop body hands on as it got them (its root's
    k-th operand is element k of its parameter)."""
    by_name = {i.name: i for i in body.instructions}
    root = by_name[body.root_name]
    if root.opcode is not Opcode.TUPLE or len(body.parameters) != 1:
        return []
    param = body.parameters[0].name
    found = []
    for k, operand in enumerate(root.operands):
        source = by_name[operand]
        if (
            source.opcode is Opcode.GET_TUPLE_ELEMENT
            and source.operands == (param,)
            and source.attrs.get("index") == k
        ):
            found.append(k)
    return found
