"""Reductions and ops over windows: reduce, reduce-window, select-and-scatter and map; their
attributes, shape rules, builder functions and kernels (sort and top-k are in sort.py, scan in
scan.py).

The rules are XLA's shape inference (shape_inference.cc: InferReduceShape,
InferReduceWindowShape, InferSelectAndScatterShape, InferMapShape) plus what XLA's HloVerifier
adds to it (HandleReduce, HandleReduceWindow, HandleMap); the builder, the parser and the
verifier share them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..engine.computations import combiner, lifted
from ..engine.reduction import reduce_fn, reduce_window_fn
from ..engine.select_scatter import select_and_scatter
from ..errors import ShapeError
from ..ir.attrs import Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape
from ..text.attr_codecs import COMPUTATION, INT_LIST, WINDOW, print_window
from .array_rules import dims_compatible, int_tuple, ints_text, require_ops
from .callee import embed, program, signature, text
from .registry import (
    AttrSpec,
    OpContext,
    ShapeContext,
    builder_function,
    define,
    kernel,
    shape_rule,
)
from .rule_helpers import array_operand, builder_of
from .windows import make_padding, make_window, padding_pairs, padding_type, window_output_dims

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..engine.plan import KernelContext

Op = Opcode


# -- attributes -------------------------------------------------------------------------------
def _even_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if len(operands) % 2:
        return f"{instr.opcode.text} expects an even number of operands, but has {len(operands)} operands"
    if instr.opcode is Op.REDUCE_WINDOW and not operands:
        return "reduce-window expects at least one input and init operand"
    return None


def _window_printed(value: object, ctx: OpContext) -> bool:
    # XLA leaves out `window=` when the window has no dimensions (rank-0 operands).
    return bool(getattr(value, "dimensions", ()))


define(
    Op.REDUCE,
    AttrSpec("dimensions", INT_LIST, required=True),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_even_operands,
)
define(
    Op.REDUCE_WINDOW,
    AttrSpec("window", WINDOW, default=Window(), printed=_window_printed),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_even_operands,
)
define(
    Op.SELECT_AND_SCATTER,
    AttrSpec("window", WINDOW, default=Window(), printed=_window_printed),
    AttrSpec("select", COMPUTATION, required=True),
    AttrSpec("scatter", COMPUTATION, required=True),
)


def _map_dimensions(ctx: OpContext) -> tuple[int, ...] | None:
    # XLA prints map's dimensions as {0, ..., rank-1} of the result, whatever was written.
    return tuple(range(ctx.shape.rank)) if ctx.shape is not None and ctx.shape.is_array else None


def _map_finish(instr: Instruction) -> Instruction:
    """XLA's HloMapInstruction keeps dimensions {0..rank-1} of its result whatever the text says
    (the written ones only matter when the result shape is left to inference)."""
    if instr.shape.is_array:
        dims = tuple(range(instr.shape.rank))
        if instr.attrs.get("dimensions") != dims:
            return instr.with_attr("dimensions", dims)
    return instr


define(
    Op.MAP,
    AttrSpec("dimensions", INT_LIST, default=_map_dimensions),
    AttrSpec("to_apply", COMPUTATION, required=True),
    arity=None,
).finish = _map_finish


# -- helpers of the rules ---------------------------------------------------------------------
def maybe_tuple(shapes: list[Shape]) -> Shape:
    return shapes[0] if len(shapes) == 1 else Shape.make_tuple(shapes)


def _type_text(t: PrimitiveType) -> str:
    """`f32[]`, and for floating-point types the precision XLA's shape inference ignores."""
    return f"{t.text}[]" + (" (any floating-point type)" if t.is_floating_point else "")


def _like(shape: Shape, t: PrimitiveType) -> bool:
    """`shape` is a scalar of type `t`, ignoring floating-point precision (XLA's
    CompatibleIgnoringFpPrecision against a scalar)."""
    return shape.is_array and shape.rank == 0 and _same_ignoring_precision(shape.element_type, t)


