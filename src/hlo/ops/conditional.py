"""Conditional (page 003): one of two computations by a pred[] selector, or one of N by an s32[]
branch index; the shape rule checks each branch's program shape against its operand, the builder
function takes XlaBuilder's two overloads, and the kernel runs the last branch for an index out of
range, as XLA does."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import COMPUTATION, COMPUTATION_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .callee import embed, or_dynamic, program, signature, text, texts
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
FAMILY = "control_flow"  # split out of control_flow.py: pictures colour its ops as that family's


def _conditional_form(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    """Parse-time: which branch attributes go with the selector's type."""
    if not operands:
        return "expects at least one operand (the branch selector): found none"
    selector = operands[0]
    if not selector.is_array or selector.rank != 0:
        return (
            f"the first operand of conditional must be a scalar (the branch selector): found {text(selector)}"
        )
    has_pred_form = "true_computation" in instr.attrs or "false_computation" in instr.attrs
    if selector.element_type is PrimitiveType.PRED:
        if "branch_computations" in instr.attrs:
            return (
                "a pred selector takes true_computation= and false_computation=: found branch_computations="
            )
        if not ("true_computation" in instr.attrs and "false_computation" in instr.attrs):
            return "a pred selector needs true_computation= and false_computation=: one is missing"
        branches = 2
    elif selector.element_type is PrimitiveType.S32:
        if has_pred_form:
            return "an s32 branch index takes branch_computations=: found true_/false_computation="
        if not instr.attrs.get("branch_computations"):
            return "an s32 branch index needs a non-empty branch_computations=: found none"
        branches = len(instr.attrs["branch_computations"])
    else:
        return f"the first operand of conditional must be a scalar of PRED or S32: found {text(selector)}"
    if len(operands) != 1 + branches:
        return f"expects {1 + branches} operands for {branches} branches: found {len(operands)}"
    return None


define(
    Op.CONDITIONAL,
    AttrSpec("true_computation", COMPUTATION),
    AttrSpec("false_computation", COMPUTATION),
    AttrSpec("branch_computations", COMPUTATION_LIST),
    check=_conditional_form,
)


def _branches(ctx: ShapeContext) -> list[tuple[str, tuple[Shape, ...], Shape]]:
    selector = operand(ctx, 0, "the branch selector")
    if (
        not selector.is_array
        or selector.rank != 0
        or selector.element_type
        not in (
            PrimitiveType.PRED,
            PrimitiveType.S32,
        )
    ):
        raise ShapeError(
            f"the first operand of conditional must be a scalar pred[] or s32[] (the branch selector): "
            f"found {text(selector)}"
        )
    if selector.element_type is PrimitiveType.PRED:
        if ctx.attr("branch_computations") is not None:
            raise ShapeError(
                "a pred selector takes true_computation= and false_computation=: found branch_computations="
            )
        return [program(ctx, "true_computation"), program(ctx, "false_computation")]
    names = ctx.attr("branch_computations") or ()
    if not names or ctx.attr("true_computation") is not None or ctx.attr("false_computation") is not None:
        raise ShapeError(f"an s32 branch index takes a non-empty branch_computations=: found {names!r}")
    return [program(ctx, "branch_computations", k) for k in range(len(names))]


@shape_rule(Op.CONDITIONAL)
def conditional_shape(ctx: ShapeContext) -> Shape:
    """Branch b takes operand b+1 and all branches return one type; a dimension of the result is
    dynamic if it is in any branch (page 003, Conditional)."""
    branches = _branches(ctx)
    if len(ctx.operands) != 1 + len(branches):
        raise ShapeError(
            f"expects {1 + len(branches)} operands (the selector and one per branch): "
            f"found {len(ctx.operands)} ({texts(ctx.operands)})"
        )
    label0, params0, result0 = branches[0]
    for j, (label, params, result) in enumerate(branches):
        sig = signature(params, result)
        if len(params) != 1:
            raise ShapeError(f"{label} must take one parameter (its branch operand): found {sig}")
        if not params[0].compatible(ctx.operands[j + 1]):
            raise ShapeError(
                f"operand {j + 1} must match the parameter of {label}: "
                f"found {text(ctx.operands[j + 1])} for {sig}"
            )
        if not result.compatible(result0):
            raise ShapeError(
                f"{label} must return what {label0} returns: found {sig} and {signature(params0, result0)}"
            )
    return or_dynamic(result0, [r for _, _, r in branches[1:]])


@builder_function
def Conditional(*args: Any) -> XlaOp:
    """`Conditional(predicate, true_operand, true_computation, false_operand, false_computation)`:
    one of two computations by a pred[]; `Conditional(branch_index, branch_computations,
    branch_operands)`: computation `branch_index` (s32[]; out of range runs the last one) of
    N >= 1 (page 003; XlaBuilder's two overloads)."""
    if len(args) == 5:
        predicate, true_operand, true_computation, false_operand, false_computation = args
        builder = builder_of("Conditional", predicate)
        _selector(builder, predicate, PrimitiveType.PRED, "predicate")
        attrs = {
            "true_computation": embed(builder, "Conditional", true_computation, "true_computation"),
            "false_computation": embed(builder, "Conditional", false_computation, "false_computation"),
        }
        return builder.add("Conditional", Op.CONDITIONAL, (predicate, true_operand, false_operand), attrs)
    if len(args) == 3:
        branch_index, computations, operands = args
        builder = builder_of("Conditional", branch_index)
        _selector(builder, branch_index, PrimitiveType.S32, "branch_index")
        computations, operands = list(computations), list(operands)
        if not computations or len(computations) != len(operands):
            raise builder.error(
                "Conditional",
                f"needs N >= 1 branch computations and as many branch operands: found "
                f"{len(computations)} and {len(operands)}",
            )
        names = tuple(
            embed(builder, "Conditional", c, f"branch_computations[{k}]") for k, c in enumerate(computations)
        )
        return builder.add(
            "Conditional", Op.CONDITIONAL, (branch_index, *operands), {"branch_computations": names}
        )
    raise ShapeError(
        "Conditional takes (predicate, true_operand, true_computation, false_operand, false_computation) "
        f"or (branch_index, branch_computations, branch_operands): found {len(args)} arguments"
    )


def _selector(builder: XlaBuilder, op: Any, ptype: PrimitiveType, what: str) -> None:
    from .handles import XlaOp

    if not isinstance(op, XlaOp):
        raise builder.error("Conditional", f"{what} must be an XlaOp: found {type(op).__name__}")
    if not (op.shape.is_array and op.shape.rank == 0 and op.shape.element_type is ptype):
        raise builder.error(
            "Conditional", f"{what} must be a scalar of {ptype.text.upper()}: found {text(op.shape)}"
        )


@kernel(Op.CONDITIONAL)
def conditional_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """A pred selects true_computation or false_computation; an s32 index selects a branch, and
    an index out of range (negative too) runs the last branch, as XLA does."""
    if "branch_computations" in instr.attrs:
        branches = [ctx.computation(name) for name in instr.attrs["branch_computations"]]
    else:
        branches = [
            ctx.computation(instr.attrs["true_computation"]),
            ctx.computation(instr.attrs["false_computation"]),
        ]
        return lambda pred, on_true, on_false: branches[0](on_true) if bool(pred) else branches[1](on_false)
    last = len(branches) - 1

    def run(index: np.ndarray, *operands: Any) -> Any:
        k = int(index)
        k = k if 0 <= k < last else last
        return branches[k](operands[k])

    return run
