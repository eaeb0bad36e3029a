"""Ragged-dot: a dot whose one ragged lhs dimension is split into groups (XLA's
InferRaggedDotOpShape, XlaBuilder::RaggedDot)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST
from ..ir.opcode import Opcode
from ..shape import Shape
from .array_rules import int_tuple, ints_text
from .dot_common import (
    DotDimensionNumbers,
    PrecisionConfig,
    add_dot,
    check_dot_dimensions,
    compatible,
    dimension_attrs,
    dot_dimension_attrs,
    dot_result,
    free_dimensions,
    precision_attrs,
    size_text,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, if_nonempty, shape_rule
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
    if not compatible(count, rhs.dimensions[groups[0]]):
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
