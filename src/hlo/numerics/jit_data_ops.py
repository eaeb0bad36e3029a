"""The compiled loop tier's emitters of data movement and reductions (hlo.numerics.jit_codegen;
the elementwise ones are in jit_ops.py): tuples, constants, and index loops over static shapes
that move elements as the interpreter's kernels do; reduces in the interpreter's order."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from . import reduce_contraction
from .jit_codegen import Gen, Unsupported, Val, emits, flat_index, type_name

Op = Opcode
P = PrimitiveType


# -- tuples, constants, shapes -----------------------------------------------------------------
@emits(Op.TUPLE)
def make_tuple(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    return Val(instr.shape, items=list(args))


@emits(Op.GET_TUPLE_ELEMENT)
def get_tuple_element(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    if not args[0].items:
        raise Unsupported("a tuple that is not known while generating")
    return args[0].items[instr.attrs["index"]]


@emits(Op.CONSTANT)
def constant(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    value = np.asarray(instr.attrs["literal"].to_numpy())
    if value.ndim == 0:  # (in an array: a scalar argument would pass through a double)
        return Val(instr.shape, g.constant(np.array(value).reshape(1)) + "[0]")
    return Val(instr.shape, g.constant(np.array(value).reshape(-1)))  # (a writable C copy: one type)


def reshaped(g: Gen, x: Val, shape: Shape) -> Val:
    """The same elements in another shape: an array stays itself (flat either way)."""
    if x.scalar == (shape.rank == 0):
        return Val(shape, x.var)
    var = g.name()
    if x.scalar:
        g.line(f"{var} = np.full(1, {x.var})")
    else:
        g.line(f"{var} = {x.var}[0]")
    return Val(shape, var)


@emits(Op.RESHAPE, Op.COPY, Op.BITCAST)
def reshape(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    if instr.opcode is Op.BITCAST and instr.shape.element_type is not args[0].shape.element_type:
        raise Unsupported("bitcast between types")
    return reshaped(g, args[0], instr.shape)


def gather_loop(g: Gen, shape: Shape, source: Val, index: Callable[[list[str]], str]) -> Val:
    """A new value of `shape` whose element at indices i is source's element at index(i)."""
    if shape.rank == 0:
        return Val(shape, source.at(index([])))
    var = g.new_array(shape)
    names, flat = g.loops(shape.dimensions)
    g.line(f"{var}[{flat}] = {source.at(index(names))}")
    g.close(len(names))
    return Val(shape, var)


