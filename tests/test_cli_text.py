"""`hlo fmt` and `hlo check`: canonical text in the forms asked for, diagnostics and exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from hlo.cli.main import main

GOLDEN = Path(__file__).parent / "golden" / "dumps"

MODULE = """HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT n = f32[4] negate(p), metadata={op_name="n"}
}
"""


@pytest.fixture
def module_file(tmp_path):
    path = tmp_path / "m.hlo"
    path.write_text(MODULE)
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_fmt_long_is_the_default(capsys, module_file):
    code, out, _ = run(capsys, "fmt", str(module_file))
    assert code == 0
    assert out == (
        "HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n\n"
        "ENTRY %e (p: f32[4]) -> f32[4] {\n"
        "  %p = f32[4]{0} parameter(0)\n"
        '  ROOT %n = f32[4]{0} negate(f32[4]{0} %p), metadata={op_name="n"}\n'
        "}\n\n"
    )


def test_fmt_short(capsys, module_file):
    _, out, _ = run(capsys, "fmt", "--short", str(module_file))
    assert "ENTRY e {\n  p = f32[4]{0} parameter(0)\n  ROOT n = f32[4]{0} negate(p)\n}" in out


def test_fmt_of_a_golden_dump_is_identity(capsys):
    path = GOLDEN / "cnn.opt.hlo"
    _, out, _ = run(capsys, "fmt", str(path))
    assert out == path.read_text()


def test_check_ok(capsys):
    code, out, _ = run(capsys, "check", str(GOLDEN / "transformer_block.hlo"))
    assert code == 0 and "ok (" in out


def test_check_reports_parse_errors_with_place(capsys, tmp_path):
    path = tmp_path / "bad.hlo"
    path.write_text(MODULE.replace("negate(p)", "negate(q)"))
    code, out, err = run(capsys, "check", str(path))
    assert code == 1 and not out
    assert err.startswith(f"{path}:4:26: error: instruction does not exist: q")
    assert "Traceback" not in err


def test_missing_file_is_a_clear_error(capsys, tmp_path):
    code, _, err = run(capsys, "fmt", str(tmp_path / "nope.hlo"))
    assert code == 1 and "cannot read the file" in err
