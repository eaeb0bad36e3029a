"""Custom calls: a registry of targets by name.

- `register_custom_call(target, fn)`: a Python function of the operand arrays (and, if it takes
  them, the keyword arguments `backend_config=` (the text) and `shape=` (the result hlo.Shape))
  returning an array, or a tuple of arrays for a tuple result.
- `register_c_custom_call(target, library, symbol=None)`: a C function of page 003's ABI,
  `void target(void* out, void** in)`, loaded with ctypes from a shared library; operands and
  results are passed as buffers in their shapes' layouts (row-major by default); a tuple result
  gets an array of buffer pointers as `out`.
- Built in: the LAPACK FFI targets jax emits on CPU (potrf, getrf, geqrf, orgqr, syevd, gesdd,
  trsm for f32, f64, c64, c128), its sharding markers (identities on one device) and TopK.
"""

from __future__ import annotations

import ctypes
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import EvalError, HloError
from ..shape import Shape


@dataclass(frozen=True)
class Target:
    fn: Callable[..., Any]
    wants_config: bool = False
    wants_shape: bool = False


_TARGETS: dict[str, Target] = {}


def register_custom_call(target: str, fn: Callable[..., Any]) -> None:
    """Make custom-call `target` run `fn` (see the module's docstring)."""
    if not isinstance(target, str) or not target:
        raise HloError(f"a custom-call target is a non-empty string, not {target!r}")
    if not callable(fn):
        raise HloError(f"the function of custom-call target {target!r} is not callable: {fn!r}")
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    has_kwargs = any(p.kind is p.VAR_KEYWORD for p in params.values())
    _TARGETS[target] = Target(fn, "backend_config" in params or has_kwargs, "shape" in params or has_kwargs)


def register_c_custom_call(target: str, library: str, symbol: str | None = None) -> None:
    """Make custom-call `target` call `symbol` (default: the target's name) of a shared library."""
    try:
        lib = ctypes.CDLL(library)
        c_fn = getattr(lib, symbol or target)
    except (OSError, AttributeError) as e:
        raise HloError(
            f"custom-call target {target!r}: cannot load {symbol or target} from {library}: {e}"
        ) from None
    c_fn.restype = None
    c_fn.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]

    def call(*operands: np.ndarray, shape: Shape, operand_shapes: tuple[Shape, ...] = ()) -> Any:
        from ..physical_bytes import from_physical, to_physical

        # each operand's bytes laid out as its shape's layout says (row-major by default)
        inputs = [
            np.frombuffer(bytearray(to_physical(x, s)), np.uint8) for x, s in zip(operands, operand_shapes)
        ]
        pointers = (ctypes.c_void_p * max(len(inputs), 1))(*[x.ctypes.data for x in inputs])
        leaves = list(shape.tuple_shapes) if shape.is_tuple else [shape]
        outputs = [bytearray(_byte_size(s)) for s in leaves]
        out_arrays = [np.frombuffer(b, np.uint8) for b in outputs]
        if shape.is_tuple:
            table = (ctypes.c_void_p * max(len(outputs), 1))(*[a.ctypes.data for a in out_arrays])
            c_fn(ctypes.cast(table, ctypes.c_void_p), pointers)
        else:
            c_fn(ctypes.c_void_p(out_arrays[0].ctypes.data), pointers)
        results = [from_physical(bytes(b), s) for b, s in zip(outputs, leaves)]
        return tuple(results) if shape.is_tuple else results[0]

    _TARGETS[target] = Target(call, False, True)
    _C_TARGETS.add(target)


_C_TARGETS: set[str] = set()


def _byte_size(shape: Shape) -> int:
    from ..memory import byte_size

    return byte_size(shape)


def lookup(target: str) -> Target:
    t = _TARGETS.get(target)
    if t is None:
        raise EvalError(
            f"unknown custom-call target {target!r}: register a Python function with "
            f"hlo.register_custom_call({target!r}, fn) or a C function with "
            f"hlo.register_c_custom_call({target!r}, 'lib.so')"
        )
    return t


