"""Reductions over windows: reduce-window and select-and-scatter (page 003: ReduceWindow,
ReduceWindowWithGeneralPadding, SelectAndScatter, SelectAndScatterWithGeneralPadding); their
attributes, shape rules (XLA's InferReduceWindowShape and InferSelectAndScatterShape plus its
verifier's HandleReduceWindow), builder functions and kernels. The reducer checks they share with
reduce are in reduce.py, window sizes and padding in windows.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import COMPUTATION, WINDOW
from ..ir.attrs import Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.services import spell
from ..numerics.computations import combiner, lifted
from ..numerics.reduction import reduce_window_fn
from ..numerics.select_scatter import select_and_scatter
from ..shape import UNBOUNDED, Shape
from .array_rules import dims_compatible, int_tuple, ints_text, require_ops
from .callee import embed, program, signature, text
from .reduce import (
    check_reducer,
    even_operands,
    input_and_init_ops,
    inputs_and_inits,
    like_type,
    no_mixed_precision,
    one_tuple,
    operand_roles,
    same_ignoring_precision,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of
from .windows import (
    make_padding,
    make_window,
    padding_pairs,
    padding_type,
    window_output_dims,
    window_printed,
)

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


define(
    Op.REDUCE_WINDOW,
    AttrSpec("window", WINDOW, default=Window(), printed=window_printed),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=even_operands,
)
define(
    Op.SELECT_AND_SCATTER,
    AttrSpec("window", WINDOW, default=Window(), printed=window_printed),
    AttrSpec("select", COMPUTATION, required=True),
    AttrSpec("scatter", COMPUTATION, required=True),
)


# -- windows ----------------------------------------------------------------------------------
def _window_shape(operand: Shape, window: Window, t: PrimitiveType) -> Shape:
    return Shape.array(
        t, window_output_dims(operand.dimensions, window), dynamic_dimensions=operand.dynamic_dimensions
    )


@shape_rule(Op.REDUCE_WINDOW)
def reduce_window_shape(ctx: ShapeContext) -> Shape:
    """One value per window position; each result has its init value's element type (as XLA
    infers it); a tuple when the reducer returns one (page 003's ReduceWindow)."""
    inputs, inits = inputs_and_inits(ctx)
    check_reducer(ctx, "to_apply", [s.element_type for s in inputs], inits)
    no_mixed_precision(ctx, "to_apply", operand_roles(inputs, inits))
    window = ctx.attr("window") or Window()
    results = [_window_shape(s, window, init.element_type) for s, init in zip(inputs, inits)]
    return results[0] if program(ctx, "to_apply")[2].is_array else Shape.make_tuple(results)


@shape_rule(Op.SELECT_AND_SCATTER)
def select_and_scatter_shape(ctx: ShapeContext) -> Shape:
    """The operand's shape: `select` (T, T) -> pred picks one element per window, `scatter`
    (T, T) -> T combines the source value into it; the source has one value per window
    (page 003's SelectAndScatter)."""
    operand = array_operand(ctx, 0, "operand")
    source = array_operand(ctx, 1, "source")
    init = array_operand(ctx, 2, "init_value")
    t = operand.element_type
    label, params, result = program(ctx, "select")
    form = f"{label} must be ({t.text}[], {t.text}[]) -> pred[] for operand {text(operand)}"
    sig = signature(params, result)
    if len(params) != 2:
        raise ShapeError(f"{form}: found {len(params)} parameters in {sig}")
    if not result.compatible(Shape.scalar(PrimitiveType.PRED)):
        raise ShapeError(f"{form}: found the result {text(result)} in {sig}")
    for k, p in enumerate(params):
        if not like_type(p, t):
            raise ShapeError(f"{form}: found parameter {k} {text(p)} in {sig}")
    check_reducer(ctx, "scatter", [source.element_type], [init])
    window = ctx.attr("window") or Window()
    expected = _window_shape(operand, window, t)
    if not dims_compatible(source, expected):
        raise ShapeError(
            f"operand 1 (source) must have one value per window, dimensions {list(expected.dimensions)} "
            f"for operand {text(operand)} and window={spell(WINDOW, window)}: found {text(source)}"
        )
    if not same_ignoring_precision(source.element_type, t):
        raise ShapeError(
            f"operand 1 (source) must have the element type of operand 0: found {text(operand)} and "
            f"{text(source)}"
        )
    return operand


# -- builder functions ---------------------------------------------------------------------
def _given(builder: XlaBuilder, name: str, values: Any, what: str, rank: int, fill: int) -> tuple[int, ...]:
    """An optional per-dimension list of XLA's window helpers: empty means `fill` everywhere."""
    items = int_tuple(builder, name, values if values is not None else (), what)
    return items if items else (fill,) * rank


def _general_window(
    builder: XlaBuilder,
    name: str,
    window_dimensions: Any,
    window_strides: Any,
    padding: Any,
    base_dilations: Any = None,
    window_dilations: Any = None,
) -> Window:
    """XLA's InferWindowFromDimensions: every list has one entry per window dimension, or is
    empty (strides and dilations 1, no padding)."""
    sizes = int_tuple(builder, name, window_dimensions, "window_dimensions")
    rank = len(sizes)
    strides = _given(builder, name, window_strides, "window_strides", rank, 1)
    pairs = padding_pairs(builder, name, padding, len(padding)) if padding else [(0, 0)] * rank
    base = _given(builder, name, base_dilations, "base_dilations", rank, 1)
    dilations = _given(builder, name, window_dilations, "window_dilations", rank, 1)
    return make_window(builder, name, sizes, strides, pairs, base, dilations)


def _same_or_valid(
    builder: XlaBuilder, name: str, operand: XlaOp, window_dimensions: Any, window_strides: Any, padding: Any
) -> tuple[tuple[int, ...], tuple[int, ...], list[tuple[int, int]]]:
    """(sizes, strides, padding pairs) for a "SAME" or "VALID" padding, after XLA's
    ValidatePaddingValues (one positive size and stride per operand dimension); MakePadding."""
    kind = padding_type(builder, name, padding)
    sizes = int_tuple(builder, name, window_dimensions, "window_dimensions")
    strides = int_tuple(builder, name, window_strides, "window_strides")
    shape = operand.shape
    dims = shape.dimensions if shape.is_array else ()
    if not shape.is_array or not len(dims) == len(sizes) == len(strides):
        raise builder.error(
            name,
            f"window_dimensions={ints_text(sizes)} and window_strides={ints_text(strides)} must have one "
            f"entry per dimension of the operand {text(shape)}",
        )
    for k, (size, stride) in enumerate(zip(sizes, strides)):
        if size <= 0 or stride <= 0:
            raise builder.error(
                name,
                f"window dimension {k} must have a positive size and stride: found size {size} and "
                f"stride {stride}",
            )
    if kind.name == "SAME" and UNBOUNDED in dims:
        raise builder.error(name, f'"SAME" padding needs bounded dimensions: found {text(shape)}')
    return sizes, strides, make_padding(dims, sizes, strides, kind)


@builder_function
def ReduceWindowWithGeneralPadding(
    operands: XlaOp | Sequence[XlaOp],
    init_values: XlaOp | Sequence[XlaOp],
    computation: XlaComputation,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    base_dilations: Sequence[int],
    window_dilations: Sequence[int],
    padding: Sequence[tuple[int, int]],
) -> XlaOp:
    """Reduce every window, with explicit (low, high) padding and dilations (XLA's form; empty
    lists mean strides and dilations of 1 and no padding)."""
    name = "ReduceWindowWithGeneralPadding"
    builder = builder_of(name, operands, init_values)
    all_operands = input_and_init_ops(builder, name, operands, init_values)
    window = _general_window(
        builder, name, window_dimensions, window_strides, padding, base_dilations, window_dilations
    )
    attrs = {"window": window, "to_apply": embed(builder, name, computation, "computation")}
    return builder.add(name, Op.REDUCE_WINDOW, all_operands, attrs)


@builder_function
def ReduceWindow(
    operands: XlaOp | Sequence[XlaOp],
    init_values: XlaOp | Sequence[XlaOp],
    computation: XlaComputation,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: str,
) -> XlaOp:
    """Reduce every window, with "SAME" or "VALID" padding (page 003). The padding is XLA's
    MakePadding of the operands' sizes (their bounds, for dynamic ones)."""
    name = "ReduceWindow"
    builder = builder_of(name, operands, init_values)
    all_operands = input_and_init_ops(builder, name, operands, init_values)
    for op in all_operands[: len(all_operands) // 2]:
        sizes, strides, pairs = _same_or_valid(builder, name, op, window_dimensions, window_strides, padding)
    window = make_window(builder, name, sizes, strides, pairs)
    attrs = {"window": window, "to_apply": embed(builder, name, computation, "computation")}
    return builder.add(name, Op.REDUCE_WINDOW, all_operands, attrs)


def _select_and_scatter(
    builder: XlaBuilder,
    name: str,
    operand: XlaOp,
    select: XlaComputation,
    window: Window,
    source: XlaOp,
    init_value: XlaOp,
    scatter: XlaComputation,
) -> XlaOp:
    require_ops(builder, name, operand=operand, source=source, init_value=init_value)
    attrs = {
        "window": window,
        "select": embed(builder, name, select, "select"),
        "scatter": embed(builder, name, scatter, "scatter"),
    }
    return builder.add(name, Op.SELECT_AND_SCATTER, (operand, source, init_value), attrs)


@builder_function
def SelectAndScatterWithGeneralPadding(
    operand: XlaOp,
    select: XlaComputation,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    source: XlaOp,
    init_value: XlaOp,
    scatter: XlaComputation,
) -> XlaOp:
    """Scatter `source` into the elements `select` picks in each window (explicit padding)."""
    name = "SelectAndScatterWithGeneralPadding"
    builder = builder_of(name, operand, source, init_value)
    window = _general_window(builder, name, window_dimensions, window_strides, padding)
    return _select_and_scatter(builder, name, operand, select, window, source, init_value, scatter)


@builder_function
def SelectAndScatter(
    operand: XlaOp,
    select: XlaComputation,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: str,
    source: XlaOp,
    init_value: XlaOp,
    scatter: XlaComputation,
) -> XlaOp:
    """SelectAndScatter with "SAME" or "VALID" padding (page 003)."""
    name = "SelectAndScatter"
    builder = builder_of(name, operand, source, init_value)
    require_ops(builder, name, operand=operand)
    sizes, strides, pairs = _same_or_valid(builder, name, operand, window_dimensions, window_strides, padding)
    window = make_window(builder, name, sizes, strides, pairs)
    return _select_and_scatter(builder, name, operand, select, window, source, init_value, scatter)


# -- kernels ---------------------------------------------------------------------------------
kernel(Op.REDUCE_WINDOW)(one_tuple(reduce_window_fn))


@kernel(Op.SELECT_AND_SCATTER)
def select_and_scatter_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    select = lifted(ctx, instr.attrs["select"], "select-and-scatter")
    combine_at, apply = combiner(ctx, instr.attrs["scatter"], "select-and-scatter")
    window = instr.attrs["window"]
    return lambda operand, source, init: select_and_scatter(
        operand, source, init, window, select, combine_at, apply
    )
