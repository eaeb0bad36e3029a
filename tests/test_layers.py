"""The layer contract of pyproject.toml (docs/ARCHITECTURE.md) holds: every module imports only
from its own layer or lower ones, imports inside functions included. A new package must be
placed in a layer (the contract is exhaustive)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_layer_contract_is_kept() -> None:
    pytest.importorskip("importlinter")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_contract_catches_an_upward_import(tmp_path: Path) -> None:
    """The contract is live: a copy of the package with one upward import (ops -> text) breaks it."""
    pytest.importorskip("importlinter")
    import shutil

    src = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "hlo", src / "hlo", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with open(src / "hlo" / "ops" / "io.py", "a") as f:
        f.write("\nfrom ..text import lexer  # noqa: E402,F401\n")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode != 0 and "hlo.ops is not allowed to import hlo.text" in done.stdout, done.stdout


def test_the_architecture_page_lists_every_module() -> None:
    """docs/ARCHITECTURE.md's package listing names every module of the package, so a move or a
    new module that forgets the page fails here."""
    page = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    listing = page[page.index("## The package") : page.index("## How to add an op")]
    package = ROOT / "src" / "hlo"
    missing = [
        str(p.relative_to(package))
        for p in sorted(package.rglob("*.py"))
        if p.name != "__init__.py" and "__pycache__" not in p.parts and p.name not in listing
    ]
    assert not missing, f"not in docs/ARCHITECTURE.md: {missing}"
