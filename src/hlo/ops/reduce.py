"""Reductions and ops over windows or sequences: reduce, reduce-window, select-and-scatter,
map, sort, top-k, scan."""

from __future__ import annotations

from ..errors import ShapeError
from ..ir.attrs import Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import BOOL, COMPUTATION, INT, INT_LIST, WINDOW
from .registry import AttrSpec, OpContext, ShapeContext, define, if_true, shape_rule
from .shape_ops import one_dimension

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
define(
    Op.SORT,
    AttrSpec("dimensions", INT_LIST, required=True),
    AttrSpec("is_stable", BOOL, default=False, printed=if_true),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=one_dimension,
)
define(
    Op.TOP_K,
    AttrSpec("k", INT, required=True),
    AttrSpec("largest", BOOL, default=True),
    AttrSpec("is_stable", BOOL, default=True),
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
def _maybe_tuple(shapes: list[Shape]) -> Shape:
    return shapes[0] if len(shapes) == 1 else Shape.make_tuple(shapes)


def _reducer_types(ctx: ShapeContext, n: int) -> list[Shape]:
    """The element types the reducer computation returns (one per input)."""
    _, result = ctx.program_shape(ctx.attr("to_apply"))
    results = list(result.tuple_shapes) if result.is_tuple else [result]
    if len(results) != n:
        raise ShapeError(f"{ctx.opcode.text}: the reducer returns {len(results)} values for {n} inputs")
    return results


@shape_rule(Op.REDUCE)
def reduce_shape(ctx: ShapeContext) -> Shape:
    n = len(ctx.operands) // 2
    dims = ctx.attr("dimensions")
    inputs = ctx.operands[:n]
    for d in dims:
        if not 0 <= d < inputs[0].rank:
            raise ShapeError(f"reduce: dimension {d} is out of range for {inputs[0]}")
    kept = [s for k, s in enumerate(inputs[0].dimensions) if k not in dims]
    return _maybe_tuple([Shape.array(r.element_type, kept) for r in _reducer_types(ctx, n)])


def window_output_dims(dims: tuple[int, ...], window: Window) -> list[int]:
    """Each dimension after a window: dilate the base, pad, slide the dilated window by stride."""
    if len(window.dimensions) != len(dims):
        raise ShapeError(
            f"the window has {len(window.dimensions)} dimensions for an operand of rank {len(dims)}"
        )
    out = []
    for size, w in zip(dims, window.dimensions):
        base = (size - 1) * w.base_dilation + 1 if size else 0
        padded = base + w.padding_low + w.padding_high
        extent = (w.size - 1) * w.window_dilation + 1
        out.append(max(0, (padded - extent) // w.stride + 1) if padded >= extent else 0)
    return out


@shape_rule(Op.REDUCE_WINDOW)
def reduce_window_shape(ctx: ShapeContext) -> Shape:
    n = len(ctx.operands) // 2
    window = ctx.attr("window") or Window()
    dims = window_output_dims(ctx.operands[0].dimensions, window)
    return _maybe_tuple([Shape.array(r.element_type, dims) for r in _reducer_types(ctx, n)])


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


@shape_rule(Op.SORT)
def sort_shape(ctx: ShapeContext) -> Shape:
    return _maybe_tuple(list(ctx.operands))
