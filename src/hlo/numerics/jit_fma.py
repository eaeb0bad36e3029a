"""A fused multiply-add in numba code (LLVM's `llvm.fma`, one rounding): what the compiled
tiers' generated code uses where XLA:CPU's approximations fuse a multiply and an add, the
same bits as hlo.numerics.fma gives the interpreter. Imported by that code only (numba is
installed then)."""

from __future__ import annotations

from typing import Any

from numba import types
from numba.extending import intrinsic


def _fused(numba_type: Any) -> Any:
    def fused(typingctx: Any, a: Any, b: Any, c: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, values: Any) -> Any:
            return builder.fma(*values)

        return numba_type(numba_type, numba_type, numba_type), codegen

    return intrinsic(fused)


# (public: generated code calls them, hlo.numerics.jit_ops)
fma_f32, fma_f64 = _fused(types.float32), _fused(types.float64)
