"""The operand part of an instruction's text: `(shape? %name, ...)`, nested (inline) operands,
compact get-tuple-element operands `%p#1#0`, operands that become parameters in single-instruction
text, and the operand checks (count, declared shapes)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..errors import HloError, ParseError, Span
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ops.registry import OpSpec
from ..shape import Shape
from .lexer import Lexer
from .reader import TextReader
from .scope import Operand, Scope
from .shape_codec import shape_from_text
from .tokens import Tok, Token, describe_token

if TYPE_CHECKING:
    from .parser import HloParser

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


class OperandParsing:
    """The operand methods of InstructionParser."""

    p: HloParser
    r: TextReader
    lex: Lexer

    def rhs(self, scope: Scope, name: str | None, name_tok: Token, allow_attributes: bool) -> Instruction:
        raise NotImplementedError

    def span(self, tok: Token) -> Span:
        raise NotImplementedError

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
