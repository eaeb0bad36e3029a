"""Ragged-dot: a dot whose one ragged lhs dimension is split into groups (XLA's
InferRaggedDotOpShape, XlaBuilder::RaggedDot).

The kernel: XLA:CPU has no runtime for the opcode, so the reference is its definition
(jax.lax.ragged_dot_general, the StableHLO ragged_dot proposal; fixtures from jax's own CPU
expansion in tests/golden/ops/exact_ragged_dot.npz). The ragged lhs dimension is cut into
consecutive groups of `group_sizes` elements (per batch and leading position when group_sizes has
those dimensions, the same for all when it is [g]):

- ragged non-contracting dimension: each group's rows use their own rhs matrix (rhs_group_dims
  picks it); rows past the last group are zero;
- ragged contracting dimension: one result per group, contracting over that group's part only;
- ragged batch dimension: an ordinary batched dot."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.context import KernelContext
from ..numerics.linear import dot_general
from ..shape import Shape
from .array_rules import int_tuple, ints_text, sizes_compatible
from .dot_common import (
    DotDimensionNumbers,
    PrecisionConfig,
    add_dot,
    check_dot_dimensions,
    dimension_attrs,
    dot_dimension_attrs,
    dot_result,
    free_dimensions,
    precision_attrs,
    size_text,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, if_nonempty, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder
    from ..dtypes import PrimitiveType
    from .handles import XlaOp

Op = Opcode

# XLA's parser reads no algorithm= on ragged-dot, but its printer writes one when set: we accept
# it, so that what we print parses back.
define(
    Op.RAGGED_DOT,
    *dot_dimension_attrs(),
    AttrSpec("lhs_ragged_dims", INT_LIST, default=(), printed=if_nonempty),
    AttrSpec("rhs_group_dims", INT_LIST, default=(), printed=if_nonempty),
    *precision_attrs(2),
)


@dataclass(frozen=True)
class RaggedDotDimensionNumbers:
    """XLA's RaggedDotDimensionNumbers: a dot's numbers, the ragged lhs dimension and the rhs
    group dimension."""

    dot_dimension_numbers: DotDimensionNumbers | Mapping[str, Sequence[int]] = DotDimensionNumbers()  # noqa: RUF009 (frozen)
    lhs_ragged_dimensions: tuple[int, ...] = ()
    rhs_group_dimensions: tuple[int, ...] = ()


@shape_rule(Op.RAGGED_DOT)
def ragged_dot_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferRaggedDotOpShape. The one ragged lhs dimension is split into groups of
    `group_sizes` rows (shape [b..., x..., g], or [g] for all of them):
    non-contracting m: [b,m,k] [g,b,k,n] [b,g] -> [b,m,n] (one rhs matrix per group);
    contracting k:     [b,m,k] [b,k,n]   [b,g] -> [g,b,m,n] (one result per group);
    batch b:           [b,m,k] [b,k,n]   [g]   -> [b,m,n]."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    sizes = array_operand(ctx, 2, "group_sizes")
    dn = DotDimensionNumbers.of(ctx.attrs)
    lb, lc = dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions
    check_dot_dimensions(ctx.opcode.text, lhs, rhs, dn)
    ragged = tuple(ctx.attr("lhs_ragged_dims", ()))
    groups = tuple(ctx.attr("rhs_group_dims", ()))
    if len(ragged) != 1:
        raise ShapeError(f"lhs_ragged_dims={ints_text(ragged)} must name exactly one dimension of lhs {lhs}")
    r = ragged[0]
    if not 0 <= r < lhs.rank:
        raise ShapeError(f"lhs_ragged_dims={ints_text(ragged)} contains {r}, not a dimension of lhs {lhs}")
    if r in lb:
        mode, prefix = "batch", list(lb[: lb.index(r)])
    elif r in lc:
        mode, prefix = "contracting", [*lb, *lc[: lc.index(r)]]
    else:
        free = free_dimensions(lhs.rank, lb, lc)
        mode, prefix = "non-contracting", [*lb, *free[: free.index(r)]]
    expected = [lhs.dimensions[d] for d in prefix]
    # XLA compares these sizes exactly (no unbounded wildcard); a rank-1 group_sizes is broadcast.
    if sizes.rank != 1 and (sizes.rank != len(expected) + 1 or list(sizes.dimensions[:-1]) != expected):
        shape = ",".join([*map(str, expected), "g"])
        raise ShapeError(
            f"operand 2 (group_sizes) must have shape [{shape}] or [g] for the {mode} ragged dimension "
            f"{r} of lhs {lhs}: found {sizes}"
        )
    count, count_dynamic = sizes.dimensions[-1], sizes.dynamic_dimensions[-1]
    for g in groups:
        if not 0 <= g < rhs.rank:
            raise ShapeError(f"rhs_group_dims={ints_text(groups)} contains {g}, not a dimension of rhs {rhs}")
        if g in dn.rhs_batch_dimensions or g in dn.rhs_contracting_dimensions:
            raise ShapeError(
                f"rhs_group_dims={ints_text(groups)}: rhs dimension {g} is a batch or contracting dimension"
            )
    if mode != "non-contracting":
        if groups:
            raise ShapeError(
                f"rhs_group_dims={ints_text(groups)} must be empty: the ragged dimension {r} of lhs is a "
                f"{mode} dimension"
            )
        leading = (count, count_dynamic) if mode == "contracting" else None
        return dot_result(ctx, lhs, rhs, dn, (), leading)
    if len(groups) != 1:
        raise ShapeError(
            f"rhs_group_dims={ints_text(groups)} must name exactly one dimension of rhs {rhs}: the ragged "
            f"dimension {r} of lhs is a non-contracting dimension"
        )
    if not sizes_compatible(count, rhs.dimensions[groups[0]]):
        raise ShapeError(
            f"rhs group dimension {groups[0]} ({size_text(rhs, groups[0])}) must have the number of groups "
            f"of operand 2 (group_sizes, {sizes}): {size_text(sizes, sizes.rank - 1)}"
        )
    return dot_result(ctx, lhs, rhs, dn, groups)


_RAGGED_FIELDS = ("lhs_ragged_dimensions", "rhs_group_dimensions")


def _ragged_attrs(builder: XlaBuilder, numbers: Any) -> dict[str, Any]:
    """A RaggedDotDimensionNumbers, or a dict of its fields (`dot_dimension_numbers` nested, or
    the four dot fields flat beside the two ragged ones)."""
    if isinstance(numbers, Mapping):
        rest = {k: v for k, v in numbers.items() if k in _RAGGED_FIELDS}
        dot = numbers.get("dot_dimension_numbers")
        if dot is None:
            dot = {k: v for k, v in numbers.items() if k not in _RAGGED_FIELDS}
        elif set(numbers) - {"dot_dimension_numbers", *_RAGGED_FIELDS}:
            extra = sorted(set(numbers) - {"dot_dimension_numbers", *_RAGGED_FIELDS})
            raise builder.error("RaggedDot", f"dimension_numbers has unknown fields {extra}")
        numbers = RaggedDotDimensionNumbers(dot, **rest)
    if not isinstance(numbers, RaggedDotDimensionNumbers):
        raise builder.error(
            "RaggedDot", f"dimension_numbers must be a RaggedDotDimensionNumbers or a dict: found {numbers!r}"
        )
    attrs = dimension_attrs(builder, "RaggedDot", numbers.dot_dimension_numbers)
    attrs["lhs_ragged_dims"] = int_tuple(
        builder, "RaggedDot", numbers.lhs_ragged_dimensions, "lhs_ragged_dimensions"
    )
    attrs["rhs_group_dims"] = int_tuple(
        builder, "RaggedDot", numbers.rhs_group_dimensions, "rhs_group_dimensions"
    )
    return attrs


@builder_function
def RaggedDot(
    lhs: XlaOp,
    rhs: XlaOp,
    group_sizes: XlaOp,
    dimension_numbers: RaggedDotDimensionNumbers | Mapping[str, Any],
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """A dot whose lhs ragged dimension is split into groups of `group_sizes` rows (XlaBuilder::
    RaggedDot; see ragged_dot_shape for the three modes)."""
    builder = builder_of("RaggedDot", lhs, rhs, group_sizes)
    attrs = _ragged_attrs(builder, dimension_numbers)
    operands = {"lhs": lhs, "rhs": rhs, "group_sizes": group_sizes}
    return add_dot("RaggedDot", Op.RAGGED_DOT, operands, attrs, precision_config, preferred_element_type)


# -- kernel -----------------------------------------------------------------------------------
def _placed(values: np.ndarray, dims: Sequence[int], rank: int) -> np.ndarray:
    """`values`, whose axes stand for dimensions `dims` (in that order) of a rank-`rank` array,
    with size-1 axes for the other dimensions, ready to broadcast against that array."""
    others = [d for d in range(rank) if d not in dims]
    full = values.reshape(values.shape + (1,) * len(others))
    order = [*dims, *others]
    return np.transpose(full, [order.index(d) for d in range(rank)])


def _bounds(group_sizes: np.ndarray, prefix_shape: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each group's [start, end) along the ragged dimension, shape (prefix..., g)."""
    sizes = np.broadcast_to(group_sizes.astype(np.int64), (*prefix_shape, group_sizes.shape[-1]))
    ends = np.cumsum(sizes, axis=-1)
    return ends - sizes, ends