def call(
    target: str,
    operands: tuple[np.ndarray, ...],
    shape: Shape,
    config: str,
    operand_shapes: tuple[Shape, ...],
) -> Any:
    t = lookup(target)
    kwargs: dict[str, Any] = {}
    if t.wants_config:
        kwargs["backend_config"] = config
    if t.wants_shape:
        kwargs["shape"] = shape
    if target in _C_TARGETS:
        kwargs["operand_shapes"] = operand_shapes
    try:
        result = t.fn(*operands, **kwargs)
    except HloError:
        raise
    except Exception as e:
        raise EvalError(f"custom-call target {target!r} raised {type(e).__name__}: {e}") from None
    return _checked(target, result, shape)


def _checked(target: str, value: Any, shape: Shape) -> Any:
    """The function's result converted to `shape`'s types, or an error saying what differs."""
    if shape.is_tuple:
        if not isinstance(value, (tuple, list)) or len(value) != len(shape.tuple_shapes):
            count = len(shape.tuple_shapes)
            raise EvalError(
                f"custom-call target {target!r} must return a tuple of {count} arrays for {shape}"
            )
        return tuple(_checked(target, v, s) for v, s in zip(value, shape.tuple_shapes))
    array = np.asarray(value)
    dtype = np.dtype(shape.element_type.numpy_dtype)
    if array.shape != shape.dimensions:
        raise EvalError(
            f"custom-call target {target!r} returned an array of shape {array.shape}; the result is {shape}"
        )
    return array.astype(dtype, copy=False)


# -- built-in targets ---------------------------------------------------------------------------
def config_chars(config: str) -> dict[str, str]:
    """`{uplo = 76 : ui8, mode = 86 : ui8}` (an MLIR dictionary of ui8 characters) as letters."""
    return {k: chr(int(v)) for k, v in re.findall(r"(\w+)\s*=\s*(\d+)\s*:\s*ui8", config)}


def _batched(fn: Callable[..., tuple[np.ndarray, ...]], *xs: np.ndarray) -> tuple[np.ndarray, ...]:
    """Apply a per-matrix LAPACK call over leading batch dimensions (one call per matrix)."""
    batch = xs[0].shape[:-2]
    count = int(np.prod(batch, dtype=np.int64))
    flat = [x.reshape(count, *x.shape[len(batch) :]) for x in xs]
    results = [fn(*(f[k] for f in flat)) for k in range(count)]
    if count == 0:
        return tuple()
    return tuple(
        np.stack([r[j] for r in results]).reshape(tuple(batch) + np.shape(results[0][j]))
        for j in range(len(results[0]))
    )


def _lapack(name: str, dtype: np.dtype) -> Callable[..., Any]:
    from scipy.linalg import lapack

    prefix = {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}[np.dtype(dtype).name]
    if name in ("syevd", "orgqr") and prefix in "cz":
        name = {"syevd": "heevd", "orgqr": "ungqr"}[name]
    return getattr(lapack, prefix + name)  # type: ignore[no-any-return]


def _potrf(a: np.ndarray, backend_config: str = "") -> tuple[np.ndarray, np.ndarray]:
    lower = config_chars(backend_config).get("uplo", "L") == "L"
    potrf = _lapack("potrf", a.dtype)
    factor, info = _batched(lambda m: tuple(np.asarray(v) for v in potrf(m, lower=lower, clean=False)), a)
    return factor.astype(a.dtype), info.astype(np.int32)


def _getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    getrf = _lapack("getrf", a.dtype)
    lu, piv, info = _batched(lambda m: tuple(np.asarray(v) for v in getrf(m)), a)
    return lu.astype(a.dtype), (piv + 1).astype(np.int32), info.astype(np.int32)


def _geqrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    geqrf = _lapack("geqrf", a.dtype)
    qr, tau = _batched(lambda m: tuple(np.asarray(v) for v in geqrf(m)[:2]), a)
    return qr.astype(a.dtype), tau.astype(a.dtype)


