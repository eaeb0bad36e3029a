"""Gather and scatter: their dimension numbers are written as separate attributes, read back into
typed values by `gather_dimension_numbers` / `scatter_dimension_numbers`."""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import BOOL, COMPUTATION, INT, INT_LIST
from .registry import AttrSpec, define, if_nonempty, if_true

Op = Opcode


@dataclass(frozen=True)
class GatherDimensionNumbers:
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    index_vector_dim: int
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScatterDimensionNumbers:
    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    index_vector_dim: int
    input_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


def gather_dimension_numbers(instr: Instruction) -> GatherDimensionNumbers:
    return GatherDimensionNumbers(**{f: instr.attrs[f] for f in GatherDimensionNumbers.__dataclass_fields__})


def scatter_dimension_numbers(instr: Instruction) -> ScatterDimensionNumbers:
    return ScatterDimensionNumbers(
        **{f: instr.attrs[f] for f in ScatterDimensionNumbers.__dataclass_fields__}
    )


define(
    Op.GATHER,
    AttrSpec("offset_dims", INT_LIST, required=True),
    AttrSpec("collapsed_slice_dims", INT_LIST, required=True),
    AttrSpec("start_index_map", INT_LIST, required=True),
    AttrSpec("operand_batching_dims", INT_LIST, default=(), printed=if_nonempty),
    AttrSpec("start_indices_batching_dims", INT_LIST, default=(), printed=if_nonempty),
    AttrSpec("index_vector_dim", INT, required=True),
    AttrSpec("slice_sizes", INT_LIST, required=True),
    AttrSpec("indices_are_sorted", BOOL, default=False, printed=if_true),
)


def _odd_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if len(operands) % 2 == 0:
        return f"scatter expects an odd number of operands, but has {len(operands)} operands"
    return None


define(
    Op.SCATTER,
    AttrSpec("update_window_dims", INT_LIST, required=True),
    AttrSpec("inserted_window_dims", INT_LIST, required=True),
    AttrSpec("scatter_dims_to_operand_dims", INT_LIST, required=True),
    AttrSpec("input_batching_dims", INT_LIST, default=(), printed=if_nonempty),
    AttrSpec("scatter_indices_batching_dims", INT_LIST, default=(), printed=if_nonempty),
    AttrSpec("index_vector_dim", INT, required=True),
    AttrSpec("indices_are_sorted", BOOL, default=False, printed=if_true),
    AttrSpec("unique_indices", BOOL, default=False, printed=if_true),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_odd_operands,
)