@kernel(Opcode.RAGGED_DOT)
def ragged_dot_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    dn = DotDimensionNumbers.of(instr.attrs)
    lb, lc = dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions
    rb, rc = dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions
    r = instr.attrs["lhs_ragged_dims"][0]
    result, flush = instr.shape.element_type, ctx.options.flush_denormals
    out_dtype = np.dtype(result.numpy_dtype)

    if r in lb:  # ragged batch dimension: the groups tile the batch, the dot is unchanged
        return lambda lhs, rhs, sizes: dot_general(lhs, rhs, lb, lc, rb, rc, result, flush)

    if r in lc:
        prefix = [*lb, *lc[: lc.index(r)]]

        def contracting(lhs: np.ndarray, rhs: np.ndarray, sizes: np.ndarray) -> np.ndarray:
            starts, ends = _bounds(sizes, [lhs.shape[d] for d in prefix])
            t = np.arange(lhs.shape[r])
            parts = []
            for j in range(sizes.shape[-1]):
                inside = (t >= starts[..., j, None]) & (t < ends[..., j, None])  # (prefix..., size_r)
                masked = np.where(_placed(inside, [*prefix, r], lhs.ndim), lhs, np.zeros((), lhs.dtype))
                parts.append(dot_general(masked, rhs, lb, lc, rb, rc, result, flush))
            return np.stack(parts).astype(out_dtype, copy=False)

        return contracting

    group_dim = instr.attrs["rhs_group_dims"][0]
    lhs_free = [d for d in range(len(ctx.operand_shapes(instr)[0].dimensions)) if d not in lb and d not in lc]
    prefix = [*lb, *lhs_free[: lhs_free.index(r)]]
    # rhs dimensions once the group dimension is taken out
    shift = [d - (d > group_dim) for d in range(len(ctx.operand_shapes(instr)[1].dimensions))]
    rb2, rc2 = [shift[d] for d in rb], [shift[d] for d in rc]
    # where the prefix and ragged dimensions sit in the result (batch, lhs free, rhs free)
    at = {d: k for k, d in enumerate(lb)} | {d: len(lb) + k for k, d in enumerate(lhs_free)}

    def non_contracting(lhs: np.ndarray, rhs: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        starts, ends = _bounds(sizes, [lhs.shape[d] for d in prefix])
        t = np.arange(lhs.shape[r])
        out = np.zeros(instr.shape.dimensions, out_dtype)
        rank = out.ndim
        for j in range(sizes.shape[-1]):
            inside = (t >= starts[..., j, None]) & (t < ends[..., j, None])
            part = dot_general(lhs, np.take(rhs, j, axis=group_dim), lb, lc, rb2, rc2, result, flush)
            out = np.where(_placed(inside, [at[d] for d in [*prefix, r]], rank), part, out)
        return out

    return non_contracting
