"""XLA:CPU's exp and its expm1's tanh (hlo.numerics.xla_exp, xla_expm1) as machine code for the
interpreter's large arrays: the same steps written as LLVM IR with `llvm.fma` where XLA:CPU's
code has an FMA, inlined into a loop LLVM vectorizes (each lane the same scalar steps: the same bits), split
between the thread's cores; made ahead of time (hlo.numerics.native_image) where that runs, else
compiled by llvmlite (numba's LLVM binding, ~0.1 s to load) for this CPU. NumPy needs ~60
passes for one exp; this is one. Where neither is at hand the NumPy forms run."""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import sys
from typing import Any

import numpy as np

from . import native_image, threads
from .xla_exp import C1_32, C1_64, C2_32, C2_64, HI32, HI64, LO32, LO64, LOG2E32, LOG2E64, P32, P64, Q64
from .xla_expm1 import LIMIT32, LIMIT64, TANH_P32, TANH_P64, TANH_Q32, TANH_Q64

MIN_ELEMENTS = 1 << 14  # below: NumPy's passes, unless llvmlite is loaded already
SPLIT_ELEMENTS = 1 << 19  # per thread: ~1 ms, well above a split's cost


def takes(size: int) -> bool:
    """Whether an array of `size` elements runs as machine code: it is made ahead of time
    (hlo.numerics.native_image), or llvmlite is installed and the array is large or llvmlite is
    loaded already (its load costs a first result ~0.1 s)."""
    if native_image.available(native_image.APPROXIMATIONS):
        return True
    return _installed() and (size >= MIN_ELEMENTS or "llvmlite.binding" in sys.modules)


def apply(name: str, x: np.ndarray) -> np.ndarray:
    """`name` ("exp", "tanh", "expm1" or "logistic") of a contiguous f32 or f64 array, element
    by element, split between the cores this thread may use when each gets SPLIT_ELEMENTS or
    more."""
    return threads.unary_loop(_compiled(f"{name}_{x.dtype.itemsize * 8}")[0], x, SPLIT_ELEMENTS)


@functools.cache
def _installed() -> bool:
    return importlib.util.find_spec("llvmlite") is not None


@functools.cache
def _compiled(name: str) -> tuple[Any, int]:
    """The machine code of `loop_<name>(n, x, out)` as a ctypes function and the address of its
    `strided_<name>`: made ahead of time, or compiled from one module per function when first
    needed (~0.1-0.3 s each; LLVM inlines the function into its loop and vectorizes it, each
    lane the same steps)."""
    names = [f"loop_{name}", f"strided_{name}"]
    found = native_image.functions(native_image.APPROXIMATIONS, module(name), names)
    if found is None:
        from . import llvm_jit

        found = llvm_jit.compile_ir(module_ir(name), names, optimize=True)
    pointer = ctypes.c_void_p
    loop = ctypes.CFUNCTYPE(None, ctypes.c_int64, pointer, pointer)(found[names[0]])
    return loop, found[names[1]]


def module(name: str) -> str:
    """The module's name in the native image."""
    return f"xla_exp/{name}"


def module_ir(name: str) -> str:
    """The LLVM IR of `loop_<name>` and `strided_<name>` (name: "exp_32", "expm1_64", ...)."""
    from llvmlite import ir

    function, width_text = name.split("_")
    width = int(width_text)
    module = ir.Module(name=f"hlo_xla_{name}")
    exp = _exp(module, width) if function != "tanh" else None
    tanh = _tanh(module, width) if function in ("tanh", "expm1") else None
    if function == "expm1":
        fn = _expm1(module, width, exp, tanh)
    elif function == "logistic":
        fn = _logistic(module, width, exp)
    else:
        fn = exp if function == "exp" else tanh
    loop_of(module, fn, width)
    return str(module)


