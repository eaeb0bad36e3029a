"""Pieces shared by the shape rules of the elementwise and data-movement ops (elementwise.py,
shape_ops.py and the modules they import): element-type matching and dynamic-dimension merging
as XLA's ShapeUtil and shape_inference.cc do them, and the written result shape that the rules of
reshape, broadcast, iota, bitcast and dynamic-reshape need, because HLO keeps their new
dimensions only in the instruction's result shape."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape
from .registry import ShapeContext, shape_rule

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp

Rule = Callable[[ShapeContext], Shape]


# -- element types ----------------------------------------------------------------------------
def storage_bits(t: PrimitiveType) -> int:
    """XLA's StorageBitWidth: the bit width, but a pred is stored in a byte."""
    return 8 if t is PrimitiveType.PRED else t.bit_width


def same_type_ignoring_fp(a: Shape, b: Shape) -> bool:
    """XLA's SameElementTypeIgnoringFpPrecision: equal types, or two floating-point types (its
    shape inference lets f32 meet bf16; the verifier rejects mixed precision separately)."""
    ta, tb = a.element_type, b.element_type
    return ta is tb or (ta.is_floating_point and tb.is_floating_point)


def _precision(t: PrimitiveType) -> tuple[bool, int, int, int, bool]:
    part = t.complex_component_type if t.is_complex else t
    fp = part.float_params if part.is_floating_point else None
    return (
        t.is_complex,
        fp.overflow_exponent if fp else -1,
        fp.significand_width if fp else -1,
        part.bit_width,
        part.is_signed_integral,
    )


def higher_precision(a: PrimitiveType, b: PrimitiveType) -> PrimitiveType:
    """XLA's HigherPrecisionType: complex over real, then range, precision and width."""
    return b if _precision(b) > _precision(a) else a


# -- dimensions -------------------------------------------------------------------------------
def sizes_compatible(x: int, y: int) -> bool:
    """XLA's CompatibleDimensionSizes: equal, or either unbounded (a bound counts as a size)."""
    return x == y or UNBOUNDED in (x, y)


def dim_size_text(n: int) -> str:
    """A dimension size as messages write it: `?` when unbounded."""
    return "?" if n == UNBOUNDED else str(n)


def dims_compatible(a: Shape, b: Shape) -> bool:
    """Same rank and each size equal or unbounded in either (XLA's Compatible, ignoring the
    element type and which dimensions are dynamic)."""
    return len(a.dimensions) == len(b.dimensions) and all(
        x == y or UNBOUNDED in (x, y) for x, y in zip(a.dimensions, b.dimensions)
    )


def most_specific(dim: int, sizes: tuple[int, int], bounds: tuple[int, int]) -> tuple[int, int]:
    """(size, bound) of a dimension two operands must agree on; a static size `X` has bound `?`,
    a bounded `<=X` has size and bound X, an unbounded `?` has both `?` (XLA's
    InferMostSpecificDimAndBound)."""
    static_bounds = [b for b in bounds if b != UNBOUNDED]
    if len(static_bounds) == 2 and static_bounds[0] != static_bounds[1]:
        raise ShapeError(f"dimension {dim} has the bounds {bounds[0]} and {bounds[1]}: they must match")
    bound = static_bounds[0] if static_bounds else UNBOUNDED
    static_sizes = [s for s in sizes if s != UNBOUNDED]
    if len(static_sizes) == 2 and static_sizes[0] != static_sizes[1]:
        raise ShapeError(f"dimension {dim} has the sizes {sizes[0]} and {sizes[1]}: they must match")
    size = static_sizes[0] if static_sizes else UNBOUNDED
    if static_sizes and bound != UNBOUNDED and size != bound:
        raise ShapeError(f"dimension {dim} has size {size} and bound {bound}: they must match")
    return size, bound


def bound_of(shape: Shape, dim: int) -> int:
    """The bound of a dimension as shape_inference.cc tracks it: its size if dynamic, else `?`."""
    return shape.dimensions[dim] if shape.dynamic_dimensions[dim] else UNBOUNDED


