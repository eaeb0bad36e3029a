"""The common instruction line read in one go: `[ROOT] %name = shape opcode(shape %a, ...),
attr=value, ..., metadata={...}` with a plain array shape, operands already defined and
attributes whose codecs have a fast form. Anything else (and anything wrong) returns None and
the general parser reads the line, so errors and unusual forms keep one implementation; what
this path builds is exactly what the general path would."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import Span
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction, new_instruction
from ..ir.opcode import Opcode, opcode_from_text
from ..ops.registry import AttrSpec, OpContext, OpSpec, spec
from .codec_table import codec_of
from .metadata_codec import fast_metadata_at
from .shape_codec import shape_from_text

if TYPE_CHECKING:
    from .instruction_parser import InstructionParser, Scope

_NAME = r"[A-Za-z_][A-Za-z0-9_.\-]*"
_SHAPE = r"[a-z][a-z0-9]*\[[0-9,<=?]*\](?:\{[0-9,]*\})?"
_LINE = re.compile(r"(ROOT[ \t]+)?%?(" + _NAME + r")[ \t]*=[ \t]*(" + _SHAPE + r")[ \t]+([a-z][a-z0-9\-]*)\(")
_TUPLE = r"\((?:" + _SHAPE + r"(?:, ?" + _SHAPE + r")*)?\)"
_OPERAND = re.compile(r"[ \t]*(?:(" + _SHAPE + "|" + _TUPLE + r")[ \t]+)?%?(" + _NAME + r")[ \t]*([,)])")
_ATTR = re.compile(r"[ \t]*,[ \t]*(" + _NAME + r")=[ \t]*")
_END = re.compile(r"[ \t]*(?:\r?\n|$)")
_EXCLUDED = frozenset(
    {Opcode.PARAMETER, Opcode.CONSTANT, Opcode.ASYNC_START, Opcode.ASYNC_UPDATE, Opcode.ASYNC_DONE}
)


_DEFAULTS: dict[Opcode, tuple[tuple[tuple[str, Any], ...], tuple[AttrSpec, ...]]] = {}


def _defaults(op_spec: OpSpec) -> tuple[tuple[tuple[str, Any], ...], tuple[AttrSpec, ...]]:
    """An op's attribute defaults that depend on nothing (filled by a dict update), and the
    attributes whose default or requiredness depends on the operands (checked one by one)."""
    found = _DEFAULTS.get(op_spec.opcode)
    if found is None:
        static: list[tuple[str, Any]] = []
        dynamic: list[AttrSpec] = []
        for a in op_spec.attrs:
            if callable(a.required) or callable(a.default) or a.required:
                dynamic.append(a)
            elif a.default_value(OpContext(op_spec.opcode, ())) is not None:
                static.append((a.name, a.default))
        found = _DEFAULTS[op_spec.opcode] = (tuple(static), tuple(dynamic))
    return found


def fast_instruction(p: InstructionParser, scope: Scope) -> Instruction | None:
    """The instruction on the current line, or None (nothing consumed) for the general path."""
    lex = p.lex
    text = lex.text
    start = lex.peek().start if lex.buffered else lex.pos
    if lex.buffered and len(lex._buffer) > 1:
        return None
    m = _LINE.match(text, start)
    if m is None:
        return None
    is_root, name, shape_text, opcode_text = m.group(1), m.group(2), m.group(3), m.group(4)
    opcode = opcode_from_text(opcode_text)
    if opcode is None or opcode in _EXCLUDED or name in scope.lookup:
        return None
    fill = p.r.fill_missing_layouts
    shape = shape_from_text(shape_text, fill)
    if shape is None:
        return None
    # operands
    pos = m.end()
    operands: list[str] = []
    operand_shapes = []
    lookup = scope.lookup
    if text.startswith(")", pos):
        pos += 1
    else:
        while True:
            om = _OPERAND.match(text, pos)
            if om is None:
                return None
            instr = lookup.get(om.group(2))
            if instr is None:
                return None
            if om.group(1):
                declared = shape_from_text(om.group(1), fill)
                if declared is None or (
                    declared is not instr.shape
                    and declared != instr.shape
                    and not declared.compatible(instr.shape)
                ):
                    return None
            operands.append(instr.name)
            operand_shapes.append(instr.shape)
            pos = om.end()
            if om.group(3) == ")":
                break
    op_spec = spec(opcode)
    if op_spec.arity is not None and len(operands) != op_spec.arity:
        return None
    # attributes
    attrs: dict[str, Any] = {}
    metadata = None
    by_name = op_spec.by_name
    while True:
        am = _ATTR.match(text, pos)
        if am is None:
            break
        key = am.group(1)
        if key in attrs or (key == "metadata" and metadata is not None):
            return None
        pos = am.end()
        if key == "metadata":
            found = fast_metadata_at(text, pos)
            if found is None:
                return None
            metadata, pos = found
            continue
        a = by_name.get(key)
        if a is None or codec_of(a.kind).pattern is None:
            return None
        fast = codec_of(a.kind).fast(text, pos)
        if fast is None:
            return None
        attrs[key], pos = fast
    end = _END.match(text, pos)
    if end is None:
        return None
    shapes = tuple(operand_shapes)
    static, dynamic = _defaults(op_spec)
    for key, value in static:
        if key not in attrs:
            attrs[key] = value
    if dynamic:
        ctx = OpContext(op_spec.opcode, shapes, shape)
        for a in dynamic:
            if a.name not in attrs:
                if a.is_required(ctx):
                    return None
                default = a.default_value(ctx)
                if default is not None:
                    attrs[a.name] = default
    generic = {} if metadata is None else {"metadata": metadata}
    name_start = m.start(2)
    span = Span(text, name_start, max(1, len(name)), lex.filename)
    instr = new_instruction(
        name, opcode, shape, operands=tuple(operands), attrs=FrozenDict(attrs), span=span, **generic
    )
    if op_spec.finish is not None:
        instr = op_spec.finish(instr)
    if op_spec.check is not None and op_spec.check(instr, shapes):
        return None
    if opcode is Opcode.MAP and "dimensions" not in instr.attrs:
        instr = instr.with_attr("dimensions", tuple(range(instr.shape.rank)))
    if is_root and scope.root is not None:
        return None
    p.p.named.append(name)
    instr = scope.add(instr)
    if is_root:
        scope.root = instr.name
    lex.skip_to(end.start())
    return instr
