"""Dot products: dot (dot-general), ragged-dot and scaled-dot (page 003: Dot, DotGeneral; XLA's
InferDotOpShape, InferRaggedDotOpShape and the verifier's scaled-dot checks)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST, PRECISION_LIST, enum_kind
from ..ir.attrs import DotAlgorithm, Precision
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape, as_primitive_type
from .array_rules import higher_precision, int_tuple, ints_text, require_ops
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
    from ..numerics.context import KernelContext

Op = Opcode


ALGORITHM = enum_kind(DotAlgorithm, "a dot algorithm", case_insensitive=True)


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


# XLA's parser gives dot one default precision per operand, ragged-dot and scaled-dot two (lhs
# and rhs). Its parser reads no algorithm= on ragged-dot, but its printer writes one when set:
# we accept it, so that what we print parses back.
define(Op.DOT, *dot_dimension_attrs(), *precision_attrs(-1))
define(
    Op.RAGGED_DOT,
    *dot_dimension_attrs(),
    AttrSpec("lhs_ragged_dims", INT_LIST, default=(), printed=if_nonempty),
    AttrSpec("rhs_group_dims", INT_LIST, default=(), printed=if_nonempty),
    *precision_attrs(2),
)
define(Op.SCALED_DOT, *dot_dimension_attrs(), *precision_attrs(2))


# -- dimension numbers ------------------------------------------------------------------------
@dataclass(frozen=True)
class DotDimensionNumbers:
    """XLA's DotDimensionNumbers (the proto's field names and order)."""

    lhs_contracting_dimensions: tuple[int, ...] = ()
    rhs_contracting_dimensions: tuple[int, ...] = ()
    lhs_batch_dimensions: tuple[int, ...] = ()
    rhs_batch_dimensions: tuple[int, ...] = ()

    @staticmethod
    def of(attrs: Mapping[str, Any]) -> DotDimensionNumbers:
        """The numbers of an instruction's attributes (`lhs_batch_dims=`, ...)."""
        return DotDimensionNumbers(
            tuple(attrs.get("lhs_contracting_dims", ())),
            tuple(attrs.get("rhs_contracting_dims", ())),
            tuple(attrs.get("lhs_batch_dims", ())),
            tuple(attrs.get("rhs_batch_dims", ())),
        )


@dataclass(frozen=True)
class RaggedDotDimensionNumbers:
    """XLA's RaggedDotDimensionNumbers: a dot's numbers, the ragged lhs dimension and the rhs
    group dimension."""

    dot_dimension_numbers: DotDimensionNumbers | Mapping[str, Sequence[int]] = DotDimensionNumbers()
    lhs_ragged_dimensions: tuple[int, ...] = ()
    rhs_group_dimensions: tuple[int, ...] = ()


# -- shape rules ------------------------------------------------------------------------------
def _size(shape: Shape, d: int) -> str:
    n = shape.dimensions[d]
    return "?" if n == UNBOUNDED else f"<={n}" if shape.dynamic_dimensions[d] else str(n)


def _compatible(a: int, b: int) -> bool:
    """XLA's CompatibleDimensionSizes: equal, or either unbounded (a bound counts as a size)."""
    return a == b or UNBOUNDED in (a, b)


def check_dot_dimensions(op: str, lhs: Shape, rhs: Shape, dn: DotDimensionNumbers) -> None:
    """XLA's ValidateDotDimensionNumbers (in range, no dimension twice on a side; the batch
    dimensions may be anywhere) and CheckDotDimensionConstraints (lists pair up, sizes match)."""
    sides = (
        ("lhs", lhs, dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions),
        ("rhs", rhs, dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions),
    )
    for side, shape, batch, contracting in sides:
        for kind, dims in (("contracting", contracting), ("batch", batch)):
            for d in dims:
                if not 0 <= d < shape.rank:
                    raise ShapeError(
                        f"{side}_{kind}_dims={ints_text(dims)} contains {d}, not a dimension of "
                        f"{side} {shape}"
                    )
    for side, shape, batch, contracting in sides:
        listed = list(contracting) + list(batch)
        repeated = sorted({d for d in listed if listed.count(d) > 1})
        if repeated:
            raise ShapeError(
                f"{side}_batch_dims={ints_text(batch)} and {side}_contracting_dims="
                f"{ints_text(contracting)} must name each dimension of {side} {shape} at most once: "
                f"{ints_text(repeated)} repeated"
            )
    pair = f"{lhs} <{op}> {rhs}"
    pairs = (
        ("contracting", dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions),
        ("batch", dn.lhs_batch_dimensions, dn.rhs_batch_dimensions),
    )
    for kind, left, right in pairs:
        if len(left) != len(right):
            raise ShapeError(
                f"lhs_{kind}_dims={ints_text(left)} and rhs_{kind}_dims={ints_text(right)} must have "
                f"the same length: {pair}"
            )
        for a, b in zip(left, right):
            if not _compatible(lhs.dimensions[a], rhs.dimensions[b]):
                raise ShapeError(
                    f"{kind} dimension {a} of lhs ({_size(lhs, a)}) does not match {kind} dimension "
                    f"{b} of rhs ({_size(rhs, b)}): {pair}"
                )


