"""Compile hlo.numerics.libm_loop's call loops ahead of time for x86-64 (System V calling
convention: Linux) and print them as the byte strings of hlo.numerics.native_loops. Dev tool:
run it when loop_ir changes (needs llvmlite), and paste its output into native_loops.LOOPS.

The loops are compiled for the baseline x86-64 CPU (no AVX), position-independent; the tool
refuses code that has relocations (it must run wherever it is mapped) and prints the assembly
for review."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import llvmlite.binding as llvm

from elf_link import section_bytes, sections
from hlo.numerics.libm_loop import loop_ir

TRIPLE = "x86_64-unknown-linux-gnu"


def compile_loop(width: int, arity: int) -> tuple[bytes, str]:
    module = llvm.parse_assembly(loop_ir(width, arity))
    module.triple = TRIPLE
    module.verify()
    machine = llvm.Target.from_triple(TRIPLE).create_target_machine(
        cpu="x86-64", features="", opt=2, reloc="pic", codemodel="small"
    )
    elf = machine.emit_object(module)
    relocations = [s.name for s in sections(elf) if s.name.startswith(".rel") and s.name.endswith(".text")]
    if relocations:  # (the .eh_frame's do not matter)
        raise SystemExit(f"loop f{width} x{arity}: relocations {relocations}: not position-independent")
    return section_bytes(elf, ".text"), machine.emit_assembly(module)


def main() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    print("LOOPS = {")
    for width in (32, 64):
        for arity in (1, 2):
            code, assembly = compile_loop(width, arity)
            body = [
                line for line in assembly.splitlines() if line.startswith("\t") and not line.startswith("\t.")
            ]
            text = f"f{width}, {arity} operand(s), {len(code)} bytes: " + "; ".join(
                " ".join(b.split()) for b in body
            )
            print("\n".join(textwrap.wrap(text, 100, initial_indent="    # ", subsequent_indent="    #   ")))
            hexed = code.hex()
            pieces = "\n".join(f'        "{hexed[k : k + 96]}"' for k in range(0, len(hexed), 96))
            print(f"    ({width}, {arity}): bytes.fromhex(\n{pieces}\n    ),")
    print("}")


if __name__ == "__main__":
    main()
