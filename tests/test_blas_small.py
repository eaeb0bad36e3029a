"""Small matrix products run on one BLAS thread when the device has all the cores
(hlo.numerics.blas_small): OpenBLAS's spinning threads made them 100x slower on a busy machine."""

from __future__ import annotations

import numpy as np
import pytest

from hlo.dtypes import PrimitiveType
from hlo.numerics import blas_small, threads
from hlo.numerics.linear import dot_general


def _blas_threads() -> list[int]:
    return [lib.num_threads for lib in blas_small._libs()]


@pytest.fixture
def several_blas_threads() -> None:
    if threads.cores() < 2 or not blas_small._libs() or max(_blas_threads()) < 2:
        pytest.skip("BLAS runs one thread here")


@pytest.mark.usefixtures("several_blas_threads")
def test_small_products_run_on_one_thread_and_the_count_comes_back() -> None:
    before = _blas_threads()
    seen: list[list[int]] = []
    with threads.using(threads.cores()):
        with blas_small.sized(128, 128, 64):
            seen.append(_blas_threads())
        with blas_small.sized(1024, 1024, 1024):  # large: BLAS's threads gain
            seen.append(_blas_threads())
        with blas_small.sized(32, 32, 32):  # OpenBLAS runs it on one thread by itself
            seen.append(_blas_threads())
    with blas_small.sized(128, 128, 64):  # a share of the cores: the runtime's limit stands
        seen.append(_blas_threads())
    assert seen == [[1] * len(before), before, before, before]
    assert _blas_threads() == before


@pytest.mark.usefixtures("several_blas_threads")
def test_a_batched_product_on_one_thread_gives_the_same_bits() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 128, 64)).astype(np.float32)
    b = rng.standard_normal((4, 64, 128)).astype(np.float32)
    outside = dot_general(a, b, [0], [2], [0], [1], PrimitiveType.F32)
    with threads.using(threads.cores()):
        inside = dot_general(a, b, [0], [2], [0], [1], PrimitiveType.F32)
    assert inside.tobytes() == outside.tobytes()
    assert np.allclose(inside, np.matmul(a, b), rtol=1e-5, atol=1e-4)
