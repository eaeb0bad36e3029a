"""Elementwise ops of constants as XLA folds them at compile time, with the host's C math library,
not with XLA:CPU's own vectorized approximations. Two folders run, one after the other (checked
against XLA:CPU, jaxlib 0.10.2 on glibc; tests/golden/ops/exact_elementwise_folds.npz, made by
tools/make_fold_fixtures.py):

- StableHLO's folder (XLA:CPU compiles StableHLO; `wide`): exp, log, logistic, rsqrt, sin, cos,
  tan, tanh, erf and sqrt of constants, each element in double (logistic 1 / (1 + exp(-x)),
  rsqrt 1 / sqrt(x)) and rounded once to the element type (`rounded_once`; bf16 too). It
  refuses the whole op when an element is outside a domain: log and rsqrt of x <= 0, sqrt of
  x < 0 (`in_domain`).
- XLA's HloEvaluator (HloConstantFolding, on what is left): f64 in the double functions; f32 in
  the float ones (expf, logf, log1pf, expm1f, sinf, cosf, tanf, tanhf, erff, cbrtf, powf,
  atan2f; logistic 1 / (1 + expf(-x)) and rsqrt 1 / sqrtf(x) in float arithmetic); bf16 and
  f16 by the f32 rule, rounded to the type, except f16 logistic: XLA expands it into f16 ops
  first (expf rounded to f16, then 1 + e and 1 / that, each rounded to f16). It runs in the
  CPU's flush-to-zero mode: subnormal operands and results are zeros (StableHLO's folder keeps
  them: sqrt(1e-40) folds to 1e-20, expm1(1e-40), left to XLA, to 0).

Values are computed on the operands with their broadcast dimensions left out (a broadcast of a
scalar costs one call), in a compiled loop (hlo.numerics.libm_loop) or, without one, through
ctypes up to `LIMIT` calls; beyond it, or without a C math library that ctypes can load, `fold`
returns None and the op's own kernel runs, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ir.opcode import Opcode
from . import libm, libm_loop, numerics, subnormals
from .subnormals import keeping_subnormals

LIMIT = 1 << 16  # calls through ctypes (about 0.3 us each) one folded op may make

_NAMES: dict[Opcode, str] = {
    Opcode.EXP: "exp", Opcode.EXPM1: "expm1", Opcode.LOG: "log", Opcode.LOG1P: "log1p",
    Opcode.SIN: "sin", Opcode.COS: "cos", Opcode.TAN: "tan", Opcode.TANH: "tanh", Opcode.ERF: "erf",
    Opcode.CBRT: "cbrt", Opcode.POWER: "pow", Opcode.ATAN2: "atan2", Opcode.SQRT: "sqrt",
}  # fmt: skip
# the ops folded here (sqrt for its subnormals: the folders do not flush them)
OPCODES = frozenset({*_NAMES, Opcode.LOGISTIC, Opcode.RSQRT})
# the ops StableHLO's folder computes in double
WIDE = frozenset({Opcode.EXP, Opcode.LOG, Opcode.LOGISTIC, Opcode.RSQRT, Opcode.SIN, Opcode.COS,
                  Opcode.TAN, Opcode.TANH, Opcode.ERF, Opcode.SQRT})  # fmt: skip


def _compact(operands: list[np.ndarray]) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """The operands without the dimensions every one of them broadcasts (stride 0), and the
    full shape."""
    arrays = np.broadcast_arrays(*operands)
    shape = arrays[0].shape
    keep = tuple(
        slice(None) if any(a.strides[d] != 0 for a in arrays) else slice(0, 1) for d in range(len(shape))
    )
    return [a[keep] for a in arrays], shape


def _calls(name: str, single: bool, operands: list[np.ndarray]) -> np.ndarray | None:
    """The C function called once per element (in float when `single`, else double), in this
    thread's floating-point mode: in a compiled loop (hlo.numerics.libm_loop), else through
    ctypes, operands passing as Python floats (exact for f32 values), up to LIMIT calls. None
    without the function or beyond the limit."""
    fn = libm.c_function(name, single, len(operands))
    if fn is None:
        return None
    dtype = np.dtype(np.float32 if single else np.float64)
    arrays = np.broadcast_arrays(*operands)
    if libm.loop_available(dtype, len(arrays)):
        flat = [np.ascontiguousarray(a, dtype).reshape(-1) for a in arrays]
        out = np.empty(flat[0].size, dtype)
        libm_loop.run(fn, flat, out, split=False)  # (this thread's mode: the folders' own)
        return out.reshape(arrays[0].shape)
    if arrays[0].size > LIMIT:
        return None
    calls = np.frompyfunc(fn, len(arrays), 1)
    out = np.asarray(calls(*[a.astype(np.float64) for a in arrays]), dtype=np.float64)
    return out.astype(dtype)


def in_domain(opcode: Opcode, x: np.ndarray) -> bool:
    """Whether StableHLO's folder folds `opcode` of `x` (it refuses log and rsqrt of any x <= 0,
    sqrt of any x < 0; NaN passes)."""
    with np.errstate(invalid="ignore"):
        if opcode in (Opcode.LOG, Opcode.RSQRT):
            return not bool(np.any(x <= 0))
        if opcode is Opcode.SQRT:
            return not bool(np.any(x < 0))
    return opcode in WIDE


def _wide(opcode: Opcode, x: np.ndarray) -> np.ndarray | None:
    """StableHLO's folder: in double."""
    x = x.astype(np.float64)
    if opcode is Opcode.LOGISTIC:
        e = _calls("exp", False, [np.negative(x)])
        return None if e is None else 1.0 / (1.0 + e)
    if opcode is Opcode.RSQRT:
        return 1.0 / np.sqrt(x)
    return _calls(_NAMES[opcode], False, [x])


