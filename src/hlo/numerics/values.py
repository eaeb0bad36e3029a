"""Runtime values of the engine and the checks at its boundary.

An array value is a NumPy array of exactly its element type's dtype (ml_dtypes for bf16, f8 and
4-bit ints), logical and row-major, 0-d for scalars; a tuple value is a Python tuple of values; a
token is `TOKEN`. Arguments from users are checked against the parameter shapes here, once, so
kernels can trust what they get.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import EvalError
from ..shape import Shape


class Token:
    """The value of a token: carries no data, only orders side effects."""

    _instance: Token | None = None

    def __new__(cls) -> Token:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "TOKEN"


TOKEN = Token()


def describe(value: Any) -> str:
    """A short description of a value for error messages: `f32[2,3]`, `(f32[2], s32[])`, ..."""
    if isinstance(value, tuple):
        return "(" + ", ".join(describe(v) for v in value) + ")"
    if isinstance(value, Token):
        return "token[]"
    if isinstance(value, np.ndarray):
        from ..dtypes import from_numpy_dtype

        try:
            name = from_numpy_dtype(value.dtype).text
        except Exception:
            name = str(value.dtype)
        return f"{name}[{','.join(map(str, value.shape))}]"
    return type(value).__name__


def as_argument(value: Any, shape: Shape, where: str) -> Any:
    """`value` as a value of `shape`, or an EvalError saying what does not match. NumPy arrays
    must have the element type's dtype; Python scalars and nested lists are converted when every
    element is representable exactly."""
    if shape.is_tuple:
        if not isinstance(value, (tuple, list)) or len(value) != len(shape.tuple_shapes):
            raise EvalError(
                f"{where} must be a tuple of {len(shape.tuple_shapes)} values for {shape}: "
                f"got {describe(value)}"
            )
        return tuple(
            as_argument(v, s, f"{where}[{k}]") for k, (v, s) in enumerate(zip(value, shape.tuple_shapes))
        )
    if shape.is_token:
        return TOKEN
    if not shape.is_array:
        raise EvalError(f"{where}: values of {shape} cannot be passed in")
    dtype = shape.element_type.numpy_dtype
    if dtype is None:
        raise EvalError(f"{where}: {shape.element_type.text} has no NumPy type")
    foreign = not isinstance(value, (np.ndarray, np.generic)) and (
        hasattr(value, "__array__") or hasattr(value, "__dlpack__")
    )
    if isinstance(value, np.ndarray) or foreign:
        # Arrays keep their type: an f32 array for an f64 parameter is a mistake to report,
        # not a value to convert (jax, torch: their arrays become NumPy first, dtype kept).
        array = _from_array_library(value, shape, where) if foreign else value
        if array.dtype != dtype:
            what = "array" if array is value else type(value).__name__
            raise EvalError(f"{where} must be {shape}: got a {describe(array)} {what} (dtype {array.dtype})")
    else:
        try:
            source = np.asarray(value)
        except (ValueError, TypeError):  # ragged nested lists
            what = type(value).__name__
            raise EvalError(f"{where} must be {shape}: got a {what} that is not an array") from None
        # strings, bytes, objects, dates: no numbers (ml_dtypes scalars of the very type pass)
        if source.dtype != dtype and source.dtype.kind not in "biufc":
            raise EvalError(f"{where} must be {shape}: got {type(value).__name__} {_short(value)}")
        with np.errstate(all="ignore"):
            array = source.astype(dtype)
            back = array.astype(source.dtype)
        same = np.array_equal(back, source, equal_nan=source.dtype.kind in "fc")
        if not same:
            raise EvalError(f"{where} must be {shape}: the values {value!r} are not exactly representable")
    _check_dimensions(array, shape, where)
    return array


def _from_array_library(value: Any, shape: Shape, where: str) -> np.ndarray:
    """Another library's array (jax, torch, cupy, ...) as a NumPy array of the same element type,
    without importing that library: `__array__` first (jax gives ml_dtypes' bfloat16 and float8
    through it), else DLPack (`np.from_dlpack`, which needs `__dlpack_device__` too)."""
    what = type(value).__name__
    errors = []
    for protocol, convert in (("__array__", np.asarray), ("__dlpack__", np.from_dlpack)):
        if not hasattr(value, protocol):
            continue
        try:
            array = convert(value)
        except Exception as e:  # the library's own refusal (bf16 over DLPack, a deleted buffer, ...)
            errors.append(f"{protocol}: {type(e).__name__}: {e}")
            continue
        if isinstance(array, np.ndarray) and array.dtype.kind != "O":
            return array
        errors.append(f"{protocol} gave {type(array).__name__} of {getattr(array, 'dtype', '?')}")
    raise EvalError(f"{where} must be {shape}: cannot read the {what} as a NumPy array ({'; '.join(errors)})")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_dimensions(array: np.ndarray, shape: Shape, where: str) -> None:
    dims = shape.dimensions
    ok = array.ndim == len(dims) and all(
        n == d or (dynamic and (d < 0 or n <= d))
        for n, d, dynamic in zip(array.shape, dims, shape.dynamic_dimensions)
    )
    if not ok:
        raise EvalError(f"{where} must be {shape}: got {describe(array)}")
