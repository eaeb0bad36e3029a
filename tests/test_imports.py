"""Every op family module imports on its own, first thing in a fresh interpreter: the families
register into one registry, so an import order that works only when everything is loaded would
break a user's `from hlo.ops.dot import DotDimensionNumbers`."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

OPS = Path(__file__).resolve().parent.parent / "src" / "hlo" / "ops"
MODULES = sorted(f"hlo.ops.{p.stem}" for p in OPS.glob("*.py") if p.stem != "__init__")


def _import_first(module: str) -> str | None:
    code = f"import {module}; from hlo import ops; ops.Add"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return None if done.returncode == 0 else f"{module}: {done.stderr.strip().splitlines()[-1]}"


def test_every_family_imports_first() -> None:
    with ThreadPoolExecutor(4) as pool:
        failed = [f for f in pool.map(_import_first, MODULES) if f]
    assert not failed, "\n".join(failed)
