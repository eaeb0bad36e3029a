"""hlo.numerics.odd_rational's approximations as compiled loops, built with llvmlite from LLVM IR
that takes the steps XLA:CPU's IR takes (the llvm.fma intrinsic for each Horner step, the fast
max/min clamp, the selects), so that LLVM vectorizes them as XLA:CPU's code does and the CPU's
FMA rounds once. Each loop has the signature of NumPy's strided loops (context, data pointers,
dimensions, strides, auxdata): the interpreter calls it through ctypes and the compiled tiers'
generated code calls it as it calls a ufunc's loop (hlo.numerics.jit_numba.pointers).

Made ahead of time where hlo.numerics.native_image runs; else compiled when llvmlite is
installed and such a loop runs. ctypes lets go of the GIL, so a
long array is split between the cores this thread may use, each part in this thread's
flush-to-zero mode."""

from __future__ import annotations

import contextlib
import ctypes
import threading
from typing import Any

import numpy as np

from . import native_image, subnormals, threads
from .odd_rational import OddRational

SPLIT_ELEMENTS = 1 << 19  # per thread: ~1 ms of work, above a split's cost
_lock = threading.Lock()
_addresses: dict[OddRational, int] = {}  # 0: the compilation failed (NumPy's way then)
_aside: set[OddRational] = set()
_LOOP = ctypes.CFUNCTYPE(ctypes.c_int32, *([ctypes.c_void_p] * 5))


LANES = 64  # bytes a vector step takes: 16 f32 or 8 f64 (one AVX-512 register; two AVX2 ones)


