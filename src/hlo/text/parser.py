"""The HLO text parser: a module with its header, a bare list of computations, or a single
instruction; then XLA's post-processing (entry layout, module-wide unique names, stack frames),
which module_build.py does."""

from __future__ import annotations

import gc
from dataclasses import dataclass
from typing import Any

from ..errors import ParseError
from ..ir.computation import Computation
from ..ir.metadata import StackFrameIndex
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..shape import Shape
from . import module_header as mh
from .async_ops import AsyncBuilder
from .instruction_parser import INTERNAL_MARK, InstructionParser, Scope
from .lexer import Lexer
from .module_build import build_module
from .names import NameUniquer, sanitize_name
from .reader import TextReader
from .tokens import Tok, Token, describe_token


@dataclass(frozen=True)
class ParseOptions:
    fill_missing_layouts: bool = True
    keep_module_auto_layouts: bool = False
    max_recursion_depth: int = 8192
    # XLA's text parser re-interns the stack-frame tables (hlo.text.stack_frames); a module
    # built from an HloModuleProto keeps them and the ids as they are (the proto reader's case)
    keep_stack_frames: bool = False


HEADER_ATTRIBUTES = (
    "alias_passthrough_params", "allow_spmd_sharding_propagation_to_output",
    "allow_spmd_sharding_propagation_to_parameters", "buffer_donor", "debug_attributes",
    "entry_computation_layout", "frontend_attributes", "input_output_alias", "is_scheduled",
    "num_partitions", "origin_recovery_table", "replica_count",
)  # fmt: skip


def parse_module(text: str, filename: str = "<string>", options: ParseOptions | None = None) -> Module:
    """Parse HLO text: a module, computations without a header, or one instruction."""
    parser = HloParser(text, filename, options or ParseOptions())
    collecting = gc.isenabled()
    gc.disable()  # the parse makes many long-lived objects and no cycles: collections only cost
    try:
        return parser.parse()
    except RecursionError:
        raise ParseError("the text nests too deeply to parse", parser.lex.span(parser.lex.peek())) from None
    finally:
        if collecting:
            gc.enable()


