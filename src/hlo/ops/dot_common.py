"""What the dot family shares (dot, ragged-dot, scaled-dot, and convolution's precision config):
dimension numbers, the precision attributes, XLA's InferDotOpShape checks and result, and the
builder-side conversion of dimension numbers and precision configs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST, PRECISION_LIST, enum_kind
from ..ir.attrs import DotAlgorithm, Precision
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED, Shape, as_primitive_type
from .array_rules import higher_precision, int_tuple, ints_text, require_ops, sizes_compatible
from .registry import AttrSpec, ShapeContext, if_nonempty, unless
from .rule_helpers import builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder
    from .handles import XlaOp


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


def size_text(shape: Shape, d: int) -> str:
    n = shape.dimensions[d]
    return "?" if n == UNBOUNDED else f"<={n}" if shape.dynamic_dimensions[d] else str(n)


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
            if not sizes_compatible(lhs.dimensions[a], rhs.dimensions[b]):
                raise ShapeError(
                    f"{kind} dimension {a} of lhs ({size_text(lhs, a)}) does not match {kind} dimension "
                    f"{b} of rhs ({size_text(rhs, b)}): {pair}"
                )


def free_dimensions(rank: int, *taken: Sequence[int]) -> list[int]:
    return [d for d in range(rank) if not any(d in t for t in taken)]


def dot_result(
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
    picks += [
        (lhs, d) for d in free_dimensions(lhs.rank, dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions)
    ]
    rhs_free = free_dimensions(rhs.rank, dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions, rhs_groups)
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


@dataclass(frozen=True)
class PrecisionConfig:
    """XLA's PrecisionConfig: one precision per operand, and a dot algorithm."""

    operand_precision: tuple[Precision | str, ...] = ()
    algorithm: DotAlgorithm | str = DotAlgorithm.UNSET


_DOT_FIELDS = tuple(DotDimensionNumbers.__dataclass_fields__)


def from_mapping(
    builder: XlaBuilder, op_name: str, numbers: Mapping[str, Any], fields: Sequence[str]
) -> dict[str, Any]:
    unknown = sorted(set(numbers) - set(fields))
    if unknown:
        raise builder.error(
            op_name, f"dimension_numbers has unknown fields {unknown}: the fields are {list(fields)}"
        )
    return {k: int_tuple(builder, op_name, numbers[k], k) for k in numbers}


def dot_numbers(builder: XlaBuilder, op_name: str, numbers: Any) -> DotDimensionNumbers:
    if isinstance(numbers, Mapping):
        return DotDimensionNumbers(**from_mapping(builder, op_name, numbers, _DOT_FIELDS))
    if not isinstance(numbers, DotDimensionNumbers):
        raise builder.error(
            op_name, f"dimension_numbers must be a DotDimensionNumbers or a dict: found {numbers!r}"
        )
    return DotDimensionNumbers(*(int_tuple(builder, op_name, getattr(numbers, f), f) for f in _DOT_FIELDS))


def dimension_attrs(builder: XlaBuilder, op_name: str, numbers: Any) -> dict[str, Any]:
    dn = dot_numbers(builder, op_name, numbers)
    return {
        "lhs_batch_dims": dn.lhs_batch_dimensions,
        "lhs_contracting_dims": dn.lhs_contracting_dimensions,
        "rhs_batch_dims": dn.rhs_batch_dimensions,
        "rhs_contracting_dims": dn.rhs_contracting_dimensions,
    }


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


def preferred_type(builder: XlaBuilder, op_name: str, t: PrimitiveType | str | None) -> PrimitiveType | None:
    if t is None:
        return None
    try:
        return as_primitive_type(t)
    except ShapeError as e:
        raise builder.error(op_name, e.message) from None


def add_dot(
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
    preferred = preferred_type(builder, op_name, preferred_element_type)
    return builder.add(op_name, opcode, tuple(operands.values()), attrs, preferred_element_type=preferred)
