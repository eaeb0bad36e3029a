"""Infeed and outfeed: values to and from the host, ordered by tokens."""

from __future__ import annotations

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import SHAPE, STRING
from .registry import AttrSpec, define, if_nonempty

Op = Opcode


def _tuple_result(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if not instr.shape.is_tuple or not instr.shape.tuple_shapes:
        return f"{instr.opcode.text} must have a non-empty tuple shape"
    return None


define(Op.INFEED, AttrSpec("infeed_config", STRING, default="", printed=if_nonempty), check=_tuple_result)
define(
    Op.OUTFEED,
    AttrSpec(
        "outfeed_shape", SHAPE, default=lambda ctx: ctx.operand_shapes[0] if ctx.operand_shapes else None
    ),
    AttrSpec("outfeed_config", STRING, default="", printed=if_nonempty),
)
