"""hlo.numerics.odd_rational's approximations as compiled loops, built with llvmlite from LLVM IR
that takes the steps XLA:CPU's IR takes (the llvm.fma intrinsic for each Horner step, the fast
max/min clamp, the selects), so that LLVM vectorizes them as XLA:CPU's code does and the CPU's
FMA rounds once. Each loop has the signature of NumPy's strided loops (context, data pointers,
dimensions, strides, auxdata): the interpreter calls it through ctypes and the compiled tiers'
generated code calls it as it calls a ufunc's loop (hlo.numerics.jit_numba.pointers).

Imported only when llvmlite is installed and such a loop runs. ctypes lets go of the GIL, so a
long array is split between the cores this thread may use, each part in this thread's
flush-to-zero mode."""

from __future__ import annotations

import contextlib
import ctypes
import threading
from typing import Any

import numpy as np

from . import subnormals, threads
from .odd_rational import OddRational

SPLIT_ELEMENTS = 1 << 19  # per thread: ~1 ms of work, above a split's cost
_lock = threading.Lock()
_engines: list[Any] = []  # (kept alive: the compiled code lives in them)
_addresses: dict[OddRational, int] = {}  # 0: the compilation failed (NumPy's way then)
_aside: set[OddRational] = set()
_LOOP = ctypes.CFUNCTYPE(ctypes.c_int32, *([ctypes.c_void_p] * 5))


def loop_ir(form: OddRational) -> str:
    """The IR of `int loop(context, char **data, intp *dims, intp *steps, auxdata)` computing
    `form` from data[0] into data[1], n = dims[0] elements; both contiguous (every caller's
    arrays are: the strides are not read, so that LLVM vectorizes the loop unversioned)."""
    from llvmlite import ir

    real = ir.FloatType() if form.dtype == "float32" else ir.DoubleType()
    name = "float" if form.dtype == "float32" else "double"
    i64, i8p = ir.IntType(64), ir.IntType(8).as_pointer()
    module = ir.Module(name=f"hlo_{form.name}")
    fma = ir.Function(
        module, ir.FunctionType(real, [real] * 3), name=f"llvm.fma.f{32 if name == 'float' else 64}"
    )
    fabs = ir.Function(
        module, ir.FunctionType(real, [real]), name=f"llvm.fabs.f{32 if name == 'float' else 64}"
    )
    copysign = ir.Function(
        module, ir.FunctionType(real, [real] * 2), name=f"llvm.copysign.f{32 if name == 'float' else 64}"
    )
    signature = ir.FunctionType(
        ir.IntType(32), [i8p, i8p.as_pointer(), i64.as_pointer(), i64.as_pointer(), i8p]
    )
    fn = ir.Function(module, signature, name="loop")
    _, data, dims, _, _ = fn.args
    entry, body, done = (fn.append_basic_block(n) for n in ("entry", "body", "done"))
    b = ir.IRBuilder(entry)
    n = b.load(dims)
    source = b.bitcast(b.load(data), real.as_pointer())
    target = b.bitcast(b.load(b.gep(data, [ir.Constant(i64, 1)])), real.as_pointer())
    b.cbranch(b.icmp_signed(">", n, ir.Constant(i64, 0)), body, done)
    b = ir.IRBuilder(body)
    i = b.phi(i64)
    i.add_incoming(ir.Constant(i64, 0), entry)

    def const(v: float) -> Any:
        return ir.Constant(real, float(np.dtype(form.dtype).type(v)))  # (the literal as the type holds it)

    x = b.load(b.gep(source, [i]))
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
    b.store(r, b.gep(target, [i]))
    after = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(after, body)
    b.cbranch(b.icmp_signed("<", after, n), body, done)
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
    """Compile the loop with llvmlite (under `_lock`): the host's features (its FMA instruction,
    the vector width LLVM picks lanes for) and LLVM's -O3 pipeline, which vectorizes it."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    parsed = llvm.parse_assembly(loop_ir(form))
    parsed.verify()
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=3
    )
    builder = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=3))
    builder.getModulePassManager().run(parsed, builder)
    engine = llvm.create_mcjit_compiler(parsed, machine)
    engine.finalize_object()
    _engines.append(engine)
    return int(engine.get_function_address("loop"))


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
