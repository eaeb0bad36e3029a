"""Ops that move data without arithmetic, part 1 (page 003: Broadcast, BroadcastInDim, Transpose,
Rev): shape rules and builder functions, and the broadcast sequences XlaBuilder inserts for
implicit broadcasting. Reshapes are in reshape.py, slices in slicing.py, concatenation and
padding in concat_pad.py, iota, copies, bitcast and dimension sizes in data_ops.py (imported at
the bottom)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape
from .array_rules import (
    add_given,
    check_dims,
    given_shape_rule,
    int_tuple,
    ints_text,
    is_bounded_dynamic,
    one_dimension,
    require_ops,
    written_shape,
)
from .registry import AttrSpec, OpContext, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..numerics.context import KernelContext
    from .handles import XlaOp

Op = Opcode
__all__ = ["one_dimension"]  # other families' parse-time check, kept importable from here


# -- broadcast --------------------------------------------------------------------------------
def _operand_is_scalar(ctx: OpContext) -> bool:
    return bool(ctx.operand_shapes) and ctx.operand_shapes[0].is_array and ctx.operand_shapes[0].rank == 0


define(
    Op.BROADCAST,
    AttrSpec("dimensions", INT_LIST, required=lambda ctx: not _operand_is_scalar(ctx), default=()),
)


def sizes_first(operand: Shape, sizes: Sequence[int]) -> Shape:
    """`sizes` as new major dimensions before the operand's (XLA's InferBroadcastShape)."""
    if not operand.is_array:
        raise ShapeError(f"operand 0 must be an array: found {operand}")
    if operand.is_unbounded_dynamic:
        raise ShapeError(f"operand 0 must not have unbounded dimensions: found {operand}")
    for s in sizes:
        if s < 0:
            raise ShapeError(f"broadcast sizes {ints_text(sizes)} must be static sizes >= 0: found {s}")
    dynamic = (False,) * len(sizes) + operand.dynamic_dimensions
    return Shape.array(operand.element_type, (*sizes, *operand.dimensions), dynamic_dimensions=dynamic)


@given_shape_rule(Op.BROADCAST)
def broadcast_shape(ctx: ShapeContext) -> Shape:
    """The HLO broadcast: `dimensions` maps each operand dimension to a result dimension of the
    same size (XLA's verifier); the result shape is written."""
    operand = array_operand(ctx, 0)
    dims = tuple(ctx.attr("dimensions", ()))
    result = written_shape(ctx)
    if result is None:
        # No written shape: XLA's parser reads dimensions= as new major sizes (sensible for a
        # scalar operand only, whose dimensions={} gives the scalar back).
        result = sizes_first(operand, dims)
    if not result.is_array or result.element_type is not operand.element_type:
        raise ShapeError(
            f"the result must be an array of the operand's element type: found {operand} and {result}"
        )
    if len(dims) != operand.rank:
        raise ShapeError(
            f"dimensions={ints_text(dims)} must name one result dimension per dimension of operand {operand}"
        )
    check_dims(dims, result)
    for i, d in enumerate(dims):
        if result.dimensions[d] != operand.dimensions[i]:
            raise ShapeError(
                f"dimensions={ints_text(dims)} maps dimension {i} of operand {operand} to dimension {d} of "
                f"the result {result}: their sizes must be equal"
            )
    return result


def in_dim_broadcast(op_name: str, shape: Shape, operand: XlaOp, dims: Sequence[int]) -> XlaOp:
    """One HLO broadcast (XlaBuilder::InDimBroadcast): mapped dimensions keep the operand's
    bounded dynamism, the others are static."""
    builder = operand.builder
    if shape.is_unbounded_dynamic:
        raise builder.error(op_name, f"a broadcast result must not have unbounded dimensions: found {shape}")
    for i in range(shape.rank):
        if i in dims:
            k = list(dims).index(i)
            if is_bounded_dynamic(operand.shape, k) != is_bounded_dynamic(shape, i):
                raise builder.error(
                    op_name,
                    f"dimension {i} of the broadcast {shape} must be dynamic exactly when dimension {k} "
                    f"of its operand {operand.shape} is",
                )
        elif shape.dynamic_dimensions[i]:
            raise builder.error(op_name, f"dimension {i} of the broadcast {shape} is new and must be static")
    return add_given(builder, op_name, Op.BROADCAST, (operand,), {"dimensions": tuple(dims)}, shape)


def add_broadcast_sequence(op_name: str, output: Shape, operand: XlaOp) -> XlaOp:
    """`operand` (a scalar, or of the output's rank) broadcast to the output's dimensions: a
    scalar directly, else a reshape dropping its size-1 dimensions and a broadcast back
    (XlaBuilder::AddBroadcastSequence)."""
    s = operand.shape
    et = s.element_type
    if s.rank == 0:
        return in_dim_broadcast(op_name, Shape.array(et, output.dimensions), operand, ())
    kept: list[int] = []
    for i, (a, b) in enumerate(zip(s.dimensions, output.dimensions)):
        if a == b:
            kept.append(i)
        elif a != 1 or s.dynamic_dimensions[i]:
            raise operand.builder.error(
                op_name, f"dimension {i} of {s} must be a static 1 to be broadcast to {output}"
            )
    reshaped_shape = Shape.array(
        et, [s.dimensions[i] for i in kept], dynamic_dimensions=[s.dynamic_dimensions[i] for i in kept]
    )
    reshaped = add_given(operand.builder, op_name, Op.RESHAPE, (operand,), {}, reshaped_shape)
    broadcast = Shape.array(et, output.dimensions, dynamic_dimensions=s.dynamic_dimensions)
    return in_dim_broadcast(op_name, broadcast, reshaped, kept)


def broadcast_in_dim(
    op_name: str, operand: XlaOp, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int]
) -> XlaOp:
    """XlaBuilder::BroadcastInDim: one broadcast, then one more for dimensions of size 1."""
    builder = operand.builder
    s, out, bd = operand.shape, tuple(out_dim_size), tuple(broadcast_dimensions)
    if not s.is_array:
        raise builder.error(op_name, f"the operand must be an array: found {s}")
    if any(n < 0 for n in out):
        raise builder.error(op_name, f"out_dim_size={ints_text(out)} must be static sizes >= 0")
    if len(bd) != s.rank:
        raise builder.error(
            op_name,
            f"broadcast_dimensions={ints_text(bd)} must have one entry per dimension of the operand {s}",
        )
    out_dynamic = [False] * len(out)
    for i, d in enumerate(bd):
        if not 0 <= d < len(out):
            raise builder.error(
                op_name,
                f"broadcast_dimensions={ints_text(bd)} contains {d}, "
                f"not a dimension of out_dim_size={ints_text(out)}",
            )
        if i > 0 and bd[i - 1] >= d:
            raise builder.error(op_name, f"broadcast_dimensions={ints_text(bd)} must be strictly increasing")
        if s.dimensions[i] not in (UNBOUNDED, out[d], 1):
            raise builder.error(
                op_name,
                f"dimension {i} of the operand {s} must be 1 or the size {out[d]} of output dimension {d}",
            )
        out_dynamic[d] = is_bounded_dynamic(s, i)
    output = Shape.array(s.element_type, out, dynamic_dimensions=out_dynamic)
    in_sizes, in_dynamic = list(out), [False] * len(out)
    for i, d in enumerate(bd):
        in_sizes[d] = out[d] if s.dimensions[i] == UNBOUNDED else s.dimensions[i]
        in_dynamic[d] = is_bounded_dynamic(s, i)
    in_dim = Shape.array(s.element_type, in_sizes, dynamic_dimensions=in_dynamic)
    result = in_dim_broadcast(op_name, in_dim, operand, bd)
    return result if in_dim == output else add_broadcast_sequence(op_name, output, result)


