"""Benchmark: parse and print an HLO module of N instructions (default 100,000).

The module is a chain of elementwise ops, broadcasts, reshapes, dots and get-tuple-elements over
a few parameters, each instruction with metadata, as real dumps have. Run by hand:

    python benchmarks/bench_text.py [N]
"""

from __future__ import annotations

import sys
import time

from hlo.text.parser import parse_module


def synthetic_module(n: int) -> str:
    lines = [
        "HloModule bench",
        "",
        "ENTRY main {",
        "  p0 = f32[16,16]{1,0} parameter(0)",
        "  p1 = f32[16,16]{1,0} parameter(1)",
        "  t = (f32[16,16]{1,0}, f32[16,16]{1,0}) tuple(p0, p1)",
    ]
    prev = "p0"
    ops = ["add", "multiply", "subtract", "maximum"]
    for k in range(n - 4):
        name = f"v{k}"
        kind = k % 8
        md = f', metadata={{op_name="jit(f)/op{k}" source_file="model.py" source_line={k % 997}}}'
        f = "f32[16,16]{1,0}"
        if kind == 5:
            dims = "lhs_contracting_dims={1}, rhs_contracting_dims={0}"
            line = f"  {name} = {f} dot({f} {prev}, {f} p1), {dims}{md}"
        elif kind == 6:
            line = f"  {name} = {f} get-tuple-element(({f}, {f}) t), index={k % 2}{md}"
        elif kind == 7:
            line = f"  {name} = f32[16,16]{{1,0}} transpose(f32[16,16]{{1,0}} {prev}), dimensions={{1,0}}{md}"
        else:
            op = ops[kind % 4]
            line = f"  {name} = f32[16,16]{{1,0}} {op}(f32[16,16]{{1,0}} {prev}, f32[16,16]{{1,0}} p1){md}"
        lines.append(line)
        prev = name
    lines.append(f"  ROOT r = f32[16,16]{{1,0}} negate(f32[16,16]{{1,0}} {prev})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    text = synthetic_module(n)
    t0 = time.perf_counter()
    module = parse_module(text)
    t1 = time.perf_counter()
    printed = module.to_text("long")
    t2 = time.perf_counter()
    parse_module(printed)
    t3 = time.perf_counter()
    count = sum(len(c.instructions) for c in module.computations)
    print(f"{count} instructions, {len(text) / 1e6:.1f} MB of text")
    print(f"parse {t1 - t0:.2f} s, print {t2 - t1:.2f} s, parse of the printed text {t3 - t2:.2f} s")


if __name__ == "__main__":
    main()
