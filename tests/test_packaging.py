"""Packaging: the version users see is one version, the package says it is typed, and the license
is declared the way current setuptools wants (an SPDX expression plus the license file)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib

import hlo
from hlo.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_version_attribute_matches_the_command(capsys):
    assert re.fullmatch(r"\d+\.\d+\.\d+.*|0\+unknown", hlo.__version__)
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"hlo {hlo.__version__}"


def test_py_typed_is_shipped():
    assert (ROOT / "src" / "hlo" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["hlo"]


def test_license_is_an_spdx_string_with_its_file():
    project = PYPROJECT["project"]
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
