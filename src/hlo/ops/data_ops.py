"""Ops that move data without arithmetic, part 3 (page 003: Iota, Copy, GetDimensionSize,
SetDimensionSize): iota, bitcast, copy, copy-start/-done and the dynamic dimension sizes. Bitcast
and copy-start/-done have shape rules only: XlaBuilder has no function for them (the compiler
makes them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import HloError, ShapeError
from ..ir.attr_kinds import INT, INT32, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape, as_primitive_type
from .array_rules import (
    add_given,
    given_shape_rule,
    int_tuple,
    one_dimension,
    require_ops,
    require_written_shape,
    storage_bits,
    the_dimension,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
S32 = PrimitiveType.S32
INT32_MAX = 2**31 - 1


# -- iota -------------------------------------------------------------------------------------
define(Op.IOTA, AttrSpec("iota_dimension", INT, required=True))


@given_shape_rule(Op.IOTA)
def iota_shape(ctx: ShapeContext) -> Shape:
    """The written result: an integer, floating-point or complex array of rank >= 1 counting up
    along `iota_dimension` (XLA's verifier)."""
    result = require_written_shape(ctx)
    if not result.is_array or result.rank == 0:
        raise ShapeError(f"the result must be an array of rank 1 or more: found {result}")
    et = result.element_type
    if not (et.is_integral or et.is_floating_point or et.is_complex):
        raise ShapeError(f"the result must be of an integer, floating-point or complex type: found {result}")
    d = ctx.attr("iota_dimension", 0)
    if not 0 <= d < result.rank:
        raise ShapeError(f"iota_dimension={d} is not a dimension of the result {result}")
    return result


@builder_function
def Iota(builder: XlaBuilder, shape: Shape | str | PrimitiveType, iota_dimension: int) -> XlaOp:
    """An array of `shape` holding 0, 1, 2, ... along `iota_dimension` (page 003).
    `Iota(builder, element_type, size)` is the rank-1 form."""
    from .tuple_ops import as_shape

    try:
        if isinstance(shape, PrimitiveType) or (isinstance(shape, str) and "[" not in shape):
            shape, iota_dimension = Shape.array(as_primitive_type(shape), (iota_dimension,)), 0
        shape = as_shape(shape)
    except HloError as e:
        raise builder.error("Iota", e.message) from None
    if not shape.is_static:
        raise builder.error("Iota", f"the shape must not have dynamic dimensions: found {shape}")
    return add_given(builder, "Iota", Op.IOTA, (), {"iota_dimension": int(iota_dimension)}, shape)


# -- bitcast ----------------------------------------------------------------------------------
define(Op.BITCAST)


@given_shape_rule(Op.BITCAST)
def bitcast_shape(ctx: ShapeContext) -> Shape:
    """The written result reinterprets the operand's memory, so both hold as many bits (XLA's
    layout-sensitive verifier compares buffer sizes; tiling may pad both alike)."""
    source = operand(ctx, 0)
    result = require_written_shape(ctx)
    if (
        source.is_array
        and result.is_array
        and not (source.is_unbounded_dynamic or result.is_unbounded_dynamic)
    ):
        bits = [s.element_count * storage_bits(s.element_type) for s in (source, result)]
        if bits[0] != bits[1] and not _same_bytes(source, result):
            raise ShapeError(
                f"the result must hold the operand's {bits[0]} bits: found {source} and {result} "
                f"({bits[1]} bits)"
            )
    return result


def _same_bytes(a: Shape, b: Shape) -> bool:
    if a.layout is None or b.layout is None:
        return False
    from ..memory import byte_size

    try:
        return byte_size(a) == byte_size(b)
    except HloError:
        return False


# -- copy, copy-start, copy-done --------------------------------------------------------------
define(Op.COPY)
define(Op.COPY_START, AttrSpec("cross_program_prefetch_index", INT32))
define(Op.COPY_DONE)


@shape_rule(Op.COPY)
def copy_shape(ctx: ShapeContext) -> Shape:
    return operand(ctx, 0)


@shape_rule(Op.COPY_START)
def copy_start_shape(ctx: ShapeContext) -> Shape:
    """(destination, source, u32[] context): the copy in flight."""
    source = operand(ctx, 0)
    return Shape.make_tuple((source, source, Shape.scalar(PrimitiveType.U32)))


@shape_rule(Op.COPY_DONE)
def copy_done_shape(ctx: ShapeContext) -> Shape:
    started = operand(ctx, 0)
    if not started.is_tuple or len(started.tuple_shapes) < 2:
        raise ShapeError(
            f"operand 0 must be the (destination, source, context) tuple of a copy-start: found {started}"
        )
    destination, source = started.tuple_shapes[:2]
    if not destination.compatible(source):
        raise ShapeError(f"the destination and source in operand 0 must have the same shape: found {started}")
    return destination


@builder_function
def Copy(operand: XlaOp) -> XlaOp:
    """A copy of the operand in a buffer of its own (compiler use, XlaBuilder::Copy)."""
    return builder_of("Copy", operand).add("Copy", Op.COPY, (operand,))


# -- get-dimension-size, set-dimension-size ---------------------------------------------------
define(Op.GET_DIMENSION_SIZE, AttrSpec("dimensions", INT_LIST, required=True), check=one_dimension)
define(Op.SET_DIMENSION_SIZE, AttrSpec("dimensions", INT_LIST, required=True), check=one_dimension)


def _size_dimension(source: Shape, d: int) -> None:
    if not 0 <= d < len(source.dimensions):
        raise ShapeError(f"dimensions=[{d}] is not a dimension of operand 0 {source}")
    if source.dimensions[d] > INT32_MAX:
        raise ShapeError(f"dimension {d} of operand 0 {source} must fit in s32 (at most {INT32_MAX})")


@shape_rule(Op.GET_DIMENSION_SIZE)
def get_dimension_size_shape(ctx: ShapeContext) -> Shape:
    """The size of one dimension at run time, an s32 scalar."""
    _size_dimension(array_operand(ctx, 0), the_dimension(ctx))
    return Shape.scalar(S32)


@shape_rule(Op.SET_DIMENSION_SIZE)
def set_dimension_size_shape(ctx: ShapeContext) -> Shape:
    """The operand with one dimension made dynamic, its size at run time given by operand 1."""
    source = array_operand(ctx, 0)
    size = operand(ctx, 1, "size")
    d = the_dimension(ctx)
    _size_dimension(source, d)
    if not (size.is_array and size.rank == 0 and size.element_type is S32):
        raise ShapeError(f"operand 1 (size) must be s32[]: found {size}")
    if source.dynamic_dimensions[d]:
        return source
    flags = tuple(k == d or f for k, f in enumerate(source.dynamic_dimensions))
    return source.replace(dynamic_dimensions=flags)


@builder_function
def GetDimensionSize(operand: XlaOp, dimension: int) -> XlaOp:
    """The size of `dimension` as an s32 scalar (page 003); a static dimension gives a constant,
    as XlaBuilder does."""
    from .tuple_ops import ConstantR0

    builder = builder_of("GetDimensionSize", operand)
    require_ops(builder, "GetDimensionSize", operand=operand)
    (d,) = int_tuple(builder, "GetDimensionSize", dimension, "dimension")
    try:
        _size_dimension(operand.shape, d)
    except ShapeError as e:
        raise builder.error("GetDimensionSize", e.message) from None
    if not operand.shape.dynamic_dimensions[d]:
        return ConstantR0(builder, operand.shape.dimensions[d], S32)  # type: ignore[no-any-return]
    return builder.add("GetDimensionSize", Op.GET_DIMENSION_SIZE, (operand,), {"dimensions": (d,)})


@builder_function
def SetDimensionSize(operand: XlaOp, val: XlaOp, dimension: int) -> XlaOp:
    """The operand with `dimension` dynamic, of runtime size `val` (an s32 scalar, page 003)."""
    builder = builder_of("SetDimensionSize", operand)
    (d,) = int_tuple(builder, "SetDimensionSize", dimension, "dimension")
    return builder.add("SetDimensionSize", Op.SET_DIMENSION_SIZE, (operand, val), {"dimensions": (d,)})


@builder_function
def RemoveDynamicDimension(operand: XlaOp, dimension: int) -> XlaOp:
    """The operand with `dimension` static again: a set-dimension-size to its bound."""
    from .tuple_ops import ConstantR0

    builder = builder_of("RemoveDynamicDimension", operand)
    require_ops(builder, "RemoveDynamicDimension", operand=operand)
    (d,) = int_tuple(builder, "RemoveDynamicDimension", dimension, "dimension")
    source = operand.shape
    try:
        _size_dimension(source, d)
        if source.dimensions[d] == UNBOUNDED:
            raise ShapeError(f"dimension {d} of operand 0 {source} is unbounded: it has no static size")
    except ShapeError as e:
        raise builder.error("RemoveDynamicDimension", e.message) from None
    size = ConstantR0(builder, source.dimensions[d], S32)
    context = ShapeContext(
        Op.SET_DIMENSION_SIZE, (source, size.shape), {"dimensions": (d,)}, builder.program_shape
    )
    set_dimension_size_shape(context)  # the rule the verifier will apply
    flags = tuple(f and k != d for k, f in enumerate(source.dynamic_dimensions))
    # The instruction states the dimension static; XLA's verifier compares ignoring dynamism.
    return builder.add(
        "RemoveDynamicDimension",
        Op.SET_DIMENSION_SIZE,
        (operand, size),
        {"dimensions": (d,)},
        shape=source.replace(dynamic_dimensions=flags),
    )


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.IOTA)
def iota_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """0, 1, 2, ... along iota_dimension, converted to the element type as ConvertElementType
    would convert the integer."""
    from ..numerics.numerics import convert

    shape, dim = instr.shape, instr.attrs["iota_dimension"]
    t = shape.element_type
    counts = np.arange(shape.dimensions[dim], dtype=np.int64)
    exact = counts if t.is_integral or t is PrimitiveType.PRED else counts.astype(np.float64)
    line = convert(exact, t)
    view = [1] * shape.rank
    view[dim] = shape.dimensions[dim]
    value = np.broadcast_to(line.reshape(view), shape.dimensions)
    return lambda: value


