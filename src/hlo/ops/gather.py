"""Gather (page 003): slices of the operand at the start indices. Attributes, the shape rule as
XLA's InferGatherShape, the builder function and the kernel (numerics/indexing.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, INT, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.indexing import IndexMap, gather
from ..shape import UNBOUNDED, Shape
from .array_rules import int_tuple
from .gather_scatter import (
    GatherDimensionNumbers,
    check_batching,
    check_dims_in_range,
    dimension_numbers_attrs,
    index_vector_size,
)
from .registry import (
    AttrSpec,
    ShapeContext,
    builder_function,
    define,
    if_nonempty,
    if_true,
    kernel,
    shape_rule,
)
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
FAMILY = "gather_scatter"  # split out of gather_scatter.py: pictures colour its ops as that family's

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


@shape_rule(Op.GATHER)
def gather_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferGatherShape: the batch dimensions of the indices and the offset (slice)
    dimensions, placed at offset_dims."""
    operand = array_operand(ctx, 0, "operand")
    indices = array_operand(ctx, 1, "start_indices")
    offset = tuple(ctx.attr("offset_dims", ()))
    collapsed = tuple(ctx.attr("collapsed_slice_dims", ()))
    index_map = tuple(ctx.attr("start_index_map", ()))
    operand_batching = tuple(ctx.attr("operand_batching_dims", ()))
    indices_batching = tuple(ctx.attr("start_indices_batching_dims", ()))
    ivd = ctx.attr("index_vector_dim", indices.rank)
    sizes = tuple(ctx.attr("slice_sizes", ()))
    vector, batch_dims = index_vector_size(indices, ivd, "operand 1 (start_indices)")
    out_rank = len(offset) + len(batch_dims)
    check_dims_in_range(offset, "offset_dims", out_rank, f"a result of rank {out_rank}")
    check_dims_in_range(collapsed, "collapsed_slice_dims", operand.rank, str(operand))
    check_dims_in_range(operand_batching, "operand_batching_dims", operand.rank, str(operand))
    check_dims_in_range(index_map, "start_index_map", operand.rank, str(operand), sort=False)
    if set(collapsed) & set(operand_batching):
        raise ShapeError("collapsed_slice_dims and operand_batching_dims must not share a dimension")
    if set(index_map) & set(operand_batching):
        raise ShapeError("start_index_map and operand_batching_dims must not share a dimension")
    if len(index_map) != vector:
        raise ShapeError(
            f"start_index_map={list(index_map)} must have one entry per index vector element ({vector}, "
            f"dimension {ivd} of {indices})"
        )
    check_batching(
        operand_batching, indices_batching, operand, indices, ivd,
        ("operand_batching_dims", "start_indices_batching_dims"),
    )  # fmt: skip
    if len(sizes) != operand.rank:
        raise ShapeError(f"slice_sizes={list(sizes)} must have one size per dimension of {operand}")
    for d, (n, size) in enumerate(zip(operand.dimensions, sizes)):
        if size < 0 or (n != UNBOUNDED and size > n):
            raise ShapeError(f"slice_sizes[{d}]={size} must be between 0 and dimension {d} of {operand}")
    for d in collapsed + operand_batching:
        if sizes[d] > 1:
            raise ShapeError(f"slice_sizes[{d}]={sizes[d]} must be at most 1: dimension {d} is collapsed")
    kept = [sizes[d] for d in range(operand.rank) if d not in collapsed and d not in operand_batching]
    if len(kept) != len(offset):
        raise ShapeError(
            f"offset_dims={list(offset)} must name one result dimension per slice dimension that is not "
            f"collapsed or batching ({len(kept)})"
        )
    dims: list[int] = []
    dynamic: list[bool] = []
    batch = iter(batch_dims)
    window = iter(kept)
    for d in range(out_rank):
        if d in offset:
            dims.append(next(window))
            dynamic.append(False)
        else:
            b = next(batch)
            dims.append(indices.dimensions[b])
            dynamic.append(indices.dynamic_dimensions[b])
    return Shape.array(operand.element_type, dims, dynamic_dimensions=dynamic)


@builder_function
def Gather(
    input: XlaOp,
    start_indices: XlaOp,
    dimension_numbers: GatherDimensionNumbers | dict[str, Any],
    slice_sizes: Sequence[int],
    indices_are_sorted: bool = False,
) -> XlaOp:
    """Slices of `input` at the start indices (page 003's Gather)."""
    builder = builder_of("Gather", input, start_indices)
    attrs = dimension_numbers_attrs(builder, "Gather", dimension_numbers, GatherDimensionNumbers)
    attrs["slice_sizes"] = int_tuple(builder, "Gather", slice_sizes, "slice_sizes")
    attrs["indices_are_sorted"] = bool(indices_are_sorted)
    return builder.add("Gather", Op.GATHER, (input, start_indices), attrs)


@kernel(Op.GATHER)
def gather_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    a = instr.attrs
    index_map = IndexMap(
        a["index_vector_dim"], tuple(a["start_index_map"]),
        tuple(a.get("operand_batching_dims", ())), tuple(a.get("start_indices_batching_dims", ())),
    )  # fmt: skip
    offset, collapsed, sizes = (
        tuple(a["offset_dims"]),
        tuple(a["collapsed_slice_dims"]),
        tuple(a["slice_sizes"]),
    )
    return lambda operand, indices: gather(operand, indices, index_map, offset, collapsed, sizes)
