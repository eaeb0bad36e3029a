"""Parameters, constants, tuples and tokens: the ops that make, pick or pass values."""

from __future__ import annotations

from ..errors import ShapeError
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import INT, Simple
from ..text.sharding_codec import parse_domain, print_domain
from .registry import AttrSpec, ShapeContext, define, shape_rule

Op = Opcode

# parameter(N) and constant(literal) keep their number / literal in attrs["parameter_number"] /
# attrs["literal"]; the parser and printer write them inside the parentheses.
define(Op.PARAMETER)
define(Op.CONSTANT)
define(Op.TUPLE, arity=None)
define(Op.GET_TUPLE_ELEMENT, AttrSpec("index", INT, required=True))
define(Op.AFTER_ALL)
define(Op.ADD_DEPENDENCY)
define(Op.OPTIMIZATION_BARRIER)
define(Op.DOMAIN, AttrSpec("domain", Simple(parse_domain, print_domain), required=True))


# -- shape rules ------------------------------------------------------------------------------
@shape_rule(Op.TUPLE)
def tuple_shape(ctx: ShapeContext) -> Shape:
    return Shape.make_tuple(ctx.operands)


@shape_rule(Op.GET_TUPLE_ELEMENT)
def get_tuple_element_shape(ctx: ShapeContext) -> Shape:
    operand = ctx.operands[0]
    index = ctx.attr("index")
    if not operand.is_tuple:
        raise ShapeError(f"get-tuple-element: the operand must be a tuple, not {operand}")
    if not 0 <= index < len(operand.tuple_shapes):
        raise ShapeError(f"get-tuple-element: index {index} is out of range for {operand}")
    return operand.tuple_shapes[index]


@shape_rule(Op.OPTIMIZATION_BARRIER, Op.DOMAIN, Op.ADD_DEPENDENCY)
def first_operand_shape(ctx: ShapeContext) -> Shape:
    return ctx.operands[0]


@shape_rule(Op.AFTER_ALL)
def after_all_shape(ctx: ShapeContext) -> Shape:
    for k, s in enumerate(ctx.operands):
        if not s.is_token:
            raise ShapeError(f"after-all: operand {k} must be a token, not {s}")
    return Shape.token()
