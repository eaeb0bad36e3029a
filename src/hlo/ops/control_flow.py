"""Ops that call computations (page 003: Call, CompositeCall, While, Conditional): shape rules that
check each called computation's program shape against the operands, and their builder
functions. Fusion and the async wrappers are in fusion_async.py (imported at the bottom)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import EvalError, ShapeError
from ..ir.attr_kinds import BOOL, COMPUTATION, COMPUTATION_LIST
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .callee import embed, or_dynamic, program, signature, text, texts
from .registry import AttrSpec, ShapeContext, builder_function, define, if_true, kernel, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
PRED_SCALAR = Shape.scalar(PrimitiveType.PRED)


# -- call -------------------------------------------------------------------------------------
define(
    Op.CALL,
    AttrSpec("to_apply", COMPUTATION, required=True),
    AttrSpec("is_composite", BOOL, default=False, printed=if_true),
)


@shape_rule(Op.CALL)
def call_shape(ctx: ShapeContext) -> Shape:
    """The callee's result; its parameters must match the operands one to one."""
    label, params, result = program(ctx, "to_apply")
    if len(params) != len(ctx.operands):
        raise ShapeError(
            f"{label} must take one parameter per operand: found {signature(params, result)} "
            f"called with ({texts(ctx.operands)})"
        )
    for k, (p, o) in enumerate(zip(params, ctx.operands)):
        if not p.compatible(o):
            raise ShapeError(
                f"operand {k} must match parameter {k} of {label}: found {text(o)} for "
                f"{signature(params, result)}"
            )
    return result


def composite_errors(instr: Instruction) -> str | None:
    """What makes a composite call (`is_composite=true`) invalid, as XLA's verifier checks its
    `composite.*` frontend attributes; None if it is valid. (Shape rules do not see frontend
    attributes; the verifier may call this.)"""
    if not instr.attrs.get("is_composite"):
        return None
    attrs = instr.frontend_attributes
    if not attrs.get("composite.name"):
        return "a composite call needs a non-empty frontend attribute composite.name: found none"
    if attrs.get("composite.attributes", "{}") == "":
        return 'composite.attributes must be "{}" or a non-empty dictionary: found ""'
    version = attrs.get("composite.version", "0")
    if not version.isdigit():
        return f"composite.version must be a non-negative integer: found {version!r}"
    return None


@builder_function
def Call(builder: XlaBuilder, computation: XlaComputation, operands: Sequence[XlaOp] = ()) -> XlaOp:
    """`computation` applied to `operands` (page 003: its parameters must match them)."""
    name = embed(builder, "Call", computation, "computation")
    return builder.add("Call", Op.CALL, tuple(operands), {"to_apply": name})


@builder_function
def CompositeCall(
    builder: XlaBuilder,
    computation: XlaComputation,
    operands: Sequence[XlaOp],
    name: str,
    attributes: str | None = None,
    version: int | None = None,
) -> XlaOp:
    """A call marked `is_composite=true` whose decomposition is `computation`; the composite's
    name, attributes (a dictionary as text) and version go in `composite.*` frontend attributes
    (page 003)."""
    if not isinstance(name, str) or not name:
        raise builder.error("CompositeCall", f"name must be a non-empty string: found {name!r}")
    if attributes is not None and not attributes:
        raise builder.error("CompositeCall", 'attributes must be "{}" or a non-empty dictionary: found ""')
    if version is not None and (not isinstance(version, int) or version < 0):
        raise builder.error("CompositeCall", f"version must be a non-negative int: found {version!r}")
    callee = embed(builder, "CompositeCall", computation, "computation")
    frontend: FrozenDict[str, str] = FrozenDict(
        {
            "composite.attributes": attributes if attributes is not None else "{}",
            "composite.name": name,
            "composite.version": str(version or 0),
        }
    )
    return builder.add(
        "CompositeCall",
        Op.CALL,
        tuple(operands),
        {"to_apply": callee, "is_composite": True},
        frontend_attributes=frontend,
    )


# -- while ------------------------------------------------------------------------------------
define(
    Op.WHILE,
    AttrSpec("condition", COMPUTATION, required=True),
    AttrSpec("body", COMPUTATION, required=True),
    callee_order=("body", "condition"),  # XLA's called_computations(): body first
)


@shape_rule(Op.WHILE)
def while_shape(ctx: ShapeContext) -> Shape:
    """The loop state T: condition T -> pred[], body T -> T, init T (page 003, While)."""
    init = operand(ctx, 0, "init")
    cond, cond_params, cond_result = program(ctx, "condition")
    body, body_params, body_result = program(ctx, "body")
    cond_sig, body_sig = signature(cond_params, cond_result), signature(body_params, body_result)
    if len(cond_params) != 1:
        raise ShapeError(f"{cond} must take one parameter (the loop state): found {cond_sig}")
    if len(body_params) != 1:
        raise ShapeError(f"{body} must take one parameter (the loop state): found {body_sig}")
    if not cond_result.compatible(PRED_SCALAR):
        raise ShapeError(f"{cond} must return pred[]: found {cond_sig}")
    if not body_result.compatible(body_params[0]):
        raise ShapeError(f"{body} must map the loop state to itself: found {body_sig}")
    if not cond_params[0].compatible(body_result):
        raise ShapeError(f"{cond} must take the loop state {body} returns: found {cond_sig} and {body_sig}")
    if not init.compatible(body_result):
        raise ShapeError(
            f"operand 0 (init) must be the loop state of {body}: found {text(init)} for {body_sig}"
        )
    return init


@builder_function
def While(condition: XlaComputation, body: XlaComputation, init: XlaOp) -> XlaOp:
    """Run `body` on the state, starting from `init`, while `condition` holds (page 003)."""
    builder = builder_of("While", init)
    attrs = {
        "condition": embed(builder, "While", condition, "condition"),
        "body": embed(builder, "While", body, "body"),
    }
    return builder.add("While", Op.WHILE, (init,), attrs)


# -- conditional ------------------------------------------------------------------------------
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


from . import fusion_async  # noqa: E402, F401  (fusion, async-start/update/done)


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.CALL)
def call_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    return ctx.computation(instr.attrs["to_apply"])


@kernel(Op.WHILE)
def while_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Run the body while the condition holds; with RunOptions.max_iterations, a loop that is
    still running after that many iterations is an error."""
    condition = ctx.computation(instr.attrs["condition"])
    body = ctx.computation(instr.attrs["body"])
    limit = ctx.options.max_iterations
    # (imported here: the tier's code generator, logging and hashlib are ~10 ms of every first
    # parse, which loads every op family, and only a while loop needs them)
    from ..numerics import loop_tier

    compiled = loop_tier.for_while(instr, ctx)  # None: the interpreter only

    def too_long() -> EvalError:
        return EvalError(f"the loop is still running after {limit} iterations (max_iterations={limit})")

    def run(state: Any) -> Any:
        count = 0
        started = time.perf_counter()
        while bool(condition(state)):
            if limit is not None and count >= limit:
                raise too_long()
            if compiled is not None and compiled.ready(state, count, started):
                state, count, finished = compiled.finish(state, count, limit, condition, too_long)
                if finished:
                    return state
                continue  # (the compiled code failed: the interpreter goes on from `state`)
            state = body(state)
            count += 1
        return state

    return run


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