class HloParser:
    def __init__(self, text: str, filename: str, options: ParseOptions) -> None:
        self.options = options
        self.lex = Lexer(text, filename)
        self.r = TextReader(self.lex, options.fill_missing_layouts, options.max_recursion_depth)
        self.computations: list[Computation] = []
        self.computation_tokens: dict[str, Token] = {}
        self.anon = NameUniquer()
        self.named: list[str] = []  # instruction names not yet given to `anon` (done lazily)
        self.inline_count = 0
        self.instructions = InstructionParser(self)
        self.asyncs = AsyncBuilder(self)
        self.async_callers: set[str] = set()

    # -- what instruction parsing needs ------------------------------------------------------
    def anonymous_name(self, opcode: Opcode) -> str:
        """`<opcode>.anon`, unique among every name the text used so far (as XLA's parser)."""
        for name in self.named:
            self.anon.unique(name)
        self.named.clear()
        return self.anon.unique(f"{opcode.text}.anon")

    def computation(self, name: str) -> Computation:
        for c in self.computations:
            if c.name == name:
                return c
        raise KeyError(name)

    def program_shape(self, name: str) -> tuple[tuple[Shape, ...], Shape]:
        c = self.computation(name)
        return c.parameter_shapes, c.result_shape

    def add_computation(self, computation: Computation) -> None:
        self.computations.append(computation)

    def replace_computation(self, computation: Computation) -> None:
        self.computations = [computation if c.name == computation.name else c for c in self.computations]

    def inline_name(self, prefix: str) -> str:
        """A provisional name for a computation the text does not name (an inline body, an async
        wrapper); the module gives it its final unique name."""
        self.inline_count += 1
        return f"{prefix}{INTERNAL_MARK}{self.inline_count}"

    def computation_ref(self, r: TextReader) -> str:
        """A called computation: a name defined earlier, or an inline `{ ... }` body."""
        tok = self.lex.peek()
        if tok.kind is Tok.LBRACE:
            r.enter()
            scope = Scope("_")
            self.instruction_list(scope)
            name = self.inline_name("_")
            self.add_computation(self.finish_scope(scope, name, tok))
            r.leave()
            return name
        if tok.kind not in (Tok.NAME, Tok.IDENT):
            raise r.error(f"expected a computation name, found {describe_token(tok)}")
        self.lex.next()
        if not any(c.name == tok.text for c in self.computations):
            raise r.error(f"computation does not exist: {tok.text}", tok)
        return tok.text

    # -- top level ------------------------------------------------------------------------------
    def parse(self) -> Module:
        tok = self.lex.peek()
        if tok.kind is Tok.KEYWORD and tok.text == "HloModule":
            return self.module()
        if (tok.kind is Tok.KEYWORD and tok.text == "ENTRY") or self.lex.lookahead().kind is Tok.LBRACE:
            return self.finish_module(None, {}, None, self.computation_list())
        return self.single_instruction()

    def module(self) -> Module:
        r = self.r
        self.lex.next()
        name_tok = self.lex.peek()
        if name_tok.kind not in (Tok.NAME, Tok.IDENT):
            raise r.error(f"expected the module name, found {describe_token(name_tok)}")
        self.lex.next()
        header: dict[str, Any] = {}
        while self.lex.eat(Tok.COMMA):
            tok = self.lex.peek()
            attr = r.attribute_name("a module attribute")
            if attr in header:
                raise r.error(f"attribute {attr} already exists", tok)
            if attr not in HEADER_ATTRIBUTES:
                raise r.error(
                    f'unexpected attribute "{attr}". Allowed attributes: {", ".join(HEADER_ATTRIBUTES)}', tok
                )
            header[attr] = self.header_attribute(attr)
        stack_frames = None
        if self.r.keyword("FileNames"):
            stack_frames = mh.parse_stack_frames(self.r)
        entry = self.computation_list()
        return self.finish_module(name_tok.text, header, stack_frames, entry)

    def header_attribute(self, name: str) -> Any:
        r = self.r
        if name in ("is_scheduled", "alias_passthrough_params"):
            return r.boolean()
        if name in ("replica_count", "num_partitions"):
            return r.int64()
        if name == "entry_computation_layout":
            return mh.parse_computation_layout(r, self.options.keep_module_auto_layouts)
        if name == "input_output_alias":
            return mh.parse_input_output_alias(r)
        if name == "buffer_donor":
            return mh.parse_buffer_donor(r)
        if name == "frontend_attributes":
            return mh.parse_frontend(r)
        if name.startswith("allow_spmd"):
            return mh.parse_bool_or_list(r)
        if name == "origin_recovery_table":
            return mh.parse_recovery_table(r, lambda text: parse_module(text, "<origin_recovery_table>"))
        return mh.parse_debug_attributes(r)

    def computation_list(self) -> str:
        """Computations until the end; returns the entry's name."""
        entry: str | None = None
        last: str | None = None
        while not self.lex.at(Tok.EOF):
            entry_tok = self.lex.peek()
            is_entry = self.r.keyword("ENTRY")
            if is_entry and entry is not None:
                raise self.r.error("expects only one ENTRY", entry_tok)
            name = self.computation_definition()
            last = name
            if is_entry:
                entry = name
        if last is None:
            raise self.r.error("expected a computation")
        return entry if entry is not None else last

    def computation_definition(self) -> str:
        r, lex = self.r, self.lex
        tok = lex.peek()
        if tok.kind not in (Tok.NAME, Tok.IDENT):
            raise r.error(f"expected a computation name, found {describe_token(tok)}")
        lex.next()
        name = sanitize_name(tok.text)
        if name in self.computation_tokens:
            raise r.error(
                f"computation already exists: {name} (previously defined at line "
                f"{lex.span(self.computation_tokens[name]).line})",
                tok,
            )
        self.computation_tokens[name] = tok
        result_shape: Shape | None = None
        result_tok = tok
        if lex.at(Tok.LPAREN):
            r.list_of(self.param_declaration, Tok.LPAREN, Tok.RPAREN, "the parameter list")
            r.expect(Tok.ARROW, "'->' after the parameter list")
            result_tok = lex.peek()
            result_shape = r.shape()
        scope = Scope(name)
        self.instruction_list(scope)
        thread = "main"
        if lex.eat(Tok.COMMA):
            attr_tok = lex.peek()
            if r.attribute_name("execution_thread=") != "execution_thread":
                raise r.error("only execution_thread= may follow a computation", attr_tok)
            thread = r.string("an execution thread name")
        computation = self.finish_scope(scope, name, tok, thread)
        if result_shape is not None and not result_shape.compatible(computation.result_shape):
            raise r.error(
                f"Shape of computation {name}, {result_shape.to_string(False)}, is not compatible with "
                f"that of its root instruction {computation.root_name}, "
                f"{computation.result_shape.to_string(False)}",
                result_tok,
            )
        self.add_computation(computation)
        return name

    def param_declaration(self) -> None:
        """`name: shape` in a computation's parameter list (read and not used, as XLA)."""
        tok = self.lex.peek()
        if tok.kind not in (Tok.NAME, Tok.IDENT):
            raise self.r.error(f"expected a parameter name, found {describe_token(tok)}")
        self.lex.next()
        self.r.shape()

    def instruction_list(self, scope: Scope) -> None:
        self.r.expect(Tok.LBRACE, "'{' at the beginning of the instruction list")
        lex = self.lex
        while True:
            self.instructions.instruction(scope)
            if not lex.buffered:  # another instruction follows unless '}' (or the end) does
                lex.skip_space()
                if lex.pos < len(lex.text) and lex.text[lex.pos] != "}":
                    continue
            if self.lex.eat(Tok.RBRACE):
                return
            if self.lex.at(Tok.EOF):
                raise self.r.error("expected '}' at the end of the instruction list")

    def finish_scope(self, scope: Scope, name: str, tok: Token, thread: str = "main") -> Computation:
        if not scope.instructions:
            raise self.r.error("a computation needs at least one instruction", tok)
        numbers = sorted(
            i.attrs["parameter_number"] for i in scope.instructions if i.opcode is Opcode.PARAMETER
        )
        if numbers != list(range(len(numbers))):
            dup = next((n for n in numbers if numbers.count(n) > 1), None)
            message = (
                f"Duplicate parameter number {dup}"
                if dup is not None
                else f"parameter numbers of computation {name} must be 0..{len(numbers) - 1}, found {numbers}"
            )
            raise ParseError(message, self.lex.span(tok))
        root = scope.root if scope.root is not None else scope.instructions[-1].name
        return Computation(name, tuple(scope.instructions), root, thread, span=self.lex.span(tok))

    def single_instruction(self) -> Module:
        scope = Scope("_", auto_parameters=True)
        start = self.lex.peek()
        if self.r.can_be_shape():
            instr = self.instructions.rhs(scope, "_", start, allow_attributes=True)
        else:
            self.instructions.instruction(scope)
            instr = scope.instructions[-1]
        if not self.lex.at(Tok.EOF):
            raise self.r.error(
                "expected the end of the text after a single instruction (did you mean to write an HLO "
                'module and forget the "HloModule" header?)'
            )
        scope.root = instr.name
        self.add_computation(self.finish_scope(scope, "_", start))
        module = self.finish_module("_", {}, None, "_")
        return module.replace(is_scheduled=True)

    def finish_module(
        self, name: str | None, header: dict[str, Any], stack_frames: StackFrameIndex | None, entry: str
    ) -> Module:
        span = self.lex.span(Token(Tok.EOF, 0, 1))
        return build_module(
            self.computations, name, header, stack_frames, entry, span, self.options.keep_stack_frames
        )
