"""Reduce (page 003: Reduce, ReduceAll): its attributes, shape rule, builder functions and
kernel, and the reducer checks every reduction shares (map is in map_op.py, reduce-window and
select-and-scatter in reduce_window.py, sort and top-k in sort.py, scan in scan.py).

The rules are XLA's shape inference (shape_inference.cc: InferReduceShape) plus what XLA's
HloVerifier adds to it (HandleReduce); the builder, the parser and the verifier share them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import COMPUTATION, INT_LIST
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics.reduction import reduce_fn
from ..shape import Shape
from .array_rules import dims_compatible, int_tuple, ints_text, require_ops
from .callee import embed, program, signature, text
from .registry import (
    AttrSpec,
    ShapeContext,
    builder_function,
    define,
    kernel,
    shape_rule,
)
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode


# -- attributes -------------------------------------------------------------------------------
def even_operands(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    if len(operands) % 2:
        return f"{instr.opcode.text} expects an even number of operands, but has {len(operands)} operands"
    if instr.opcode is Op.REDUCE_WINDOW and not operands:
        return "reduce-window expects at least one input and init operand"
    return None


define(
    Op.REDUCE,
    AttrSpec("dimensions", INT_LIST, required=True),
    AttrSpec("to_apply", COMPUTATION, required=True),
    check=even_operands,
)


# -- helpers of the rules ---------------------------------------------------------------------
def maybe_tuple(shapes: list[Shape]) -> Shape:
    return shapes[0] if len(shapes) == 1 else Shape.make_tuple(shapes)


def _type_text(t: PrimitiveType) -> str:
    """`f32[]`, and for floating-point types the precision XLA's shape inference ignores."""
    return f"{t.text}[]" + (" (any floating-point type)" if t.is_floating_point else "")


def like_type(shape: Shape, t: PrimitiveType) -> bool:
    """`shape` is a scalar of type `t`, ignoring floating-point precision (XLA's
    CompatibleIgnoringFpPrecision against a scalar)."""
    return shape.is_array and shape.rank == 0 and same_ignoring_precision(shape.element_type, t)


def same_ignoring_precision(a: PrimitiveType, b: PrimitiveType) -> bool:
    """XLA's SameElementTypeIgnoringFpPrecision: equal, or both floating point (not complex)."""
    return a is b or (a.is_floating_point and b.is_floating_point)


def check_reducer(
    ctx: ShapeContext, attr: str, inputs: Sequence[PrimitiveType], inits: Sequence[Shape] | None = None
) -> list[PrimitiveType]:
    """XLA's VerifyReducerShape: a computation of 2N scalars (accumulators T0..TN-1, then values
    of the inputs' types) returning the N accumulators (a tuple when N > 1; N = 1 may return a
    scalar or a 1-tuple); the init values, when given, are scalars of the accumulator types.
    Floating-point precisions may differ where XLA's inference lets them (values and init
    values), never between an accumulator parameter and the result. The accumulator types."""
    label, params, result = program(ctx, attr)
    n = len(inputs)
    op = ctx.opcode.text
    sig = signature(params, result)
    want = ", ".join([f"T{k}[]" for k in range(n)] * 2)
    if len(params) != 2 * n:
        raise ShapeError(
            f"{label} must take {2 * n} parameters ({want}) for {n} input{'s' if n > 1 else ''} of {op}: "
            f"found {sig}"
        )
    if result.is_array:
        if n != 1:
            raise ShapeError(
                f"{label} must return a tuple of {n} scalars, one per input of {op}: found {sig}"
            )
        results = [result]
    elif result.is_tuple:
        results = list(result.tuple_shapes)
        if len(results) != n:
            raise ShapeError(
                f"{label} must return {n} scalar{'s' if n > 1 else ''}, one per input of {op}: found {sig}"
            )
    else:
        raise ShapeError(f"{label} must return a scalar or a tuple of scalars: found {sig}")
    for r in results:
        if not r.is_array or r.rank != 0:
            raise ShapeError(f"{label} must return scalars: found {sig}")
    types = []
    for k, r in enumerate(results):
        t = r.element_type
        acc, value = params[k], params[n + k]
        if not acc.compatible(r):
            raise ShapeError(
                f"{label}: parameter {k} (accumulator) must be {t.text}[], the type it returns: found {sig}"
            )
        if not like_type(value, inputs[k]):
            raise ShapeError(
                f"{label}: parameter {n + k} must be {inputs[k].text}[], the element type of input {k}: "
                f"found {sig}"
            )
        if not like_type(value, t):
            raise ShapeError(
                f"{label}: parameter {n + k} must have the type of accumulator {k} ({_type_text(t)}): "
                f"found {sig}"
            )
        if inits is not None and not like_type(inits[k], t):
            raise ShapeError(
                f"init value {k} must be a {t.text}[] scalar (the accumulator type of {label}"
                f"{', or another floating-point type' if t.is_floating_point else ''}): "
                f"found {text(inits[k])}"
            )
        types.append(t)
    return types


