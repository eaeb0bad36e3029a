"""Exactness cases that the op tables (test_engine_ops.py over tests/golden/ops/exact_*.npz)
do not cover: scalar results through `hlo run --output`, and bitcast-convert between complex
widths, which XLA:CPU cannot run (its HLO -> StableHLO path refuses c128 -> c64 and its
bitcast expander aborts on c64 -> c128), checked against the spec's definition: the bytes
reinterpreted, the low bytes first on a little-endian machine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.cli.main import main

OPS = Path(__file__).parent / "golden" / "ops"


def _scalar_cases(opcode: str) -> list[int]:
    with np.load(OPS / "exact_scalars.npz") as d:
        return [
            int(k[4:-4])
            for k in d.files
            if k.endswith("_hlo") and f"] {opcode}(" in str(d[k]) and "f32[]" in str(d[k])
        ]


@pytest.mark.parametrize("k", _scalar_cases("reduce-precision"))
def test_cli_writes_a_scalar_result(k, tmp_path, capsys):
    """A scalar root (reduce-precision gave a NumPy scalar once) is written as out0."""
    with np.load(OPS / "exact_scalars.npz") as d:
        text, arg, want = str(d[f"case{k}_hlo"]), d[f"case{k}_arg0"], d[f"case{k}_out"]
    module = tmp_path / "m.hlo"
    module.write_text(text)
    np.savez(tmp_path / "in.npz", arg0=arg)
    out = tmp_path / "out.npz"
    assert main(["run", str(module), "--inputs", str(tmp_path / "in.npz"), "--output", str(out)]) == 0
    got = np.load(out)["out0"]
    assert got.shape == () and got.dtype == np.float32
    assert got.view(np.uint32) == want.view(np.uint32) or (np.isnan(got) and np.isnan(want))
    assert main(["run", str(module), "--inputs", str(tmp_path / "in.npz"), "--print"]) == 0
    assert ": 1 result\n" in capsys.readouterr().out


def _bitcast(text: str, x: np.ndarray) -> np.ndarray:
    got = hlo.run(hlo.parse_module(f"HloModule m\n\nENTRY main {{\n{text}\n}}\n"), x)
    assert type(got) is np.ndarray
    return got


def test_bitcast_convert_c128_to_c64():
    x = np.array([1.5 - 2j, complex(np.inf, -0.0), complex(1e-310, np.nan)], np.complex128)
    got = _bitcast("  a = c128[3] parameter(0)\n  ROOT r = c64[3,2] bitcast-convert(a)", x)
    want = np.frombuffer(x.tobytes(), np.complex64).reshape(3, 2)
    assert got.dtype == np.complex64 and got.tobytes() == want.tobytes()


def test_bitcast_convert_c64_to_c128_and_scalars():
    x = np.array([[1 + 2j, -3 - 0j], [np.inf, 5j]], np.complex64)
    got = _bitcast("  a = c64[2,2] parameter(0)\n  ROOT r = c128[2] bitcast-convert(a)", x)
    assert got.dtype == np.complex128 and got.tobytes() == x.tobytes()
    one = x[:1, :]
    got = _bitcast("  a = c64[1,2] parameter(0)\n  ROOT r = c128[1] bitcast-convert(a)", one)
    assert got.shape == (1,) and got.tobytes() == one.tobytes()
    scalar = np.array(1.25 - 7j, np.complex128)
    got = _bitcast("  a = c128[] parameter(0)\n  ROOT r = c64[2] bitcast-convert(a)", scalar)
    assert got.tobytes() == scalar.tobytes()
    got = _bitcast(
        "  a = c64[] parameter(0)\n  ROOT r = c64[] bitcast-convert(a)", np.array(2j, np.complex64)
    )
    assert got.shape == () and got == 2j


def _scaled(text: str, *args: np.ndarray) -> np.ndarray:
    return hlo.run(hlo.parse_module(f"HloModule m\n\nENTRY main {{\n{text}\n}}\n"), *args)


def test_scaled_dot_mx_blocks():
    """f8 operands with e8m0 scales per block of 32 along the contracting dimension: each
    operand times its scale repeated over the block (in bf16, exact for these values), then a
    dot; values chosen so that every product and sum is exact in any order."""
    import ml_dtypes

    rng = np.random.default_rng(3)
    a = (rng.integers(-8, 9, (4, 64)) / 4).astype(ml_dtypes.float8_e4m3fn)
    b = (rng.integers(-8, 9, (64, 8)) / 4).astype(ml_dtypes.float8_e4m3fn)
    sa = (2.0 ** rng.integers(-2, 3, (4, 2))).astype(ml_dtypes.float8_e8m0fnu)
    sb = (2.0 ** rng.integers(-2, 3, (2, 8))).astype(ml_dtypes.float8_e8m0fnu)
    got = _scaled(
        "  a = f8e4m3fn[4,64] parameter(0)\n  b = f8e4m3fn[64,8] parameter(1)\n"
        "  sa = f8e8m0fnu[4,2] parameter(2)\n  sb = f8e8m0fnu[2,8] parameter(3)\n"
        "  ROOT r = f32[4,8] scaled-dot(a, b, sa, sb), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
        a, b, sa, sb,
    )  # fmt: skip
    lhs = a.astype(np.float64) * np.repeat(sa.astype(np.float64), 32, axis=1)
    rhs = b.astype(np.float64) * np.repeat(sb.astype(np.float64), 32, axis=0)
    assert got.dtype == np.float32 and np.array_equal(got, (lhs @ rhs).astype(np.float32))


def test_scaled_dot_scalar_scale_leaves_the_operand_and_types_round():
    """A scalar scale leaves its operand unscaled (XLA's rewriter); a bf16 operand with an f32
    scale is scaled in f32 (the wider type), a bf16 one with a bf16 scale rounds the product to
    bf16 before the dot."""
    import ml_dtypes

    a = np.array([[1.0, 3.0], [0.5, -2.0]], np.float32).astype(ml_dtypes.bfloat16)
    b = np.array([[1.0], [1.0]], np.float32).astype(ml_dtypes.bfloat16)
    text = (
        "  a = bf16[2,2] parameter(0)\n  b = bf16[2,1] parameter(1)\n  sa = {st}[{ss}] parameter(2)\n"
        "  sb = bf16[] parameter(3)\n"
        "  ROOT r = f32[2,1] scaled-dot(a, b, sa, sb), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}"
    )
    one = np.array(7.0, ml_dtypes.bfloat16)  # a scalar: ignored
    got = _scaled(text.format(st="bf16", ss="2,1"), a, b, np.full((2, 1), 3.0, ml_dtypes.bfloat16), one)
    assert got.ravel().tolist() == [12.0, -4.5]  # rhs times 7 would give 84 and -31.5
    scale = np.array([[1.0 + 2**-10], [1.0]], np.float32)  # one scale per row
    got = _scaled(text.format(st="f32", ss="2,1"), a, b, scale, one)
    assert got.ravel().tolist() == [np.float32(4 * (1 + 2**-10)), -1.5]  # f32: the tiny part kept
    got = _scaled(text.format(st="bf16", ss="2,1"), a, b, scale.astype(ml_dtypes.bfloat16), one)
    assert got.ravel().tolist() == [4.0, -1.5]  # the scale itself is bf16: 1 + 2^-10 rounds to 1


@pytest.mark.parametrize(
    "family", ["exact_vector_sums", "exact_column_sums", "exact_split_sums", "exact_vector_extremes"]
)
def test_vector_kernel_order_does_not_depend_on_the_isa(family):
    """The vector kernels' order (hlo.numerics.vector_sum, column_sum) was read off XLA:CPU on an
    AVX-512 machine; the fixture's maker replays every case with XLA:CPU limited to AVX2 and to
    SSE4.2 (--xla_cpu_max_isa) and records where the bits were the same: everywhere. YNNPACK
    sums in 64 bytes of lanes whatever the vector width (its kernels are written to give
    consistent results), and a column sum's lanes are the columns, so hlo needs no per-host
    order."""
    from hlo.numerics import vector_sum

    with np.load(OPS / f"{family}.npz") as d:
        isa, same = str(d["isa"]), str(d["same_under"]).split()
    assert isa == "x86-64 avx512f" and same == ["AVX2", "SSE4_2"] and vector_sum.VECTOR_BYTES == 64


@pytest.mark.parametrize(
    ("dtype", "shape", "axes", "applies"),
    [
        (np.float32, (512, 8), (0,), True),
        (np.float32, (300, 13), (0,), False),  # 3900 elements: XLA:CPU's tree rewrite
        (np.float64, (3, 700, 7), (1,), True),
        (np.float32, (40, 50, 8), (0, 1), True),
        (np.float32, (40, 30, 8), (0, 2), False),  # not consecutive: not modelled
        (np.float32, (8, 4096), (1,), False),  # a trailing sum: hlo.numerics.vector_sum
        (np.float32, (5000, 1), (0,), False),  # one column: a trailing sum once the 1 is dropped
        (np.float16, (8192, 2), (0,), False),
    ],
)
def test_column_sum_applies_where_xla_cpu_uses_its_strided_kernel(dtype, shape, axes, applies):
    from hlo.numerics import column_sum

    assert column_sum.applies(np.dtype(dtype), shape, axes) is applies


@pytest.mark.parametrize(
    ("dtype", "shape", "axes", "applies"),
    [
        (np.float32, (4096,), (0,), True),
        (np.float32, (4095,), (0,), False),  # XLA:CPU's tree rewrite
        (np.float64, (2, 4096), (1,), True),
        (np.float32, (4096, 3), (0,), False),  # column sums: hlo.numerics.column_sum
        (np.float32, (1, 2, 17000), (1, 2), False),  # several dimensions cut into chunks
        (np.float32, (5, 2, 17000), (1, 2), True),
        (np.float16, (8192,), (0,), False),
    ],
)
def test_vector_sum_applies_where_xla_cpu_uses_its_vector_kernel(dtype, shape, axes, applies):
    from hlo.numerics import vector_sum

    assert vector_sum.applies(np.dtype(dtype), shape, axes) is applies


@pytest.mark.parametrize(
    ("dtype", "shape", "axes", "applies"),
    [
        (np.float32, (40, 30, 8), (0, 2), True),
        (np.float64, (30, 20, 10), (0, 2), True),
        (np.float32, (64, 8, 64), (0, 2), True),  # 32768 elements from dimension 0 in: one tile
        (np.float32, (65, 8, 64), (0, 2), False),  # dimension 0 cut into tiles: not modelled
        (np.float64, (33, 8, 64), (0, 2), False),  # 16384 f64 fit in a tile; 16896 do not
        (np.float32, (5, 819, 1), (0, 2), False),  # 4095 elements: XLA:CPU's tree rewrite
        (np.float32, (40, 30, 8), (0, 1), False),  # consecutive: hlo.numerics.column_sum
        (np.float32, (4, 5, 4, 5, 4, 5, 4), (0, 2, 4, 6), True),  # 7 runs
        (np.float32, (2, 3, 2, 3, 2, 3, 2, 3), (0, 2, 4, 6), False),  # 8 runs: the tree rewrite
        (np.float16, (40, 30, 8), (0, 2), False),
    ],
)
def test_split_sum_applies_where_modelled(dtype, shape, axes, applies):
    from hlo.numerics import split_sum

    assert split_sum.applies(np.dtype(dtype), shape, axes) is applies


@pytest.mark.parametrize(
    ("dtype", "shape", "axes", "applies"),
    [
        (np.float32, (3, 3, 17000), (1, 2), True),  # 3 results of 51000 elements
        (np.float32, (4, 3, 17000), (1, 2), False),  # 4 results: not cut (hlo.numerics.vector_sum)
        (np.float32, (3, 2, 16384), (1, 2), False),  # 32768 elements per result: one tile
        (np.float64, (3, 2, 8193), (1, 2), True),  # 16386 f64: two tiles
        (np.float32, (2, 2, 40000), (1, 2), False),  # the innermost dimension cut: not modelled
        (np.float32, (3, 40000), (1,), False),  # one dimension: hlo.numerics.vector_sum
        (np.float32, (40, 1000), (0, 1), True),
    ],
)
def test_tiled_sum_applies_where_modelled(dtype, shape, axes, applies):
    from hlo.numerics import split_sum

    assert split_sum.tiled_applies(np.dtype(dtype), shape, axes) is applies
