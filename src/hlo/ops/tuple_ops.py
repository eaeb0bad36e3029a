"""Parameters, constants, tuples and tokens: the ops that make, pick or pass values."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import EvalError, ShapeError
from ..ir.attr_kinds import DOMAIN, INT
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.services import parse_shape
from ..literal import Literal
from ..numerics.values import TOKEN
from ..shape import Shape
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

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
define(Op.DOMAIN, AttrSpec("domain", DOMAIN, required=True))


# -- shape rules ------------------------------------------------------------------------------
@shape_rule(Op.TUPLE)
def tuple_shape(ctx: ShapeContext) -> Shape:
    return Shape.make_tuple(ctx.operands)


@shape_rule(Op.GET_TUPLE_ELEMENT)
def get_tuple_element_shape(ctx: ShapeContext) -> Shape:
    operand = ctx.operands[0]
    index = ctx.attr("index")
    if not operand.is_tuple:
        raise ShapeError(f"operand 0 must be a tuple: found {operand}")
    if not 0 <= index < len(operand.tuple_shapes):
        raise ShapeError(f"index={index} must be an element of the tuple operand: found {operand}")
    return operand.tuple_shapes[index]


@shape_rule(Op.OPTIMIZATION_BARRIER, Op.DOMAIN, Op.ADD_DEPENDENCY)
def first_operand_shape(ctx: ShapeContext) -> Shape:
    return ctx.operands[0]


@shape_rule(Op.AFTER_ALL)
def after_all_shape(ctx: ShapeContext) -> Shape:
    for k, s in enumerate(ctx.operands):
        if not s.is_token:
            raise ShapeError(f"operand {k} must be a token: found {s}")
    return Shape.token()


# -- builder functions (page 003: Parameter, ConstantLiteral, Tuple, GetTupleElement, ...) -----
def as_shape(shape: Shape | str) -> Shape:
    """A Shape, or the shape a string such as `f32[4]{0}` spells."""
    return parse_shape(shape) if isinstance(shape, str) else shape


@builder_function
def Parameter(builder: XlaBuilder, parameter_number: int, shape: Shape | str, name: str) -> XlaOp:
    """Parameter `parameter_number` of the computation being built, of the given shape."""
    shape = as_shape(shape)
    if not isinstance(parameter_number, int) or parameter_number < 0:
        raise builder.error(
            "Parameter", f"the parameter number must be a non-negative int, not {parameter_number!r}"
        )
    for instr in builder.instructions:
        if instr.opcode is Op.PARAMETER and instr.attrs["parameter_number"] == parameter_number:
            raise builder.error(
                "Parameter", f"parameter {parameter_number} is already defined as %{instr.name}"
            )
    return builder.add(
        "Parameter", Op.PARAMETER, (), {"parameter_number": parameter_number}, shape=shape, name=name
    )


@builder_function
def ConstantLiteral(builder: XlaBuilder, literal: Literal) -> XlaOp:
    """A constant holding `literal` (a `hlo.Literal`)."""
    if not isinstance(literal, Literal):
        raise builder.error("ConstantLiteral", f"expects an hlo.Literal, not {type(literal).__name__}")
    return builder.add("ConstantLiteral", Op.CONSTANT, (), {"literal": literal}, shape=literal.shape)


@builder_function
def ConstantR0(builder: XlaBuilder, value: Any, element_type: PrimitiveType | str | None = None) -> XlaOp:
    """A scalar constant; without `element_type` Python floats are f32 and ints s32, as the C++
    template's usual instantiations (`ConstantR0<float>`, `ConstantR0<int32_t>`)."""
    return ConstantLiteral(builder, Literal.scalar(value, element_type or _default_type(value)))


@builder_function
def ConstantR1(
    builder: XlaBuilder, values: Sequence[Any], element_type: PrimitiveType | str | None = None
) -> XlaOp:
    """A vector constant (element type as for ConstantR0)."""
    array = np.asarray(values)
    if array.ndim != 1:
        raise builder.error(
            "ConstantR1", f"expects a sequence of values, not an array of shape {array.shape}"
        )
    return ConstantLiteral(builder, Literal.from_array(array, element_type or _default_type(values)))


