"""StableHLO in, op by op: every case of tests/golden/stablehlo/ops.mlir (each op of the
StableHLO spec that XLA:CPU runs, over the element types it takes, on edge values: NaN, inf, -0,
subnormals, extremes) read by `hlo.parse_stablehlo` and run by the engine gives XLA:CPU's outputs
(ops.npz, computed by XLA:CPU from the same text by tools/make_stablehlo_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo

FIXTURES = Path(__file__).parent / "golden" / "stablehlo"


def _cases(file: str) -> dict[str, str]:
    text = (FIXTURES / file).read_text()
    cases = {}
    for block in text.split("// ----- case ")[1:]:
        name, _, body = block.partition("\n")
        cases[name] = body
    return cases


CASES = _cases("ops.mlir")
# The same modules in MLIR's generic form, as jaxlib's printer writes them.
GENERIC = _cases("ops.generic.mlir")
DATA = np.load(FIXTURES / "ops.npz")
# Values XLA:CPU computes with its own approximations (complex transcendental functions are
# expanded into real arithmetic by XLA's conversion; hlo uses NumPy's): equal within rounding.
LOOSE = ("exponential_c", "log_c", "log_plus_one_c", "sqrt_c", "rsqrt_c", "tan_c", "tanh_c", "power_c",
         "atan2_c", "logistic_c", "exponential_minus_one_c", "sine_c", "cosine_c")  # fmt: skip


# XLA:CPU's f16 and bf16 transcendental functions (expm1, logistic) may be a few units in the last
# place from the correctly rounded value hlo gives: compare narrow types within their precision.
NARROW = {"f16": 2e-3, "bf16": 1.6e-2}
# CHLO's special functions are expanded into the same operations as XLA's, but XLA:CPU's exp, log,
# sin, pow and division are its own approximations (and it fuses multiply-adds), an ulp or two
# from NumPy's; lgamma's cancellation near its zeros at 1 and 2 (and polygamma's n! through it)
# turns that into a few ulps of the result, or a tiny absolute error where it is 0.
SPECIAL = ("chlo_erf", "chlo_lgamma", "chlo_digamma", "chlo_polygamma", "chlo_zeta", "chlo_bessel_i1e",
           "chlo_tan", "chlo_sinh", "chlo_cosh", "chlo_asin", "chlo_acos", "chlo_atan")  # fmt: skip
SPECIAL_TOLERANCE = {"f64": (4e-15, 1e-15), "c128": (4e-15, 1e-15), "f32": (4e-6, 1e-6),
                     "c64": (1e-6, 1e-6), "f16": (2e-3, 1e-6), "bf16": (1.6e-2, 1e-6)}  # fmt: skip


def _widen(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "V":
        try:
            return a.astype(np.float32)
        except (TypeError, ValueError):
            return a.astype(np.int8)
    return a


def test_every_case_is_also_in_the_generic_form() -> None:
    assert sorted(GENERIC) == sorted(CASES)
    assert all(text.lstrip().startswith('"builtin.module"') for text in GENERIC.values())


@pytest.mark.parametrize("form", ["pretty", "generic"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_op_case_matches_xla_cpu(name: str, form: str) -> None:
    text = CASES[name] if form == "pretty" else GENERIC[name]
    module = hlo.parse_stablehlo(text, f"ops.mlir:{name}")
    params = module.entry.parameter_shapes
    args = [DATA[f"{name}.arg{k}"].astype(s.element_type.numpy_dtype) for k, s in enumerate(params)]
    out = hlo.run(module, *args)
    got = list(out) if isinstance(out, tuple) else [out]
    expected = [DATA[f"{name}.out{k}"] for k in range(len(got))]
    assert f"{name}.out{len(got)}" not in DATA.files
    for k, (g, e) in enumerate(zip(got, expected)):
        g = _widen(np.asarray(g))
        assert g.shape == e.shape, f"out{k}"
        if name.startswith("rng_bit_generator"):
            np.testing.assert_array_equal(g, e)
        elif e.dtype.kind in "fc":
            loose = name.startswith(LOOSE)
            rtol = NARROW.get(name.rsplit("_", 1)[-1], 1e-5 if loose else 1e-6)
            atol = 1e-6 if loose else 0
            if name.startswith(SPECIAL):
                rtol, atol = SPECIAL_TOLERANCE[name.rsplit("_", 1)[-1]]
            np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=f"out{k}")
        else:
            np.testing.assert_array_equal(g, e.astype(g.dtype), err_msg=f"out{k}")