def _same_ignoring_precision(a: PrimitiveType, b: PrimitiveType) -> bool:
    """XLA's SameElementTypeIgnoringFpPrecision: equal, or both floating point (not complex)."""
    return a is b or (a.is_floating_point and b.is_floating_point)


def check_reducer(
    ctx: ShapeContext, attr: str, inputs: Sequence[PrimitiveType], inits: Sequence[Shape] | None = None
) -> list[PrimitiveType]:
    """XLA's VerifyReducerShape: a computation of 2N scalars (accumulators T0..TN-1, then values
    of the inputs' types) returning the N accumulators (a tuple when N > 1; N = 1 may return a
    scalar or a 1-tuple); the init values, when given, are scalars of the accumulator types.
    Floating-point precisions may differ where XLA's inference lets them (values and init
    values), never between an accumulator parameter and the result. The accumulator types."""
    label, params, result = program(ctx, attr)
    n = len(inputs)
    op = ctx.opcode.text
    sig = signature(params, result)
    want = ", ".join([f"T{k}[]" for k in range(n)] * 2)
    if len(params) != 2 * n:
        raise ShapeError(
            f"{label} must take {2 * n} parameters ({want}) for {n} input{'s' if n > 1 else ''} of {op}: "
            f"found {sig}"
        )
    if result.is_array:
        if n != 1:
            raise ShapeError(
                f"{label} must return a tuple of {n} scalars, one per input of {op}: found {sig}"
            )
        results = [result]
    elif result.is_tuple:
        results = list(result.tuple_shapes)
        if len(results) != n:
            raise ShapeError(
                f"{label} must return {n} scalar{'s' if n > 1 else ''}, one per input of {op}: found {sig}"
            )
    else:
        raise ShapeError(f"{label} must return a scalar or a tuple of scalars: found {sig}")
    for r in results:
        if not r.is_array or r.rank != 0:
            raise ShapeError(f"{label} must return scalars: found {sig}")
    types = []
    for k, r in enumerate(results):
        t = r.element_type
        acc, value = params[k], params[n + k]
        if not acc.compatible(r):
            raise ShapeError(
                f"{label}: parameter {k} (accumulator) must be {t.text}[], the type it returns: found {sig}"
            )
        if not _like(value, inputs[k]):
            raise ShapeError(
                f"{label}: parameter {n + k} must be {inputs[k].text}[], the element type of input {k}: "
                f"found {sig}"
            )
        if not _like(value, t):
            raise ShapeError(
                f"{label}: parameter {n + k} must have the type of accumulator {k} ({_type_text(t)}): "
                f"found {sig}"
            )
        if inits is not None and not _like(inits[k], t):
            raise ShapeError(
                f"init value {k} must be a {t.text}[] scalar (the accumulator type of {label}"
                f"{', or another floating-point type' if t.is_floating_point else ''}): "
                f"found {text(inits[k])}"
            )
        types.append(t)
    return types


def _no_mixed_precision(ctx: ShapeContext, attr: str, operands: Sequence[tuple[str, Shape]]) -> None:
    """XLA's verifier (which allows no mixed precision by default): parameter k of the called
    computation has the element type of operand k, for each operand given."""
    label, params, result = program(ctx, attr)
    for k, (role, shape) in enumerate(operands):
        if k < len(params) and params[k].element_type is not shape.element_type:
            raise ShapeError(
                f"{label}: parameter {k} must have the element type of operand {k} ({role}, {text(shape)}); "
                f"the verifier allows no mixed precision here: found {signature(params, result)}"
            )


def _inputs_and_inits(ctx: ShapeContext) -> tuple[list[Shape], list[Shape]]:
    """The N inputs (arrays of one set of dimensions) and the N init values."""
    if not ctx.operands or len(ctx.operands) % 2:
        raise ShapeError(
            f"{ctx.opcode.text} expects N inputs and N init values (an even number of operands, "
            f"at least 2): found {len(ctx.operands)}"
        )
    n = len(ctx.operands) // 2
    inputs = [array_operand(ctx, k, f"input {k}") for k in range(n)]
    for k, s in enumerate(inputs[1:], 1):
        if not dims_compatible(s, inputs[0]):
            raise ShapeError(
                f"input {k} must have the dimensions of input 0: found {text(inputs[0])} and {text(s)}"
            )
    return inputs, list(ctx.operands[n:])


