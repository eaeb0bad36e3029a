"""The exact fused multiply-add over arrays as machine code made ahead of time: `llvm.fma` in a
loop, the CPU's FMA instruction where hlo.numerics.native_image runs. hlo.numerics.fma's NumPy
form takes ~15 passes an element for f64 (Dekker's product and three two-sums); the complex
multiply and divide call it for every part, ~0.15 s for 1M c128 products, this ~2 ms. Where the
image does not run, the NumPy form computes the same bits."""

from __future__ import annotations

import ctypes
import functools
from typing import Any

import numpy as np

from . import native_image

MIN_ELEMENTS = 256  # below: the NumPy form (a ctypes call and copies cost more)


def module(width: int) -> str:
    """The module's name in the native image."""
    return f"fma/fma_{width}"


def name(width: int) -> str:
    """The loop `(n, a, b, c, out)`: out[i] = a[i] * b[i] + c[i], one rounding."""
    return f"ternary_fma_f{width}"


def chain_name(width: int) -> str:
    """The loop `(k, n, a, b, out)`: for each i < k in turn, out[j] = a[i] * b[i, j] + out[j]
    (one rounding) for every j < n, b row-major [k, n]: n FMA chains in k order from out's
    values (a vector times a matrix, as XLA:CPU's GEMV emitter sums it: hlo.numerics.row_vector_dot)."""
    return f"chain_fma_f{width}"


def rows_name(width: int) -> str:
    """The loop `(m, k, w, x, out)`: a matrix w [m, k] (row-major) times a vector x [k] as
    XLA:CPU's row-major GEMV emitter sums it (hlo.numerics.matrix_vector_dot): per row, LANES
    FMA chains over the first k - k mod LANES elements (lane l takes those with index l mod
    LANES), one more over the rest, the lanes added in pairs of neighbours for rows in tiles of
    LANES rows (tiles are 8 rows, the last m mod 8) and by halving for the others, then the
    last chain added."""
    return f"rows_fma_f{width}"


LANES = {32: 8, 64: 4}  # one vector register of AVX2
CHAIN_VECTORS = 4  # vectors of columns chain_name's loop keeps in registers at once


def module_ir(width: int) -> str:
    """The loop's LLVM IR (read by hlo.numerics.native_sources; needs llvmlite)."""
    from llvmlite import ir

    from .llvm_jit import counted_loop

    real = ir.FloatType() if width == 32 else ir.DoubleType()
    i64, pointer = ir.IntType(64), ir.PointerType(real)
    mod = ir.Module(name=f"hlo_fma_{width}")
    fma = ir.Function(mod, ir.FunctionType(real, [real] * 3), name=f"llvm.fma.f{width}")
    fn = ir.Function(
        mod, ir.FunctionType(ir.VoidType(), [i64, pointer, pointer, pointer, pointer]), name=name(width)
    )
    n, a, b, c, out = fn.args

    def step(builder: Any, i: Any) -> None:
        values = [builder.load(builder.gep(p, [i])) for p in (a, b, c)]
        builder.store(builder.call(fma, values), builder.gep(out, [i]))

    counted_loop(fn, n, step)
    _chain(mod, fma, real, width)
    _rows(mod, fma, real, width)
    return str(mod)


