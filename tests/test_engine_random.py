"""rng-bit-generator bit for bit against XLA:CPU (tests/golden/rng_bit_generator_cases.npz, made
by tools/make_rng_fixtures.py): Threefry and Philox (and DEFAULT, Philox on CPU), u64[2] and
u64[3] states, 8- to 64-bit outputs, scalar to rank-3 shapes with odd sizes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.ir.attrs import RandomAlgorithm
from hlo.numerics.random import rng_bit_generator

DATA = np.load(Path(__file__).parent / "golden" / "rng_bit_generator_cases.npz")
CASES = sorted({int(k.split("_")[0][4:]) for k in DATA.files})


@pytest.mark.parametrize("k", CASES)
def test_matches_xla_cpu_bit_for_bit(k: int) -> None:
    algorithm = RandomAlgorithm(str(DATA[f"case{k}_algorithm"]))
    dtype = hlo.parse_shape(f"{DATA[f'case{k}_dtype']}[]").element_type.numpy_dtype
    shape = tuple(int(n) for n in DATA[f"case{k}_shape"])
    new_state, bits = rng_bit_generator(algorithm, DATA[f"case{k}_state"], shape, dtype)
    assert np.array_equal(new_state, DATA[f"case{k}_new_state"])
    assert bits.dtype == dtype and bits.shape == shape
    # XLA:CPU hands signed outputs back with the unsigned type of the same width: compare bits
    expected = DATA[f"case{k}_bits"]
    assert np.array_equal(bits.view(expected.dtype), expected)