def _roles(inputs: Sequence[Shape], inits: Sequence[Shape]) -> list[tuple[str, Shape]]:
    return [(f"input {k}", s) for k, s in enumerate(inputs)] + [
        (f"init value {k}", s) for k, s in enumerate(inits)
    ]


# -- reduce -----------------------------------------------------------------------------------
@shape_rule(Op.REDUCE)
def reduce_shape(ctx: ShapeContext) -> Shape:
    """The inputs without the reduced dimensions (dynamic ones stay dynamic), in the reducer's
    result types; a tuple when the reducer returns one (page 003's Reduce)."""
    inputs, inits = _inputs_and_inits(ctx)
    dims = tuple(ctx.attr("dimensions", ()))
    first = inputs[0]
    for d in dims:
        if not 0 <= d < first.rank:
            raise ShapeError(f"dimensions={ints_text(dims)} contains {d}, not a dimension of {text(first)}")
    types = check_reducer(ctx, "to_apply", [s.element_type for s in inputs], inits)
    if len(set(dims)) != len(dims):
        raise ShapeError(f"dimensions={ints_text(dims)} repeats a dimension of {text(first)}")
    _no_mixed_precision(ctx, "to_apply", _roles(inputs, inits))
    kept = [d for d in range(first.rank) if d not in dims]
    sizes = [first.dimensions[d] for d in kept]
    dynamic = [first.dynamic_dimensions[d] for d in kept]
    results = [Shape.array(t, sizes, dynamic_dimensions=dynamic) for t in types]
    return results[0] if program(ctx, "to_apply")[2].is_array else Shape.make_tuple(results)


# -- windows ----------------------------------------------------------------------------------
def _window_shape(operand: Shape, window: Window, t: PrimitiveType) -> Shape:
    return Shape.array(
        t, window_output_dims(operand.dimensions, window), dynamic_dimensions=operand.dynamic_dimensions
    )


@shape_rule(Op.REDUCE_WINDOW)
def reduce_window_shape(ctx: ShapeContext) -> Shape:
    """One value per window position; each result has its init value's element type (as XLA
    infers it); a tuple when the reducer returns one (page 003's ReduceWindow)."""
    inputs, inits = _inputs_and_inits(ctx)
    check_reducer(ctx, "to_apply", [s.element_type for s in inputs], inits)
    _no_mixed_precision(ctx, "to_apply", _roles(inputs, inits))
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
        if not _like(p, t):
            raise ShapeError(f"{form}: found parameter {k} {text(p)} in {sig}")
    check_reducer(ctx, "scatter", [source.element_type], [init])
    window = ctx.attr("window") or Window()
    expected = _window_shape(operand, window, t)
    if not dims_compatible(source, expected):
        raise ShapeError(
            f"operand 1 (source) must have one value per window, dimensions {list(expected.dimensions)} "
            f"for operand {text(operand)} and window={print_window(window)}: found {text(source)}"
        )
    if not _same_ignoring_precision(source.element_type, t):
        raise ShapeError(
            f"operand 1 (source) must have the element type of operand 0: found {text(operand)} and "
            f"{text(source)}"
        )
    return operand


