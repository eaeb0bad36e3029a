"""Scaled-dot: a dot of block-scaled operands (XLA's verifier checks of the scales,
XlaBuilder::ScaledDot).

The kernel: XLA:CPU cannot run the opcode (its HLO -> StableHLO path has no form for it), so the
reference is XLA's own definition, the ScaledDotRewriter that decomposes it for the backends: each
operand with a non-scalar scale is dequantized, operand and scale converted to a common type (bf16
when both are narrower than 16 bits, the type itself when they agree, f32 for two different types of
one width, else the wider), the scale repeated over blocks (operand size / scale size elements per
scale element along each dimension) and multiplied in; a scalar scale leaves its operand as it is.
Then an ordinary dot with the scaled-dot's dimension numbers and result type."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import numerics
from ..numerics.context import KernelContext
from ..numerics.linear import dot_general
from ..shape import UNBOUNDED, Shape
from .array_rules import ints_text
from .dot_common import (
    DotDimensionNumbers,
    PrecisionConfig,
    add_dot,
    check_dot_dimensions,
    dimension_attrs,
    dot_dimension_attrs,
    dot_result,
    precision_attrs,
)
from .registry import ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from .handles import XlaOp

Op = Opcode

define(Op.SCALED_DOT, *dot_dimension_attrs(), *precision_attrs(2))


def _is_no_op_scale(x: Shape, scale: Shape) -> bool:
    """XLA's IsNoOpScale: a bf16 scale of a bf16 operand, all its sizes 1 (a scalar too), stands
    for "not scaled" when the operand has a size other than 1."""
    return (
        scale.element_type is x.element_type is PrimitiveType.BF16
        and all(n == 1 for n in scale.dimensions)
        and any(n != 1 for n in x.dimensions)
    )


def _check_scale(k: int, side: str, x: Shape, scale: Shape, contracting: tuple[int, ...]) -> None:
    """XLA's ScalesShapeVerifier: the scale has the operand's rank, the operand exactly one
    contracting dimension, and each operand size is a multiple of the scale's."""
    if _is_no_op_scale(x, scale):
        return
    if scale.rank != x.rank:
        raise ShapeError(
            f"operand {k + 2} ({side}_scale) must have the rank of operand {k} ({side}): found {scale} "
            f"and {x}"
        )
    if len(contracting) != 1:
        raise ShapeError(
            f"{side}_contracting_dims={ints_text(contracting)} must name exactly one dimension when "
            f"{side} is scaled"
        )
    for d, (n, m) in enumerate(zip(x.dimensions, scale.dimensions)):
        if UNBOUNDED in (n, m):
            continue
        if m == 0 or n % m:
            raise ShapeError(
                f"dimension {d} of operand {k} ({side}, {x}) must be a multiple of dimension {d} of "
                f"operand {k + 2} ({side}_scale, {scale})"
            )


@shape_rule(Op.SCALED_DOT)
def scaled_dot_shape(ctx: ShapeContext) -> Shape:
    """A dot of block-scaled operands (lhs, rhs, lhs_scale, rhs_scale): the scales as XLA's
    verifier checks them, the result as InferDotOpShape of lhs and rhs."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    lhs_scale, rhs_scale = array_operand(ctx, 2, "lhs_scale"), array_operand(ctx, 3, "rhs_scale")
    dn = DotDimensionNumbers.of(ctx.attrs)
    check_dot_dimensions(ctx.opcode.text, lhs, rhs, dn)
    _check_scale(0, "lhs", lhs, lhs_scale, dn.lhs_contracting_dimensions)
    _check_scale(1, "rhs", rhs, rhs_scale, dn.rhs_contracting_dimensions)
    if lhs_scale.rank == 0 and rhs_scale.rank == 0:
        raise ShapeError(
            f"at least one of the scales must not be a scalar: found {lhs_scale} and {rhs_scale}"
        )
    return dot_result(ctx, lhs, rhs, dn)


@builder_function
def ScaledDot(
    lhs: XlaOp,
    rhs: XlaOp,
    lhs_scale: XlaOp,
    rhs_scale: XlaOp,
    dimension_numbers: DotDimensionNumbers | Mapping[str, Sequence[int]],
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """A dot of block-scaled operands, each multiplied by its scale broadcast over blocks
    (XlaBuilder::ScaledDot)."""
    builder = builder_of("ScaledDot", lhs, rhs, lhs_scale, rhs_scale)
    attrs = dimension_attrs(builder, "ScaledDot", dimension_numbers)
    operands = {"lhs": lhs, "rhs": rhs, "lhs_scale": lhs_scale, "rhs_scale": rhs_scale}
    return add_dot("ScaledDot", Op.SCALED_DOT, operands, attrs, precision_config, preferred_element_type)


# -- kernel -----------------------------------------------------------------------------------
def common_type(a: PrimitiveType, b: PrimitiveType) -> PrimitiveType:
    """XLA's GetTargetType for an operand and its scale."""
    if a.bit_width < 16 and b.bit_width < 16:
        return PrimitiveType.BF16
    if a is b:
        return a
    if a.bit_width == b.bit_width:
        return PrimitiveType.F32
    return a if a.bit_width > b.bit_width else b


def dequantize(
    x: np.ndarray, scale: np.ndarray, x_type: PrimitiveType, scale_type: PrimitiveType, flush: bool
) -> np.ndarray:
    """x times its scale repeated over blocks, in the common type (rounded once, as XLA's
    multiply of that type); x itself for a scalar scale."""
    if scale.ndim == 0:
        return x
    target = common_type(x_type, scale_type)
    full = scale
    for axis, (n, m) in enumerate(zip(x.shape, scale.shape)):
        full = np.repeat(full, n // m, axis=axis)
    work = np.dtype(numerics.compute_dtype(np.dtype(target.numpy_dtype)))
    a = numerics.convert(x, target).astype(work)
    b = numerics.convert(full, target).astype(work)
    if flush:
        a, b = numerics.flush_denormals(a), numerics.flush_denormals(b)
    product = np.multiply(a, b)
    if flush:
        product = numerics.flush_denormals(product)
    return product.astype(np.dtype(target.numpy_dtype))


@kernel(Opcode.SCALED_DOT)
def scaled_dot_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    dn = DotDimensionNumbers.of(instr.attrs)
    dims = (
        dn.lhs_batch_dimensions,
        dn.lhs_contracting_dimensions,
        dn.rhs_batch_dimensions,
        dn.rhs_contracting_dimensions,
    )
    types = [s.element_type for s in ctx.operand_shapes(instr)]
    result, flush = instr.shape.element_type, ctx.options.flush_denormals

    def run(lhs: np.ndarray, rhs: np.ndarray, lhs_scale: np.ndarray, rhs_scale: np.ndarray) -> np.ndarray:
        a = dequantize(lhs, lhs_scale, types[0], types[2], flush)
        b = dequantize(rhs, rhs_scale, types[1], types[3], flush)
        return dot_general(a, b, *dims, result, flush)

    return run
