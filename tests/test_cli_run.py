"""`hlo run`: bundled examples, inputs and outputs as .npz, seeded random inputs, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hlo.cli.main import main

DUMPS = Path(__file__).parent / "golden" / "dumps"


@pytest.mark.parametrize("name", ["mlp", "cnn", "transformer"])
def test_examples_run(name, capsys):
    assert main(["run", "--example", name]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"example {name} (")
    assert "out0: " in out


def test_inputs_and_outputs_files(tmp_path):
    inputs = DUMPS / "mlp_grad.npz"
    out = tmp_path / "out.npz"
    assert main(["run", str(DUMPS / "mlp_grad.hlo"), "--inputs", str(inputs), "--output", str(out)]) == 0
    got, want = np.load(out), np.load(inputs)
    for k in range(5):
        np.testing.assert_allclose(got[f"out{k}"], want[f"out{k}"], rtol=2e-4, atol=1e-5)


def test_random_inputs_are_seeded(tmp_path):
    a, b, c = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"
    module = str(DUMPS / "cnn.hlo")
    main(["run", module, "--output", str(a), "--seed", "1"])
    main(["run", module, "--output", str(b), "--seed", "1"])
    main(["run", module, "--output", str(c), "--seed", "2"])
    assert np.array_equal(np.load(a)["out0"], np.load(b)["out0"])
    assert not np.array_equal(np.load(a)["out0"], np.load(c)["out0"])


def test_print_uses_xla_literal_text(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text("HloModule m\nENTRY e {\n  ROOT i = s32[2,3] iota(), iota_dimension=1\n}\n")
    assert main(["run", str(path), "--print"]) == 0
    assert "out0: s32[2,3] { { 0, 1, 2 }, { 0, 1, 2 } }" in capsys.readouterr().out


def test_errors_are_diagnostics_not_tracebacks(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT r = f32[2] negate(a)\n}\n")
    missing = tmp_path / "none.npz"
    np.savez(missing, other=np.zeros(2))
    assert main(["run", str(path), "--inputs", str(missing)]) == 1
    assert "has no arg0 for parameter 0" in capsys.readouterr().err
    assert main(["run"]) == 1
    assert "give a MODULE file or --example NAME" in capsys.readouterr().err