@builder_function
def Broadcast(operand: XlaOp, broadcast_sizes: Sequence[int]) -> XlaOp:
    """New major dimensions of the given sizes, the operand copied along them (page 003)."""
    builder = builder_of("Broadcast", operand)
    require_ops(builder, "Broadcast", operand=operand)
    sizes = int_tuple(builder, "Broadcast", broadcast_sizes, "broadcast_sizes")
    try:
        shape = sizes_first(operand.shape, sizes)
    except ShapeError as e:
        raise builder.error("Broadcast", e.message) from None
    return in_dim_broadcast("Broadcast", shape, operand, range(len(sizes), shape.rank))


@builder_function
def BroadcastInDim(operand: XlaOp, out_dim_size: Sequence[int], broadcast_dimensions: Sequence[int]) -> XlaOp:
    """The operand's dimension i becomes output dimension broadcast_dimensions[i] (size 1 or
    equal); the other output dimensions are new (page 003)."""
    builder = builder_of("BroadcastInDim", operand)
    require_ops(builder, "BroadcastInDim", operand=operand)
    out = int_tuple(builder, "BroadcastInDim", out_dim_size, "out_dim_size")
    bd = int_tuple(builder, "BroadcastInDim", broadcast_dimensions, "broadcast_dimensions")
    return broadcast_in_dim("BroadcastInDim", operand, out, bd)


