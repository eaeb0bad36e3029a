"""XLA:CPU's rsqrt of f32 and f64 (and of the narrow floats, computed in f32): on x86-64 it is
not 1/sqrt(x) but the CPU's own estimate refined by Newton steps, as XLA's rsqrt intrinsic
writes it. The estimate is the CPU's instruction (rsqrtss/rsqrtps for f32 with AVX, whose
table differs between vendors; vrsqrt14pd for f64 with AVX-512), so hlo executes that same
instruction: a loop of machine code made ahead of time (hlo.numerics.native_image), else
compiled by llvmlite, gives XLA:CPU's bits on the same CPU.

Each step is `h = fma(x*y, y, -1); y = fma(-y/2, h, y)` (LLVM fuses XLA's multiply-adds); one
step for f32 on AMD CPUs, two on the others and for f64 (XLA tells AMD's more accurate
estimate apart). Where x < the smallest normal float (zero, subnormals, negatives) or x is
+inf, the estimate itself is the result (inf, -inf, NaN, 0). Without AVX (f32), without
AVX-512 (f64) or off x86-64, XLA:CPU computes 1/sqrt(x) in two roundings, and so does hlo;
also where neither the image nor llvmlite runs (docs/SEMANTICS.md). Measured against
XLA:CPU bit for bit (exact_rsqrt.npz), f32 widths 1-8 of the estimate giving the same bits."""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import platform
from typing import Any

import numpy as np

from . import native_image, threads

SPLIT_ELEMENTS = 1 << 19  # per thread
AVX512 = ("avx512f", "avx512vl")  # what vrsqrt14pd on two lanes needs
FORMS = (("estimate1", 32), ("estimate2", 32), ("estimate2", 64))  # the estimates' loops


def form(dtype: np.dtype) -> str:
    """How XLA:CPU computes rsqrt of `dtype` (float32 or float64) on this CPU: "estimate1" or
    "estimate2" (the estimate and its Newton steps), or "divide" (1/sqrt(x))."""
    flags = native_image.cpu_flags()
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return "divide"
    if np.dtype(dtype) == np.float64:
        return "estimate2" if set(AVX512) <= flags else "divide"
    if "avx" not in flags or "fma" not in flags:
        return "divide"
    return "estimate1" if native_image.cpu_vendor() == "AuthenticAMD" else "estimate2"


def machine() -> str:
    """The CPU's vendor and the forms here: what XLA:CPU's rsqrt bits depend on (fixtures record
    it, tools/rsqrt_cases.py)."""
    forms = " ".join(f"{t}={form(np.dtype(t))}" for t in ("float32", "float64"))
    return f"{native_image.cpu_vendor()} {forms}"


def rsqrt(x: np.ndarray) -> np.ndarray:
    """XLA:CPU's rsqrt of a real f32 or f64 array (module docstring), in the CPU's current
    flush-to-zero mode (XLA:CPU's estimate reads subnormals as zero)."""
    kind = form(x.dtype)
    loop = None if kind == "divide" else _loop(kind, x.dtype.itemsize * 8)
    if loop is None:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(x.dtype.type(1) / np.sqrt(x))
    return threads.unary_loop(loop[0], x, SPLIT_ELEMENTS)


def strided_address(dtype: str) -> int:
    """The address of the loop with the signature of NumPy's strided loops, for the compiled
    tiers (hlo.numerics.jit_numba; they run only where llvmlite is installed)."""
    found = _loop(form(np.dtype(dtype)), np.dtype(dtype).itemsize * 8)
    assert found is not None
    return found[1]


def module(kind: str, width: int) -> str:
    """The module's name in the native image."""
    return f"xla_rsqrt/{kind}_{width}"


@functools.cache
def _loop(kind: str, width: int) -> tuple[Any, int] | None:
    """`loop(n, x, out)` as a ctypes function and the address of its strided form; None where
    neither the image nor llvmlite gives it."""
    names = [f"loop_rsqrt_{width}", f"strided_rsqrt_{width}"]
    found = native_image.functions(native_image.APPROXIMATIONS, module(kind, width), names)
    if found is None:
        if importlib.util.find_spec("llvmlite") is None:
            return None
        from . import llvm_jit

        found = llvm_jit.compile_ir(module_ir(kind, width), names, optimize=True)
    pointer = ctypes.c_void_p
    loop = ctypes.CFUNCTYPE(None, ctypes.c_int64, pointer, pointer)(found[names[0]])
    return loop, found[names[1]]


def module_ir(kind: str, width: int) -> str:
    """The LLVM IR of `loop_rsqrt_<width>` and `strided_rsqrt_<width>` for `kind` (form())."""
    from llvmlite import ir

    from .xla_exp_loop import Emit, loop_of

    module = ir.Module(name=f"hlo_xla_rsqrt_{kind}_{width}")
    e = Emit(module, f"rsqrt_{width}", width)
    b, x = e.b, e.x
    if kind == "divide":
        b.ret(b.fdiv(e.c(1), e.call("llvm.sqrt", x)))
        loop_of(module, e.fn, width)
        return str(module)
    guess = _estimate(e, width)
    y = guess
    for _ in range(1 if kind == "estimate1" else 2):
        h = e.fma(b.fmul(x, y), y, e.c(-1))
        y = e.fma(b.fmul(y, e.c(-0.5)), h, y)
    smallest = float(np.finfo(np.float32 if width == 32 else np.float64).tiny)
    raw = b.or_(b.fcmp_ordered("<", x, e.c(smallest)), b.fcmp_ordered("==", x, e.c(np.inf)))
    b.ret(b.select(raw, guess, y))
    loop_of(module, e.fn, width)
    return str(module)


def _estimate(e: Any, width: int) -> Any:
    """The CPU's estimate of 1/sqrt(x): rsqrtss (f32) or vrsqrt14pd on two lanes (f64), x in
    lane 0."""
    ir, b = e.ir, e.b
    lanes = 4 if width == 32 else 2
    vector = ir.VectorType(e.real, lanes)
    packed = b.insert_element(ir.Constant(vector, None), e.x, ir.IntType(32)(0))
    if width == 32:
        signature = ir.FunctionType(vector, [vector])
        fn = _declare(e.module, "llvm.x86.sse.rsqrt.ss", signature)
        estimate = b.call(fn, [packed])
    else:
        signature = ir.FunctionType(vector, [vector, vector, ir.IntType(8)])
        fn = _declare(e.module, "llvm.x86.avx512.rsqrt14.pd.128", signature)
        estimate = b.call(fn, [packed, ir.Constant(vector, [0.0, 0.0]), ir.IntType(8)(-1)])
    return b.extract_element(estimate, ir.IntType(32)(0))


def _declare(module: Any, name: str, signature: Any) -> Any:
    from llvmlite import ir

    existing = module.globals.get(name)
    return existing if existing is not None else ir.Function(module, signature, name=name)
