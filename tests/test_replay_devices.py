"""`hlo run` on modules of several devices (threads of this process): --compare per device
against XLA:CPU's results (tests/golden/sharded, made by tools/make_sharded_fixtures.py),
--iterations timing every device's run, --dump-values one directory per device."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hlo.cli.main import main

SHARDED = Path(__file__).parent / "golden" / "sharded"


def device_inputs(tmp_path: Path, name: str) -> tuple[str, int]:
    """The fixture's inputs as one arg0, arg1, ... file per device (in{device}_{param} in the npz)."""
    data = np.load(SHARDED / f"{name}.npz")
    devices = 1 + max(int(k[2:].split("_")[0]) for k in data.files if k.startswith("in"))
    for d in range(devices):
        args = {
            f"arg{p}": data[f"in{d}_{p}"] for p in range(sum(k.startswith(f"in{d}_") for k in data.files))
        }
        np.savez(tmp_path / f"in{d}.npz", **args)
    return str(tmp_path / "in{device}.npz"), devices


@pytest.mark.parametrize("name", ["grid", "mlp_ring"])
def test_compare_per_device_with_xla_results(name, tmp_path, capsys):
    inputs, devices = device_inputs(tmp_path, name)
    module, reference = str(SHARDED / f"{name}.hlo"), str(SHARDED / f"{name}.npz")
    assert main(["run", module, "--inputs", inputs, "--compare", reference]) == 0
    out = capsys.readouterr().out
    assert f"device {devices - 1} out0" in out
    assert ": match (" in out.strip().splitlines()[-1]


def test_compare_per_device_reports_the_device_of_a_mismatch(tmp_path, capsys):
    inputs, _ = device_inputs(tmp_path, "grid")
    data = dict(np.load(SHARDED / "grid.npz"))
    data["out2_1"] = data["out2_1"] + 1
    np.savez(tmp_path / "ref.npz", **data)
    assert (
        main(["run", str(SHARDED / "grid.hlo"), "--inputs", inputs, "--compare", str(tmp_path / "ref.npz")])
        == 1
    )
    lines = capsys.readouterr().out.splitlines()
    bad = [line for line in lines if line.startswith("device") and ": match (" not in line]
    assert len(bad) == 1 and bad[0].startswith("device 2 out1: 4 of 4 elements differ")
    assert lines[-1].startswith("compared with") and "mismatch (1 of 12 outputs): device 2 out1" in lines[-1]


def test_compare_per_device_files_with_a_device_placeholder(tmp_path, capsys):
    inputs, devices = device_inputs(tmp_path, "grid")
    data = np.load(SHARDED / "grid.npz")
    for d in range(devices):
        np.savez(tmp_path / f"ref{d}.npz", **{f"out{k}": data[f"out{d}_{k}"] for k in range(3)})
    reference = str(tmp_path / "ref{device}.npz")
    assert main(["run", str(SHARDED / "grid.hlo"), "--inputs", inputs, "--compare", reference]) == 0


def test_compare_file_without_a_device_is_a_one_line_error(tmp_path, capsys):
    inputs, _ = device_inputs(tmp_path, "grid")
    np.savez(tmp_path / "ref.npz", out0=np.zeros((2, 2), np.float32))
    assert (
        main(["run", str(SHARDED / "grid.hlo"), "--inputs", inputs, "--compare", str(tmp_path / "ref.npz")])
        == 1
    )
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "out0_0: missing" in err


def test_iterations_time_every_device(tmp_path, capsys):
    inputs, devices = device_inputs(tmp_path, "grid")
    assert main(["run", str(SHARDED / "grid.hlo"), "--inputs", inputs, "--iterations", "2"]) == 0
    assert f"2 runs of {devices} devices after a warm-up: min " in capsys.readouterr().out


def test_dump_values_one_directory_per_device(tmp_path, capsys):
    """Each device's values are its own: its parameters, and its root's leaves equal to XLA's
    results for that device."""
    inputs, devices = device_inputs(tmp_path, "grid")
    out = tmp_path / "values"
    assert main(["run", str(SHARDED / "grid.hlo"), "--inputs", inputs, "--dump-values", str(out)]) == 0
    data = np.load(SHARDED / "grid.npz")
    for d in range(devices):
        index = json.loads((out / f"device{d}" / "index.json").read_text())
        files = {
            (e["name"], tuple(e["index"])): e["file"] for e in index if e["computation"] == "main.0_spmd"
        }
        for k in range(3):  # the root tuple's leaves are each device's outputs
            assert np.array_equal(np.load(out / f"device{d}" / files[("tuple.5", (k,))]), data[f"out{d}_{k}"])
        assert np.array_equal(np.load(out / f"device{d}" / files[("param.2", ())]), data[f"in{d}_0"])
