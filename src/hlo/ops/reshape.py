"""Reshapes (page 003: Reshape, Collapse; XlaBuilder's DynamicReshape): the element count is kept
and each dynamic dimension of the operand is carried to the result dimension it becomes, as XLA's
InferReshapeShape does. HLO states a reshape's new dimensions only in its result shape."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import INT
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .array_rules import (
    add_given,
    given_shape_rule,
    int_tuple,
    ints_text,
    is_bounded_dynamic,
    require_ops,
    require_written_shape,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, unless
from .rule_helpers import array_operand, builder_of
from .shape_ops import transpose

if TYPE_CHECKING:
    from ..numerics.context import KernelContext
    from .handles import XlaOp

Op = Opcode


# -- reshape ----------------------------------------------------------------------------------
define(Op.RESHAPE, AttrSpec("inferred_dimension", INT, default=-1, printed=unless(-1)))


def _same_elements(operand: Shape, result: Shape) -> None:
    if not result.is_array or result.element_type is not operand.element_type:
        raise ShapeError(
            f"the result must be an array of the operand's element type: found {operand} and {result}"
        )
    if operand.is_unbounded_dynamic or result.is_unbounded_dynamic:
        return  # the element counts are unknown
    if operand.element_count != result.element_count:
        raise ShapeError(
            f"the result must have the operand's {operand.element_count} elements: found {operand} and "
            f"{result} ({result.element_count} elements)"
        )


@given_shape_rule(Op.RESHAPE)
def reshape_shape(ctx: ShapeContext) -> Shape:
    """The HLO reshape: the written result holds the operand's elements (XLA's verifier)."""
    operand = array_operand(ctx, 0)
    result = require_written_shape(ctx)
    _same_elements(operand, result)
    inferred = ctx.attr("inferred_dimension", -1)
    if inferred != -1 and not 0 <= inferred < result.rank:
        raise ShapeError(f"inferred_dimension={inferred} is not a dimension of the result {result}")
    return result


def reshape_factors(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int]]:
    """XLA's CommonFactors: (i, j) bounds where prod(a[:i]) == prod(b[:j]), as fine as possible;
    used to follow a dynamic dimension through a reshape."""
    if list(a) == list(b):
        return [(i, i) for i in range(len(a) + 1)]
    bounds: list[tuple[int, int]] = []
    i = j = 0
    prior = (-1, -1)
    while i < len(a) and j < len(b) and a[i] == b[j]:
        prior = (i, j)
        bounds.append(prior)
        i, j = i + 1, j + 1
    rest = math.prod(a[i:])
    if rest != math.prod(b[j:]):
        return [(0, 0), (len(a), len(b))]
    if rest == 0:
        return [*bounds, (i, j), (len(a), len(b))]
    pa = pb = 1
    while True:
        if pa == pb and (i > prior[0] or j > prior[1]):
            prior = (i, j)
            bounds.append(prior)
            continue
        in_a, in_b = i < len(a), j < len(b)
        if not (in_a or in_b):
            return bounds
        next_a = pa < pb or (in_a and (not in_b or (pa == pb and a[i] <= b[j])))
        next_b = pb < pa or (in_b and (not in_a or (pa == pb and b[j] <= a[i])))
        if next_a:
            pa, i = pa * a[i], i + 1
        if next_b:
            pb, j = pb * b[j], j + 1


def infer_reshape(operand: Shape, new_sizes: Sequence[int], inferred_dimension: int = -1) -> Shape:
    """The shape XlaBuilder's Reshape gives: the new sizes, with each dynamic dimension of the
    operand carried to the result dimension it becomes (XLA's InferReshapeShape)."""
    if not operand.is_array:
        raise ShapeError(f"operand 0 must be an array: found {operand}")
    sizes = tuple(new_sizes)
    if any(n < 0 for n in sizes):
        raise ShapeError(f"new_sizes={ints_text(sizes)} must be static sizes >= 0")
    if inferred_dimension != -1 and not 0 <= inferred_dimension < len(sizes):
        raise ShapeError(
            f"inferred_dimension={inferred_dimension} is not a dimension of new_sizes={ints_text(sizes)}"
        )
    static = Shape.array(operand.element_type, sizes)
    if operand.is_unbounded_dynamic:
        if any(is_bounded_dynamic(operand, d) for d in range(operand.rank)):
            raise ShapeError(
                f"an operand with both bounded and unbounded dimensions cannot be reshaped: found {operand}"
            )
        return static
    _same_elements(operand, static)
    dynamic = [False] * len(sizes)
    factors = reshape_factors(operand.dimensions, sizes)
    for d in (d for d in range(operand.rank) if operand.dynamic_dimensions[d]):
        in_lo = in_hi = out_lo = out_hi = -1
        for (a0, b0), (a1, b1) in zip(factors, factors[1:]):
            if a0 <= d < a1:
                in_lo, in_hi, out_lo, out_hi = a0, a1, b0, b1
                break
        if in_hi - in_lo > 1 and out_hi - out_lo > 1:
            raise ShapeError(
                f"dynamic dimension {d} of {operand} would be both split and combined by "
                f"new_sizes={ints_text(sizes)}"
            )
        for a, b in factors:  # size-1 result dimensions next to the group may take the dynamism too
            if a == in_lo:
                out_lo = min(out_lo, b)
            if a == in_hi:
                out_hi = max(out_hi, b)
        target = -1
        if operand.dimensions[d] == 1 and sizes:
            if d == 0:
                target = 0
            if d == operand.rank - 1:
                target = len(sizes) - 1
            if target == -1:
                raise ShapeError(
                    f"dynamic dimension {d} of size 1 in {operand} must be the most major or most minor"
                )
        if target == -1 and out_hi - out_lo == 1:
            target = out_lo
        if target == -1 and out_hi - out_lo > 1:
            target = inferred_dimension
        if target != -1:
            dynamic[target] = True
        else:
            candidates = [k for k in range(out_lo, out_hi) if sizes[k] != 1]
            if len(candidates) == 1:
                dynamic[candidates[0]] = True
    return Shape.array(operand.element_type, sizes, dynamic_dimensions=dynamic)


def reshape(op_name: str, operand: XlaOp, new_sizes: Sequence[int], inferred_dimension: int = -1) -> XlaOp:
    builder = builder_of(op_name, operand)
    require_ops(builder, op_name, operand=operand)
    sizes = int_tuple(builder, op_name, new_sizes, "new_sizes")
    try:
        shape = infer_reshape(operand.shape, sizes, inferred_dimension)
    except ShapeError as e:
        raise builder.error(op_name, e.message) from None
    attrs = {} if inferred_dimension == -1 else {"inferred_dimension": inferred_dimension}
    return add_given(builder, op_name, Op.RESHAPE, (operand,), attrs, shape)


@builder_function
def Reshape(operand: XlaOp, new_sizes: Sequence[int], *more: Sequence[int]) -> XlaOp:
    """The operand's elements, in row-major order, as an array of `new_sizes` (page 003).
    `Reshape(operand, dimensions, new_sizes)`, XLA's older form, first transposes by `dimensions`."""
    if more:
        if len(more) > 1:
            raise builder_of("Reshape", operand).error(
                "Reshape", "takes (operand, new_sizes) or (operand, dimensions, new_sizes)"
            )
        dims = int_tuple(builder_of("Reshape", operand), "Reshape", new_sizes, "dimensions")
        if dims != tuple(range(len(dims))):
            operand = transpose("Reshape", operand, dims)
        new_sizes = more[0]
    return reshape("Reshape", operand, new_sizes)


@builder_function
def ReshapeWithInferredDimension(operand: XlaOp, new_sizes: Sequence[int], inferred_dimension: int) -> XlaOp:
    """Reshape, naming the result dimension a dynamic operand dimension goes to when several could."""
    return reshape("ReshapeWithInferredDimension", operand, new_sizes, inferred_dimension)


@builder_function
def Collapse(operand: XlaOp, dimensions: Sequence[int]) -> XlaOp:
    """Consecutive dimensions, in order, merged into one of their product's size (page 003); one
    dimension or none leaves the operand as it is."""
    builder = builder_of("Collapse", operand)
    require_ops(builder, "Collapse", operand=operand)
    dims = int_tuple(builder, "Collapse", dimensions, "dimensions")
    if len(dims) <= 1:
        return operand
    if any(b != a + 1 for a, b in zip(dims, dims[1:])):
        raise builder.error(
            "Collapse", f"dimensions={ints_text(dims)} must be consecutive and in increasing order"
        )
    s = operand.shape
    if not s.is_array or dims[0] < 0 or dims[-1] >= s.rank:
        bad = dims[0] if dims[0] < 0 else dims[-1]
        raise builder.error(
            "Collapse", f"dimensions={ints_text(dims)} contains {bad}, not a dimension of {s}"
        )
    sizes = [
        *s.dimensions[: dims[0]],
        math.prod(s.dimensions[dims[0] : dims[-1] + 1]),
        *s.dimensions[dims[-1] + 1 :],
    ]
    return reshape("Collapse", operand, sizes)


# -- dynamic-reshape ------------------------------------------------------------------------------
def _dynamic_reshape_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    return None if operands else "expects at least one operand (the array to reshape)"


define(Op.DYNAMIC_RESHAPE, check=_dynamic_reshape_operands)


@given_shape_rule(Op.DYNAMIC_RESHAPE)
def dynamic_reshape_shape(ctx: ShapeContext) -> Shape:
    """The operand's elements as the written result, whose dimension i has the runtime size given
    by operand i+1 (an s32 scalar)."""
    operand = array_operand(ctx, 0)
    result = require_written_shape(ctx)
    _same_elements(operand, result)
    sizes = ctx.operands[1:]
    if len(sizes) != result.rank:
        raise ShapeError(f"expects one size operand per dimension of the result {result}: found {len(sizes)}")
    for k, s in enumerate(sizes, 1):
        if not (s.is_array and s.rank == 0 and s.element_type is PrimitiveType.S32):
            raise ShapeError(f"operand {k} (the size of result dimension {k - 1}) must be s32[]: found {s}")
    return result


@builder_function
def DynamicReshape(
    operand: XlaOp,
    dim_sizes: Sequence[XlaOp],
    new_size_bounds: Sequence[int],
    dims_are_dynamic: Sequence[bool],
) -> XlaOp:
    """A reshape whose result sizes are runtime values (`dim_sizes`, s32 scalars) within
    `new_size_bounds`; the dimensions flagged in `dims_are_dynamic` are dynamic."""
    builder = builder_of("DynamicReshape", operand)
    sizes = tuple(dim_sizes)
    require_ops(builder, "DynamicReshape", operand=operand, dim_sizes=sizes)
    bounds = int_tuple(builder, "DynamicReshape", new_size_bounds, "new_size_bounds")
    flags = tuple(bool(f) for f in dims_are_dynamic)
    if len(bounds) != len(flags):
        raise builder.error(
            "DynamicReshape",
            f"new_size_bounds={ints_text(bounds)} and dims_are_dynamic ({len(flags)} flags) "
            "must have equal lengths",
        )
    if any(n < 0 for n in bounds) or not operand.shape.is_array:
        raise builder.error(
            "DynamicReshape",
            f"new_size_bounds={ints_text(bounds)} must be sizes >= 0 for an array operand: "
            f"found {operand.shape}",
        )
    shape = Shape.array(operand.shape.element_type, bounds, dynamic_dimensions=flags)
    return add_given(builder, "DynamicReshape", Op.DYNAMIC_RESHAPE, (operand, *sizes), {}, shape)


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.RESHAPE)
def reshape_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """Row-major reshape of the logical array (layouts matter only to bitcast)."""
    dims = instr.shape.dimensions
    if not dims and ctx.operand_shapes(instr)[0].rank == 0:
        return lambda x: x  # scalar to scalar (works lifted too)
    dynamic = [d for d, flag in enumerate(instr.shape.dynamic_dimensions) if flag]
    if len(dynamic) == 1:  # a value holds only its dynamic size: that dimension takes the rest
        free = list(dims)
        free[dynamic[0]] = -1
        return lambda x: np.reshape(x, free)
    return lambda x: np.reshape(x, dims)


@kernel(Op.DYNAMIC_RESHAPE)
def dynamic_reshape_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """Reshape to the sizes given by the scalar operands."""
    return lambda x, *sizes: np.reshape(x, tuple(int(s) for s in sizes))