def loop_ir(form: OddRational) -> str:
    """The IR of `int loop(context, char **data, intp *dims, intp *steps, auxdata)` computing
    `form` from data[0] into data[1], n = dims[0] elements, both contiguous (every caller's
    arrays are: the strides are not read): a loop over vectors, then one over the last elements,
    the same steps per lane. Written as vectors so that LLVM's code generator alone makes it
    (its optimization pipeline, which would vectorize a scalar loop, costs ~80 ms more)."""
    from llvmlite import ir

    width = 32 if form.dtype == "float32" else 64
    real = ir.FloatType() if width == 32 else ir.DoubleType()
    lanes = LANES * 8 // width
    i64, i8p = ir.IntType(64), ir.IntType(8).as_pointer()
    module = ir.Module(name=f"hlo_{form.name}")
    signature = ir.FunctionType(
        ir.IntType(32), [i8p, i8p.as_pointer(), i64.as_pointer(), i64.as_pointer(), i8p]
    )
    fn = ir.Function(module, signature, name="loop")
    _, data, dims, _, _ = fn.args
    blocks = ("entry", "vector", "vector_done", "scalar", "done")
    entry, vector, vector_done, scalar, done = (fn.append_basic_block(n) for n in blocks)
    b = ir.IRBuilder(entry)
    n = b.load(dims)
    source = b.bitcast(b.load(data), real.as_pointer())
    target = b.bitcast(b.load(b.gep(data, [ir.Constant(i64, 1)])), real.as_pointer())
    whole = b.and_(n, ir.Constant(i64, -lanes))  # the elements the vector loop takes
    b.cbranch(b.icmp_signed(">", whole, ir.Constant(i64, 0)), vector, vector_done)

    def step(b: ir.IRBuilder, pointer: Any, store: Any, t: Any) -> None:
        """One vector (or element) of type t from `pointer` into `store`."""
        suffix = f"v{t.count}f{width}" if isinstance(t, ir.VectorType) else f"f{width}"
        fma = module.declare_intrinsic(f"llvm.fma.{suffix}", fnty=ir.FunctionType(t, [t] * 3))
        fabs = module.declare_intrinsic(f"llvm.fabs.{suffix}", fnty=ir.FunctionType(t, [t]))
        copysign = module.declare_intrinsic(f"llvm.copysign.{suffix}", fnty=ir.FunctionType(t, [t] * 2))

        def const(v: float) -> Any:
            value = float(np.dtype(form.dtype).type(v))  # (the literal as the type holds it)
            return (
                ir.Constant(t, [value] * t.count) if isinstance(t, ir.VectorType) else ir.Constant(t, value)
            )

        x = b.load(b.bitcast(pointer, t.as_pointer()), align=width // 8)
        magnitude = b.call(fabs, [x])
        xc = x
        if form.clamp is not None:  # XLA's fast max/min: an unordered compare keeps x (NaN)
            low, high = const(-form.clamp), const(form.clamp)
            xc = b.select(b.fcmp_unordered(">=", xc, low), xc, low)
            xc = b.select(b.fcmp_unordered("<=", xc, high), xc, high)
        x2 = b.fmul(xc, xc)
        p = const(form.numerator[0])
        for c in form.numerator[1:]:
            p = b.call(fma, [x2, p, const(c)])
        q = const(form.denominator[0])
        for c in form.denominator[1:]:
            q = b.call(fma, [x2, q, const(c)])
        r = b.fdiv(b.fmul(xc, p), q)
        if form.small is not None:
            r = b.select(b.fcmp_ordered("<", magnitude, const(form.small)), x, r)
        one = b.call(copysign, [const(1.0), x])
        r = b.select(b.fcmp_ordered(">=", magnitude, const(form.large)), one, r)
        b.store(r, b.bitcast(store, t.as_pointer()), align=width // 8)

    b = ir.IRBuilder(vector)
    i = b.phi(i64)
    i.add_incoming(ir.Constant(i64, 0), entry)
    step(b, b.gep(source, [i]), b.gep(target, [i]), ir.VectorType(real, lanes))
    after = b.add(i, ir.Constant(i64, lanes))
    i.add_incoming(after, vector)
    b.cbranch(b.icmp_signed("<", after, whole), vector, vector_done)

    b = ir.IRBuilder(vector_done)
    start = b.phi(i64)
    start.add_incoming(ir.Constant(i64, 0), entry)
    start.add_incoming(after, vector)
    b.cbranch(b.icmp_signed("<", start, n), scalar, done)

    b = ir.IRBuilder(scalar)
    j = b.phi(i64)
    j.add_incoming(start, vector_done)
    step(b, b.gep(source, [j]), b.gep(target, [j]), real)
    later = b.add(j, ir.Constant(i64, 1))
    j.add_incoming(later, scalar)
    b.cbranch(b.icmp_signed("<", later, n), scalar, done)
    ir.IRBuilder(done).ret(ir.Constant(ir.IntType(32), 0))
    return str(module)


def usable(form: OddRational) -> bool | None:
    """Whether the loop of `form` is compiled (False: its compilation failed; None: not yet)."""
    found = _addresses.get(form)
    return None if found is None else found != 0


def compile_aside(form: OddRational) -> None:
    """Compile the loop of `form` in a background thread (once)."""
    with _lock:
        if form in _aside or form in _addresses:
            return
        _aside.add(form)

    def work() -> None:
        with contextlib.suppress(Exception):  # (recorded in _addresses: NumPy's way stays)
            address(form)

    threading.Thread(target=work, name="hlo-odd-rational", daemon=True).start()


def address(form: OddRational) -> int:
    """The compiled loop of `form` (made once per process), by address; raises if it cannot be
    compiled (once: later calls raise at once)."""
    with _lock:
        if form not in _addresses:
            try:
                _addresses[form] = _compile(form)
            except Exception:
                _addresses[form] = 0
                raise
        if not _addresses[form]:
            raise RuntimeError(f"the loop of {form.name} could not be compiled")
        return _addresses[form]


def _compile(form: OddRational) -> int:
    """The loop made ahead of time, else compiled with llvmlite (under `_lock`) for the host's
    features: its FMA instruction and vector registers."""
    made = native_image.function(native_image.APPROXIMATIONS, module(form), "loop")
    if made is not None:
        return made
    from . import llvm_jit

    return llvm_jit.compile_ir(loop_ir(form), ["loop"])["loop"]


def module(form: OddRational) -> str:
    """The loop's module name in the native image."""
    return f"odd_rational/{form.name}"


def run(form: OddRational, flat: np.ndarray, out: np.ndarray, flush: bool) -> bool:
    """`out = form(flat)` (contiguous 1-D arrays of the form's dtype), in the CPU's flush-to-zero
    mode when `flush`; False if that mode cannot be set here (the caller flushes in software)."""
    if flush and not subnormals.active():
        return False
    try:
        loop = _LOOP(address(form))
    except Exception:  # (llvmlite failed: the caller computes it in NumPy)
        return False
    size = out.itemsize

    def part(r0: int, r1: int) -> None:
        data = (ctypes.c_void_p * 2)(flat.ctypes.data + r0 * size, out.ctypes.data + r0 * size)
        dims = (ctypes.c_int64 * 1)(r1 - r0)
        steps = (ctypes.c_int64 * 2)(size, size)
        loop(None, data, dims, steps, None)

    parts = min(threads.share(), max(1, out.size // SPLIT_ELEMENTS))
    if not flush and subnormals.active():
        with subnormals.keeping_subnormals():
            part(0, out.size)
    elif parts <= 1:
        part(0, out.size)
    else:
        threads.split_rows(part, out.size, parts, ())
    return True
