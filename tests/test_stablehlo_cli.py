"""`hlo run`, `hlo check` and `hlo fmt` on StableHLO MLIR files, told from HLO text by content
(not by the file name), and what the reader keeps: shardings, module attributes, locations."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import hlo
from hlo.cli.main import main

PROGRAMS = Path(__file__).parent / "golden" / "stablehlo" / "programs"

SHARDED = """module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<4x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                         %arg1: tensor<4xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> (tensor<4x3xf32>) {
    %0 = stablehlo.sine %arg0 : tensor<4x3xf32> loc("f.py":3:4)
    return %0 : tensor<4x3xf32>
  }
}
"""

BAD = """func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.nope %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
"""


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_and_fmt_read_mlir_by_content(capsys, tmp_path) -> None:
    path = tmp_path / "program.txt"  # the name says nothing: the content does
    path.write_text((PROGRAMS / "cnn.mlir").read_text())
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0 and "ok (" in out
    code, out, _ = run(capsys, "fmt", str(path))
    assert code == 0
    assert out.startswith("HloModule jit_fn, entry_computation_layout=")
    assert "\nENTRY %main." in out and "convolution(" in out
    assert hlo.parse_module(out).to_text() == out  # what fmt prints is HLO text hlo reads back


def test_run_mlir_matches_xla_cpu(capsys, tmp_path) -> None:
    data = np.load(Path(__file__).parent / "golden" / "dumps" / "fft.npz")
    inputs = tmp_path / "in.npz"
    np.savez(inputs, **{k: data[k] for k in data.files if k.startswith("arg")})
    out = tmp_path / "out.npz"
    code, _, _ = run(capsys, "run", str(PROGRAMS / "fft.mlir"), "--inputs", str(inputs), "--output", str(out))
    assert code == 0
    got = np.load(out)
    for k in (k for k in data.files if k.startswith("out")):
        np.testing.assert_allclose(got[k], data[k], rtol=2e-4, atol=1e-5)


def test_errors_are_located_and_exit_1(capsys, tmp_path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(BAD)
    code, _, err = run(capsys, "check", str(path))
    assert code == 1
    assert f"{path}:2:8: error: unsupported op stablehlo.nope" in err


def test_shardings_and_module_attributes_are_kept() -> None:
    # As XLA's conversion keeps them (tests/test_stablehlo_shardings.py checks against jaxlib's).
    m = hlo.parse_stablehlo(SHARDED, "s.mlir")
    assert m.name == "jit_f" and m.config.num_partitions == 2
    assert m.frontend_attributes["xla.sdy.meshes"] == '{mesh = #sdy.mesh<["x"=2]>}'
    a0, a1 = m.entry.parameters
    assert a0.frontend_attributes["xla.sdy.sharding"] == '#sdy.sharding<@mesh, [{"x"}, {}]>'
    assert "sharding={devices=[2,1]<=[2]}" in str(a0)
    assert "sharding={devices=[2]<=[2]}" in str(a1)
    sine = next(i for i in m.entry.instructions if i.opcode is hlo.Opcode.SIN)
    assert sine.span is not None and (sine.span.line, sine.span.column) == (5, 5)


def test_looks_like_stablehlo() -> None:
    assert hlo.looks_like_stablehlo((PROGRAMS / "cnn.mlir").read_text())
    assert hlo.looks_like_stablehlo((PROGRAMS / "cnn.generic.mlir").read_text())
    assert hlo.looks_like_stablehlo("// a comment\n#loc = loc(unknown)\nfunc.func @main() {\n}\n")
    assert not hlo.looks_like_stablehlo("HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0)\n}\n")


def test_locations_name_instructions_as_xla_names_them() -> None:
    """jax's debug-info locations (`loc("jit(fn)/jit(sort)"(#loc30))`, through `#loc` aliases and
    call sites) name the instructions as in XLA's conversion: the part after the last '/'."""
    m = hlo.parse_stablehlo((PROGRAMS / "sort.loc.mlir").read_text(), "sort.loc.mlir")
    entry = m.entry
    assert [p.name.split(".")[0] for p in entry.parameters] == ["x", "keys", "vals"]
    calls = [i.name.split(".")[0] for i in entry.instructions if i.opcode is hlo.Opcode.CALL]
    assert calls == ["jit_sort_", "jit_sort_", "jit_argsort_"]
    assert any(i.name.startswith("top_k.") and i.opcode is hlo.Opcode.TOP_K for i in entry.instructions)
    call = next(i for i in entry.instructions if i.opcode is hlo.Opcode.CALL)
    assert call.metadata is not None and call.metadata.op_name == "jit(fn)/jit(sort)"
