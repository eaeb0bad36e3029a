"""Dot products: dot (dot-general), ragged-dot and scaled-dot."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attrs import DotAlgorithm, Precision
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape, as_primitive_type
from ..text.attr_codecs import INT_LIST, EnumCodec, Simple
from ..text.lexer import Tok
from ..text.reader import TextReader
from .array_rules import higher_precision, int_tuple, require_ops
from .registry import (
    AttrSpec,
    ShapeContext,
    builder_function,
    define,
    if_nonempty,
    kernel,
    shape_rule,
    unless,
)
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..engine.plan import KernelContext

Op = Opcode


def _read_precisions(r: TextReader) -> tuple[Precision, ...]:
    return tuple(
        r.list_of(
            lambda: r.enum(Precision, "a precision", case_insensitive=True),
            Tok.LBRACE,
            Tok.RBRACE,
            "operand_precision",
        )
    )


PRECISION_LIST = Simple(_read_precisions, lambda v: "{" + ",".join(p.value for p in v) + "}")
ALGORITHM = EnumCodec(DotAlgorithm, "a dot algorithm", case_insensitive=True)


def precision_attrs(operands: int = 2) -> tuple[AttrSpec, AttrSpec]:
    """operand_precision (printed when not all default) and algorithm (printed when set)."""
    return (
        AttrSpec(
            "operand_precision",
            PRECISION_LIST,
            default=lambda ctx: (
                (Precision.DEFAULT,) * (len(ctx.operand_shapes) if operands < 0 else operands)
            ),
            printed=lambda v, ctx: any(p is not Precision.DEFAULT for p in v),
        ),
        AttrSpec("algorithm", ALGORITHM, default=DotAlgorithm.UNSET, printed=unless(DotAlgorithm.UNSET)),
    )


def dot_dimension_attrs() -> tuple[AttrSpec, ...]:
    """The four lists of DotDimensionNumbers, in XLA's printing order: batch lists only when
    non-empty, contracting lists always."""
    return (
        AttrSpec("lhs_batch_dims", INT_LIST, default=(), printed=if_nonempty),
        AttrSpec("lhs_contracting_dims", INT_LIST, default=()),
        AttrSpec("rhs_batch_dims", INT_LIST, default=(), printed=if_nonempty),
        AttrSpec("rhs_contracting_dims", INT_LIST, default=()),
    )


define(Op.DOT, *dot_dimension_attrs(), *precision_attrs(-1))
define(
    Op.RAGGED_DOT,
    *dot_dimension_attrs(),
    AttrSpec("lhs_ragged_dims", INT_LIST, default=(), printed=if_nonempty),
    AttrSpec("rhs_group_dims", INT_LIST, default=(), printed=if_nonempty),
    *precision_attrs(2),
)
define(Op.SCALED_DOT, *dot_dimension_attrs(), *precision_attrs(2))


# -- shape rules ------------------------------------------------------------------------------
def _dims(ctx: ShapeContext) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    return tuple(
        tuple(ctx.attr(name, ()))
        for name in ("lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims", "rhs_contracting_dims")
    )  # type: ignore[return-value]


def _check_dot_dimensions(op: str, lhs: Shape, rhs: Shape, ctx: ShapeContext) -> None:
    """XLA's ValidateDotDimensionNumbers and CheckDotDimensionConstraints."""
    lb, lc, rb, rc = _dims(ctx)
    pair = f"{lhs} <{op}> {rhs}"
    for side, shape, batch, contracting in (("lhs", lhs, lb, lc), ("rhs", rhs, rb, rc)):
        for d in batch + contracting:
            if not 0 <= d < shape.rank:
                raise ShapeError(
                    f"{side} dimension {d} (batch {list(batch)}, contracting {list(contracting)}) is out of "
                    f"range for {side} {shape}"
                )
        if len(set(batch + contracting)) != len(batch + contracting):
            listed = f"batch {list(batch)} and contracting {list(contracting)}"
            raise ShapeError(f"a {side} dimension is repeated among {listed}")
    if len(lc) != len(rc):
        raise ShapeError(
            f"{pair}: lhs_contracting_dims={list(lc)} and rhs_contracting_dims={list(rc)} must pair up"
        )
    for a, b in zip(lc, rc):
        if not compatible_size(lhs, a, rhs, b):
            raise ShapeError(
                f"{pair}: contracting dimension {a} of lhs ({lhs.dimensions[a]}) does not match contracting "
                f"dimension {b} of rhs ({rhs.dimensions[b]})"
            )
    if len(lb) != len(rb):
        raise ShapeError(f"{pair}: lhs_batch_dims={list(lb)} and rhs_batch_dims={list(rb)} must pair up")
    for a, b in zip(lb, rb):
        if not compatible_size(lhs, a, rhs, b):
            raise ShapeError(
                f"{pair}: batch dimension {a} of lhs ({lhs.dimensions[a]}) does not match batch dimension "
                f"{b} of rhs ({rhs.dimensions[b]})"
            )