@builder_function
def ConstantR2(
    builder: XlaBuilder, values: Sequence[Sequence[Any]], element_type: PrimitiveType | str | None = None
) -> XlaOp:
    """A matrix constant (element type as for ConstantR0)."""
    array = np.asarray(values)
    if array.ndim != 2:
        raise builder.error("ConstantR2", f"expects rows of values, not an array of shape {array.shape}")
    return ConstantLiteral(builder, Literal.from_array(array, element_type or _default_type(values)))


def _default_type(value: Any) -> PrimitiveType | None:
    """Python and NumPy 64-bit defaults become XLA's usual 32-bit ones; other dtypes stay."""
    dtype = np.asarray(value).dtype
    if dtype == np.float64 and not isinstance(value, np.ndarray | np.floating):
        return PrimitiveType.F32
    if dtype == np.int64 and not isinstance(value, np.ndarray | np.integer):
        return PrimitiveType.S32
    return None


@builder_function
def Tuple(builder: XlaBuilder, elements: Sequence[XlaOp]) -> XlaOp:
    """A tuple of the values `elements`."""
    return builder.add("Tuple", Op.TUPLE, tuple(elements))


@builder_function
def GetTupleElement(tuple_data: XlaOp, index: int) -> XlaOp:
    """Element `index` of a tuple value."""
    return builder_of("GetTupleElement", tuple_data).add(
        "GetTupleElement", Op.GET_TUPLE_ELEMENT, (tuple_data,), {"index": index}
    )


@builder_function
def AfterAll(builder: XlaBuilder, tokens: Sequence[XlaOp]) -> XlaOp:
    """A token ordered after all `tokens` (none: a fresh token)."""
    return builder.add("AfterAll", Op.AFTER_ALL, tuple(tokens))


@builder_function
def CreateToken(builder: XlaBuilder) -> XlaOp:
    """A fresh token: `after-all()` with no operands."""
    return builder.add("CreateToken", Op.AFTER_ALL, ())


@builder_function
def AddDependency(operand: XlaOp, token: XlaOp) -> XlaOp:
    """`operand`, ordered after `token`."""
    return builder_of("AddDependency", operand).add("AddDependency", Op.ADD_DEPENDENCY, (operand, token))


@builder_function
def OptimizationBarrier(operand: XlaOp) -> XlaOp:
    """`operand` unchanged; no computation moves across it."""
    return builder_of("OptimizationBarrier", operand).add(
        "OptimizationBarrier", Op.OPTIMIZATION_BARRIER, (operand,)
    )


# -- kernels ----------------------------------------------------------------------------------
@kernel(Op.CONSTANT)
def constant_kernel(instr: Instruction, ctx: KernelContext) -> Callable[[], Any]:
    literal: Literal = instr.attrs["literal"]
    if _has_elided(literal):
        raise EvalError(f"the constant's values were not written ({{...}}): {instr.shape} cannot run")
    value = literal.to_numpy()
    return lambda: value


def _has_elided(literal: Literal) -> bool:
    return any(_has_elided(e) for e in literal.elements) if literal.is_tuple else literal.is_elided


@kernel(Op.TUPLE)
def tuple_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda *elements: elements


@kernel(Op.GET_TUPLE_ELEMENT)
def get_tuple_element_kernel(instr: Instruction, ctx: KernelContext) -> Callable[[Any], Any]:
    index = instr.attrs["index"]
    return lambda t: t[index]


@kernel(Op.AFTER_ALL)
def after_all_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda *tokens: TOKEN


@kernel(Op.ADD_DEPENDENCY, Op.OPTIMIZATION_BARRIER, Op.DOMAIN)
def pass_through_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return lambda value, *ordering: value
