"""The child process of `--reference xla`: compiles DIR/module.pb (an HloModuleProto) for XLA:CPU
through jaxlib, runs it on DIR/inputs.npz and writes DIR/outputs.npz. A failure XLA reports is one
line on stderr starting with `hlo-xla-child: `; a crash is the parent's to report."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import numpy as np

from .reference import _load, _save


def main(folder: Path) -> int:
    jax: Any = importlib.import_module("jax")
    importlib.import_module("jax.extend")
    lib: Any = importlib.import_module("jax._src.lib")
    _jax, xc = lib._jax, lib.xla_client
    try:
        lapack: Any = importlib.import_module("jaxlib.lapack")
        lapack._lapack.initialize()  # LAPACK custom calls crash without it (ORACLE.md)
    except (ImportError, AttributeError):
        pass
    try:
        comp = xc.XlaComputation((folder / "module.pb").read_bytes())
        mlir = _jax.mlir.xla_computation_to_mlir_module(comp)
        backend = jax.extend.backend.get_backend("cpu")
        exe = backend.compile_and_load(mlir, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions())
        outs = exe.execute([jax.device_put(a) for a in _load(folder / "inputs.npz")])
    except Exception as e:  # XLA's errors come as many types
        print("hlo-xla-child: " + (str(e).splitlines() or [type(e).__name__])[0], file=sys.stderr)
        return 1
    _save(folder / "outputs.npz", [np.asarray(o) for o in outs])
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