def compatible_size(a: Shape, i: int, b: Shape, j: int) -> bool:
    """Equal sizes, or one of them unbounded (XLA's CompatibleDimensionSizes)."""
    return a.dimensions[i] == b.dimensions[j] or a.dimensions[i] == UNBOUNDED or b.dimensions[j] == UNBOUNDED


def _result_dims(
    lhs: Shape, rhs: Shape, ctx: ShapeContext, rhs_groups: tuple[int, ...] = ()
) -> tuple[list[int], list[bool]]:
    lb, lc, rb, rc = _dims(ctx)
    dims = [lhs.dimensions[d] for d in lb]
    dynamic = [lhs.dynamic_dimensions[d] for d in lb]
    for d in range(lhs.rank):
        if d not in lb and d not in lc:
            dims.append(lhs.dimensions[d])
            dynamic.append(lhs.dynamic_dimensions[d])
    for d in range(rhs.rank):
        if d not in rb and d not in rc and d not in rhs_groups:
            dims.append(rhs.dimensions[d])
            dynamic.append(rhs.dynamic_dimensions[d])
    return dims, dynamic


def _result_type(ctx: ShapeContext, lhs: Shape, rhs: Shape) -> PrimitiveType:
    """The preferred element type when one is asked for (HLO text: the written type), else the
    more precise of the operand types."""
    if ctx.preferred_element_type is not None:
        return ctx.preferred_element_type
    return higher_precision(lhs.element_type, rhs.element_type)


@shape_rule(Op.DOT, Op.SCALED_DOT)
def dot_shape(ctx: ShapeContext) -> Shape:
    """Batch dimensions, then lhs free dimensions, then rhs free dimensions (XLA's
    InferDotOpShape; scaled-dot also checks its scales as XLA's verifier does)."""
    op = ctx.opcode.text
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    _check_dot_dimensions(op, lhs, rhs, ctx)
    if ctx.opcode is Op.SCALED_DOT:
        _check_scales(ctx, lhs, rhs)
    dims, dynamic = _result_dims(lhs, rhs, ctx)
    return Shape.array(_result_type(ctx, lhs, rhs), dims, dynamic_dimensions=dynamic)


def _check_scales(ctx: ShapeContext, lhs: Shape, rhs: Shape) -> None:
    """Each scale has its operand's rank and divides its dimensions (or is a bf16 all-ones
    shape: no scaling); at least one scale is not a scalar."""
    _lb, lc, _rb, rc = _dims(ctx)
    scales = (array_operand(ctx, 2, "lhs_scale"), array_operand(ctx, 3, "rhs_scale"))
    for k, (x, scale, contracting) in enumerate(((lhs, scales[0], lc), (rhs, scales[1], rc))):
        no_op = (
            scale.element_type is x.element_type is PrimitiveType.BF16
            and all(d == 1 for d in scale.dimensions)
            and any(d != 1 for d in x.dimensions)
        )
        if no_op:
            continue
        if scale.rank != x.rank:
            raise ShapeError(
                f"operand {k + 2} (scale of operand {k}) must have the rank of {x}: found {scale}"
            )
        if len(contracting) != 1:
            raise ShapeError(
                f"operand {k} must have exactly one contracting dimension: found {list(contracting)}"
            )
        for d, (n, m) in enumerate(zip(x.dimensions, scale.dimensions)):
            if m == 0 or n % m:
                raise ShapeError(
                    f"dimension {d} of operand {k} ({x}) must be a multiple of dimension {d} of its "
                    f"scale ({scale})"
                )
    if scales[0].rank == 0 and scales[1].rank == 0:
        raise ShapeError(
            f"at least one of the scales must not be a scalar: found {scales[0]} and {scales[1]}"
        )


