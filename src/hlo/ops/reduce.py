"""Reductions and ops over windows or sequences: reduce, reduce-window, select-and-scatter,
map, scan (sort and top-k are in sort.py)."""

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
from ..shape import Shape
from ..text.attr_codecs import BOOL, COMPUTATION, INT, INT_LIST, WINDOW
from .array_rules import check_dims, int_tuple, require_ops
from .callee import embed, program, signature
from .registry import AttrSpec, OpContext, ShapeContext, builder_function, define, if_true, kernel, shape_rule
from .rule_helpers import array_operand, builder_of
from .windows import make_padding, make_window, padding_pairs, padding_type

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..engine.plan import KernelContext

Op = Opcode


def _even_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if len(operands) % 2:
        return f"{instr.opcode.text} expects an even number of operands, but has {len(operands)} operands"
    if instr.opcode is Op.REDUCE_WINDOW and not operands:
        return "reduce-window expects at least one input and init operand"
    return None


def _window_printed(value: object, ctx: OpContext) -> bool:
    return bool(getattr(value, "dimensions", ()))


define(
    Op.REDUCE,
    AttrSpec("dimensions", INT_LIST, required=True),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_even_operands,
)
define(
    Op.REDUCE_WINDOW,
    AttrSpec("window", WINDOW, printed=_window_printed),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_even_operands,
)
define(
    Op.SELECT_AND_SCATTER,
    AttrSpec("window", WINDOW, printed=_window_printed),
    AttrSpec("select", COMPUTATION, required=True),
    AttrSpec("scatter", COMPUTATION, required=True),
)


def _map_dimensions(ctx: OpContext) -> tuple[int, ...] | None:
    # XLA prints map's dimensions as {0, ..., rank-1} of the result, whatever was written.
    return tuple(range(ctx.shape.rank)) if ctx.shape is not None and ctx.shape.is_array else None


define(
    Op.MAP,
    AttrSpec("dimensions", INT_LIST, default=_map_dimensions),
    AttrSpec("to_apply", COMPUTATION, required=True),
    arity=None,
)


