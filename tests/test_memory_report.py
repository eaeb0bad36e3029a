"""`hlo memory`: buffer sizes held against XLA:CPU's own buffer assignment for the same optimized
modules (tests/golden/dumps_proto/*.buffer-assignment.txt, dumped with --xla_dump_to), and the
padding, totals and peak of tiled layouts from the layout rules' worked numbers.

Comparable with XLA: each value's size, the parameter allocations and the output allocation.
Not comparable: XLA's total ("Total bytes" of the memory-usage report) is the sum of its
allocations after buffer sharing (values with disjoint lifetimes share an allocation, a while
loop's values alias its operand); hlo lists every value on its own, so its total is the sum of the
values' sizes, which the test checks instead. XLA also lists values of called computations
(reducers' thread-local scalars), which the entry report leaves out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hlo.cli.main import main
from hlo.memory import byte_size
from hlo.replay.load import load
from hlo.text.parser import parse_module
from hlo.viz.memory_report import memory_report

DUMPS = Path(__file__).resolve().parent / "golden" / "dumps_proto"
VALUE = re.compile(r" value: <\d+ (\S+?)(?:\{([\d,]*)\})?(?: \(phi\))? @\d+> \(size=(\d+),")
PARAMETER = re.compile(r"^allocation \d+: size (\d+), parameter (\d+), shape")
OUTPUT = re.compile(r"^allocation \d+: size (\d+), output shape is")


def xla_assignment(name: str) -> tuple[dict[tuple[str, tuple[int, ...]], int], dict[int, int], int]:
    values, params, output = {}, {}, -1
    for line in (DUMPS / f"{name}.buffer-assignment.txt").read_text().splitlines():
        if m := VALUE.match(line):
            index = tuple(int(x) for x in m[2].split(",") if x) if m[2] else ()
            values[(m[1], index)] = int(m[3])
        elif m := PARAMETER.match(line):
            params[int(m[2])] = int(m[1])
        elif m := OUTPUT.match(line):
            output = int(m[1])
    return values, params, output


@pytest.mark.parametrize("name", ["mlp", "loop", "gather_sort"])
def test_buffer_sizes_match_xla_cpu(name):
    module = load(DUMPS / f"{name}.after.hlo.pb").module
    report = memory_report(module)
    ours = {(b.instruction, b.index): b.physical for b in report.buffers}
    values, params, output = xla_assignment(name)
    common = set(ours) & set(values)
    assert len(common) >= 5
    assert {k: ours[k] for k in common} == {k: values[k] for k in common}
    kinds = {b.kind: b.physical for b in report.buffers if b.kind.startswith("parameter") and not b.index}
    assert kinds == {f"parameter {n}": size for n, size in params.items()}
    root = [b.physical for b in report.buffers if b.kind == "output" and not b.index]
    # the loop's root forwards a while result (get-tuple-element): its buffer is the while's
    assert root == [output] or (not root and byte_size(module.entry.root.shape) == output)


def test_every_entry_value_of_the_mlp_step_and_their_total():
    module = load(DUMPS / "mlp.after.hlo.pb").module
    report = memory_report(module)
    values, _, _ = xla_assignment("mlp")
    entry = {i.name for i in module.entry.instructions}
    xla_entry = {k: v for k, v in values.items() if k[0] in entry}
    assert {(b.instruction, b.index) for b in report.buffers} == set(xla_entry)
    assert report.physical == sum(xla_entry.values()) == 876
    # XLA's memory-usage report: 608 bytes after sharing allocations (and with the reducer's
    # thread-local scalars): smaller than the sum of values, as sharing makes it.
    total = re.search(r"Total bytes: (\d+)", (DUMPS / "mlp.memory-usage-report.txt").read_text())
    assert total and int(total[1]) == 608 < report.physical


TILED = """HloModule tiled

ENTRY main {
  p0 = bf16[3,130]{1,0:T(8,128)(2,1)} parameter(0)
  p1 = s4[1000]{0} parameter(1)
  c = bf16[3,130]{1,0:T(8,128)(2,1)} cosine(p0)
  n = bf16[3,130]{1,0:T(8,128)(2,1)} negate(c)
  ROOT t = (bf16[3,130]{1,0:T(8,128)(2,1)}, s4[1000]{0}) tuple(n, p1)
}
"""


def test_tiled_padding_totals_and_peak():
    report = memory_report(parse_module(TILED))
    by = {b.instruction: b for b in report.buffers}
    # bf16[3,130] under T(8,128): 8 x 256 elements of 2 bytes; 390 elements hold 780 bytes
    assert (by["p0"].logical, by["p0"].physical) == (780, 4096)
    # s4 without E(4): each 4-bit element takes a byte
    assert (by["p1"].logical, by["p1"].physical) == (500, 1000)
    assert by["t"].physical == 16  # the output tuple's table of two pointers
    assert report.physical == 3 * 4096 + 1000 + 16
    # p0 is dropped after c, c after n: at most two bf16 buffers, p1 and the table at once
    assert report.peak_bytes == 2 * 4096 + 1000
    assert report.peak_at == "c"


def test_cli_report(tmp_path, capsys):
    path = tmp_path / "tiled.hlo"
    path.write_text(TILED)
    assert main(["memory", str(path)]) == 0
    out = capsys.readouterr().out
    assert "padding overhead: 10448 bytes" in out
    assert "peak live set: 9192 bytes (9.0KiB) at %c" in out
    assert "worst padding: %c bf16[3,130]{1,0:T(8,128)(2,1)}: 780 -> 4096 bytes (5.25x): " in out
    assert "tile (8,128) rounds [3,130] up to [8,256]" in out


def test_cli_unknown_computation(capsys):
    assert main(["memory", str(DUMPS / "mlp.after.hlo.pb"), "--computation", "fused_computatio"]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "did you mean fused_computation" in err


SPACES = """HloModule spaces

ENTRY main {
  a = f32[4,4]{1,0:S(1)} parameter(0)
  b = s4[1000]{0:E(4)} parameter(1)
  ROOT n = f32[4,4]{1,0:S(1)} negate(a)
}
"""


def test_memory_spaces_and_packed_elements(tmp_path, capsys):
    report = memory_report(parse_module(SPACES))
    by = {b.instruction: b for b in report.buffers}
    assert (by["b"].logical, by["b"].physical) == (500, 500)  # E(4): two elements a byte
    assert by["a"].memory_space == 1 and by["b"].memory_space == 0
    path = tmp_path / "spaces.hlo"
    path.write_text(SPACES)
    assert main(["memory", str(path)]) == 0
    out = capsys.readouterr().out
    assert "memory space 1 (on-chip vector memory (VMEM on TPU)): 128 bytes" in out
    assert "memory space 0 (device memory (HBM)): 500 bytes" in out
    assert "worst padding" not in out


def test_pred_counts_a_byte_and_no_padding():
    module = parse_module("HloModule p\n\nENTRY main {\n  ROOT p = pred[5,16]{1,0} parameter(0)\n}\n")
    (b,) = memory_report(module).buffers
    assert (b.logical, b.physical) == (80, 80)
