"""Reference results to compare with: a `.npz` (out0, out1, ... as `hlo run --output` writes
them), an HloSnapshot's recorded result, or a run of the same module on XLA:CPU through jaxlib
(`--reference xla`, the `hlo[xla]` extra; imported only when asked)."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
import tempfile
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


def run_on_xla(module: Module, arguments: list[Any], proto: bytes | None = None) -> list[np.ndarray]:
    """The module's outputs computed by XLA:CPU (jaxlib, following ORACLE.md's recipe), in a child
    process: XLA aborts the whole process on some modules (optimized ones often cannot be compiled
    again), and that must end as one line, not take hlo down. `proto` is the module's serialized
    HloModuleProto when it came from one (sent as is); otherwise hlo writes one."""
    require_jaxlib()
    if proto is None:
        from ..proto.writer import module_to_proto

        proto = module_to_proto(module).SerializeToString()
    with tempfile.TemporaryDirectory(prefix="hlo_xla_") as tmp:
        folder = Path(tmp)
        (folder / "module.pb").write_bytes(proto)
        _save(folder / "inputs.npz", [np.asarray(a) for a in arguments])
        done = subprocess.run(
            [sys.executable, "-m", "hlo.replay.xla_child", str(folder)], capture_output=True, text=True
        )
        if done.returncode != 0 or not (folder / "outputs.npz").exists():
            lines = [x for x in done.stderr.splitlines() if x.strip()]
            why = next((x for x in lines if x.startswith("hlo-xla-child: ")), "")
            why = why.removeprefix("hlo-xla-child: ") or f"XLA:CPU crashed (exit status {done.returncode})"
            raise HloError(f"--reference xla: XLA:CPU could not run the module: {why}")
        return _load(folder / "outputs.npz")


def require_jaxlib() -> None:
    """A one-line error when jax/jaxlib are missing (checked before a long run that needs them)."""
    if not (_installed("jax") and _installed("jaxlib")):
        raise HloError("--reference xla needs jaxlib: pip install 'hlo[xla]'")


def _installed(name: str) -> bool:
    if name in sys.modules and sys.modules[name] is None:  # hidden (tests) or failed to import
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _save(path: Path, arrays: list[np.ndarray]) -> None:
    """bf16/f8/int4 arrays travel as their bits, with the dtype's name beside them."""
    data: dict[str, np.ndarray] = {}
    for k, a in enumerate(arrays):
        data[f"a{k}"] = (
            a.view(f"u{a.dtype.itemsize}")
            if a.dtype.kind == "V"
            or "float8" in a.dtype.name
            or a.dtype.name in ("bfloat16", "int4", "uint4")
            else a
        )
        data[f"t{k}"] = np.array(a.dtype.name)
    np.savez(path, **data)  # type: ignore[arg-type]


def _load(path: Path) -> list[np.ndarray]:
    import ml_dtypes

    data = np.load(path)
    out = []
    for k in range(len(data.files) // 2):
        a, name = data[f"a{k}"], str(data[f"t{k}"])
        out.append(a if a.dtype.name == name else a.view(np.dtype(getattr(ml_dtypes, name))))
    return out
