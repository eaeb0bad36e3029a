"""`hlo layout`: the memory summary, the grid of linear indices, the picture, and bad input."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hlo.cli.layout import EXAMPLES
from hlo.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def grid_rows(out: str) -> list[list[str]]:
    """The grid's rows: the label, then each cell, with tile separators dropped."""
    lines = out.split("Linear index of each element")[1].splitlines()[2:]
    return [
        line.replace("|", " ").split()
        for line in lines
        if line.strip() and not line.strip().startswith("-") and not line.startswith("(")
    ]


def test_tiled_3x5(capsys):
    code, out, _ = run(capsys, "layout", "f32[3,5]{1,0:T(2,2)}")
    assert code == 0
    assert "96 bytes for 15 elements (60 bytes of data): padding overhead 1.60x" in out
    assert "dimension 1 (size 5) is most minor" in out
    assert "tile (2,2)" in out and "2x3 tiles of 2x2" in out
    assert grid_rows(out) == [
        ["0", "0", "1", "4", "5", "8", "."],
        ["1", "2", "3", "6", "7", "10", "."],
        ["2", "12", "13", "16", "17", "20", "."],
        ["3", ".", ".", ".", ".", ".", "."],
    ]
    assert "0  1 |  4  5 |  8  ." in out  # tile boundaries are drawn


def test_nested_tiles_figure_2(capsys):
    _, out, _ = run(capsys, "layout", "f32[4,8]{1,0:T(2,4)(2,1)}")
    assert grid_rows(out)[0] == ["0", "0", "2", "4", "6", "8", "10", "12", "14"]
    assert grid_rows(out)[3] == ["3", "17", "19", "21", "23", "25", "27", "29", "31"]


def test_tpu_bf16(capsys):
    _, out, _ = run(
        capsys, "layout", "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}", "--rows", "4", "--cols", "3"
    )
    assert "335544320 bytes" in out and "padding overhead 1.00x" in out
    assert "dimension 3 (size 16384) is most minor" in out
    assert grid_rows(out) == [
        ["0", "0", "2", "4"],
        ["1", "1", "3", "5"],
        ["2", "256", "258", "260"],
        ["3", "257", "259", "261"],
    ]
    assert "showing the first 4x3 of 1280 rows and 16384 columns" in out


def test_pred_1000(capsys):
    _, out, _ = run(capsys, "layout", "pred[1000]{0:T(1024)}")
    assert "1024 bytes for 1000 elements" in out and "24 padding elements" in out


def test_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "layout.png"
    code, _, _ = run(capsys, "layout", "--example", "tiled-3x5", "--png", str(path))
    assert code == 0 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples(capsys, name):
    code, out, _ = run(capsys, "layout", "--example", name)
    assert code == 0 and out.startswith(EXAMPLES[name])


def test_tuple_shape(capsys):
    code, out, _ = run(capsys, "layout", "(f32[2], token[])")
    assert code == 0 and "element {0}: f32[2]{0}" in out


def test_bad_shape_is_a_diagnostic_not_a_traceback(capsys):
    code, out, err = run(capsys, "layout", "f32[2,3]{1,1}")
    assert code == 1 and not out
    assert err.startswith("<command line>:1:9: error: layout {1,1} of f32[2,3] is not a permutation")
    assert err.splitlines()[-1] == "        ^~~~~"


def test_console_script_runs():
    result = subprocess.run([sys.executable, "-m", "hlo", "layout", "f32[2]"], capture_output=True, text=True)
    assert result.returncode == 0 and "8 bytes for 2 elements" in result.stdout
