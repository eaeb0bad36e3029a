"""Complex sine, cosine, tangent, tanh, expm1 and logistic as XLA:CPU computes them, bit for bit.

XLA's elemental emitter writes each as float arithmetic on the parts with its own real exp,
expm1 and tanh (hlo.numerics.xla_exp, xla_expm1) and the C library's sin and cos; LLVM fuses a
multiply whose only use is an add into an FMA (hlo.numerics.complex_steps). logistic is
rewritten by XLA into 1 / (1 + exp(-z)) on complex values, which the complex exp and divide
here compute as XLA:CPU does.
"""

from __future__ import annotations

import numpy as np

from . import complex_steps as real_ops
from .complex_arith import divide
from .complex_steps import Steps, parts
from .numerics import make_complex

_COS_M1_F32 = (0x29555E8C, 0xAD49C992, 0x310F76C6, 0xB493F27E, 0x37D00D01, 0xBAB60B61, 0x3D2AAAAB)
_COS_M1_F64 = (
    0x3D2AABD1874DF32F, 0xBDA9393241EB1E86, 0x3E21EED8C90CB3CA, 0xBE927E4FB75EB8CA,
    0x3EFA01A01A018CCA, 0xBF56C16C16C16C0F, 0x3FA5555555555555,
)  # fmt: skip
_COS_M1_LIMIT = 0.61685  # from here cos(y) - 1 itself


def exp(z: np.ndarray, flush: bool) -> np.ndarray:
    """e^a (cos b + i sin b); where e^a overflows, (e^(a/2) cos b) e^(a/2) (and so for sin),
    which stays finite while the product does; +0 imaginary part where b is zero."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        a, b = parts(z, step)
        half = step.real(real_ops.exp, step(a * a.dtype.type(0.5)))
        whole = step.real(real_ops.exp, a)
        sin, cos = step.real(real_ops.sin, b), step.real(real_ops.cos, b)
        over = whole == np.inf
        real = np.where(over, step(step(half * cos) * half), step(whole * cos))
        imag = np.where(over, step(step(half * sin) * half), step(whole * sin))
        imag = np.where(b == 0, np.zeros((), b.dtype), imag)
        return make_complex(real, imag).astype(z.dtype, copy=False)


def sin(z: np.ndarray, flush: bool) -> np.ndarray:
    """sin a cosh b + i cos a sinh b, cosh and sinh as e^b/2 +- 0.5/e^b."""
    return _sin_or_cos(z, flush, cosine=False)


def cos(z: np.ndarray, flush: bool) -> np.ndarray:
    """cos a cosh b - i sin a sinh b, as (0.5/e^b + e^b/2) cos a + i (0.5/e^b - e^b/2) sin a."""
    return _sin_or_cos(z, flush, cosine=True)


def _sin_or_cos(z: np.ndarray, flush: bool, cosine: bool) -> np.ndarray:
    step = Steps(flush)
    with np.errstate(all="ignore"):
        a, b = parts(z, step)
        e = step.real(real_ops.exp, b)
        half, inverse = step(e * b.dtype.type(0.5)), step(b.dtype.type(0.5) / e)
        sin_a, cos_a = step.real(real_ops.sin, a), step.real(real_ops.cos, a)
        if cosine:  # (the operands in XLA's order: a NaN's sign comes from the first)
            real, imag = step(step(inverse + half) * cos_a), step(step(inverse - half) * sin_a)
        else:
            real, imag = step(step(half + inverse) * sin_a), step(step(half - inverse) * cos_a)
        return make_complex(real, imag).astype(z.dtype, copy=False)


def tanh(z: np.ndarray, flush: bool) -> np.ndarray:
    step = Steps(flush)
    with np.errstate(all="ignore"):
        a, b = parts(z, step)
        real, imag = _tanh_parts(a, b, step)
        return make_complex(real, imag).astype(z.dtype, copy=False)


def tan(z: np.ndarray, flush: bool) -> np.ndarray:
    """-i tanh(i z): the parts of tanh(-b + i a), swapped, the imaginary one negated."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        a, b = parts(z, step)
        real, imag = _tanh_parts(-b, a, step)
        return make_complex(imag, -real).astype(z.dtype, copy=False)


def _tanh_parts(x: np.ndarray, y: np.ndarray, step: Steps) -> tuple[np.ndarray, np.ndarray]:
    """tanh(x + iy) = (e^2x - e^-2x + 4i cos y sin y) / (e^2x + e^-2x + 4 cos^2 y) with
    e^(+-2x) as expm1 + 1 (the ones cancel): +-1 where the sum overflows, NaN or 0 as XLA's
    emitter picks at infinities, +0 imaginary part where y is zero."""
    t = x.dtype.type
    two_x = step(x + x)
    up, down = step.real(real_ops.expm1, two_x), step.real(real_ops.expm1, -two_x)
    cos, sin = step.real(real_ops.cos, y), step.real(real_ops.sin, y)
    total = step(up + down)
    denominator = step.fma(step(cos * cos), t(4), total)
    quarter = step(step(cos * sin) * t(4))
    real = np.where(total == np.inf, np.copysign(t(1), x), step(step(up - down) / denominator))
    imag = step(quarter / denominator)
    x_infinite, nan = np.abs(x) == np.inf, np.isnan(quarter)
    real = np.where(nan & ~x_infinite, np.array(np.nan, x.dtype), real)
    imag = np.where((y == 0) | (x_infinite & nan), np.zeros((), x.dtype), imag)
    return real, imag


def expm1(z: np.ndarray, flush: bool) -> np.ndarray:
    """expm1(a) cos b + (cos b - 1) + i e^a sin b, with cos b - 1 a polynomial in b^2 below
    b^2 = 0.61685 (no cancellation) and +0 imaginary part where b is zero."""
    step = Steps(flush)
    with np.errstate(all="ignore"):
        a, b = parts(z, step)
        t = a.dtype.type
        grown = step.real(real_ops.expm1, a)
        cos_m1 = _cos_minus_one(b, step)
        real = step.fma(grown, step(cos_m1 + t(1)), cos_m1)
        imag = np.where(b == 0, t(0), step(step(grown + t(1)) * step.real(real_ops.sin, b)))
        return make_complex(real, imag).astype(z.dtype, copy=False)


def _cos_minus_one(b: np.ndarray, step: Steps) -> np.ndarray:
    t = b.dtype.type
    words = _COS_M1_F32 if b.dtype == np.float32 else _COS_M1_F64
    coefficients = np.array(words, np.uint32 if b.dtype == np.float32 else np.uint64).view(b.dtype)
    b2 = step(b * b)
    p = np.full_like(b2, coefficients[0])
    for c in coefficients[1:]:
        p = step.fma(p, b2, c)
    series = step.fma(step(b2 * b2), p, step(b2 * t(-0.5)))
    direct = step(step.real(real_ops.cos, b) - t(1))
    return np.where(b2 >= t(_COS_M1_LIMIT), direct, series)


def logistic(z: np.ndarray, flush: bool) -> np.ndarray:
    """1 / (1 + e^-z), as XLA rewrites it, in complex arithmetic."""
    one = np.ones((), z.dtype)
    with np.errstate(all="ignore"):
        grown = exp(-z, flush)
        return divide(np.broadcast_to(one, z.shape), (grown + one).astype(z.dtype), flush)
