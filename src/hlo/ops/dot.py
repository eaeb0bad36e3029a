"""Dot (dot-general): page 003's Dot and DotGeneral, XLA's InferDotOpShape (in dot_common) and a
batched-matmul kernel. Ragged-dot and scaled-dot are their own modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .array_rules import require_ops
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
from .ragged_dot import RaggedDotDimensionNumbers
from .registry import ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..numerics.context import KernelContext
    from .handles import XlaOp

__all__ = ["DotDimensionNumbers", "PrecisionConfig", "RaggedDotDimensionNumbers"]

Op = Opcode

# XLA's parser gives dot one default precision per operand (ragged-dot and scaled-dot: two).
define(Op.DOT, *dot_dimension_attrs(), *precision_attrs(-1))


@shape_rule(Op.DOT)
def dot_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferDotOpShape (page 003: DotGeneral)."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    dn = DotDimensionNumbers.of(ctx.attrs)
    check_dot_dimensions(ctx.opcode.text, lhs, rhs, dn)
    return dot_result(ctx, lhs, rhs, dn)


@builder_function
def DotGeneral(
    lhs: XlaOp,
    rhs: XlaOp,
    dimension_numbers: DotDimensionNumbers | Mapping[str, Sequence[int]],
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """Contract the given dimensions of lhs and rhs, batch over the batch dimensions (page 003:
    DotGeneral); the result: batch, lhs free, rhs free dimensions."""
    builder = builder_of("DotGeneral", lhs, rhs)
    attrs = dimension_attrs(builder, "DotGeneral", dimension_numbers)
    return add_dot(
        "DotGeneral", Op.DOT, {"lhs": lhs, "rhs": rhs}, attrs, precision_config, preferred_element_type
    )


@builder_function
def Dot(
    lhs: XlaOp,
    rhs: XlaOp,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """Page 003's Dot: dimension 1 of lhs (0 if lhs is a vector) with dimension 0 of rhs, as
    XlaBuilder::Dot (vector.vector, matrix.vector, vector.matrix, matrix.matrix; XLA checks no
    rank, so a higher-rank lhs contracts its dimension 1 too)."""
    builder = builder_of("Dot", lhs, rhs)
    require_ops(builder, "Dot", lhs=lhs, rhs=rhs)
    lhs_dim = 0 if lhs.shape.is_array and lhs.shape.rank == 1 else 1
    numbers = DotDimensionNumbers((lhs_dim,), (0,))
    attrs = dimension_attrs(builder, "Dot", numbers)
    return add_dot("Dot", Op.DOT, {"lhs": lhs, "rhs": rhs}, attrs, precision_config, preferred_element_type)


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.DOT)
def dot_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """A batched matmul in the result's working type (numerics.linear)."""
    from ..numerics.linear import dot_general_fn

    dn = DotDimensionNumbers.of(instr.attrs)
    lhs, rhs = ctx.operand_shapes(instr)
    return dot_general_fn(
        np.dtype(lhs.element_type.numpy_dtype),
        np.dtype(rhs.element_type.numpy_dtype),
        len(lhs.dimensions),
        len(rhs.dimensions),
        dn.lhs_batch_dimensions,
        dn.lhs_contracting_dimensions,
        dn.rhs_batch_dimensions,
        dn.rhs_contracting_dimensions,
        instr.shape.element_type,
        ctx.options.flush_denormals,
        ctx.options.jit,
    )
