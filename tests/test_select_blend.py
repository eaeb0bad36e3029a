"""Large selects choose on the values' bits (hlo.ops.ternary._blend): every value passes
untouched, as select's spec says (NaN payloads, signs of zeros, subnormals), for each element
size, with a broadcast constant on either side and with random predicates (the case np.where
mispredicts)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hlo
from hlo.ops import ternary

N = 2 * ternary.BLEND_ELEMENTS + 3


def _specials(dtype: np.dtype, rng: np.random.Generator) -> np.ndarray:
    bits = np.dtype(f"u{dtype.itemsize}")
    return rng.integers(0, np.iinfo(bits).max, N, dtype=bits, endpoint=True).view(dtype)  # any bits


TYPES = [("f32", np.float32), ("f64", np.float64), ("bf16", ml_dtypes.bfloat16), ("s8", np.int8),
         ("u16", np.uint16), ("c64", np.complex64), ("pred", np.bool_)]  # fmt: skip


@pytest.mark.parametrize("type_name, dtype", TYPES)
@pytest.mark.parametrize("on_false", ["array", "zero", "negative zero"])
def test_a_large_select_passes_every_bit(type_name: str, dtype: type, on_false: str) -> None:
    rng = np.random.default_rng(7)
    dt = np.dtype(dtype)
    pred = rng.integers(0, 2, N).astype(bool)
    a = _specials(dt, rng) if dt != np.bool_ else rng.integers(0, 2, N).astype(bool)
    b = _specials(dt, rng) if dt != np.bool_ else rng.integers(0, 2, N).astype(bool)
    if on_false == "array":
        text_b, args = f"b = {type_name}[{N}] parameter(2)", [pred, a, b]
        expected = np.where(pred, a, b)
    else:
        negative = on_false == "negative zero" and dt.kind in "fc"
        zero = "-0.0" if negative else "0"
        literal = "false" if dt == np.bool_ else f"({zero}, {zero})" if dt.kind == "c" else zero
        text_b = (
            f"c = {type_name}[] constant({literal})\n  b = {type_name}[{N}] broadcast(c), dimensions={{}}"
        )
        args = [pred, a]
        fill = complex(-0.0, -0.0) if negative and dt.kind == "c" else -0.0 if negative else 0
        expected = np.where(pred, a, np.full(N, fill, dt))
    module = hlo.parse_module(
        f"HloModule s\nENTRY e {{\n  p = pred[{N}] parameter(0)\n"
        f"  a = {type_name}[{N}] parameter(1)\n  {text_b}\n"
        f"  ROOT r = {type_name}[{N}] select(p, a, b)\n}}\n"
    )
    got = np.asarray(hlo.run(module, *args, jit="off"))
    assert got.dtype == dt and got.tobytes() == expected.astype(dt).tobytes()
