"""Small helpers shared by the shape rules and builder functions of the op families.

Message convention (the builder prefixes the builder function's name, the verifier the
instruction's `%name`): a rule's message names the operand or attribute and the rule, then what
it found, e.g. ``operand 1 (rhs) must have the element type of operand 0: found f32[2] and s32[2]``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import ShapeError
from ..shape import Shape
from .registry import ShapeContext

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp


def shapes_text(shapes: Iterable[Shape]) -> str:
    return ", ".join(str(s) for s in shapes)


def operand(ctx: ShapeContext, k: int, role: str = "") -> Shape:
    """Operand `k`; a ShapeError if the instruction has fewer operands."""
    if k >= len(ctx.operands):
        raise ShapeError(
            f"expects an operand {k}{f' ({role})' if role else ''}: found {len(ctx.operands)} operands"
        )
    return ctx.operands[k]


def array_operand(ctx: ShapeContext, k: int, role: str = "") -> Shape:
    """Operand `k`, which must be an array."""
    s = operand(ctx, k, role)
    if not s.is_array:
        raise ShapeError(f"operand {k}{f' ({role})' if role else ''} must be an array: found {s}")
    return s


def expect_operand_count(ctx: ShapeContext, count: int) -> None:
    if len(ctx.operands) != count:
        raise ShapeError(
            f"expects {count} operand{'s' if count != 1 else ''}: found {len(ctx.operands)}"
            f" ({shapes_text(ctx.operands)})"
        )


def check_dimension_numbers(
    dims: Sequence[int], rank: int, what: str, shape: Shape, unique: bool = True
) -> None:
    """Each of `dims` is a dimension of a rank-`rank` array, and (by default) none repeats."""
    for d in dims:
        if not 0 <= d < rank:
            raise ShapeError(f"{what} {list(dims)} contains {d}, not a dimension of {shape}")
    if unique and len(set(dims)) != len(dims):
        raise ShapeError(f"{what} {list(dims)} repeats a dimension: found for {shape}")


def called(ctx: ShapeContext, attr: str) -> tuple[tuple[Shape, ...], Shape]:
    """The (parameter shapes, result shape) of the computation named by attribute `attr`."""
    name = ctx.attr(attr)
    if name is None:
        raise ShapeError(f"the attribute {attr} (a computation) is missing")
    try:
        return ctx.program_shape(name)
    except (KeyError, LookupError):
        raise ShapeError(f"{attr}={name} is not a computation of this module") from None


def builder_of(op_name: str, *operands: Any) -> XlaBuilder:
    """The builder of the first XlaOp among `operands` (possibly nested in sequences)."""
    from .handles import XlaOp

    for o in operands:
        if isinstance(o, XlaOp):
            return o.builder
        if isinstance(o, Sequence) and not isinstance(o, str):
            for x in o:
                if isinstance(x, XlaOp):
                    return x.builder
    raise ShapeError(f"{op_name}: needs at least one XlaOp operand to know its builder")


def computation_name(builder: XlaBuilder, computation: XlaComputation) -> str:
    """Embed a sub-computation built with its own builder; its name in `builder`'s module."""
    return builder.computation_ref(computation)


def as_ops(values: XlaOp | Sequence[XlaOp]) -> tuple[XlaOp, ...]:
    from .handles import XlaOp

    return (values,) if isinstance(values, XlaOp) else tuple(values)


E = TypeVar("E", bound=enum.Enum)


def enum_argument(builder: XlaBuilder, op_name: str, kind: type[E], value: Any, what: str) -> E:
    """A member of `kind`, given as itself or by its name or text (any case, with or without
    XLA's `RNG_` prefix: "philox", "RNG_PHILOX", "rng_philox")."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        wanted = value.upper()
        for member in kind:
            spellings = {member.name, str(member.value).upper()}
            if wanted in spellings or wanted.removeprefix("RNG_") in spellings:
                return member
    raise builder.error(op_name, f"{what} must be one of {', '.join(m.name for m in kind)}: found {value!r}")