# -- map --------------------------------------------------------------------------------------
@shape_rule(Op.MAP)
def map_shape(ctx: ShapeContext) -> Shape:
    """The operands' dimensions with the element type the scalar computation returns; an operand
    may be a scalar of the others' element type (page 003's Map, XLA's InferMapShape)."""
    if not ctx.operands:
        raise ShapeError("map needs at least one operand")
    shapes = [array_operand(ctx, k, f"operand {k}") for k in range(len(ctx.operands))]
    shape, at = shapes[0], 0
    for k, s in enumerate(shapes[1:], 1):
        if s.equal(shape, ignore_layout=True, ignore_dynamic_dimensions=True, ignore_element_type=True):
            continue
        if _same_ignoring_precision(s.element_type, shape.element_type) and (s.rank == 0 or shape.rank == 0):
            if s.rank != 0:
                shape, at = s, k
            continue
        raise ShapeError(
            f"operand {k} must have the dimensions of operand {at} (or be a scalar of its element type): "
            f"found {text(shape)} and {text(s)}"
        )
    written = ctx.attr("dimensions")
    dims = tuple(range(shape.rank) if written is None else written)
    if dims != tuple(range(shape.rank)):
        raise ShapeError(
            f"dimensions must be {ints_text(range(shape.rank))} (map applies to every dimension of "
            f"{text(shape)}): found {ints_text(dims)}"
        )
    label, params, result = program(ctx, "to_apply")
    sig = signature(params, result)
    if len(params) != len(shapes):
        raise ShapeError(f"{label} must take {len(shapes)} scalar parameters, one per operand: found {sig}")
    if not result.is_array or result.rank != 0:
        raise ShapeError(f"{label} must return a scalar: found {sig}")
    for k, (p, s) in enumerate(zip(params, shapes)):
        if not p.is_array or p.rank != 0:
            raise ShapeError(f"{label}: parameter {k} must be a scalar: found {sig}")
        if not _same_ignoring_precision(p.element_type, s.element_type):
            raise ShapeError(
                f"{label}: parameter {k} must be {s.element_type.text}[] (operand {k} is {text(s)}): "
                f"found {sig}"
            )
    _no_mixed_precision(ctx, "to_apply", [(f"operand {k}", s) for k, s in enumerate(shapes)])
    return Shape.array(result.element_type, shape.dimensions, dynamic_dimensions=shape.dynamic_dimensions)


# -- builder functions ------------------------------------------------------------------------
def first_op(values: XlaOp | Sequence[XlaOp]) -> XlaOp:
    """The first of one op or a sequence of them (to find the builder)."""
    if isinstance(values, list | tuple):
        return values[0] if values else None  # type: ignore[return-value]
    return values  # type: ignore[return-value]


def op_list(builder: XlaBuilder, op_name: str, values: Any, what: str) -> tuple[XlaOp, ...]:
    """One XlaOp or a sequence of them, as a non-empty tuple of `builder`'s ops."""
    items = tuple(values) if isinstance(values, list | tuple) else (values,)
    require_ops(builder, op_name, **{what: items})
    if not items:
        raise builder.error(op_name, f"{what} must hold at least one XlaOp")
    return items


def _inputs_inits(builder: XlaBuilder, name: str, operands: Any, init_values: Any) -> tuple[XlaOp, ...]:
    """The operands then the init values, one init value per operand."""
    inputs = op_list(builder, name, operands, "operands")
    inits = op_list(builder, name, init_values, "init_values")
    if len(inputs) != len(inits):
        raise builder.error(name, f"needs one init value per operand: found {len(inputs)} and {len(inits)}")
    return (*inputs, *inits)


@builder_function
def Reduce(
    builder: XlaBuilder | XlaOp,
    operands: XlaOp | Sequence[XlaOp],
    init_values: XlaOp | Sequence[XlaOp] | XlaComputation,
    computation: XlaComputation | Sequence[int],
    dimensions_to_reduce: Sequence[int] | None = None,
) -> XlaOp:
    """Reduce the given dimensions with `computation`; several operands and init values make a
    variadic reduce with a tuple result (page 003). Also XLA's one-operand form
    Reduce(operand, init_value, computation, dimensions_to_reduce)."""
    from ..builder import XlaOp

    args: tuple[Any, ...] = (builder, operands, init_values, computation, dimensions_to_reduce)
    if isinstance(builder, XlaOp):  # XLA's (operand, init_value, computation, dimensions_to_reduce)
        if dimensions_to_reduce is not None:
            raise builder.builder.error("Reduce", "takes (builder, operands, init_values, computation, dims)")
        args = (builder.builder, *args[:4])
    b, inputs, inits, comp, dims = args
    if dims is None:
        raise b.error("Reduce", "dimensions_to_reduce is missing")
    all_operands = _inputs_inits(b, "Reduce", inputs, inits)
    attrs = {
        "dimensions": int_tuple(b, "Reduce", dims, "dimensions_to_reduce"),
        "to_apply": embed(b, "Reduce", comp, "computation"),
    }
    return b.add("Reduce", Op.REDUCE, all_operands, attrs)