@kernel(Op.COPY)
def copy_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Values are never written in place, so a copy is the value itself."""
    return lambda x: x


@kernel(Op.COPY_START)
def copy_start_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda x: (x, x, np.zeros((), np.uint32))


@kernel(Op.COPY_DONE)
def copy_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda started: started[0]


@kernel(Op.BITCAST)
def bitcast_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """The operand's physical bytes read through the result's layout: a plain reshape when both
    lay their elements out row-major, the memory functions otherwise."""
    from ..physical_bytes import from_physical, to_physical

    source, result = ctx.operand_shapes(instr)[0], instr.shape
    if source.rank == 0 and result.rank == 0:  # a scalar read as another type (works lifted too)
        from ..numerics.bits import bitcast_convert

        return lambda x: bitcast_convert(x, source.element_type, result.element_type)
    if _row_major(source) and _row_major(result) and source.element_type is result.element_type:
        dims = result.dimensions
        return lambda x: np.reshape(x, dims)
    return lambda x: from_physical(to_physical(x, source), result)


def _row_major(shape: Shape) -> bool:
    layout = shape.layout
    if layout is None:
        return True
    return tuple(layout.minor_to_major) == tuple(reversed(range(shape.rank))) and not layout.tiles


@kernel(Op.GET_DIMENSION_SIZE)
def get_dimension_size_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    dim = instr.attrs["dimensions"][0]
    return lambda x: np.array(x.shape[dim], dtype=np.int32)


@kernel(Op.SET_DIMENSION_SIZE)
def set_dimension_size_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """The operand with its dynamic size in `dimension` set: values hold only the elements within
    the dynamic sizes, so the array is cut to the size (or padded with zeros up to it: the
    padding of a dynamic array holds no defined values)."""
    dim = instr.attrs["dimensions"][0]

    def run(x: np.ndarray, size: np.ndarray) -> np.ndarray:
        n = int(size)
        bound = instr.shape.dimensions[dim]
        n = min(max(n, 0), bound) if bound >= 0 else max(n, 0)
        if n <= x.shape[dim]:
            return np.take(x, np.arange(n), axis=dim)
        pad = [(0, 0)] * x.ndim
        pad[dim] = (0, n - x.shape[dim])
        return np.pad(x, pad)

    return run
