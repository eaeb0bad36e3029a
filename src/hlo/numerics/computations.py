"""Called computations run on whole arrays (DESIGN.md principle 6).

A reducer, comparator, scatter combiner or map function is a computation of scalars. The engine
never calls it once per element: either it is a single known binary op of its two parameters
(add, multiply, maximum, ...) and becomes a NumPy ufunc, or it is built only of elementwise ops,
and its plan runs once on whole arrays, each parameter an array of the same dimensions ("lifted").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import EvalError
from ..ir.computation import Computation
from ..ir.opcode import Opcode
from . import numerics
from .context import KernelContext
from .elementwise import working_dtype

Op = Opcode

# Ops of scalars that work unchanged on arrays of any dimensions.
_ELEMENTWISE_EXTRA = frozenset(
    {
        Op.PARAMETER, Op.CONSTANT, Op.TUPLE, Op.GET_TUPLE_ELEMENT, Op.COMPARE, Op.SELECT, Op.CLAMP,
        Op.CONVERT, Op.BITCAST_CONVERT, Op.REDUCE_PRECISION, Op.COPY, Op.CALL,
    }
)  # fmt: skip


# Ops that act elementwise when their operand and result are scalars.
_SCALAR_ONLY = frozenset({Op.BITCAST, Op.RESHAPE, Op.BROADCAST})


def _all_scalars(i: Any, c: Computation) -> bool:
    shapes = [i.shape, *(c.by_name[o].shape for o in i.operands)]
    return all(s.is_array and s.rank == 0 for s in shapes)


@dataclass(frozen=True)
class Reducer:
    """A two-parameter computation recognised as one ufunc: `fold(a, axis)` reduces axes,
    `combine(a, b)` applies it to two arrays."""

    opcode: Opcode
    combine: Callable[[np.ndarray, np.ndarray], np.ndarray]
    fold: Callable[..., np.ndarray]


def _bitwise(ufunc: np.ufunc, logical: np.ufunc) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def pick(a: np.ndarray) -> np.ufunc:
        return logical if a.dtype == np.bool_ else ufunc

    return (lambda a, b: pick(a)(a, b)), (lambda a, axis: pick(a).reduce(a, axis=axis))


_REDUCERS: dict[Opcode, tuple[Callable[..., Any], Callable[..., Any]]] = {
    Op.ADD: (lambda a, b: np.add(a, b), lambda a, axis: np.add.reduce(a, axis=axis)),
    Op.MULTIPLY: (lambda a, b: np.multiply(a, b), lambda a, axis: np.multiply.reduce(a, axis=axis)),
    Op.MAXIMUM: (numerics.maximum, lambda a, axis: np.maximum.reduce(a, axis=axis)),
    Op.MINIMUM: (numerics.minimum, lambda a, axis: np.minimum.reduce(a, axis=axis)),
    Op.AND: _bitwise(np.bitwise_and, np.logical_and),
    Op.OR: _bitwise(np.bitwise_or, np.logical_or),
    Op.XOR: _bitwise(np.bitwise_xor, np.logical_xor),
}


# Ops whose complex values NumPy's ufuncs do not compute as XLA:CPU does (hlo.numerics.complex_arith,
# complex_math): their reducers run as computations, each step by the op's own kernel.
_OWN_COMPLEX_FORMULA = frozenset({Op.MULTIPLY, Op.MAXIMUM, Op.MINIMUM})


def recognise_reducer(c: Computation) -> Reducer | None:
    """The ufunc of a computation `(x, y) -> op(x, y)` of two scalars, if it is one."""
    params = c.parameters
    root = c.root
    if len(params) != 2 or root.opcode not in _REDUCERS or len(c.instructions) != 3:
        return None
    if sorted(root.operands) != sorted(p.name for p in params) or root.operands[0] == root.operands[1]:
        return None
    if any(not p.shape.is_array or p.shape.rank != 0 for p in params):
        return None
    if params[0].shape.element_type is not params[1].shape.element_type:
        return None
    if root.shape.element_type is not params[0].shape.element_type:
        return None
    if root.shape.element_type.is_complex and root.opcode in _OWN_COMPLEX_FORMULA:
        return None
    combine, fold = _REDUCERS[root.opcode]
    return Reducer(root.opcode, combine, fold)


def component_reducer(c: Computation, k: int) -> Reducer | None:
    """The ufunc of output `k` of a variadic reducer `(x_0..x_n-1, y_0..y_n-1) -> (..., op(x_k,
    y_k), ...)` whose output k is a known binary op of its own two parameters, if it is one: XLA
    reduces such a component alone when the reduce's other outputs are unused."""
    params, root = c.parameters, c.root
    n = len(params) // 2
    if root.opcode is not Op.TUPLE or len(root.operands) != n or len(params) != 2 * n or not 0 <= k < n:
        return None
    element = c[root.operands[k]]
    own = sorted((params[k].name, params[n + k].name))
    if element.opcode not in _REDUCERS or sorted(element.operands) != own:
        return None
    if any(not p.shape.is_array or p.shape.rank != 0 for p in (params[k], params[n + k])):
        return None
    if not (params[k].shape.element_type is params[n + k].shape.element_type is element.shape.element_type):
        return None
    if element.shape.element_type.is_complex and element.opcode in _OWN_COMPLEX_FORMULA:
        return None
    combine, fold = _REDUCERS[element.opcode]
    return Reducer(element.opcode, combine, fold)


