"""The attribute part of an instruction's text: `, name=value` pairs, each read by the codec of
its kind from the op's schema (or the fast path for common spellings), and the attributes every
instruction may have (sharding, metadata, frontend attributes, ...)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import ParseError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ops.registry import OpSpec, spec
from .codec_table import codec_of
from .lexer import Lexer
from .metadata_codec import (
    parse_frontend_attributes,
    parse_metadata,
    parse_original_value,
    parse_result_accuracy,
    parse_statistics,
)
from .reader import TextReader
from .scope import Scope
from .sharding_codec import parse_sharding
from .tokens import Tok, Token, describe_token

if TYPE_CHECKING:
    from .parser import HloParser

_ATTR_HEAD = re.compile(r"[ \t\n\r]*,[ \t\n\r]*([A-Za-z_][A-Za-z0-9_.\-]*)=")
GENERIC_ATTRIBUTES = (
    "sharding", "frontend_attributes", "statistics", "parameter_replication", "control-predecessors",
    "origin", "metadata", "backend_config",
)  # fmt: skip


class AttributeParsing:
    """The attribute methods of InstructionParser."""

    p: HloParser
    r: TextReader
    lex: Lexer

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

    def instruction_name(self, scope: Scope) -> str:
        tok = self.lex.peek()
        if tok.kind not in (Tok.NAME, Tok.IDENT):
            raise self.r.error("expects a instruction name")
        self.lex.next()
        if tok.text not in scope.lookup:
            raise self.r.error(f"instruction '{tok.text}' is not defined", tok)
        return scope.lookup[tok.text].name
