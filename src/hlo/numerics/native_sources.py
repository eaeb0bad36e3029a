"""What hlo.numerics.native_image's approximation image holds: each module's name there, its LLVM
IR (the IR the loops compile from with llvmlite when no image runs), whether LLVM's
optimization pipeline runs on it, and the CPU features some modules need beyond the image's.
Read by tools/make_native_image.py, which makes the image, and by the test that the image is
the IR of today's code. Needs llvmlite."""

from __future__ import annotations

from . import (
    fma_loop,
    odd_rational_loop,
    xla_erf,
    xla_exp_loop,
    xla_log_llvm,
    xla_log_loop,
    xla_rsqrt,
    xla_tanh,
)


def approximations() -> dict[str, tuple[str, bool]]:
    """module name -> (IR text, optimize), as each loop module compiles it."""
    found: dict[str, tuple[str, bool]] = {}
    for function in ("exp", "expm1", "logistic", "tanh"):
        for width in (32, 64):
            name = f"{function}_{width}"
            found[xla_exp_loop.module(name)] = (xla_exp_loop.module_ir(name), True)
    for op in ("log", "log-plus-one"):
        for width in (32, 64):
            found[xla_log_loop.module(op, width)] = (xla_log_llvm.module_ir(op, width), True)
    for width in (32, 64):
        found[fma_loop.module(width)] = (fma_loop.module_ir(width), True)
    for form in (*xla_tanh.FORMS.values(), xla_erf.F32):
        found[odd_rational_loop.module(form)] = (odd_rational_loop.loop_ir(form), False)
    for kind, width in xla_rsqrt.FORMS:
        found[xla_rsqrt.module(kind, width)] = (xla_rsqrt.module_ir(kind, width), True)
    return found


def module_features() -> dict[str, list[str]]:
    """The CPU features (Linux's names) a module needs beyond the image's: those modules are
    compiled for x86-64-v4 (AVX-512) and left out where the CPU lacks them."""
    wide = [kind for kind, width in xla_rsqrt.FORMS if width == 64]
    return {xla_rsqrt.module(kind, 64): list(xla_rsqrt.AVX512) for kind in wide}
