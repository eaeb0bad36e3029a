"""One codec object per attribute kind: it parses the value (the text after `name=`) and prints it
back, so round-tripping holds by construction. Op schemas (hlo.ops) name these codecs."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..shape import Shape
from .escapes import c_escape
from .format import six_digits
from .reader import TextReader
from .shape_codec import print_shape
from .tokens import Tok


class ParseContext(Protocol):
    """What a codec may ask of the instruction parser."""

    def computation_ref(self, r: TextReader) -> str:
        """A computation name, or an inline `{...}` body (parsed and named)."""
        ...


class PrintContext(Protocol):
    """What a codec may ask of the printer."""

    @property
    def percent(self) -> bool: ...

    def computation_name(self, name: str) -> str: ...


class Codec:
    """Parses and prints one attribute kind."""

    calls_computations = False  # values name called computations
    # The common spelling of a value as one regex, read without the lexer (`fast`); None: none.
    pattern: re.Pattern[str] | None = None

    def parse(self, r: TextReader, ctx: ParseContext) -> Any:
        raise NotImplementedError

    def fast(self, text: str, pos: int) -> tuple[Any, int] | None:
        """(value, end) when the text at `pos` is the common spelling; None otherwise."""
        m = self.pattern.match(text, pos) if self.pattern is not None else None
        return None if m is None else (self.convert(m.group()), m.end())

    def convert(self, text: str) -> Any:
        raise NotImplementedError

    def print(self, value: Any, ctx: PrintContext) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class Simple(Codec):
    """A codec from two plain functions (and optionally a fast spelling and its converter)."""

    read: Callable[[TextReader], Any]
    write: Callable[[Any], str]
    pattern: re.Pattern[str] | None = None
    converter: Callable[[str], Any] | None = None

    def parse(self, r: TextReader, ctx: ParseContext) -> Any:
        return self.read(r)

    def print(self, value: Any, ctx: PrintContext) -> str:
        return self.write(value)

    def convert(self, text: str) -> Any:
        assert self.converter is not None
        return self.converter(text)


def ints_text(values: tuple[int, ...]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


_INT_TEXT = re.compile(r"-?\d{1,18}(?![\d.eExX_])")
_INT_LIST_TEXT = re.compile(r"\{(?:-?\d{1,18}(?:,-?\d{1,18})*)?\}")
_BOOL_TEXT = re.compile(r"(?:true|false)(?![\w.\-])")


def _int_list_value(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text[1:-1].split(",")) if len(text) > 2 else ()


INT = Simple(lambda r: r.int64(), str, _INT_TEXT, int)
INT32 = Simple(lambda r: r.int32(), str)
BOOL = Simple(lambda r: r.boolean(), lambda v: "true" if v else "false", _BOOL_TEXT, lambda t: t == "true")
STRING = Simple(lambda r: r.string(), lambda v: '"' + c_escape(v) + '"')
RAW_STRING = Simple(lambda r: r.string(), lambda v: '"' + v + '"')  # printed without escaping
FLOAT = Simple(lambda r: r.number(), six_digits)
INT_LIST = Simple(lambda r: r.int_list(), ints_text, _INT_LIST_TEXT, _int_list_value)
INT_LIST_LIST = Simple(lambda r: r.int_list_list(), lambda v: "{" + ",".join(ints_text(x) for x in v) + "}")
BOOL_LIST = Simple(
    lambda r: r.bool_list(), lambda v: "{" + ",".join("true" if b else "false" for b in v) + "}"
)
SHAPE = Simple(lambda r: r.shape(), print_shape)
SHAPE_LIST = Simple(
    lambda r: tuple(r.list_of(r.shape, Tok.LBRACE, Tok.RBRACE, "a list of shapes")),
    lambda v: "{" + ", ".join(print_shape(s) for s in v) + "}",
)


@dataclass(frozen=True)
class EnumCodec(Codec):
    cls: type[enum.Enum]
    what: str
    case_insensitive: bool = False

    def parse(self, r: TextReader, ctx: ParseContext) -> Any:
        return r.enum(self.cls, self.what, self.case_insensitive)

    def print(self, value: Any, ctx: PrintContext) -> str:
        return str(value.value)


class ComputationCodec(Codec):
    calls_computations = True

    def parse(self, r: TextReader, ctx: ParseContext) -> Any:
        return ctx.computation_ref(r)

    def print(self, value: Any, ctx: PrintContext) -> str:
        return ctx.computation_name(value)


class ComputationListCodec(Codec):
    """`{a, b}` (branch_computations, called_computations)."""

    calls_computations = True

    def parse(self, r: TextReader, ctx: ParseContext) -> Any:
        return tuple(r.list_of(lambda: ctx.computation_ref(r), Tok.LBRACE, Tok.RBRACE, "a computation list"))

    def print(self, value: Any, ctx: PrintContext) -> str:
        return "{" + ", ".join(ctx.computation_name(c) for c in value) + "}"


class CallsCodec(Codec):
    """`calls=a` or `calls=a, b`? XLA prints several callees joined by ', ' without braces; the
    parser reads one computation. Kept as a tuple for uniformity."""

    calls_computations = True

    def parse(self, r: TextReader, ctx: ParseContext) -> Any:
        return (ctx.computation_ref(r),)

    def print(self, value: Any, ctx: PrintContext) -> str:
        return ", ".join(ctx.computation_name(c) for c in value)


COMPUTATION = ComputationCodec()
COMPUTATION_LIST = ComputationListCodec()
CALLS = CallsCodec()


def shape_text(shape: Shape) -> str:
    return print_shape(shape)
