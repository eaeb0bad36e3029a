"""Parsing one instruction: `ROOT? name = shape? opcode(operands), attributes`, with nested
(inline) operands, compact get-tuple-element operands `%p#1#0`, omitted result shapes inferred by
the op's shape rule, and the attribute schema of the op from the registry."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..dtypes import PrimitiveType
from ..errors import HloError, ParseError, Span
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode, opcode_from_text
from ..ops.registry import OpContext, OpSpec, ShapeContext, spec
from ..shape import Shape
from .codec_table import codec_of
from .fast_line import fast_instruction
from .lexer import KEYWORDS, Tok, Token
from .literal_codec import parse_literal
from .metadata_codec import (
    parse_frontend_attributes,
    parse_metadata,
    parse_original_value,
    parse_result_accuracy,
    parse_statistics,
)
from .reader import TextReader
from .shape_codec import describe_token, shape_from_text
from .sharding_codec import parse_sharding

if TYPE_CHECKING:
    from .parser import HloParser

# Wrapped ops whose `-start/-update/-done` spelling is a real opcode or is refused by XLA.
NO_ASYNC_SUGAR = frozenset(
    {Opcode.ALL_GATHER, Opcode.ALL_REDUCE, Opcode.COLLECTIVE_PERMUTE, Opcode.COPY, Opcode.RECV, Opcode.SEND}
)
ASYNC_SUFFIXES = (
    ("-start", Opcode.ASYNC_START),
    ("-update", Opcode.ASYNC_UPDATE),
    ("-done", Opcode.ASYNC_DONE),
)
_NAME = r"%?([A-Za-z_][A-Za-z0-9_.\-]*)"
_SIMPLE_OPERAND = re.compile(
    r"\s*(?:([a-z][a-z0-9]*\[[0-9,<=?]*\](?:\{(?=[0-9:])[^{}\s]*\})?)\s+)?" + _NAME + r"\s*,?"
)
_SIMPLE_OPERANDS = re.compile(
    r"\(((?:\s*(?:[a-z][a-z0-9]*\[[0-9,<=?]*\](?:\{(?=[0-9:])[^{}\s]*\})?\s+)?"
    + _NAME
    + r"\s*,)*\s*(?:[a-z][a-z0-9]*\[[0-9,<=?]*\](?:\{(?=[0-9:])[^{}\s]*\})?\s+)?"
    + _NAME
    + r")?\s*\)"
)
_OPCODE = re.compile(r"([a-z][a-z0-9\-]*)(?=\()")
_ATTR_HEAD = re.compile(r"[ \t\n\r]*,[ \t\n\r]*([A-Za-z_][A-Za-z0-9_.\-]*)=")
_HEAD = re.compile(r"(ROOT\s+)?(?:%([A-Za-z_][A-Za-z0-9_.\-]*)\s*|([A-Za-z_][A-Za-z0-9_.\-]*)\s+)=\s*")
_RESERVED = KEYWORDS | {t.text for t in PrimitiveType} | {"nan"}
NO_SHAPE = Shape.make_tuple(())  # stands in for a result shape still to be inferred
GENERIC_ATTRIBUTES = (
    "sharding", "frontend_attributes", "statistics", "parameter_replication", "control-predecessors",
    "origin", "metadata", "backend_config",
)  # fmt: skip


INTERNAL_MARK = "\x00"  # separates a name from a suffix that keeps it unique inside a scope


@dataclass
class Scope:
    """A computation being parsed: its instructions in order, the names the text uses to refer
    to them (`lookup`, compact get-tuple-element keys like `p#0` included) and the names they
    carry (`internal`, unique in the scope until the module makes names unique)."""

    name: str
    instructions: list[Instruction] = field(default_factory=list)
    lookup: dict[str, Instruction] = field(default_factory=dict)
    internal: dict[str, Instruction] = field(default_factory=dict)
    root: str | None = None
    auto_parameters: bool = False  # single-instruction text: unknown operands become parameters

    def add(self, instr: Instruction, key: str | None = None) -> Instruction:
        """Add `instr`, known in the text as `key` (its name by default)."""
        key = instr.name if key is None else key
        if instr.name in self.internal:
            n = 1
            while f"{instr.name}{INTERNAL_MARK}{n}" in self.internal:
                n += 1
            instr = instr.replace(name=f"{instr.name}{INTERNAL_MARK}{n}")
        self.instructions.append(instr)
        self.internal[instr.name] = instr
        self.lookup[key] = instr
        return instr


class Operand(NamedTuple):
    name: str
    declared: Shape | None
    offset: int  # where the operand starts in the text


@dataclass
class AsyncParts:
    """What the parser read for an async-start/-update/-done (sugared or not)."""

    scope: Scope
    name: str
    name_token: Token
    opcode: Opcode
    wrapped: Opcode | None
    shape: Shape | None
    operands: list[Operand]
    attrs: dict[str, Any]  # the wrapped op's attributes (sugar), or the async op's own
    async_attrs: dict[str, Any]
    generic: dict[str, Any]


class InstructionParser:
    def __init__(self, parser: HloParser) -> None:
        self.p = parser
        self.r: TextReader = parser.r
        self.lex = parser.lex

    # -- the instruction line -------------------------------------------------------------
    def instruction(self, scope: Scope) -> Instruction:
        self.lex.skip_space()
        fast = fast_instruction(self, scope)
        if fast is not None:
            return fast
        is_root_tok = (
            self.lex.peek() if self.lex.buffered else Token(Tok.KEYWORD, self.lex.pos, self.lex.pos + 4)
        )
        head = _HEAD.match(self.lex.text, is_root_tok.start)
        if head is not None and (head.group(2) or head.group(3) not in _RESERVED):
            # `ROOT? %name =` read in one go (the common case); anything else is lexed.
            is_root = head.group(1) is not None
            name = head.group(2) or head.group(3)
            name_start = head.start(2) if head.group(2) else head.start(3)
            name_tok = Token(Tok.NAME, name_start, name_start + len(name), name)
            self.lex.skip_to(head.end())
        else:
            is_root = self.r.keyword("ROOT")
            name_tok = self.lex.peek()
            if name_tok.kind not in (Tok.NAME, Tok.IDENT):
                raise self.r.error(f"expected an instruction name, found {describe_token(name_tok)}")
            self.lex.next()
            self.r.expect(Tok.EQUAL, "'=' after the instruction name")
            name = name_tok.text
        if name in scope.lookup:
            raise self.r.error(f"instruction already exists: {name}", name_tok)
        instr = self.rhs(scope, name, name_tok, allow_attributes=True)
        if is_root:
            if scope.root is not None:
                raise self.r.error("one computation should have only one ROOT", is_root_tok)
            scope.root = instr.name
        return instr

    def rhs(self, scope: Scope, name: str | None, name_tok: Token, allow_attributes: bool) -> Instruction:
        """The part after `=`: adds the instruction (and any nested ones) to `scope`."""
        r, lex = self.r, self.lex
        r.enter()
        lex.skip_space()
        start = lex.peek() if lex.buffered else Token(Tok.ERROR, lex.pos, lex.pos + 1)
        shape = r.shape() if r.can_be_shape() else None
        lex.skip_space()
        op = None if lex.buffered else _OPCODE.match(lex.text, lex.pos)
        if op is not None and (opcode_ := opcode_from_text(op.group(1))) is not None:
            # `opcode(` read in one go; sugared async names and errors go through opcode().
            op_tok = Token(Tok.IDENT, op.start(1), op.end(1), op.group(1))
            opcode, wrapped = opcode_, None
            lex.skip_to(op.end(1))
        else:
            op_tok = lex.peek()
            opcode, wrapped = self.opcode(op_tok)
        if name is None:
            name = self.p.anonymous_name(opcode)
        else:
            self.p.named.append(name)
        paren = lex.peek() if lex.buffered else Token(Tok.LPAREN, lex.pos, lex.pos + 1)
        attrs: dict[str, Any] = {}
        operands: list[Operand] = []
        if opcode is Opcode.PARAMETER:
            attrs["parameter_number"] = self.parameter_number()
        elif opcode is Opcode.CONSTANT:
            if shape is None:
                raise r.error("constant needs its shape written before the opcode", op_tok)
            r.expect(Tok.LPAREN, "'(' before the constant literal")
            attrs["literal"] = parse_literal(r, shape)
            r.expect(Tok.RPAREN, "')' after the constant literal")
        else:
            operands = self.operands(scope)
        operand_shapes = tuple(scope.internal[o.name].shape for o in operands)
        op_spec = spec(wrapped if wrapped is not None and opcode is Opcode.ASYNC_START else opcode)
        generic: dict[str, Any] = {}
        async_attrs: dict[str, Any] = {}
        attr_start = lex.peek() if lex.buffered else Token(Tok.COMMA, lex.pos, lex.pos + 1)
        if allow_attributes:
            self.attributes(op_spec, opcode, wrapped, attrs, async_attrs, generic, scope)
        ctx = OpContext(op_spec.opcode, operand_shapes, shape)
        for a in op_spec.attrs:
            if a.name not in attrs:
                if a.is_required(ctx):
                    raise r.error(f"attribute {a.name} is expected but not seen", attr_start)
                default = a.default_value(ctx)
                if default is not None:
                    attrs[a.name] = default
        self.check_operand_count(op_spec, opcode, wrapped, operands, paren)
        self.check_declared_operand_shapes(operands, scope)
        instr = None
        if opcode in (Opcode.ASYNC_START, Opcode.ASYNC_UPDATE, Opcode.ASYNC_DONE):
            instr = self.p.asyncs.build(
                AsyncParts(
                    scope, name, name_tok, opcode, wrapped, shape, operands, attrs, async_attrs, generic
                )
            )
        if instr is None:
            instr = Instruction(
                name, opcode, shape or NO_SHAPE, tuple(o.name for o in operands), FrozenDict(attrs),
                span=lex.span(name_tok), **generic,
            )  # fmt: skip
            if op_spec.finish is not None:
                instr = op_spec.finish(instr)
            if op_spec.check is not None:
                message = op_spec.check(instr, operand_shapes)
                if message:
                    raise ParseError(message, lex.span_from(start.start))
            if shape is None:
                instr = instr.replace(
                    shape=self.infer_shape(opcode, op_spec, operand_shapes, dict(instr.attrs), op_tok)
                )
            if opcode is Opcode.MAP and "dimensions" not in instr.attrs:
                instr = instr.with_attr("dimensions", tuple(range(instr.shape.rank)))
        self.check_parameter_replication(instr, name_tok)
        instr = scope.add(instr)
        r.leave()
        return instr

    def opcode(self, tok: Token) -> tuple[Opcode, Opcode | None]:
        """The opcode, and for `X-start/-update/-done` sugar the wrapped opcode X."""
        if tok.kind is not Tok.IDENT:
            raise self.r.error(f"expected an opcode, found {describe_token(tok)}")
        self.lex.next()
        op = opcode_from_text(tok.text)
        if op is not None:
            return op, None
        for suffix, async_op in ASYNC_SUFFIXES:
            if tok.text.endswith(suffix):
                wrapped = opcode_from_text(tok.text[: -len(suffix)])
                if wrapped is None:
                    break
                if wrapped in NO_ASYNC_SUGAR:
                    raise self.r.error(f"unknown opcode: {tok.text}", tok)
                return async_op, wrapped
        raise self.r.error(f"unknown opcode: {tok.text}", tok)

    def parameter_number(self) -> int:
        self.r.expect(Tok.LPAREN, "'(' before the parameter number")
        tok = self.lex.peek()
        number = self.r.int64("a parameter number")
        if number < 0:
            raise self.r.error("parameter number must be >= 0", tok)
        self.r.expect(Tok.RPAREN, "')' after the parameter number")
        return number

    # -- operands -----------------------------------------------------------------------------
    def operands(self, scope: Scope) -> list[Operand]:
        fast = self.simple_operands(scope)
        if fast is not None:
            return fast
        r, lex = self.r, self.lex
        r.enter()
        r.expect(Tok.LPAREN, "'(' at the beginning of operands")
        result: list[Operand] = []
        if not lex.at(Tok.RPAREN):
            while True:
                result.append(self.operand(scope))
                if not lex.eat(Tok.COMMA):
                    break
        r.expect(Tok.RPAREN, "',' or ')' at the end of operands")
        r.leave()
        return result

    def simple_operands(self, scope: Scope) -> list[Operand] | None:
        """`(shape %a, shape %b)` with names already defined, read in one go (most operand lists
        are this); None sends anything else through the token-level reader."""
        lex = self.lex
        lex.skip_space()
        if lex.buffered:
            tok = lex.peek()
            if tok.kind is not Tok.LPAREN:
                return None
            start = tok.start
        else:
            start = lex.pos
        m = _SIMPLE_OPERANDS.match(lex.text, start)
        if m is None:
            return None
        result = []
        for om in _SIMPLE_OPERAND.finditer(m.group(1) or ""):
            shape_text, name = om.group(1), om.group(2)
            instr = scope.lookup.get(name)
            if instr is None or (
                shape_text and shape_from_text(shape_text, self.r.fill_missing_layouts) is None
            ):
                return None
            offset = start + 1 + om.start(1 if shape_text else 2)
            declared = shape_from_text(shape_text, self.r.fill_missing_layouts) if shape_text else None
            result.append(Operand(instr.name, declared, offset))
        lex.skip_to(m.end())
        return result

    def operand(self, scope: Scope) -> Operand:
        lex = self.lex
        start = lex.peek()
        state = lex.mark()
        named_error: HloError | None = None
        try:
            operand = self.named_operand(scope)
            if operand is not None:
                return operand
        except HloError as e:
            named_error = e
        after_name = lex.peek()  # where a known name was not followed by ',' or ')'
        lex.reset(state)
        try:
            nested = self.rhs(scope, None, start, allow_attributes=False)
        except HloError as e:
            if named_error is not None and start.kind in (Tok.NAME, Tok.IDENT):
                raise named_error from None
            if start.kind in (Tok.NAME, Tok.IDENT) and start.text in scope.lookup:
                raise self.r.error(
                    f"expected ',' or ')' after operand {start.text}, found {describe_token(after_name)}",
                    after_name,
                ) from None
            raise e from None
        return Operand(nested.name, None, start.start)

    def named_operand(self, scope: Scope) -> Operand | None:
        """`shape? name (# index)*` followed by ',' or ')'; None when the text is something else
        (a nested instruction)."""
        r, lex = self.r, self.lex
        start = lex.peek()
        declared = r.shape() if r.can_be_shape() else None
        tok = lex.peek()
        if tok.kind not in (Tok.NAME, Tok.IDENT):
            if declared is not None and scope.auto_parameters and lex.at(Tok.COMMA, Tok.RPAREN):
                return Operand(self.auto_parameter(scope, None, declared, start), declared, start.start)
            return None
        lex.next()
        indices: list[tuple[int, Token]] = []
        while lex.at(Tok.OCTOTHORP):
            lex.next()
            itok = lex.peek()
            indices.append((r.int64("a tuple index after '#'"), itok))
        if not lex.at(Tok.COMMA, Tok.RPAREN):
            return None
        name = tok.text
        if name not in scope.lookup:
            if scope.auto_parameters and not indices:
                if declared is None:
                    raise r.error(
                        "Operand had no shape in HLO text; cannot create parameter for "
                        "single-instruction module.",
                        tok,
                    )
                return Operand(self.auto_parameter(scope, name, declared, start), declared, start.start)
            raise r.error(f"instruction does not exist: {name}", tok)
        if indices:
            return Operand(self.compact_gte(scope, name, indices, declared, tok), None, start.start)
        return Operand(scope.lookup[name].name, declared, start.start)

    def auto_parameter(self, scope: Scope, name: str | None, shape: Shape, tok: Token) -> str:
        """Single-instruction text: an operand nobody defined becomes the next parameter."""
        number = sum(1 for i in scope.instructions if i.opcode is Opcode.PARAMETER)
        pname = name if name is not None else f"_{number}"
        if pname in scope.lookup:
            return scope.lookup[pname].name
        param = Instruction(pname, Opcode.PARAMETER, shape, attrs=FrozenDict(parameter_number=number))
        return scope.add(param).name

    def compact_gte(
        self, scope: Scope, base: str, indices: list[tuple[int, Token]], declared: Shape | None, tok: Token
    ) -> str:
        """`%p#1#0`: get-tuple-element instructions made on first use, named `p_1_0`."""
        current = scope.lookup[base].name
        key = base
        shape = scope.lookup[base].shape
        for index, itok in indices:
            if not shape.is_tuple:
                raise self.r.error(
                    f"GTE operand must be tuple, but has shape: {shape.to_string(False)}", itok
                )
            if not 0 <= index < len(shape.tuple_shapes):
                raise self.r.error(
                    f"GTE index {index} out of bounds for shape: {shape.to_string(False)}", itok
                )
            key = f"{key}#{index}"
            shape = shape.tuple_shapes[index]
            if key not in scope.lookup:
                gte = Instruction(
                    key.replace("#", "_"),
                    Opcode.GET_TUPLE_ELEMENT,
                    shape,
                    (current,),
                    FrozenDict(index=index),
                    span=self.lex.span(tok),
                )
                scope.add(gte, key)
            current = scope.lookup[key].name
        if declared is not None and not declared.compatible(shape):
            raise self.r.error(f"operand shape {declared} does not match instruction shape {shape}", tok)
        return current

    # -- attributes ---------------------------------------------------------------------------
    def attributes(
        self,
        op_spec: OpSpec,
        opcode: Opcode,
        wrapped: Opcode | None,
        attrs: dict[str, Any],
        async_attrs: dict[str, Any],
        generic: dict[str, Any],
        scope: Scope,
    ) -> None:
        """`(, name=value)*`. A sugared `X-start` carries X's attributes (into `attrs`) and the
        async ones (into `async_attrs`); `X-update/-done` carry only async and generic ones."""
        r, lex = self.r, self.lex
        async_names: tuple[str, ...] = ()
        if wrapped is not None:
            async_names = ("async_execution_thread",) + (
                ("output_to_operand_aliasing",) if opcode is Opcode.ASYNC_START else ()
            )
        own = op_spec.by_name if wrapped is None or opcode is Opcode.ASYNC_START else {}
        seen: set[str] = set()
        text = lex.text
        while True:
            head = _ATTR_HEAD.match(text, lex.pos) if not lex.buffered else None
            if head is not None:  # `, name=` read in one go
                name = head.group(1)
                tok = Token(Tok.ATTRIBUTE_NAME, head.start(1), head.end(), name)
                lex.skip_to(head.end())
            else:
                if not lex.buffered:
                    lex.skip_space()
                    if not text.startswith(",", lex.pos):
                        break
                elif not lex.at(Tok.COMMA):
                    break
                lex.next()
                tok = lex.peek()
                if tok.kind is not Tok.ATTRIBUTE_NAME:
                    raise r.error(f"expected an attribute name, found {describe_token(tok)}")
                lex.next()
                name = tok.text
            if name in seen:
                raise r.error(f"attribute {name} already exists", tok)
            seen.add(name)
            if name in async_names:
                async_attrs[name] = codec_of(spec(opcode).by_name[name].kind).parse(r, self.p)
            elif name in own:
                codec = codec_of(own[name].kind)
                fast = None
                if codec.pattern is not None:
                    lex.skip_space()
                    fast = codec.fast(lex.text, lex.peek().start if lex.buffered else lex.pos)
                if fast is not None:
                    attrs[name], end = fast
                    lex.skip_to(end)
                else:
                    attrs[name] = codec.parse(r, self.p)
            elif name in GENERIC_ATTRIBUTES or (
                name == "result_accuracy" and op_spec.accepts_result_accuracy
            ):
                self.generic_attribute(name, tok, generic, scope)
            else:
                allowed = set(own) | set(async_names) | set(GENERIC_ATTRIBUTES)
                if op_spec.accepts_result_accuracy:
                    allowed.add("result_accuracy")
                raise r.error(
                    f'unexpected attribute "{name}". Allowed attributes: {", ".join(sorted(allowed))}', tok
                )

    def generic_attribute(self, name: str, tok: Token, generic: dict[str, Any], scope: Scope) -> None:
        r = self.r
        if name == "sharding":
            generic["sharding"] = parse_sharding(r)
        elif name == "frontend_attributes":
            generic["frontend_attributes"] = parse_frontend_attributes(r)
        elif name == "statistics":
            generic["statistics"] = parse_statistics(r)
        elif name == "parameter_replication":
            generic["parameter_replication"] = r.bool_list("parameter_replication")
        elif name == "control-predecessors":
            names = r.list_of(
                lambda: self.instruction_name(scope), Tok.LBRACE, Tok.RBRACE, "control-predecessors"
            )
            if not names:
                raise r.error("expects a instruction name", tok)
            generic["control_predecessors"] = tuple(names)
        elif name == "origin":
            generic["original_value"] = parse_original_value(r)
        elif name == "metadata":
            generic["metadata"] = parse_metadata(r)
        elif name == "backend_config":
            generic["backend_config"] = (
                r.lex.raw_braced().text
                if r.lex.at(Tok.LBRACE)
                else r.string("a backend_config string or {...}")
            )
        elif name == "result_accuracy":
            generic["result_accuracy"] = parse_result_accuracy(r)

    def instruction_name(self, scope: Scope) -> str:
        tok = self.lex.peek()
        if tok.kind not in (Tok.NAME, Tok.IDENT):
            raise self.r.error("expects a instruction name")
        self.lex.next()
        if tok.text not in scope.lookup:
            raise self.r.error(f"instruction '{tok.text}' is not defined", tok)
        return scope.lookup[tok.text].name

    # -- checks -------------------------------------------------------------------------------
    def check_operand_count(
        self, op_spec: OpSpec, opcode: Opcode, wrapped: Opcode | None, operands: list[Operand], paren: Token
    ) -> None:
        if wrapped is not None or opcode in (Opcode.PARAMETER, Opcode.CONSTANT):
            return
        expected = op_spec.arity
        if expected is not None and len(operands) != expected:
            raise self.r.error(f"expects {expected} operands, but has {len(operands)} operands", paren)

    def check_declared_operand_shapes(self, operands: list[Operand], scope: Scope) -> None:
        for o in operands:
            if o.declared is None:
                continue
            actual = scope.internal[o.name].shape
            if o.declared is not actual and o.declared != actual and not o.declared.compatible(actual):
                raise ParseError(
                    f"The declared operand shape {o.declared} is not compatible with the shape of the "
                    f"operand instruction {actual}.",
                    Span(self.lex.text, o.offset, 1, self.lex.filename),
                )

    def check_parameter_replication(self, instr: Instruction, tok: Token) -> None:
        replication = instr.parameter_replication
        if replication is None:
            return
        leaves = sum(1 for _ in instr.shape.leaves())
        if leaves != len(replication):
            raise ParseError(
                f"parameter has {leaves} leaf buffers, but parameter_replication has "
                f"{len(replication)} elements.",
                self.lex.span(tok),
            )

    def infer_shape(
        self, opcode: Opcode, op_spec: OpSpec, operands: tuple[Shape, ...], attrs: dict[str, Any], tok: Token
    ) -> Shape:
        if not opcode.shape_optional_in_text:
            raise self.r.error(f"cannot infer shape for opcode: {opcode.text}; write the result shape", tok)
        if op_spec.shape_rule is None:
            raise self.r.error(
                f"cannot infer shape for opcode: {opcode.text} yet; write the result shape", tok
            )
        ctx = ShapeContext(opcode, operands, attrs, self.p.program_shape)
        try:
            return op_spec.shape_rule(ctx)
        except HloError as e:
            raise ParseError(
                f"failed to infer shape for opcode: {opcode.text}, error: {e.message}", self.lex.span(tok)
            ) from None

    def span(self, tok: Token) -> Span:
        return self.lex.span(tok)
