"""Ops that call computations (page 003: Call, CompositeCall, While): shape rules that check each
called computation's program shape against the operands, their builder functions and kernels.
Conditional is conditional.py; fusion and the async wrappers are in fusion_async.py (imported at
the bottom)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import PrimitiveType
from ..errors import EvalError, ShapeError
from ..ir.attr_kinds import BOOL, COMPUTATION
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .callee import embed, program, signature, text, texts
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
