"""What the benchmark's processes share: arrays on disk (ml_dtypes types included), memory
readings, and the check that two engines' results agree before any ratio is reported."""

from __future__ import annotations

import json
import resource
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np


def _dtype(name: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def save_arrays(path: Path, arrays: Sequence[Any]) -> None:
    """Arrays as raw bits in an .npz plus their types in a .json beside it (np.save cannot
    write bf16 or the f8 types so that np.load gives them back)."""
    arrays = [np.asarray(a) for a in arrays]
    meta = [{"dtype": a.dtype.name, "shape": list(a.shape)} for a in arrays]
    bits = {
        f"a{k}": a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "V" else a for k, a in enumerate(arrays)
    }
    np.savez(path.with_suffix(".npz"), **bits)
    path.with_suffix(".json").write_text(json.dumps(meta))


def load_arrays(path: Path) -> list[np.ndarray]:
    meta = json.loads(path.with_suffix(".json").read_text())
    with np.load(path.with_suffix(".npz")) as data:
        out = []
        for k, m in enumerate(meta):
            a = data[f"a{k}"]
            dtype = _dtype(m["dtype"])
            out.append(a.view(dtype) if a.dtype != dtype else a)
    return [a.reshape(m["shape"]) for a, m in zip(out, meta)]


def leaves(value: Any) -> list[Any]:
    """A result's arrays depth first (hlo returns nested tuples; XLA a flat list)."""
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in leaves(v)]
    return [value]


def rss_now() -> int:
    """Resident set size of this process now, in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def rss_peak() -> int:
    """The largest resident set size of this process since it started or since
    `reset_rss_peak`, in bytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def reset_rss_peak() -> None:
    """Start the peak RSS afresh (Linux: writing 5 to clear_refs resets VmHWM)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def _tolerance(dtype: np.dtype) -> float:
    if dtype.itemsize <= 2 or dtype.kind == "V":  # bf16, f16, the f8 types: a few ulps
        return 5e-2
    return 1e-3 if dtype in (np.float32, np.complex64) else 1e-9


def disagreement(ours: Sequence[np.ndarray], theirs: Sequence[np.ndarray], scale: float = 1.0) -> str | None:
    """Why two results differ, or None when they agree: same number of leaves, shapes and types;
    integers and booleans equal; floats with NaN and infinities in the same places and finite
    values within the type's tolerance of the largest magnitude of the leaf (times `scale`, for a
    workload whose summation order legitimately moves the last digits further)."""
    if len(ours) != len(theirs):
        return f"{len(ours)} results against {len(theirs)}"
    for k, (a, b) in enumerate(zip(ours, theirs)):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype:
            return f"result {k}: {a.dtype}{list(a.shape)} against {b.dtype}{list(b.shape)}"
        if a.dtype.kind in "biu":
            if not np.array_equal(a, b):
                return f"result {k}: {int(np.count_nonzero(a != b))} of {a.size} integers differ"
            continue
        wide = np.complex128 if a.dtype.kind == "c" else np.float64
        x, y = a.astype(wide), b.astype(wide)
        if not np.array_equal(np.isnan(x), np.isnan(y)):
            return f"result {k}: NaN in different places"
        finite = np.isfinite(x) & np.isfinite(y)
        infinite = ~finite & ~np.isnan(x)
        if not np.array_equal(x[infinite], y[infinite]):
            return f"result {k}: infinities differ"
        if not finite.any():
            continue
        error = float(np.max(np.abs(x[finite] - y[finite])))
        magnitude = max(float(np.max(np.abs(y[finite]))), 1e-30)
        if error > _tolerance(a.dtype) * scale * magnitude:
            return f"result {k}: max difference {error:.3g} against magnitude {magnitude:.3g}"
    return None