@shape_rule(Op.RAGGED_DOT)
def ragged_dot_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferRaggedDotOpShape: one ragged lhs dimension, non-contracting (rhs has a group
    dimension), contracting (a leading group dimension in the result) or batch."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    sizes = array_operand(ctx, 2, "group_sizes")
    _check_dot_dimensions("ragged-dot", lhs, rhs, ctx)
    lb, lc, rb, rc = _dims(ctx)
    ragged = tuple(ctx.attr("lhs_ragged_dims", ()))
    groups = tuple(ctx.attr("rhs_group_dims", ()))
    if len(ragged) != 1:
        raise ShapeError(f"lhs_ragged_dims must name exactly one lhs dimension: found {list(ragged)}")
    r = ragged[0]
    if not 0 <= r < lhs.rank:
        raise ShapeError(f"lhs ragged dimension {r} is out of range for lhs {lhs}")
    mode = "batch" if r in lb else "contracting" if r in lc else "non-contracting"
    free = [d for d in range(lhs.rank) if d not in lb and d not in lc]
    if mode == "batch":
        prefix = list(lb[: lb.index(r)])
    elif mode == "contracting":
        prefix = list(lb) + list(lc[: lc.index(r)])
    else:
        prefix = list(lb) + free[: free.index(r)]
    expected = [lhs.dimensions[d] for d in prefix]
    if sizes.rank == 0:
        raise ShapeError(f"operand 2 (group_sizes) must have a group dimension: found {sizes}")
    if sizes.rank != 1 and (sizes.rank != len(expected) + 1 or list(sizes.dimensions[:-1]) != expected):
        shown = ", ".join(map(str, expected + [sizes.dimensions[-1]]))
        raise ShapeError(f"operand 2 (group_sizes) must have shape [{shown}]: found {sizes}")
    count = sizes.dimensions[-1]
    for g in groups:
        if not 0 <= g < rhs.rank:
            raise ShapeError(f"rhs group dimension {g} is out of range for rhs {rhs}")
        if g in rb or g in rc:
            raise ShapeError(f"rhs group dimension {g} cannot be a batch or contracting dimension")
    if mode != "non-contracting" and groups:
        raise ShapeError(f"the rhs must have no group dimension when the ragged dimension is {mode}")
    if mode == "non-contracting":
        if len(groups) != 1:
            raise ShapeError(
                "the rhs must have exactly one group dimension when the ragged dimension is non-contracting"
            )
        if rhs.dimensions[groups[0]] != count and UNBOUNDED not in (count, rhs.dimensions[groups[0]]):
            raise ShapeError(
                f"rhs group dimension {groups[0]} must have size {count} (the number of groups): found {rhs}"
            )
    dims, dynamic = _result_dims(lhs, rhs, ctx, groups)
    if mode == "contracting":
        dims, dynamic = [count, *dims], [sizes.dynamic_dimensions[-1], *dynamic]
    return Shape.array(_result_type(ctx, lhs, rhs), dims, dynamic_dimensions=dynamic)


# -- builder functions ------------------------------------------------------------------------
@dataclass(frozen=True)
class DotDimensionNumbers:
    """XLA's DotDimensionNumbers (the proto's field names)."""

    lhs_contracting_dimensions: tuple[int, ...] = ()
    rhs_contracting_dimensions: tuple[int, ...] = ()
    lhs_batch_dimensions: tuple[int, ...] = ()
    rhs_batch_dimensions: tuple[int, ...] = ()


@dataclass(frozen=True)
class PrecisionConfig:
    """XLA's PrecisionConfig: one precision per operand, and a dot algorithm."""

    operand_precision: tuple[Precision, ...] = ()
    algorithm: DotAlgorithm = DotAlgorithm.UNSET


def _dimension_attrs(builder: XlaBuilder, op_name: str, numbers: Any) -> dict[str, Any]:
    if isinstance(numbers, dict):
        numbers = DotDimensionNumbers(**{k: tuple(v) for k, v in numbers.items()})
    if not isinstance(numbers, DotDimensionNumbers):
        raise builder.error(op_name, f"dimension_numbers must be a DotDimensionNumbers: found {numbers!r}")
    return {
        "lhs_batch_dims": int_tuple(builder, op_name, numbers.lhs_batch_dimensions, "lhs_batch_dimensions"),
        "lhs_contracting_dims": int_tuple(
            builder, op_name, numbers.lhs_contracting_dimensions, "lhs_contracting_dimensions"
        ),
        "rhs_batch_dims": int_tuple(builder, op_name, numbers.rhs_batch_dimensions, "rhs_batch_dimensions"),
        "rhs_contracting_dims": int_tuple(
            builder, op_name, numbers.rhs_contracting_dimensions, "rhs_contracting_dimensions"
        ),
    }


def precision_config_attrs(
    builder: XlaBuilder, op_name: str, config: PrecisionConfig | None, operands: int
) -> dict[str, Any]:
    """The operand_precision and algorithm attributes of a PrecisionConfig."""
    if config is None:
        return {}
    if not isinstance(config, PrecisionConfig):
        raise builder.error(op_name, f"precision_config must be a PrecisionConfig: found {config!r}")
    precisions = tuple(Precision(p) if isinstance(p, str) else p for p in config.operand_precision)
    if precisions and len(precisions) != operands:
        raise builder.error(
            op_name, f"precision_config needs {operands} operand precisions: found {len(precisions)}"
        )
    attrs: dict[str, Any] = {"algorithm": config.algorithm}
    if precisions:
        attrs["operand_precision"] = precisions
    return attrs


