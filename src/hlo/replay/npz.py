"""`.npz` files of `hlo run`: inputs (arg0, arg1, ...) checked against the parameters, outputs
(out0, out1, ...) written to exactly the path given. Types NumPy cannot store (bf16, f8, 4-bit
ints) travel widened (float32, int8/uint8)."""

from __future__ import annotations

import os
import zipfile
from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import HloError
from ..numerics.numerics import is_ml_dtype
from ..shape import Shape


def load_inputs(path: str, params: tuple[Shape, ...], cast: bool = False) -> list[Any]:
    if not zipfile.is_zipfile(path):
        why = "does not exist" if not os.path.exists(path) else "is not a .npz file (arg0, arg1, ...)"
        raise HloError(f"{path}: the inputs file {why}")
    try:
        data = np.load(path)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise HloError(f"{path}: cannot read the inputs: {e}") from None
    extra = [
        k for k in data.files if k.startswith("arg") and k not in {f"arg{i}" for i in range(len(params))}
    ]
    if extra:
        raise HloError(
            f"{path}: {extra[0]}: the module has {len(params)} parameters (arg0..arg{len(params) - 1})"
        )
    values = []
    for k, shape in enumerate(params):
        key = f"arg{k}"
        if key not in data.files:
            raise HloError(f"{path}: has no {key} for parameter {k} ({shape})")
        try:
            array = data[key]  # (allow_pickle is False: a file cannot run code)
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:  # object arrays, truncation
            raise HloError(f"{path}: cannot read {key}: {e}") from None
        if shape.is_array and shape.element_type.has_numpy_dtype:
            target = np.dtype(shape.element_type.numpy_dtype)
            if array.dtype != target and not cast and not _widened(array.dtype, shape.element_type):
                raise HloError(
                    f"{path}: {key}: a {array.dtype} array for parameter {k} "
                    f"({shape.to_string(print_layout=False)});"
                    " --cast converts it"
                )
            if array.dtype != target:
                with np.errstate(all="ignore"):
                    array = array.astype(target)
        values.append(array)
    return values


def _widened(dtype: np.dtype, t: PrimitiveType) -> bool:
    """bf16, f8 and 4-bit ints travel as float32 / int8 / uint8 (what `--output` writes)."""
    if not is_ml_dtype(np.dtype(t.numpy_dtype)):
        return False
    return dtype == (np.float32 if t.is_floating_point else np.int8 if t.is_signed_integral else np.uint8)


def save(path: str, leaves: list[np.ndarray], prefix: str = "out") -> None:
    """`prefix` "arg" writes inputs (arg0, arg1, ...) that `--inputs` reads back."""
    arrays = {}
    for k, value in enumerate(leaves):
        if is_ml_dtype(value.dtype):  # bf16, f8, 4-bit ints: stored widened
            value = value.astype(np.float32 if _is_float(value.dtype) else _int_of(value.dtype))
        arrays[f"{prefix}{k}"] = value
    try:
        with open(path, "wb") as f:  # a file object: savez would add .npz to a name without it
            np.savez(f, **arrays)  # type: ignore[arg-type]
    except OSError as e:
        raise HloError(f"{path}: cannot write: {e.strerror}") from None


def _is_float(dtype: np.dtype) -> bool:
    from ..dtypes import from_numpy_dtype

    return from_numpy_dtype(dtype).is_floating_point


def _int_of(dtype: np.dtype) -> type:
    from ..dtypes import from_numpy_dtype

    return np.int8 if from_numpy_dtype(dtype).is_signed_integral else np.uint8
