"""YNNPACK's exp, expm1, tanh and logistic (hlo.numerics.ynn_exp) as machine code for large
arrays: the same steps written as LLVM IR, `llvm.fma` where YNNPACK's kernels have an FMA, in a
loop LLVM vectorizes (each lane the same scalar steps: the same bits), compiled by llvmlite for
this CPU when first needed (~0.2 s) and split between the thread's cores. NumPy's emulation of
the FMAs takes ~15 ns an element; this, under 1. Subnormals are the CPU's flush-to-zero mode's
(the caller flushes inputs and results besides). Where llvmlite is not installed the NumPy forms
run."""

from __future__ import annotations

import ctypes
import functools
import importlib.util
from typing import Any

import numpy as np

from . import threads
from .xla_exp_loop import Emit, loop_of
from .ynn_exp import F32 as _F32
from .ynn_exp import F64 as _F64

MIN_ELEMENTS = 1 << 14  # below: NumPy's passes (a first compilation costs ~0.2 s)
SPLIT_ELEMENTS = 1 << 19  # per thread


def takes(size: int) -> bool:
    return size >= MIN_ELEMENTS and importlib.util.find_spec("llvmlite") is not None


def apply(name: str, x: np.ndarray) -> np.ndarray:
    """`name` ("exp", "expm1", "tanh" or "logistic") of a contiguous f32 or f64 array."""
    return threads.unary_loop(_compiled(f"{name}_{x.dtype.itemsize * 8}"), x, SPLIT_ELEMENTS)


@functools.cache
def _compiled(name: str) -> Any:
    from . import llvm_jit

    found = llvm_jit.compile_ir(_module_ir(name), [f"loop_{name}"], optimize=True)
    pointer = ctypes.c_void_p
    return ctypes.CFUNCTYPE(None, ctypes.c_int64, pointer, pointer)(found[f"loop_{name}"])


def _module_ir(name: str) -> str:
    from llvmlite import ir

    function, width_text = name.split("_")
    width = int(width_text)
    module = ir.Module(name=f"hlo_ynn_{name}")
    exp, expm1 = _exp_minus(module, width, 0), _exp_minus(module, width, 1)
    e = Emit(module, name, width)
    b, x = e.b, e.x
    if function == "exp":
        y = b.call(exp, [x])
    elif function == "expm1":
        y = b.call(expm1, [x])
    elif function == "tanh":
        twice = b.fmul(x, e.c(2))
        cap = e.c((_F32 if width == 32 else _F64)["tanh_cap"])
        capped = b.select(b.fcmp_ordered(">", twice, cap), cap, twice)  # (NaN stays)
        m = b.call(expm1, [capped])
        y = b.fadd(b.fdiv(m, b.fadd(m, e.c(2))), e.c(0))  # (-0 is +0)
    else:  # logistic: the negate in exp's input, a NaN keeps its sign
        negated = b.select(b.fcmp_ordered("==", x, x), b.fneg(x), x)
        y = b.fdiv(e.c(1), b.fadd(e.c(1), b.call(exp, [negated])))
    b.ret(y)
    loop_of(module, e.fn, width)
    return str(module)


def _exp_minus(module: Any, width: int, minus: int) -> Any:
    """exp(x) - minus, YNNPACK's steps (hlo.numerics.ynn_exp.exp_minus)."""
    k = _F32 if width == 32 else _F64
    e = Emit(module, f"exp_minus{minus}_{width}", width)
    b, x, ir = e.b, e.x, e.ir
    integer = ir.IntType(width)
    clamped = b.select(b.fcmp_ordered("<", x, e.c(k["lo"])), e.c(k["lo"]), x)
    clamped = b.select(b.fcmp_ordered(">", clamped, e.c(k["hi"])), e.c(k["hi"]), clamped)
    rounded = b.fsub(b.fadd(b.fmul(clamped, e.c(k["log2e"])), e.c(k["round"])), e.c(k["round"]))
    r = e.fma(rounded, e.c(-k["ln2_hi"]), clamped)
    r = e.fma(rounded, e.c(-k["ln2_lo"]), r)
    biased = b.fadd(rounded, e.c(2.0 ** k["bits"] + k["bias"]))
    scale = b.bitcast(b.shl(b.bitcast(biased, integer), integer(k["bits"])), e.real)
    r2 = b.fmul(r, r)
    p = k["p"]
    y0, y1 = e.c(p[0]), e.c(p[1])
    for j in range(2, len(p), 2):
        y0 = e.fma(r2, y0, e.c(p[j]))
        if j + 1 < len(p):
            y1 = e.fma(r2, y1, e.c(p[j + 1]))
    poly = e.fma(r, y1, y0) if len(p) % 2 else e.fma(r, y0, y1)
    small = e.fma(r2, poly, r)
    y = e.fma(scale, small, b.fsub(scale, e.c(minus)))
    y = b.select(b.fcmp_ordered("==", scale, e.c(np.inf)), scale, y)
    b.ret(b.select(b.fcmp_ordered("==", x, x), y, x))  # NaN: x itself
    return e.fn