def _free(rank: int, *taken: Sequence[int]) -> list[int]:
    return [d for d in range(rank) if not any(d in t for t in taken)]


def _result(
    ctx: ShapeContext,
    lhs: Shape,
    rhs: Shape,
    dn: DotDimensionNumbers,
    rhs_groups: Sequence[int] = (),
    leading: tuple[int, bool] | None = None,
) -> Shape:
    """XLA's GenerateDotResultDimensions: (a leading group dimension,) the batch dimensions (as
    lhs has them), the other lhs dimensions, the other rhs dimensions, each with its dynamic
    flag; of the preferred element type when one is asked for, else the more precise operand
    type (XLA accepts any preferred type, narrower ones too)."""
    picks = [(lhs, d) for d in dn.lhs_batch_dimensions]
    picks += [(lhs, d) for d in _free(lhs.rank, dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions)]
    rhs_free = _free(rhs.rank, dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions, rhs_groups)
    picks += [(rhs, d) for d in rhs_free]
    dims = [s.dimensions[d] for s, d in picks]
    dynamic = [s.dynamic_dimensions[d] for s, d in picks]
    if leading is not None:
        dims, dynamic = [leading[0], *dims], [leading[1], *dynamic]
    t = ctx.preferred_element_type
    if t is None:
        t = higher_precision(lhs.element_type, rhs.element_type)
    elif not t.is_array_type:
        raise ShapeError(f"the preferred element type must be an array element type: found {t.text}")
    return Shape.array(t, dims, dynamic_dimensions=dynamic)


@shape_rule(Op.DOT)
def dot_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferDotOpShape (page 003: DotGeneral)."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    dn = DotDimensionNumbers.of(ctx.attrs)
    check_dot_dimensions(ctx.opcode.text, lhs, rhs, dn)
    return _result(ctx, lhs, rhs, dn)


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
    return _result(ctx, lhs, rhs, dn)


# -- ragged-dot -------------------------------------------------------------------------------
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
        free = _free(lhs.rank, lb, lc)
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
        return _result(ctx, lhs, rhs, dn, (), leading)
    if len(groups) != 1:
        raise ShapeError(
            f"rhs_group_dims={ints_text(groups)} must name exactly one dimension of rhs {rhs}: the ragged "
            f"dimension {r} of lhs is a non-contracting dimension"
        )
    if not _compatible(count, rhs.dimensions[groups[0]]):
        raise ShapeError(
            f"rhs group dimension {groups[0]} ({_size(rhs, groups[0])}) must have the number of groups "
            f"of operand 2 (group_sizes, {sizes}): {_size(sizes, sizes.rank - 1)}"
        )
    return _result(ctx, lhs, rhs, dn, groups)


# -- builder functions ------------------------------------------------------------------------
@dataclass(frozen=True)
class PrecisionConfig:
    """XLA's PrecisionConfig: one precision per operand, and a dot algorithm."""

    operand_precision: tuple[Precision | str, ...] = ()
    algorithm: DotAlgorithm | str = DotAlgorithm.UNSET


_DOT_FIELDS = tuple(DotDimensionNumbers.__dataclass_fields__)
_RAGGED_FIELDS = ("lhs_ragged_dimensions", "rhs_group_dimensions")


def _from_mapping(
    builder: XlaBuilder, op_name: str, numbers: Mapping[str, Any], fields: Sequence[str]
) -> dict[str, Any]:
    unknown = sorted(set(numbers) - set(fields))
    if unknown:
        raise builder.error(
            op_name, f"dimension_numbers has unknown fields {unknown}: the fields are {list(fields)}"
        )
    return {k: int_tuple(builder, op_name, numbers[k], k) for k in numbers}


