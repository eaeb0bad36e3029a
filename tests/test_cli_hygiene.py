"""The `hlo` command as a new user meets it: every failure is one line on standard error with
exit status 1 (also what argparse would reject with status 2), never a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cli_checks import one_line_error
from hlo.cli.main import main

ROOT = Path(__file__).parent.parent
CNN = str(ROOT / "tests" / "golden" / "dumps" / "cnn.hlo")
MLP = str(ROOT / "tests" / "golden" / "dumps" / "mlp_grad.hlo")


def test_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.startswith("hlo ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", CNN, "--seed", "-1"], "--seed must be >= 0"),
        (["run", CNN, "--replicas", "0"], "--replicas must be >= 1"),
        (["run", CNN, "--max-iterations", "-1"], "--max-iterations must be >= 0"),
        (["run", CNN, "--example", "mlp"], "not both"),
        (["run", CNN, "--seed", "x"], "invalid int value"),
        (["run", CNN, "--no-such-flag"], "unrecognized arguments"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_command_lines_are_one_line_errors_with_status_1(argv, message, capsys):
    assert main(argv) == 1
    assert message in one_line_error(capsys)


@pytest.mark.parametrize("flag", ["--output", "--png"])
def test_output_in_a_missing_directory(flag, tmp_path, capsys):
    target = str(tmp_path / "missing" / "out.npz")
    argv = (
        ["run", CNN, "--output", target]
        if flag == "--output"
        else ["layout", "f32[2,3]{1,0}", "--png", target]
    )
    assert main(argv) == 1
    assert "does not exist" in one_line_error(capsys)


def test_output_writes_exactly_the_path_given(tmp_path, capsys):
    target = tmp_path / "results"  # no .npz suffix: numpy's savez would add one
    assert main(["run", CNN, "--output", str(target)]) == 0
    assert target.is_file() and not (tmp_path / "results.npz").exists()
    assert f"wrote {target}" in capsys.readouterr().err


def test_inputs_that_are_not_npz(tmp_path, capsys):
    npy = tmp_path / "x.npy"
    np.save(npy, np.zeros(3))
    text = tmp_path / "x.txt"
    text.write_text("hello")
    for path in (npy, text):
        assert main(["run", CNN, "--inputs", str(path)]) == 1
        assert "is not a .npz file" in one_line_error(capsys)


def test_inputs_of_another_dtype_need_cast_and_extra_keys_are_errors(tmp_path, capsys):
    data = dict(np.load(str(ROOT / "tests" / "golden" / "dumps" / "mlp_grad.npz")))
    args = {k: v for k, v in data.items() if k.startswith("arg")}
    path = tmp_path / "in.npz"
    np.savez(path, **{**args, "arg0": args["arg0"].astype(np.float64)})
    assert main(["run", MLP, "--inputs", str(path)]) == 1
    assert "arg0: a float64 array for parameter 0 (f32[16]); --cast converts it" in one_line_error(capsys)
    assert main(["run", MLP, "--inputs", str(path), "--cast", "--output", str(tmp_path / "o.npz")]) == 0
    capsys.readouterr()
    np.savez(path, **args, arg9=np.zeros(1))
    assert main(["run", MLP, "--inputs", str(path)]) == 1
    assert "arg9: the module has 6 parameters" in one_line_error(capsys)


def test_fmt_of_a_module_that_fails_verification_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.hlo"
    bad.write_text("HloModule m\n\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT r = f32[3] negate(p)\n}\n")
    assert main(["fmt", str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("HloModule m")
    assert re.match(r".*bad\.hlo:5:8: error: %r: result shape", captured.err)


def test_closed_pipe_is_quiet():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run(
        f"{sys.executable} -m hlo run --example transformer --print | head -1",
        shell=True, capture_output=True, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_ctrl_c_ends_with_one_line_and_status_130(monkeypatch, capsys):
    from hlo.cli import main as main_module

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setitem(main_module.COMMANDS, "run", (main_module.run.add_arguments, interrupted))
    assert main(["run", CNN]) == 130
    assert one_line_error(capsys) == "hlo: interrupted"


def test_a_text_proto_with_a_typo_names_the_file_line_and_field(tmp_path, capsys):
    source = (ROOT / "tests" / "golden" / "dumps_proto" / "loop.before.pbtxt").read_text()
    bad = tmp_path / "bad.pbtxt"
    bad.write_text(source.replace("opcode:", "opcod:", 1))
    assert main(["fmt", str(bad)]) == 1
    err = one_line_error(capsys)
    assert err.startswith(f"{bad}: not a text-format HloModuleProto: ")
    assert '"opcod"' in err and re.search(r"\d+:\d+", err)


def test_an_internal_error_is_one_line_too(monkeypatch, capsys):
    from hlo.cli import main as main_module

    def broken(args):
        raise RuntimeError("something hlo did not expect")

    monkeypatch.setitem(main_module.COMMANDS, "run", (main_module.run.add_arguments, broken))
    monkeypatch.delenv("HLO_TRACEBACK", raising=False)
    assert main(["run", CNN]) == 1
    assert one_line_error(capsys).startswith(
        "hlo: internal error: RuntimeError: something hlo did not expect"
    )
