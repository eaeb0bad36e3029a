"""Max/min reduces of 4096+ elements, which XLA:CPU hands to its vector kernels: the fixtures
(tests/golden/ops/exact_vector_extremes.npz, exact_split_extremes.npz and
exact_variadic_reduces.npz, made by tools/make_exactness_fixtures.py from XLA:CPU and run by
test_engine_ops.py) pin the values; here the rules' pieces and where hlo takes which path."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hlo
from hlo.numerics import column_extreme, split_extreme, vector_extreme


def _max_text(t: str, shape: tuple[int, ...], dims: str, init: str, op: str = "maximum") -> str:
    kept = ",".join(str(s) for d, s in enumerate(shape) if str(d) not in dims.split(","))
    return (
        f"HloModule m\nf {{ p = {t}[] parameter(0)  q = {t}[] parameter(1)  ROOT r = {t}[] {op}(p, q) }}\n"
        f"ENTRY e {{ x = {t}[{','.join(map(str, shape))}] parameter(0)  z = {t}[] constant({init})\n"
        f"  ROOT r = {t}[{kept}] reduce(x, z), dimensions={{{dims}}}, to_apply=f }}"
    )


def _run(text: str, x: np.ndarray) -> np.ndarray:
    return np.asarray(hlo.run(hlo.parse_module(text), x))


def test_step_gives_the_second_operand_on_nan_and_ties() -> None:
    a = np.array([np.nan, 1.0, 0.0, -0.0, 2.0], np.float32)
    b = np.array([1.0, np.nan, -0.0, 0.0, 1.0], np.float32)
    got = vector_extreme.step(a, b, True)
    assert np.isnan(got[1]) and got[0] == 1.0 and got[4] == 2.0
    assert np.signbit(got[2]) and not np.signbit(got[3])


@pytest.mark.parametrize(
    ("where", "want"),
    [
        (8191, -np.inf),  # the last lane's NaN survives the halving, then loses to the init
        (8190, 0.0),  # another lane's NaN is dropped by the halving
        (0, 0.0),  # replaced by the next element of its lane
    ],
)
def test_a_nan_in_a_trailing_max_of_8192(where: int, want: float) -> None:
    x = np.zeros(8192, np.float32)
    x[where] = np.nan
    assert _run(_max_text("f32", (8192,), "0", "-inf"), x) == want


def test_a_nan_erases_the_earlier_elements_of_its_lane_only() -> None:
    x = np.zeros(8192, np.float32)
    x[4], x[5], x[100] = 7.0, 6.0, np.nan  # 4 and 100 share lane 4 of 16; 5 does not
    assert _run(_max_text("f32", (8192,), "0", "-inf"), x) == 6.0


def test_a_column_group_keeps_its_first_row_on_a_tie() -> None:
    x = np.full((512, 8), -0.0, np.float32)
    x[3, 0], x[7, 1] = 0.0, 0.0  # the first group's last row wins a tie; a later group's does not
    got = _run(_max_text("f32", (512, 8), "0", "-inf"), x)
    assert not np.signbit(got[0]) and np.signbit(got[1])


def test_bf16_orders_nans_by_their_sign() -> None:
    x = np.zeros((2, 4096), ml_dtypes.bfloat16)
    x[0, 9], x[1, 9] = np.nan, -np.nan
    biggest = _run(_max_text("bf16", (2, 4096), "1", "-inf"), x).astype(np.float32)
    smallest = _run(_max_text("bf16", (2, 4096), "1", "inf", "minimum"), x).astype(np.float32)
    assert np.isnan(biggest[0]) and biggest[1] == 0 and smallest[0] == 0 and np.isnan(smallest[1])


@pytest.mark.parametrize(
    ("dtype", "shape", "axes", "applies"),
    [
        (np.float32, (4096,), (0,), True),
        (np.float32, (4095,), (0,), False),  # XLA:CPU's own tree rewrite
        (np.float32, (4096, 3), (1,), True),  # 4096 results
        (np.float64, (2, 3, 20000), (1, 2), True),
        (np.float32, (512, 8), (0,), False),  # a column reduce: column_extreme
        (np.float16, (8192,), (0,), False),  # bf16/f16: narrow_extreme
    ],
)
def test_vector_extreme_applies(dtype, shape, axes, applies) -> None:
    assert vector_extreme.applies(np.dtype(dtype), shape, axes) is applies


def test_the_plain_extreme_is_the_rule_without_nan_and_zeros() -> None:
    """The fast path (NumPy's extreme) stands in for the rule only where no NaN or zero result
    can show the order: both agree on such rows."""
    rng = np.random.default_rng(3)
    rows = (rng.standard_normal((6, 5000)) * 100).astype(np.float32)
    rows[2] = np.abs(rows[2]) + 1
    for is_max in (True, False):
        plain = (np.maximum if is_max else np.minimum).reduce(rows, axis=1)
        assert np.array_equal(vector_extreme._reduce(rows, 1, False, is_max), plain)
        cols = rows.reshape(6, 1000, 5)
        fast = (np.maximum if is_max else np.minimum).reduce(cols, axis=1)
        assert np.array_equal(column_extreme._chunked(cols, 200, is_max), fast)


@pytest.mark.parametrize(
    ("shape", "axes", "applies"),
    [
        ((40, 30, 8), (0, 2), True),
        ((3, 4, 5, 6, 70), (0, 2, 4), True),
        ((50, 2, 3000), (0, 2), True),  # 2 results of 150000: cut into chunks
        ((30, 8, 40, 6), (0, 2), True),  # the innermost dimension kept
        ((40, 30, 8), (0, 1), False),  # consecutive: the strided kernel
        ((4, 30, 8), (1, 2), False),  # trailing: the contiguous kernel
        ((30, 8, 4), (0, 1), False),
        ((10, 20, 3), (0, 2), False),  # 600 elements: XLA:CPU's tree rewrite
    ],
)
def test_split_extreme_applies(shape, axes, applies) -> None:
    assert split_extreme.applies(np.dtype(np.float32), shape, axes) is applies


@pytest.mark.parametrize(
    ("shape", "itemsize", "splits"),
    [
        ((50, 2, 3000), 4, [5, None, None]),  # 32768 // 6000 slices of the outer dimension
        ((40, 30, 8), 4, [None, None, None]),  # fits one tile
        ((3000, 2, 50), 4, [327, None, None]),
        ((60, 3, 3000), 8, [1, None, None]),  # f64: a tile of 16384
        ((2, 40000, 3), 4, [1, 10922, None]),  # the innermost dimensions take the tile first
    ],
)
def test_tiles_share_128_kib_innermost_first(shape, itemsize, splits) -> None:
    assert split_extreme._splits(shape, itemsize) == splits


def test_chunks_of_a_split_reduce_are_reduced_again_in_groups() -> None:
    """(50, 2, 3000) over {0, 2}: chunks of 5 slices; the 10 chunk values are reduced as rows of
    the column kernel, where a later row wins a tie within a group of 4: +0 in chunk 1 beats -0
    in chunk 0 (one reduce would keep the earlier)."""
    x = np.full((50, 2, 3000), -1.0, np.float32)
    x[0, :, 3], x[5, :, 9] = -0.0, 0.0
    got = _run(_max_text("f32", (50, 2, 3000), "0,2", "-inf"), x)
    assert not np.signbit(got).any()


def test_slices_of_a_split_reduce_keep_the_first_on_a_tie() -> None:
    x = np.full((40, 30, 8), -0.0, np.float32)
    x[0, 0, 7], x[1, 1, 7], x[0, 2, 3] = 0.0, 0.0, 0.0  # the last lane of the first slice wins
    got = _run(_max_text("f32", (40, 30, 8), "0,2", "-inf"), x)
    assert not np.signbit(got[0]) and np.signbit(got[1]) and np.signbit(got[2])


_VARIADIC = """HloModule m
f {
  p = f32[] parameter(0)  q = f32[] parameter(1)  r = f32[] parameter(2)  s = f32[] parameter(3)
  a = f32[] maximum(p, r)  b = f32[] minimum(q, s)  ROOT t = (f32[], f32[]) tuple(a, b)
}
ENTRY e {
  x = f32[4096] parameter(0)  y = f32[4096] parameter(1)  z = f32[] constant(-inf)  w = f32[] constant(inf)
  v = (f32[], f32[]) reduce(x, y, z, w), dimensions={0}, to_apply=f
  READ
}"""


@pytest.mark.parametrize(
    ("read", "alone"),
    [
        ("ROOT g = f32[] get-tuple-element(v), index=1", {"v": 1}),
        ("ROOT g = ((f32[], f32[])) tuple(v)", {}),  # read whole: the variadic loop
        (
            "a = f32[] get-tuple-element(v), index=0  b = f32[] get-tuple-element(v), index=1"
            "  ROOT g = f32[] add(a, b)",
            {},
        ),
    ],
)
def test_a_variadic_reduce_with_one_output_read_is_reduced_alone(read: str, alone: dict[str, int]) -> None:
    from hlo.runtime import reduce_outputs

    c = hlo.parse_module(_VARIADIC.replace("READ", read)).entry
    assert reduce_outputs.read_outputs(list(c.instructions), c) == alone


def test_the_output_read_alone_drops_a_nan_as_the_vector_kernel() -> None:
    """max of 4096 with a NaN in the last lane but not last: reduced alone, the NaN is replaced
    by the next element of its lane (the variadic loop would return NaN)."""
    x = np.zeros(4096, np.float32)
    x[15] = np.nan
    text = _VARIADIC.replace("READ", "ROOT g = f32[] get-tuple-element(v), index=0")
    assert _run_two(text, x, -x) == 0.0


def _run_two(text: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.asarray(hlo.run(hlo.parse_module(text), x, y))
