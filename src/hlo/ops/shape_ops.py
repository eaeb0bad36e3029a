"""Ops that move data without arithmetic: broadcast, reshape, transpose, reverse, concatenate,
slicing, padding, iota, bitcast, copy, dynamic dimension sizes."""

from __future__ import annotations

from ..errors import ShapeError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import INT, INT32, INT_LIST, PADDING, SLICE
from .registry import AttrSpec, OpContext, ShapeContext, define, shape_rule, unless

Op = Opcode


def one_dimension(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    dims = instr.attr("dimensions")
    if dims is not None and len(dims) != 1:
        return f"{instr.opcode.text} takes exactly one dimension in dimensions=, not {len(dims)}"
    return None


def _operand_is_scalar(ctx: OpContext) -> bool:
    return bool(ctx.operand_shapes) and ctx.operand_shapes[0].is_array and ctx.operand_shapes[0].rank == 0


define(
    Op.BROADCAST,
    AttrSpec("dimensions", INT_LIST, required=lambda ctx: not _operand_is_scalar(ctx), default=()),
)
define(Op.RESHAPE, AttrSpec("inferred_dimension", INT, default=-1, printed=unless(-1)))
define(Op.TRANSPOSE, AttrSpec("dimensions", INT_LIST, required=True))
define(Op.REVERSE, AttrSpec("dimensions", INT_LIST, required=True))
define(Op.CONCATENATE, AttrSpec("dimensions", INT_LIST, required=True), check=one_dimension)
define(Op.SLICE, AttrSpec("slice", SLICE, required=True))
define(Op.PAD, AttrSpec("padding", PADDING, required=True))
define(Op.IOTA, AttrSpec("iota_dimension", INT, required=True))
define(Op.GET_DIMENSION_SIZE, AttrSpec("dimensions", INT_LIST, required=True), check=one_dimension)
define(Op.SET_DIMENSION_SIZE, AttrSpec("dimensions", INT_LIST, required=True), check=one_dimension)
define(Op.BITCAST)
define(Op.COPY)
define(Op.COPY_START, AttrSpec("cross_program_prefetch_index", INT32))
define(Op.COPY_DONE)


def _dynamic_slice_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if not operands:
        return "dynamic-slice expects at least one operand"
    rank = operands[0].rank if operands[0].is_array else 0
    n = len(operands)
    single_index = n == 2 and operands[1].is_array and operands[1].rank == 1
    if not single_index and n != 1 + rank:
        return (
            f"dynamic-slice of a rank-{rank} operand takes {1 + rank} operands (or an index vector), not {n}"
        )
    return None


def _dynamic_update_slice_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if len(operands) < 2:
        return "dynamic-update-slice expects at least two operands"
    rank = operands[0].rank if operands[0].is_array else 0
    n = len(operands)
    single_index = n == 3 and operands[2].is_array and operands[2].rank == 1
    if not single_index and n != 2 + rank:
        return f"dynamic-update-slice of a rank-{rank} operand takes {2 + rank} operands, not {n}"
    return None


define(
    Op.DYNAMIC_SLICE,
    AttrSpec("dynamic_slice_sizes", INT_LIST, required=True),
    check=_dynamic_slice_operands,
)
define(Op.DYNAMIC_UPDATE_SLICE, check=_dynamic_update_slice_operands)


def _dynamic_reshape_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    return None if operands else "dynamic-reshape requires at least one operand"


define(Op.DYNAMIC_RESHAPE, check=_dynamic_reshape_operands)


@shape_rule(Op.COPY)
def copy_shape(ctx: ShapeContext) -> Shape:
    return ctx.operands[0]


@shape_rule(Op.GET_DIMENSION_SIZE)
def get_dimension_size_shape(ctx: ShapeContext) -> Shape:
    (dim,) = ctx.attr("dimensions")
    operand = ctx.operands[0]
    if not operand.is_array or not 0 <= dim < operand.rank:
        raise ShapeError(f"get-dimension-size: dimension {dim} is out of range for {operand}")
    return Shape.scalar("s32")
