"""The result shape of an elementwise binary op whose operands XlaBuilder may broadcast (page 003,
"broadcast_dimensions"; XLA's InferElementwiseBinaryOpShape): equal ranks broadcast dimensions of
size 1 ("degenerate" broadcasting); a lower-rank operand is first mapped into the higher-rank one
by `broadcast_dimensions` (a scalar needs none). Pure shape arithmetic: the builder then inserts
the broadcast instructions that make both operands the result's shape, since the HLO instruction
itself has no implicit broadcasting."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import ShapeError
from ..shape import UNBOUNDED, Shape
from .array_rules import higher_precision, ints_text, same_type_ignoring_fp

ROLES = ("operand 0 (lhs)", "operand 1 (rhs)")


def elementwise_binary(lhs: Shape, rhs: Shape, broadcast_dimensions: Sequence[int] = ()) -> Shape:
    """The shape of `op(lhs, rhs, broadcast_dimensions)` before any op-specific type rule."""
    if not same_type_ignoring_fp(lhs, rhs):
        raise ShapeError(f"{ROLES[1]} must have the element type of {ROLES[0]}: found {lhs} and {rhs}")
    bd = tuple(broadcast_dimensions)
    if lhs.rank == rhs.rank and bd and bd != tuple(range(lhs.rank)):
        raise ShapeError(
            f"broadcast_dimensions={ints_text(bd)} must be empty or the identity for operands of equal "
            f"rank: found {lhs} and {rhs}"
        )
    if lhs.dimensions == rhs.dimensions and not lhs.is_unbounded_dynamic:
        dynamic = [a or b for a, b in zip(lhs.dynamic_dimensions, rhs.dynamic_dimensions)]
        return Shape.array(
            higher_precision(lhs.element_type, rhs.element_type), lhs.dimensions, dynamic_dimensions=dynamic
        )
    if lhs.rank == rhs.rank:
        return degenerate_broadcast(lhs, rhs)
    small, large = (rhs, lhs) if lhs.rank > rhs.rank else (lhs, rhs)
    roles = (ROLES[1], ROLES[0]) if lhs.rank > rhs.rank else ROLES
    return degenerate_broadcast(in_dim_broadcast(small, large, bd, roles), large)


def degenerate_broadcast(lhs: Shape, rhs: Shape) -> Shape:
    """Equal ranks: each dimension pair is equal, or one is 1 and takes the other's size, or one
    is unbounded `?` and takes the other's (a `<=X` meeting `?` stays `?`: X may turn out 1)."""
    dims: list[int] = []
    dynamic: list[bool] = []
    for i, (a, b) in enumerate(zip(lhs.dimensions, rhs.dimensions)):
        da, db = lhs.dynamic_dimensions[i], rhs.dynamic_dimensions[i]
        if a == 1 or b == 1:
            dims.append(b if a == 1 else a)
            dynamic.append(db if a == 1 else da)
        elif a == b:
            dims.append(a)
            dynamic.append(da or db)
        elif UNBOUNDED in (a, b):
            dims.append(b if a == UNBOUNDED else a)
            dynamic.append(db if a == UNBOUNDED else da)
        else:
            raise ShapeError(
                f"the operands must have equal sizes or a size 1 in each dimension: found {lhs} and {rhs}, "
                f"which differ in dimension {i}"
            )
    return Shape.array(higher_precision(lhs.element_type, rhs.element_type), dims, dynamic_dimensions=dynamic)


def in_dim_broadcast(
    small: Shape, large: Shape, broadcast_dimensions: tuple[int, ...], roles: tuple[str, str]
) -> Shape:
    """The lower-rank operand mapped into the higher-rank one's dimensions: the larger shape with
    the mapped dimensions replaced by the smaller's (degenerate broadcasting follows)."""
    bd = broadcast_dimensions
    if not bd and small.rank != 0:
        raise ShapeError(
            f"operands of different ranks need broadcast_dimensions mapping the lower-rank {roles[0]} "
            f"into {roles[1]}: found {small} and {large}"
        )
    if len(bd) != small.rank:
        raise ShapeError(
            f"broadcast_dimensions={ints_text(bd)} must have one entry per dimension of the lower-rank "
            f"{roles[0]}: found {small}"
        )
    dims = list(large.dimensions)
    dynamic = list(large.dynamic_dimensions)
    for i, d in enumerate(bd):
        if not 0 <= d < large.rank:
            raise ShapeError(
                f"broadcast_dimensions={ints_text(bd)} contains {d}, not a dimension of {roles[1]} {large}"
            )
        if i > 0 and bd[i - 1] >= d:
            raise ShapeError(f"broadcast_dimensions={ints_text(bd)} must be strictly increasing")
        s, g = small.dimensions[i], large.dimensions[d]
        if s != g and 1 not in (s, g):
            raise ShapeError(
                f"dimension {i} of {roles[0]} {small} maps to dimension {d} of {roles[1]} {large}: "
                f"their sizes {s} and {g} must be equal or one of them 1"
            )
        small_dyn, large_dyn = small.dynamic_dimensions[i], large.dynamic_dimensions[d]
        if small_dyn != large_dyn and not (
            s == g or (s == 1 and not small_dyn) or (g == 1 and not large_dyn)
        ):
            raise ShapeError(
                f"dimension {i} of {roles[0]} {small} maps to dimension {d} of {roles[1]} {large}: "
                "one is dynamic, the other static"
            )
        dims[d], dynamic[d] = s, small_dyn
    return Shape.array(
        higher_precision(large.element_type, small.element_type), dims, dynamic_dimensions=dynamic
    )
