"""Conversions (page 003: ConvertElementType, BitcastConvertType, ReducePrecision; XlaBuilder's
StochasticConvertType). HLO has no attribute for the new element type: it is the result's, which
the verifier passes as `preferred_element_type` and the builder asks for the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import EvalError, ShapeError
from ..ir.attr_kinds import INT
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import bits, numerics, subnormals
from ..shape import Shape, as_primitive_type
from .array_rules import require_ops, storage_bits, written_element_type
from .registry import BUILDERS, AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode

define(Op.CONVERT)
define(Op.BITCAST_CONVERT)
define(Op.STOCHASTIC_CONVERT)
define(
    Op.REDUCE_PRECISION,
    AttrSpec("exponent_bits", INT, required=True),
    AttrSpec("mantissa_bits", INT, required=True),
)


def _new_type(ctx: ShapeContext) -> PrimitiveType:
    new = written_element_type(ctx)
    if new is None:
        raise ShapeError("the new element type must be given: it is the result's")
    return new


@shape_rule(Op.CONVERT)
def convert_shape(ctx: ShapeContext) -> Shape:
    """Each element converted to the new type (complex to real keeps the real part)."""
    source = operand(ctx, 0)
    new = _new_type(ctx)
    if not source.is_array or not new.is_array_type:
        raise ShapeError(f"converts arrays only: found {source} to {new.text}")
    return source.with_element_type(new)


@shape_rule(Op.BITCAST_CONVERT)
def bitcast_convert_shape(ctx: ShapeContext) -> Shape:
    """The bits reinterpreted: equal widths keep the shape; a narrower type adds a minor dimension
    of the width ratio, a wider one removes a minor dimension of that size (page 003)."""
    source = operand(ctx, 0)
    new = _new_type(ctx)
    old = source.element_type
    if old.is_complex != new.is_complex:
        raise ShapeError(f"cannot reinterpret between complex and real types: found {source} to {new.text}")
    if not source.is_array or not new.is_array_type:
        raise ShapeError(f"reinterprets arrays only: found {source} to {new.text}")
    a, b = storage_bits(old), storage_bits(new)
    if max(a, b) % min(a, b):
        raise ShapeError(f"the bit widths of {old.text} ({a}) and {new.text} ({b}) must divide one another")
    if a == b:
        return source.with_element_type(new)
    ratio = max(a, b) // min(a, b)
    if a > b:
        dims, dynamic = (*source.dimensions, ratio), (*source.dynamic_dimensions, False)
    else:
        if not source.dimensions or source.dimensions[-1] != ratio:
            raise ShapeError(
                f"the last dimension of operand 0 must be {ratio}, the number of {old.text} in one "
                f"{new.text}: found {source}"
            )
        dims, dynamic = source.dimensions[:-1], source.dynamic_dimensions[:-1]
    return Shape.array(new, dims, dynamic_dimensions=dynamic)


@shape_rule(Op.STOCHASTIC_CONVERT)
def stochastic_convert_shape(ctx: ShapeContext) -> Shape:
    """A float operand rounded to the new type using operand 1's random bits, one unsigned
    integer of the same width per element."""
    source, random = array_operand(ctx, 0, "operand"), array_operand(ctx, 1, "random")
    new = _new_type(ctx)
    if not random.element_type.is_unsigned_integral:
        raise ShapeError(f"operand 1 (random) must be of an unsigned integer type: found {random}")
    if not source.element_type.is_floating_point:
        raise ShapeError(f"operand 0 must be floating point: found {source}")
    if source.element_type.bit_width != random.element_type.bit_width:
        raise ShapeError(
            f"operand 1 (random) must have the bit width of operand 0: found {source} and {random}"
        )
    if not source.equal(random, ignore_element_type=True, ignore_layout=True):
        raise ShapeError(
            f"operand 1 (random) must have the dimensions of operand 0: found {source} and {random}"
        )
    return source.with_element_type(new)


@shape_rule(Op.REDUCE_PRECISION)
def reduce_precision_shape(ctx: ShapeContext) -> Shape:
    """Values rounded to a float format of `exponent_bits` (>= 1, to tell zero from infinity)
    and `mantissa_bits` (>= 0); the type is unchanged."""
    source = array_operand(ctx, 0)
    if not source.element_type.is_floating_point:
        raise ShapeError(f"operand 0 must be floating point: found {source}")
    exponent_bits, mantissa_bits = ctx.attr("exponent_bits"), ctx.attr("mantissa_bits")
    if exponent_bits is None or mantissa_bits is None:
        raise ShapeError("exponent_bits= and mantissa_bits= are required")
    if exponent_bits < 1:
        raise ShapeError(f"exponent_bits={exponent_bits} must be at least 1")
    if mantissa_bits < 0:
        raise ShapeError(f"mantissa_bits={mantissa_bits} must not be negative")
    return source


# -- builder functions ------------------------------------------------------------------------
def _type(builder: XlaBuilder, op_name: str, new_element_type: PrimitiveType | str) -> PrimitiveType:
    try:
        return as_primitive_type(new_element_type)
    except ShapeError as e:
        raise builder.error(op_name, e.message) from None


@builder_function
def ConvertElementType(operand: XlaOp, new_element_type: PrimitiveType | str) -> XlaOp:
    """Each element converted, as C++'s static_cast (page 003). From complex to real the builder
    takes the real part first, as XlaBuilder does."""
    builder = builder_of("ConvertElementType", operand)
    require_ops(builder, "ConvertElementType", operand=operand)
    new = _type(builder, "ConvertElementType", new_element_type)
    try:
        convert_shape(ShapeContext(Op.CONVERT, (operand.shape,), {}, builder.program_shape, new))
    except ShapeError as e:
        raise builder.error("ConvertElementType", e.message) from None
    if operand.shape.element_type.is_complex and not new.is_complex:
        operand = BUILDERS["Real"](operand)
    return builder.add("ConvertElementType", Op.CONVERT, (operand,), preferred_element_type=new)


@builder_function
def BitcastConvertType(operand: XlaOp, new_element_type: PrimitiveType | str) -> XlaOp:
    """The same bits read as `new_element_type` (page 003)."""
    builder = builder_of("BitcastConvertType", operand)
    new = _type(builder, "BitcastConvertType", new_element_type)
    return builder.add("BitcastConvertType", Op.BITCAST_CONVERT, (operand,), preferred_element_type=new)


@builder_function
def StochasticConvertType(operand: XlaOp, random: XlaOp, new_element_type: PrimitiveType | str) -> XlaOp:
    """A float array converted with stochastic rounding driven by `random`."""
    builder = builder_of("StochasticConvertType", operand)
    new = _type(builder, "StochasticConvertType", new_element_type)
    return builder.add(
        "StochasticConvertType", Op.STOCHASTIC_CONVERT, (operand, random), preferred_element_type=new
    )


@builder_function
def ReducePrecision(operand: XlaOp, exponent_bits: int, mantissa_bits: int) -> XlaOp:
    """Float values rounded to a narrower format and back (page 003; XLA's argument order)."""
    builder = builder_of("ReducePrecision", operand)
    attrs = {"exponent_bits": int(exponent_bits), "mantissa_bits": int(mantissa_bits)}
    return builder.add("ReducePrecision", Op.REDUCE_PRECISION, (operand,), attrs)


# -- kernels ----------------------------------------------------------------------------------
P = PrimitiveType


@kernel(Op.CONVERT)
def convert_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """numerics.convert, with XLA:CPU's flushing of subnormals where its conversion is float
    arithmetic: widening to f64 (the f32 value is flushed), narrowing from f64 (the f32 result
    is flushed), and f32/f64 -> pred; conversions done on bits (bf16 <-> f32, f32 -> c64, taking
    a real part) keep subnormals."""
    source = ctx.operand_shapes(instr)[0].element_type
    target = instr.shape.element_type
    if not ctx.options.flush_denormals:
        return lambda x: numerics.convert(x, target)
    s = source.complex_component_type if source.is_complex and not target.is_complex else source
    t = target.complex_component_type if target.is_complex else target
    if target is P.PRED and s in (P.F32, P.F64):  # of a complex value, its real part
        if source.is_complex:
            return lambda x: np.asarray(numerics.flush_denormals(np.ascontiguousarray(x.real)) != 0)
        return lambda x: np.asarray(numerics.flush_denormals(x) != 0)
    widening = t is P.F64 and s.is_floating_point and s is not P.F64
    narrowing = s is P.F64 and t.is_floating_point and t is not P.F64

    def run(x: np.ndarray) -> np.ndarray:
        if source.is_complex and not target.is_complex:
            x = x.real.copy()  # np.ascontiguousarray would make a 0-d array 1-d
        if widening or narrowing:
            step = P.C64 if x.dtype.kind == "c" else P.F32
            x = numerics.flush_denormals(numerics.convert(x, step))
        if target is P.PRED:  # a comparison with zero, which the CPU's flush-to-zero mode would flush
            with subnormals.keeping_subnormals():
                return numerics.convert(x, target)
        return numerics.convert(x, target)

    return run


@kernel(Op.BITCAST_CONVERT)
def bitcast_convert_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    source = ctx.operand_shapes(instr)[0].element_type
    target = instr.shape.element_type
    return lambda x: bits.bitcast_convert(x, source, target)


@kernel(Op.REDUCE_PRECISION)
def reduce_precision_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    t = instr.shape.element_type
    exponent_bits, mantissa_bits = instr.attrs["exponent_bits"], instr.attrs["mantissa_bits"]
    return lambda x: bits.reduce_precision(x, t, exponent_bits, mantissa_bits)


@kernel(Op.STOCHASTIC_CONVERT)
def stochastic_convert_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """Float to signed integer with stochastic rounding, as XLA: the magnitude rounds up when the
    random bits are below its fraction scaled to their range; infinities and out-of-range values
    saturate, NaN is 0."""
    target = instr.shape.element_type
    if not target.is_signed_integral:
        raise EvalError(
            f"stochastic-convert to {target.text} is not supported (XLA converts to signed integers)"
        )
    out = np.dtype(target.numpy_dtype)
    info = np.iinfo(out) if out.kind == "i" else None
    low, high = (
        (int(info.min), int(info.max))
        if info
        else (-(2 ** (target.bit_width - 1)), 2 ** (target.bit_width - 1) - 1)
    )

    def run(x: np.ndarray, random: np.ndarray) -> np.ndarray:
        work = x.astype(np.float64)
        magnitude = np.abs(np.where(np.isfinite(work), work, 0))
        truncated = np.floor(magnitude)
        fraction = magnitude - truncated
        digits = 8 * random.dtype.itemsize
        fixed = np.floor(np.ldexp(fraction, digits))
        up = random.astype(np.float64) < fixed
        result = np.where(np.signbit(work), -(truncated + up), truncated + up)
        result = np.where(work >= high, high, np.where(work <= low, low, result))
        result = np.where(np.isnan(work), 0, result)
        return result.astype(np.int64).astype(out)

    return run
