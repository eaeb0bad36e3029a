"""fusion and the async wrappers (async-start / async-update / async-done): ops whose result is
their called computation's, checked against it as XLA's verifier does. Their builder functions
mirror XlaBuilder's internal BuildFusion / BuildAsyncStart / BuildAsyncUpdate / BuildAsyncDone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import CALLS, OPERAND_ALIASING, RAW_STRING, enum_kind
from ..ir.attrs import FusionKind
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .callee import as_aliases, check_aliases, embed, is_prefix, program, signature, text, texts
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
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


# -- fusion -----------------------------------------------------------------------------------
define(
    Op.FUSION,
    AttrSpec("kind", enum_kind(FusionKind, "a fusion kind"), required=True),
    AttrSpec("output_to_operand_aliasing", OPERAND_ALIASING, printed=if_nonempty),
    AttrSpec("calls", CALLS, required=True),
)


@shape_rule(Op.FUSION)
def fusion_shape(ctx: ShapeContext) -> Shape:
    """The fused computation's root shape; its parameter k takes operand k (XLA lets a fusion
    have more operands than parameters), and aliased buffers have one shape."""
    label, params, result = program(ctx, "calls")
    if len(params) > len(ctx.operands):
        raise ShapeError(
            f"{label} must take at most one parameter per operand: found {signature(params, result)} "
            f"for operands ({texts(ctx.operands)})"
        )
    for k, p in enumerate(params):
        if not p.compatible(ctx.operands[k]):
            raise ShapeError(
                f"operand {k} must match parameter {k} of {label}: found {text(ctx.operands[k])} for "
                f"{signature(params, result)}"
            )
    if ctx.shape is not None and not ctx.shape.compatible(result):
        raise ShapeError(
            f"the result must be the root shape of {label}: found {text(ctx.shape)} and {text(result)}"
        )
    check_aliases(ctx.attr("output_to_operand_aliasing", ()), ctx.operands, result)
    return result


@builder_function
def Fusion(
    builder: XlaBuilder,
    operands: Sequence[XlaOp],
    fusion_kind: FusionKind | str,
    fused_computation: XlaComputation,
    output_operand_aliasing: Sequence[Any] = (),
) -> XlaOp:
    """A fusion of `fused_computation` over `operands` (XlaBuilder's BuildFusion); the kind is a
    FusionKind or its text (`kLoop`, `kInput`, `kOutput`, `kCustom`)."""
    try:
        kind = fusion_kind if isinstance(fusion_kind, FusionKind) else FusionKind(fusion_kind)
    except ValueError:
        kinds = ", ".join(k.value for k in FusionKind)
        raise builder.error("Fusion", f"fusion_kind must be one of {kinds}: found {fusion_kind!r}") from None
    attrs: dict[str, Any] = {
        "kind": kind,
        "calls": (embed(builder, "Fusion", fused_computation, "fused_computation"),),
    }
    aliases = as_aliases(builder, "Fusion", output_operand_aliasing)
    if aliases:
        attrs["output_to_operand_aliasing"] = aliases
    return builder.add("Fusion", Op.FUSION, tuple(operands), attrs)


# -- async-start / async-update / async-done ----------------------------------------------------
# A sugared `X-start` is parsed into an async-start calling a synthesized computation whose root
# is X; the printer writes the sugar back (see text.async_ops).
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


def _async_form(shape: Shape, what: str) -> None:
    if not (shape.is_tuple and len(shape.tuple_shapes) >= 2 and shape.tuple_shapes[0].is_tuple):
        raise ShapeError(
            f"{what} must have the async form ((operand shapes...), result, context...): found {text(shape)}"
        )


def _bound(async_shape: Shape, params: tuple[Shape, ...], result: Shape, label: str) -> None:
    """The bound operands and result of an async shape are prefixes of the wrapped computation's."""
    sig = signature(params, result)
    if not is_prefix(async_shape.tuple_shapes[0], Shape.make_tuple(params)):
        raise ShapeError(
            f"the operand shapes {text(async_shape.tuple_shapes[0])} must be a prefix of the parameters of "
            f"{label}: found {sig}"
        )
    if not is_prefix(async_shape.tuple_shapes[1], result):
        raise ShapeError(
            f"the result {text(async_shape.tuple_shapes[1])} must be a prefix of the result of {label}: "
            f"found {sig}"
        )


@shape_rule(Op.ASYNC_START)
def async_start_shape(ctx: ShapeContext) -> Shape:
    """((operands...), result, context...): the operands bind the wrapped computation's first
    parameters; the context shapes (after the result) are the written ones, if any."""
    label, params, result = program(ctx, "calls")
    context: tuple[Shape, ...] = ()
    bound_result = result
    if ctx.shape is not None:
        _async_form(ctx.shape, "the result")
        given = ctx.shape.tuple_shapes[0].tuple_shapes
        if len(given) != len(ctx.operands) or any(not g.compatible(o) for g, o in zip(given, ctx.operands)):
            raise ShapeError(
                f"the operand shapes of the result must be the operands': found ({texts(given)}) and "
                f"({texts(ctx.operands)})"
            )
        _bound(ctx.shape, params, result, label)
        bound_result, context = ctx.shape.tuple_shapes[1], ctx.shape.tuple_shapes[2:]
    elif not is_prefix(Shape.make_tuple(ctx.operands), Shape.make_tuple(params)):
        raise ShapeError(
            f"the operands must match the first parameters of {label}: found ({texts(ctx.operands)}) for "
            f"{signature(params, result)}"
        )
    shape = Shape.make_tuple((Shape.make_tuple(ctx.operands), bound_result, *context))
    # Aliasing names buffers of ((all parameters), result, context...) and of the parameters.
    full = Shape.make_tuple((Shape.make_tuple(params), result, *context))
    aliases = ctx.attr("output_to_operand_aliasing", ())
    for a in aliases:
        if not a.output_index:
            raise ShapeError(
                "output_to_operand_aliasing must name a part of the async result: found index {}"
            )
    check_aliases(aliases, params, full, "parameter")
    return shape


@shape_rule(Op.ASYNC_UPDATE)
def async_update_shape(ctx: ShapeContext) -> Shape:
    """The previous async value with any new operands bound after the earlier ones."""
    label, params, result = program(ctx, "calls")
    previous = operand(ctx, 0, "the async value")
    _async_form(previous, "operand 0 (the async value)")
    bound = previous.tuple_shapes[0].tuple_shapes
    new = ctx.operands[1:]
    if ctx.shape is None:
        shape = Shape.make_tuple((Shape.make_tuple((*bound, *new)), *previous.tuple_shapes[1:]))
    else:
        shape = ctx.shape
        _async_form(shape, "the result")
        if not is_prefix(previous.tuple_shapes[0], shape.tuple_shapes[0]) or not is_prefix(
            previous.tuple_shapes[1], shape.tuple_shapes[1]
        ):
            raise ShapeError(
                f"operand 0's bound operands and result must be prefixes of the result's: found "
                f"{text(previous)} and {text(shape)}"
            )
        now = shape.tuple_shapes[0].tuple_shapes
        if len(now) - len(bound) != len(new) or any(
            not s.compatible(o) for s, o in zip(now[len(bound) :], new)
        ):
            raise ShapeError(
                f"the operands after operand 0 must be the newly bound ones: found ({texts(new)}) for "
                f"{text(previous)} -> {text(shape)}"
            )
    _bound(shape, params, result, label)
    return shape


@shape_rule(Op.ASYNC_DONE)
def async_done_shape(ctx: ShapeContext) -> Shape:
    """The wrapped computation's result, once every parameter is bound."""
    label, params, result = program(ctx, "calls")
    previous = operand(ctx, 0, "the async value")
    _async_form(previous, "operand 0 (the async value)")
    if len(ctx.operands) != 1:
        raise ShapeError(f"expects one operand (the async value): found {len(ctx.operands)}")
    if not previous.tuple_shapes[0].compatible(Shape.make_tuple(params)):
        raise ShapeError(
            f"operand 0 must have bound every parameter of {label}: "
            f"found {text(previous.tuple_shapes[0])} for "
            f"{signature(params, result)}"
        )
    return result


def _previous(op_name: str, operand: XlaOp) -> Any:
    builder = builder_of(op_name, operand)
    instr = builder.by_name.get(operand.name)
    if instr is None or instr.opcode not in (Op.ASYNC_START, Op.ASYNC_UPDATE):
        found = instr.opcode.text if instr is not None else type(operand).__name__
        raise builder.error(op_name, f"operand 0 must be an async-start or async-update: found {found}")
    return builder, {
        "async_execution_thread": instr.attrs["async_execution_thread"],
        "calls": instr.attrs["calls"],
    }


@builder_function
def AsyncStart(
    builder: XlaBuilder,
    operands: Sequence[XlaOp],
    computation: XlaComputation,
    execution_thread: str = "main",
    shape: Shape | None = None,
) -> XlaOp:
    """Start `computation` on `operands` asynchronously (XlaBuilder's BuildAsyncStart); without
    `shape` the result is ((operands...), computation's result)."""
    attrs = {
        "async_execution_thread": execution_thread,
        "calls": (embed(builder, "AsyncStart", computation, "computation"),),
    }
    return builder.add("AsyncStart", Op.ASYNC_START, tuple(operands), attrs, shape=shape)


@builder_function
def AsyncUpdate(operand: XlaOp, operands: Sequence[XlaOp] = (), shape: Shape | None = None) -> XlaOp:
    """The async value `operand` (from AsyncStart or AsyncUpdate), binding `operands` to the next
    parameters (XlaBuilder's BuildAsyncUpdate)."""
    builder, attrs = _previous("AsyncUpdate", operand)
    return builder.add("AsyncUpdate", Op.ASYNC_UPDATE, (operand, *operands), attrs, shape=shape)


@builder_function
def AsyncDone(operand: XlaOp) -> XlaOp:
    """The result of the async computation `operand` started (XlaBuilder's BuildAsyncDone)."""
    builder, attrs = _previous("AsyncDone", operand)
    return builder.add("AsyncDone", Op.ASYNC_DONE, (operand,), attrs)


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.FUSION)
def fusion_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Any fusion kind runs its fused computation."""
    return ctx.computation(_called(instr))


def _called(instr: Instruction) -> str:
    """The one computation `calls=` names."""
    calls = instr.attrs["calls"]
    return calls[0] if isinstance(calls, tuple) else calls  # type: ignore[no-any-return]


def _async_value(instr: Instruction, plan: Any, bound: tuple[Any, ...], params: int) -> tuple[Any, ...]:
    """((bound operands), result or None until every parameter is bound, context values...)."""
    result = plan(*bound) if len(bound) == params else None
    contexts = tuple(_zeros(s) for s in instr.shape.tuple_shapes[2:])
    return (bound, result, *contexts)


def _zeros(shape: Any) -> Any:
    if shape.is_tuple:
        return tuple(_zeros(s) for s in shape.tuple_shapes)
    if shape.is_array:
        return np.zeros(shape.dimensions, dtype=shape.element_type.numpy_dtype)
    from ..numerics.values import TOKEN

    return TOKEN


@kernel(Op.ASYNC_START)
def async_start_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The wrapped computation runs as soon as all of its parameters are bound (on one device
    there is nothing to overlap)."""
    name = _called(instr)
    plan, params = ctx.computation(name), len(ctx.module.computation(name).parameters)
    return lambda *xs: _async_value(instr, plan, tuple(xs), params)


@kernel(Op.ASYNC_UPDATE)
def async_update_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    name = _called(instr)
    plan, params = ctx.computation(name), len(ctx.module.computation(name).parameters)

    def run(previous: tuple[Any, ...], *new: Any) -> tuple[Any, ...]:
        if not new:
            return previous
        return _async_value(instr, plan, tuple(previous[0]) + new, params)

    return run


@kernel(Op.ASYNC_DONE)
def async_done_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    plan = ctx.computation(_called(instr))
    return lambda previous: previous[1] if previous[1] is not None else plan(*previous[0])