@emits(Op.BROADCAST)
def broadcast(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    dims = tuple(instr.attrs["dimensions"])
    x = args[0]
    source = x.shape.dimensions
    return gather_loop(g, instr.shape, x, lambda i: flat_index([i[d] for d in dims], source))


@emits(Op.TRANSPOSE)
def transpose(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    perm = tuple(instr.attrs["dimensions"])
    source = args[0].shape.dimensions
    inverse = [perm.index(d) for d in range(len(perm))]
    return gather_loop(
        g, instr.shape, args[0], lambda i: flat_index([i[inverse[d]] for d in range(len(perm))], source)
    )


@emits(Op.SLICE)
def slice_(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    ranges = instr.attrs["slice"]
    source = args[0].shape.dimensions
    terms = [(r.start, r.stride) for r in ranges]

    def index(i: list[str]) -> str:
        at = [f"({s} + {n} * {st})" for n, (s, st) in zip(i, terms)]
        return flat_index(at, source)

    return gather_loop(g, instr.shape, args[0], index)


@emits(Op.IOTA)
def iota(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    d = instr.attrs["iota_dimension"]
    t = type_name(instr.shape.element_type)
    if instr.shape.element_type is P.PRED:
        raise Unsupported("iota of pred")
    var = g.new_array(instr.shape)
    names, flat = g.loops(instr.shape.dimensions)
    g.line(f"{var}[{flat}] = {t}({names[d]})")
    g.close(len(names))
    return Val(instr.shape, var)


@emits(Op.CONCATENATE)
def concatenate(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    axis = instr.attrs["dimensions"][0]
    var = g.new_array(instr.shape)
    offset = 0
    for x in args:
        dims = x.shape.dimensions
        names, flat = g.loops(dims)
        at = [f"({n} + {offset})" if k == axis else n for k, n in enumerate(names)]
        g.line(f"{var}[{flat_index(at, instr.shape.dimensions)}] = {x.at(flat)}")
        g.close(len(names))
        offset += dims[axis]
    return Val(instr.shape, var)


def _starts(g: Gen, indices: list[Val], dims: tuple[int, ...], sizes: tuple[int, ...]) -> list[str]:
    """Start indices clamped into [0, dim - size], as XLA clamps them."""
    names = []
    for x, d, s in zip(indices, dims, sizes):
        if not x.scalar or not x.shape.element_type.is_integral:
            raise Unsupported("a non-scalar or non-integer start index")
        var = g.name("j")
        if x.shape.element_type is P.U64:  # (above int64's range: clamped as unsigned first)
            g.line(f"{var} = np.int64(min({x.var}, np.uint64({d - s})))")
        else:
            g.line(f"{var} = min(max(np.int64({x.var}), 0), {d - s})")
        names.append(var)
    return names


@emits(Op.DYNAMIC_SLICE)
def dynamic_slice(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    x, indices = args[0], args[1:]
    if len(indices) != x.shape.rank:
        raise Unsupported("dynamic-slice with a tensor of indices")
    starts = _starts(g, indices, x.shape.dimensions, instr.shape.dimensions)
    source = x.shape.dimensions
    return gather_loop(
        g, instr.shape, x, lambda i: flat_index([f"({n} + {s})" for n, s in zip(i, starts)], source)
    )


@emits(Op.DYNAMIC_UPDATE_SLICE)
def dynamic_update_slice(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    x, update, indices = args[0], args[1], args[2:]
    if len(indices) != x.shape.rank:
        raise Unsupported("dynamic-update-slice with a tensor of indices")
    if x.scalar:
        return update
    starts = _starts(g, indices, x.shape.dimensions, update.shape.dimensions)
    var = g.name()
    g.line(f"{var} = {x.var}.copy()")
    names, flat = g.loops(update.shape.dimensions)
    at = [f"({n} + {s})" for n, s in zip(names, starts)]
    g.line(f"{var}[{flat_index(at, x.shape.dimensions)}] = {update.at(flat)}")
    g.close(len(names))
    return Val(instr.shape, var)


# -- reduce ------------------------------------------------------------------------------------
_WINDOW = 32  # XLA:CPU's tree rewrite (numerics.tree_reduce) splits longer float reductions
_ORDER_FREE = (Op.ADD, Op.MULTIPLY, Op.MAXIMUM, Op.MINIMUM, Op.AND, Op.OR, Op.XOR)


@emits(Op.REDUCE)
def reduce(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    """One input: each result folds its elements from the init value in row-major order (the
    interpreter's order: XLA:CPU's for float windows of up to 32; integers and predicates in any
    order); one element per result is a reshape (XLA:CPU applies no init value then)."""
    from .computations import recognise_reducer
    from .reduce_lanes import lanes
    from .reduction import sums_in_vector_order

    if reduce_contraction.mark(instr) is not None:
        return _fused_reduce(g, instr, args)
    if len(args) != 2 or instr.shape.is_tuple:
        raise Unsupported("a variadic reduce")
    x, init = args
    axes = tuple(sorted(instr.attrs["dimensions"]))
    reducer = recognise_reducer(g.module.computation(instr.attrs["to_apply"]))
    t = x.shape.element_type
    if reducer is None or reducer.opcode not in _ORDER_FREE:
        raise Unsupported("a reducer the interpreter folds lifted")
    if t.is_floating_point and all(o in g.from_constants for o in instr.operands):
        raise Unsupported("a float reduce of constants (XLA folds it in its evaluator's order)")
    if t.is_floating_point and (
        reducer.opcode in (Op.MAXIMUM, Op.MINIMUM)
        or any(x.shape.dimensions[d] > _WINDOW for d in axes)
        or sums_in_vector_order(np.dtype(t.numpy_dtype), tuple(x.shape.dimensions), axes)
        or lanes(np.dtype(t.numpy_dtype), tuple(x.shape.dimensions), axes) is not None
    ):
        raise Unsupported("a float reduce the interpreter does not fold in row-major order")
    dims = x.shape.dimensions
    count = int(np.prod([dims[d] for d in axes], dtype=np.int64))
    kept = [d for d in range(len(dims)) if d not in axes]
    if count == 0:
        return gather_loop(g, instr.shape, init, lambda i: "0")
    if count == 1:
        return gather_loop(g, instr.shape, x, lambda i: _source_index(i, kept, axes, dims, []))
    step = g.scalar_function(instr.attrs["to_apply"])
    tname = type_name(instr.shape.element_type)

    def fold(names: list[str], inner: list[str], acc: str) -> None:
        g.line(f"{acc} = {tname}({step}({acc}, {x.at(_source_index(names, kept, axes, dims, inner))}))")

    return _fold_loops(g, instr, init, dims, axes, fold)


def _fold_loops(
    g: Gen,
    instr: Instruction,
    init: Val,
    dims: tuple[int, ...],
    axes: tuple[int, ...],
    fold: Callable[[list[str], list[str], str], None],
) -> Val:
    """A reduce's loops: over the results, each from the init value, over the reduced elements
    in row-major order, `fold` writing one step (given the result loops' and the reduced loops'
    variables and the accumulator)."""
    out = None if instr.shape.rank == 0 else g.new_array(instr.shape)
    names, flat = g.loops(instr.shape.dimensions)
    acc = g.name("a")
    g.line(f"{acc} = {init.var}")
    inner, _ = g.loops(tuple(dims[d] for d in axes))
    fold(names, inner, acc)
    g.close(len(inner))
    if out is None:
        g.close(len(names))
        return Val(instr.shape, acc)
    g.line(f"{out}[{flat}] = {acc}")
    g.close(len(names))
    return Val(instr.shape, out)


def _fused_reduce(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    """A reduce with its products fused (hlo.numerics.reduce_contraction): operands (x, y, init),
    each result an FMA chain from the init value, as the interpreter computes it."""
    from .contraction import Fma
    from .jit_ops import fused_multiply_add

    fused = reduce_contraction.mark(instr)
    assert fused is not None
    if fused.vector_rows or fused.lanes is not None:
        raise Unsupported("a reduce whose products LLVM's vector loop sums in another order")
    x, y, init = args
    t = instr.shape.element_type
    dims = x.shape.dimensions
    axes = tuple(sorted(instr.attrs["dimensions"]))
    kept = [d for d in range(len(dims)) if d not in axes]
    tname = type_name(t)
    fma = Fma(fused.product_sign, 1)

    def fold(names: list[str], inner: list[str], acc: str) -> None:
        at = _source_index(names, kept, axes, dims, inner)
        step = fused_multiply_add(g, t, fma, x.at(at), y.at(at), acc)
        if not fused.first_pair:
            g.line(f"{acc} = {tname}({step})")
            return
        k = inner[axes.index(fused.axis)]  # the first two products in one FMA (the add of +0 dropped)
        ahead = [*inner]
        ahead[axes.index(fused.axis)] = f"({k} + 1)"
        second = _source_index(names, kept, axes, dims, ahead)
        product = f"{tname}({x.at(second)} * {y.at(second)})"
        g.line(f"if {k} == 0:")
        g.line(f"    {acc} = {tname}({fused_multiply_add(g, t, fma, x.at(at), y.at(at), product)})")
        g.line(f"elif {k} > 1:")
        g.line(f"    {acc} = {tname}({step})")

    return _fold_loops(g, instr, init, dims, axes, fold)


def _source_index(
    outer: list[str], kept: list[int], axes: tuple[int, ...], dims: tuple[int, ...], inner: list[str]
) -> str:
    at = ["0"] * len(dims)
    for n, d in zip(outer, kept):
        at[d] = n
    for n, d in zip(inner, axes):
        at[d] = n
    return flat_index(at, dims)