def _orgqr(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    orgqr = _lapack("orgqr", a.dtype)
    (q,) = _batched(lambda m, t: (np.asarray(orgqr(m, t)[0]),), a, tau[..., None, :])
    return q.astype(a.dtype)


def _syevd(a: np.ndarray, backend_config: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    chars = config_chars(backend_config)
    vectors, lower = chars.get("mode", "V") == "V", chars.get("uplo", "L") == "L"
    syevd = _lapack("syevd", a.dtype)
    w, v, info = _batched(lambda m: tuple(np.asarray(x) for x in syevd(m, compute_v=vectors, lower=lower)), a)
    real = np.finfo(a.dtype).dtype
    return v.astype(a.dtype), w.astype(real), info.astype(np.int32)


def _gesdd(a: np.ndarray, backend_config: str = "", shape: Shape | None = None) -> tuple[np.ndarray, ...]:
    mode = config_chars(backend_config).get("mode", "A")
    gesdd = _lapack("gesdd", a.dtype)
    compute_uv = mode != "N"
    full = mode == "A"
    u, s, vt, info = _batched(
        lambda m: tuple(np.asarray(x) for x in gesdd(m, compute_uv=compute_uv, full_matrices=full)), a
    )
    real = np.finfo(a.dtype).dtype
    assert shape is not None
    u_shape, vt_shape = shape.tuple_shapes[2].dimensions, shape.tuple_shapes[3].dimensions
    u = u if u.shape == u_shape else np.zeros(u_shape, a.dtype)
    vt = vt if vt.shape == vt_shape else np.zeros(vt_shape, a.dtype)
    return a, s.astype(real), u.astype(a.dtype), vt.astype(a.dtype), info.astype(np.int32)


def _trsm(a: np.ndarray, b: np.ndarray, backend_config: str = "") -> np.ndarray:
    from ..ir.attrs import TransposeA
    from ..numerics.linalg import triangular_solve

    chars = config_chars(backend_config)
    transpose = {"N": TransposeA.NO_TRANSPOSE, "T": TransposeA.TRANSPOSE, "C": TransposeA.ADJOINT}[
        chars.get("trans_x", "N")
    ]
    return triangular_solve(
        a,
        b,
        chars.get("side", "L") == "L",
        chars.get("uplo", "L") == "L",
        chars.get("diag", "N") == "U",
        transpose,
    )


def _top_k(x: np.ndarray, shape: Shape | None = None) -> tuple[np.ndarray, np.ndarray]:
    from ..dtypes import from_numpy_dtype
    from ..numerics.sorting import top_k

    assert shape is not None
    k = shape.tuple_shapes[0].dimensions[-1]
    return top_k(x, k, True, from_numpy_dtype(x.dtype).bit_width)


def _identity(x: np.ndarray) -> np.ndarray:
    return x


for _t in ("s", "d", "c", "z"):
    register_custom_call(f"lapack_{_t}potrf_ffi", _potrf)
    register_custom_call(f"lapack_{_t}getrf_ffi", _getrf)
    register_custom_call(f"lapack_{_t}geqrf_ffi", _geqrf)
    register_custom_call(f"lapack_{_t}trsm_ffi", _trsm)
    register_custom_call(f"lapack_{_t}gesdd_ffi", _gesdd)
for _t in ("s", "d"):
    register_custom_call(f"lapack_{_t}orgqr_ffi", _orgqr)
    register_custom_call(f"lapack_{_t}syevd_ffi", _syevd)
for _t in ("c", "z"):
    register_custom_call(f"lapack_{_t}ungqr_ffi", _orgqr)
    register_custom_call(f"lapack_{_t}heevd_ffi", _syevd)
for _marker in ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "MoveToHost", "MoveToDevice"):
    register_custom_call(_marker, _identity)
register_custom_call("TopK", _top_k)
