"""XLA:CPU's own expm1, bit for bit: XLA's elemental emitter writes expm1(x) as exp(x) - 1 where
|x| > 1/2, and elsewhere as tanh(x/2) * (exp(x) + 1) (exact algebra that avoids the
cancellation), with exp and tanh its own approximations (hlo.numerics.xla_exp; tanh below);
x itself where x/2 == 0 (zeros keep their sign; a subnormal x, read as zero, comes back as it
is). f16 computes each of those ops in f16 (tanh and exp in f32, rounded to f16); bf16 computes
everything in f32 and rounds once.

The tanh is Eigen's rational approximation as XLA emits it: f32 clamps the argument to
+-7.99881172, p of degree 6 and q of degree 3 in x^2 (Horner's rule in FMAs), tanh = x*p/q, x
itself below 0.0004 and +-1 from 20 on; f64 clamps to +-17.7142 with p and q of degree 9. Only
|x| <= 1/2 reads it, so it is computed on those elements alone."""

from __future__ import annotations

import numpy as np

from ..dtypes import PrimitiveType
from .fma import fma
from .xla_exp import blocked, exp, f32, f64, fma32

LIMIT32 = f32(0x40FFF644)
TANH_P32 = tuple(
    f32(b) for b in (0xA59F25C0, 0x2A61337E, 0xAEBD37FF, 0x335C0041, 0x3779434A, 0x3A270DED, 0x3BA059DC)
)
TANH_Q32 = tuple(f32(b) for b in (0x35A0D3D8, 0x38F895D6, 0x3B14AA05, 0x3BA059DD))
LIMIT64 = f64(0x4031B6D58F246197)
TANH_P64 = tuple(
    f64(b)
    for b in (
        0x3B3F9F82E5D782DF, 0x3C2C3C836C04B4C8, 0x3CEC3379F905E662, 0x3D929AFF6C8EDD96, 0x3E2525A389DCE7C2,
        0x3EA708819BE51CD9, 0x3F18996F4026A7FA, 0x3F787F80B957ED00, 0x3FC36FBA9B450E5A, 0x3FF0000000000000,
    )
)  # fmt: skip
TANH_Q64 = tuple(
    f64(b)
    for b in (
        0x3BBE8630CF903250, 0x3C90AABCA9A5FEA0, 0x3D4232981AA2BBA8, 0x3DDEE2F015EA8065, 0x3E681F1947C52304,
        0x3EE26C82AB46D140, 0x3F4B2E7C4D488C04, 0x3FA1998830265B50, 0x3FDF0D32A2F7DC79, 0x3FF0000000000000,
    )
)  # fmt: skip


def _horner(x2: np.ndarray, coefficients: tuple[np.floating, ...]) -> np.ndarray:
    """c0*x2^k + ... + ck, one FMA a step (x2*p + c, as XLA's IR orders the operands)."""
    single = x2.dtype == np.float32
    dtype = x2.dtype.type
    p = np.full_like(x2, coefficients[0])
    for c in coefficients[1:]:
        p = fma32(x2, p, c) if single else fma(x2, p, np.full_like(x2, dtype(c)))
    return p


def tanh(x: np.ndarray) -> np.ndarray:
    """The tanh XLA:CPU's expm1 uses, of an f32 or f64 array (large arrays as machine code where
    llvmlite is installed, hlo.numerics.xla_exp_loop)."""
    from . import xla_exp_loop

    if xla_exp_loop.takes(x.size):
        return xla_exp_loop.apply("tanh", x)
    single = x.dtype == np.float32
    limit = LIMIT32 if single else LIMIT64
    c = np.clip(x, -limit, limit)
    c2 = c * c
    with np.errstate(all="ignore"):
        t = c * _horner(c2, TANH_P32 if single else TANH_P64) / _horner(c2, TANH_Q32 if single else TANH_Q64)
    magnitude = np.abs(x)
    if single:
        t = np.where(magnitude < np.float32(0.0004), x, t)
    return np.where(magnitude >= 20, np.copysign(x.dtype.type(1), x), t)


def _expm1(x: np.ndarray) -> np.ndarray:
    e = exp(x)
    one = x.dtype.type(1)
    half = x * x.dtype.type(0.5)
    result = e - one
    small = ~(np.abs(x) > x.dtype.type(0.5))  # (NaN too)
    if small.any():
        result[small] = tanh(half[small]) * (e[small] + one)
    zero = np.abs(half) < np.finfo(x.dtype).tiny  # (as the CPU's flush-to-zero mode reads it)
    result[zero] = x[zero]
    return result


def _expm1_f16(x: np.ndarray) -> np.ndarray:
    """f16: every op of the expansion rounded to f16 (x holds f16 values, in f32)."""
    h = np.float16
    one = np.float32(1)
    e = exp(x).astype(h).astype(np.float32)
    half = (x * np.float32(0.5)).astype(h).astype(np.float32)
    t = tanh(half).astype(h).astype(np.float32)
    tanh_form = (t * (e + one).astype(h).astype(np.float32)).astype(h)
    result = np.where(np.abs(x) > np.float32(0.5), (e - one).astype(h), tanh_form).astype(np.float32)
    return np.where(half == 0, x, result)


def expm1(x: np.ndarray, t: PrimitiveType) -> np.ndarray:
    """XLA:CPU's expm1 of x in its working type (f32 for f16 and bf16; see the docstring);
    complex: NumPy's."""
    if x.dtype.kind == "c":
        return np.expm1(x)  # type: ignore[no-any-return]
    from . import xla_exp_loop

    if t is not PrimitiveType.F16 and xla_exp_loop.takes(x.size):
        return xla_exp_loop.apply("expm1", x)
    with np.errstate(all="ignore"):
        return blocked(_expm1_f16 if t is PrimitiveType.F16 else _expm1, x)
