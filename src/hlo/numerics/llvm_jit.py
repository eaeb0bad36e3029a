"""Machine code from LLVM IR text for this process, with llvmlite (numba's LLVM binding): what the
C library's call loop (hlo.numerics.libm_loop, where no code made ahead of time runs) and the
loops of XLA:CPU's own approximations (xla_exp_loop, xla_log_llvm, odd_rational_loop) compile.
One lock (LLVM's set-up is not thread-safe); the engines live as long as the process (the code
lives in them). Imported only when llvmlite is installed and such a loop is wanted."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

_lock = threading.Lock()
_engines: list[Any] = []


def compile_ir(
    text: str,
    names: Sequence[str],
    host: bool = True,
    optimize: bool = False,
    symbols: Mapping[str, int | None] | None = None,
) -> dict[str, int]:
    """The addresses of the functions `names` of the module `text`, compiled for this CPU (`host`:
    its vector registers and FMA; else the baseline of its architecture), after LLVM's -O3
    pipeline with loop vectorization when `optimize` (only the code generator otherwise: ~40 ms
    against ~120 ms); `symbols`: the addresses of functions the IR declares but does not define
    (C functions, by the names hlo.numerics.native_image's imports use). The IR asks for no
    fast-math, so neither changes a bit of the results."""
    import llvmlite.binding as llvm

    with _lock:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        for name, address in (symbols or {}).items():
            if address is None:
                raise RuntimeError(f"{name}: no such C function here")
            llvm.add_symbol(name, address)
        parsed = llvm.parse_assembly(text)
        parsed.verify()
        target = llvm.Target.from_default_triple()
        if host:
            features = llvm.get_host_cpu_features().flatten()
            machine = target.create_target_machine(cpu=llvm.get_host_cpu_name(), features=features, opt=3)
        else:
            machine = target.create_target_machine()
        if optimize:
            tuning = llvm.create_pipeline_tuning_options(speed_level=3)
            tuning.loop_vectorization = True
            builder = llvm.create_pass_builder(machine, tuning)
            builder.getModulePassManager().run(parsed, builder)
        engine = llvm.create_mcjit_compiler(parsed, machine)
        engine.finalize_object()
        _engines.append(engine)
        return {name: int(engine.get_function_address(name)) for name in names}


def counted_loop(fn: Any, n: Any, step: Callable[[Any, Any], None]) -> None:
    """Write `fn`'s body as `for i in range(n): step(builder, i)`, then return (void): the loop
    each module above wraps its element function in (blocks entry, body, done; an i64 `i`)."""
    from llvmlite import ir

    i64 = ir.IntType(64)
    entry, body, done = (fn.append_basic_block(name) for name in ("entry", "body", "done"))
    b = ir.IRBuilder(entry)
    b.cbranch(b.icmp_signed(">", n, i64(0)), body, done)
    b = ir.IRBuilder(body)
    i = b.phi(i64)
    i.add_incoming(i64(0), entry)
    step(b, i)
    after = b.add(i, i64(1))
    i.add_incoming(after, body)
    b.cbranch(b.icmp_signed("<", after, n), body, done)
    ir.IRBuilder(done).ret_void()