def _chain(mod: Any, fma: Any, real: Any, width: int) -> None:
    """chain_name's loop, column block by column block: each block's sums stay in vector
    registers while i runs over k (CHAIN_VECTORS vectors a block, then single vectors, then
    single columns), each lane its own chain in i's order: the same bits as one FMA a step
    in place, without reading and writing `out` once a step."""
    from llvmlite import ir

    lanes = LANES[width]
    i64, pointer = ir.IntType(64), ir.PointerType(real)
    vector = ir.VectorType(real, lanes)
    vector_fma = _vector_fma(mod, vector, lanes, width)
    fn = ir.Function(
        mod, ir.FunctionType(ir.VoidType(), [i64, i64, pointer, pointer, pointer]), name=chain_name(width)
    )
    k, n, a, b_rows, out = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    j_slot, i_slot = b.alloca(i64), b.alloca(i64)
    b.store(i64(0), j_slot)
    for count in (CHAIN_VECTORS, 1, 0):  # (0: single columns)
        width_j = count * lanes or 1
        kind = vector if count else real
        sums = [b.alloca(kind) for _ in range(max(count, 1))]
        head, body, step_body, store = (
            fn.append_basic_block(f"{x}{count}") for x in ("head", "body", "step_body", "store")
        )
        b.branch(head)
        b = ir.IRBuilder(head)
        j = b.load(j_slot)
        after = fn.append_basic_block(f"next{count}")
        b.cbranch(b.icmp_signed("<=", b.add(j, i64(width_j)), n), body, after)

        def at(builder: Any, base: Any, offset: Any, which: int, vectors: bool = count > 0) -> Any:
            place = builder.gep(base, [builder.add(offset, i64(which * lanes))])
            return builder.bitcast(place, ir.PointerType(vector)) if vectors else place

        b = ir.IRBuilder(body)
        j = b.load(j_slot)
        for v, slot in enumerate(sums):
            b.store(b.load(at(b, out, j, v), align=width // 8), slot)
        b.store(i64(0), i_slot)
        b.cbranch(b.icmp_signed(">", k, i64(0)), step_body, store)
        b = ir.IRBuilder(step_body)
        i, j = b.load(i_slot), b.load(j_slot)
        x = b.load(b.gep(a, [i]))
        if count:
            x = b.insert_element(ir.Constant(vector, ir.Undefined), x, i64(0))
            x = b.shuffle_vector(
                x,
                ir.Constant(vector, ir.Undefined),
                ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes),
            )
        row = b.add(b.mul(i, n), j)
        for v, slot in enumerate(sums):
            value = b.load(at(b, b_rows, row, v), align=width // 8)
            b.store(b.call(vector_fma if count else fma, [x, value, b.load(slot)]), slot)
        i_next = b.add(i, i64(1))
        b.store(i_next, i_slot)
        b.cbranch(b.icmp_signed("<", i_next, k), step_body, store)
        b = ir.IRBuilder(store)
        j = b.load(j_slot)
        for v, slot in enumerate(sums):
            b.store(b.load(slot), at(b, out, j, v), align=width // 8)
        b.store(b.add(j, i64(width_j)), j_slot)
        b.branch(head)
        b = ir.IRBuilder(after)
    b.ret_void()


@functools.cache
def _function(symbol: str, width: int, counts: int) -> Any:
    """The image's function `symbol` of module(width) as a ctypes function of `counts` integers
    then pointers, five arguments in all (None where the image does not run here)."""
    address = native_image.function(native_image.APPROXIMATIONS, module(width), symbol)
    if address is None:
        return None
    pointer = ctypes.c_void_p
    return ctypes.CFUNCTYPE(None, *([ctypes.c_int64] * counts), *([pointer] * (5 - counts)))(address)


def _loop(width: int) -> Any:
    return _function(name(width), width, 1)


def _chain_loop(width: int) -> Any:
    return _function(chain_name(width), width, 2)


def _rows_loop(width: int) -> Any:
    return _function(rows_name(width), width, 2)


def rows_address(width: int) -> int | None:
    """The address of rows_name's loop (the compiled tiers call it), None where it does not run."""
    return native_image.function(native_image.APPROXIMATIONS, module(width), rows_name(width))


def rows(w: np.ndarray, x: np.ndarray) -> np.ndarray | None:
    """w [m, k] times x [k] (contiguous, one float type) by rows_name's loop; None where the
    machine code does not run here."""
    loop = _rows_loop(8 * w.dtype.itemsize)
    if loop is None:
        return None
    out = np.empty(w.shape[0], w.dtype)
    loop(w.shape[0], w.shape[1], w.ctypes.data, x.ctypes.data, out.ctypes.data)
    return out


def chains(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
    """out[j] = fma(a[i], b[i, j], out[j]) for i = 0, 1, ... in turn (a [k], b [k, n] and out
    [n] contiguous, one float type; out updated in place); False where the machine code does
    not run here."""
    loop = _chain_loop(8 * out.dtype.itemsize)
    if loop is None:
        return False
    loop(b.shape[0], b.shape[1], a.ctypes.data, b.ctypes.data, out.ctypes.data)
    return True


def apply(a: np.ndarray, b: np.ndarray, c: np.ndarray, dtype: np.dtype) -> np.ndarray | None:
    """a*b + c rounded once in `dtype` (f32 or f64), broadcast; None where the machine code
    does not run here or the arrays are small."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    size = int(np.prod(shape))
    if size < MIN_ELEMENTS:
        return None
    loop = _loop(8 * dtype.itemsize)
    if loop is None:
        return None
    a, b, c = (np.ascontiguousarray(np.broadcast_to(np.asarray(v, dtype), shape)) for v in (a, b, c))
    out = np.empty(shape, dtype)
    loop(size, a.ctypes.data, b.ctypes.data, c.ctypes.data, out.ctypes.data)
    return out


def _rows(mod: Any, fma: Any, real: Any, width: int) -> None:
    """rows_name's loop: the lanes one vector (`llvm.fma` on vectors: each lane its own chain,
    rounded once a step), counters and sums in stack slots (LLVM's passes keep them in
    registers); no reassociation: every add in the order written."""
    from llvmlite import ir

    lanes = LANES[width]
    i64, pointer = ir.IntType(64), ir.PointerType(real)
    vector = ir.VectorType(real, lanes)
    vector_fma = _vector_fma(mod, vector, lanes, width)
    fn = ir.Function(
        mod, ir.FunctionType(ir.VoidType(), [i64, i64, pointer, pointer, pointer]), name=rows_name(width)
    )
    m, k, w, x, out = fn.args
    names = ("entry", "row", "step", "step_body", "tail", "tail_body", "finish", "done")
    entry, row, step, step_body, tail, tail_body, finish, done = (fn.append_basic_block(n) for n in names)
    b = ir.IRBuilder(entry)
    zero, one, width_i = i64(0), i64(1), i64(lanes)
    r_slot, s_slot, i_slot = b.alloca(i64), b.alloca(i64), b.alloca(i64)
    acc, rest = b.alloca(vector), b.alloca(real)
    main = b.mul(b.sdiv(k, width_i), width_i)  # k - k mod lanes
    full = b.mul(b.sdiv(m, i64(8)), i64(8))  # rows in whole tiles of 8
    b.store(zero, r_slot)
    b.cbranch(b.icmp_signed(">", m, zero), row, done)
    b = ir.IRBuilder(row)
    r = b.load(r_slot)
    b.store(ir.Constant(vector, [0.0] * lanes), acc)
    b.store(real(0.0), rest)
    b.store(zero, s_slot)
    base = b.mul(r, k)
    b.branch(step)
    b = ir.IRBuilder(step)
    at = b.load(s_slot)
    b.cbranch(b.icmp_signed("<", at, main), step_body, tail)
    b = ir.IRBuilder(step_body)
    at = b.load(s_slot)
    w_lanes = b.load(b.bitcast(b.gep(w, [b.add(base, at)]), ir.PointerType(vector)), align=width // 8)
    x_lanes = b.load(b.bitcast(b.gep(x, [at]), ir.PointerType(vector)), align=width // 8)
    b.store(b.call(vector_fma, [w_lanes, x_lanes, b.load(acc)]), acc)
    b.store(b.add(at, width_i), s_slot)
    b.branch(step)
    b = ir.IRBuilder(tail)
    b.store(main, i_slot)
    b.branch(tail_body)
    b = ir.IRBuilder(tail_body)
    i = b.load(i_slot)
    more = b.icmp_signed("<", i, k)
    with b.if_then(more):
        product = [b.load(b.gep(w, [b.add(base, i)])), b.load(b.gep(x, [i]))]
        b.store(b.call(fma, [*product, b.load(rest)]), rest)
        b.store(b.add(i, one), i_slot)
    b.cbranch(more, tail_body, finish)
    b = ir.IRBuilder(finish)
    sums = b.load(acc)
    v = [b.extract_element(sums, i64(j)) for j in range(lanes)]
    pairs = _pairwise(b, v)
    halving = _halving(b, v)
    tile_rows = b.select(b.icmp_signed("<", r, full), i64(8), b.srem(m, i64(8)))
    total = b.select(b.icmp_signed("==", tile_rows, width_i), pairs, halving)
    b.store(b.fadd(total, b.load(rest)), b.gep(out, [r]))
    r_next = b.add(r, one)
    b.store(r_next, r_slot)
    b.cbranch(b.icmp_signed("<", r_next, m), row, done)
    ir.IRBuilder(done).ret_void()


def _vector_fma(mod: Any, vector: Any, lanes: int, width: int) -> Any:
    """The module's declaration of `llvm.fma` on vectors of `lanes` (made once)."""
    from llvmlite import ir

    name = f"llvm.fma.v{lanes}f{width}"
    found = mod.globals.get(name)
    return found if found is not None else ir.Function(mod, ir.FunctionType(vector, [vector] * 3), name=name)


def _pairwise(b: Any, v: list[Any]) -> Any:
    """((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7)): neighbours first."""
    while len(v) > 1:
        v = [b.fadd(v[j], v[j + 1]) for j in range(0, len(v), 2)]
    return v[0]


def _halving(b: Any, v: list[Any]) -> Any:
    """The upper half added to the lower, again until one is left: ((v0 + v4) + (v2 + v6)) +
    ((v1 + v5) + (v3 + v7))."""
    while len(v) > 1:
        half = len(v) // 2
        v = [b.fadd(v[j], v[j + half]) for j in range(half)]
    return v[0]
