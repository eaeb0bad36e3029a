"""Make hlo.numerics.native_image's image of XLA:CPU's approximations
(src/hlo/numerics/native/approximations-x86_64-v3-linux.bin): each module of
hlo.numerics.native_sources compiled by llvmlite for x86-64 CPUs with AVX2 and FMA (x86-64-v3),
System V calling convention, position-independent, with the pipeline its loop module uses
when it compiles the same IR itself; linked by tools/elf_link.py into one blob. Dev tool: run it
whenever that IR changes (tests/test_native_image.py fails until then). Needs llvmlite.

    python tools/make_native_image.py [--assembly DIR]   (DIR: each module's assembly, to read)"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import llvmlite.binding as llvm

from elf_link import link
from hlo.numerics import native_image, native_sources

TRIPLE = "x86_64-unknown-linux-gnu"
CPU = "x86-64-v3"
# what x86-64-v3 lets LLVM use, as Linux's /proc/cpuinfo names it (lzcnt: "abm")
FEATURES = [
    "cx16", "lahf_lm", "popcnt", "sse4_1", "sse4_2", "ssse3",
    "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave",
]  # fmt: skip
ALIGN = 64
# what x86-64-v4 adds (AVX-512), for the modules hlo.numerics.native_sources.module_features names
CPU_V4 = "x86-64-v4"


def compile_object(text: str, optimize: bool, cpu: str = CPU) -> tuple[bytes, str]:
    """The ELF object and the assembly of one module, as hlo.numerics.llvm_jit compiles it
    (code generator at -O3; LLVM's -O3 pipeline with loop vectorization first when `optimize`)."""
    module = llvm.parse_assembly(text)
    module.triple = TRIPLE
    module.verify()
    machine = llvm.Target.from_triple(TRIPLE).create_target_machine(
        cpu=cpu, features="", opt=3, reloc="pic", codemodel="small"
    )
    if optimize:
        tuning = llvm.create_pipeline_tuning_options(speed_level=3)
        tuning.loop_vectorization = True
        builder = llvm.create_pass_builder(machine, tuning)
        builder.getModulePassManager().run(module, builder)
    return machine.emit_object(module), machine.emit_assembly(module)


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--assembly", type=Path, help="write each module's assembly here")
    options = parser.parse_args()
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    code = bytearray()
    functions: dict[str, int] = {}
    imports: dict[str, list[int]] = {}
    digests: dict[str, str] = {}
    module_features = native_sources.module_features()
    for name, (text, optimize) in native_sources.approximations().items():
        elf, assembly = compile_object(text, optimize, CPU_V4 if name in module_features else CPU)
        linked = link(elf, ALIGN)
        code.extend(b"\0" * (-len(code) % ALIGN))
        base = len(code)
        code.extend(linked.code)
        for function, offset in linked.functions.items():
            functions[f"{name}:{function}"] = base + offset
        for function, slot in linked.slots.items():
            imports.setdefault(function, []).append(base + slot)
        digests[name] = native_image.digest(text)
        print(f"{name}: {len(linked.code)} bytes, {sorted(linked.functions)}, imports {sorted(linked.slots)}")
        if options.assembly:
            options.assembly.mkdir(parents=True, exist_ok=True)
            (options.assembly / f"{name.replace('/', '-')}.s").write_text(assembly)
    header = {"cpu": CPU, "features": FEATURES, "functions": functions, "imports": imports}
    header["module_features"] = module_features
    header["digests"] = digests
    native_image.write(native_image.APPROXIMATIONS, header, bytes(code))
    print(f"{native_image.path(native_image.APPROXIMATIONS)}: {len(code)} bytes of code")


if __name__ == "__main__":
    main()
