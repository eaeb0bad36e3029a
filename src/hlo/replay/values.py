"""Writing and summarizing values: `--dump-values DIR` (one .npy per instruction value and an
index.json), and `--print`'s summary of large arrays (shape, type, min/max/mean, NaN and inf
counts, the first elements)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import HloError
from ..numerics.numerics import is_ml_dtype

SUMMARY_THRESHOLD = 64  # arrays with more elements are summarized unless --print-full


def storable(value: np.ndarray) -> np.ndarray:
    """NumPy cannot store bf16, f8 or 4-bit ints in .npy/.npz: they are written widened."""
    if is_ml_dtype(value.dtype):
        kind = np.dtype(value.dtype).kind
        return value.astype(np.float32 if kind in "fV" and "int" not in value.dtype.name else np.int32)
    return value


def _file_name(computation: str, instruction: str, leaf: tuple[int, ...]) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{computation}.{instruction}")
    return safe + "".join(f".{i}" for i in leaf) + ".npy"


def _leaves(value: Any, prefix: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], np.ndarray]]:
    if isinstance(value, tuple):
        return [x for k, v in enumerate(value) for x in _leaves(v, (*prefix, k))]
    if isinstance(value, np.ndarray) or np.isscalar(value):
        return [(prefix, np.asarray(value))]
    return []


def leaf_values(value: Any) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """(leaf index, array) of a value, depth first; () indexes an array value."""
    return _leaves(value)


def dump_values(
    directory: str, values: dict[tuple[str, str], Any], dtypes: dict[tuple[str, str], str]
) -> int:
    """Write every recorded value; returns the number of files. `dtypes` gives the HLO type."""
    path = Path(directory)
    if not path.parent.is_dir():
        raise HloError(f"{directory}: cannot write values: the directory {str(path.parent)!r} does not exist")
    path.mkdir(exist_ok=True)
    index = []
    for (computation, instruction), value in values.items():
        for leaf, array in _leaves(value):
            name = _file_name(computation, instruction, leaf)
            np.save(path / name, storable(array))
            index.append(
                {
                    "name": instruction,
                    "computation": computation,
                    "index": list(leaf),
                    "shape": list(array.shape),
                    "dtype": str(array.dtype),
                    "hlo_type": dtypes.get((computation, instruction), ""),
                    "file": name,
                }
            )
    (path / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    return len(index)


def summary(value: np.ndarray) -> str:
    """One line about a large array."""
    a = np.asarray(value)
    parts = [f"{a.dtype}{list(a.shape)}"]
    if a.size:
        numeric = storable(a)
        if numeric.dtype.kind in "fc":
            finite = numeric[np.isfinite(numeric)]
            nans, infs = int(np.isnan(numeric).sum()), int(np.isinf(numeric).sum())
            if finite.size:
                parts.append(f"min {finite.min():.6g} max {finite.max():.6g} mean {finite.mean():.6g}")
            parts.append(f"nan {nans} inf {infs}")
        elif numeric.dtype.kind in "iub":
            parts.append(
                f"min {numeric.min()} max {numeric.max()} mean {numeric.astype(np.float64).mean():.6g}"
            )
        first = ", ".join(str(x) for x in a.reshape(-1)[:6].tolist())
        parts.append(f"first [{first}{', ...' if a.size > 6 else ''}]")
    return "  ".join(parts)


def read_dump(directory: str) -> dict[tuple[str, str], dict[tuple[int, ...], np.ndarray]]:
    """A `--dump-values` directory read back: (computation, instruction) -> {leaf index: value},
    each value in its own type again (bf16, f8 and 4-bit ints were written widened)."""
    path = Path(directory)
    if not path.is_dir():
        raise HloError(f"{directory}: the values directory does not exist")
    if not (path / "index.json").is_file():
        hint = (
            "; a dump of several devices has one per device: DIR/device0, ..."
            if (path / "device0").is_dir()
            else ""
        )
        raise HloError(f"{directory}: not a --dump-values directory (it has no index.json{hint})")
    try:
        index = json.loads((path / "index.json").read_text())
        entries = [(e["computation"], e["name"], tuple(e["index"]), e["file"], e["dtype"]) for e in index]
    except (ValueError, KeyError, TypeError) as e:
        raise HloError(f"{directory}/index.json: not an index of values ({type(e).__name__}: {e})") from None
    out: dict[tuple[str, str], dict[tuple[int, ...], np.ndarray]] = {}
    for computation, name, leaf, file, dtype in entries:
        try:
            array = np.load(path / Path(file).name)  # (allow_pickle is False: a file cannot run code)
        except (OSError, ValueError) as e:
            raise HloError(f"{directory}: {file}: cannot read the value of %{name}: {e}") from None
        out.setdefault((computation, name), {})[leaf] = _restore(array, dtype)
    return out


def _restore(array: np.ndarray, dtype: str) -> np.ndarray:
    if str(array.dtype) == dtype:
        return array
    import ml_dtypes

    kind = getattr(ml_dtypes, dtype, None)
    return array.astype(kind) if kind is not None else array
