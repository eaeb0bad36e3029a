"""Parsing one instruction: `ROOT? name = shape? opcode(operands), attributes`, with nested
(inline) operands, compact get-tuple-element operands `%p#1#0`, omitted result shapes inferred by
the op's shape rule, and the attribute schema of the op from the registry."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..dtypes import PrimitiveType
from ..errors import HloError, ParseError, Span
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode, opcode_from_text
from ..ops.registry import OpContext, OpSpec, ShapeContext, spec
from ..shape import Shape
from .attribute_parser import AttributeParsing
from .fast_line import fast_instruction
from .literal_codec import parse_literal
from .operand_parser import OperandParsing
from .reader import TextReader
from .scope import INTERNAL_MARK, Operand, Scope
from .tokens import KEYWORDS, Tok, Token, describe_token

if TYPE_CHECKING:
    from .parser import HloParser

# Wrapped ops whose `-start/-update/-done` spelling is a real opcode or is refused by XLA.
__all__ = ["INTERNAL_MARK", "InstructionParser", "Scope"]

NO_ASYNC_SUGAR = frozenset(
    {Opcode.ALL_GATHER, Opcode.ALL_REDUCE, Opcode.COLLECTIVE_PERMUTE, Opcode.COPY, Opcode.RECV, Opcode.SEND}
)
ASYNC_SUFFIXES = (
    ("-start", Opcode.ASYNC_START),
    ("-update", Opcode.ASYNC_UPDATE),
    ("-done", Opcode.ASYNC_DONE),
)
_OPCODE = re.compile(r"([a-z][a-z0-9\-]*)(?=\()")
_HEAD = re.compile(r"(ROOT\s+)?(?:%([A-Za-z_][A-Za-z0-9_.\-]*)\s*|([A-Za-z_][A-Za-z0-9_.\-]*)\s+)=\s*")
_RESERVED = KEYWORDS | {t.text for t in PrimitiveType} | {"nan"}
NO_SHAPE = Shape.make_tuple(())  # stands in for a result shape still to be inferred


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


class InstructionParser(OperandParsing, AttributeParsing):
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
        missing = op_spec.fill_defaults(attrs, ctx)
        if missing:
            raise r.error(f"attribute {missing[0].name} is expected but not seen", attr_start)
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