@builder_function
def ReduceAll(operand: XlaOp, init_value: XlaOp, computation: XlaComputation) -> XlaOp:
    """Reduce every dimension (XLA's ReduceAll)."""
    builder = builder_of("ReduceAll", operand)
    require_ops(builder, "ReduceAll", operand=operand, init_value=init_value)
    rank = operand.shape.rank if operand.shape.is_array else 0
    attrs = {
        "dimensions": tuple(range(rank)),
        "to_apply": embed(builder, "ReduceAll", computation, "computation"),
    }
    return builder.add("ReduceAll", Op.REDUCE, (operand, init_value), attrs)


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
    all_operands = _inputs_inits(builder, name, operands, init_values)
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
    all_operands = _inputs_inits(builder, name, operands, init_values)
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


@builder_function
def Map(
    builder: XlaBuilder,
    operands: XlaOp | Sequence[XlaOp],
    computation: XlaComputation,
    dimensions: Sequence[int],
    static_operands: Sequence[XlaOp] = (),
) -> XlaOp:
    """Apply a scalar computation to every element of the operands (page 003). A scalar operand
    is broadcast to the others' dimensions first, as XlaBuilder::Map does."""
    from .shape_ops import in_dim_broadcast

    inputs = op_list(builder, "Map", operands, "operands")
    if static_operands:
        raise builder.error(
            "Map", "static_operands are not supported (XLA's Map does not support them either)"
        )
    attrs = {
        "dimensions": int_tuple(builder, "Map", dimensions, "dimensions"),
        "to_apply": embed(builder, "Map", computation, "computation"),
    }
    context = ShapeContext(Op.MAP, tuple(x.shape for x in inputs), attrs, builder.program_shape)
    try:
        out = map_shape(context)
    except ShapeError as e:
        raise builder.error("Map", e.message) from None
    broadcast = tuple(
        x
        if x.shape.rank == out.rank
        else in_dim_broadcast("Map", out.replace(element_type=x.shape.element_type), x, ())
        for x in inputs
    )
    return builder.add("Map", Op.MAP, broadcast, attrs)


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.MAP)
def map_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The scalar computation applied to whole arrays at once (it must be elementwise)."""
    apply = lifted(ctx, instr.attrs["to_apply"], "map")
    dims = instr.shape.dimensions
    out = np.dtype(instr.shape.element_type.numpy_dtype)
    return lambda *xs: np.broadcast_to(np.asarray(apply(*xs), dtype=out), dims)


def _one_tuple(make: Callable[..., Callable[..., Any]]) -> Callable[..., Callable[..., Any]]:
    """A reduce kernel that also gives a 1-tuple when one input's reducer returns a 1-tuple."""

    def make_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
        run = make(instr, ctx)
        if instr.shape.is_tuple and len(instr.operands) == 2:
            return lambda *xs: (run(*xs),)
        return run

    return make_kernel


kernel(Op.REDUCE)(_one_tuple(reduce_fn))


kernel(Op.REDUCE_WINDOW)(_one_tuple(reduce_window_fn))


@kernel(Op.SELECT_AND_SCATTER)
def select_and_scatter_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    select = lifted(ctx, instr.attrs["select"], "select-and-scatter")
    combine_at, apply = combiner(ctx, instr.attrs["scatter"], "select-and-scatter")
    window = instr.attrs["window"]
    return lambda operand, source, init: select_and_scatter(
        operand, source, init, window, select, combine_at, apply
    )