def no_mixed_precision(ctx: ShapeContext, attr: str, operands: Sequence[tuple[str, Shape]]) -> None:
    """XLA's verifier (which allows no mixed precision by default): parameter k of the called
    computation has the element type of operand k, for each operand given."""
    label, params, result = program(ctx, attr)
    for k, (role, shape) in enumerate(operands):
        if k < len(params) and params[k].element_type is not shape.element_type:
            raise ShapeError(
                f"{label}: parameter {k} must have the element type of operand {k} ({role}, {text(shape)}); "
                f"the verifier allows no mixed precision here: found {signature(params, result)}"
            )


def inputs_and_inits(ctx: ShapeContext) -> tuple[list[Shape], list[Shape]]:
    """The N inputs (arrays of one set of dimensions) and the N init values."""
    if not ctx.operands or len(ctx.operands) % 2:
        raise ShapeError(
            f"{ctx.opcode.text} expects N inputs and N init values (an even number of operands, "
            f"at least 2): found {len(ctx.operands)}"
        )
    n = len(ctx.operands) // 2
    inputs = [array_operand(ctx, k, f"input {k}") for k in range(n)]
    for k, s in enumerate(inputs[1:], 1):
        if not dims_compatible(s, inputs[0]):
            raise ShapeError(
                f"input {k} must have the dimensions of input 0: found {text(inputs[0])} and {text(s)}"
            )
    return inputs, list(ctx.operands[n:])


def operand_roles(inputs: Sequence[Shape], inits: Sequence[Shape]) -> list[tuple[str, Shape]]:
    return [(f"input {k}", s) for k, s in enumerate(inputs)] + [
        (f"init value {k}", s) for k, s in enumerate(inits)
    ]


# -- reduce -----------------------------------------------------------------------------------
@shape_rule(Op.REDUCE)
def reduce_shape(ctx: ShapeContext) -> Shape:
    """The inputs without the reduced dimensions (dynamic ones stay dynamic), in the reducer's
    result types; a tuple when the reducer returns one (page 003's Reduce)."""
    inputs, inits = inputs_and_inits(ctx)
    dims = tuple(ctx.attr("dimensions", ()))
    first = inputs[0]
    for d in dims:
        if not 0 <= d < first.rank:
            raise ShapeError(f"dimensions={ints_text(dims)} contains {d}, not a dimension of {text(first)}")
    types = check_reducer(ctx, "to_apply", [s.element_type for s in inputs], inits)
    if len(set(dims)) != len(dims):
        raise ShapeError(f"dimensions={ints_text(dims)} repeats a dimension of {text(first)}")
    no_mixed_precision(ctx, "to_apply", operand_roles(inputs, inits))
    kept = [d for d in range(first.rank) if d not in dims]
    sizes = [first.dimensions[d] for d in kept]
    dynamic = [first.dynamic_dimensions[d] for d in kept]
    results = [Shape.array(t, sizes, dynamic_dimensions=dynamic) for t in types]
    return results[0] if program(ctx, "to_apply")[2].is_array else Shape.make_tuple(results)