def _scan_checks(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if len(instr.attr("dimensions", ())) != 1:
        return "scan expects exactly one dimension"
    carries = instr.attr("num_carries", 0)
    if len(operands) < carries:
        return (
            f"scan expects at least {carries} operands to match the number of carries, "
            f"but has {len(operands)}"
        )
    return None


define(
    Op.SCAN,
    AttrSpec("dimensions", INT_LIST, required=True),
    AttrSpec("num_carries", INT, required=True),
    AttrSpec("is_reverse", BOOL, default=False, printed=if_true),
    AttrSpec("is_associative", BOOL),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=_scan_checks,
)


# -- shape rules ------------------------------------------------------------------------------
def maybe_tuple(shapes: list[Shape]) -> Shape:
    return shapes[0] if len(shapes) == 1 else Shape.make_tuple(shapes)


def _scalar_text(t: PrimitiveType) -> str:
    return f"{t.text}[]"


def check_reducer(
    ctx: ShapeContext, attr: str, inputs: Sequence[PrimitiveType], inits: Sequence[Shape] | None = None
) -> list[PrimitiveType]:
    """XLA's VerifyReducerShape: a computation of 2N scalars (accumulators T0..TN-1, then
    values of the inputs' types) returning the N accumulators (a tuple when N > 1); the init
    values, when given, are scalars of the accumulator types. The accumulator types."""
    label, params, result = program(ctx, attr)
    n = len(inputs)
    op = ctx.opcode.text
    want = ", ".join([f"T{k}[]" for k in range(n)] * 2)
    if len(params) != 2 * n:
        raise ShapeError(
            f"{label} must take {2 * n} parameters ({want}) for {n} input{'s' if n > 1 else ''} of {op}: "
            f"found {signature(params, result)}"
        )
    results = list(result.tuple_shapes) if result.is_tuple else [result]
    if len(results) != n or (n > 1 and not result.is_tuple):
        raise ShapeError(
            f"{label} must return {n} scalar{'s' if n > 1 else ''}: found {signature(params, result)}"
        )
    types = []
    for k, r in enumerate(results):
        if not r.is_array or r.rank != 0:
            raise ShapeError(f"{label} must return scalars: found {signature(params, result)}")
        acc, value = params[k], params[n + k]
        if not acc.is_array or acc.rank != 0 or acc.element_type is not r.element_type:
            raise ShapeError(
                f"{label}: parameter {k} (accumulator) must be {_scalar_text(r.element_type)}, the type "
                f"it returns: found {signature(params, result)}"
            )
        if (
            not value.is_array
            or value.rank != 0
            or not _same_ignoring_precision(value.element_type, inputs[k])
        ):
            raise ShapeError(
                f"{label}: parameter {n + k} must be {_scalar_text(inputs[k])}, the element type of "
                f"input {k}: "
                f"found {signature(params, result)}"
            )
        if inits is not None:
            init = inits[k]
            if not init.is_array or init.rank != 0 or init.element_type is not r.element_type:
                raise ShapeError(
                    f"init value {k} must be a {_scalar_text(r.element_type)} scalar (the accumulator "
                    f"type of "
                    f"{label}): found {init}"
                )
        types.append(r.element_type)
    return types


def _same_ignoring_precision(a: PrimitiveType, b: PrimitiveType) -> bool:
    return a is b or (a.is_floating_point and b.is_floating_point) or (a.is_complex and b.is_complex)


def _inputs_and_inits(ctx: ShapeContext) -> tuple[list[Shape], list[Shape]]:
    n = len(ctx.operands) // 2
    inputs = [array_operand(ctx, k, f"input {k}") for k in range(n)]
    for k, s in enumerate(inputs[1:], 1):
        if s.dimensions != inputs[0].dimensions:
            raise ShapeError(f"input {k} must have the dimensions of input 0: found {inputs[0]} and {s}")
    return inputs, list(ctx.operands[n:])


@shape_rule(Op.REDUCE)
def reduce_shape(ctx: ShapeContext) -> Shape:
    """The inputs without the reduced dimensions, in the reducer's accumulator types."""
    inputs, inits = _inputs_and_inits(ctx)
    dims = tuple(ctx.attr("dimensions", ()))
    check_dims(dims, inputs[0], "dimensions")
    types = check_reducer(ctx, "to_apply", [s.element_type for s in inputs], inits)
    kept = [d for d in range(inputs[0].rank) if d not in dims]
    sizes = [inputs[0].dimensions[d] for d in kept]
    dynamic = [inputs[0].dynamic_dimensions[d] for d in kept]
    return maybe_tuple([Shape.array(t, sizes, dynamic_dimensions=dynamic) for t in types])


def window_output_dims(dims: tuple[int, ...], window: Window) -> list[int]:
    """Each dimension after a window: dilate the base, pad, slide the dilated window by stride."""
    if len(window.dimensions) != len(dims):
        raise ShapeError(
            f"the window has {len(window.dimensions)} dimensions for an operand of rank {len(dims)}"
        )
    out = []
    for k, (size, w) in enumerate(zip(dims, window.dimensions)):
        if w.size < 0 or w.stride < 1 or w.base_dilation < 1 or w.window_dilation < 1:
            raise ShapeError(
                f"window dimension {k} needs size >= 0 and stride, lhs_dilate and rhs_dilate >= 1: found "
                f"size={w.size} stride={w.stride} lhs_dilate={w.base_dilation} rhs_dilate={w.window_dilation}"
            )
        base = (size - 1) * w.base_dilation + 1 if size else 0
        padded = base + w.padding_low + w.padding_high
        extent = (w.size - 1) * w.window_dilation + 1
        out.append(max(0, (padded - extent) // w.stride + 1) if padded >= extent else 0)
    return out


@shape_rule(Op.REDUCE_WINDOW)
def reduce_window_shape(ctx: ShapeContext) -> Shape:
    """One value per window position, in the reducer's accumulator types."""
    inputs, inits = _inputs_and_inits(ctx)
    window = ctx.attr("window") or Window()
    dims = window_output_dims(inputs[0].dimensions, window)
    types = check_reducer(ctx, "to_apply", [s.element_type for s in inputs], inits)
    return maybe_tuple([Shape.array(t, dims) for t in types])


@shape_rule(Op.SELECT_AND_SCATTER)
def select_and_scatter_shape(ctx: ShapeContext) -> Shape:
    """The operand's shape: `select` (T, T) -> pred picks one element per window, `scatter`
    (T, T) -> T adds the source value there; the source has one value per window."""
    operand = array_operand(ctx, 0, "operand")
    source = array_operand(ctx, 1, "source")
    init = array_operand(ctx, 2, "init_value")
    t = operand.element_type
    label, params, result = program(ctx, "select")
    scalar = Shape.scalar(t)
    if (
        len(params) != 2
        or any(not p.compatible(scalar) for p in params)
        or not result.compatible(Shape.scalar(PrimitiveType.PRED))
    ):
        raise ShapeError(
            f"{label} must be ({t.text}[], {t.text}[]) -> pred[] for operand {operand}: "
            f"found {signature(params, result)}"
        )
    check_reducer(ctx, "scatter", [source.element_type], [init])
    window = ctx.attr("window") or Window()
    expected = window_output_dims(operand.dimensions, window)
    if list(source.dimensions) != expected:
        raise ShapeError(
            f"operand 1 (source) must have one value per window, dimensions {expected} for "
            f"operand {operand}: "
            f"found {source}"
        )
    return operand


@shape_rule(Op.MAP)
def map_shape(ctx: ShapeContext) -> Shape:
    """The operands' dimensions with the element type the scalar computation returns."""
    if not ctx.operands:
        raise ShapeError("map needs at least one operand")
    shapes = [array_operand(ctx, k, f"operand {k}") for k in range(len(ctx.operands))]
    for k, s in enumerate(shapes[1:], 1):
        if s.dimensions != shapes[0].dimensions:
            raise ShapeError(f"operand {k} must have the dimensions of operand 0: found {shapes[0]} and {s}")
    dims = tuple(ctx.attr("dimensions") or range(shapes[0].rank))
    if dims != tuple(range(shapes[0].rank)):
        raise ShapeError(
            f"dimensions must be {{0..{shapes[0].rank - 1}}} (map applies to every dimension): "
            f"found {list(dims)}"
        )
    label, params, result = program(ctx, "to_apply")
    if len(params) != len(shapes):
        raise ShapeError(
            f"{label} must take {len(shapes)} scalar parameters: found {signature(params, result)}"
        )
    for k, (p, s) in enumerate(zip(params, shapes)):
        if not p.is_array or p.rank != 0 or p.element_type is not s.element_type:
            raise ShapeError(
                f"{label}: parameter {k} must be {s.element_type.text}[] (operand {k} is {s}): "
                f"found {signature(params, result)}"
            )
    if not result.is_array or result.rank != 0:
        raise ShapeError(f"{label} must return a scalar: found {signature(params, result)}")
    return Shape.array(
        result.element_type, shapes[0].dimensions, dynamic_dimensions=shapes[0].dynamic_dimensions
    )


@shape_rule(Op.SCAN)
def scan_shape(ctx: ShapeContext) -> Shape:
    carries = ctx.attr("num_carries")
    (dim,) = ctx.attr("dimensions")
    inputs = ctx.operands[: len(ctx.operands) - carries]
    if not inputs:
        raise ShapeError("Cannot infer shape for scan with no inputs")
    if not 0 <= dim < inputs[0].rank:
        raise ShapeError(f"scan dimension {dim} is out of range for operand of rank {inputs[0].rank}")
    length = inputs[0].dimensions[dim]
    _, result = ctx.program_shape(ctx.attr("to_apply"))

    def with_scan_dim(s: Shape) -> Shape:
        return Shape.array(s.element_type, s.dimensions[:dim] + (length,) + s.dimensions[dim:])

    if not result.is_tuple:
        return result if carries else with_scan_dim(result)
    arity = len(result.tuple_shapes)
    return Shape.make_tuple(
        with_scan_dim(s) if k + carries < arity else s for k, s in enumerate(result.tuple_shapes)
    )


# -- builder functions ------------------------------------------------------------------------
def first_op(values: XlaOp | Sequence[XlaOp]) -> XlaOp:
    """The first of one op or a sequence of them (to find the builder)."""
    if isinstance(values, list | tuple):
        return values[0] if values else None  # type: ignore[return-value]
    return values  # type: ignore[return-value]


def op_list(builder: XlaBuilder, op_name: str, values: Any, what: str) -> tuple[XlaOp, ...]:
    items = tuple(values) if isinstance(values, list | tuple) else (values,)
    require_ops(builder, op_name, **{what: items})
    if not items:
        raise builder.error(op_name, f"{what} must hold at least one XlaOp")
    return items


@builder_function
def Reduce(
    builder: XlaBuilder,
    operands: XlaOp | Sequence[XlaOp],
    init_values: XlaOp | Sequence[XlaOp],
    computation: XlaComputation,
    dimensions_to_reduce: Sequence[int],
) -> XlaOp:
    """Reduce the given dimensions with `computation`; several operands and init values make a
    variadic reduce with a tuple result (page 003)."""
    inputs = op_list(builder, "Reduce", operands, "operands")
    inits = op_list(builder, "Reduce", init_values, "init_values")
    if len(inputs) != len(inits):
        raise builder.error(
            "Reduce", f"needs one init value per operand: found {len(inputs)} and {len(inits)}"
        )
    attrs = {
        "dimensions": int_tuple(builder, "Reduce", dimensions_to_reduce, "dimensions_to_reduce"),
        "to_apply": embed(builder, "Reduce", computation, "computation"),
    }
    return builder.add("Reduce", Op.REDUCE, (*inputs, *inits), attrs)


@builder_function
def ReduceAll(operand: XlaOp, init_value: XlaOp, computation: XlaComputation) -> XlaOp:
    """Reduce every dimension (XLA's ReduceAll)."""
    builder = builder_of("ReduceAll", operand)
    return Reduce(builder, operand, init_value, computation, range(operand.shape.rank))


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
    """Reduce every window (explicit padding and dilations)."""
    builder = builder_of("ReduceWindowWithGeneralPadding", first_op(operands))
    name = "ReduceWindowWithGeneralPadding"
    inputs, inits = (
        op_list(builder, name, operands, "operands"),
        op_list(builder, name, init_values, "init_values"),
    )
    pairs = padding_pairs(builder, name, padding, len(tuple(window_dimensions)))
    window = make_window(
        builder, name, window_dimensions, window_strides, pairs, base_dilations, window_dilations
    )
    attrs = {"window": window, "to_apply": embed(builder, name, computation, "computation")}
    return builder.add(name, Op.REDUCE_WINDOW, (*inputs, *inits), attrs)


@builder_function
def ReduceWindow(
    operands: XlaOp | Sequence[XlaOp],
    init_values: XlaOp | Sequence[XlaOp],
    computation: XlaComputation,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: str,
) -> XlaOp:
    """Reduce every window, with "SAME" or "VALID" padding (page 003)."""
    first = first_op(operands)
    builder = builder_of("ReduceWindow", first)
    require_ops(builder, "ReduceWindow", operands=first)
    kind = padding_type(builder, "ReduceWindow", padding)
    sizes = int_tuple(builder, "ReduceWindow", window_dimensions, "window_dimensions")
    strides = int_tuple(builder, "ReduceWindow", window_strides, "window_strides")
    pairs = make_padding(first.shape.dimensions, sizes, strides, kind)
    ones = (1,) * len(sizes)
    return ReduceWindowWithGeneralPadding(
        operands, init_values, computation, sizes, strides, ones, ones, pairs
    )


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
    pairs = padding_pairs(builder, name, padding, len(tuple(window_dimensions)))
    window = make_window(builder, name, window_dimensions, window_strides, pairs)
    attrs = {
        "window": window,
        "select": embed(builder, name, select, "select"),
        "scatter": embed(builder, name, scatter, "scatter"),
    }
    return builder.add(name, Op.SELECT_AND_SCATTER, (operand, source, init_value), attrs)


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
    builder = builder_of("SelectAndScatter", operand, source, init_value)
    kind = padding_type(builder, "SelectAndScatter", padding)
    sizes = int_tuple(builder, "SelectAndScatter", window_dimensions, "window_dimensions")
    strides = int_tuple(builder, "SelectAndScatter", window_strides, "window_strides")
    pairs = make_padding(operand.shape.dimensions, sizes, strides, kind)
    return SelectAndScatterWithGeneralPadding(
        operand, select, sizes, strides, pairs, source, init_value, scatter
    )


@builder_function
def Map(
    builder: XlaBuilder,
    operands: Sequence[XlaOp],
    computation: XlaComputation,
    dimensions: Sequence[int],
    static_operands: Sequence[XlaOp] = (),
) -> XlaOp:
    """Apply a scalar computation to every element of the operands (page 003)."""
    inputs = op_list(builder, "Map", operands, "operands")
    if static_operands:
        raise builder.error("Map", "static_operands are not supported by XLA's Map either")
    attrs = {
        "dimensions": int_tuple(builder, "Map", dimensions, "dimensions"),
        "to_apply": embed(builder, "Map", computation, "computation"),
    }
    return builder.add("Map", Op.MAP, inputs, attrs)


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.MAP)
def map_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The scalar computation applied to whole arrays at once (it must be elementwise)."""
    apply = lifted(ctx, instr.attrs["to_apply"], "map")
    dims = instr.shape.dimensions
    out = np.dtype(instr.shape.element_type.numpy_dtype)
    return lambda *xs: np.broadcast_to(np.asarray(apply(*xs), dtype=out), dims)


kernel(Op.REDUCE)(reduce_fn)


kernel(Op.REDUCE_WINDOW)(reduce_window_fn)


@kernel(Op.SCAN)
def scan_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Step through the scan dimension (backwards with is_reverse): the computation takes the
    inputs' slices and the carries and returns the outputs' slices and the new carries (one call
    per step on whole slices)."""
    plan = ctx.computation(instr.attrs["to_apply"])
    (dim,) = instr.attrs["dimensions"]
    carries_count = instr.attrs["num_carries"]
    reverse = bool(instr.attrs.get("is_reverse", False))
    result = instr.shape
    results = result.tuple_shapes if result.is_tuple else (result,)
    outputs_count = len(results) - carries_count

    def run(*operands: Any) -> Any:
        inputs, carries = (
            operands[: len(operands) - carries_count],
            list(operands[len(operands) - carries_count :]),
        )
        length = inputs[0].shape[dim] if inputs else 0
        outputs = [np.empty(s.dimensions, dtype=s.element_type.numpy_dtype) for s in results[:outputs_count]]
        for step in range(length):
            t = length - 1 - step if reverse else step
            value = plan(*(np.take(x, t, axis=dim) for x in inputs), *carries)
            pieces = list(value) if isinstance(value, tuple) else [value]
            for out, piece in zip(outputs, pieces[:outputs_count]):
                index: list[Any] = [slice(None)] * out.ndim
                index[dim] = t
                out[tuple(index)] = piece
            carries = pieces[outputs_count:]
        values = [*outputs, *carries]
        return tuple(values) if result.is_tuple else values[0]

    return run


@kernel(Op.SELECT_AND_SCATTER)
def select_and_scatter_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    select = lifted(ctx, instr.attrs["select"], "select-and-scatter")
    combine_at, apply = combiner(ctx, instr.attrs["scatter"], "select-and-scatter")
    window = instr.attrs["window"]
    return lambda operand, source, init: select_and_scatter(
        operand, source, init, window, select, combine_at, apply
    )