def _dot_numbers(builder: XlaBuilder, op_name: str, numbers: Any) -> DotDimensionNumbers:
    if isinstance(numbers, Mapping):
        return DotDimensionNumbers(**_from_mapping(builder, op_name, numbers, _DOT_FIELDS))
    if not isinstance(numbers, DotDimensionNumbers):
        raise builder.error(
            op_name, f"dimension_numbers must be a DotDimensionNumbers or a dict: found {numbers!r}"
        )
    return DotDimensionNumbers(*(int_tuple(builder, op_name, getattr(numbers, f), f) for f in _DOT_FIELDS))


def _dimension_attrs(builder: XlaBuilder, op_name: str, numbers: Any) -> dict[str, Any]:
    dn = _dot_numbers(builder, op_name, numbers)
    return {
        "lhs_batch_dims": dn.lhs_batch_dimensions,
        "lhs_contracting_dims": dn.lhs_contracting_dimensions,
        "rhs_batch_dims": dn.rhs_batch_dimensions,
        "rhs_contracting_dims": dn.rhs_contracting_dimensions,
    }


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
    attrs = _dimension_attrs(builder, "RaggedDot", numbers.dot_dimension_numbers)
    attrs["lhs_ragged_dims"] = int_tuple(
        builder, "RaggedDot", numbers.lhs_ragged_dimensions, "lhs_ragged_dimensions"
    )
    attrs["rhs_group_dims"] = int_tuple(
        builder, "RaggedDot", numbers.rhs_group_dimensions, "rhs_group_dimensions"
    )
    return attrs


def precision_config_attrs(
    builder: XlaBuilder, op_name: str, config: PrecisionConfig | None, operands: int
) -> dict[str, Any]:
    """The operand_precision and algorithm attributes of a PrecisionConfig (no precisions: all
    default)."""
    if config is None:
        return {}
    if isinstance(config, Mapping):
        unknown = sorted(set(config) - {"operand_precision", "algorithm"})
        if unknown:
            raise builder.error(op_name, f"precision_config has unknown fields {unknown}")
        config = PrecisionConfig(**config)
    if not isinstance(config, PrecisionConfig):
        raise builder.error(op_name, f"precision_config must be a PrecisionConfig: found {config!r}")
    try:
        precisions = tuple(
            p if isinstance(p, Precision) else Precision(str(p).lower()) for p in config.operand_precision
        )
        algorithm = config.algorithm
        if not isinstance(algorithm, DotAlgorithm):
            algorithm = DotAlgorithm(str(algorithm).lower().removeprefix("alg_"))
    except ValueError as e:
        raise builder.error(op_name, f"precision_config: {e}") from None
    if precisions and len(precisions) != operands:
        raise builder.error(
            op_name, f"precision_config needs {operands} operand precisions: found {len(precisions)}"
        )
    attrs: dict[str, Any] = {"algorithm": algorithm}
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


def _add_dot(
    op_name: str,
    opcode: Opcode,
    operands: dict[str, XlaOp],
    attrs: dict[str, Any],
    precision_config: PrecisionConfig | None,
    preferred_element_type: PrimitiveType | str | None,
) -> XlaOp:
    builder = builder_of(op_name, *operands.values())
    require_ops(builder, op_name, **operands)
    attrs.update(precision_config_attrs(builder, op_name, precision_config, 2))
    preferred = _preferred(builder, op_name, preferred_element_type)
    return builder.add(op_name, opcode, tuple(operands.values()), attrs, preferred_element_type=preferred)


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
    attrs = _dimension_attrs(builder, "DotGeneral", dimension_numbers)
    return _add_dot(
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
    attrs = _dimension_attrs(builder, "Dot", numbers)
    return _add_dot("Dot", Op.DOT, {"lhs": lhs, "rhs": rhs}, attrs, precision_config, preferred_element_type)


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
    return _add_dot("RaggedDot", Op.RAGGED_DOT, operands, attrs, precision_config, preferred_element_type)


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
    attrs = _dimension_attrs(builder, "ScaledDot", dimension_numbers)
    operands = {"lhs": lhs, "rhs": rhs, "lhs_scale": lhs_scale, "rhs_scale": rhs_scale}
    return _add_dot("ScaledDot", Op.SCALED_DOT, operands, attrs, precision_config, preferred_element_type)


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.DOT)
def dot_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """A batched matmul in the result's working type (numerics.linear)."""
    from ..numerics.linear import dot_general

    dn = DotDimensionNumbers.of(instr.attrs)
    dims = (
        dn.lhs_batch_dimensions,
        dn.lhs_contracting_dimensions,
        dn.rhs_batch_dimensions,
        dn.rhs_contracting_dimensions,
    )
    result, flush = instr.shape.element_type, ctx.options.flush_denormals
    return lambda lhs, rhs: dot_general(lhs, rhs, *dims, result, flush)