def _expm1(module: Any, width: int, exp: Any, tanh: Any) -> Any:
    """exp(x) - 1 where |x| > 1/2, else tanh(x/2) * (exp(x) + 1); x where x/2 reads as zero."""
    e = Emit(module, f"expm1_{width}", width)
    b, x = e.b, e.x
    half = b.fmul(x, e.c(0.5))
    exp_x = b.call(exp, [x])
    small = b.fmul(b.call(tanh, [half]), b.fadd(exp_x, e.c(1)))
    result = b.select(b.fcmp_ordered(">", e.call("llvm.fabs", x), e.c(0.5)), b.fsub(exp_x, e.c(1)), small)
    tiny = float(np.finfo(np.float32 if width == 32 else np.float64).tiny)
    b.ret(b.select(b.fcmp_ordered("<", e.call("llvm.fabs", half), e.c(tiny)), x, result))
    return e.fn


def _logistic(module: Any, width: int, exp: Any) -> Any:
    """1 / (1 + exp(-x))."""
    e = Emit(module, f"logistic_{width}", width)
    b = e.b
    b.ret(b.fdiv(e.c(1), b.fadd(e.c(1), b.call(exp, [b.fneg(e.x)]))))
    return e.fn


def strided_address(name: str, dtype: str) -> int:
    """The address of `strided_<name>_<width>`: the loop with the signature of NumPy's strided
    loops (context, data, dimensions, strides, auxdata), for contiguous arrays only, which the
    compiled tiers' generated code calls as it calls NumPy's (hlo.numerics.jit_numba)."""
    return _compiled(f"{name}_{np.dtype(dtype).itemsize * 8}")[1]


def loop_of(module: Any, fn: Any, width: int) -> None:
    """`loop_<fn>(n, x, out)`: out[i] = fn(x[i]) for i < n; and `strided_<fn>` calling it with
    NumPy's strided loop's signature (the strides unread: contiguous arrays)."""
    from llvmlite import ir

    from . import llvm_jit

    real = ir.FloatType() if width == 32 else ir.DoubleType()
    i64 = ir.IntType(64)
    loop = ir.Function(
        module,
        ir.FunctionType(ir.VoidType(), [i64, real.as_pointer(), real.as_pointer()]),
        name=f"loop_{fn.name}",
    )
    n, x, out = loop.args
    x.add_attribute("noalias")
    out.add_attribute("noalias")
    llvm_jit.counted_loop(loop, n, lambda b, i: b.store(b.call(fn, [b.load(b.gep(x, [i]))]), b.gep(out, [i])))
    byte_p = ir.IntType(8).as_pointer()
    arguments = [byte_p, byte_p.as_pointer(), i64.as_pointer(), i64.as_pointer(), byte_p]
    strided = ir.Function(module, ir.FunctionType(ir.IntType(32), arguments), name=f"strided_{fn.name}")
    data, dims = strided.args[1], strided.args[2]
    b = ir.IRBuilder(strided.append_basic_block("entry"))
    x_p, out_p = (b.bitcast(b.load(b.gep(data, [ir.IntType(32)(k)])), real.as_pointer()) for k in (0, 1))
    b.call(loop, [b.load(dims), x_p, out_p])
    b.ret(ir.IntType(32)(0))


class Emit:
    """A function of one float being written: constants, FMAs and intrinsics by name."""

    def __init__(self, module: Any, name: str, width: int) -> None:
        from llvmlite import ir

        self.ir, self.module, self.width = ir, module, width
        self.real = ir.FloatType() if width == 32 else ir.DoubleType()
        fn = ir.Function(module, ir.FunctionType(self.real, [self.real]), name=name)
        fn.linkage = "internal"
        fn.attributes.add("alwaysinline")
        self.fn = fn
        self.b = ir.IRBuilder(fn.append_basic_block("entry"))
        self.x = fn.args[0]

    def c(self, value: Any) -> Any:
        return self.ir.Constant(self.real, float(value))

    def call(self, intrinsic: str, *args: Any) -> Any:
        signature = self.ir.FunctionType(self.real, [self.real] * len(args))
        fn = self.module.declare_intrinsic(intrinsic, [self.real], signature)
        return self.b.call(fn, list(args))

    def fma(self, a: Any, b: Any, c: Any) -> Any:
        return self.call("llvm.fma", a, b, c)

    def keep(self, op: str, a: Any, limit: Any) -> Any:
        """a where `a op limit` or a is NaN, else limit (XLA's clamps keep NaN)."""
        return self.b.select(self.b.fcmp_unordered(op, a, limit), a, limit)


