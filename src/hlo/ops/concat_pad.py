"""Concatenate and pad (page 003: ConcatInDim, Pad, PadInDim): shape rules with dynamic
dimensions carried as XLA's shape_inference.cc carries them, builder functions and kernels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST, PADDING
from ..ir.attrs import PaddingConfig, PaddingDimension
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape
from .array_rules import (
    bound_of,
    higher_precision,
    int_tuple,
    most_specific,
    one_dimension,
    require_ops,
    same_type_ignoring_fp,
    the_dimension,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


# -- concatenate ------------------------------------------------------------------------------
define(Op.CONCATENATE, AttrSpec("dimensions", INT_LIST, required=True), check=one_dimension)


def _concatenated(sizes: tuple[int, int], bounds: tuple[int, int]) -> tuple[int, int]:
    """(size, bound) of two pieces joined: sizes add unless one is `?`; a bound exists when each
    piece has a bound or a static size (XLA's InferConcatenatedDimAndBound)."""
    size = UNBOUNDED if UNBOUNDED in sizes else sizes[0] + sizes[1]
    if UNBOUNDED in bounds:
        either = [b if b != UNBOUNDED else s for s, b in zip(sizes, bounds)]
        has_bound = any(b != UNBOUNDED for b in bounds)
        bound = either[0] + either[1] if has_bound and UNBOUNDED not in either else UNBOUNDED
    else:
        bound = bounds[0] + bounds[1]
    return size, bound


@shape_rule(Op.CONCATENATE)
def concatenate_shape(ctx: ShapeContext) -> Shape:
    """The operands joined along `dimensions`' one dimension; they agree in every other one."""
    if not ctx.operands:
        raise ShapeError("expects at least one operand")
    d = the_dimension(ctx)
    first = array_operand(ctx, 0)
    if not 0 <= d < first.rank:
        raise ShapeError(f"dimensions=[{d}] is not a dimension of operand 0 {first}")
    element_type = first.element_type
    for k, s in enumerate(ctx.operands[1:], 1):
        array_operand(ctx, k)
        if s.rank != first.rank:
            raise ShapeError(f"operand {k} must have the rank of operand 0: found {first} and {s}")
        if not same_type_ignoring_fp(first, s):
            raise ShapeError(f"operand {k} must have the element type of operand 0: found {first} and {s}")
        for i, (a, b) in enumerate(zip(first.dimensions, s.dimensions)):
            if i != d and a != b and UNBOUNDED not in (a, b):
                raise ShapeError(
                    f"operand {k} must match operand 0 in every dimension but {d}: found {first} and {s}"
                )
        element_type = higher_precision(s.element_type, first.element_type)  # as XLA: last with first
    sizes = [UNBOUNDED] * first.rank
    bounds = [UNBOUNDED] * first.rank
    sizes[d] = 0
    for s in ctx.operands:
        for i in range(first.rank):
            pair = ((sizes[i], s.dimensions[i]), (bounds[i], bound_of(s, i)))
            sizes[i], bounds[i] = _concatenated(*pair) if i == d else most_specific(i, *pair)
    dynamic = [b != UNBOUNDED or n == UNBOUNDED for n, b in zip(sizes, bounds)]
    return Shape.array(element_type, sizes, dynamic_dimensions=dynamic)


@builder_function
def ConcatInDim(builder: XlaBuilder, operands: Sequence[XlaOp], dimension: int) -> XlaOp:
    """The operands joined along `dimension` (page 003, Concatenate)."""
    return builder.add("ConcatInDim", Op.CONCATENATE, tuple(operands), {"dimensions": (int(dimension),)})


# -- pad --------------------------------------------------------------------------------------
define(Op.PAD, AttrSpec("padding", PADDING, required=True))


@shape_rule(Op.PAD)
def pad_shape(ctx: ShapeContext) -> Shape:
    """Each dimension grows by low + high edge padding (negative removes elements) and interior
    padding between elements; a dynamic dimension stays dynamic."""
    operand = array_operand(ctx, 0, "operand")
    value = array_operand(ctx, 1, "padding_value")
    config: PaddingConfig | None = ctx.attr("padding")
    pads = config.dimensions if config is not None else ()
    if value.rank != 0:
        raise ShapeError(f"operand 1 (padding_value) must be a scalar: found {value}")
    if len(pads) != operand.rank:
        raise ShapeError(
            f"padding= must give one low_high_interior per dimension of {operand}: found {len(pads)}"
        )
    if not same_type_ignoring_fp(operand, value):
        raise ShapeError(
            f"operand 1 (padding_value) must have the element type of operand 0: found {operand} and {value}"
        )
    sizes: list[int] = []
    for i, (n, p) in enumerate(zip(operand.dimensions, pads)):
        if p.interior < 0:
            raise ShapeError(
                f"padding= dimension {i} ({p.low}_{p.high}_{p.interior}) has negative interior padding"
            )
        if n == UNBOUNDED:
            sizes.append(UNBOUNDED)
            continue
        size = n + p.low + p.high + max(n - 1, 0) * p.interior
        if size < 0:
            raise ShapeError(
                f"padding= dimension {i} ({p.low}_{p.high}_{p.interior}) leaves a negative size for {operand}"
            )
        sizes.append(size)
    element_type = higher_precision(operand.element_type, value.element_type)
    return Shape.array(element_type, sizes, dynamic_dimensions=operand.dynamic_dimensions)


def as_padding_config(
    builder: XlaBuilder, op_name: str, config: PaddingConfig | Sequence[Sequence[int]]
) -> PaddingConfig:
    """A PaddingConfig, or one (low, high[, interior]) per dimension."""
    if isinstance(config, PaddingConfig):
        return config
    dims = []
    for entry in config:
        values = int_tuple(builder, op_name, entry, "padding_config entries")
        if len(values) not in (2, 3):
            raise builder.error(
                op_name,
                f"padding_config entries must be (low, high) or (low, high, interior): found {values}",
            )
        dims.append(PaddingDimension(*values))
    return PaddingConfig(tuple(dims))


@builder_function
def Pad(
    operand: XlaOp, padding_value: XlaOp, padding_config: PaddingConfig | Sequence[Sequence[int]]
) -> XlaOp:
    """The operand with `padding_value` added at the edges and between elements (page 003);
    `padding_config` is a PaddingConfig or one (low, high[, interior]) per dimension."""
    builder = builder_of("Pad", operand)
    config = as_padding_config(builder, "Pad", padding_config)
    return builder.add("Pad", Op.PAD, (operand, padding_value), {"padding": config})


@builder_function
def PadInDim(operand: XlaOp, padding_value: XlaOp, dimno: int, pad_lo: int, pad_hi: int) -> XlaOp:
    """Edge padding of dimension `dimno` only."""
    builder = builder_of("PadInDim", operand)
    require_ops(builder, "PadInDim", operand=operand)
    s = operand.shape
    if not s.is_array or not 0 <= dimno < s.rank:
        raise builder.error("PadInDim", f"dimno={dimno} is not a dimension of the operand {s}")
    dims = [PaddingDimension(0, 0)] * s.rank
    dims[dimno] = PaddingDimension(pad_lo, pad_hi)
    return builder.add("PadInDim", Op.PAD, (operand, padding_value), {"padding": PaddingConfig(tuple(dims))})


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.CONCATENATE)
def concatenate_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    axis = instr.attrs["dimensions"][0]
    return lambda *xs: np.concatenate(xs, axis=axis)


@kernel(Op.PAD)
def pad_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """Interior padding first (the operand's elements spread out), then edge padding; negative
    edge padding crops."""
    from ..numerics.windows import pad

    config = [(p.low, p.high, p.interior) for p in instr.attrs["padding"].dimensions]
    return lambda x, value: pad(x, value, config)
