"""Scatter (page 003): updates combined into the operands at the scatter indices by a computation,
one operand or several (the variadic form). Attributes, the shape rule as XLA's
InferScatterShape, the builder function and the kernel (numerics/scatter.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, COMPUTATION, INT, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.computations import combiner, combiner_kind, lifted
from ..numerics.indexing import IndexMap
from ..numerics.scatter import scatter, scatter_loop_arguments
from ..shape import UNBOUNDED, Shape
from .array_rules import require_ops
from .callee import embed
from .gather_scatter import (
    ScatterDimensionNumbers,
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
    from ..builder import XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
FAMILY = "gather_scatter"  # split out of gather_scatter.py: pictures colour its ops as that family's


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
    vector, batch_dims = index_vector_size(indices, ivd, f"operand {n} (scatter_indices)")
    check_dims_in_range(window_dims, "update_window_dims", update.rank, str(update))
    check_dims_in_range(inserted, "inserted_window_dims", operand.rank, str(operand))
    check_dims_in_range(input_batching, "input_batching_dims", operand.rank, str(operand))
    check_dims_in_range(to_operand, "scatter_dims_to_operand_dims", operand.rank, str(operand), sort=False)
    if set(inserted) & set(input_batching):
        raise ShapeError("inserted_window_dims and input_batching_dims must not share a dimension")
    if len(to_operand) != vector:
        raise ShapeError(
            f"scatter_dims_to_operand_dims={list(to_operand)} must have one entry per index vector element "
            f"({vector})"
        )
    check_batching(
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
    attrs = dimension_numbers_attrs(builder, "Scatter", dimension_numbers, ScatterDimensionNumbers)
    attrs["indices_are_sorted"] = bool(indices_are_sorted)
    attrs["unique_indices"] = bool(unique_indices)
    attrs["to_apply"] = embed(builder, "Scatter", update_computation, "update_computation")
    return builder.add("Scatter", Op.SCATTER, (*inputs, scatter_indices, *news), attrs)


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

    if n == 1 and combine_at is not None and not index_map.operand_batching:
        return _compiled(instr, ctx, run, index_map, window, inserted) or run
    return run


# jit="auto" compiles scatters of at least this many update elements: numba's start and the
# compilation take about a second of the interpreter's GIL in the background, more than a small
# scatter can ever win back (jit="eager" compiles every one the tier takes).
AUTO_MIN_ELEMENTS = 1 << 20


def _compiled(
    instr: Instruction,
    ctx: KernelContext,
    interpreted: Callable[..., Any],
    index_map: IndexMap,
    window: tuple[int, ...],
    inserted: tuple[int, ...],
) -> Callable[..., Any] | None:
    """The scatter with the compiled tier (hlo.numerics.scatter_tier) when it may take it: a
    combiner it knows over an element type it computes, jit not "off", numba installed."""
    from ..numerics import loop_tier, scatter_tier

    mode = ctx.options.jit
    kind = combiner_kind(ctx, instr.attrs["to_apply"])
    operand, _, update = ctx.operand_shapes(instr)
    if mode == "off" or kind is None or not loop_tier.numba_installed():
        return None
    if scatter_tier.expression(kind, np.dtype(operand.element_type.numpy_dtype)) is None:
        return None
    if mode != "eager" and update.element_count < AUTO_MIN_ELEMENTS:
        return None

    def prepare(a: np.ndarray, i: np.ndarray, u: np.ndarray) -> tuple[Any, ...]:
        return scatter_loop_arguments(a, i, u, index_map, window, inserted)

    return scatter_tier.CompiledScatter(
        kind, interpreted, prepare, ctx.options.flush_denormals, mode == "eager"
    )
