"""Products XLA:CPU fuses into a small reduce's loop: a sum of `x*y` over one dimension as a
chain of fused multiply-adds, `acc = fma(x, y, acc)` from the init value.

XLA:CPU emits a reduce of fewer than 4096 elements whose reduced dimensions are all 32 or
shorter (hlo.numerics.cpu_kernels: its loop emitter, the multiply fused into the same loop) as a
loop over the results around a loop over the reduced elements, and LLVM contracts each add of a
product into an FMA (measured with jaxlib 0.10.2 on AVX-512, f32 and f64, sums over rows and
columns of 2 to 32 elements, with a broadcast operand, init values; 0 differing):
- the multiply must be the reduce's operand (through negates, copies and converts to its own
  type) with no other use in the kernel, as for adds (contraction_order.product_through_links);
- a square summed from a constant +0: LLVM drops the add of +0 (`x*x` cannot be -0), so the
  first two products meet in one add and the first is fused: `fma(x0, x0, x1*x1)`;
- rows of 5 to 8 products of two arrays summed over the operand's last dimension: LLVM fully
  unrolls the row and vectorizes the loop over the results instead, whose products are then
  plain (rounded before the add). Which results that loop takes depends on their count (the
  innermost result dimension): `vector_rows`. Squares of such rows LLVM vectorizes in other
  ways (not pinned): left plain here, within rounding.
A sum over several dimensions is one FMA chain in row-major order where XLA:CPU's loops sum in
order (no first pair: the loops around the row keep the add of the init), and where they take
rows as lanes (hlo.numerics.reduce_lanes) each lane is an FMA chain when the rows are whole
runs of up to 4 products (4 or 8 lanes; 2 lanes of squares or with a broadcast factor the same
for every row, other products of 2 rows are not vectorized: in order); with longer rows the
products are plain (the reduce as written).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from . import contraction_order, cpu_kernels, reduce_lanes, subnormals
from .complex_steps import Steps, negated
from .computations import recognise_reducer
from .reduce_lanes import Lanes

MARK = "fused_product_reduce"  # the attribute of a reduce reading (x, y, init): its FusedReduce
_TYPES = frozenset({PrimitiveType.F32, PrimitiveType.F64})


@dataclass(frozen=True)
class FusedReduce:
    """How a reduce sums its fused products: fma(product_sign * x, y, acc) along `axis`; with
    `first_pair` the first two products are one FMA; the first `vector_rows` results of each
    run of the innermost result dimension sum plain products."""

    product_sign: int
    axis: int
    first_pair: bool
    vector_rows: int
    lanes: Lanes | None = None  # a sum over several dimensions: its rows as lanes of FMA chains


def mark(instr: Instruction) -> FusedReduce | None:
    """The FusedReduce of a reduce `contraction` rewrote, else None."""
    value = instr.attrs.get(MARK) if instr.attrs else None
    return value if isinstance(value, FusedReduce) else None


def contraction(
    reduce: Instruction,
    by_name: dict[str, Instruction],
    kernel: contraction_order.Kernel,
    module: Module,
    constant: dict[str, bool],
) -> Instruction | None:
    """The reduce reading its multiply's operands (x, y, init), marked, if XLA:CPU fuses them."""
    if reduce.opcode is not Opcode.REDUCE or len(reduce.operands) != 2 or not reduce.shape.is_array:
        return None
    t = reduce.shape.element_type
    if t not in _TYPES or not cpu_kernels.loop_reduce(reduce, by_name):
        return None
    reducer = recognise_reducer(module.computation(reduce.attrs["to_apply"]))
    if reducer is None or reducer.opcode is not Opcode.ADD:
        return None
    operand = by_name[reduce.operands[0]]
    dims = operand.shape.dimensions
    summed = [d for d in reduce.attrs["dimensions"] if dims[d] > 1]
    if not summed:
        return None
    found = contraction_order.product_through_links(operand, by_name, kernel)
    if found is None:
        return None
    value, negated_product = found.multiply, found.negated
    x, y = (by_name[o] for o in value.operands)
    if x.shape.element_type is not t or y.shape.element_type is not t:
        return None
    if all(contraction_order.of_constants(v.name, by_name, constant) for v in (x, y)):
        return None  # folded at compile time
    init = by_name[reduce.operands[1]]
    square = x.name == y.name and not negated_product
    if len(summed) > 1:
        if any(operand.shape.dynamic_dimensions):
            return None
        reduced = tuple(reduce.attrs["dimensions"])
        taken = reduce_lanes.lanes(np.dtype(t.numpy_dtype), dims, reduced)
        if taken is not None:
            if not _whole_short_runs(dims, reduced):
                return None  # longer rows: plain products
            if not _lanes_taken(dims, reduced, taken, square, x, y):
                taken = None  # 2 rows of other products: one chain in order
        attrs = dict(reduce.attrs)
        attrs[MARK] = FusedReduce(-1 if negated_product else 1, summed[-1], False, 0, taken)
        return reduce.replace(operands=(x.name, y.name, init.name), attrs=attrs)
    first_pair = square and _positive_zero(init)
    axis = summed[0]
    rows = 0
    innermost = all(n == 1 for n in dims[axis + 1 :])  # (loops of one trip are gone)
    if innermost and Opcode.BROADCAST not in (x.opcode, y.opcode):
        if square and 5 <= dims[axis] <= 8:
            return None  # LLVM vectorizes these in orders not pinned (plain products, within rounding)
        kept = [n for d, n in enumerate(dims) if d not in reduce.attrs["dimensions"] and n > 1]
        rows = vector_rows(t, kept[-1] if kept else 1, dims[axis])
    attrs = dict(reduce.attrs)
    attrs[MARK] = FusedReduce(-1 if negated_product else 1, axis, first_pair, rows)
    return reduce.replace(operands=(x.name, y.name, init.name), attrs=attrs)


