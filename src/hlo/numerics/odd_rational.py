"""The form of XLA:CPU's own tanh and f32 erf (hlo.numerics.xla_tanh, xla_erf): an odd rational
function x*P(x^2)/Q(x^2), each polynomial evaluated by Horner's rule with one fused
multiply-add per step (XLA's IR either calls llvm.fma or allows contraction, and the CPU has
FMA), after an optional clamp of the input, with |x| below a bound giving x itself and |x| at
or above another giving copysign(1, x).

Computed by a compiled loop (hlo.numerics.odd_rational_loop: the same steps in LLVM IR, with
the CPU's FMA, at XLA:CPU's speed) when llvmlite is installed and the loop is compiled, or the
array large enough to wait for its compilation; otherwise in NumPy with hlo.numerics.fma
(exact, ~30 passes: ~0.1 us an f32 element), and once a form has computed enough elements that
way a background thread compiles its loop (llvmlite's load and the compilation, ~60-90 ms, stay
out of a first result of small arrays, and a program that calls tanh often gets the loop). Both
give XLA:CPU's bits, NaN payloads, signed zeros and subnormals included, in the CPU's
flush-to-zero mode or, where the mode cannot be set, with the software flush: subnormal inputs
count as zero and subnormal results become zero, except where the form gives x itself (XLA
selects the input, whose bits no mode changes)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

import numpy as np

from . import subnormals
from .numerics import flush_denormals

COMPILED_MIN_ELEMENTS = 1 << 17  # from here a call waits for the loop (NumPy: ~13 ms in f32)
BACKGROUND_AFTER = 1 << 15  # elements a form computes in NumPy before its loop compiles aside
CALL_ELEMENTS = 1 << 11  # what a call counts for besides its elements: ~30 NumPy calls' overhead
F64_WEIGHT = 8  # an f64 element costs NumPy's way (fma's two-products) as much as 8 f32 ones
_numpy_elements: dict[str, int] = {}


@dataclass(frozen=True)
class OddRational:
    """One approximation: `numerator` and `denominator` are the coefficients in x^2, highest
    power first (the Horner order); `clamp`: the input is clamped to [-clamp, clamp] first by
    XLA's fast max/min (compare and select: a NaN input stays NaN); `small`: below it |x| gives
    x; `large`: from it on, copysign(1, x)."""

    name: str  # the compiled loop's name, e.g. "tanh_f32"
    dtype: str  # "float32" or "float64"
    numerator: tuple[float, ...]
    denominator: tuple[float, ...]
    clamp: float | None
    small: float | None
    large: float


def evaluate(form: OddRational, x: np.ndarray, flush: bool | None = None) -> np.ndarray:
    """The approximation over x (of the form's dtype), compiled or in NumPy (the same bits);
    `flush`: subnormals flushed as the CPU's mode does; by default when this thread runs in that
    mode, or where the mode cannot be set (in software then)."""
    x = np.asarray(x)
    if flush is None:
        flush = subnormals.active() or not subnormals.supported()
    if x.size and _compiled(form, x.size):
        from . import odd_rational_loop

        flat = np.ascontiguousarray(x).reshape(-1)
        out = np.empty_like(flat)
        if odd_rational_loop.run(form, flat, out, flush):
            return out.reshape(x.shape)
    return in_numpy(form, x, flush)


def in_numpy(form: OddRational, x: np.ndarray, flush: bool = True) -> np.ndarray:
    """The approximation step by step in NumPy arrays, each fused multiply-add exact
    (hlo.numerics.fma)."""
    from .fma import fma

    t = np.dtype(form.dtype).type
    with np.errstate(all="ignore"):
        xf = flush_denormals(x) if flush else x  # (the arithmetic's view of x under DAZ)
        xc = xf
        if form.clamp is not None:  # XLA's fast max/min: select(x >= -c or unordered, x, -c)
            xc = np.minimum(np.maximum(xf, t(-form.clamp)), t(form.clamp))
        x2 = xc * xc
        p = np.full(x.shape, t(form.numerator[0]))
        for c in form.numerator[1:]:
            p = fma(x2, p, t(c))
        q = np.full(x.shape, t(form.denominator[0]))
        for c in form.denominator[1:]:
            q = fma(x2, q, t(c))
        r = np.asarray((xc * p) / q)
        if flush:
            r = flush_denormals(r)
        magnitude = np.abs(xf)
        if form.small is not None:
            r = np.where(magnitude < t(form.small), x, r)
        return np.where(magnitude >= t(form.large), np.copysign(t(1), xf), r).astype(x.dtype, copy=False)


def named(name: str, dtype: str) -> OddRational | None:
    """The form the compiled tiers call as ufunc loop `name` ("xla_tanh", "xla_erf") for values
    of `dtype`; None where XLA:CPU computes that type otherwise."""
    from . import xla_erf, xla_tanh

    forms: dict[str, dict[np.dtype, OddRational]] = {
        "xla_tanh": xla_tanh.FORMS,
        "xla_erf": {np.dtype(np.float32): xla_erf.F32},
    }
    return forms.get(name, {}).get(np.dtype(dtype))


def _compiled(form: OddRational, size: int) -> bool:
    """Whether the loop runs a call of this size: made ahead of time (hlo.numerics.native_image),
    or llvmlite installed and the loop ready or the array large; else the call counts towards
    compiling the loop aside."""
    from . import native_image, odd_rational_loop

    if native_image.available(native_image.APPROXIMATIONS):
        return True
    if not _llvmlite_installed():
        return False
    if odd_rational_loop.usable(form) is not None:
        return bool(odd_rational_loop.usable(form))
    size *= 1 if form.dtype == "float32" else F64_WEIGHT
    if size >= COMPILED_MIN_ELEMENTS:
        return True
    done = _numpy_elements.get(form.name, 0) + size + CALL_ELEMENTS
    _numpy_elements[form.name] = done
    if done >= BACKGROUND_AFTER:
        odd_rational_loop.compile_aside(form)
    return False


_installed: list[bool] = []


def _llvmlite_installed() -> bool:
    if not _installed:
        _installed.append(importlib.util.find_spec("llvmlite") is not None)
    return _installed[0]
