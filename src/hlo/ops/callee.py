"""Pieces shared by the rules and builder functions of the ops that call computations or carry
several values (control flow, fusion, async wrappers, custom calls, collectives): program-shape
text for messages, embedding a called computation, shape-index aliasing, shape prefixes and
dynamic-dimension merging."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attrs import OperandAlias
from ..shape import Shape
from .registry import ShapeContext

if TYPE_CHECKING:
    from ..builder import XlaBuilder


def text(shape: Shape) -> str:
    """A shape as messages show it: without layout (XLA's HumanString)."""
    return shape.to_string(print_layout=False)


def texts(shapes: Iterable[Shape]) -> str:
    return ", ".join(text(s) for s in shapes)


def signature(params: Sequence[Shape], result: Shape) -> str:
    """`(f32[4], s32[]) -> f32[4]`: a computation's program shape."""
    return f"({texts(params)}) -> {text(result)}"


def program(ctx: ShapeContext, attr: str, index: int | None = None) -> tuple[str, tuple[Shape, ...], Shape]:
    """(`attr=%name` for messages, parameter shapes, result shape) of the computation named by
    attribute `attr` (element `index` of it when the attribute lists several)."""
    value = ctx.attr(attr)
    if value is None:
        raise ShapeError(f"the attribute {attr} (a computation) is missing")
    if index is not None or isinstance(value, tuple):
        k = index or 0
        if not isinstance(value, tuple) or not 0 <= k < len(value):
            raise ShapeError(f"{attr} must list a computation {k}: found {value!r}")
        name = value[k]
        label = f"{attr}[{k}]=%{name}" if index is not None else f"{attr}=%{name}"
    else:
        name, label = value, f"{attr}=%{value}"
    try:
        params, result = ctx.program_shape(name)
    except (KeyError, LookupError):
        raise ShapeError(f"{label} must be a computation of this module: found none of that name") from None
    return label, tuple(params), result


def embed(builder: XlaBuilder, op_name: str, computation: Any, what: str) -> str:
    """A called computation (an XlaComputation from its own builder's build()) embedded in
    `builder`; its name there."""
    from .handles import XlaComputation

    if not isinstance(computation, XlaComputation):
        raise builder.error(
            op_name,
            f"{what} must be an XlaComputation (a builder's build()): found {type(computation).__name__}",
        )
    return builder.computation_ref(computation)


def or_dynamic(result: Shape, others: Iterable[Shape]) -> Shape:
    """`result` with a dimension dynamic wherever it is dynamic in any of `others` (same
    structure), as XLA merges the results of conditional branches."""
    others = list(others)
    if result.is_tuple:
        return Shape.make_tuple(
            or_dynamic(s, [o.tuple_shapes[k] for o in others if o.is_tuple and len(o.tuple_shapes) > k])
            for k, s in enumerate(result.tuple_shapes)
        )
    if not result.is_array:
        return result
    dynamic = list(result.dynamic_dimensions)
    for o in others:
        if o.is_array and len(o.dynamic_dimensions) == len(dynamic):
            dynamic = [a or b for a, b in zip(dynamic, o.dynamic_dimensions)]
    return (
        result
        if tuple(dynamic) == result.dynamic_dimensions
        else result.replace(dynamic_dimensions=tuple(dynamic))
    )


def is_prefix(a: Shape, b: Shape) -> bool:
    """`a` equals `b` (ignoring layout and dynamic sizes), or is an empty tuple, or is a tuple whose
    elements are prefixes of `b`'s first elements (XLA's IsShapePrefix, for async late binding)."""
    if a.compatible(b) or a.is_empty_tuple:
        return True
    if a.is_tuple and b.is_tuple and len(a.tuple_shapes) <= len(b.tuple_shapes):
        return all(is_prefix(x, y) for x, y in zip(a.tuple_shapes, b.tuple_shapes))
    return False


def index_text(index: Sequence[int]) -> str:
    return "{" + ",".join(str(i) for i in index) + "}"


def valid_index(shape: Shape, index: Sequence[int]) -> bool:
    for i in index:
        if not shape.is_tuple or not 0 <= i < len(shape.tuple_shapes):
            return False
        shape = shape.tuple_shapes[i]
    return True


def check_aliases(
    aliases: Iterable[OperandAlias], operands: Sequence[Shape], result: Shape, what: str = "operand"
) -> None:
    """Each `{output index}: (operand, {operand index})` of output_to_operand_aliasing names a
    buffer of the result and one of an operand (`what`: the operand's name in messages) of the
    same shape (ignoring layout and dynamic sizes)."""
    for a in aliases:
        pair = f"{index_text(a.output_index)}: ({a.operand}, {index_text(a.operand_index)})"
        if not 0 <= a.operand < len(operands):
            raise ShapeError(
                f"output_to_operand_aliasing {pair} must name one of the {len(operands)} {what}s: "
                f"found {what} {a.operand}"
            )
        source = operands[a.operand]
        if not valid_index(source, a.operand_index):
            raise ShapeError(
                f"output_to_operand_aliasing {pair} must name a part of {what} {a.operand}: "
                f"found index {index_text(a.operand_index)} in {text(source)}"
            )
        if not valid_index(result, a.output_index):
            raise ShapeError(
                f"output_to_operand_aliasing {pair} must name a part of the result: "
                f"found index {index_text(a.output_index)} in {text(result)}"
            )
        out, into = result.subshape(a.output_index), source.subshape(a.operand_index)
        if not out.compatible(into):
            raise ShapeError(
                f"output_to_operand_aliasing {pair} must alias buffers of one shape: "
                f"found {text(out)} (result) and {text(into)} ({what} {a.operand})"
            )


def as_aliases(builder: XlaBuilder, op_name: str, pairs: Iterable[Any]) -> tuple[OperandAlias, ...]:
    """XlaBuilder's `output_operand_aliasing`, pairs `(output index, (operand, operand index))`,
    as the typed attribute (OperandAlias values pass through)."""
    out: list[OperandAlias] = []
    for p in pairs:
        if isinstance(p, OperandAlias):
            out.append(p)
            continue
        try:
            output_index, (operand, operand_index) = p
            out.append(
                OperandAlias(
                    tuple(int(i) for i in output_index), int(operand), tuple(int(i) for i in operand_index)
                )
            )
        except (TypeError, ValueError):
            raise builder.error(
                op_name,
                "output_operand_aliasing must hold pairs (output index, (operand, operand index)): "
                f"found {p!r}",
            ) from None
    return tuple(out)


def written(ctx: ShapeContext, why: str) -> Shape:
    """The result shape the instruction states; ops whose result is not in their operands need it."""
    if ctx.shape is None:
        raise ShapeError(f"the result shape must be written: {why}")
    return ctx.shape