# -- transpose --------------------------------------------------------------------------------
define(Op.TRANSPOSE, AttrSpec("dimensions", INT_LIST, required=True))


@shape_rule(Op.TRANSPOSE)
def transpose_shape(ctx: ShapeContext) -> Shape:
    operand = array_operand(ctx, 0)
    perm = tuple(ctx.attr("dimensions", ()))
    if sorted(perm) != list(range(operand.rank)):
        raise ShapeError(
            f"dimensions={ints_text(perm)} must be a permutation of the {operand.rank} "
            f"dimensions of {operand}"
        )
    return Shape.array(
        operand.element_type,
        [operand.dimensions[p] for p in perm],
        dynamic_dimensions=[operand.dynamic_dimensions[p] for p in perm],
    )


def transpose(op_name: str, operand: XlaOp, permutation: Sequence[int]) -> XlaOp:
    builder = builder_of(op_name, operand)
    perm = int_tuple(builder, op_name, permutation, "permutation")
    return builder.add(op_name, Op.TRANSPOSE, (operand,), {"dimensions": perm})


@builder_function
def Transpose(operand: XlaOp, permutation: Sequence[int]) -> XlaOp:
    """Result dimension i is operand dimension permutation[i] (page 003)."""
    return transpose("Transpose", operand, permutation)


# -- reverse ----------------------------------------------------------------------------------
define(Op.REVERSE, AttrSpec("dimensions", INT_LIST, required=True))


@shape_rule(Op.REVERSE)
def reverse_shape(ctx: ShapeContext) -> Shape:
    operand = array_operand(ctx, 0)
    check_dims(tuple(ctx.attr("dimensions", ())), operand)
    return operand


@builder_function
def Rev(operand: XlaOp, dimensions: Sequence[int]) -> XlaOp:
    """The operand with the order of its elements reversed along `dimensions` (page 003)."""
    builder = builder_of("Rev", operand)
    dims = int_tuple(builder, "Rev", dimensions, "dimensions")
    return builder.add("Rev", Op.REVERSE, (operand,), {"dimensions": dims})


from . import concat_pad, data_ops, reshape, slicing  # noqa: E402, F401  (the rest of the data-movement family)


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.BROADCAST)
def broadcast_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """Operand dimension k becomes result dimension dimensions[k]; the others repeat it. The
    result is a read-only view (kernels never write into their inputs)."""
    dims = tuple(instr.attrs["dimensions"])
    out = instr.shape.dimensions
    order = sorted(range(len(dims)), key=lambda k: dims[k])
    if not out:
        return lambda x: x  # scalar to scalar (works lifted too)

    def run(x: np.ndarray) -> np.ndarray:
        shape = [1] * len(out)
        sizes = list(out)
        for k in order:
            shape[dims[k]] = sizes[dims[k]] = x.shape[k]  # a dynamic operand size carries over
        return np.broadcast_to(np.transpose(x, order).reshape(shape), sizes)

    return run


@kernel(Op.TRANSPOSE)
def transpose_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    dims = tuple(instr.attrs["dimensions"])
    return lambda x: np.transpose(x, dims)


@kernel(Op.REVERSE)
def reverse_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    dims = tuple(instr.attrs["dimensions"])
    return lambda x: np.flip(x, dims) if dims else x
