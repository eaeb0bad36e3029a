"""The LLVM IR of XLA:CPU's log and log1p (hlo.numerics.xla_log), built with llvmlite (numba's
LLVM binding) from the same operations XLA:CPU's IR holds: `llvm.fma` where LLVM fused a multiply
and an add in XLA:CPU's code, the other multiplies and adds single (no fast-math flags, so LLVM
fuses nothing more). One scalar function per op and type (`xla_log_f32`, ...; the compiled tiers
call them by address, as they call the C library's functions) and a loop over arrays of each,
which LLVM vectorizes (hlo.numerics.xla_log_loop runs them: made ahead of time, or compiled from
this IR). Subnormal inputs are flushed by their bits (whatever the CPU's mode), as XLA:CPU's
flush-to-zero mode reads them. Imported only when llvmlite is installed."""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir

from . import llvm_jit, xla_log

IMPORTS = ("hlo_libm_log_f64",)  # the C functions the code calls (hlo.numerics.native_image)


class _Emit:
    """Writes one type's functions into a module."""

    def __init__(self, module: ir.Module, width: int) -> None:
        self.module, self.width = module, width
        self.real = ir.FloatType() if width == 32 else ir.DoubleType()
        self.int = ir.IntType(width)
        suffix = "f32" if width == 32 else "f64"
        self.fma_fn = ir.Function(module, ir.FunctionType(self.real, [self.real] * 3), f"llvm.fma.{suffix}")
        self.fabs_fn = ir.Function(module, ir.FunctionType(self.real, [self.real]), f"llvm.fabs.{suffix}")

    def k(self, value: Any) -> ir.Constant:
        """A constant of the type, from a NumPy scalar (exactly: f32 values are doubles too)."""
        return ir.Constant(self.real, float(value))

    def bits(self, b: ir.IRBuilder, value: int) -> Any:
        return b.bitcast(ir.Constant(self.int, value), self.real)

    def fma(self, b: ir.IRBuilder, x: Any, y: Any, z: Any) -> Any:
        return b.call(self.fma_fn, [x, y, z])

    def function(self, name: str) -> tuple[ir.Function, ir.IRBuilder]:
        fn = ir.Function(self.module, ir.FunctionType(self.real, [self.real]), name=name)
        return fn, ir.IRBuilder(fn.append_basic_block("entry"))

    def flushed(self, b: ir.IRBuilder, x: Any) -> Any:
        """x, or a zero of its sign if x is subnormal (by its bits)."""
        i = b.bitcast(x, self.int)
        sign_bit = 1 << (self.width - 1)
        magnitude = b.and_(i, ir.Constant(self.int, sign_bit - 1))
        tiny = 0x00800000 if self.width == 32 else 0x0010000000000000
        subnormal = b.icmp_unsigned("<", magnitude, ir.Constant(self.int, tiny))
        return b.bitcast(b.select(subnormal, b.and_(i, ir.Constant(self.int, sign_bit)), i), self.real)

    def log_f32(self) -> ir.Function:
        """xla_log.log_f32's operations (module docstring there)."""
        fn, b = self.function("xla_log_f32")
        x = self.flushed(b, fn.args[0])
        m = b.select(b.fcmp_ordered(">", x, self.k(xla_log.TINY32)), x, self.k(xla_log.TINY32))
        i = b.bitcast(m, self.int)
        mantissa = b.bitcast(b.or_(b.and_(i, self.int(0x007FFFFF)), self.int(0x3F000000)), self.real)
        low = b.fcmp_ordered("<", mantissa, self.k(xla_log.SQRT_HALF32))
        exponent = b.sub(b.sub(b.lshr(i, self.int(23)), self.int(126)), b.zext(low, self.int))
        e = b.sitofp(exponent, self.real)
        r = b.fadd(b.fsub(mantissa, self.k(1)), b.select(low, mantissa, self.k(0)))
        z = b.fmul(r, r)
        r3 = b.fmul(z, r)
        parts = [
            self.fma(b, self.fma(b, r, self.k(p), self.k(q)), r, self.k(s)) for p, q, s in xla_log.LOG_P32
        ]
        p = self.fma(b, self.fma(b, parts[0], r3, parts[1]), r3, parts[2])
        tail = self.fma(b, p, r3, b.fmul(e, self.k(xla_log.LN2_LO32)))
        near = self.fma(b, z, self.k(-0.5), r)
        result = self.fma(b, e, self.k(xla_log.LN2_HI32), b.fadd(near, tail))
        result = b.select(b.fcmp_ordered(">", x, self.k(0)), result, self.bits(b, 0xFFFFFFFF))
        result = b.select(b.fcmp_ordered("==", x, self.k(0)), self.k(-np.inf), result)
        b.ret(b.select(b.fcmp_ordered("==", x, self.k(np.inf)), self.k(np.inf), result))
        return fn

    def log_f64(self) -> ir.Function:
        """The C library's log of the flushed input (called by name: IMPORTS); a NaN of a
        non-NaN input made positive."""
        fn, b = self.function("xla_log_f64")
        x = self.flushed(b, fn.args[0])
        c_log = ir.Function(self.module, ir.FunctionType(self.real, [self.real]), IMPORTS[0])
        result = b.call(c_log, [x])
        odd = b.and_(b.fcmp_unordered("uno", result, result), b.fcmp_ordered("ord", x, x))
        b.ret(b.select(odd, self.bits(b, 0x7FF8000000000000), result))
        return fn

    def log1p(self, log: ir.Function) -> ir.Function:
        """xla_log._log1p's operations, the log branch by `log`."""
        name = f"xla_log1p_f{self.width}"
        fn, b = self.function(name)
        small, p, q = (
            (xla_log.LOG1P_SMALL32, xla_log.LOG1P_P32, xla_log.LOG1P_Q32)
            if self.width == 32
            else (xla_log.LOG1P_SMALL64, xla_log.LOG1P_P64, xla_log.LOG1P_Q64)
        )
        x = self.flushed(b, fn.args[0])
        is_near = b.fcmp_ordered("<", b.call(self.fabs_fn, [x]), self.k(small))
        if self.width == 64:  # (the C library's log: called only where it is used)
            near_block, far_block = fn.append_basic_block("near"), fn.append_basic_block("far")
            b.cbranch(is_near, near_block, far_block)
            b = ir.IRBuilder(far_block)
            b.ret(b.call(log, [b.fadd(x, self.k(1))]))
            b = ir.IRBuilder(near_block)
        num = self.fma(b, self.k(p[0]), x, self.k(p[1]))
        for c in p[2:]:
            num = self.fma(b, num, x, self.k(c))
        den = b.fadd(x, self.k(q[0]))
        for c in q[1:]:
            den = self.fma(b, den, x, self.k(c))
        x2 = b.fmul(x, x)
        y = self.fma(b, x2, self.k(-0.5), b.fmul(b.fmul(x, x2), b.fdiv(num, den)))
        near = b.fadd(x, y)
        # (f32: both branches and a select, which LLVM vectorizes)
        b.ret(near if self.width == 64 else b.select(is_near, near, b.call(log, [b.fadd(x, self.k(1))])))
        return fn

    def loop(self, scalar: ir.Function) -> None:
        """`loop_<scalar>(n, x, out)`: out[i] = scalar(x[i])."""
        i64, pointer = ir.IntType(64), self.real.as_pointer()
        fn = ir.Function(
            self.module, ir.FunctionType(ir.VoidType(), [i64, pointer, pointer]), f"loop_{scalar.name}"
        )
        n, x, out = fn.args
        for a in (x, out):
            a.add_attribute("noalias")

        def step(b: ir.IRBuilder, i: Any) -> None:
            b.store(b.call(scalar, [b.load(b.gep(x, [i]))]), b.gep(out, [i]))

        llvm_jit.counted_loop(fn, n, step)


def module_ir(op: str, width: int) -> str:
    """The IR of op's ("log", "log-plus-one") scalar function `xla_log_f32` (..., `xla_log1p_f64`)
    and its loop `loop_xla_log_f32`, for floats of `width` bits; f64 calls the C library's log
    as IMPORTS[0]."""
    module = ir.Module(name=f"hlo_xla_{op}_{width}")
    emit = _Emit(module, width)
    log = emit.log_f32() if width == 32 else emit.log_f64()
    emit.loop(log if op == "log" else emit.log1p(log))
    return str(module)
