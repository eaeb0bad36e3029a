"""Errors of `hlo`: every failure a user can cause is an `HloError` that says what and where.

Text errors carry a `Span` and render as ``file:line:col: error: message``, the source line and a
caret under the place; shape errors name the op, the operand and the rule with the shapes involved.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Span(NamedTuple):
    """A place in a source text: `offset` is the 0-based character offset of the start. (A
    NamedTuple: the parser makes one per instruction.)"""

    text: str
    offset: int
    length: int = 1
    filename: str = "<string>"

    @property
    def line(self) -> int:
        return self.text.count("\n", 0, self.offset) + 1

    @property
    def column(self) -> int:
        return self.offset - (self.text.rfind("\n", 0, self.offset) + 1) + 1

    def source_line(self) -> str:
        start = self.text.rfind("\n", 0, self.offset) + 1
        end = self.text.find("\n", self.offset)
        return self.text[start : end if end >= 0 else len(self.text)]

    def render(self, message: str) -> str:
        line = self.source_line()
        col = self.column
        width = max(1, min(self.length, len(line) - col + 1))
        caret = " " * (col - 1) + "^" + "~" * (width - 1)
        return f"{self.filename}:{self.line}:{col}: error: {message}\n{line}\n{caret}"


class HloError(Exception):
    """Base of every error `hlo` raises for bad input."""

    def __init__(self, message: str, span: Span | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span

    def __str__(self) -> str:
        if self.span is not None:
            return self.span.render(self.message)
        return self.message


class ParseError(HloError):
    """Malformed text: a shape string, a layout, an HLO module."""


class ShapeError(HloError):
    """A shape, a layout or an index that breaks a rule, or an array that does not fit a shape."""


class VerifyError(HloError):
    """A module that breaks a structural or shape rule; `instruction` is the one at fault, if
    the rule is about one instruction."""

    def __init__(self, message: str, span: Span | None = None, instruction: Any = None) -> None:
        super().__init__(message, span)
        self.instruction = instruction


class EvalError(HloError):
    """A failure while running a module."""


class CollectiveError(EvalError):
    """Devices that disagree at a collective, or a collective that can never complete."""