def _evaluator(opcode: Opcode, operands: list[np.ndarray], dtype: np.dtype, flush: bool) -> np.ndarray | None:
    """XLA's evaluator: f64 in double, the others in f32 with the float functions; with `flush`,
    subnormal operands and results become zeros, as the CPU's flush-to-zero mode, on during
    XLA's compilation, makes them (expm1(1e-40) folds to 0)."""
    value = _evaluator_values(opcode, operands, dtype, flush)
    return numerics.flush_denormals(value) if flush and value is not None else value


def _evaluator_values(
    opcode: Opcode, operands: list[np.ndarray], dtype: np.dtype, flush: bool
) -> np.ndarray | None:
    work = np.dtype(np.float64) if dtype == np.float64 else np.dtype(np.float32)
    single = work == np.float32
    xs = [o.astype(work) for o in operands]
    if flush and single and len(xs) == 1 and subnormals.supported() and libm.loop_available(work, 1):
        # the float functions get the operands' bits in the CPU's flush-to-zero mode, as in
        # XLA's evaluator (logf of 1e-40 is -103.97 there, of -1e-40 NaN); f64 operands, and
        # the operands of pow and atan2, reach its functions as zeros (log of 1e-310 is -inf)
        with subnormals.flushing_subnormals(True):
            return _evaluator_calls(opcode, xs, dtype, work, single)
    if flush:
        xs = [numerics.flush_denormals(x) for x in xs]
    return _evaluator_calls(opcode, xs, dtype, work, single)


def _evaluator_calls(
    opcode: Opcode, xs: list[np.ndarray], dtype: np.dtype, work: np.dtype, single: bool
) -> np.ndarray | None:
    if opcode is Opcode.RSQRT:
        return (work.type(1) / np.sqrt(xs[0])).astype(work)
    if opcode is Opcode.LOGISTIC:
        e = _calls("exp", single, [np.negative(xs[0])])
        if e is None:
            return None
        # f16 (not bf16) reaches the evaluator as XLA's expander wrote it: exp, add and divide,
        # each rounded to f16
        step = np.dtype(np.float16) if dtype == np.float16 else work
        one = step.type(1)
        return (one / (one + e.astype(step))).astype(work)
    out = _calls(_NAMES[opcode], single, xs)
    return None if out is None else out.astype(work)


def fold(
    opcode: Opcode, operands: list[np.ndarray], dtype: np.dtype, wide: bool, flush: bool = True
) -> np.ndarray | None:
    """`opcode` of constant float `operands` (element type `dtype`) as StableHLO's folder
    (`wide`, the caller having checked `in_domain`; it keeps subnormals) or XLA's evaluator
    computes it (subnormals flushed when `flush`, the run's option); None when not covered here
    (other types, too many elements, no C math library)."""
    if not (dtype in (np.float32, np.float64) or (dtype.itemsize == 2 and dtype.kind in "fV")):
        return None  # f32, f64, f16 and bf16 only
    compact, shape = _compact(operands)
    # (flushing, where the evaluator does, in software: the C functions run with the mode off)
    with np.errstate(all="ignore"), keeping_subnormals():
        value = _wide(opcode, compact[0]) if wide else _evaluator(opcode, compact, dtype, flush)
        if value is None:
            return None
        rounded = rounded_once(value, dtype) if wide else value.astype(dtype)
        return np.broadcast_to(rounded, shape)


def rounded_once(d: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Doubles rounded once to `dtype`, to nearest (ties to even), as StableHLO's folder rounds
    its results. ml_dtypes takes a double to bf16 through f32, rounding twice; rounding to f32
    toward odd first keeps the second rounding right (f32 has the range and 16 more bits)."""
    if dtype.itemsize != 2 or dtype == np.float16:
        return d.astype(dtype)  # (NumPy rounds double to f16, f32 directly)
    with np.errstate(all="ignore"):
        r = d.astype(np.float32)
        back = r.astype(np.float64)
        inexact = (back != d) & ~np.isnan(d)
        r = np.where(np.abs(back) > np.abs(d), np.nextafter(r, np.float32(0)), r)  # toward zero
        odd = np.asarray(r, np.float32).view(np.uint32) | inexact.astype(np.uint32)
        return odd.view(np.float32).astype(dtype)


def kernel(opcode: Opcode, fallback: Callable[..., Any], wide: bool, flush: bool) -> Callable[..., Any]:
    """A kernel that folds as `fold` where it covers the op and runs `fallback` (the op's own
    kernel) otherwise."""

    def folded(*operands: np.ndarray) -> Any:
        arrays = [np.asarray(o) for o in operands]
        value = fold(opcode, arrays, arrays[0].dtype, wide, flush)
        return fallback(*operands) if value is None else value

    return folded
