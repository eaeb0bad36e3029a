"""The compiled loop tier's dot (hlo.numerics.jit_codegen): the same BLAS routine, with the same
arguments, as the interpreter's `np.matmul` (hlo.numerics.linear), so the bits are the same.

The interpreter hands matmul operands in one layout, C-contiguous (batch, m, k) and (batch, k,
n) copies in the accumulator's type; on such operands NumPy's matmul loop picks, per batch, by
the sizes alone: a zero-filled sum when k is 1 and m or n is 1 too (or both m and n exceed 1),
`?dot` when m = n = 1 (summed into a double that starts at 0.0), `?gemv` with the matrix read
transposed when m or n is 1, `?gemm` otherwise. The generated code builds the same operands and
calls the same function of NumPy's own BLAS library (found here by its symbols; the calls are in
hlo.numerics.jit_blas). Integers are summed in a loop (wrap-around makes any order exact).
Without NumPy's bundled OpenBLAS (another BLAS build), dots keep the loop on the interpreter."""

from __future__ import annotations

import ctypes
import functools
import math
from pathlib import Path

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import (
    blas_small,
    fma_loop,
    matrix_vector_dot,
    row_vector_dot,
    subnormals,
    vector_dot,
    ynn_dot,
    ynn_kernels,
)
from .jit_codegen import Gen, Unsupported, Val, emits, flat_index, type_name
from .jit_ops import _tiny

P = PrimitiveType
FLOATS = {P.F32: "s", P.F64: "d"}
ROW_MAJOR, COL_MAJOR, NO_TRANS, TRANS = 101, 102, 111, 112  # CBLAS's enumerations


@functools.cache
def numpy_blas() -> tuple[ctypes.CDLL, str, str] | None:
    """NumPy's own CBLAS (the scipy-openblas library its wheels bundle): the library, the
    symbol pattern of its functions and its integer type; None for any other build."""
    config = np.__config__.CONFIG.get("Build Dependencies", {}).get("blas", {})  # type: ignore[attr-defined]
    if config.get("name") != "scipy-openblas":
        return None
    wide = "USE64BITINT" in str(config.get("openblas configuration", ""))
    pattern, int_type = ("scipy_cblas_{}64_", "np.int64") if wide else ("scipy_cblas_{}", "np.int32")
    root = Path(np.__file__).parent
    for path in [*root.parent.glob("numpy.libs/*openblas*"), *root.glob(".dylibs/*openblas*")]:
        try:
            library = ctypes.CDLL(str(path))  # (the library NumPy loaded: the same handle)
        except OSError:
            continue
        if hasattr(library, pattern.format("sgemv")):
            return library, pattern, int_type
    return None


def blas_address(name: str) -> int:
    """The address of CBLAS function `name` ("sgemv", ...) in NumPy's BLAS."""
    found = numpy_blas()
    if found is None:
        raise LookupError("NumPy's BLAS library was not found")
    library, pattern, _ = found
    return ctypes.cast(getattr(library, pattern.format(name)), ctypes.c_void_p).value or 0


def _canonical(g: Gen, x: Val, order: tuple[int, ...], t: PrimitiveType) -> str:
    """x's elements in the dimension order `order`, in a new C-contiguous array (flushed as the
    interpreter's operands are); x itself when that is the same array."""
    dims = x.shape.dimensions
    if order == tuple(range(len(dims))) and not (g.flush and t.is_floating_point) and not x.scalar:
        return x.var
    if x.var in g.invariant and not x.scalar:  # (a loop's weights: copied once, before it)
        return g.before_loop(("canonical", x.var, order), lambda: _copy(g, x, order, t))
    return _copy(g, x, order, t)


def _copy(g: Gen, x: Val, order: tuple[int, ...], t: PrimitiveType) -> str:
    dims = x.shape.dimensions
    var = g.new_array(x.shape)
    names, flat = g.loops(tuple(dims[d] for d in order))
    source = flat_index([names[order.index(d)] for d in range(len(dims))], dims)
    value = x.at(source)
    if g.flush and t.is_floating_point:
        value = f"_flush({value}, {_tiny(t)})"
    g.line(f"{var}[{flat}] = {value}")
    g.close(len(names))
    return var


