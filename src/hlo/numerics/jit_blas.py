"""Calls from generated loops (hlo.numerics.jit_linear) into C functions by address: NumPy's
own BLAS routines, whose addresses come in the loop's `fp` argument (an address compiled into
the code would go stale in numba's on-disk cache). Imported by generated code only (numba)."""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _llvm_arguments(context: Any, builder: Any, tuple_type: Any, value: Any) -> tuple[list[Any], list[Any]]:
    """The tuple's members and their C types: an integer of its own width (addresses are
    integers too: the C calling conventions pass pointers as such), a float or double."""
    values = cgutils.unpack_tuple(builder, value, len(tuple_type))  # type: ignore[no-untyped-call]
    return values, [context.get_value_type(t) for t in tuple_type]


@intrinsic
def blas_void(typingctx: Any, fn: Any, arguments: Any) -> Any:
    """Call the C function at address `fn` with the members of the tuple `arguments`."""
    sig = types.none(fn, arguments)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        values, c_types = _llvm_arguments(context, builder, signature.args[1], args[1])
        target = builder.inttoptr(args[0], ir.FunctionType(ir.VoidType(), c_types).as_pointer())
        builder.call(target, values)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def blas_value(typingctx: Any, fn: Any, arguments: Any, like: Any) -> Any:
    """Call the C function at address `fn`, which returns a value of `like`'s type."""
    sig = like(fn, arguments, like)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        values, c_types = _llvm_arguments(context, builder, signature.args[1], args[1])
        result = context.get_value_type(signature.return_type)
        target = builder.inttoptr(args[0], ir.FunctionType(result, c_types).as_pointer())
        return builder.call(target, values)

    return sig, codegen
