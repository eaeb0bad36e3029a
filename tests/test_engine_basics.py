"""The engine on small hand-written modules: XLA:CPU's numerics as ../shared/DESIGN.md and
ORACLE.md record them (each value below is what XLA:CPU gives), argument checking, loops,
branches, and the errors users see."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hlo


def run1(body: str, *args: object, **options: object) -> object:
    """Run `ENTRY { body }` (the last instruction is the root)."""
    return hlo.run(hlo.parse_module("HloModule m\nENTRY e {\n" + body + "\n}\n", "m.hlo"), *args, **options)


def binary(op: str, t: str, a: list, b: list, extra: str = "") -> np.ndarray:
    n = len(a)
    dtype = hlo.parse_shape(f"{t}[]").element_type.numpy_dtype
    out_t = "pred" if op == "compare" else t
    body = f"a = {t}[{n}] parameter(0)\nb = {t}[{n}] parameter(1)\nROOT r = {out_t}[{n}] {op}(a, b){extra}"
    return run1(body, np.array(a, dtype=dtype), np.array(b, dtype=dtype))  # type: ignore[return-value]


def unary(op: str, t: str, a: list, out: str | None = None) -> np.ndarray:
    n = len(a)
    dtype = hlo.parse_shape(f"{t}[]").element_type.numpy_dtype
    body = f"a = {t}[{n}] parameter(0)\nROOT r = {out or t}[{n}] {op}(a)"
    return run1(body, np.array(a, dtype=dtype))  # type: ignore[return-value]


INT_MIN = -(2**31)

BINARY_CASES = [
    # integer division: truncation, x/0 = -1, INT_MIN/-1 = INT_MIN; unsigned x/0 = all ones
    ("divide", "s32", [7, -7, 7, -7, 5, INT_MIN], [2, 2, -2, -2, 0, -1], [3, -3, -3, 3, -1, INT_MIN]),
    ("divide", "u8", [7, 200, 5], [2, 3, 0], [3, 66, 255]),
    # remainder takes the dividend's sign; x%0 = x; INT_MIN%-1 = 0
    ("remainder", "s32", [7, -7, 7, -7, 5, INT_MIN], [3, 3, -3, -3, 0, -1], [1, -1, 1, -1, 5, 0]),
    ("remainder", "f32", [5.5, -5.5], [2.0, 2.0], [1.5, -1.5]),
    # shifts past the bit width: 0, or the sign for arithmetic right shifts
    ("shift-left", "s32", [1, 1, 1, -1], [3, 31, 32, -1], [8, INT_MIN, 0, 0]),
    ("shift-right-logical", "s32", [-8, -8, 8], [1, 32, 2], [2**31 - 4, 0, 2]),
    ("shift-right-arithmetic", "s32", [-8, -8, 8], [1, 40, 40], [-4, -1, 0]),
    ("shift-left", "s8", [1, 64], [7, 1], [-128, -128]),
    # integer power: negative exponents give 0 unless the base is 1 or -1
    ("power", "s32", [2, 2, 1, -1, -1, 0, 3], [10, -1, -5, -3, -4, 0, 3], [1024, 0, 1, -1, 1, 1, 27]),
    # NaN-propagating maximum and minimum; -0 < +0
    ("maximum", "f32", [np.nan, 1.0, -0.0, 0.0], [1.0, np.nan, 0.0, -0.0], [np.nan, np.nan, 0.0, 0.0]),
    ("minimum", "f32", [np.nan, -0.0, 0.0], [1.0, 0.0, -0.0], [np.nan, -0.0, -0.0]),
    # integers wrap
    ("add", "s8", [127, -128], [1, -1], [-128, 127]),
    ("multiply", "u8", [16, 255], [16, 255], [0, 1]),
    ("mulhi", "s32", [2**30, -(2**30), -1], [8, 8, -1], [2, -2, 0]),
    ("mulhi", "u32", [2**31, 2**32 - 1], [4, 2**32 - 1], [2, 2**32 - 2]),
    ("mulhi", "s64", [2**62, -(2**62), -1], [8, 8, -1], [2, -2, 0]),
    ("mulhi", "u64", [2**63, 2**64 - 1], [4, 2**64 - 1], [2, 2**64 - 2]),
    ("and", "pred", [True, True, False], [True, False, False], [True, False, False]),
    ("xor", "u8", [0b1100], [0b1010], [0b0110]),
]


@pytest.mark.parametrize(("op", "t", "a", "b", "want"), BINARY_CASES, ids=lambda x: str(x)[:20])
def test_binary_numerics(op, t, a, b, want):
    got = binary(op, t, a, b)
    expected = np.array(want, dtype=got.dtype)
    if got.dtype.kind == "f":
        assert np.array_equal(got, expected, equal_nan=True)
        assert np.array_equal(np.signbit(got), np.signbit(expected))
    else:
        assert np.array_equal(got, expected), (got, expected)


UNARY_CASES = [
    ("round-nearest-afz", "f32", [0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997], None, [1, 2, 3, -1, -3, 0]),
    ("round-nearest-even", "f32", [0.5, 1.5, 2.5, -0.5], None, [0, 2, 2, -0.0]),
    ("count-leading-zeros", "s32", [0, 1, -1, 2**30], None, [32, 31, 0, 1]),
    ("count-leading-zeros", "u8", [0, 1, 255, 16], None, [8, 7, 0, 3]),
    ("count-leading-zeros", "s64", [1, 2**62], None, [63, 1]),
    ("popcnt", "s32", [0, -1, 7, INT_MIN], None, [0, 32, 3, 1]),
    ("popcnt", "u64", [2**64 - 1, 5], None, [64, 2]),
    ("negate", "s32", [INT_MIN, 5], None, [INT_MIN, -5]),
    ("abs", "s8", [-128, -5], None, [-128, 5]),
    ("sign", "f32", [-3.0, -0.0, 0.0, 2.0, np.nan], None, [-1.0, -0.0, 0.0, 1.0, np.nan]),
    ("sign", "s32", [-7, 0, 9], None, [-1, 0, 1]),
    ("not", "pred", [True, False], None, [False, True]),
    ("not", "s8", [0, -1, 5], None, [-1, 0, -6]),
    ("is-finite", "f32", [1.0, np.inf, -np.inf, np.nan], "pred", [True, False, False, False]),
    # subnormal f32 inputs are zero to XLA:CPU's arithmetic (flush to zero)...
    ("sqrt", "f32", [1e-40, 4.0], None, [0.0, 2.0]),
    ("floor", "f32", [-1e-40], None, [-0.0]),
    # ...but not to sign-bit operations
    ("negate", "f32", [1e-40], None, [-1e-40]),
    ("abs", "f32", [-1e-40], None, [1e-40]),
]


@pytest.mark.parametrize(("op", "t", "a", "out", "want"), UNARY_CASES, ids=lambda x: str(x)[:20])
def test_unary_numerics(op, t, a, out, want):
    got = unary(op, t, a, out)
    expected = np.array(want, dtype=got.dtype)
    if got.dtype.kind == "f":
        assert np.array_equal(got, expected, equal_nan=True), (got, expected)
        assert np.array_equal(np.signbit(got), np.signbit(expected))
    else:
        assert np.array_equal(got, expected), (got, expected)


def test_flushing_subnormals_can_be_switched_off():
    body = "a = f32[1] parameter(0)\nb = f32[1] parameter(1)\nROOT r = f32[1] multiply(a, b)"
    args = np.array([1e-40], np.float32), np.array([1e10], np.float32)
    assert run1(body, *args)[0] == 0.0  # type: ignore[index]
    assert run1(body, *args, flush_denormals=False)[0] == np.float32(1e-40) * np.float32(1e10)  # type: ignore[index]


def test_compare_total_order():
    a = [-np.nan, -np.inf, -1.0, -0.0, 0.0, 1.0, np.inf, np.nan]
    got = binary("compare", "f32", a[:-1], a[1:], ", direction=LT, type=TOTALORDER")
    assert got.all()
    float_lt = binary("compare", "f32", a[:-1], a[1:], ", direction=LT")
    assert float_lt.tolist() == [False, True, True, False, True, True, False]


@pytest.mark.parametrize(
    ("source", "target", "values", "want"),
    [
        ("f32", "s32", [np.nan, 3e9, -3e9, -2.7, 2.7], [0, 2**31 - 1, INT_MIN, -2, 2]),
        ("f32", "u8", [-1.0, 300.0, 255.9], [0, 255, 255]),
        ("s32", "s8", [200, -129], [-56, 127]),
        ("f32", "pred", [0.0, -0.0, 0.5, np.nan], [False, False, True, True]),
        ("f32", "bf16", [1.00390625, 1.01171875], [1.0, 1.015625]),  # ties to even
        ("s32", "f32", [16777217], [16777216.0]),
        ("f64", "bf16", [1.0039062500000002], [1.0]),  # rounds through f32, twice
    ],
)
def test_convert(source, target, values, want):
    got = unary("convert", source, values, target)
    assert got.dtype == hlo.parse_shape(f"{target}[]").element_type.numpy_dtype
    assert np.array_equal(got.astype(np.float64), np.array(want, dtype=np.float64), equal_nan=True), got


def test_bitcast_convert_narrow_and_wide():
    narrow = run1(
        "a = f32[2] parameter(0)\nROOT r = u16[2,2] bitcast-convert(a)", np.array([1.0, -2.0], np.float32)
    )
    assert narrow.tolist() == [[0, 0x3F80], [0, 0xC000]]  # type: ignore[union-attr]
    wide = run1(
        "a = u8[4] parameter(0)\nROOT r = s32[] bitcast-convert(a)", np.array([1, 2, 3, 0x80], np.uint8)
    )
    assert int(wide) == int.from_bytes(bytes([1, 2, 3, 0x80]), "little", signed=True)  # type: ignore[call-overload]
    nibbles = run1("a = u8[1] parameter(0)\nROOT r = s4[1,2] bitcast-convert(a)", np.array([0x9F], np.uint8))
    assert nibbles.astype(np.int8).tolist() == [[-1, -7]]  # type: ignore[union-attr]


def test_reduce_precision_rounds_to_even_and_overflows():
    got = run1(
        "a = f32[5] parameter(0)\nROOT r = f32[5] reduce-precision(a), exponent_bits=5, mantissa_bits=2",
        np.array([1.125, 1.375, 70000.0, 1e-6, np.nan], np.float32),
    )
    assert got.tolist()[:4] == [1.0, 1.5, np.inf, 0.0]  # type: ignore[union-attr]
    assert np.isnan(got[4])  # type: ignore[index]


def test_narrow_floats_compute_in_f32_and_round_once():
    a = np.array([1.0, 256.0], ml_dtypes.bfloat16)
    b = np.array([2.0**-8, 1.0], ml_dtypes.bfloat16)
    got = run1("a = bf16[2] parameter(0)\nb = bf16[2] parameter(1)\nROOT r = bf16[2] add(a, b)", a, b)
    assert got.dtype == ml_dtypes.bfloat16  # type: ignore[union-attr]
    assert got.astype(np.float32).tolist() == [1.0, 256.0]  # type: ignore[union-attr]


def test_data_movement():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    pad = run1(
        "a = s32[2,3] parameter(0)\nc = s32[] constant(9)\nROOT p = s32[3,8] pad(a, c), padding=0_1_0x-1_2_2",
        x,
    )
    assert pad.tolist() == [[9, 9, 1, 9, 9, 2, 9, 9], [9, 9, 4, 9, 9, 5, 9, 9], [9] * 8]  # type: ignore[union-attr]
    # dynamic-slice clamps the start so the slice fits; dynamic-update-slice too
    ds = run1(
        "a = s32[2,3] parameter(0)\ni = s32[] parameter(1)\nj = s32[] parameter(2)\n"
        "ROOT d = s32[1,2] dynamic-slice(a, i, j), dynamic_slice_sizes={1,2}",
        x, np.int32(5), np.int32(-4),
    )  # fmt: skip
    assert ds.tolist() == [[3, 4]]  # type: ignore[union-attr]
    dus = run1(
        "a = s32[2,3] parameter(0)\nu = s32[1,2] parameter(1)\ni = s32[] parameter(2)\n"
        "ROOT d = s32[2,3] dynamic-update-slice(a, u, i, i)",
        x, np.array([[7, 8]], np.int32), np.int32(10),
    )  # fmt: skip
    assert dus.tolist() == [[0, 1, 2], [3, 7, 8]]  # type: ignore[union-attr]
    iota = run1("ROOT i = s32[2,3] iota(), iota_dimension=1")
    assert iota.tolist() == [[0, 1, 2], [0, 1, 2]]  # type: ignore[union-attr]
    bcast = run1(
        "a = s32[2] parameter(0)\nROOT b = s32[2,3] broadcast(a), dimensions={0}", np.array([1, 2], np.int32)
    )
    assert bcast.tolist() == [[1, 1, 1], [2, 2, 2]]  # type: ignore[union-attr]
    t = run1("a = s32[2,3] parameter(0)\nROOT t = s32[3,2] transpose(a), dimensions={1,0}", x)
    assert t.tolist() == x.T.tolist()  # type: ignore[union-attr]


def test_reduce_window_pool():
    # page 003's 2x3 pool: max over 2x3 windows of a 4x6 array, stride 2x3
    x = np.array(
        [[10, 12, 8, 7, 5, 6], [3, 9, 15, 16, 1, 2], [11, 4, 13, 14, 0, 17], [18, 19, 20, 21, 22, 23]],
        np.float32,
    )
    text = """HloModule m
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
ENTRY e {
  x = f32[4,6] parameter(0)
  init = f32[] constant(-inf)
  ROOT r = f32[2,2] reduce-window(x, init), window={size=2x3 stride=2x3}, to_apply=max
}
"""
    got = hlo.run(hlo.parse_module(text), x)
    assert got.tolist() == [[15, 16], [20, 23]]


def test_reduce_with_an_unrecognised_computation_runs_vectorized():
    # a variadic argmax: (value, index) pairs, the larger value (the lower index on ties) wins
    text = """HloModule m
argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v0, v1), direction=GT
  eq = pred[] compare(v0, v1), direction=EQ
  lower = pred[] compare(i0, i1), direction=LT
  tie = pred[] and(eq, lower)
  first = pred[] or(gt, tie)
  v = f32[] select(first, v0, v1)
  i = s32[] select(first, i0, i1)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[3,5] parameter(0)
  idx = s32[3,5] iota(), iota_dimension=1
  low = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[3], s32[3]) reduce(x, idx, low, zero), dimensions={1}, to_apply=argmax
}
"""
    x = np.array([[1, 5, 2, 5, 0], [-1, -2, -3, -4, -5], [0, 0, 0, 0, 9]], np.float32)
    values, indices = hlo.run(hlo.parse_module(text), x)
    assert values.tolist() == [5.0, -1.0, 9.0]
    assert indices.tolist() == [1, 0, 4]
    assert indices.dtype == np.int32


def test_while_and_max_iterations():
    text = """HloModule m
cond {
  s = s32[] parameter(0)
  ten = s32[] constant(10)
  ROOT lt = pred[] compare(s, ten), direction=LT
}
body {
  s = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT n = s32[] add(s, one)
}
ENTRY e {
  x = s32[] parameter(0)
  ROOT w = s32[] while(x), condition=cond, body=body
}
"""
    module = hlo.parse_module(text, "loop.hlo")
    assert int(hlo.run(module, np.int32(3))) == 10
    with pytest.raises(
        hlo.EvalError, match=r"loop\.hlo:\d+:\d+: error: %w: the loop is still running after 5 iterations"
    ):
        hlo.run(module, np.int32(0), max_iterations=5)


def test_conditional_index_out_of_range_runs_the_last_branch():
    text = """HloModule m
