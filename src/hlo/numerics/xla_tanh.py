"""XLA:CPU's tanh (its own approximation, not the C library's): Eigen's rational approximation,
x*P(x^2)/Q(x^2) with P of degree 6 and Q of degree 3 in x^2 for f32 and degrees 9 and 9 for
f64, Horner's rule with a fused multiply-add per step, the input clamped first (at 7.998811...
for f32, 17.714196... for f64); f32 returns x itself for |x| < 0.0004, and both give
copysign(1, x) for |x| >= 20 (so f64 values from 17.71 to 20 keep the approximation's
0.9999999999999992). f16 and bf16 are computed in f32 and rounded once. Measured bit for bit
against XLA:CPU (jaxlib 0.10.2, x86-64 with FMA) on 10^6 values per type and every f16 and
bf16 value (tests/golden/ops/exact_tanh_erf.npz)."""

from __future__ import annotations

import numpy as np

from . import subnormals
from .numerics import flush_denormals
from .odd_rational import OddRational, evaluate

F32 = OddRational(
    "tanh_f32",
    "float32",
    numerator=(-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11, 5.12229709037114e-08,
               1.48572235717979e-05, 6.37261928875436e-04, 4.89352455891786e-03),
    denominator=(1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03),
    clamp=7.99881172180175781,
    small=0.0004,
    large=20.0,
)  # fmt: skip
F64 = OddRational(
    "tanh_f64",
    "float64",
    numerator=(2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15, 4.2303918148209176e-12,
               2.4618379131293676e-09, 6.8644367682497074e-07, 9.3839087674268880e-05, 5.9809711724441161e-03,
               1.5184719640284322e-01, 1.0),
    denominator=(6.463747022670968018e-21, 5.782506856739003571e-17, 1.293019623712687916e-13,
                 1.123643448069621992e-10, 4.492975677839633985e-08, 8.785185266237658698e-06,
                 8.295161192716231542e-04, 3.437448108450402717e-02, 4.851805297361760360e-01, 1.0),
    clamp=17.714196154005176,  # (XLA's clamp for a CPU without FMA, though LLVM fuses the steps)
    small=None,
    large=20.0,
)  # fmt: skip
FORMS: dict[np.dtype, OddRational] = {np.dtype(np.float32): F32, np.dtype(np.float64): F64}


def tanh(x: np.ndarray) -> np.ndarray:
    """tanh as XLA:CPU computes it for f32 and f64 (NumPy's for complex values)."""
    form = FORMS.get(np.asarray(x).dtype)
    if form is not None:
        return evaluate(form, x)
    if subnormals.supported():
        return np.tanh(x)
    return flush_denormals(
        np.asarray(np.tanh(flush_denormals(np.asarray(x))))
    )  # (the kernel leaves it to us)