def is_elementwise(c: Computation, ctx: KernelContext, seen: frozenset[str] = frozenset()) -> bool:
    """Whether every instruction of `c` (and of what it calls) works unchanged on arrays."""
    for i in c.instructions:
        if ctx.is_elementwise(i):
            continue
        if i.opcode in _SCALAR_ONLY and _all_scalars(i, c):
            continue
        if i.opcode not in _ELEMENTWISE_EXTRA:
            return False
        if i.opcode is Op.CONSTANT and i.shape.is_array and i.shape.rank != 0:
            return False
        if i.opcode is Op.CALL:
            callee = i.attrs["to_apply"]
            if callee in seen or not is_elementwise(ctx.module.computation(callee), ctx, seen | {c.name}):
                return False
    return True


def lifted(ctx: KernelContext, name: str, op: str) -> Callable[..., Any]:
    """The plan of scalar computation `name`, to be called with arrays in place of its scalars;
    a clear error when it holds ops that do not work elementwise."""
    c = ctx.module.computation(name)
    if not is_elementwise(c, ctx):
        kinds = sorted(
            {
                i.opcode.text
                for i in c.instructions
                if not ctx.is_elementwise(i) and i.opcode not in _ELEMENTWISE_EXTRA
            }
        )
        raise EvalError(
            f"{op}: the computation %{name} holds ops that do not apply elementwise "
            f"({', '.join(kinds)}); only elementwise computations can run vectorized"
        )
    return ctx.computation(name)


def accumulate_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype a recognised reduction accumulates in (f32 for the narrow floats)."""
    return working_dtype(dtype)


_AT_UFUNCS = {
    Op.ADD: np.add, Op.MULTIPLY: np.multiply, Op.MAXIMUM: np.maximum, Op.MINIMUM: np.minimum,
    Op.AND: np.bitwise_and, Op.OR: np.bitwise_or, Op.XOR: np.bitwise_xor,
}  # fmt: skip


def combiner(ctx: KernelContext, name: str, op: str) -> tuple[Any, Any]:
    """How a scatter-like op combines an update into the operand: (combine_at, None) for a
    recognised computation (a ufunc's `at`, or replacement for `(a, b) -> b`), else
    (None, the lifted computation)."""
    from .combine_at import ufunc_combiner

    c = ctx.module.computation(name)
    if len(c.parameters) == 2 and c.root.name == c.parameters[1].name:
        return ufunc_combiner(None), None
    reducer = recognise_reducer(c)
    if reducer is not None and reducer.opcode in _AT_UFUNCS:
        ufunc = _AT_UFUNCS[reducer.opcode]
        if c.root.shape.element_type.numpy_dtype == np.bool_ and ufunc in (np.add, np.multiply):
            ufunc = np.logical_or if ufunc is np.add else np.logical_and
        return ufunc_combiner(ufunc), None
    return None, lifted(ctx, name, op)


_KINDS = {
    Op.ADD: "add", Op.MULTIPLY: "multiply", Op.MAXIMUM: "maximum", Op.MINIMUM: "minimum",
    Op.AND: "and", Op.OR: "or", Op.XOR: "xor",
}  # fmt: skip


def combiner_kind(ctx: KernelContext, name: str) -> str | None:
    """The name of the combiner `combiner` recognises in computation `name` ("add", ...,
    "replace" for `(a, b) -> b`), or None (a computation run lifted)."""
    c = ctx.module.computation(name)
    if len(c.parameters) == 2 and c.root.name == c.parameters[1].name:
        return "replace"
    reducer = recognise_reducer(c)
    return _KINDS.get(reducer.opcode) if reducer is not None else None