b0 {
  p = f32[] parameter(0)
  ROOT r = f32[] negate(p)
}
b1 {
  p = f32[] parameter(0)
  ROOT r = f32[] add(p, p)
}
ENTRY e {
  i = s32[] parameter(0)
  x = f32[] parameter(1)
  ROOT c = f32[] conditional(i, x, x), branch_computations={b0, b1}
}
"""
    module = hlo.parse_module(text)
    results = [float(hlo.run(module, np.int32(i), np.float32(3))) for i in (0, 1, 2, -1)]
    assert results == [-3.0, 6.0, 6.0, 6.0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), r"takes 2 arguments \(f32\[2\]\{0\}, s32\[\]\): got 0"),
        ((np.zeros(3, np.float32), np.int32(1)), r"argument 0 \(a\) must be f32\[2\]\{0\}: got f32\[3\]"),
        (
            (np.zeros(2, np.float64), np.int32(1)),
            r"argument 0 \(a\) must be f32\[2\]\{0\}: got a f64\[2\] array",
        ),
        (
            (np.zeros(2, np.float32), 1.5),
            r"argument 1 \(i\) must be s32\[\]: the values 1.5 are not exactly representable",
        ),
    ],
)
def test_bad_arguments_are_clear_errors(args, message):
    module = hlo.parse_module(
        "HloModule m\nENTRY e {\n a = f32[2] parameter(0)\n i = s32[] parameter(1)\n ROOT r = f32[2] negate(a)\n}\n"
    )
    with pytest.raises(hlo.EvalError, match=message):
        hlo.run(module, *args)


def test_a_module_that_fails_verification_does_not_run():
    module = hlo.parse_module(
        "HloModule m\nENTRY e {\n a = f32[2] parameter(0)\n ROOT r = s32[2] negate(a)\n}\n", "bad.hlo"
    )
    with pytest.raises(hlo.VerifyError, match=r"bad\.hlo:4:\d+: error: %r"):
        hlo.run(module, np.zeros(2, np.float32))


def test_builder_computations_run():
    b = hlo.XlaBuilder("f")
    x = hlo.ops.Parameter(b, 0, "f32[3]", "x")
    y = hlo.ops.Parameter(b, 1, "f32[3,2]", "y")
    (x @ y) * 2.0 + 1.0
    c = b.build()
    got = hlo.run(c, np.array([1, 2, 3], np.float32), np.ones((3, 2), np.float32))
    assert got.tolist() == [13.0, 13.0]