def is_bounded_dynamic(shape: Shape, dim: int) -> bool:
    return shape.dynamic_dimensions[dim] and shape.dimensions[dim] != UNBOUNDED


def ints_text(values: Sequence[int]) -> str:
    return "[" + ",".join(str(v) for v in values) + "]"


def one_dimension(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    """Parse-time check: ops whose `dimensions=` names exactly one dimension."""
    dims = instr.attr("dimensions")
    if dims is not None and len(dims) != 1:
        return f"dimensions= must hold exactly one dimension: found {ints_text(dims)}"
    return None


def the_dimension(ctx: ShapeContext) -> int:
    dims = tuple(ctx.attr("dimensions", ()))
    if len(dims) != 1:
        raise ShapeError(f"dimensions= must hold exactly one dimension: found {ints_text(dims)}")
    return int(dims[0])


def check_dims(dims: Sequence[int], shape: Shape, what: str = "dimensions", unique: bool = True) -> None:
    """Each of `dims` is a dimension of `shape`, and (by default) none repeats."""
    for d in dims:
        if not 0 <= d < len(shape.dimensions):
            raise ShapeError(f"{what}={ints_text(dims)} contains {d}, not a dimension of {shape}")
    if unique and len(set(dims)) != len(dims):
        raise ShapeError(f"{what}={ints_text(dims)} repeats a dimension of {shape}")


# -- the written result shape -----------------------------------------------------------------
def given_shape_rule(*opcodes: Opcode) -> Callable[[Rule], Rule]:
    """Decorator: the shape rule of ops whose new dimensions live only in the result shape
    (reshape, broadcast, iota, bitcast, dynamic-reshape): it checks `ctx.shape`."""
    return shape_rule(*opcodes)


def written_shape(ctx: ShapeContext) -> Shape | None:
    """The result shape the instruction states, when the caller knows it."""
    return ctx.shape


def written_element_type(ctx: ShapeContext) -> PrimitiveType | None:
    """The result element type of a conversion: from the written shape, else the type the
    caller asks for (the verifier passes the written one as `preferred_element_type`)."""
    shape = written_shape(ctx)
    if shape is not None and shape.is_array:
        return shape.element_type
    return ctx.preferred_element_type


def require_written_shape(ctx: ShapeContext) -> Shape:
    shape = written_shape(ctx)
    if shape is None:
        raise ShapeError(
            "the result shape must be written: this op's result dimensions are not in its operands"
        )
    return shape


# -- builder helpers --------------------------------------------------------------------------
def require_ops(builder: XlaBuilder, op_name: str, **values: Any) -> None:
    """Each keyword value is an XlaOp of `builder` (checked before its shape is read)."""
    from .handles import XlaOp

    for name, value in values.items():
        items = value if isinstance(value, list | tuple) else (value,)
        for v in items:
            if not isinstance(v, XlaOp):
                raise builder.error(op_name, f"{name} must be an XlaOp: found {type(v).__name__}")
            if v.builder is not builder:
                raise builder.error(
                    op_name, f"{name} ({v.name}) belongs to builder {v.builder.name}, not {builder.name}"
                )


def int_tuple(builder: XlaBuilder, op_name: str, values: Any, what: str) -> tuple[int, ...]:
    """A sequence of Python or NumPy ints as a tuple (the C++ API's Span<const int64_t>)."""
    if isinstance(values, int | np.integer):
        values = (values,)
    try:
        items = tuple(values)
    except TypeError:
        raise builder.error(op_name, f"{what} must be a sequence of ints: found {values!r}") from None
    if not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in items):
        raise builder.error(op_name, f"{what} must be a sequence of ints: found {list(items)!r}")
    return tuple(int(v) for v in items)


def add_given(
    builder: XlaBuilder,
    op_name: str,
    opcode: Opcode,
    operands: Sequence[XlaOp],
    attrs: dict[str, Any],
    shape: Shape,
) -> XlaOp:
    """Add an instruction whose result shape is part of the request (reshape, broadcast, iota,
    ...); the op's rule checks it, as the verifier will."""
    return builder.add(op_name, opcode, tuple(operands), attrs, shape=shape)