def _preferred(builder: XlaBuilder, op_name: str, t: PrimitiveType | str | None) -> PrimitiveType | None:
    if t is None:
        return None
    try:
        return as_primitive_type(t)
    except ShapeError as e:
        raise builder.error(op_name, e.message) from None


@builder_function
def DotGeneral(
    lhs: XlaOp,
    rhs: XlaOp,
    dimension_numbers: DotDimensionNumbers | dict[str, Sequence[int]],
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """Contract the given dimensions of lhs and rhs, batch over the batch dimensions (page 003)."""
    builder = builder_of("DotGeneral", lhs, rhs)
    require_ops(builder, "DotGeneral", lhs=lhs, rhs=rhs)
    attrs = _dimension_attrs(builder, "DotGeneral", dimension_numbers)
    attrs.update(precision_config_attrs(builder, "DotGeneral", precision_config, 2))
    preferred = _preferred(builder, "DotGeneral", preferred_element_type)
    return builder.add("DotGeneral", Op.DOT, (lhs, rhs), attrs, preferred_element_type=preferred)


@builder_function
def Dot(
    lhs: XlaOp,
    rhs: XlaOp,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """vector.vector, matrix.vector, vector.matrix or matrix.matrix: the last dimension of lhs
    with the first of rhs (page 003's table)."""
    builder = builder_of("Dot", lhs, rhs)
    require_ops(builder, "Dot", lhs=lhs, rhs=rhs)
    for side, x in (("lhs", lhs), ("rhs", rhs)):
        if not x.shape.is_array or x.shape.rank not in (1, 2):
            raise builder.error("Dot", f"{side} must be a vector or a matrix: found {x.shape}")
    numbers = DotDimensionNumbers((lhs.shape.rank - 1,), (0,))
    return DotGeneral(lhs, rhs, numbers, precision_config, preferred_element_type)


@builder_function
def RaggedDot(
    lhs: XlaOp,
    rhs: XlaOp,
    group_sizes: XlaOp,
    dimension_numbers: DotDimensionNumbers | dict[str, Sequence[int]],
    lhs_ragged_dimensions: Sequence[int],
    rhs_group_dimensions: Sequence[int] = (),
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """A dot whose lhs ragged dimension is split into groups of `group_sizes` rows, each
    multiplied by its own rhs (XLA's RaggedDotDimensionNumbers, flattened)."""
    builder = builder_of("RaggedDot", lhs, rhs, group_sizes)
    require_ops(builder, "RaggedDot", lhs=lhs, rhs=rhs, group_sizes=group_sizes)
    attrs = _dimension_attrs(builder, "RaggedDot", dimension_numbers)
    attrs["lhs_ragged_dims"] = int_tuple(builder, "RaggedDot", lhs_ragged_dimensions, "lhs_ragged_dimensions")
    attrs["rhs_group_dims"] = int_tuple(builder, "RaggedDot", rhs_group_dimensions, "rhs_group_dimensions")
    attrs.update(precision_config_attrs(builder, "RaggedDot", precision_config, 2))
    preferred = _preferred(builder, "RaggedDot", preferred_element_type)
    return builder.add(
        "RaggedDot", Op.RAGGED_DOT, (lhs, rhs, group_sizes), attrs, preferred_element_type=preferred
    )


@builder_function
def ScaledDot(
    lhs: XlaOp,
    rhs: XlaOp,
    lhs_scale: XlaOp,
    rhs_scale: XlaOp,
    dimension_numbers: DotDimensionNumbers | dict[str, Sequence[int]],
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """A dot of block-scaled operands (each multiplied by its scale, broadcast over blocks)."""
    builder = builder_of("ScaledDot", lhs, rhs, lhs_scale, rhs_scale)
    require_ops(builder, "ScaledDot", lhs=lhs, rhs=rhs, lhs_scale=lhs_scale, rhs_scale=rhs_scale)
    attrs = _dimension_attrs(builder, "ScaledDot", dimension_numbers)
    attrs.update(precision_config_attrs(builder, "ScaledDot", precision_config, 2))
    preferred = _preferred(builder, "ScaledDot", preferred_element_type)
    return builder.add(
        "ScaledDot", Op.SCALED_DOT, (lhs, rhs, lhs_scale, rhs_scale), attrs, preferred_element_type=preferred
    )


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.DOT)
def dot_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """A batched matmul in the result's working type (engine.linear)."""
    from ..engine.linear import dot_general

    dims = (
        tuple(instr.attrs.get("lhs_batch_dims", ())),
        tuple(instr.attrs.get("lhs_contracting_dims", ())),
        tuple(instr.attrs.get("rhs_batch_dims", ())),
        tuple(instr.attrs.get("rhs_contracting_dims", ())),
    )
    result, flush = instr.shape.element_type, ctx.options.flush_denormals
    return lambda lhs, rhs: dot_general(lhs, rhs, *dims, result, flush)
