"""Exactness cases that the op tables (test_engine_ops.py over tests/golden/ops/exact_*.npz)
do not cover: scalar results through `hlo run --output`, and bitcast-convert between complex
widths, which XLA:CPU cannot run (its HLO -> StableHLO path refuses c128 -> c64 and its
bitcast expander aborts on c64 -> c128), checked against the spec's definition: the bytes
reinterpreted, the low bytes first on a little-endian machine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.cli.main import main

OPS = Path(__file__).parent / "golden" / "ops"


def _scalar_cases(opcode: str) -> list[int]:
    with np.load(OPS / "exact_scalars.npz") as d:
        return [
            int(k[4:-4])
            for k in d.files
            if k.endswith("_hlo") and f"] {opcode}(" in str(d[k]) and "f32[]" in str(d[k])
        ]


@pytest.mark.parametrize("k", _scalar_cases("reduce-precision"))
def test_cli_writes_a_scalar_result(k, tmp_path, capsys):
    """A scalar root (reduce-precision gave a NumPy scalar once) is written as out0."""
    with np.load(OPS / "exact_scalars.npz") as d:
        text, arg, want = str(d[f"case{k}_hlo"]), d[f"case{k}_arg0"], d[f"case{k}_out"]
    module = tmp_path / "m.hlo"
    module.write_text(text)
    np.savez(tmp_path / "in.npz", arg0=arg)
    out = tmp_path / "out.npz"
    assert main(["run", str(module), "--inputs", str(tmp_path / "in.npz"), "--output", str(out)]) == 0
    got = np.load(out)["out0"]
    assert got.shape == () and got.dtype == np.float32
    assert got.view(np.uint32) == want.view(np.uint32) or (np.isnan(got) and np.isnan(want))
    assert main(["run", str(module), "--inputs", str(tmp_path / "in.npz"), "--print"]) == 0
    assert ": 1 result\n" in capsys.readouterr().out


def _bitcast(text: str, x: np.ndarray) -> np.ndarray:
    got = hlo.run(hlo.parse_module(f"HloModule m\n\nENTRY main {{\n{text}\n}}\n"), x)
    assert type(got) is np.ndarray
    return got


def test_bitcast_convert_c128_to_c64():
    x = np.array([1.5 - 2j, complex(np.inf, -0.0), complex(1e-310, np.nan)], np.complex128)
    got = _bitcast("  a = c128[3] parameter(0)\n  ROOT r = c64[3,2] bitcast-convert(a)", x)
    want = np.frombuffer(x.tobytes(), np.complex64).reshape(3, 2)
    assert got.dtype == np.complex64 and got.tobytes() == want.tobytes()


def test_bitcast_convert_c64_to_c128_and_scalars():
    x = np.array([[1 + 2j, -3 - 0j], [np.inf, 5j]], np.complex64)
    got = _bitcast("  a = c64[2,2] parameter(0)\n  ROOT r = c128[2] bitcast-convert(a)", x)
    assert got.dtype == np.complex128 and got.tobytes() == x.tobytes()
    one = x[:1, :]
    got = _bitcast("  a = c64[1,2] parameter(0)\n  ROOT r = c128[1] bitcast-convert(a)", one)
    assert got.shape == (1,) and got.tobytes() == one.tobytes()
    scalar = np.array(1.25 - 7j, np.complex128)
    got = _bitcast("  a = c128[] parameter(0)\n  ROOT r = c64[2] bitcast-convert(a)", scalar)
    assert got.tobytes() == scalar.tobytes()
    got = _bitcast(
        "  a = c64[] parameter(0)\n  ROOT r = c64[] bitcast-convert(a)", np.array(2j, np.complex64)
    )
    assert got.shape == () and got == 2j
