"""Ops that call computations: call, while, conditional, fusion, and the async wrappers."""

from __future__ import annotations

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attrs import FusionKind
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import (
    BOOL,
    CALLS,
    COMPUTATION,
    COMPUTATION_LIST,
    OPERAND_ALIASING,
    RAW_STRING,
    EnumCodec,
)
from .registry import AttrSpec, ShapeContext, define, if_nonempty, if_true, shape_rule, unless

Op = Opcode

define(
    Op.CALL,
    AttrSpec("to_apply", COMPUTATION, required=True),
    AttrSpec("is_composite", BOOL, default=False, printed=if_true),
)
define(
    Op.WHILE,
    AttrSpec("condition", COMPUTATION, required=True),
    AttrSpec("body", COMPUTATION, required=True),
    callee_order=("body", "condition"),  # XLA's called_computations(): body first
)


def _conditional_form(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if not operands:
        return "conditional requires at least one operand"
    selector = operands[0]
    if not selector.is_array or selector.rank != 0:
        return "the first operand of conditional must be a scalar"
    has_pred_form = "true_computation" in instr.attrs or "false_computation" in instr.attrs
    if selector.element_type is PrimitiveType.PRED:
        if "branch_computations" in instr.attrs:
            return (
                "a conditional on a pred takes true_computation= and false_computation=, "
                "not branch_computations="
            )
        if not ("true_computation" in instr.attrs and "false_computation" in instr.attrs):
            return "a conditional on a pred needs true_computation= and false_computation="
        branches = 2
    elif selector.element_type is PrimitiveType.S32:
        if has_pred_form:
            return "a conditional on an s32 index takes branch_computations=, not true_/false_computation="
        if not instr.attrs.get("branch_computations"):
            return "a conditional on an s32 index needs a non-empty branch_computations="
        branches = len(instr.attrs["branch_computations"])
    else:
        return "the first operand of conditional must be a scalar of PRED or S32"
    if len(operands) != 1 + branches:
        return f"conditional with {branches} branches takes {1 + branches} operands, not {len(operands)}"
    return None


define(
    Op.CONDITIONAL,
    AttrSpec("true_computation", COMPUTATION),
    AttrSpec("false_computation", COMPUTATION),
    AttrSpec("branch_computations", COMPUTATION_LIST),
    check=_conditional_form,
)
define(
    Op.FUSION,
    AttrSpec("kind", EnumCodec(FusionKind, "a fusion kind"), required=True),
    AttrSpec("output_to_operand_aliasing", OPERAND_ALIASING, printed=if_nonempty),
    AttrSpec("calls", CALLS, required=True),
)

# Async wrappers. A sugared `X-start` is parsed into an async-start calling a synthesized
# computation whose root is X; the printer writes the sugar back (see text.async_sugar).
define(
    Op.ASYNC_START,
    AttrSpec("async_execution_thread", RAW_STRING, default="main", printed=unless("main")),
    AttrSpec("output_to_operand_aliasing", OPERAND_ALIASING, printed=if_nonempty),
    AttrSpec("calls", CALLS, required=True),
    arity=None,
)
define(
    Op.ASYNC_UPDATE,
    AttrSpec("async_execution_thread", RAW_STRING, printed=lambda v, ctx: False),
    AttrSpec("calls", CALLS, printed=lambda v, ctx: False),
    arity=None,
)
define(
    Op.ASYNC_DONE,
    AttrSpec("async_execution_thread", RAW_STRING, printed=lambda v, ctx: False),
    AttrSpec("calls", CALLS, printed=lambda v, ctx: False),
    arity=None,
)


# -- shape rules ------------------------------------------------------------------------------
@shape_rule(Op.CALL)
def call_shape(ctx: ShapeContext) -> Shape:
    params, result = ctx.program_shape(ctx.attr("to_apply"))
    if len(params) != len(ctx.operands) or any(not p.compatible(o) for p, o in zip(params, ctx.operands)):
        raise ShapeError(
            f"call: the operands {list(map(str, ctx.operands))} do not match the parameters of the callee"
        )
    return result


@shape_rule(Op.WHILE)
def while_shape(ctx: ShapeContext) -> Shape:
    _, body_result = ctx.program_shape(ctx.attr("body"))
    return body_result


@shape_rule(Op.CONDITIONAL)
def conditional_shape(ctx: ShapeContext) -> Shape:
    branches = ctx.attr("branch_computations") or (
        ctx.attr("true_computation"),
        ctx.attr("false_computation"),
    )
    results = [ctx.program_shape(b)[1] for b in branches]
    for r in results[1:]:
        if not r.compatible(results[0]):
            raise ShapeError(f"conditional: the branches return different shapes, {results[0]} and {r}")
    return results[0]
