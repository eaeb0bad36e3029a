"""hlo.numerics.libm_loop's call loops as machine code made ahead of time, for x86-64 Linux: one
call of a C math function per element by its address, operands and result in registers. Mapped
executable once (a page, written, then made read-only and executable), they start in
microseconds, where llvmlite takes ~50 ms to load and compile the same IR: that was most of a
first result of sin over 4M floats (83 ms against XLA:CPU's 65), and without llvmlite the calls
went through ctypes at ~0.3 us an element.

The bytes are LLVM's code for libm_loop.loop_ir, compiled for the baseline x86-64 CPU,
position-independent (tools/make_native_loops.py makes them and prints their assembly, which
is kept beside each). Elsewhere (other CPUs or calling conventions), where the system
refuses executable memory or with `HLO_NATIVE_CODE=off`, `address` gives None and libm_loop
compiles with llvmlite."""

from __future__ import annotations

import functools

from . import executable_memory

# (width in bits, operands) -> `void loop(function, n, x[, y], out)`, System V x86-64
LOOPS: dict[tuple[int, int], bytes] = {
    # f32, 1 operand(s), 65 bytes: testq %rsi, %rsi; jle .LBB0_4; pushq %r15; pushq %r14; pushq
    #   %r13; pushq %r12; pushq %rbx; movq %rcx, %rbx; movq %rdx, %r14; movq %rsi, %r15; movq %rdi,
    #   %r12; xorl %r13d, %r13d; movss (%r14,%r13,4), %xmm0; callq *%r12; movss %xmm0,
    #   (%rbx,%r13,4); incq %r13; cmpq %r15, %r13; jl .LBB0_2; popq %rbx; popq %r12; popq %r13; popq
    #   %r14; popq %r15; retq
    (32, 1): bytes.fromhex(
        "4885f67e3b4157415641554154534889cb4989d64989f74989fc4531ed0f1f00f3430f1004ae41ffd4f3420f1104ab49"
        "ffc54d39fd7ce95b415c415d415e415fc3"
    ),
    # f32, 2 operand(s), 91 bytes: testq %rsi, %rsi; jle .LBB0_4; pushq %rbp; pushq %r15; pushq
    #   %r14; pushq %r13; pushq %r12; pushq %rbx; pushq %rax; movq %r8, %rbx; movq %rcx, %r14; movq
    #   %rdx, %r15; movq %rsi, %r12; movq %rdi, %r13; xorl %ebp, %ebp; movss (%r15,%rbp,4), %xmm0;
    #   movss (%r14,%rbp,4), %xmm1; callq *%r13; movss %xmm0, (%rbx,%rbp,4); incq %rbp; cmpq %r12,
    #   %rbp; jl .LBB0_2; addq $8, %rsp; popq %rbx; popq %r12; popq %r13; popq %r14; popq %r15; popq
    #   %rbp; retq
    (32, 2): bytes.fromhex(
        "4885f67e5555415741564155415453504c89c34989ce4989d74989f44989fd31ed6666666666662e0f1f840000000000"
        "f3410f1004aff3410f100cae41ffd5f30f1104ab48ffc54c39e57ce44883c4085b415c415d415e415f5dc3"
    ),
    # f64, 1 operand(s), 65 bytes: testq %rsi, %rsi; jle .LBB0_4; pushq %r15; pushq %r14; pushq
    #   %r13; pushq %r12; pushq %rbx; movq %rcx, %rbx; movq %rdx, %r14; movq %rsi, %r15; movq %rdi,
    #   %r12; xorl %r13d, %r13d; movsd (%r14,%r13,8), %xmm0; callq *%r12; movsd %xmm0,
    #   (%rbx,%r13,8); incq %r13; cmpq %r15, %r13; jl .LBB0_2; popq %rbx; popq %r12; popq %r13; popq
    #   %r14; popq %r15; retq
    (64, 1): bytes.fromhex(
        "4885f67e3b4157415641554154534889cb4989d64989f74989fc4531ed0f1f00f2430f1004ee41ffd4f2420f1104eb49"
        "ffc54d39fd7ce95b415c415d415e415fc3"
    ),
    # f64, 2 operand(s), 91 bytes: testq %rsi, %rsi; jle .LBB0_4; pushq %rbp; pushq %r15; pushq
    #   %r14; pushq %r13; pushq %r12; pushq %rbx; pushq %rax; movq %r8, %rbx; movq %rcx, %r14; movq
    #   %rdx, %r15; movq %rsi, %r12; movq %rdi, %r13; xorl %ebp, %ebp; movsd (%r15,%rbp,8), %xmm0;
    #   movsd (%r14,%rbp,8), %xmm1; callq *%r13; movsd %xmm0, (%rbx,%rbp,8); incq %rbp; cmpq %r12,
    #   %rbp; jl .LBB0_2; addq $8, %rsp; popq %rbx; popq %r12; popq %r13; popq %r14; popq %r15; popq
    #   %rbp; retq
    (64, 2): bytes.fromhex(
        "4885f67e5555415741564155415453504c89c34989ce4989d74989f44989fd31ed6666666666662e0f1f840000000000"
        "f2410f1004eff2410f100cee41ffd5f20f1104eb48ffc54c39e57ce44883c4085b415c415d415e415f5dc3"
    ),
}

_ALIGN = 64


def address(width: int, arity: int) -> int | None:
    """The address of the loop for floats of `width` bits and `arity` operands, or None where
    the machine code cannot run here."""
    mapped = _mapped()
    return None if mapped is None else mapped.get((width, arity))


@functools.cache
def _mapped() -> dict[tuple[int, int], int] | None:
    """Every loop in one mapping, each on a 64-byte boundary; None if it cannot run here."""
    offsets, code = {}, bytearray()
    for key, loop in LOOPS.items():
        offsets[key] = len(code)
        code.extend(loop + b"\0" * (-len(loop) % _ALIGN))
    base = executable_memory.map_code(bytes(code))
    return None if base is None else {key: base + offset for key, offset in offsets.items()}
