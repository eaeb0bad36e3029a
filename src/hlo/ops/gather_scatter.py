"""Gather and scatter: their dimension numbers are written as separate attributes, read back into
typed values by `gather_dimension_numbers` / `scatter_dimension_numbers`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, COMPUTATION, INT, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.computations import combiner, lifted
from ..numerics.indexing import IndexMap, gather, scatter
from ..shape import UNBOUNDED, Shape
from .array_rules import int_tuple, require_ops
from .callee import embed
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
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

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


# -- shape rules ------------------------------------------------------------------------------
def _sorted_unique(dims: tuple[int, ...], what: str, limit: int, of: str, sort: bool = True) -> None:
    for d in dims:
        if not 0 <= d < limit:
            raise ShapeError(f"{what}={list(dims)} holds {d}, out of range for {of}")
    if len(set(dims)) != len(dims):
        raise ShapeError(f"{what}={list(dims)} repeats a dimension")
    if sort and list(dims) != sorted(dims):
        raise ShapeError(f"{what}={list(dims)} must be sorted")


def _index_vector_size(indices: Shape, index_vector_dim: int, what: str) -> tuple[int, list[int]]:
    """The size of the index vectors and the batch dimensions of the indices."""
    if not indices.element_type.is_integral:
        raise ShapeError(f"{what} must be of an integer type: found {indices}")
    if not 0 <= index_vector_dim <= indices.rank:
        raise ShapeError(f"index_vector_dim={index_vector_dim} is out of range for {what} {indices}")
    if index_vector_dim == indices.rank:
        return 1, list(range(indices.rank))
    return indices.dimensions[index_vector_dim], [d for d in range(indices.rank) if d != index_vector_dim]


def _check_batching(
    operand_dims: tuple[int, ...],
    indices_dims: tuple[int, ...],
    operand: Shape,
    indices: Shape,
    index_vector_dim: int,
    names: tuple[str, str],
) -> None:
    if len(operand_dims) != len(indices_dims):
        raise ShapeError(f"{names[0]}={list(operand_dims)} and {names[1]}={list(indices_dims)} must pair up")
    _sorted_unique(indices_dims, names[1], indices.rank, str(indices), sort=False)
    if index_vector_dim in indices_dims:
        raise ShapeError(f"{names[1]}={list(indices_dims)} must not hold index_vector_dim={index_vector_dim}")
    for a, b in zip(operand_dims, indices_dims):
        if operand.dimensions[a] != indices.dimensions[b]:
            raise ShapeError(
                f"batching dimension {a} of {operand} and dimension {b} of {indices} must have the same size"
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
    vector, batch_dims = _index_vector_size(indices, ivd, "operand 1 (start_indices)")
    out_rank = len(offset) + len(batch_dims)
    _sorted_unique(offset, "offset_dims", out_rank, f"a result of rank {out_rank}")
    _sorted_unique(collapsed, "collapsed_slice_dims", operand.rank, str(operand))
    _sorted_unique(operand_batching, "operand_batching_dims", operand.rank, str(operand))
    _sorted_unique(index_map, "start_index_map", operand.rank, str(operand), sort=False)
    if set(collapsed) & set(operand_batching):
        raise ShapeError("collapsed_slice_dims and operand_batching_dims must not share a dimension")
    if set(index_map) & set(operand_batching):
        raise ShapeError("start_index_map and operand_batching_dims must not share a dimension")
    if len(index_map) != vector:
        raise ShapeError(
            f"start_index_map={list(index_map)} must have one entry per index vector element ({vector}, "
            f"dimension {ivd} of {indices})"
        )
    _check_batching(
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


@shape_rule(Op.SCATTER)
def scatter_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferScatterShape: the operands' shapes (a tuple for several), after checking the
    updates against the indices and the update computation against the operand types."""
    from .reduce import check_reducer

    n = (len(ctx.operands) - 1) // 2
    operands = [array_operand(ctx, k, f"operand {k}") for k in range(n)]
    indices = array_operand(ctx, n, "scatter_indices")
    updates = [array_operand(ctx, n + 1 + k, f"updates {k}") for k in range(n)]
    window_dims = tuple(ctx.attr("update_window_dims", ()))
    inserted = tuple(ctx.attr("inserted_window_dims", ()))
    to_operand = tuple(ctx.attr("scatter_dims_to_operand_dims", ()))
    input_batching = tuple(ctx.attr("input_batching_dims", ()))
    indices_batching = tuple(ctx.attr("scatter_indices_batching_dims", ()))
    ivd = ctx.attr("index_vector_dim", indices.rank)
    operand, update = operands[0], updates[0]
    for k in range(1, n):
        if operands[k].dimensions != operand.dimensions:
            raise ShapeError(
                f"operand {k} must have the dimensions of operand 0: found {operand} and {operands[k]}"
            )
        if updates[k].dimensions != update.dimensions:
            raise ShapeError(
                f"updates {k} must have the dimensions of updates 0: found {update} and {updates[k]}"
            )
    vector, batch_dims = _index_vector_size(indices, ivd, f"operand {n} (scatter_indices)")
    _sorted_unique(window_dims, "update_window_dims", update.rank, str(update))
    _sorted_unique(inserted, "inserted_window_dims", operand.rank, str(operand))
    _sorted_unique(input_batching, "input_batching_dims", operand.rank, str(operand))
    _sorted_unique(to_operand, "scatter_dims_to_operand_dims", operand.rank, str(operand), sort=False)
    if set(inserted) & set(input_batching):
        raise ShapeError("inserted_window_dims and input_batching_dims must not share a dimension")
    if len(to_operand) != vector:
        raise ShapeError(
            f"scatter_dims_to_operand_dims={list(to_operand)} must have one entry per index vector element "
            f"({vector})"
        )
    _check_batching(
        input_batching, indices_batching, operand, indices, ivd,
        ("input_batching_dims", "scatter_indices_batching_dims"),
    )  # fmt: skip
    if len(window_dims) + len(inserted) + len(input_batching) != operand.rank:
        raise ShapeError(
            f"update_window_dims ({len(window_dims)}), inserted_window_dims ({len(inserted)}) and "
            f"input_batching_dims ({len(input_batching)}) must add up to the rank of {operand}"
        )
    scatter_dims = [d for d in range(update.rank) if d not in window_dims]
    if len(scatter_dims) != len(batch_dims):
        raise ShapeError(
            f"updates {update} must have {len(batch_dims)} scatter dimensions (those of {indices} but "
            f"index_vector_dim): found {len(scatter_dims)}"
        )
    for u, b in zip(scatter_dims, batch_dims):
        if update.dimensions[u] != indices.dimensions[b]:
            raise ShapeError(f"dimension {u} of updates {update} must match dimension {b} of {indices}")
    window_operand_dims = [d for d in range(operand.rank) if d not in inserted and d not in input_batching]
    for u, d in zip(window_dims, window_operand_dims):
        if update.dimensions[u] > operand.dimensions[d] and operand.dimensions[d] != UNBOUNDED:
            raise ShapeError(
                f"update window dimension {u} of {update} is larger than dimension {d} of {operand}"
            )
    check_reducer(ctx, "to_apply", [u.element_type for u in updates])
    return operands[0] if n == 1 else Shape.make_tuple(operands)