@emits(Opcode.DOT)
def dot(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    lhs, rhs = args
    t = instr.shape.element_type
    if lhs.shape.element_type is not t or rhs.shape.element_type is not t or t is P.PRED:
        raise Unsupported("a dot with operands of another type than its result")
    attrs = instr.attrs
    lb, lc = tuple(attrs.get("lhs_batch_dims", ())), tuple(attrs.get("lhs_contracting_dims", ()))
    rb, rc = tuple(attrs.get("rhs_batch_dims", ())), tuple(attrs.get("rhs_contracting_dims", ()))
    ldims, rdims = lhs.shape.dimensions, rhs.shape.dimensions
    lf = tuple(d for d in range(len(ldims)) if d not in lb and d not in lc)
    rf = tuple(d for d in range(len(rdims)) if d not in rb and d not in rc)
    batch = math.prod(ldims[d] for d in lb)
    m, k, n = (
        math.prod(ldims[d] for d in lf),
        math.prod(ldims[d] for d in lc),
        math.prod(rdims[d] for d in rf),
    )
    if batch * m * n * k == 0:
        raise Unsupported("a dot with an empty dimension")
    lhs_order, rhs_order = (*lb, *lf, *lc), (*rb, *rc, *rf)
    a = _canonical(g, lhs, lhs_order, t)
    b = _canonical(g, rhs, rhs_order, t)
    out = g.name()
    in_order = not rb and lhs_order == tuple(range(len(ldims))) and rhs_order == tuple(range(len(rdims)))
    dtype = np.dtype(t.numpy_dtype) if t in FLOATS else None
    flipped = ynn_dot.operands(len(ldims), len(rdims), lb, lc, rb, rc)  # (None: not YNNPACK's)
    if dtype is not None and in_order and row_vector_dot.applies(dtype, batch, m, n, k):
        _row_vector_dot(g, t, a, b, out, k, n)
    elif dtype is not None and in_order and matrix_vector_dot.applies(dtype, batch, m, n, k):
        _matrix_vector_dot(g, t, a, b, out, m, k)
    elif dtype is not None and flipped is not None and ynn_dot.applies(dtype, m, n, k):
        _ynn_dot(g, t, a, b, out, (batch, m, k, n), flipped)
    elif t in FLOATS:
        _float_dot(g, t, a, b, out, batch, m, k, n)
    else:
        _int_dot(g, t, a, b, out, batch, m, k, n)
    if instr.shape.rank == 0:
        return Val(instr.shape, f"{out}[0]")
    return Val(instr.shape, out)


def _float_dot(
    g: Gen, t: PrimitiveType, a: str, b: str, out: str, batch: int, m: int, k: int, n: int
) -> None:
    found = numpy_blas()
    if found is None:
        raise Unsupported("dot: NumPy's BLAS library was not found")
    if blas_small.OPENBLAS_SPLITS <= m * n * k < blas_small.SMALL:
        # the interpreter may run these on one BLAS thread (blas_small), and a thread count the
        # compiled code does not set could change the bits
        raise Unsupported("dot: a product the interpreter may run on one BLAS thread")
    ft = type_name(t)
    if m == 1 and n == 1 and k > 1:  # XLA's multiply and reduce (hlo.numerics.vector_dot)
        if k > vector_dot.FUSED_LOOP:
            raise Unsupported("a dot of vectors of more than 32 elements: XLA's reduce orders")
        _vector_dot(g, t, a, b, out, batch, k)
        return
    int_type, prefix = found[2], FLOATS[t]
    size = np.dtype(t.numpy_dtype).itemsize
    g.line(f"{out} = np.zeros({batch * m * n}, {ft})")

    def ints(*values: int) -> str:
        return ", ".join(f"{int_type}({v})" for v in values)

    def enums(*values: int) -> str:  # (CBLAS's order and transposition: C enums, 32 bits)
        return ", ".join(f"np.int32({v})" for v in values)

    def at(var: str, step: int, j: str) -> str:
        return f"np.intp({var}.ctypes.data) + {j} * {step * size}"

    j = g.name("j")
    g.line(f"for {j} in range({batch}):")
    g.indent += 1
    pa, pb, po = at(a, m * k, j), at(b, k * n, j), at(out, m * n, j)
    one, zero = f"{ft}(1.0)", f"{ft}(0.0)"
    if m == 1 and n == 1:  # NumPy's dot: a double sum starting at 0.0 (a -0 product becomes +0)
        fn = g.ufunc(f"cblas_{prefix}dot", t)
        call = f"_blas_value(fp[{fn}, 0], ({ints(k)}, {pa}, {ints(1)}, {pb}, {ints(1)}), {zero})"
        g.line(f"{out}[{j}] = {ft}(np.float64(0.0) + np.float64({call}))")
    elif k == 1:  # NumPy's loop without BLAS: each element 0 + a * b
        i, c = g.name("i"), g.name("i")
        g.line(f"for {i} in range({m}):")
        g.line(f"    for {c} in range({n}):")
        product = f"{a}[{j} * {m} + {i}] * {b}[{j} * {n} + {c}]"
        g.line(f"        {out}[{j} * {m * n} + {i} * {n} + {c}] = {zero} + {product}")
    else:
        if m == 1:  # vector @ matrix: the matrix read row-major, transposed
            fn, head = g.ufunc(f"cblas_{prefix}gemv", t), f"{enums(ROW_MAJOR, TRANS)}, {ints(k, n)}"
            operands = f"{pb}, {ints(n)}, {pa}, {ints(1)}"
        elif n == 1:  # matrix @ vector: the matrix read column-major, transposed
            fn, head = g.ufunc(f"cblas_{prefix}gemv", t), f"{enums(COL_MAJOR, TRANS)}, {ints(k, m)}"
            operands = f"{pa}, {ints(k)}, {pb}, {ints(1)}"
        else:
            fn = g.ufunc(f"cblas_{prefix}gemm", t)
            head = f"{enums(ROW_MAJOR, NO_TRANS, NO_TRANS)}, {ints(m, n, k)}"
            operands = f"{pa}, {ints(k)}, {pb}, {ints(n)}"
        result = f"{po}, {ints(1 if m == 1 or n == 1 else n)}"
        g.line(f"_blas_void(fp[{fn}, 0], ({head}, {one}, {operands}, {zero}, {result}))")
    g.indent -= 1
    if g.flush:  # the interpreter flushes the product (BLAS may run on threads outside the mode)
        i = g.name("i")
        g.line(f"for {i} in range({batch * m * n}):")
        g.line(f"    {out}[{i}] = _flush({out}[{i}], {_tiny(t)})")


def _vector_dot(g: Gen, t: PrimitiveType, a: str, b: str, out: str, batch: int, k: int) -> None:
    """Each result an FMA chain from 0 over its k products, as the interpreter (or separate
    multiplies and adds where hlo.numerics.vector_dot says XLA:CPU's loop does)."""
    ft = type_name(t)
    fma = "_fma_f32" if t is P.F32 else "_fma_f64"
    plain = vector_dot.separate_multiplies(batch, k)
    j, r, acc = g.name("j"), g.name("i"), g.name("acc")
    g.line(f"{out} = np.zeros({batch}, {ft})")
    g.line(f"for {j} in range({batch}):")
    g.line(f"    {acc} = {ft}(0.0)")
    g.line(f"    for {r} in range({k}):")
    x, y = f"{a}[{j} * {k} + {r}]", f"{b}[{j} * {k} + {r}]"
    fused = f"_fma_nan({fma}({x}, {y}, {acc}), {x}, {y}, {acc})"
    g.line(f"        {acc} = {acc} + {x} * {y}" if plain else f"        {acc} = {fused}")
    if g.flush:
        g.line(f"        {acc} = _flush({acc}, {_tiny(t)})")
    g.line(f"    {out}[{j}] = {acc}")


def _row_vector_dot(g: Gen, t: PrimitiveType, a: str, b: str, out: str, k: int, n: int) -> None:
    """A vector times a matrix stored [k, n] as the interpreter (hlo.numerics.row_vector_dot):
    an FMA chain a column in k order, the odd column's products 1-7 unfused."""
    ft, fma = type_name(t), "_fma_f32" if t is P.F32 else "_fma_f64"
    i, j, x, y, acc = g.name("i"), g.name("j"), g.name("x"), g.name("y"), g.name("acc")
    flush = (lambda v: f"_flush({v}, {_tiny(t)})") if g.flush else (lambda v: v)
    g.line(f"{out} = np.zeros({n}, {ft})")
    g.line(f"for {i} in range({k}):")
    g.line(f"    {x} = {a}[{i}]")
    g.line(f"    for {j} in range({n}):")
    g.line(f"        {y}, {acc} = {b}[{i} * {n} + {j}], {out}[{j}]")
    g.line(f"        {out}[{j}] = {flush(f'_fma_nan({fma}({x}, {y}, {acc}), {x}, {y}, {acc})')}")
    odd = row_vector_dot.odd_column(np.dtype(t.numpy_dtype), n)
    if odd is None or k < 3:
        return
    steps = row_vector_dot.UNFUSED_STEPS
    g.line(f"{acc} = {ft}(0.0)")
    g.line(f"for {i} in range({k}):")
    g.line(f"    {x}, {y} = {a}[{i}], {b}[{i} * {n} + {odd}]")
    g.line(f"    if {steps.start} <= {i} < {steps.stop}:")
    g.line(f"        {acc} = {flush(f'{acc} + {x} * {y}')}")
    g.line("    else:")
    g.line(f"        {acc} = {flush(f'_fma_nan({fma}({x}, {y}, {acc}), {x}, {y}, {acc})')}")
    g.line(f"{out}[{odd}] = {acc}")


def _matrix_vector_dot(g: Gen, t: PrimitiveType, a: str, b: str, out: str, m: int, k: int) -> None:
    """A matrix times a vector: the native image's loop the interpreter runs
    (hlo.numerics.matrix_vector_dot), called by address; where it does not run, or the CPU's
    mode cannot flush its steps, the loop stays on the interpreter."""
    dtype = np.dtype(t.numpy_dtype)
    if fma_loop.rows_address(8 * dtype.itemsize) is None or (g.flush and not subnormals.supported()):
        raise Unsupported("a matrix times a vector without the native image's loop")
    fn, i64 = g.ufunc("native_rows", t), "np.int64"
    pointers = ", ".join(f"np.intp({v}.ctypes.data)" for v in (a, b, out))
    g.line(f"{out} = np.empty({m}, {type_name(t)})")
    g.line(f"_blas_void(fp[{fn}, 0], ({i64}({m}), {i64}({k}), {pointers}))")


def _ynn_dot(
    g: Gen, t: PrimitiveType, a: str, b: str, out: str, sizes: tuple[int, int, int, int], flipped: bool
) -> None:
    """YNNPACK's product as the interpreter sums it (hlo.numerics.ynn_dot): the plan's tiles,
    each by hlo.numerics.jit_ynn_tile."""
    batch, m, k, n = sizes
    dtype = np.dtype(t.numpy_dtype)
    arches = ynn_kernels.host_arches()
    assert arches is not None
    plan = ynn_dot.plan(dtype, m, n, k, flipped, arches)
    whole = k - k % plan.tile_k
    wide, flushing = t is P.F64, bool(g.flush)
    g.line(f"{out} = np.empty({batch * m * n}, {type_name(t)})")
    j = g.name("j")
    g.line(f"for {j} in range({batch}):")
    for tile in ynn_dot.tiles(plan, m, n, k, dtype.itemsize):
        where = f"{j} * {m * k}, {j} * {k * n}, {j} * {m * n}, {k}, {n}, {tile.rows}, {tile.cols}"
        how = f"{whole}, {tile.step}, {plan.tile_k}, {tile.fused}, {wide}, {flushing}, {_tiny(t)}"
        g.line(f"    _ynn_tile({a}, {b}, {out}, {where}, {how})")


def _int_dot(g: Gen, t: PrimitiveType, a: str, b: str, out: str, batch: int, m: int, k: int, n: int) -> None:
    """Integers in the interpreter's wide type (int64 or uint64), wrapped to t at the end."""
    wide = "np.int64" if t.is_signed_integral else "np.uint64"
    g.line(f"{out} = np.empty({batch * m * n}, {type_name(t)})")
    j, i, c, r = g.name("i"), g.name("i"), g.name("i"), g.name("i")
    acc = g.name("acc")
    g.line(f"for {j} in range({batch}):")
    g.line(f"    for {i} in range({m}):")
    g.line(f"        for {c} in range({n}):")
    g.line(f"            {acc} = {wide}(0)")
    g.line(f"            for {r} in range({k}):")
    left, right = f"{a}[{j} * {m * k} + {i} * {k} + {r}]", f"{b}[{j} * {k * n} + {r} * {n} + {c}]"
    g.line(f"                {acc} += {wide}({left}) * {wide}({right})")
    g.line(f"            {out}[{j} * {m * n} + {i} * {n} + {c}] = {type_name(t)}({acc})")
