"""XLA:CPU's exp, expm1 and logistic of one f32 or f64 element, for the compiled tiers'
generated code (hlo.numerics.jit_ops): the algorithms of hlo.numerics.xla_exp and xla_expm1
step for step, with the hardware's FMA where XLA:CPU's code has one, so every element has the
interpreter's bits. Compiled by numba when the generated code first calls them; imported by
that code only (numba is installed then)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from .jit_fma import fma_f32, fma_f64
from .xla_exp import C1_32, C1_64, C2_32, C2_64, HI32, HI64, LO32, LO64, LOG2E32, LOG2E64, P32, P64, Q64
from .xla_expm1 import LIMIT32, LIMIT64, TANH_P32, TANH_P64, TANH_Q32, TANH_Q64

_ONE32, _HALF32, _SMALL32 = np.float32(1), np.float32(0.5), np.float32(0.0004)
_N32 = np.float32(127)
_P32_TAIL, _P64_ONE, _Q64_TAIL = P32[2:], P64[2], Q64[2:]
_jit = njit(cache=False, error_model="numpy")


@_jit
def exp_f32(x: Any) -> Any:
    z = x if x >= LO32 or x != x else LO32
    z = z if z <= HI32 or z != z else HI32
    if z != z:
        return z
    n = np.floor(fma_f32(z, LOG2E32, _HALF32))
    n = min(max(n, -_N32), _N32)
    r = fma_f32(-n, C1_32, z)
    r = fma_f32(-n, C2_32, r)
    p = fma_f32(r, P32[0], P32[1])
    for c in _P32_TAIL:
        p = fma_f32(p, r, c)
    y = fma_f32(p, r * r, r) + _ONE32
    scale = np.float32(0) if n == -_N32 else np.float32(math.ldexp(1.0, int(n)))  # 2^-127: +0
    return y * scale


@_jit
def exp_f64(x: Any) -> Any:
    if x != x:
        return x
    z = max(min(x, HI64), LO64)
    n = np.floor(fma_f64(z, LOG2E64, 0.5))
    g = fma_f64(-n, C2_64, fma_f64(-n, C1_64, z))
    g2 = g * g
    p = fma_f64(fma_f64(g2, P64[0], P64[1]), g2, _P64_ONE) * g
    q = fma_f64(g2, Q64[0], Q64[1])
    for c in _Q64_TAIL:
        q = fma_f64(q, g2, c)
    y = 2.0 * (p / (q - p)) + 1.0
    e = int(n)
    b = e >> 2
    factor = math.ldexp(1.0, b)
    result = y * factor * factor * factor * math.ldexp(1.0, e - 3 * b)
    if x < LO64:
        return 0.0
    if x > HI64:
        return math.inf
    return result


@_jit
def tanh_f32(h: Any) -> Any:
    if h != h:
        return h
    c = min(max(h, -LIMIT32), LIMIT32)
    c2 = c * c
    p = fma_f32(c2, TANH_P32[0], TANH_P32[1])
    for k in range(2, len(TANH_P32)):
        p = fma_f32(c2, p, TANH_P32[k])
    q = fma_f32(c2, TANH_Q32[0], TANH_Q32[1])
    for k in range(2, len(TANH_Q32)):
        q = fma_f32(c2, q, TANH_Q32[k])
    magnitude = abs(h)
    if magnitude >= 20:
        return _ONE32 if h > 0 else -_ONE32
    if magnitude < _SMALL32:
        return h
    return c * p / q


@_jit
def tanh_f64(h: Any) -> Any:
    if h != h:
        return h
    c = min(max(h, -LIMIT64), LIMIT64)
    c2 = c * c
    p = fma_f64(c2, TANH_P64[0], TANH_P64[1])
    for k in range(2, len(TANH_P64)):
        p = fma_f64(c2, p, TANH_P64[k])
    q = fma_f64(c2, TANH_Q64[0], TANH_Q64[1])
    for k in range(2, len(TANH_Q64)):
        q = fma_f64(c2, q, TANH_Q64[k])
    if abs(h) >= 20:
        return 1.0 if h > 0 else -1.0
    return c * p / q


@_jit
def expm1_f32(x: Any) -> Any:
    half = x * _HALF32
    if half == 0:
        return x
    e = exp_f32(x)
    if abs(x) > _HALF32:
        return e - _ONE32
    return tanh_f32(half) * (e + _ONE32)


@_jit
def expm1_f64(x: Any) -> Any:
    half = x * 0.5
    if half == 0:
        return x
    e = exp_f64(x)
    if abs(x) > 0.5:
        return e - 1.0
    return tanh_f64(half) * (e + 1.0)


@_jit
def logistic_f32(x: Any) -> Any:
    return _ONE32 / (_ONE32 + exp_f32(-x))


@_jit
def logistic_f64(x: Any) -> Any:
    return 1.0 / (1.0 + exp_f64(-x))
