"""What every proto attribute converter shares: the Context it looks names and operand shapes up
in, and the text of integer lists and quoted strings as XLA prints them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import HloError
from ..shape import Shape
from ..text.escapes import c_escape


@dataclass
class Context:
    """What converters look up: names of computations by id, operand shapes, the instruction."""

    computations: dict[int, str]
    operand_shapes: list[Shape]
    where: str

    def computation(self, ident: int) -> str:
        if ident not in self.computations:
            raise HloError(f"{self.where}.called_computation_ids: no computation with id {ident}")
        return self.computations[ident]


def ints(values: Any) -> str:
    return "{" + ",".join(str(int(v)) for v in values) + "}"


def quoted(text: str | bytes) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="surrogateescape")
    return '"' + c_escape(text) + '"'
