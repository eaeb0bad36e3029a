"""Slices (page 003: Slice, SliceInDim, DynamicSlice, DynamicUpdateSlice): shape rules with
dynamic dimensions carried as XLA's shape_inference.cc carries them, builder functions and
kernels. Concatenate and pad are in concat_pad.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST, SLICE
from ..ir.attrs import SliceRange
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape
from .array_rules import (
    int_tuple,
    ints_text,
    is_bounded_dynamic,
    require_ops,
    same_type_ignoring_fp,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


# -- slice ------------------------------------------------------------------------------------
define(Op.SLICE, AttrSpec("slice", SLICE, required=True))


@shape_rule(Op.SLICE)
def slice_shape(ctx: ShapeContext) -> Shape:
    """Each dimension [start:limit:stride] within the operand; a slice of a bounded dynamic
    dimension stays dynamic unless it takes one element."""
    operand = array_operand(ctx, 0)
    ranges: tuple[SliceRange, ...] = tuple(ctx.attr("slice", ()))
    if len(ranges) != operand.rank:
        raise ShapeError(
            f"slice= must give one [start:limit:stride] per dimension of {operand}: found {len(ranges)}"
        )
    sizes: list[int] = []
    dynamic: list[bool] = []
    for i, r in enumerate(ranges):
        found = f"found [{r.start}:{r.limit}:{r.stride}] for {operand}"
        size = operand.dimensions[i]
        if r.start < 0:
            raise ShapeError(f"slice= dimension {i} must start at 0 or later: {found}")
        if size != UNBOUNDED and r.limit > size:
            raise ShapeError(f"slice= dimension {i} must end within the dimension's size {size}: {found}")
        if r.start > r.limit:
            raise ShapeError(f"slice= dimension {i} must not end before it starts: {found}")
        if r.stride <= 0:
            raise ShapeError(f"slice= dimension {i} must have a positive stride: {found}")
        n = -(-(r.limit - r.start) // r.stride)
        sizes.append(n)
        dynamic.append(n != 1 and is_bounded_dynamic(operand, i))
    return Shape.array(operand.element_type, sizes, dynamic_dimensions=dynamic)


@builder_function
def Slice(
    operand: XlaOp,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int] | None = None,
) -> XlaOp:
    """The sub-array from `start_indices` up to (not including) `limit_indices`, taking every
    strides[d]-th element (page 003; strides default to 1, as in the page's examples)."""
    builder = builder_of("Slice", operand)
    starts = int_tuple(builder, "Slice", start_indices, "start_indices")
    limits = int_tuple(builder, "Slice", limit_indices, "limit_indices")
    steps = int_tuple(builder, "Slice", strides, "strides") if strides is not None else (1,) * len(starts)
    if not len(starts) == len(limits) == len(steps):
        raise builder.error(
            "Slice",
            f"start_indices={ints_text(starts)}, limit_indices={ints_text(limits)} "
            f"and strides={ints_text(steps)} "
            "must have equal lengths",
        )
    ranges = tuple(SliceRange(*r) for r in zip(starts, limits, steps))
    return builder.add("Slice", Op.SLICE, (operand,), {"slice": ranges})


@builder_function
def SliceInDim(operand: XlaOp, start_index: int, limit_index: int, stride: int, dimno: int) -> XlaOp:
    """A slice of dimension `dimno` only, the others whole (page 003)."""
    builder = builder_of("SliceInDim", operand)
    require_ops(builder, "SliceInDim", operand=operand)
    s = operand.shape
    if not s.is_array or not 0 <= dimno < s.rank:
        raise builder.error("SliceInDim", f"dimno={dimno} is not a dimension of the operand {s}")
    starts, limits, steps = [0] * s.rank, list(s.dimensions), [1] * s.rank
    starts[dimno], limits[dimno], steps[dimno] = start_index, limit_index, stride
    ranges = tuple(SliceRange(*r) for r in zip(starts, limits, steps))
    return builder.add("SliceInDim", Op.SLICE, (operand,), {"slice": ranges})


# -- dynamic-slice, dynamic-update-slice ------------------------------------------------------
def _index_count(first: int) -> Callable[[Instruction, tuple[Shape, ...]], str | None]:
    """Parse-time check: the array, then one index vector or one scalar index per dimension."""

    def check(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
        if len(operands) < first:
            return f"expects at least {first} operand{'s' if first > 1 else ''}: found {len(operands)}"
        rank = operands[0].rank if operands[0].is_array else 0
        indices = operands[first:]
        if len(indices) == 1 and indices[0].is_array and indices[0].rank == 1:
            return None
        if len(indices) != rank:
            return (
                f"expects {first + rank} operands (or {first + 1} with an index vector) "
                f"for a rank-{rank} operand: found {len(operands)}"
            )
        return None

    return check


def check_start_indices(ctx: ShapeContext, first: int, operand: Shape) -> None:
    """Operands `first`... are one rank-1 integer vector with an entry per dimension of `operand`,
    or one integer scalar per dimension, all of one type (XLA's dynamic-slice index rules)."""
    indices = ctx.operands[first:]
    if indices and indices[0].is_array and indices[0].rank == 1:
        vector = indices[0]
        if len(indices) != 1:
            raise ShapeError(
                f"an index vector (operand {first}, {vector}) must be the only start-index operand: "
                f"found {len(indices)}"
            )
        if not vector.element_type.is_integral:
            raise ShapeError(f"operand {first} (start indices) must be of an integer type: found {vector}")
        if vector.dimensions[0] not in (operand.rank, UNBOUNDED):
            raise ShapeError(
                f"operand {first} (start indices) must have one entry per dimension of {operand}: "
                f"found {vector}"
            )
        return
    if len(indices) != operand.rank:
        raise ShapeError(f"expects one scalar start index per dimension of {operand}: found {len(indices)}")
    for k, s in enumerate(indices, first):
        if not (s.is_array and s.rank == 0 and s.element_type.is_integral):
            raise ShapeError(f"operand {k} (a start index) must be an integer scalar: found {s}")
        if s.element_type is not indices[0].element_type:
            raise ShapeError(
                f"operand {k} (a start index) must have the type of operand {first}: "
                f"found {indices[0]} and {s}"
            )


define(Op.DYNAMIC_SLICE, AttrSpec("dynamic_slice_sizes", INT_LIST, required=True), check=_index_count(1))
define(Op.DYNAMIC_UPDATE_SLICE, check=_index_count(2))


@shape_rule(Op.DYNAMIC_SLICE)
def dynamic_slice_shape(ctx: ShapeContext) -> Shape:
    """A window of `dynamic_slice_sizes` at runtime start indices; a dynamic dimension stays
    dynamic when the window covers it whole."""
    operand = array_operand(ctx, 0)
    check_start_indices(ctx, 1, operand)
    sizes = tuple(ctx.attr("dynamic_slice_sizes", ()))
    if len(sizes) != operand.rank:
        raise ShapeError(
            f"dynamic_slice_sizes={ints_text(sizes)} must give one size per dimension of {operand}"
        )
    for i, (n, d) in enumerate(zip(sizes, operand.dimensions)):
        if n < 0 or (d != UNBOUNDED and n > d):
            raise ShapeError(
                f"dynamic_slice_sizes={ints_text(sizes)} must be sizes within the operand's: "
                f"found {n} for dimension {i} of {operand}"
            )
    dynamic = [
        operand.dynamic_dimensions[i] and n > 1 and n == operand.dimensions[i] for i, n in enumerate(sizes)
    ]
    return Shape.array(operand.element_type, sizes, dynamic_dimensions=dynamic)


@shape_rule(Op.DYNAMIC_UPDATE_SLICE)
def dynamic_update_slice_shape(ctx: ShapeContext) -> Shape:
    """The operand, with `update` written at runtime start indices."""
    operand, update = array_operand(ctx, 0, "operand"), array_operand(ctx, 1, "update")
    check_start_indices(ctx, 2, operand)
    if update.rank != operand.rank:
        raise ShapeError(f"operand 1 (update) must have the rank of operand 0: found {operand} and {update}")
    if not same_type_ignoring_fp(operand, update):
        raise ShapeError(
            f"operand 1 (update) must have the element type of operand 0: found {operand} and {update}"
        )
    for i, (u, d) in enumerate(zip(update.dimensions, operand.dimensions)):
        if d != UNBOUNDED and u > d:
            raise ShapeError(
                f"operand 1 (update) must fit in operand 0: found {operand} and {update}, dimension {i}"
            )
    dynamic = tuple(
        operand.dynamic_dimensions[i]
        or (update.dynamic_dimensions[i] and update.dimensions[i] == operand.dimensions[i])
        for i in range(operand.rank)
    )
    return operand if dynamic == operand.dynamic_dimensions else operand.replace(dynamic_dimensions=dynamic)


def _indices(builder: XlaBuilder, op_name: str, start_indices: XlaOp | Sequence[XlaOp]) -> tuple[XlaOp, ...]:
    from .handles import XlaOp

    indices = (start_indices,) if isinstance(start_indices, XlaOp) else tuple(start_indices)
    require_ops(builder, op_name, start_indices=indices)
    return indices


@builder_function
def DynamicSlice(operand: XlaOp, start_indices: Sequence[XlaOp], size_indices: Sequence[int]) -> XlaOp:
    """The sub-array of `size_indices` at runtime `start_indices` (one integer scalar per
    dimension; an s32 vector is accepted too), clamped into the operand (page 003)."""
    builder = builder_of("DynamicSlice", operand)
    indices = _indices(builder, "DynamicSlice", start_indices)
    sizes = int_tuple(builder, "DynamicSlice", size_indices, "size_indices")
    return builder.add("DynamicSlice", Op.DYNAMIC_SLICE, (operand, *indices), {"dynamic_slice_sizes": sizes})


@builder_function
def DynamicUpdateSlice(operand: XlaOp, update: XlaOp, start_indices: Sequence[XlaOp]) -> XlaOp:
    """The operand with `update` written at runtime `start_indices`, clamped in (page 003)."""
    builder = builder_of("DynamicUpdateSlice", operand)
    indices = _indices(builder, "DynamicUpdateSlice", start_indices)
    return builder.add("DynamicUpdateSlice", Op.DYNAMIC_UPDATE_SLICE, (operand, update, *indices))


# -- kernels ----------------------------------------------------------------------------------
def clamped_starts(starts: Sequence[np.ndarray], room: Sequence[int]) -> tuple[int, ...]:
    """Start indices clamped into [0, room] per dimension, as XLA clamps them (an unsigned index
    is read as unsigned)."""
    return tuple(min(max(int(s), 0), r) for s, r in zip(starts, room))


@kernel(Op.SLICE)
def slice_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    index = tuple(slice(r.start, r.limit, r.stride) for r in instr.attrs["slice"])
    return lambda x: x[index]


@kernel(Op.DYNAMIC_SLICE)
def dynamic_slice_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    sizes = tuple(instr.attrs["dynamic_slice_sizes"])

    def run(x: np.ndarray, *starts: np.ndarray) -> np.ndarray:
        begin = clamped_starts(starts, [d - s for d, s in zip(x.shape, sizes)])
        return x[tuple(slice(b, b + s) for b, s in zip(begin, sizes))]

    return run


@kernel(Op.DYNAMIC_UPDATE_SLICE)
def dynamic_update_slice_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    def run(x: np.ndarray, update: np.ndarray, *starts: np.ndarray) -> np.ndarray:
        begin = clamped_starts(starts, [d - u for d, u in zip(x.shape, update.shape)])
        out = x.copy()
        out[tuple(slice(b, b + u) for b, u in zip(begin, update.shape))] = update
        return out

    return run