def _exp(module: Any, width: int) -> Any:
    e = Emit(module, f"exp_{width}", width)
    b, x, ir = e.b, e.x, e.ir
    if width == 32:
        z = e.keep("<=", e.keep(">=", x, e.c(LO32)), e.c(HI32))
        n = e.call("llvm.floor", e.fma(z, e.c(LOG2E32), e.c(0.5)))
        n = e.keep("<=", e.keep(">=", n, e.c(-127)), e.c(127))
        r = e.fma(n, e.c(-C2_32), e.fma(n, e.c(-C1_32), z))
        p = e.fma(r, e.c(P32[0]), e.c(P32[1]))
        for coefficient in P32[2:]:
            p = e.fma(p, r, e.c(coefficient))
        y = b.fadd(e.fma(p, b.fmul(r, r), r), e.c(1))
        whole = b.fptosi(b.select(b.fcmp_ordered("==", n, n), n, e.c(0)), ir.IntType(32))
        scale = b.bitcast(
            b.shl(b.add(whole, ir.Constant(ir.IntType(32), 127)), ir.Constant(ir.IntType(32), 23)), e.real
        )
        result = b.fmul(y, scale)
    else:
        z = e.keep(">", e.keep("<", x, e.c(HI64)), e.c(LO64))
        n = e.call("llvm.floor", e.fma(z, e.c(LOG2E64), e.c(0.5)))
        g = e.fma(n, e.c(-C2_64), e.fma(n, e.c(-C1_64), z))
        g2 = b.fmul(g, g)
        p = b.fmul(e.fma(e.fma(g2, e.c(P64[0]), e.c(P64[1])), g2, e.c(P64[2])), g)
        q = e.fma(g2, e.c(Q64[0]), e.c(Q64[1]))
        for term in Q64[2:]:
            q = e.fma(q, g2, e.c(term))
        y = b.fadd(b.fmul(b.fdiv(p, b.fsub(q, p)), e.c(2)), e.c(1))
        i64 = ir.IntType(64)
        whole = b.fptosi(b.select(b.fcmp_ordered("==", n, n), n, e.c(0)), i64)
        quarter = b.ashr(whole, i64(2))
        one = i64(0x3FF0000000000000)
        factor = b.bitcast(b.add(b.shl(quarter, i64(52)), one), e.real)
        rest = b.bitcast(b.add(b.shl(b.sub(whole, b.mul(quarter, i64(3))), i64(52)), one), e.real)
        result = b.fmul(b.fmul(b.fmul(b.fmul(y, factor), factor), factor), rest)
        result = b.select(b.fcmp_ordered("<", x, e.c(LO64)), e.c(0), result)
        result = b.select(b.fcmp_ordered(">", x, e.c(HI64)), e.c(np.inf), result)
    b.ret(b.select(b.fcmp_ordered("==", x, x), result, x))  # NaN: x itself
    return e.fn


def _tanh(module: Any, width: int) -> Any:
    e = Emit(module, f"tanh_{width}", width)
    b, h = e.b, e.x
    single = width == 32
    limit = float(LIMIT32 if single else LIMIT64)
    c = b.select(b.fcmp_ordered("<", h, e.c(-limit)), e.c(-limit), h)
    c = b.select(b.fcmp_ordered(">", c, e.c(limit)), e.c(limit), c)
    c2 = b.fmul(c, c)
    polynomials = []
    for coefficients in (TANH_P32, TANH_Q32) if single else (TANH_P64, TANH_Q64):
        p = e.fma(c2, e.c(coefficients[0]), e.c(coefficients[1]))
        for coefficient in coefficients[2:]:
            p = e.fma(c2, p, e.c(coefficient))
        polynomials.append(p)
    t = b.fdiv(b.fmul(c, polynomials[0]), polynomials[1])
    magnitude = e.call("llvm.fabs", h)
    if single:
        t = b.select(b.fcmp_ordered("<", magnitude, e.c(np.float32(0.0004))), h, t)
    t = b.select(b.fcmp_ordered(">=", magnitude, e.c(20)), e.call("llvm.copysign", e.c(1), h), t)
    b.ret(t)
    return e.fn
