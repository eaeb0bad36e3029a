"""XLA:CPU's f32 erf (its own approximation; f64 erf is the C library's, hlo.numerics.libm):
Eigen's rational approximation x*P(x^2)/Q(x^2), P of degree 4 and Q of degree 6 in x^2, Horner's
rule with llvm.fma per step, and copysign(1, x) for |x| >= 3.8325069 (where erf rounds to 1 in
f32). f16 and bf16 are computed in f32 and rounded once. Measured bit for bit against XLA:CPU
(jaxlib 0.10.2, x86-64 with FMA) on 10^6 f32 values and every f16 and bf16 value
(tests/golden/ops/exact_tanh_erf.npz)."""

from __future__ import annotations

import numpy as np

from .odd_rational import OddRational, evaluate

F32 = OddRational(
    "erf_f32",
    "float32",
    numerator=(0.00022905065861350646, 0.0034082910107109506, 0.050955695062380861, 0.18520832239976145,
               1.128379143519084),
    denominator=(-1.1791602954361697e-7, 0.000023547966471313185, 0.0010179625278914885, 0.014070470171167667,
                 0.11098505178285362, 0.49746925110067538, 1.0),
    clamp=None,
    small=None,
    large=3.832506856900711,
)  # fmt: skip


def erf(x: np.ndarray) -> np.ndarray:
    """erf of f32 values as XLA:CPU computes it (others: SciPy's, which f64 erf never reaches:
    the C library's is taken first, hlo.numerics.libm)."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        return evaluate(F32, x)
    from scipy.special import erf as scipy_erf

    return scipy_erf(x)  # type: ignore[no-any-return]