# -- builder functions ------------------------------------------------------------------------
def _numbers(builder: XlaBuilder, op_name: str, numbers: Any, kind: type) -> dict[str, Any]:
    if isinstance(numbers, dict):
        try:
            numbers = kind(**numbers)
        except TypeError as e:
            raise builder.error(op_name, f"dimension_numbers: {e}") from None
    if not isinstance(numbers, kind):
        raise builder.error(op_name, f"dimension_numbers must be a {kind.__name__}: found {numbers!r}")
    attrs: dict[str, Any] = {}
    for field in kind.__dataclass_fields__:  # type: ignore[attr-defined]
        value = getattr(numbers, field)
        attrs[field] = value if field == "index_vector_dim" else int_tuple(builder, op_name, value, field)
    return attrs


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
    attrs = _numbers(builder, "Gather", dimension_numbers, GatherDimensionNumbers)
    attrs["slice_sizes"] = int_tuple(builder, "Gather", slice_sizes, "slice_sizes")
    attrs["indices_are_sorted"] = bool(indices_are_sorted)
    return builder.add("Gather", Op.GATHER, (input, start_indices), attrs)


@builder_function
def Scatter(
    input: XlaOp | Sequence[XlaOp],
    scatter_indices: XlaOp,
    updates: XlaOp | Sequence[XlaOp],
    update_computation: XlaComputation,
    dimension_numbers: ScatterDimensionNumbers | dict[str, Any],
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
) -> XlaOp:
    """Combine `updates` into `input` at the scatter indices with `update_computation`; several
    inputs and updates make the variadic form (page 003)."""
    inputs = tuple(input) if isinstance(input, list | tuple) else (input,)
    news = tuple(updates) if isinstance(updates, list | tuple) else (updates,)
    builder = builder_of("Scatter", scatter_indices)
    require_ops(builder, "Scatter", input=inputs, updates=news)
    if len(inputs) != len(news) or not inputs:
        raise builder.error(
            "Scatter", f"needs one updates array per input: found {len(inputs)} and {len(news)}"
        )
    attrs = _numbers(builder, "Scatter", dimension_numbers, ScatterDimensionNumbers)
    attrs["indices_are_sorted"] = bool(indices_are_sorted)
    attrs["unique_indices"] = bool(unique_indices)
    attrs["to_apply"] = embed(builder, "Scatter", update_computation, "update_computation")
    return builder.add("Scatter", Op.SCATTER, (*inputs, scatter_indices, *news), attrs)


# -- kernels ---------------------------------------------------------------------------------
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


@kernel(Op.SCATTER)
def scatter_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    a = instr.attrs
    index_map = IndexMap(
        a["index_vector_dim"], tuple(a["scatter_dims_to_operand_dims"]),
        tuple(a.get("input_batching_dims", ())), tuple(a.get("scatter_indices_batching_dims", ())),
    )  # fmt: skip
    window, inserted = tuple(a["update_window_dims"]), tuple(a["inserted_window_dims"])
    n = (len(instr.operands) - 1) // 2
    combine_at, apply = combiner(ctx, a["to_apply"], "scatter") if n == 1 else (None, None)
    if n > 1:
        apply = lifted(ctx, a["to_apply"], "scatter")

    def run(*xs: np.ndarray) -> Any:
        results = scatter(xs[:n], xs[n], xs[n + 1 :], index_map, window, inserted, combine_at, apply)
        return results[0] if n == 1 else tuple(results)

    return run