def _whole_short_runs(dims: tuple[int, ...], reduced: tuple[int, ...]) -> bool:
    """Whether the lanes' rows are whole runs of up to 4 elements, where they are lanes of FMA
    chains (longer rows sum plain products, as measured)."""
    a, b = _rows(dims, reduced)
    length = dims[b]
    return math.prod(dims[a + 1 :]) == length and math.prod(dims[b + 1 :]) == 1 and length <= 4


def _lanes_taken(
    dims: tuple[int, ...],
    reduced: tuple[int, ...],
    taken: Lanes,
    square: bool,
    x: Instruction,
    y: Instruction,
) -> bool:
    """Whether the vector loop takes the rows of these products: in 4 or 8 lanes any; in 2 lanes
    squares, and products with a factor the same for every row (a broadcast), not other
    products of 2 rows (as measured)."""
    if taken.count >= 4 or square:
        return True
    a = _rows(dims, reduced)[0]
    return any(v.opcode is Opcode.BROADCAST and a not in v.attrs.get("dimensions", ()) for v in (x, y))


def _rows(dims: tuple[int, ...], reduced: tuple[int, ...]) -> tuple[int, int]:
    """The reduced dimensions of the lanes' rows and of the elements of a row (reduce_lanes)."""
    wide = [d for d in sorted(reduced) if dims[d] > 1]
    return wide[-2], wide[-1]


def vector_rows(t: PrimitiveType, results: int, length: int) -> int:
    """Of `results` sums of rows of `length` products of two arrays, how many LLVM's vectorized
    result loop takes (plain products), as seen on XLA:CPU: only rows of 5 to 8 (fully
    unrolled); with fewer than 16 results only 4 or 8 (f64 also 12), else in steps of f32 4
    (8 for rows of 5-6 from 40 results on), f64 4 (2 for rows of 7-8)."""
    if not 5 <= length <= 8:
        return 0
    if results < 16:
        return results if results in ((4, 8) if t is PrimitiveType.F32 else (4, 8, 12)) else 0
    if t is PrimitiveType.F64:
        return results // (4 if length <= 6 else 2) * (4 if length <= 6 else 2)
    step = 8 if length <= 6 and results >= 40 else 4
    return results // step * step


def _positive_zero(init: Instruction) -> bool:
    if init.opcode is not Opcode.CONSTANT or init.shape.rank != 0:
        return False
    value = np.asarray(init.attrs["literal"].to_numpy())
    return bool(value == 0 and not np.signbit(value))


def kernel(fused: FusedReduce, reduce: Instruction, flush: bool) -> Callable[..., np.ndarray]:
    """The bound kernel of a marked reduce: (x, y, init) to its sums, each step one rounding,
    flushed as the CPU's FTZ/DAZ modes flush when `flush`."""
    dtype = np.dtype(reduce.shape.element_type.numpy_dtype)
    step = Steps(flush)

    def run(x: np.ndarray, y: np.ndarray, init: np.ndarray) -> np.ndarray:
        dims = reduce.attrs["dimensions"]
        shape = [n for d, n in enumerate(x.shape) if d not in dims]
        length = int(np.prod([x.shape[d] for d in dims]))  # (the others are 1, or 0 at run time)
        if fused.lanes is not None:
            with subnormals.keeping_subnormals():
                xs = negated(step(x)) if fused.product_sign < 0 else step(x)
                total = reduce_lanes.fold(
                    lambda acc, a, b: step.fma(a, b, acc),
                    xs,
                    np.asarray(step(init), dtype),
                    tuple(dims),
                    fused.lanes,
                    y=step(y),
                    add=lambda a, b: step(a + b),
                )
                return np.asarray(total, dtype=dtype)
        with subnormals.keeping_subnormals():
            last = range(-len(dims), 0)  # the reduced dimensions innermost, in order
            xs = np.moveaxis(step(x), sorted(dims), last).reshape([*shape, length])
            ys = np.moveaxis(step(y), sorted(dims), last).reshape([*shape, length])
            xs = negated(xs) if fused.product_sign < 0 else xs
            start = np.array(np.broadcast_to(step(init), shape), dtype=dtype)
            if xs.shape[-1] <= 1:  # (dynamic sizes) no element, or one: as the reduce kernel
                return start if xs.shape[-1] == 0 else np.asarray(step(xs[..., 0] * ys[..., 0]), dtype)
            acc, first = start, 0
            if fused.first_pair:
                acc, first = step.fma(xs[..., 0], ys[..., 0], step(xs[..., 1] * ys[..., 1])), 2
            for k in range(first, xs.shape[-1]):
                acc = step.fma(xs[..., k], ys[..., k], acc)
            if fused.vector_rows:
                plain = start
                for k in range(xs.shape[-1]):
                    plain = step(plain + step(xs[..., k] * ys[..., k]))
                wide = [k for k, n in enumerate(shape) if n > 1] or [len(shape) - 1]
                index = np.arange(shape[wide[-1]]).reshape([-1] + [1] * (len(shape) - 1 - wide[-1]))
                acc = np.where(index < fused.vector_rows, plain, acc)
            return np.asarray(acc, dtype=dtype)

    return run
