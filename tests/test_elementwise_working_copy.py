"""hlo.numerics.elementwise.working_copy: an operand in the op's working type, a broadcast view
converted row first (the bits of converting the whole view), for every narrow float type and
every way a view repeats."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from hlo.numerics.elementwise import working_copy

NARROW = [ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]


@pytest.mark.parametrize("dtype", NARROW)
def test_a_broadcast_view_converts_as_the_whole_view(dtype: type) -> None:
    rng = np.random.default_rng(3)
    row = (rng.standard_normal(37) * 10.0 ** rng.integers(-6, 4, 37)).astype(dtype)
    with np.errstate(over="ignore"):  # (1e9: inf in f16, NaN in e4m3fn, which has no infinity)
        row[:3] = np.array([np.nan, -0.0, 1e9]).astype(dtype)
    views = [
        np.broadcast_to(row, (5, 37)),  # a bias row over a block
        np.broadcast_to(row[:, None], (37, 4)),  # a column repeated
        np.broadcast_to(row[:6].reshape(2, 1, 3), (2, 4, 3)),  # the middle dimension repeated
        np.broadcast_to(row[:1].reshape(()), (3, 3)),  # a scalar everywhere
    ]
    for view in views:
        got = working_copy(view, np.dtype(np.float32))
        want = view.astype(np.float32)
        assert got.shape == view.shape and got.dtype == np.float32
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    plain = row.reshape(1, 37)
    assert working_copy(plain, np.dtype(dtype)) is plain  # (already the working type: no copy)
