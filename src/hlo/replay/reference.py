"""Reference results to compare with: a `.npz` (out0, out1, ... as `hlo run --output` writes
them), an HloSnapshot's recorded result, or a run of the same module on XLA:CPU through jaxlib
(`--reference xla`, the `hlo[xla]` extra; imported only when asked)."""

from __future__ import annotations

import importlib
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import HloError
from ..ir.module import Module


def leaves(value: Any) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [x for v in value for x in leaves(v)]
    return [np.asarray(value)] if value is not None else []


def load_reference(path: str, count: int) -> list[np.ndarray]:
    """The reference outputs in `path` (a .npz or a snapshot), checked for the `count` outputs."""
    if not Path(path).is_file():
        raise HloError(f"{path}: the reference file does not exist")
    if zipfile.is_zipfile(path):
        return _npz(path, count)
    from .load import load

    loaded = load(path)
    if loaded.result is None:
        raise HloError(f"{path}: result: the file holds no recorded result (not a snapshot)")
    values = leaves(loaded.result)
    if len(values) != count:
        raise HloError(f"{path}: result: {len(values)} recorded outputs for the module's {count}")
    return values


def _npz(path: str, count: int) -> list[np.ndarray]:
    try:
        data = np.load(path)
    except (OSError, ValueError) as e:
        raise HloError(f"{path}: cannot read the reference: {e}") from None
    keys = [f"out{k}" for k in range(count)]
    missing = [k for k in keys if k not in data.files]
    if missing:
        raise HloError(
            f"{path}: {missing[0]}: missing (the module has {count} outputs: out0..out{count - 1})"
        )
    extra = [k for k in data.files if k.startswith("out") and k not in keys]
    if extra:
        raise HloError(f"{path}: {extra[0]}: the module has only {count} outputs")
    return [data[k] for k in keys]


def check_reference(path: str, got: list[np.ndarray], want: list[np.ndarray]) -> list[np.ndarray]:
    """Shapes and types must agree; bf16/f8/int4 results compare in their widened storage type."""
    out = []
    for k, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape:
            raise HloError(f"{path}: out{k}: shape {list(w.shape)} differs from the result's {list(g.shape)}")
        if g.dtype != w.dtype:
            if (
                g.dtype.kind == "V"
                or g.dtype.name in ("bfloat16",)
                or "float8" in g.dtype.name
                or "int4" in g.dtype.name
            ):
                g = g.astype(w.dtype)
            else:
                raise HloError(f"{path}: out{k}: type {w.dtype} differs from the result's {g.dtype}")
        out.append(g)
    return out


def run_on_xla(module: Module, arguments: list[Any]) -> list[np.ndarray]:
    """The module's outputs computed by XLA:CPU (jaxlib), following ORACLE.md's recipe."""
    try:
        jax = importlib.import_module("jax")
        importlib.import_module("jax.extend")
        lib: Any = importlib.import_module("jax._src.lib")
        _jax, xc = lib._jax, lib.xla_client
    except ImportError:
        raise HloError("--reference xla needs jaxlib: pip install 'hlo[xla]'") from None
    try:
        mod = xc.hlo.hlo_module_from_text(module.to_text("long"))
        comp = xc.XlaComputation(mod.as_serialized_hlo_module_proto())
        mlir = _jax.mlir.xla_computation_to_mlir_module(comp)
        backend = jax.extend.backend.get_backend("cpu")
        exe = backend.compile_and_load(mlir, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions())
        outs = exe.execute([jax.device_put(np.asarray(a)) for a in arguments])
    except Exception as e:  # XLA's errors come as many types; one line for the user
        raise HloError(
            f"--reference xla: XLA:CPU could not run the module: {str(e).splitlines()[0]}"
        ) from None
    return [np.asarray(o) for o in outs]
