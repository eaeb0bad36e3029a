"""The README and docs/ stay true: every Python block of README.md runs, the output it shows for
`hlo run --example mlp` is what the command prints, the pages and pictures it links exist, and
docs/OPS.md is what tools/make_ops_table.py generates from the op registry now."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hlo.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def blocks(language: str) -> list[str]:
    """The fenced blocks of README with this language tag ("" for none), in order."""
    found, current, tag = [], None, ""
    for line in README.splitlines():
        if line.startswith("```"):
            if current is None:
                current, tag = [], line[3:].strip()
            else:
                if tag == language:
                    found.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return found


PYTHON = blocks("python")


def test_readme_has_the_tours_python_examples():
    assert len(PYTHON) >= 7
    assert any("XlaBuilder" in b and "hlo.run" in b for b in PYTHON)
    assert any("hlo.from_jax" in b for b in PYTHON)


@pytest.mark.parametrize("code", PYTHON, ids=[f"block{k}" for k in range(len(PYTHON))])
def test_readme_python_block_runs(code):
    if re.search(r"^import jax", code, flags=re.M):
        pytest.importorskip("jax")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr


def test_readme_example_output_is_what_hlo_run_prints(capsys):
    shown = next(b for b in blocks("") if b.startswith("example mlp ("))
    assert main(["run", "--example", "mlp"]) == 0
    printed = capsys.readouterr().out.splitlines()
    for line in shown.splitlines():
        if line == "...":
            continue
        if line.endswith(", ...}"):  # an elided array: its printed start
            assert any(p.startswith(line[: -len(", ...}")]) for p in printed), line
        else:
            assert line in printed, line


def test_readme_links_exist():
    links = re.findall(r"\]\(((?:docs|tests|src)/[^)]+)\)", README)
    links += re.findall(r"\b(docs/[A-Z]+\.md)\b", README)
    assert "docs/images/graph_mlp_forward.png" in links and "docs/OPS.md" in links
    missing = [link for link in links if not (ROOT / link).is_file()]
    assert not missing, missing


def test_readme_keeps_the_set_up_commands_ci_runs():
    """.ci/run takes the first `pip install ... hlo run --example` and `pip install ... pytest`
    lines of README."""
    setup = blocks("bash")[0].splitlines()
    assert setup == [
        "pip install -e . && hlo run --example mlp",
        "pip install -e '.[test]' && python -m pytest",
    ]


def test_ops_page_is_what_the_registry_generates():
    spec = importlib.util.spec_from_file_location("make_ops_table", ROOT / "tools" / "make_ops_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = (ROOT / "docs" / "OPS.md").read_text()
    assert committed == module.page(), "docs/OPS.md is stale: run python tools/make_ops_table.py"
    # every opcode of hlo's table has its row, and the notes name only known opcodes
    from hlo.ir.opcode import Opcode

    rows = set(re.findall(r"^\| `([a-z0-9-]+)` \|", committed, flags=re.M))
    assert {o.text for o in Opcode} <= rows
    assert set(module.NOTES) <= {o.text for o in Opcode}