# -- builder functions ------------------------------------------------------------------------
def first_op(values: XlaOp | Sequence[XlaOp]) -> XlaOp:
    """The first of one op or a sequence of them (to find the builder)."""
    if isinstance(values, list | tuple):
        return values[0] if values else None  # type: ignore[return-value]
    return values  # type: ignore[return-value]


def op_list(builder: XlaBuilder, op_name: str, values: Any, what: str) -> tuple[XlaOp, ...]:
    """One XlaOp or a sequence of them, as a non-empty tuple of `builder`'s ops."""
    items = tuple(values) if isinstance(values, list | tuple) else (values,)
    require_ops(builder, op_name, **{what: items})
    if not items:
        raise builder.error(op_name, f"{what} must hold at least one XlaOp")
    return items


def input_and_init_ops(builder: XlaBuilder, name: str, operands: Any, init_values: Any) -> tuple[XlaOp, ...]:
    """The operands then the init values, one init value per operand."""
    inputs = op_list(builder, name, operands, "operands")
    inits = op_list(builder, name, init_values, "init_values")
    if len(inputs) != len(inits):
        raise builder.error(name, f"needs one init value per operand: found {len(inputs)} and {len(inits)}")
    return (*inputs, *inits)


@builder_function
def Reduce(
    builder: XlaBuilder | XlaOp,
    operands: XlaOp | Sequence[XlaOp],
    init_values: XlaOp | Sequence[XlaOp] | XlaComputation,
    computation: XlaComputation | Sequence[int],
    dimensions_to_reduce: Sequence[int] | None = None,
) -> XlaOp:
    """Reduce the given dimensions with `computation`; several operands and init values make a
    variadic reduce with a tuple result (page 003). Also XLA's one-operand form
    Reduce(operand, init_value, computation, dimensions_to_reduce)."""
    from .handles import XlaOp

    args: tuple[Any, ...] = (builder, operands, init_values, computation, dimensions_to_reduce)
    if isinstance(builder, XlaOp):  # XLA's (operand, init_value, computation, dimensions_to_reduce)
        if dimensions_to_reduce is not None:
            raise builder.builder.error("Reduce", "takes (builder, operands, init_values, computation, dims)")
        args = (builder.builder, *args[:4])
    b, inputs, inits, comp, dims = args
    if dims is None:
        raise b.error("Reduce", "dimensions_to_reduce is missing")
    all_operands = input_and_init_ops(b, "Reduce", inputs, inits)
    attrs = {
        "dimensions": int_tuple(b, "Reduce", dims, "dimensions_to_reduce"),
        "to_apply": embed(b, "Reduce", comp, "computation"),
    }
    return b.add("Reduce", Op.REDUCE, all_operands, attrs)


@builder_function
def ReduceAll(operand: XlaOp, init_value: XlaOp, computation: XlaComputation) -> XlaOp:
    """Reduce every dimension (XLA's ReduceAll)."""
    builder = builder_of("ReduceAll", operand)
    require_ops(builder, "ReduceAll", operand=operand, init_value=init_value)
    rank = operand.shape.rank if operand.shape.is_array else 0
    attrs = {
        "dimensions": tuple(range(rank)),
        "to_apply": embed(builder, "ReduceAll", computation, "computation"),
    }
    return builder.add("ReduceAll", Op.REDUCE, (operand, init_value), attrs)


# -- kernels ---------------------------------------------------------------------------------
def one_tuple(make: Callable[..., Callable[..., Any]]) -> Callable[..., Callable[..., Any]]:
    """A reduce kernel that also gives a 1-tuple when one input's reducer returns a 1-tuple."""

    def make_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
        run = make(instr, ctx)
        if instr.shape.is_tuple and len(instr.operands) == 2:
            return lambda *xs: (run(*xs),)
        return run

    return make_kernel


kernel(Op.REDUCE)(one_tuple(reduce_fn))
