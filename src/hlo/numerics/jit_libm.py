"""Calls of a C math function by its address from numba code, with the operands and the result
in registers (a subnormal f32 reaches the function as its bits, as in XLA:CPU's code): what the
compiled tiers' generated code calls for hlo.numerics.libm's functions (hlo.numerics.jit_ops).
Imported by that code only (numba is installed then)."""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


def _caller(width: int, arity: int) -> Any:
    """An intrinsic calling the function at an address on `arity` floats of `width` bits."""
    numba_type = types.float32 if width == 32 else types.float64

    def typer(typingctx: Any, fn: Any, *args: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, values: Any) -> Any:
            t = ir.FloatType() if width == 32 else ir.DoubleType()
            target = builder.inttoptr(values[0], ir.FunctionType(t, [t] * arity).as_pointer())
            return builder.call(target, list(values[1:]))

        return numba_type(fn, *([numba_type] * arity)), codegen

    if arity == 1:

        def one(typingctx: Any, fn: Any, x: Any) -> Any:
            return typer(typingctx, fn, x)

        return intrinsic(one)

    def two(typingctx: Any, fn: Any, x: Any, y: Any) -> Any:
        return typer(typingctx, fn, x, y)

    return intrinsic(two)


# (public: the compiled tiers' generated code calls them, hlo.numerics.jit_ops)
call1_f32, call1_f64 = _caller(32, 1), _caller(64, 1)
call2_f32, call2_f64 = _caller(32, 2), _caller(64, 2)
