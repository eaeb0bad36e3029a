"""Dot products: dot (dot-general), ragged-dot and scaled-dot."""

from __future__ import annotations

from ..errors import ShapeError
from ..ir.attrs import DotAlgorithm, Precision
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import INT_LIST, EnumCodec, Simple
from ..text.lexer import Tok
from ..text.reader import TextReader
from .registry import AttrSpec, ShapeContext, define, if_nonempty, shape_rule, unless

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


@shape_rule(Op.DOT)
def dot_shape(ctx: ShapeContext) -> Shape:
    """Batch dimensions, then lhs free dimensions, then rhs free dimensions."""
    lhs, rhs = ctx.operands[0], ctx.operands[1]
    lb, lc = ctx.attr("lhs_batch_dims", ()), ctx.attr("lhs_contracting_dims", ())
    rb, rc = ctx.attr("rhs_batch_dims", ()), ctx.attr("rhs_contracting_dims", ())
    if len(lb) != len(rb) or len(lc) != len(rc):
        raise ShapeError(f"dot: batch and contracting dimension lists must pair up, {lb}/{rb} and {lc}/{rc}")
    for a, b in zip(lb + lc, rb + rc):
        if not (0 <= a < lhs.rank and 0 <= b < rhs.rank) or lhs.dimensions[a] != rhs.dimensions[b]:
            raise ShapeError(f"dot: lhs dimension {a} of {lhs} does not match rhs dimension {b} of {rhs}")
    if lhs.element_type is not rhs.element_type:
        raise ShapeError(f"dot: the operands must have the same element type, not {lhs} and {rhs}")
    dims = [lhs.dimensions[d] for d in lb]
    dims += [s for d, s in enumerate(lhs.dimensions) if d not in lb and d not in lc]
    dims += [s for d, s in enumerate(rhs.dimensions) if d not in rb and d not in rc]
    return Shape.array(lhs.element_type, dims)
