"""Make tests/golden/ops/exact_<family>.npz: the cases where hlo once parted from XLA:CPU —
unsigned and narrow index types in every indexing op, scalar results of every elementwise op,
complex ops at their edges, non-commutative reducers in every reducing op, float sums whose
value depends on the order of accumulation, ties of zeros and subnormals in clamp/max/min, top-k over long rows. Same case format as make_op_fixtures.py (and read
by the same test). Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_exactness_fixtures.py            # every family
    python tools/make_exactness_fixtures.py complex    # some
"""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conv_chain_cases import family_conv_chains
from make_op_fixtures import (
    BINARY,
    DTYPES,
    EXACT_REAL_UNARY,
    UNARY,
    Case,
    edges,
    module,
    result_type,
    write_family,
)
from product_sum_cases import family_product_sums
from rsqrt_cases import family_rsqrt
from simplifier_cases import family_simplifier
from ynn_cases import family_ynn_elementwise

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ops"
INDEX_TYPES = ["u8", "u16", "u32", "u64", "s8", "s16", "s64"]
FLOATS = ["f16", "bf16", "f32", "f64"]


def _computation(name: str, t: str, root: str) -> str:
    return f"{name} {{\n  p = {t}[] parameter(0)\n  q = {t}[] parameter(1)\n  ROOT r = {t}[] {root}\n}}\n\n"


def _with(computations: str, body: str) -> str:
    return "HloModule m\n\n" + computations + "ENTRY main {\n" + body + "\n}\n"


def family_indexing() -> Iterator[Case]:
    """gather, scatter, dynamic-slice and dynamic-update-slice with every index type, starts in
    range, past the end and (signed) negative; gathers whose result is a scalar."""
    operand = (np.arange(20, dtype=np.float32) * 1.5).reshape(5, 4)
    for it in INDEX_TYPES:
        dtype = np.dtype(DTYPES[it])
        high = int(np.iinfo(dtype).max)
        values = [0, 3, 4, 9, high] + ([-1, -7] if dtype.kind == "i" else [])
        indices = np.array(values, dtype=dtype).reshape(-1, 1)
        n = len(values)
        yield (module(f"  a = f32[5,4] parameter(0)\n  i = {it}[{n},1] parameter(1)\n"
                      f"  ROOT r = f32[{n},2,3] gather(a, i), offset_dims={{1,2}}, collapsed_slice_dims={{}}, "
                      "start_index_map={0}, index_vector_dim=1, slice_sizes={2,3}"),
               [operand, indices], ["f32", it, "f32"], True)  # fmt: skip
        updates = np.arange(n * 2 * 3, dtype=np.float32).reshape(n, 2, 3) + 0.25
        for name, root in (("add", "add(p, q)"), ("set", "copy(q)"), ("sub", "subtract(p, q)")):
            yield (_with(_computation(name, "f32", root),
                         f"  a = f32[5,4] parameter(0)\n  i = {it}[{n},1] parameter(1)\n  u = f32[{n},2,3] parameter(2)\n"
                         f"  ROOT r = f32[5,4] scatter(a, i, u), update_window_dims={{1,2}}, inserted_window_dims={{}}, "
                         f"scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply={name}"),
                   [operand, indices, updates], ["f32", it, "f32", "f32"], True)  # fmt: skip
        for start in values[1:]:
            i = np.array(start, dtype=dtype)
            j = np.array(1, dtype=dtype)
            yield (module(f"  a = f32[5,4] parameter(0)\n  i = {it}[] parameter(1)\n  j = {it}[] parameter(2)\n"
                          "  ROOT r = f32[2,3] dynamic-slice(a, i, j), dynamic_slice_sizes={2,3}"),
                   [operand, i, j], ["f32", it, it, "f32"], True)  # fmt: skip
            u = np.full((2, 3), -1.0, np.float32)
            yield (module(f"  a = f32[5,4] parameter(0)\n  u = f32[2,3] parameter(1)\n  i = {it}[] parameter(2)\n"
                          f"  j = {it}[] parameter(3)\n  ROOT r = f32[5,4] dynamic-update-slice(a, u, i, j)"),
                   [operand, u, i, j], ["f32", "f32", it, it, "f32"], True)  # fmt: skip
    vector = np.arange(5, dtype=np.float32) + 0.5
    for it in ("s64", "s32", "u8"):
        for start in (3, 7):
            yield (module(f"  a = f32[5] parameter(0)\n  i = {it}[1] parameter(1)\n"
                          "  ROOT r = f32[] gather(a, i), offset_dims={}, collapsed_slice_dims={0}, start_index_map={0}, "
                          "index_vector_dim=0, slice_sizes={1}"),
                   [vector, np.array([start], DTYPES[it])], ["f32", it, "f32"], True)  # fmt: skip
    yield (module("  a = s32[3,4] parameter(0)\n  i = u32[2] parameter(1)\n"
                  "  ROOT r = s32[] gather(a, i), offset_dims={}, collapsed_slice_dims={0,1}, start_index_map={1,0}, "
                  "index_vector_dim=0, slice_sizes={1,1}"),
           [np.arange(12, dtype=np.int32).reshape(3, 4), np.array([3, 2], np.uint32)], ["s32", "u32", "s32"], True)  # fmt: skip


def family_scalars() -> Iterator[Case]:
    """Every elementwise op of the op tables with scalar operands, and the other ops whose
    result can be a scalar: each result must be a 0-d array of the exact type."""
    for op, types in UNARY.items():
        for t in types:
            r = result_type(op, t)
            x = edges(t)
            for k in (2, 4):
                yield (module(f"  a = {t}[] parameter(0)\n  ROOT r = {r}[] {op}(a)"), [x[k % len(x)].reshape(())], [t, r],
                       t not in [*FLOATS, "c64"] or op in ("abs", "negate", "sign", "floor", "ceil", "is-finite", "real", "imag", "tanh", "erf")
                       or (op in {*EXACT_REAL_UNARY, "sqrt"} and t in FLOATS))  # fmt: skip
    for op, types in BINARY.items():
        for t in types:
            r = result_type(op, t)
            x = edges(t)
            yield (module(f"  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  ROOT r = {r}[] {op}(a, b)"),
                   [x[2].reshape(()), x[min(3, len(x) - 1)].reshape(())], [t, t, r], op not in ("power", "atan2") or t not in FLOATS)  # fmt: skip
    for t in FLOATS:
        for e, m in ((5, 2), (8, 7), (1, 0)):
            for k in (2, 7, 12):
                yield (module(f"  a = {t}[] parameter(0)\n  ROOT r = {t}[] reduce-precision(a), exponent_bits={e}, mantissa_bits={m}"),
                       [edges(t)[k].reshape(())], [t, t], True)  # fmt: skip
    for s in ("f32", "s32", "c64", "u8", "bf16", "f64", "pred"):
        for t in ("f32", "s32", "c64", "u8", "bf16", "pred", "f64", "s4"):
            if s == t or (s == "c64" and t not in ("c64", "f32", "f64", "bf16")):
                continue
            yield (
                module(f"  a = {s}[] parameter(0)\n  ROOT r = {t}[] convert(a)"),
                [edges(s)[2].reshape(())],
                [s, t],
                True,
            )
    for s, t in (
        ("f32", "s32"),
        ("s32", "u32"),
        ("f64", "s64"),
        ("f32", "u32"),
        ("bf16", "s16"),
        ("f16", "u16"),
        ("u8", "s8"),
    ):
        yield (
            module(f"  a = {s}[] parameter(0)\n  ROOT r = {t}[] bitcast-convert(a)"),
            [edges(s)[3].reshape(())],
            [s, t],
            True,
        )
    yield (module("  a = u8[4] parameter(0)\n  ROOT r = f32[] bitcast-convert(a)"),
           [np.array([0, 0, 128, 63], np.uint8)], ["u8", "f32"], True)  # fmt: skip
    for t in ("f32", "s32", "bf16", "u16", "c64"):
        e = edges(t)
        if t != "c64":
            yield (module(f"  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  ROOT r = pred[] compare(a, b), direction=LT"),
                   [e[2].reshape(()), e[3].reshape(())], [t, t, "pred"], True)  # fmt: skip
            yield (module(f"  a = {t}[] parameter(0)\n  b = {t}[] parameter(1)\n  c = {t}[] parameter(2)\n  ROOT r = {t}[] clamp(a, b, c)"),
                   [e[3].reshape(()), e[2].reshape(()), e[2].reshape(())], [t, t, t, t], True)  # fmt: skip
        yield (module(f"  p = pred[] parameter(0)\n  a = {t}[] parameter(1)\n  b = {t}[] parameter(2)\n  ROOT r = {t}[] select(p, a, b)"),
               [np.array(False), e[2].reshape(()), e[3].reshape(())], ["pred", t, t, t], True)  # fmt: skip
        yield (
            module(f"  a = {t}[1,1] parameter(0)\n  ROOT r = {t}[] reshape(a)"),
            [e[2:3].reshape(1, 1)],
            [t, t],
            True,
        )
        yield module(f"  a = {t}[] parameter(0)\n  ROOT r = {t}[] copy(a)"), [e[2].reshape(())], [t, t], True
        yield (module(f"  a = {t}[4] parameter(0)\n  s = {t}[1] slice(a), slice={{[2:3]}}\n  ROOT r = {t}[] reshape(s)"),
               [e[:4]], [t, t], True)  # fmt: skip
        yield (_with(_computation("add", t, "add(p, q)"), f"  a = {t}[5] parameter(0)\n  z = {t}[] constant(0)\n"
                     f"  ROOT r = {t}[] reduce(a, z), dimensions={{0}}, to_apply=add"),
               [e[2:7]], [t, t], t not in FLOATS)  # fmt: skip
        if t not in ("u16",):
            yield (module(f"  a = {t}[3] parameter(0)\n  b = {t}[3] parameter(1)\n"
                          f"  ROOT r = {t}[] dot(a, b), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}"),
                   [e[2:5], e[5:8]], [t, t, t], t not in [*FLOATS, "c64"])  # fmt: skip


def _complex_edges(t: str) -> np.ndarray:
    re = [
        0.0,
        -0.0,
        1.0,
        -2.5,
        np.inf,
        -np.inf,
        np.nan,
        1e-40,
        3.0,
        1.0,
        1e-45,
        2.0,
        1e30,
        -1e30,
        1e-30,
        3e38,
        2.0,
        -1.0,
    ]
    im = [
        0.0,
        1.0,
        -0.0,
        0.5,
        1.0,
        np.inf,
        0.0,
        2.0,
        -4.0,
        np.nan,
        1e-40,
        1e-39,
        1e30,
        2.0,
        1e-30,
        3e38,
        5.0,
        -0.0,
    ]
    if t == "c128":
        re += [1e-310, 1e300]
        im += [1.0, -1e300]
    x = np.zeros(len(re), DTYPES[t])
    x.real, x.imag = re, im
    return x


COMPLEX_UNARY = ("abs", "negate", "sign", "exponential", "exponential-minus-one", "log", "log-plus-one", "logistic",
                 "sqrt", "rsqrt", "sine", "cosine", "tan", "tanh", "real", "imag")  # fmt: skip
COMPLEX_BINARY = ("add", "subtract", "multiply", "divide", "power", "atan2", "maximum", "minimum")
NOT_EXACT = ("rsqrt",)  # XLA:CPU's estimate depends on the CPU (docs/SEMANTICS.md)


def _wide_complex(t: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Values of every magnitude: both parts spread over the whole exponent range (subnormals
    included), small parts, one part large and the other small, near the unit circle and -1."""
    low, high = (-45, 38) if t == "c64" else (-320, 307)

    def part(k: int) -> np.ndarray:
        return rng.choice([-1.0, 1.0], k) * 10.0 ** rng.uniform(low, high, k)

    k = n // 6
    blocks = [
        part(k) + 1j * part(k),
        rng.uniform(-3, 3, k) + 1j * rng.uniform(-3, 3, k),
        rng.uniform(-100, 100, k) + 1j * part(k),
        part(k) + 1j * rng.uniform(-2, 2, k),
        np.exp(1j * rng.uniform(-4, 4, k)) * (1 + rng.uniform(-0.3, 0.3, k)),  # |z| near 1
        -1 + rng.uniform(-0.3, 0.3, n - 5 * k) + 1j * rng.uniform(-0.3, 0.3, n - 5 * k),  # z near -1
    ]
    with np.errstate(all="ignore"):
        return np.concatenate(blocks).astype(DTYPES[t])


def _complex_grid(t: str) -> np.ndarray:
    """Every pair of real edges as (real, imaginary) parts: zeros of both signs, subnormals,
    infinities, NaN, the overflow thresholds of exp (89 in f32, 710 in f64), huge and tiny."""
    edges = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.inf, -np.inf, np.nan, 1e-40, -1e-45, 1e-30, 1e30, -1e30,
             3e38, 89.0, -89.0, 0.8]  # fmt: skip
    if t == "c128":
        edges += [1e-310, -1e300, 710.0, -710.0]
    re, im = np.meshgrid(np.array(edges), np.array(edges), indexing="ij")
    z = np.zeros(re.size, DTYPES[t])
    with np.errstate(over="ignore"):
        z.real, z.imag = re.reshape(-1), im.reshape(-1)
    return z


def family_complex() -> Iterator[Case]:
    """Every complex elementwise op: edges (NaN, infinities, signed zeros, subnormal parts, equal
    real parts, overflowing exponents) as a grid, and values of every magnitude; power and
    atan2 at random too, and power's special values."""
    rng = np.random.default_rng(17)
    for t in ("c64", "c128"):
        x = _complex_edges(t)
        grid_a, grid_b = (v.reshape(-1) for v in np.meshgrid(x, x, indexing="ij"))
        n = len(grid_a)
        wide = _wide_complex(t, 800, rng)
        wide_b = _wide_complex(t, 800, rng)[rng.permutation(800)]
        for op in COMPLEX_BINARY:
            for a, b in ((grid_a, grid_b), (wide, wide_b)):
                m = len(a)
                text = module(
                    f"  a = {t}[{m}] parameter(0)\n  b = {t}[{m}] parameter(1)\n  ROOT r = {t}[{m}] {op}(a, b)"
                )
                yield text, [a, b], [t, t, t], True
        real = {"c64": "f32", "c128": "f64"}[t]
        for op in COMPLEX_UNARY:
            r = real if op in ("abs", "real", "imag") else t
            for z in (_complex_grid(t), wide):
                m = len(z)
                yield (module(f"  a = {t}[{m}] parameter(0)\n  ROOT r = {r}[{m}] {op}(a)"), [z], [t, r],
                       op not in NOT_EXACT)  # fmt: skip
        for scale in (1.0, 30.0, 1e3):
            m = 64
            a = (rng.standard_normal(m) * scale + 1j * rng.standard_normal(m) * scale).astype(DTYPES[t])
            b = (rng.standard_normal(m) * 2 + 1j * rng.standard_normal(m)).astype(DTYPES[t])
            for op in ("power", "atan2"):
                text = module(
                    f"  a = {t}[{m}] parameter(0)\n  b = {t}[{m}] parameter(1)\n  ROOT r = {t}[{m}] {op}(a, b)"
                )
                yield text, [a, b], [t, t, t], True
        # exp: XLA's own exp of the real part times the C library's cos and sin of the other
        spread = rng.uniform(-20, 20, 2000) + 1j * rng.uniform(-10, 10, 2000)
        z = np.concatenate([x, spread.astype(DTYPES[t])])
        yield (
            module(f"  a = {t}[{len(z)}] parameter(0)\n  ROOT r = {t}[{len(z)}] exponential(a)"),
            [z],
            [t, t],
            True,
        )
        # reduces with each complex reducer: products of unit values (no overflow), max/min with
        # ties in the real parts, sums in XLA's order
        for op, init in (
            ("add", "(0, 0)"),
            ("multiply", "(1, 0)"),
            ("maximum", "(-inf, 0)"),
            ("minimum", "(inf, 0)"),
        ):
            for shape, dims in (((30,), "0"), ((8, 300), "1"), ((300, 8), "0"), ((5000,), "0")):
                v = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(DTYPES[t])
                if op == "multiply":
                    v = (v / np.abs(v)).astype(DTYPES[t])
                if op in ("maximum", "minimum"):
                    v.real = np.round(v.real * 2)
                out = [d for i, d in enumerate(shape) if str(i) != dims]
                text = _with(
                    _computation("reducer", t, f"{op}(p, q)"),
                    f"  a = {t}{list(shape)} parameter(0)\n  z = {t}[] constant({init})\n"
                    f"  ROOT r = {t}{out} reduce(a, z), dimensions={{{dims}}}, to_apply=reducer",
                )
                yield text, [v], [t, t], True
        # the special values of power: x^0, 1^y, 0^y
        special = np.array(
            [0, 1, 1 + 0j, 2 - 1j, np.inf, complex(np.nan, 0), complex(0, np.nan), -0.0, 1e-40], DTYPES[t]
        )
        exps = np.array(
            [0, 0.5, 2, complex(0, 1), complex(-1, 0), complex(np.inf, 1), complex(np.nan, 0), 0j, 3],
            DTYPES[t],
        )
        a, b = (v.reshape(-1) for v in np.meshgrid(special, exps, indexing="ij"))
        n = len(a)
        yield (module(f"  a = {t}[{n}] parameter(0)\n  b = {t}[{n}] parameter(1)\n  ROOT r = {t}[{n}] power(a, b)"),
               [a, b], [t, t, t], True)  # fmt: skip


def _spread(t: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Values over many magnitudes, so that every change of summation order shows."""
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    return x.astype(np.float32).astype(DTYPES[t])


_ARGMAX = """argmax {{
  v1 = {t}[] parameter(0)
  i1 = s32[] parameter(1)
  v2 = {t}[] parameter(2)
  i2 = s32[] parameter(3)
  gt = pred[] compare(v1, v2), direction=GT
  ne = pred[] compare(v1, v1), direction=NE
  eq = pred[] compare(v1, v2), direction=EQ
  lt = pred[] compare(i1, i2), direction={tie}
  tie = pred[] and(eq, lt)
  g2 = pred[] or(gt, ne)
  p = pred[] or(g2, tie)
  v = {t}[] select(p, v1, v2)
  i = s32[] select(p, i1, i2)
  ROOT t = ({t}[], s32[]) tuple(v, i)
}}

"""


def family_reduce_window() -> Iterator[Case]:
    """reduce-window in XLA:CPU's order: windows folded from the init value with padding and
    dilation holes skipped (a non-identity init shows it), scans (cumulative sums, products,
    maxima; forward, reverse, exclusive; f32, bf16, f16) short and long enough for XLA:CPU's
    scan rewrite, and variadic argmax reducers whose tie-break and NaN rule depend on order."""
    rng = np.random.default_rng(23)
    for t in ("f32", "bf16", "f16"):
        for op, init in (
            ("add", "0"),
            ("add", "1.5"),
            ("multiply", "1"),
            ("maximum", "-inf"),
            ("subtract", "0.5"),
        ):
            comp = _computation("f", t, f"{op}(p, q)")
            for n in (5, 16, 17, 40, 300):
                for lo, hi in ((n - 1, 0), (0, n - 1), (n, 0), (0, n)):
                    out = n + (1 if max(lo, hi) == n else 0)
                    x = (
                        _spread(t, (3, n), rng)
                        if op != "multiply"
                        else (1 + _spread(t, (3, n), rng) * 0.01).astype(DTYPES[t])
                    )
                    yield (_with(comp, f"  x = {t}[3,{n}] parameter(0)\n  z = {t}[] constant({init})\n"
                                 f"  ROOT r = {t}[3,{out}] reduce-window(x, z), window={{size=1x{n} pad=0_0x{lo}_{hi}}}, to_apply=f"),
                           [x], [t, t], True)  # fmt: skip
            x = _spread(t, (6, 9), rng)
            for window, shape in (("size=2x3 stride=1x2 pad=1_0x1_1", "6,5"), ("size=3x2 stride=2x1 pad=0_1x2_0 lhs_dilate=2x1 rhs_dilate=1x2", "5,9"),
                                  ("size=1x4 pad=0_0x-1_2", "6,7")):  # fmt: skip
                # XLA:CPU folds some windows padded in the minor dimension column by column (here
                # pad=0_1x2_0; 1_0x1_1 stays row-major): a rule not pinned yet, so that case is
                # compared within float rounding (f16 products fall outside it)
                if t == "f16" and "rhs_dilate" in window:
                    continue
                yield (_with(comp, f"  x = {t}[6,9] parameter(0)\n  z = {t}[] constant({init})\n"
                             f"  ROOT r = {t}[{shape}] reduce-window(x, z), window={{{window}}}, to_apply=f"),
                       [x], [t, t], "rhs_dilate" not in window)  # fmt: skip
    for t in ("f32", "bf16"):
        for tie in ("LT", "GT"):
            for init_v, init_i in (("-inf", "0"), ("nan", "7"), ("2", "-1")):
                for window, n, m in (("size=3 stride=2 pad=1_1", 12, 6), ("size=4 stride=1 pad=2_1 lhs_dilate=2", 12, 23),
                                     ("size=12 pad=11_0", 12, 12), ("size=40 pad=39_0", 40, 40)):  # fmt: skip
                    x = rng.choice(np.array([1, 2, 2, -np.inf, np.nan, 0], np.float32), size=n).astype(
                        DTYPES[t]
                    )
                    ix = rng.permutation(n).astype(np.int32)
                    yield (_with(_ARGMAX.format(t=t, tie=tie),
                                 f"  x = {t}[{n}] parameter(0)\n  ix = s32[{n}] parameter(1)\n  a = {t}[] constant({init_v})\n"
                                 f"  b = s32[] constant({init_i})\n  r = ({t}[{m}], s32[{m}]) reduce-window(x, ix, a, b), "
                                 f"window={{{window}}}, to_apply=argmax\n  ROOT o = s32[{m}] get-tuple-element(r), index=1"),
                           [x, ix], [t, "s32", "s32"], True)  # fmt: skip


def family_sums() -> Iterator[Case]:
    """Float reduces whose value depends on the order of accumulation (values over many
    magnitudes): XLA:CPU's tree rewrite (windows of 32, "SAME" padding, init folded once per
    window and level), per-step rounding in bf16 and f16, rows, columns and several dimensions,
    non-identity init values; below 4096 elements (larger ones XLA:CPU also vectorizes)."""
    rng = np.random.default_rng(29)
    shapes = [((12,), "0"), ((33,), "0"), ((64,), "0"), ((100,), "0"), ((1000,), "0"), ((2048,), "0"),
              ((7, 50), "1"), ((50, 7), "0"), ((40, 40), "0,1"), ((3, 64, 5), "1"), ((8, 300), "1"),
              ((300, 8), "0"), ((4, 5, 6), "0,2"), ((2, 33, 2, 20), "1,3")]  # fmt: skip
    for t in ("f32", "bf16", "f16"):
        for op, init in (("add", "0"), ("add", "0.75"), ("multiply", "1")):
            comp = _computation("f", t, f"{op}(p, q)")
            for shape, dims in shapes:
                x = _spread(t, shape, rng)
                if op == "multiply":
                    x = (1 + x.astype(np.float32) * 1e-3).astype(DTYPES[t])
                kept = [str(s) for d, s in enumerate(shape) if str(d) not in dims.split(",")]
                # windows padded in two reduced dimensions fold in an order not pinned yet
                pinned = sum(shape[int(d)] > 32 for d in dims.split(",")) < 2
                yield (_with(comp, f"  x = {t}[{','.join(map(str, shape))}] parameter(0)\n  z = {t}[] constant({init})\n"
                             f"  ROOT r = {t}[{','.join(kept)}] reduce(x, z), dimensions={{{dims}}}, to_apply=f"),
                       [x], [t, t], pinned)  # fmt: skip


def _powers(t: str, shape: tuple[int, ...], rng: np.random.Generator, span: int) -> np.ndarray:
    """Signed powers of two over 2*span binades: every regrouping of a sum changes its bits, and
    the arrays compress to about a byte a value."""
    signs = rng.choice(np.array([-1.0, 1.0]), size=shape)
    return (signs * np.exp2(rng.integers(-span, span + 1, shape))).astype(DTYPES[t])


def _sum_of(t: str, shape: tuple[int, ...], dims: str, init: str, comp: str = "") -> str:
    kept = [str(s) for d, s in enumerate(shape) if str(d) not in dims.split(",")]
    return _with(comp or _computation("f", t, "add(p, q)"),
                 f"  x = {t}[{','.join(map(str, shape))}] parameter(0)\n  z = {t}[] constant({init})\n"
                 f"  ROOT r = {t}[{','.join(kept)}] reduce(x, z), dimensions={{{dims}}}, to_apply=f")  # fmt: skip


def _placed(t: str, n: int, where: dict[int, float]) -> np.ndarray:
    x = np.zeros(n, DTYPES[t])
    for i, v in where.items():
        x[i] = v
    return x


def family_vector_sums() -> Iterator[Case]:
    """Float add-reduces that XLA:CPU hands to its vector kernel (f32 and f64 with at least 4096
    elements; hlo.numerics.vector_sum): sums over 1 to 3 trailing dimensions, short and long
    enough to be cut into blocks, chunks and a partial last block, with 1-3 and 4 or more results
    (chunked or not); values whose sums change bits under any regrouping; the compensated
    (Kahan) step between blocks; non-finite and signed-zero results; subnormal inputs. Also,
    compared within rounding only, the sums the model does not cover yet: column sums and bf16
    sums of 4096 or more elements."""
    rng = np.random.default_rng(31)
    for t, span in (("f32", 24), ("f64", 60)):
        for n in (4096, 4097, 4111, 5000, 5040, 8192, 10000, 16385, 32767, 32768, 32769, 65537):
            if t == "f64" and n in (4097, 4111, 10000, 32767, 32768, 100000):
                continue
            for init in ("0", "0.75") if n in (4096, 5000, 32769) else ("0",):
                yield _sum_of(t, (n,), "0", init), [_powers(t, (n,), rng, span)], [t, t], True
        for n in (4096, 5000):
            yield _sum_of(t, (n,), "0", "-0"), [_spread(t, (n,), rng)], [t, t], True
    rows = [("f32", (3, 33000), "1"), ("f32", (4, 33000), "1"), ("f32", (8, 512), "1"), ("f32", (4096, 3), "1"),
            ("f32", (1000, 17), "1"), ("f32", (64, 64), "0,1"), ("f32", (4, 10, 512), "1,2"), ("f32", (5, 20, 300), "1,2"),
            ("f32", (3, 9000, 2), "1,2"), ("f64", (3, 17000), "1"), ("f64", (4, 17000), "1"), ("f64", (7, 3000), "1")]  # fmt: skip
    for t, shape, dims in rows:
        yield _sum_of(t, shape, dims, "1.5"), [_powers(t, shape, rng, 24 if t == "f32" else 60)], [t, t], True
    e = 2.0**-24
    for t in ("f32", "f64"):
        tiny = e if t == "f32" else 2.0**-53
        for where in ({0: 1, 1024: tiny, 2048: tiny}, {0: tiny, 1024: 1, 2048: tiny}, {0: 2**30, 1024: 1, 2048: -(2**30)},
                      {0: 2**30, 1024: -(2**30), 2048: 1}, {5: np.inf}, {4990: np.inf, 7: 1}, {3: np.inf, 4000: -np.inf},
                      {100: np.nan}, {0: 1, 1024: tiny, 2048: tiny, 4100: tiny}):  # fmt: skip
            yield _sum_of(t, (5000,), "0", "0"), [_placed(t, 5000, where)], [t, t], True
        big = np.finfo(DTYPES[t]).max / 4
        yield _sum_of(t, (8192,), "0", "0"), [np.full(8192, big, DTYPES[t])], [t, t], True  # overflow
        yield _sum_of(t, (4096,), "0", "-0"), [np.full(4096, -0.0, DTYPES[t])], [t, t], True
        yield _sum_of(t, (4096,), "0", "0"), [np.full(4096, -0.0, DTYPES[t])], [t, t], True
        sub = (1e-40 if t == "f32" else 1e-310) * (1 + np.arange(6000) % 7)
        yield _sum_of(t, (6000,), "0", "0"), [sub.astype(DTYPES[t])], [t, t], True
    unmodelled = (
        ("f32", (512, 8), "0"),
        ("f32", (300, 40), "0"),
        ("bf16", (8192,), "0"),
        ("f32", (1, 2, 17000), "1,2"),
    )
    for t, shape, dims in unmodelled:
        # positive values: any order of summing stays within rounding
        x = rng.uniform(1, 2, shape).astype(np.float32).astype(DTYPES[t])
        yield _sum_of(t, shape, dims, "0"), [x], [t, t], False


def family_column_sums() -> Iterator[Case]:
    """Float add-reduces of 4096+ elements over dimensions that are not the trailing ones, which
    XLA:CPU hands to its strided vector kernel (hlo.numerics.column_sum): groups of 4 rows,
    256-row blocks joined by Kahan's compensated sum, 128 KiB chunks of rows whose sums are summed
    again (six chunks and more: in the kernel's order, not one by one), rows longer than a chunk
    added one by one to the init value, at most 4 rows, middle and several leading dimensions,
    dimensions of size 1 (dropped: a trailing sum then); signed zeros, non-finite values and
    subnormals. Also, compared within rounding only, what is not modelled: reduced dimensions
    that are not consecutive."""
    rng = np.random.default_rng(37)
    cases = [("f32", (512, 64), "0", "0"), ("f32", (300, 40), "0", "1.5"), ("f32", (100, 100), "0", "0"),
             ("f32", (8300, 4), "0", "0"), ("f64", (600, 170), "0", "0.75"), ("f64", (2100, 8), "0", "0"),
             ("f32", (4097, 2), "0", "0"), ("f32", (1030, 9), "0", "0"), ("f64", (700, 9), "0", "0"),
             ("f32", (4, 1024), "0", "1.5"), ("f32", (3, 1400), "0", "0"), ("f32", (5, 1000), "0", "0"),
             ("f32", (3, 33000), "0", "1.5"), ("f64", (5, 16500), "0", "0.75"), ("f32", (3, 700, 7), "1", "0"),
             ("f32", (40, 50, 8), "0,1", "0"), ("f32", (2, 30, 40, 6), "1,2", "1.5"), ("f32", (5000, 1), "0", "0"),
             ("f32", (1, 5000, 3), "1", "0"), ("f32", (512, 8), "0", "0"), ("f32", (300, 13), "0", "0")]  # fmt: skip
    for t, shape, dims, init in cases:
        x = _powers(t, shape, rng, 24 if t == "f32" else 60)
        if x.size > 20000 and x.ndim == 2 and shape[1] > 16:
            x[:, 16:] = 0  # a few columns show the order; zeros keep the file small
        yield _sum_of(t, shape, dims, init), [x], [t, t], True
    for t in ("f32", "f64"):
        tiny = 2.0**-24 if t == "f32" else 2.0**-53
        x = np.zeros((600, 8), DTYPES[t])
        x[0, 0], x[256, 0], x[512, 0] = 1, tiny, tiny  # the compensation between blocks
        x[0, 1], x[256, 1], x[599, 1] = tiny, 1, tiny
        x[5, 2], x[300, 3], x[3, 3] = np.inf, np.inf, 1
        x[10, 4], x[400, 4], x[100, 5], x[599, 6] = np.inf, -np.inf, np.nan, -np.inf
        x[0, 7], x[300, 7], x[1, 7] = 2**30, -(2**30), 1
        yield _sum_of(t, (600, 8), "0", "0"), [x], [t, t], True
        for shape in ((512, 8), (3, 33000) if t == "f32" else (3, 16500)):
            for init in ("0", "-0"):
                yield _sum_of(t, shape, "0", init), [np.full(shape, -0.0, DTYPES[t])], [t, t], True
        sub = (1e-40 if t == "f32" else 1e-310) * (1 + np.arange(700 * 9) % 7)
        yield _sum_of(t, (700, 9), "0", "0"), [sub.astype(DTYPES[t]).reshape(700, 9)], [t, t], True
    for shape, dims in (((40, 30, 8), "0,2"), ((3, 40, 50), "0,2")):
        x = (rng.integers(4, 8, shape) / 4).astype(np.float32)  # positive: within rounding in any order
        yield _sum_of("f32", shape, dims, "0"), [x], ["f32", "f32"], False


def family_split_sums() -> Iterator[Case]:
    """Float add-reduces of 4096+ elements over reduced dimensions that are not consecutive
    (hlo.numerics.split_sum): the innermost dimension reduced (vector kernel per slice) or kept
    (column kernel per slice), slices added to the init value in row-major order; odd sizes,
    dimensions of size 1, up to 7 runs of reduced and kept dimensions, f32 and f64, init values,
    signed zeros, infinities, NaN, subnormals. Also sums over several trailing dimensions with
    at most 3 results of more than 128 KiB, which XLA:CPU (on 2 threads) splits into partial sums
    by YNNPACK's tile."""
    rng = np.random.default_rng(43)
    cases = [("f32", (40, 30, 8), "0,2", "0"), ("f32", (3, 40, 50), "0,2", "1.5"), ("f32", (64, 8, 64), "0,2", "0.5"),
             ("f32", (6, 7, 5, 9, 4), "0,2,4", "0"), ("f32", (6, 7, 5, 9, 4), "1,3", "-0"), ("f64", (30, 20, 10), "0,2", "1"),
             ("f32", (5, 6, 200, 7), "1,3", "1.5"), ("f32", (17, 33, 13), "0,2", "1.5"), ("f64", (17, 33, 13), "0,2", "-3"),
             ("f32", (3, 700, 2, 5), "0,2", "0"), ("f32", (3, 700, 2, 5), "1,3", "0"), ("f32", (1, 40, 1, 30, 8), "1,4", "0"),
             ("f64", (9, 2, 11, 3, 41), "1,3", "2"), ("f32", (1000, 2, 2), "0,2", "1.5"), ("f32", (4, 1024, 2), "0,2", "1.5"),
             ("f32", (2, 4096, 2), "0,2", "1.5"), ("f32", (6, 5, 6, 5, 6, 5), "0,2,4", "0"), ("f32", (4, 3, 4, 3, 4, 3, 4), "1,3,5", "0.5"),
             ("f32", (4, 5, 4, 5, 4, 5, 4, 1), "0,2,4", "0"),
             ("f64", (7, 300, 5), "0,2", "0"), ("f32", (300, 3, 5, 7), "0,2", "0"), ("f32", (100, 5, 64), "0,2", "0")]  # fmt: skip
    for t, shape, dims, init in cases:
        for span in (24 if t == "f32" else 60, 8)[: 1 + (np.prod(shape) < 8000)]:
            yield _sum_of(t, shape, dims, init), [_powers(t, shape, rng, span)], [t, t], True
    for t in ("f32", "f64"):
        tiny = 2.0**-24 if t == "f32" else 2.0**-53
        x = np.zeros((40, 30, 8), DTYPES[t])
        x[0, 0, 0], x[1, 0, 0], x[2, 0, 0] = 1, tiny, tiny  # slices added one by one
        x[0, 1, 0], x[1, 1, 3], x[39, 1, 7] = 2**30, -(2**30), 1
        x[5, 2, 1], x[7, 3, 1], x[9, 3, 2] = np.inf, np.inf, -np.inf
        x[3, 4, 4], x[0, 5, 0] = np.nan, -np.inf
        x[:, 6, :] = -0.0
        x[:, 7, :] = (1e-40 if t == "f32" else 1e-310) * (1 + np.arange(320).reshape(40, 8) % 7)
        for init in ("0", "-0", "inf"):
            yield _sum_of(t, (40, 30, 8), "0,2", init), [x], [t, t], True
        # the innermost dimension kept: the column kernel per slice
        yield _sum_of(t, (40, 30, 4, 2), "0,2", "0"), [x.reshape(40, 30, 4, 2)], [t, t], True
        z = np.zeros((30, 40, 8), DTYPES[t])
        z[0, 0, :], z[0, 1, :], z[0, 2, :] = 1, tiny, tiny
        z[1, 5, 2], z[2, 9, 3], z[3, 0, 4] = np.inf, -np.inf, np.nan
        yield _sum_of(t, (30, 40, 8), "0,2", "0.5"), [z], [t, t], True
    # several trailing dimensions, at most 3 results of more than 128 KiB: partial sums by tile
    tiled = [("f32", (1, 3, 17000), "1,2", "1.5"), ("f32", (2, 3, 17000), "1,2", "1.5"), ("f32", (3, 2, 17000), "1,2", "-1"),
             ("f32", (2, 1000, 33), "1,2", "1.5"), ("f32", (3, 9, 2, 2000), "1,2,3", "0"), ("f32", (1, 100, 400), "1,2", "0"),
             ("f32", (2, 257, 129), "1,2", "0"), ("f32", (40, 1000), "0,1", "1.5"), ("f64", (2, 5, 4000), "1,2", "1.5"),
             ("f64", (1, 3, 3, 2000), "1,2,3", "0")]  # fmt: skip
    for t, shape, dims, init in tiled:
        yield _sum_of(t, shape, dims, init), [_powers(t, shape, rng, 24 if t == "f32" else 60)], [t, t], True
    for t in ("f32", "f64"):
        tiny = 2.0**-24 if t == "f32" else 2.0**-53
        x = np.zeros((2, 9, 5000), DTYPES[t])
        x[0, 0, 0], x[0, 6, 0], x[0, 7, 1] = 1, tiny, tiny  # one tile, then the next
        x[1, 0, 5], x[1, 3, 9], x[1, 8, 4999] = np.inf, np.nan, 1
        for init in ("0", "-0"):
            yield _sum_of(t, (2, 9, 5000), "1,2", init), [x], [t, t], True
        yield _sum_of(t, (2, 9, 5000), "1,2", "0"), [np.full((2, 9, 5000), -0.0, DTYPES[t])], [t, t], True


def _window_sum(
    t: str, shape: tuple[int, ...], size: tuple[int, ...], stride: tuple[int, ...], init: str
) -> str:
    out = [(n - k) // st + 1 for n, k, st in zip(shape, size, stride)]
    window = f"size={'x'.join(map(str, size))} stride={'x'.join(map(str, stride))}"
    return _with(_computation("f", t, "add(p, q)"),
                 f"  x = {t}[{','.join(map(str, shape))}] parameter(0)\n  z = {t}[] constant({init})\n"
                 f"  ROOT r = {t}[{','.join(map(str, out))}] reduce-window(x, z), window={{{window}}}, to_apply=f")  # fmt: skip


def family_window_sums() -> Iterator[Case]:
    """f32/f64 reduce-window sums whose windows tile the operand (stride = size, no padding) and
    whose operand has 4096+ elements: XLA:CPU hands them to YNNPACK as a reduce of the operand
    cut into windows, in the vector kernels' order (hlo.numerics.reduction._window_as_reduce):
    1-D, 2-D and 3-D windows, elements past the last whole window, init values, signed zeros,
    infinities, NaN. Also windows that stay in order: 4095 elements, overlapping windows; and
    windows whose rows XLA:CPU vectorizes (_row_sums)."""
    rng = np.random.default_rng(47)
    cases = [("f32", (64, 64), (16, 16), "1.5"), ("f32", (64, 200), (1, 64), "0"), ("f32", (4096,), (4,), "1.5"),
             ("f64", (64, 64), (1, 16), "-2"), ("f32", (64, 64), (4, 1), "0"), ("f32", (32, 32, 8), (2, 2, 2), "0.5"),
             ("f32", (64, 64), (2, 2), "0"), ("f32", (2, 3, 32, 64), (1, 1, 2, 2), "0"), ("f32", (32, 64, 5), (2, 8, 1), "1.5"),
             ("f32", (8192,), (4096,), "0"), ("f32", (64, 64), (64, 1), "-0"), ("f32", (150, 192), (1, 64), "1.5"),
             ("f64", (33, 130), (3, 10), "0"), ("f32", (63, 65), (1, 13), "1.5")]  # fmt: skip
    for t, shape, size, init in cases:
        x = _powers(t, shape, rng, 24 if t == "f32" else 60)
        yield _window_sum(t, shape, size, size, init), [x], [t, t], True
    yield (
        _window_sum("f32", (64, 64), (3, 3), (2, 2), "1.5"),
        [_powers("f32", (64, 64), rng, 24)],
        ["f32", "f32"],
        True,
    )
    for t in ("f32", "f64"):
        x = np.zeros((64, 96), DTYPES[t])
        x[0, :4] = [1, 2.0**-24, 2.0**-24, -1]
        x[1, 0], x[1, 40], x[2, 3], x[2, 5], x[3, 7] = np.inf, np.inf, np.inf, -np.inf, np.nan
        x[4:8, :] = -0.0
        for init in ("0", "-0"):
            yield _window_sum(t, (64, 96), (4, 32), (4, 32), init), [x], [t, t], True
    yield from _row_sums()


def _row_sum(t: str, shape: tuple[int, ...], window: str, init: str) -> str:
    """A reduce-window sum over `shape` with `window` (size, stride, pad, dilations as in HLO text)."""
    fields = dict(f.split("=") for f in window.split())

    def per_dim(key: str, default: str) -> list[str]:
        return fields.get(key, "x".join([default] * len(shape))).split("x")

    out = []
    for n, k, st, pad, base, dil in zip(shape, per_dim("size", "1"), per_dim("stride", "1"), per_dim("pad", "0_0"),
                                        per_dim("lhs_dilate", "1"), per_dim("rhs_dilate", "1")):  # fmt: skip
        lo, hi = map(int, pad.split("_"))
        span = (int(k) - 1) * int(dil) + 1
        out.append(((n - 1) * int(base) + 1 + lo + hi - span) // int(st) + 1)
    return _with(_computation("f", t, "add(p, q)"),
                 f"  x = {t}[{','.join(map(str, shape))}] parameter(0)\n  z = {t}[] constant({init})\n"
                 f"  ROOT r = {t}[{','.join(map(str, out))}] reduce-window(x, z), window={{{window}}}, to_apply=f")  # fmt: skip


def _row_sums() -> Iterator[Case]:
    """Sums whose minor window dimension has 100+ positions: XLA:CPU vectorizes the loop over it
    (hlo.numerics.window_vector): every class of the elements left past the last round of 32
    (f32) or 16 (f64), rows of 2-D and 3-D windows, padding of a major dimension, strides, init
    values, signed zeros, infinities, NaN. Folded in order: 2-D windows under 100 positions a
    side, base dilation on the minor dimension. Not modelled (within rounding): a major
    dimension of 100+ positions, padding or window dilation on the minor one."""
    rng = np.random.default_rng(48)
    for t, lengths in (
        ("f32", (100, 131, 102, 138, 173, 209, 246, 599, 600, 601, 1054)),
        ("f64", (100, 131, 102, 138, 599, 600)),
    ):
        for k, n in enumerate(lengths):
            init = ("0", "1.5", "-0")[k % 3]
            yield (
                _row_sum(t, (2, n + 20), f"size=1x{n}", init),
                [_powers(t, (2, n + 20), rng, 24)],
                [t, t],
                True,
            )
    exact = [((5, 230), "size=3x200", True), ((4, 5, 170), "size=2x3x150", True), ((3, 300), "size=2x120 pad=1_0x0_0", True),
             ((2, 300), "size=1x120 stride=1x7", True), ((2, 100), "size=1x150 lhs_dilate=1x2", True), ((20, 20), "size=10x10", True),
             ((24, 24), "size=16x16", True), ((220, 3), "size=200x1", False), ((110, 5), "size=100x3", False),
             ((2, 200), "size=1x150 pad=0_0x20_20", False), ((2, 300), "size=1x120 rhs_dilate=1x2", False)]  # fmt: skip
    for t in ("f32", "f64"):
        for shape, window, pinned in exact:
            x = _powers(t, shape, rng, 24)
            x = x if pinned else np.abs(x)  # no cancellation: the order not modelled stays within tolerance
            yield _row_sum(t, shape, window, "1.5"), [x], [t, t], pinned
        yield _row_sum(t, (2, 300), "size=1x137", "-0"), [np.full((2, 300), -0.0, DTYPES[t])], [t, t], True
        x = _powers(t, (2, 300), rng, 24)
        x[0, 5], x[1, 50], x[1, 80], x[0, 200] = np.inf, -np.inf, np.inf, np.nan
        yield _row_sum(t, (2, 300), "size=1x137", "0"), [x], [t, t], True


def family_window_rows() -> Iterator[Case]:
    """Sums over small 2-D windows whose rows LLVM's loop vectorizer takes as lanes (the adds
    XLA:CPU emits allow reassociation; hlo.numerics.window_vector.fold_rows): 2, 4 and 8 rows,
    rows of 2 positions over operand rows of a power-of-two length, whole operand rows (up to
    192 bytes a window), one row of outputs, strides, init values, signed zeros, infinities, NaN. Folded in order: 2-row
    windows with a major stride of 1, other row lengths, 3 and 6 rows, whole rows of 12
    positions. Not modelled (within rounding): 4 rows of 2 over rows of 3 with one output per
    row (vectorized); f64 windows of 8 rows are pinned by tools/make_window_lanes_fixtures.py."""
    rng = np.random.default_rng(53)
    lanes = [((32, 64), "size=2x2 stride=2x1"), ((16, 16), "size=2x2 stride=2x2"), ((40, 4), "size=2x2 stride=3x1"),
             ((40, 3), "size=2x3 stride=2x1"), ((40, 8), "size=4x2"), ((41, 32), "size=4x2 stride=2x3"),
             ((30, 5), "size=4x5"), ((2, 128), "size=2x2"), ((40, 2), "size=2x2 stride=2x2"), ((16, 16), "size=4x2 stride=4x1"),
             ((40, 4), "size=4x4 stride=3x1")]  # fmt: skip
    in_order = [((32, 64), "size=2x2"), ((40, 5), "size=2x2 stride=2x1"), ((30, 30), "size=3x3 stride=3x3"),
                ((40, 40), "size=2x2 stride=2x1"), ((40, 12), "size=2x12 stride=2x1"), ((40, 16), "size=2x8 stride=2x1"),
                ((40, 16), "size=6x2 stride=2x1"), ((16, 16), "size=3x3 stride=3x3")]  # fmt: skip
    for t in ("f32", "f64"):
        f32 = [((33, 16), "size=8x2 stride=3x2"), ((40, 8), "size=4x8"), ((40, 6), "size=8x6 stride=2x1")]
        cases = [*lanes, *f32] if t == "f32" else lanes
        for k, (shape, window) in enumerate([*cases, *in_order]):
            init = ("0", "1.5", "-0")[k % 3]
            yield _row_sum(t, shape, window, init), [_powers(t, shape, rng, 24)], [t, t], True
        x = _powers(t, (40, 8), rng, 24)
        x[0, 0], x[1, 1], x[5, 0], x[9, 1], x[12, :] = np.inf, -np.inf, np.inf, np.nan, -0.0
        x[13, :2] = -0.0
        for init in ("0", "-0"):
            yield _row_sum(t, (40, 8), "size=2x2 stride=2x1", init), [x], [t, t], True
        # no cancellation: the order not modelled stays within tolerance
        x = np.abs(_powers(t, (40, 3), rng, 24))
        yield _row_sum(t, (40, 3), "size=4x2 stride=1x2", "1.5"), [x], [t, t], False
    x = np.abs(_powers("f64", (40, 16), rng, 24))
    yield _row_sum("f64", (40, 16), "size=8x2", "1.5"), [x], ["f64", "f64"], False


def family_reduce_lanes() -> Iterator[Case]:
    """Float sums of fewer than 4096 elements over two or more dimensions, whose rows LLVM's
    loop vectorizer may take as lanes (hlo.numerics.reduce_lanes): random f32/f64 shapes of 2 to
    5 dimensions (whole runs of rows, strided rows, groups with gaps, 2 to 32 rows, trip counts
    that change the lanes), the tree rewrite's windows of 32 rows and its final reduce, init
    values; values whose sums change bits under any regrouping."""
    rng = np.random.default_rng(67)
    sizes = [1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 12, 16, 16, 17, 20, 24, 28, 31, 32]
    tree = [((64, 8), "0,1"), ((96, 8), "0,1"), ((64, 4, 2), "0,1"), ((3, 64, 2), "0,1,2"), ((64, 64), "0,1"),
            ((1024, 2), "0,1"), ((128, 3), "0,1")]  # fmt: skip
    for t, span in (("f32", 24), ("f64", 60)):
        cases = list(tree)
        while len(cases) < 160:
            rank = int(rng.integers(2, 6))
            shape = tuple(int(rng.choice(sizes)) for _ in range(rank))
            dims = sorted(rng.choice(rank, int(rng.integers(1, rank + 1)), replace=False).tolist())
            if np.prod(shape) < 4096 and sum(shape[d] > 1 for d in dims) >= 2:
                cases.append((shape, ",".join(map(str, dims))))
        for k, (shape, dims) in enumerate(cases):
            init = ("0", "1.5", "-0")[k % 3]
            yield _sum_of(t, shape, dims, init), [_powers(t, shape, rng, span)], [t, t], True


def family_reduce_products() -> Iterator[Case]:
    """Sums of products over one dimension of up to 32 that XLA:CPU fuses into its reduce loop
    (hlo.numerics.reduce_contraction): FMA chains from the init value, rows and columns, 1 to 3
    dimensions, a negated product, a broadcast factor along the row or across rows, squares
    from +0 (the first two products one FMA) and from a parameter; rows of 5-8 whose results
    LLVM vectorizes (plain products) by their count; sums over several dimensions whose rows of
    up to 4 are lanes of FMA chains (squares too). Not pinned (within rounding): squares of rows of 5-8 over
    the last dimension, vectorized in other orders."""
    rng = np.random.default_rng(71)
    sizes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 24, 31, 32, 40, 64]
    forms = ["xy", "xx", "negxy", "row", "across", "xx_param"]
    for t in ("f32", "f64"):
        made = 0
        while made < 90:
            shape = tuple(int(rng.choice(sizes)) for _ in range(int(rng.integers(1, 4))))
            d = int(rng.integers(0, len(shape)))
            form = forms[made % len(forms)]
            kept = [k for k in range(len(shape)) if k != d]
            if np.prod(shape) >= 1024 or not 2 <= shape[d] <= 32 or (form == "across" and not kept):
                continue
            s = f"{t}[{','.join(map(str, shape))}]"
            square = form in ("xx", "xx_param")
            if square and d == len(shape) - 1 and 5 <= shape[d] <= 8:
                continue  # not pinned
            along = d if form == "row" else kept[-1] if form == "across" else None
            body = {
                "xy": f"  m = {s} multiply(x, y)\n",
                "xx": f"  m = {s} multiply(x, x)\n",
                "xx_param": f"  m = {s} multiply(x, x)\n",
                "negxy": f"  q = {s} multiply(x, y)\n  m = {s} negate(q)\n",
            }.get(form)
            if body is None:
                n = shape[along]
                body = (f"  f = {t}[{int(np.prod(shape))}] reshape(y)\n  w = {t}[{n}] slice(f), slice={{[0:{n}]}}\n"
                        f"  b = {s} broadcast(w), dimensions={{{along}}}\n  m = {s} multiply(x, b)\n")  # fmt: skip
            init = (
                f"  z = {t}[] parameter(2)\n"
                if form == "xx_param"
                else f"  z = {t}[] constant({('0', '0.75')[made % 2 if not square else 0]})\n"
            )
            out = f"{t}[{','.join(str(shape[k]) for k in kept)}]"
            text = _with(_computation("f", t, "add(p, q)"),
                         f"  x = {s} parameter(0)\n  y = {s} parameter(1)\n{body}{init}"
                         f"  ROOT r = {out} reduce(m, z), dimensions={{{d}}}, to_apply=f")  # fmt: skip
            args = [rng.standard_normal(shape).astype(DTYPES[t]) for _ in range(2)]  # products that round
            types = [t, t, t, t] if form == "xx_param" else [t, t, t]
            if form == "xx_param":
                args.append(np.zeros((), DTYPES[t]))
            made += 1
            yield text, args, types, True
        for k, (shape, dims) in enumerate(_LANE_PRODUCTS):  # lanes of FMA chains: rows of up to 4
            s = f"{t}[{','.join(map(str, shape))}]"
            out = f"{t}[{','.join(str(n) for d, n in enumerate(shape) if d not in dims)}]"
            text = _with(_computation("f", t, "add(p, q)"),
                         f"  x = {s} parameter(0)\n  y = {s} parameter(1)\n  m = {s} multiply(x, {'yx'[k % 3 == 2]})\n"
                         f"  z = {t}[] constant({('0', '0.75')[k % 2]})\n"
                         f"  ROOT r = {out} reduce(m, z), dimensions={{{','.join(map(str, dims))}}}, to_apply=f")  # fmt: skip
            yield text, [rng.standard_normal(shape).astype(DTYPES[t]) for _ in range(2)], [t, t, t], True


_LANE_PRODUCTS = [((3, 4, 2), (1, 2)), ((1, 8, 3), (1, 2)), ((8, 4, 4), (1, 2)), ((2, 16, 2), (1, 2)),
                  ((5, 17, 3), (1, 2)), ((2, 20, 4), (1, 2)), ((3, 24, 2), (1, 2)), ((1, 32, 3), (1, 2)),
                  ((2, 3, 8, 4), (1, 2, 3)), ((8, 2), (0, 1)), ((16, 4), (0, 1)), ((28, 3), (0, 1)),
                  ((4, 3, 8, 2), (0, 2, 3))]  # fmt: skip


def family_long_reduces() -> Iterator[Case]:
    """Float reduces of 4096+ elements that XLA:CPU keeps to its tree rewrite (windows of 32,
    hlo.numerics.tree_reduce) rather than its vector kernels: bf16 and f16 sums (bf16 converted
    to f32, summed, rounded once; f16 summed in f16), products of every float type; rows,
    columns and several dimensions, at most one of them longer than 32; f32 sums over 8 runs
    of reduced and kept dimensions."""
    rng = np.random.default_rng(41)
    shapes = [((8192,), "0"), ((3, 5000), "1"), ((5000, 3), "0"), ((2, 3, 3000), "1,2"), ((40, 9, 20), "0,2")]
    for t in ("bf16", "f16"):
        for shape, dims in shapes:
            x = _powers(t, shape, rng, 6)
            yield _sum_of(t, shape, dims, "0"), [x], [t, t], True
            yield _sum_of(t, shape, dims, "0.5"), [np.ones(shape, DTYPES[t])], [t, t], True  # f32 or not
    for t in ("f32", "f64", "bf16", "f16"):
        comp = _computation("f", t, "multiply(p, q)")
        for shape, dims in shapes[:3]:
            x = (1 + rng.integers(-64, 65, shape) / 2048).astype(DTYPES[t])
            yield _sum_of(t, shape, dims, "1", comp), [x], [t, t], True
    # f32 sums over 8 alternating runs of reduced and kept dimensions, more than XLA:CPU hands
    # its vector kernel (hlo.numerics.split_sum.MAX_RUNS)
    for shape, dims in (((2, 3, 2, 3, 2, 3, 2, 3), "0,2,4,6"), ((3, 2, 3, 2, 3, 2, 3, 2), "0,2,4,6")):
        yield _sum_of("f32", shape, dims, "0"), [_powers("f32", shape, rng, 24)], ["f32", "f32"], True


def _extreme_of(t: str, shape: tuple[int, ...], dims: str, init: str, op: str) -> str:
    return _sum_of(t, shape, dims, init, _computation("f", t, f"{op}(p, q)"))


def _marked(t: str, shape: tuple[int, ...], rng: np.random.Generator, marks: int) -> np.ndarray:
    """-0s with some +0s and a few NaNs, infinities, ones and fives: every NaN rule and every
    tie of zeros shows, and the arrays compress well."""
    dtype = DTYPES[t]
    x = np.full(shape, -0.0)
    flat = x.reshape(-1)
    flat[rng.integers(0, flat.size, min(2000, max(4, flat.size // 64)))] = 0.0
    for v in (np.nan, 5.0, -5.0, np.inf, -np.inf, 1.0):
        flat[rng.integers(0, flat.size, marks)] = v
    return x.astype(dtype)


def _positions(t: str, n: int, rows: int, rng: np.random.Generator) -> np.ndarray:
    """Rows of `n`: row k has a NaN at a position of every class (first, each lane of the first
    and last vectors, a vector's last lane, the last element, the padded tail) and a 5 or a +0
    (in -0s) before or after it, in its lane or not."""
    lanes = 64 // np.dtype(DTYPES[t]).itemsize
    classes = sorted({0, 1, lanes - 1, lanes, 2 * lanes - 1, n // 2, n - lanes - 1, n - lanes, n - 2, n - 1,
                      (n // lanes) * lanes - 1, (n // lanes) * lanes, n - n % lanes - lanes} - {n})  # fmt: skip
    x = np.full((rows, n), -0.0)
    for k in range(rows):
        b = classes[k % len(classes)]
        a = int(np.clip(b + rng.choice([-lanes, -2 * lanes, -1, 1, lanes, -b]), 0, n - 1))
        if a != b:
            x[k, a] = 5.0 if k % 3 else 0.0
        if k % 4 != 3:  # some rows without NaN: the ties of zeros alone
            x[k, b] = np.nan
        elif k % 8 == 7:
            x[k, b] = 0.0
    return x.astype(DTYPES[t])


def family_vector_extremes() -> Iterator[Case]:
    """Float max/min reduces that XLA:CPU hands to its vector kernels (f32 and f64, 4096+
    elements; hlo.numerics.vector_extreme and column_extreme), whose max/min instructions do not
    propagate NaN nor order -0 below +0: NaN at every class of position, ties of zeros, ties
    with the init value (-inf, +-0, 1, inf, NaN), infinities, subnormals; rows of 4096 to 2^20
    with and without chunks, several results, several dimensions; columns (groups of 4 rows, a
    partial last group, chunks of rows, rows longer than a chunk); dimensions that are not
    consecutive (slices merged keeping the first); bf16/f16 (a total order of the bits); a
    reducer with swapped operands; jax's argmax (a variadic reduce, not the kernel)."""
    rng = np.random.default_rng(43)
    for t in ("f32", "f64"):
        for n in (4096, 4097, 4111, 5000, 8192, 16385):
            for op in ("maximum", "minimum"):
                x = _positions(t, n, 26, rng)
                init = "-inf" if op == "maximum" else "inf"
                yield _extreme_of(t, (26, n), "1", init, op), [x], [t, t], True
                if op == "minimum":
                    yield _extreme_of(t, (26, n), "1", "inf", op), [-x], [t, t], True
        for n in (4096, 5000, 70000 if t == "f32" else 40000):
            for op in ("maximum", "minimum"):
                for init in ("-inf", "inf", "0", "-0.0", "1", "nan"):
                    yield _extreme_of(t, (n,), "0", init, op), [_marked(t, (n,), rng, 3)], [t, t], True
    rows = [("f32", (3, 40000), "1"), ("f32", (2, 3, 20000), "1,2"), ("f32", (1, 3, 40000), "1,2"),
            ("f32", (2, 4, 3, 3000), "1,2,3"), ("f32", (300, 200), "0,1"), ("f64", (3, 17000), "1"),
            ("f32", (4096, 3), "1"), ("f32", (8, 512), "1"), ("f32", (4, 5000, 1), "1,2"), ("f32", (64, 64), "0,1"),
            ("f32", (1 << 20,), "0"), ("f64", (1 << 20,), "0")]  # fmt: skip
    cols = [("f32", (512, 8), "0"), ("f32", (3, 1400), "0"), ("f32", (6, 1400), "0"), ("f32", (7, 1000), "0"),
            ("f64", (600, 170), "0"), ("f32", (3, 33000), "0"), ("f64", (5, 16500), "0"), ("f32", (8300, 4), "0"),
            ("f32", (2, 30, 40, 6), "1,2"), ("f32", (3, 700, 7), "1"), ("f32", (4097, 2), "0"), ("f32", (40, 50, 8), "0,1")]  # fmt: skip
    split = [("f32", (40, 30, 8), "0,2"), ("f32", (3, 40, 50), "0,2"), ("f32", (3, 4, 5, 6, 70), "0,2,4"),
             ("f64", (4, 30, 40), "0,2"), ("f32", (2, 2, 2, 3000), "1,3")]  # fmt: skip
    for t, shape, dims in rows + cols + split:
        marks = min(64, max(2, int(np.prod(shape)) // 2000))
        for op in ("maximum", "minimum"):
            for init in ("-inf", "-0.0") if shape[0] != 1 << 20 else ("-inf",):
                yield _extreme_of(t, shape, dims, init, op), [_marked(t, shape, rng, marks)], [t, t], True
            zeros = np.full(shape, -0.0, DTYPES[t])  # ties only
            zeros.reshape(-1)[rng.integers(0, zeros.size, min(2000, max(4, zeros.size // 64)))] = 0.0
            yield _extreme_of(t, shape, dims, "0", op), [zeros], [t, t], True
    for t in ("f32", "f64"):
        tiny = 1e-40 if t == "f32" else 1e-310
        for op in ("maximum", "minimum"):
            x = np.full((8, 4096), -0.0)
            x[:, ::97] = tiny
            x[1::2, ::89] = -tiny
            x[2, 4095], x[3, 100], x[4, 116], x[5, 0] = np.nan, 0.0, np.nan, 1.0
            yield _extreme_of(t, (8, 4096), "1", "-inf", op), [x.astype(DTYPES[t])], [t, t], True
            yield _extreme_of(t, (4096, 8), "0", "-0.0", op), [x.T.copy().astype(DTYPES[t])], [t, t], True
    for t in ("bf16", "f16"):  # XLA:CPU's tree rewrite: NaN propagates, -0 below +0
        for op in ("maximum", "minimum"):
            yield _extreme_of(t, (4, 8192), "1", "-inf", op), [_positions(t, 8192, 4, rng)], [t, t], True
    swapped = _sum_of("f32", (26, 8192), "1", "-inf", _computation("f", "f32", "maximum(q, p)"))
    yield swapped, [_positions("f32", 8192, 26, rng)], ["f32", "f32"], True
    argmax = _with(
        _ARGMAX.format(t="f32", tie="LT"),
        "  x = f32[8,8192] parameter(0)\n  i = s32[8,8192] iota(), iota_dimension=1\n  z = f32[] constant(-inf)\n"
        "  c = s32[] constant(0)\n  v = (f32[8], s32[8]) reduce(x, i, z, c), dimensions={1}, to_apply=argmax\n"
        "  ROOT r = s32[8] get-tuple-element(v), index=1",
    )
    # jax's argmax: not the vector kernel
    yield argmax, [_positions("f32", 8192, 8, rng)], ["f32", "s32"], True


def _ties(t: str, shape: tuple[int, ...], rng: np.random.Generator, nans: int, zeros: int) -> np.ndarray:
    """-1s with a few -0.5s, zeros of both signs and some NaNs: which zero wins a tie and which
    NaN is dropped show the order of every step; the arrays compress well."""
    x = np.full(shape, -1.0)
    flat = x.reshape(-1)
    flat[rng.integers(0, flat.size, zeros)] = -0.5
    flat[rng.integers(0, flat.size, zeros)] = np.where(rng.random(zeros) < 0.5, 0.0, -0.0)
    flat[rng.integers(0, flat.size, nans)] = np.nan
    return x.astype(DTYPES[t])


def family_split_extremes() -> Iterator[Case]:
    """Float max/min reduces of 4096+ elements over dimensions that are not consecutive
    (hlo.numerics.split_extreme): reduced dimensions cut into chunks of 128 KiB tiles (few and
    many results, a partial last chunk, many chunks), the innermost dimension kept (columns),
    several outer reduced dimensions, dimensions of size 1; ties of zeros placed across chunks,
    NaN at random positions, init values -inf, +-0, NaN and 0.5."""
    rng = np.random.default_rng(53)
    shapes = [("f32", (50, 2, 3000), "0,2"), ("f32", (20, 3, 5000), "0,2"), ("f32", (60, 8, 1000), "0,2"),
              ("f32", (60, 4, 3000), "0,2"), ("f32", (200, 3, 300), "0,2"), ("f32", (3000, 2, 50), "0,2"),
              ("f32", (30, 8, 40, 6), "0,2"), ("f32", (6, 30, 8, 40), "1,3"), ("f32", (7, 9, 11, 13, 5), "1,3"),
              ("f32", (10, 20, 30, 40), "0,2"), ("f64", (60, 3, 3000), "0,2"), ("f32", (1, 50, 1, 2, 3000), "1,4")]  # fmt: skip
    for t, shape, dims in shapes:
        for op, inits in (("maximum", ("-inf", "-0.0", "nan")), ("minimum", ("inf", "0", "0.5"))):
            sign = 1.0 if op == "maximum" else -1.0
            for init, (nans, zeros) in zip(inits, ((0, 12), (5, 40), (60, 200))):
                x = (sign * _ties(t, shape, rng, nans, zeros)).astype(DTYPES[t])
                yield _extreme_of(t, shape, dims, init, op), [x], [t, t], True
            # a -0 in the first slice and a +0 one chunk later: the chunks' values are reduced
            # again in groups (the later wins a tie within a group)
            x = np.full(shape, -sign, DTYPES[t])
            first = int(dims.split(",")[0])
            inner = int(np.prod(shape[first + 1 :])) * (2 if t == "f64" else 1)
            for k, z in ((0, -0.0), (min(shape[first] - 1, max(1, 32768 // inner)), 0.0)):
                np.moveaxis(x, first, 0)[k].flat[k % 5 :: 97] = sign * z
            yield _extreme_of(t, shape, dims, "-inf" if op == "maximum" else "inf", op), [x], [t, t], True


def _variadic(t: str, ops: tuple[str, ...], shape: tuple[int, ...], root: str) -> str:
    """A reduce of len(ops) operands over the last dimension (of rank 2) whose output k is ops[k]
    of its own two parameters; `root` reads one output (its index) or all (`t`, concatenated)."""
    n = len(ops)
    params = "".join(f"  p{j} = {t}[] parameter({j})\n" for j in range(2 * n))
    body = "".join(f"  e{k} = {t}[] {op}(p{k}, p{n + k})\n" for k, op in enumerate(ops))
    elements = ", ".join(f"e{k}" for k in range(n))
    dims = ",".join(map(str, shape))
    kept = ",".join(map(str, shape[:-1]))
    inits = {"maximum": "-inf", "minimum": "inf", "add": "0", "multiply": "1"}
    entry = "".join(
        f"  x{k} = {t}[{dims}] parameter({k})\n  z{k} = {t}[] constant({inits[op]})\n"
        for k, op in enumerate(ops)
    )
    result = "(" + ", ".join(f"{t}[{kept}]" for _ in ops) + ")"
    reduce = (f"  v = {result} reduce({', '.join(f'x{k}' for k in range(n))}, {', '.join(f'z{k}' for k in range(n))}), "
              f"dimensions={{{len(shape) - 1}}}, to_apply=f")  # fmt: skip
    if root == "t":  # every output read: concatenated
        reads = "".join(f"  g{k} = {t}[{kept}] get-tuple-element(v), index={k}\n" for k in range(n))
        entry += (f"{reduce}\n{reads}  ROOT r = {t}[{shape[0] * n}] concatenate({', '.join(f'g{k}' for k in range(n))}), "
                  "dimensions={0}")  # fmt: skip
    else:
        entry += f"{reduce}\n  ROOT r = {t}[{kept}] get-tuple-element(v), index={root}"
    return _with(
        f"f {{\n{params}{body}  ROOT t = ({', '.join(t + '[]' for _ in ops)}) tuple({elements})\n}}\n\n",
        entry,
    )


def family_variadic_reduces() -> Iterator[Case]:
    """Variadic reduces whose reducer computes each output from that output's own parameters
    (hlo.runtime.reduce_outputs): with one output read through get-tuple-element, XLA removes the
    others and reduces it alone (max/min of 8192 in the vector kernel: NaN dropped by lanes, ties of
    zeros; a sum of 1000 in the tree rewrite; an operand-swapped minimum); with every output
    read, the variadic reduce's own loop in order."""
    rng = np.random.default_rng(47)
    for t in ("f32", "f64"):
        for root in ("0", "1", "t"):
            xs = _positions(t, 8192, 8, rng)
            yield _variadic(t, ("maximum", "minimum"), (8, 8192), root), [xs, xs[::-1].copy()], [t] * 3, True
    sums = _powers("f32", (6, 1000), rng, 24)
    for root in ("0", "t"):
        yield (
            _variadic("f32", ("add", "maximum"), (6, 1000), root),
            [sums, sums[::-1].copy()],
            ["f32"] * 3,
            True,
        )
    xs = _positions("f32", 8192, 8, rng)
    three = _variadic("f32", ("maximum", "minimum", "add"), (8, 8192), "1").replace(
        "minimum(p1, p4)", "minimum(p4, p1)"
    )
    yield three, [xs, xs[::-1].copy(), np.ones((8, 8192), np.float32)], ["f32"] * 4, True


def _literal(a: np.ndarray) -> str:
    if a.ndim > 1:
        return "{" + ", ".join(_literal(r) for r in a) + "}"
    return "{" + ", ".join(repr(float(v)) if a.dtype.kind == "f" else str(int(v)) for v in a) + "}"


_SPELL = "f {\n  p = s64[] parameter(0)\n  q = s64[] parameter(1)\n  k = s64[] constant(100)\n  m = s64[] multiply(p, k)\n  ROOT r = s64[] add(m, q)\n}\n\n"


def family_constant_folds() -> Iterator[Case]:
    """Reduces and reduce-windows of constants, which XLA folds at compile time with its
    evaluator (hlo.numerics.evaluator_fold, hlo.runtime.xla_folds): float add-reduces summed in
    f64 from the init value and rounded once (f32, f64, f16; values whose sum changes with any
    rounding), reduce-windows folded row-major (a reducer spelling its order over a constant, an
    iota and a merged pad; cancelling sums; max/min with ties of zeros and NaN), a window over
    whole dimensions (a reduce by then); and what is not folded: an op of an iota and a broadcast
    (no constant operand)."""
    rng = np.random.default_rng(59)
    for t, shape, dims, init in (("f32", (5000,), "0", "0"), ("f32", (4, 1000), "1", "0.5"), ("f32", (300, 20), "0", "0"),
                                 ("f64", (3000,), "0", "0"), ("f16", (3, 700), "1", "0"), ("f32", (3, 40), "0,1", "0")):  # fmt: skip
        x = _powers(t, shape, rng, 24 if t == "f32" else 60 if t == "f64" else 6)
        body = (
            f"  x = {t}[{','.join(map(str, shape))}] constant({_literal(x)})\n  z = {t}[] constant({init})\n"
        )
        kept = [str(n) for d, n in enumerate(shape) if str(d) not in dims.split(",")]
        yield (
            _with(
                _computation("f", t, "add(p, q)"),
                body + f"  ROOT r = {t}[{','.join(kept)}] reduce(x, z), dimensions={{{dims}}}, to_apply=f",
            ),
            [],
            [t],
            True,
        )
    for t, vals in (
        ("f32", "16777216, 1, 1"),
        ("f64", "1, 9007199254740992, -9007199254740992"),
        ("f16", "2048, 1, 1"),
    ):
        body = f"  a = {t}[3] constant({{{vals}}})\n  b = {t}[3] constant({{0, 0, 0}})\n  x = {t}[3] add(a, b)\n  z = {t}[] constant(0)\n"
        yield (
            _with(
                _computation("f", t, "add(p, q)"),
                body + f"  ROOT r = {t}[] reduce(x, z), dimensions={{0}}, to_apply=f",
            ),
            [],
            [t],
            True,
        )
    spelled = (np.arange(42) % 99 + 1).reshape(6, 7)
    windows = ("  pd = s64[6,8] pad(x, z), padding=0_0x0_1\n  ROOT r = s64[5,7] reduce-window(pd, z), window={size=2x2}, to_apply=f",
               "  ROOT r = s64[6,7] reduce-window(x, z), window={size=2x2 pad=0_1x0_1}, to_apply=f",
               "  pd = s64[7,9] pad(x, z), padding=0_1x1_1\n  ROOT r = s64[3,4] reduce-window(pd, z), window={size=3x3 stride=2x2}, to_apply=f",
               "  ROOT r = s64[3,7] reduce-window(x, z), window={size=2x3 stride=2x2 pad=0_0x1_1 lhs_dilate=1x2}, to_apply=f")  # fmt: skip
    for source in (
        f"  x = s64[6,7] constant({_literal(spelled)})\n",
        "  x = s64[6,7] iota(), iota_dimension=1\n",
    ):
        for window in windows:
            yield _with(_SPELL, source + "  z = s64[] constant(7)\n" + window), [], ["s64"], True
    cancel = rng.choice(np.array([1e8, 1.0, -1e8, 3.0, -1.0], np.float32), size=(6, 7))
    ties = rng.choice(np.array([0.0, -0.0, 0.0, -0.0, np.nan, -1.0]), size=(6, 7)).astype(np.float32)
    for op, x, init in (("add", cancel, "0"), ("add", cancel, "0.5"), ("maximum", ties, "-inf"), ("minimum", -ties, "inf"),
                        ("maximum", ties, "-0.0")):  # fmt: skip
        for window, out in (
            ("size=2x2 pad=0_1x0_1", "6,7"),
            ("size=3x3 stride=2x2 pad=1_1x1_1", "3,4"),
            ("size=2x4 stride=1x3", "5,2"),
        ):
            body = f"  x = f32[6,7] constant({_literal(x)})\n  z = f32[] constant({init})\n"
            yield (
                _with(
                    _computation("f", "f32", f"{op}(p, q)"),
                    body + f"  ROOT r = f32[{out}] reduce-window(x, z), window={{{window}}}, to_apply=f",
                ),
                [],
                ["f32"],
                True,
            )
    whole = "  x = f32[1,3] constant({{16777216, 1, 1}})\n  z = f32[] constant(0)\n  ROOT r = f32[1,1] reduce-window(x, z), window={size=1x3}, to_apply=f"
    yield _with(_computation("f", "f32", "add(p, q)"), whole), [], ["f32"], True
    # not folded: multiply(iota, broadcast) has no constant operand, so neither has the reduce
    body = "  i = f32[5000] iota(), iota_dimension=0\n  k = f32[] constant(0.1)\n  b = f32[5000] broadcast(k), dimensions={}\n  x = f32[5000] multiply(i, b)\n  z = f32[] constant(0)\n"
    yield (
        _with(
            _computation("f", "f32", "add(p, q)"),
            body + "  ROOT r = f32[] reduce(x, z), dimensions={0}, to_apply=f",
        ),
        [],
        ["f32"],
        True,
    )


def family_subnormal_inputs() -> Iterator[Case]:
    """pow and cbrt of subnormal inputs (hlo.numerics.subnormal_inputs): f32 and bf16 pow of
    subnormal bases of both signs against exponents of every class (fractions, odd and even
    integers, tiny, zero, infinities, NaN, ones near 1 that make subnormal results); cbrt of f32,
    bf16 and f64 subnormals among normal values. Compared within rounding, as every pow and cbrt
    (XLA:CPU's approximations are not libm's in the last bit); the rule's values are far from
    libm's (cbrt(1e-40): -5.6e-16, not 4.6e-14)."""
    rng = np.random.default_rng(61)
    n = 512
    classes = np.array(
        [0.5, -0.5, 1 / 3, 2, 3, -1, -2, 1, 0, -0.0, 1e-40, np.inf, -np.inf, np.nan, 7.5, 0.75]
    )
    for t in ("f32", "bf16"):
        tiny = float(np.finfo(np.float32).tiny)
        base = rng.uniform(-1, 1, n) * tiny
        base[::7] = rng.uniform(-4, 4, len(base[::7]))  # some normal bases
        y = np.concatenate(
            [
                np.tile(classes, n // 64),
                rng.uniform(-3, 3, n // 4),
                rng.uniform(0.85, 1.15, n // 4),
                rng.integers(-6, 7, n // 4),
            ]
        )
        yield (
            module(
                f"  a = {t}[{n}] parameter(0)\n  b = {t}[{n}] parameter(1)\n  ROOT r = {t}[{n}] power(a, b)"
            ),
            [base.astype(DTYPES[t]), y[:n].astype(DTYPES[t])],
            [t, t, t],
            False,
        )
    for t, tiny in (
        ("f32", float(np.finfo(np.float32).tiny)),
        ("bf16", float(np.finfo(np.float32).tiny)),
        ("f64", float(np.finfo(np.float64).tiny)),
    ):
        x = rng.uniform(-1, 1, n) * tiny
        x[::5] = rng.uniform(-10, 10, len(x[::5]))
        x[1], x[2] = 0.0, -0.0
        yield (
            module(f"  a = {t}[{n}] parameter(0)\n  ROOT r = {t}[{n}] cbrt(a)"),
            [x.astype(DTYPES[t])],
            [t, t],
            False,
        )


def _libm_values(t: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Values of every scale and the edges: zeros, infinities, NaN, subnormals of both signs, the
    extremes, large arguments (argument reduction), values near 1."""
    tiny = float(np.finfo(np.float64 if t == "f64" else np.float32).tiny)
    big = float(ml_dtypes.finfo(DTYPES[t]).max)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, tiny / 4, -tiny / 3, big, -big, 1.0, -1.0,
             np.pi, -np.pi / 2, 1e30, -1e30, 1 + 2**-20, 1 - 2**-20]  # fmt: skip
    spread = np.concatenate(
        [
            rng.uniform(-10, 10, n - 19 - 3 * (n // 8)),
            rng.standard_normal(n // 8) * 1e3,
            rng.choice([-1, 1], n // 8) * 10.0 ** rng.uniform(-30, 30, n // 8),
            rng.uniform(-1, 1, n // 8) * tiny,
        ]
    )
    x = np.concatenate([edges, spread])[:n]
    with np.errstate(over="ignore"):
        return x.astype(DTYPES[t])


def family_libm() -> Iterator[Case]:
    """The functions XLA:CPU computes with the platform's C library (hlo.numerics.libm): sin,
    cos, tan, cbrt, atan2 and pow of f32, f64 (and f16, bf16, computed in f32), erf of f64, on
    values of every scale and at the edges (subnormal inputs included), bit for bit. pow against
    exponents of every class (fractions, odd and even integers, zero, infinities, NaN, near 1)."""
    rng = np.random.default_rng(83)
    n = 2048
    exponents = np.array(
        [0.5, -0.5, 1 / 3, 2, 3, -1, -2, 1, 0, -0.0, np.inf, -np.inf, np.nan, 7.5, 0.75, 1e-40]
    )
    for t in ("f32", "f64", "f16", "bf16"):
        ops = ["sine", "cosine", "tan", "cbrt", "atan2", "power"] + (["erf"] if t == "f64" else [])
        for op in ops:
            x = _libm_values(t, n, rng)
            if op in ("atan2", "power"):
                y = (
                    _libm_values(t, n, rng)
                    if op == "atan2"
                    else np.concatenate(
                        [
                            np.tile(exponents, n // 32),
                            rng.uniform(-3, 3, n // 4),
                            rng.uniform(0.9, 1.1, n // 4),
                        ]
                    )[:n]
                )
                with np.errstate(over="ignore"):
                    y = rng.permutation(y).astype(DTYPES[t])
                yield (module(f"  a = {t}[{n}] parameter(0)\n  b = {t}[{n}] parameter(1)\n  ROOT r = {t}[{n}] {op}(a, b)"),
                       [x, y], [t, t, t], True)  # fmt: skip
            else:
                yield (module(f"  a = {t}[{n}] parameter(0)\n  ROOT r = {t}[{n}] {op}(a)"), [x], [t, t], True)


def _log_values(t: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Values for log and log1p: the edges (zeros, infinities, NaN, subnormals, the extremes,
    around 1, -1 and log1p's switch at +-(sqrt(2) - 1)), random bit patterns of every exponent,
    values near 1 and near 0 of both signs."""
    dtype = DTYPES[t]
    tiny = float(ml_dtypes.finfo(dtype).tiny)
    big = float(ml_dtypes.finfo(dtype).max)
    switch = 2**0.5 - 1
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, tiny / 4, -tiny / 3, big, -big, 1.0, -1.0,
             1 + 2**-20, 1 - 2**-20, -1 + 2**-20, -0.5, 2.0, 0.5, switch, -switch, switch * (1 + 2**-23),
             switch * (1 - 2**-23), -switch * (1 - 2**-23), 2.0**-25, -(2.0**-25), 2.0**-54, 1e-30, -1e-30]  # fmt: skip
    width = 64 if t == "f64" else 32 if t == "f32" else 16
    words = rng.integers(0, 2 ** (width - 1), n // 4, dtype=np.uint64)
    patterns = {64: lambda w: w.view(np.float64), 32: lambda w: w.astype(np.uint32).view(np.float32),
                16: lambda w: w.astype(np.uint16).view(dtype)}[width](words)  # fmt: skip
    with np.errstate(over="ignore", invalid="ignore"):
        spread = np.concatenate(
            [
                rng.uniform(-1, 3, n // 4),
                patterns.astype(np.float64),
                1 + rng.standard_normal(n // 8) * 1e-3,
                rng.standard_normal(n // 8) * 1e-4,
                rng.uniform(-1, 1, n // 8) * tiny,
                rng.uniform(-0.45, 0.45, n // 8),
            ]
        )
        x = np.concatenate([edges, spread])[:n]
        return x.astype(np.float32).astype(dtype) if t in ("f16", "bf16") else x.astype(dtype)


def family_log() -> Iterator[Case]:
    """log and log1p (XLA:CPU's own f32 approximation and formula, the C library's f64 log;
    hlo.numerics.xla_log) of every float type, bit for bit; sqrt, bit for bit; rsqrt (XLA:CPU's
    hardware estimate and Newton steps: bit for bit in f16 and bf16 only, f32 and f64 within
    rounding)."""
    rng = np.random.default_rng(97)
    n = 2048
    for t in ("f32", "f64", "f16", "bf16"):
        for op in ("log", "log-plus-one", "sqrt", "rsqrt"):
            x = _log_values(t, n, rng)
            exact = op != "rsqrt" or t in ("f16", "bf16")
            yield (module(f"  a = {t}[{n}] parameter(0)\n  ROOT r = {t}[{n}] {op}(a)"), [x], [t, t], exact)


def _exp_values(t: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Values for exp, expm1 and logistic: every scale, both clamps and the overflow and
    underflow thresholds (f32: -87.8, 88.8, 88.72, -87.33, -103; f64: -708.39, 709.78, -745),
    |x| near 1/2 and below it (expm1's tanh form), zeros, infinities, NaN, subnormals."""
    tiny = float(np.finfo(np.float64 if t == "f64" else np.float32).tiny)
    big = float(ml_dtypes.finfo(DTYPES[t]).max)
    limit = 745.0 if t == "f64" else 104.0
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, tiny / 4, -tiny / 3, big, -big, 0.5, -0.5,
             0.5 + 2**-20, -0.5 - 2**-20, 1e-4, -4e-4, 8e-4, 88.8, -87.8, 88.72, 88.73, -87.33, -87.34, -103.0,
             709.78, 709.79, -708.39, -708.4, -745.0, 40.0, -40.0, 1.0, -1.0]  # fmt: skip
    spread = np.concatenate(
        [
            rng.uniform(-limit, limit, n - len(edges) - 3 * (n // 8)),
            rng.uniform(-0.5, 0.5, n // 8),
            rng.choice([-1, 1], n // 8) * 10.0 ** rng.uniform(-40, 3, n // 8),
            rng.uniform(-1, 1, n // 8) * tiny,
        ]
    )
    x = np.concatenate([edges, spread])[:n]
    with np.errstate(over="ignore"):
        return x.astype(DTYPES[t])


def family_exp() -> Iterator[Case]:
    """XLA:CPU's own exp, expm1 and logistic (hlo.numerics.xla_exp, xla_expm1) of f32, f64, f16
    and bf16, bit for bit, on values of every scale and at the edges; and c64/c128 exp, whose
    real part is the same exp (bit for bit where the imaginary part is 0)."""
    rng = np.random.default_rng(89)
    n = 2048
    for t in ("f32", "f64", "f16", "bf16"):
        for op in ("exponential", "exponential-minus-one", "logistic"):
            yield (
                module(f"  a = {t}[{n}] parameter(0)\n  ROOT r = {t}[{n}] {op}(a)"),
                [_exp_values(t, n, rng)],
                [t, t],
                True,
            )
    for t in ("c64", "c128"):
        for im in (np.zeros(256), rng.uniform(-3, 3, 256)):  # (cos and sin of im != 0: not XLA's bits)
            z = (rng.uniform(-90, 90, 256) + 1j * im).astype(DTYPES[t])
            yield (
                module(f"  a = {t}[256] parameter(0)\n  ROOT r = {t}[256] exponential(a)"),
                [z],
                [t, t],
                not im.any(),
            )


def family_one_thread_sums() -> Iterator[Case]:
    """The float sums of vector_sums, column_sums and split_sums as XLA:CPU computes them with one
    thread in its pool (a process pinned to one core): YNNPACK then cuts no sum into 128 KiB
    tiles, each result is one kernel run (hlo.numerics.threads.xla_threads)."""
    families = (family_vector_sums, family_column_sums, family_split_sums)
    cases = [c for f in families for c in f() if c[2][-1] in ("f32", "f64")]  # (YNNPACK's sums)
    outs = _on_one_core([(text, args) for text, args, *_ in cases])
    for (text, args, types, _exact), out in zip(cases, outs):
        yield text, args, types, True, out


def _on_one_core(cases: list[tuple[str, list[np.ndarray]]]) -> list[np.ndarray]:
    """Each case's output from XLA:CPU in a child process whose affinity is one core (XLA:CPU
    sizes its thread pool when it starts)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        given = Path(tmp) / "in.npz"
        arrays = {f"t{k}": np.array(text) for k, (text, _) in enumerate(cases)}
        arrays |= {f"a{k}_{j}": a for k, (_, args) in enumerate(cases) for j, a in enumerate(args)}
        np.savez(given, **arrays)
        code = (
            "import os, sys, numpy as np\n"
            "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
            "from make_op_fixtures import run_on_cpu\n"
            f"d = np.load({str(given)!r})\n"
            f"outs = [run_on_cpu(str(d[f't{{k}}']), [d[f'a{{k}}_{{j}}'] for j in range(8) if f'a{{k}}_{{j}}' in d.files])[0] for k in range({len(cases)})]\n"
            f"np.savez({str(Path(tmp) / 'out.npz')!r}, *outs)\n"
        )
        subprocess.run([sys.executable, "-c", code], check=True)
        with np.load(Path(tmp) / "out.npz") as d:
            return [d[f"arr_{k}"] for k in range(len(cases))]


def replay_under_isa(path: Path, isa: str) -> int:
    """Run every case of fixture `path` on XLA:CPU in a child process limited to `isa` by
    --xla_cpu_max_isa; the number of cases whose bits differ from the fixture's."""
    code = (
        "import sys, numpy as np\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
        "from make_op_fixtures import run_on_cpu\n"
        f"d = np.load({str(path)!r})\n"
        "ks = sorted({int(k[4:].split('_')[0]) for k in d.files if k.startswith('case')})\n"
        "bad = 0\n"
        "for k in ks:\n"
        "    args = [d[f'case{k}_arg{i}'] for i in range(8) if f'case{k}_arg{i}' in d.files]\n"
        "    (out,) = run_on_cpu(str(d[f'case{k}_hlo']), args)\n"
        "    bad += out.tobytes() != d[f'case{k}_out'].tobytes()\n"
        "print(bad)\n"
    )
    env = {**os.environ, "XLA_FLAGS": f"--xla_cpu_max_isa={isa}"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1])


def _isa() -> str:
    """The x86-64 vector extensions of this machine (XLA:CPU's kernels pick theirs from them)."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        flags = next(line for line in lines if line.startswith("flags"))
    except (OSError, StopIteration):
        return "unknown"
    have = set(flags.split(":", 1)[1].split())
    best = next((f for f in ("avx512f", "avx2", "avx", "sse4_2") if f in have), "sse2")
    return f"x86-64 {best}"


def _ragged_with_jax(
    args: list[np.ndarray],
    lc: list[int],
    rc: list[int],
    lb: list[int],
    rb: list[int],
    ragged: int,
    group: list[int],
) -> np.ndarray:
    import jax
    from jax import lax

    jax.config.update("jax_enable_x64", True)
    numbers = lax.RaggedDotDimensionNumbers(((lc, rc), (lb, rb)), [ragged], group)
    fn = jax.jit(lambda a, b, g: lax.ragged_dot_general(a, b, g, numbers, precision=lax.Precision.HIGHEST))
    return np.asarray(fn(*args))


def family_ragged_dot() -> Iterator[Case]:
    """ragged-dot in its three modes, from jax's own CPU expansion of ragged_dot_general (XLA:CPU
    has no runtime for the opcode): groups that leave rows over, empty groups, batch dimensions
    with per-batch group sizes, integer operands."""
    rng = np.random.default_rng(31)

    def dims(name: str, values: list[int]) -> str:
        return f"{name}={{{','.join(map(str, values))}}}"

    cases = [
        # (lhs, rhs, sizes shape, sizes, lc, rc, lb, rb, ragged, group, result)
        ((11, 5), (3, 5, 4), [3, 4, 2], [1], [1], [], [], 0, [0], (11, 4)),
        ((11, 5), (3, 5, 4), [0, 11, 0], [1], [1], [], [], 0, [0], (11, 4)),
        ((2, 7, 5), (2, 3, 5, 4), [[2, 2, 3], [7, 0, 0]], [2], [2], [0], [0], 1, [1], (2, 7, 4)),
        ((6, 9), (9, 4), [2, 0, 5], [1], [0], [], [], 1, [], (3, 6, 4)),
        ((2, 6, 9), (2, 9, 4), [[4, 5], [1, 3]], [2], [1], [0], [0], 2, [], (2, 2, 6, 4)),
        ((3, 6, 5), (3, 5, 4), [1, 2], [2], [1], [0], [0], 0, [], (3, 6, 4)),
    ]  # fmt: skip
    for t in ("f32", "s32"):
        for ls, rs, sizes, lc, rc, lb, rb, ragged, group, out in cases:
            lhs = _random_of(t, ls, rng)
            rhs = _random_of(t, rs, rng)
            g = np.array(sizes, np.int32)
            gs = ",".join(map(str, g.shape))
            attrs = ", ".join(
                [dims("lhs_batch_dims", lb), dims("lhs_contracting_dims", lc), dims("rhs_batch_dims", rb),
                 dims("rhs_contracting_dims", rc), dims("lhs_ragged_dims", [ragged])]
                + ([dims("rhs_group_dims", group)] if group else [])
            )  # fmt: skip
            attrs = attrs.replace("lhs_batch_dims={}, ", "").replace("rhs_batch_dims={}, ", "")
            text = module(f"  a = {t}[{','.join(map(str, ls))}] parameter(0)\n  b = {t}[{','.join(map(str, rs))}] parameter(1)\n"
                          f"  g = s32[{gs}] parameter(2)\n  ROOT r = {t}[{','.join(map(str, out))}] ragged-dot(a, b, g), {attrs}")  # fmt: skip
            want = _ragged_with_jax([lhs, rhs, g], lc, rc, lb, rb, ragged, group)
            yield text, [lhs, rhs, g], [t, t, "s32", t], True, want  # type: ignore[misc]


def _random_of(t: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    if t == "s32":
        return rng.integers(-9, 10, shape).astype(np.int32)
    return (rng.integers(-16, 17, shape) / 8).astype(np.float32)  # products and sums exact in any order


def family_reducers() -> Iterator[Case]:
    """Non-commutative and rounding-sensitive reducers in scatter and reduce: updates to one
    element combine in update order as f(current, update), rounding in the element type at each
    step (bf16, f16); reduces with subtraction and a lifted computation, short and long enough
    for XLA:CPU's tree rewrite; variadic reduces (an argmax with NaN and ties)."""
    rng = np.random.default_rng(37)
    for t in ("f32", "bf16", "f16"):
        for name, root in (("add", "add(p, q)"), ("sub", "subtract(p, q)"), ("mul", "multiply(p, q)"),
                           ("max", "maximum(p, q)"), ("mix", "add(p, h)\n  h = {t}[] multiply(q, c)\n  c = {t}[] constant(0.5)")):  # fmt: skip
            body = root.format(t=t)
            if name == "mix":  # instructions in order: the constant and product first
                comp = (f"{name} {{\n  p = {t}[] parameter(0)\n  q = {t}[] parameter(1)\n  c = {t}[] constant(0.5)\n"
                        f"  h = {t}[] multiply(q, c)\n  ROOT r = {t}[] add(p, h)\n}}\n\n")  # fmt: skip
            else:
                comp = _computation(name, t, body)
            n = 200
            base = np.ones(4, np.float32).astype(DTYPES[t])
            idx = rng.integers(0, 4, (n, 1)).astype(np.int32)
            upd = (
                _spread(t, (n,), rng)
                if name != "mul"
                else (1 + _spread(t, (n,), rng).astype(np.float32) * 1e-3).astype(DTYPES[t])
            )
            yield (_with(comp, f"  a = {t}[4] parameter(0)\n  i = s32[{n},1] parameter(1)\n  u = {t}[{n}] parameter(2)\n"
                         f"  ROOT r = {t}[4] scatter(a, i, u), update_window_dims={{}}, inserted_window_dims={{0}}, "
                         f"scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply={name}"),
                   [base, idx, upd], [t, "s32", t, t], True)  # fmt: skip
            if name in ("sub", "mix"):
                for m in (7, 40, 100):
                    x = _spread(t, (3, m), rng)
                    yield (_with(comp, f"  x = {t}[3,{m}] parameter(0)\n  z = {t}[] constant(0.25)\n"
                                 f"  ROOT r = {t}[3] reduce(x, z), dimensions={{1}}, to_apply={name}"),
                           [x], [t, t], True)  # fmt: skip
    for tie in ("LT", "GT"):
        for m in (9, 70):
            x = rng.choice(np.array([1, 2, 2, -np.inf, np.nan, 0], np.float32), size=(2, m))
            ix = np.stack([rng.permutation(m), rng.permutation(m)]).astype(np.int32)
            yield (_with(_ARGMAX.format(t="f32", tie=tie),
                         f"  x = f32[2,{m}] parameter(0)\n  ix = s32[2,{m}] parameter(1)\n  a = f32[] constant(-inf)\n"
                         f"  b = s32[] constant(-1)\n  r = (f32[2], s32[2]) reduce(x, ix, a, b), dimensions={{1}}, to_apply=argmax\n"
                         "  ROOT o = s32[2] get-tuple-element(r), index=1"),
                   [x, ix], ["f32", "s32", "s32"], True)  # fmt: skip


def _scalar(v: np.ndarray) -> np.ndarray:
    return v.reshape(())


def _four(v: np.ndarray) -> np.ndarray:
    return np.full(4, v)


def family_subnormal_ties() -> Iterator[Case]:
    """clamp, maximum and minimum of zeros of both signs and subnormals of both signs, scalars and
    arrays: which operand wins a tie and whether the winner is flushed."""
    for t in ("f32", "f64"):
        tiny = np.finfo(np.float32 if t == "f32" else np.float64).tiny
        values = [
            np.array(v, dtype=np.float32 if t == "f32" else np.float64)
            for v in (0.0, -0.0, tiny / 4, -tiny / 4)
        ]
        for dims in ("", "4"):
            arg = _scalar if not dims else _four
            for lo in values:
                for x in values:
                    for hi in values:
                        yield (module(f"  lo = {t}[{dims}] parameter(0)\n  x = {t}[{dims}] parameter(1)\n  hi = {t}[{dims}] parameter(2)\n  ROOT r = {t}[{dims}] clamp(lo, x, hi)"),
                               [arg(lo), arg(x), arg(hi)], [t, t, t, t], True)  # fmt: skip
            for op in ("maximum", "minimum"):
                for a in values:
                    for b in values:
                        yield (module(f"  a = {t}[{dims}] parameter(0)\n  b = {t}[{dims}] parameter(1)\n  ROOT r = {t}[{dims}] {op}(a, b)"),
                               [arg(a), arg(b)], [t, t, t], True)  # fmt: skip


def family_top_k() -> Iterator[Case]:
    """topk of rows long enough for the kernel's threshold path (at least 8k per row): random
    rows, rows of few distinct values (ties), NaNs of both signs, zeros of both signs and
    infinities, sorted rows; the values and the indices, largest and smallest."""
    rng = np.random.default_rng(12)
    for t, dims, k in (("f32", (4, 512), 32), ("f32", (2, 2, 300), 7), ("f16", (3, 512), 16),
                       ("bf16", (3, 512), 16), ("s32", (3, 512), 16)):  # fmt: skip
        dtype = DTYPES[t]
        patterns = {
            "random": rng.standard_normal(dims) * 100,
            "ties": rng.integers(-3, 4, dims).astype(np.float64),
            "sorted": np.sort(rng.standard_normal(dims), axis=-1) * 100,
        }
        if t != "s32":
            special = rng.standard_normal(dims)
            for v, share in ((np.nan, 9), (-np.nan, 9), (0.0, 7), (-0.0, 7), (np.inf, 11), (-np.inf, 11)):
                special.flat[rng.integers(0, special.size, special.size // share)] = v
            patterns["special"] = special
        shape = f"[{','.join(map(str, dims))}]"
        out = f"[{','.join(map(str, (*dims[:-1], k)))}]"
        for values in patterns.values():
            x = values.astype(dtype)
            for largest in ("true", "false"):
                for index, r in ((0, t), (1, "s32")):
                    yield (module(f"  a = {t}{shape} parameter(0)\n  k = ({t}{out}, s32{out}) topk(a), k={k}, largest={largest}\n"
                                  f"  ROOT r = {r}{out} get-tuple-element(k), index={index}"),
                           [x], [t, r], True)  # fmt: skip


def family_vector_dots() -> Iterator[Case]:
    """Dots of two vectors (every free dimension of size 1), which XLA rewrites into a multiply
    and a reduce, vectors times matrices and matrices times vectors: plain, [1,k] x [k,1] and batched, up to 32 products (one fused loop of FMAs, or
    of separate multiplies for 5-8 products in batches of a multiple of 4) and beyond (XLA's
    reduce). f64 batches of 4096+ products with fewer than 4096 a result are fused into
    YNNPACK's reduce: not pinned (docs/SEMANTICS.md)."""
    rng = np.random.default_rng(29)
    for t in ("f32", "f64"):
        dt = DTYPES[t]
        for k in (2, 7, 32, 33, 300, 5000):
            x, y = (
                (rng.standard_normal(k) * 10.0 ** rng.integers(-3, 4, k)).astype(dt),
                rng.standard_normal(k).astype(dt),
            )
            yield (module(f"  a = {t}[{k}] parameter(0)\n  b = {t}[{k}] parameter(1)\n"
                          f"  ROOT r = {t}[] dot(a, b), lhs_contracting_dims={{0}}, rhs_contracting_dims={{0}}"),
                   [x, y], [t, t, t], True)  # fmt: skip
            yield (module(f"  a = {t}[1,{k}] parameter(0)\n  b = {t}[{k},1] parameter(1)\n"
                          f"  ROOT r = {t}[1,1] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}"),
                   [x.reshape(1, k), y.reshape(k, 1)], [t, t, t], True)  # fmt: skip
        # a vector times a matrix stored [k, n]: XLA:CPU's GEMV emitter, one FMA chain a column
        # (its odd column: the first where n is 2, the last where n is one above a multiple of
        # the vector width)
        for n in (2, 3, 5, 9, 17, 100):
            for k in (2, 3, 8, 9, 300) if n < 17 else (3, 9, 40):
                x, w = rng.standard_normal(k).astype(dt), rng.standard_normal((k, n)).astype(dt)
                yield (module(f"  a = {t}[1,{k}] parameter(0)\n  b = {t}[{k},{n}] parameter(1)\n"
                              f"  ROOT r = {t}[1,{n}] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}"),
                       [x.reshape(1, k), w], [t, t, t], True)  # fmt: skip
        # a matrix [m, k] times a vector: XLA:CPU's row-major GEMV emitter (lanes of FMA chains
        # added neighbours first in tiles of as many rows as lanes, else by halving; a tail chain)
        for m in (2, 4, 8, 12, 13, 100):
            for k in (2, 5, 8, 17, 300) if m < 100 else (9, 40):
                w, v = (
                    (rng.standard_normal((m, k)) * 10.0 ** rng.integers(-3, 4, (m, k))).astype(dt),
                    rng.standard_normal(k).astype(dt),
                )
                yield (module(f"  a = {t}[{m},{k}] parameter(0)\n  b = {t}[{k}] parameter(1)\n"
                              f"  ROOT r = {t}[{m}] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}"),
                       [w, v], [t, t, t], True)  # fmt: skip
        for batch in (2, 4, 8, 64):
            for k in (3, 5, 8, 9, 31, 33, 100, 1000) if batch < 64 else (5, 33, 100):
                x = (rng.standard_normal((batch, k)) * 10.0 ** rng.integers(-3, 4, (batch, k))).astype(dt)
                y = rng.standard_normal((batch, k)).astype(dt)
                exact = t == "f32" or k <= 32 or batch * k < 4096
                yield (module(f"  a = {t}[{batch},{k}] parameter(0)\n  b = {t}[{batch},{k}] parameter(1)\n"
                              f"  ROOT r = {t}[{batch}] dot(a, b), lhs_batch_dims={{0}}, rhs_batch_dims={{0}}, "
                              "lhs_contracting_dims={1}, rhs_contracting_dims={1}"),
                       [x, y], [t, t, t], exact)  # fmt: skip


def _complex_values(t: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    dt = DTYPES[t]
    scale = 10.0 ** rng.integers(-3, 4, shape)
    return (rng.standard_normal(shape) * scale + 1j * rng.standard_normal(shape)).astype(dt)


def _dot_case(t: str, ls: str, rs: str, os_: str, dims: str, args: list[np.ndarray], exact: bool) -> Case:
    return (module(f"  a = {t}{ls} parameter(0)\n  b = {t}{rs} parameter(1)\n  ROOT r = {t}{os_} dot(a, b), {dims}"),
            args, [t, t, t], exact)  # fmt: skip


def family_complex_dots() -> Iterator[Case]:
    """Complex dots (hlo.numerics.complex_dot): Eigen's products over its groups of columns and
    smaller vectors, 4-row panels (the swapped kernel of the c64 odd column) and the rows past
    them, k blocks (sequential ones; parallel
    ones where Eigen's cost model takes two threads, over tiles of columns; k shared between
    the threads), its GEMV, XLA's multiply and reduce of vectors and its multiply of a single
    contracted element; infinities, NaNs and signed zeros. Also complex multiplies by a
    broadcast that is the same along XLA:CPU's innermost loop (of a negated one: not modelled,
    not exact)."""
    rng = np.random.default_rng(41)
    natural = "lhs_contracting_dims={1}, rhs_contracting_dims={0}"
    for t in ("c64", "c128"):
        for m, k, n in (
            (2, 3, 2),
            (4, 16, 8),
            (5, 37, 6),
            (9, 100, 16),
            (12, 64, 10),
            (7, 200, 4),
            (3, 40, 7),
            (4, 20, 5),
            (8, 38, 9),
            (16, 700, 16),
            (8, 2000, 8),
            (6, 250, 6),
            (64, 700, 64),
            (31, 269, 88),
            (40, 700, 40),
            (24, 700, 24),
        ):
            yield _dot_case(t, f"[{m},{k}]", f"[{k},{n}]", f"[{m},{n}]", natural,
                            [_complex_values(t, (m, k), rng), _complex_values(t, (k, n), rng)], True)  # fmt: skip
        m, k, n = 6, 50, 10
        yield _dot_case(t, f"[{k},{m}]", f"[{n},{k}]", f"[{m},{n}]", "lhs_contracting_dims={0}, rhs_contracting_dims={1}",
                        [_complex_values(t, (k, m), rng), _complex_values(t, (n, k), rng)], True)  # fmt: skip
        yield _dot_case(t, "[3,5,40]", "[3,40,6]", "[3,5,6]",
                        "lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}",
                        [_complex_values(t, (3, 5, 40), rng), _complex_values(t, (3, 40, 6), rng)], True)  # fmt: skip
        for k, n in ((70, 9), (200, 16), (130, 5)):  # Eigen's GEMV
            yield _dot_case(t, f"[1,{k}]", f"[{k},{n}]", f"[1,{n}]", natural,
                            [_complex_values(t, (1, k), rng), _complex_values(t, (k, n), rng)], True)  # fmt: skip
        yield _dot_case(t, "[1,300]", "[7,300]", "[1,7]", "lhs_contracting_dims={1}, rhs_contracting_dims={1}",
                        [_complex_values(t, (1, 300), rng), _complex_values(t, (7, 300), rng)], True)  # fmt: skip
        yield _dot_case(t, "[200]", "[200,9]", "[9]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}",
                        [_complex_values(t, (200,), rng), _complex_values(t, (200, 9), rng)], True)  # fmt: skip
        for k in (2, 5, 32, 33, 300):  # XLA's multiply and reduce
            yield _dot_case(t, f"[{k}]", f"[{k}]", "[]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}",
                            [_complex_values(t, (k,), rng), _complex_values(t, (k,), rng)], True)  # fmt: skip
        for b, k in ((6, 40), (4, 7)):
            yield _dot_case(t, f"[{b},{k}]", f"[{b},{k}]", f"[{b}]",
                            "lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}",
                            [_complex_values(t, (b, k), rng), _complex_values(t, (b, k), rng)], True)  # fmt: skip
        for m, n in ((8, 6), (4, 1), (1, 5)):  # one contracted element: a multiply
            yield _dot_case(t, f"[{m},1]", f"[1,{n}]", f"[{m},{n}]", natural,
                            [_complex_values(t, (m, 1), rng), _complex_values(t, (1, n), rng)], True)  # fmt: skip
        for m in (3, 7):  # a matrix times a vector: Eigen's product with one row
            yield _dot_case(t, f"[{m},50]", "[50]", f"[{m}]", natural,
                            [_complex_values(t, (m, 50), rng), _complex_values(t, (50,), rng)], True)  # fmt: skip
        a, b = _complex_values(t, (5, 12), rng), _complex_values(t, (12, 8), rng)
        a[0, 3], a[1, 5], b[2, 1], b[4, 6] = complex(np.inf, 1), complex(np.nan, 0), complex(-0.0, np.inf), 0
        a[2] = -0.0
        yield _dot_case(t, "[5,12]", "[12,8]", "[5,8]", natural, [a, b], True)
        m, n = 16, 24
        for operand, dims, side in (
            ("[]", "{}", "b, s"),
            ("[]", "{}", "s, b"),
            (f"[{m}]", "{0}", "b, s"),
            (f"[{n}]", "{1}", "b, s"),
            (f"[{m}]", "{0}", "s, b"),
        ):
            x, v = _complex_values(t, (m, n), rng), _complex_values(t, eval(operand.replace("[]", "()")), rng)
            yield (module(f"  b = {t}[{m},{n}] parameter(0)\n  v = {t}{operand} parameter(1)\n"
                          f"  s = {t}[{m},{n}] broadcast(v), dimensions={dims}\n  ROOT r = {t}[{m},{n}] multiply({side})"),
                   [x, v], [t, t, t], True)  # fmt: skip
        x, v = _complex_values(t, (m, n), rng), _complex_values(t, (), rng)
        # a negated broadcast: not modelled
        yield (module(f"  b = {t}[{m},{n}] parameter(0)\n  v = {t}[] parameter(1)\n  w = {t}[{m},{n}] broadcast(v), dimensions={{}}\n"
                      f"  s = {t}[{m},{n}] negate(w)\n  ROOT r = {t}[{m},{n}] multiply(b, s)"),
               [x, v], [t, t, t], False)  # fmt: skip


def family_contractions() -> Iterator[Case]:
    """Adds and subtracts XLA:CPU fuses with a multiply (hlo.numerics.contraction): one rounding
    where the multiply is an operand (through negates) with no other user, in every form and
    shape; which of two products LLVM fuses; the products it does not fuse (hoisted broadcasts,
    a multiply with two users in one kernel, bf16, a sum YNNPACK takes); a loop body's."""
    rng = np.random.default_rng(43)
    forms = {
        "m+z": "m = T multiply(a, b)\n  ROOT r = T add(m, c)",
        "z+m": "m = T multiply(a, b)\n  ROOT r = T add(c, m)",
        "m-z": "m = T multiply(a, b)\n  ROOT r = T subtract(m, c)",
        "z-m": "m = T multiply(a, b)\n  ROOT r = T subtract(c, m)",
        "m+k": "m = T multiply(a, b)\n  k = T multiply(c, d)\n  ROOT r = T add(m, k)",
        "m-k": "m = T multiply(a, b)\n  k = T multiply(c, d)\n  ROOT r = T subtract(m, k)",
        "k-m": "m = T multiply(a, b)\n  k = T multiply(c, d)\n  ROOT r = T subtract(k, m)",
        "-m+z": "m = T multiply(a, b)\n  n = T negate(m)\n  ROOT r = T add(n, c)",
        "z--m": "m = T multiply(a, b)\n  n = T negate(m)\n  ROOT r = T subtract(c, n)",
        "-m+k": "m = T multiply(a, b)\n  n = T negate(m)\n  k = T multiply(c, d)\n  ROOT r = T add(n, k)",
        "deep+k": "e1 = T add(a, b)\n  e2 = T add(e1, a)\n  e3 = T add(e2, b)\n  e4 = T add(e3, a)\n  m = T multiply(e4, b)\n  k = T multiply(c, d)\n  ROOT r = T add(m, k)",
        "k+deep": "e1 = T add(a, b)\n  e2 = T add(e1, a)\n  e3 = T add(e2, b)\n  e4 = T add(e3, a)\n  m = T multiply(e4, b)\n  k = T multiply(c, d)\n  ROOT r = T add(k, m)",
        "two users": "m = T multiply(a, b)\n  u = T add(m, c)\n  v = T subtract(m, d)\n  ROOT r = T multiply(u, v)",
        "chain": "m = T multiply(a, b)\n  u = T add(m, c)\n  k = T multiply(u, d)\n  v = T subtract(a, k)\n  w = T multiply(v, v)\n  ROOT r = T add(w, b)",
    }
    for t in ("f32", "f64", "bf16"):
        for shape in ((), (300,), (7, 33)):
            dims = ",".join(map(str, shape))
            params = "\n  ".join(f"{x} = {t}[{dims}] parameter({j})" for j, x in enumerate("abcd"))
            for form in forms.values() if t != "bf16" or shape != (7, 33) else ():
                body = params + "\n  " + form.replace(" T ", f" {t}[{dims}] ")
                args = [rng.standard_normal(shape).astype(DTYPES[t]) for _ in range(4)]
                yield module("  " + body), args, [t] * 5, True
    for t in ("f32", "f64"):  # a product by a broadcast: fused
        for dims, bdims in (("1", "[33]"), ("0", "[7]")):
            body = (
                f"  a = {t}[7,33] parameter(0)\n  b = {t}{bdims} parameter(1)\n  c = {t}[7,33] parameter(2)\n"
                f"  d = {t}{bdims} parameter(3)\n  bb = {t}[7,33] broadcast(b), dimensions={{{dims}}}\n"
                f"  bd = {t}[7,33] broadcast(d), dimensions={{{dims}}}\n"
            )
            n = 7 if dims == "0" else 33
            args = [
                rng.standard_normal((7, 33)).astype(DTYPES[t]),
                rng.standard_normal(n).astype(DTYPES[t]),
                rng.standard_normal((7, 33)).astype(DTYPES[t]),
                rng.standard_normal(n).astype(DTYPES[t]),
            ]
            yield (
                module(body + f"  m = {t}[7,33] multiply(a, bb)\n  ROOT r = {t}[7,33] add(m, c)"),
                args,
                [t] * 5,
                True,
            )
        add = _computation("add", t, "add(p, q)")
        body = (
            f"  a = {t}[8192] parameter(0)\n  b = {t}[8192] parameter(1)\n  c = {t}[8192] parameter(2)\n"
            f"  m = {t}[8192] multiply(a, b)\n  s = {t}[8192] add(m, c)\n  z = {t}[] constant(0)\n"
            f"  ROOT r = {t}[] reduce(s, z), dimensions={{0}}, to_apply=add"
        )
        yield _with(add, body), [rng.standard_normal(8192).astype(DTYPES[t]) for _ in range(3)], [t] * 4, True
        cond = (
            f"cond {{\n  p = (s32[], {t}[], {t}[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
            f"  n = s32[] constant(50)\n  ROOT c = pred[] compare(i, n), direction=LT\n}}\n\n"
        )
        loop = (
            f"body {{\n  p = (s32[], {t}[], {t}[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
            f"  x = {t}[] get-tuple-element(p), index=1\n  a = {t}[] get-tuple-element(p), index=2\n"
            f"  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  m = {t}[] multiply(x, a)\n"
            f"  h = {t}[] constant(0.5)\n  y = {t}[] subtract(h, m)\n  ROOT r = (s32[], {t}[], {t}[]) tuple(j, y, a)\n}}\n\n"
        )
        body = (
            f"  x = {t}[] parameter(0)\n  a = {t}[] parameter(1)\n  z = s32[] constant(0)\n"
            f"  s = (s32[], {t}[], {t}[]) tuple(z, x, a)\n"
            f"  w = (s32[], {t}[], {t}[]) while(s), condition=cond, body=body\n  ROOT r = {t}[] get-tuple-element(w), index=1"
        )
        for x0, a0 in ((0.3, 0.7), (0.1, -0.9), (0.9, 0.99)):
            yield _with(cond + loop, body), [np.array(x0, DTYPES[t]), np.array(a0, DTYPES[t])], [t] * 3, True


def _shared_product_forms(t: str, shape: str) -> dict[str, str]:
    """Modules whose multiply XLA:CPU copies into several kernels, or keeps in one."""
    T = f"{t}[{shape}]"
    return {
        "two kernels": f"m = {T} multiply(a, b)\n  u = {T} add(m, c)\n  v = {T} subtract(d, m)\n  ROOT r = ({T}, {T}) tuple(u, v)",
        "an output too": f"m = {T} multiply(a, b)\n  u = {T} add(m, c)\n  ROOT r = ({T}, {T}) tuple(u, m)",
        "a square, an output too": f"m = {T} multiply(a, a)\n  u = {T} add(m, c)\n  ROOT r = ({T}, {T}) tuple(u, m)",
        "a repeat commuted": f"m = {T} multiply(a, b)\n  n = {T} multiply(b, a)\n  u = {T} add(m, c)\n  ROOT r = ({T}, {T}) tuple(u, n)",
        "max(m, m)": f"m = {T} multiply(a, b)\n  q = {T} maximum(m, m)\n  u = {T} add(m, c)\n  ROOT r = ({T}, {T}) tuple(u, q)",
        "-(-m)": f"m = {T} multiply(a, b)\n  n = {T} negate(m)\n  nn = {T} negate(n)\n  u = {T} add(m, c)\n  ROOT r = ({T}, {T}) tuple(u, nn)",
        "tanh user": f"m = {T} multiply(a, b)\n  u = {T} add(m, c)\n  h = {T} tanh(m)\n  ROOT r = ({T}, {T}) tuple(u, h)",
        "shared chain": f"m = {T} multiply(a, b)\n  u = {T} add(m, c)\n  k = {T} multiply(u, d)\n  v = {T} add(k, m)\n  w = {T} subtract(k, c)\n  ROOT r = ({T}, {T}, {T}) tuple(u, v, w)",
    }


def _random_shared_products(seed: int, t: str, n: int) -> str:
    """A random elementwise module (multiplies, adds, subtracts, negates, maxima) whose values
    have several users and some are outputs (no op of one value twice where XLA's simplifier
    removes it)."""
    import random

    r = random.Random(seed)
    values = [f"p{i}" for i in range(4)]
    lines = [f"  p{i} = {t}[{n}] parameter({i})" for i in range(4)]
    uses = dict.fromkeys(values, 0)
    for k in range(10):
        op = r.choice(["multiply", "multiply", "add", "add", "subtract", "negate", "maximum"])

        def pick() -> str:
            if r.random() < 0.8:
                return values[max(0, len(values) - 1 - int(r.expovariate(0.4)))]
            return r.choice(values)

        operands = [pick()] if op == "negate" else [pick(), pick()]
        if op == "maximum" and operands[0] == operands[1]:
            operands[1] = r.choice(values[:4])
        for o in operands:
            uses[o] += 1
        lines.append(f"  v{k} = {t}[{n}] {op}({', '.join(operands)})")
        values.append(f"v{k}")
        uses[f"v{k}"] = 0
    outputs = [v for v in values[4:] if uses[v] == 0]
    outputs += [v for v in values[4:] if uses[v] > 0 and r.random() < 0.15]
    shape = ", ".join(f"{t}[{n}]" for _ in outputs)
    lines.append(f"  ROOT t = ({shape}) tuple({', '.join(outputs)})")
    return "\n".join(lines)


def family_shared_products() -> Iterator[Case]:
    """Multiplies with several users (hlo.numerics.cpu_kernels): XLA:CPU copies a multiply into
    each consumer's kernel, where LLVM fuses each copy into its add, unless the consumers share a
    kernel or the multiply is written on its own (an output, read by a reduce its tree rewriter
    splits); CSE and the simplifications XLA runs first (repeats, max(x, x), -(-x)) count."""
    rng = np.random.default_rng(44)
    for t in ("f32", "f64"):
        for shape in ((64,), (7, 33)):
            dims = ",".join(map(str, shape))
            params = "\n  ".join(f"{x} = {t}[{dims}] parameter({j})" for j, x in enumerate("abcd"))
            for form in _shared_product_forms(t, dims).values():
                args = [rng.standard_normal(shape).astype(DTYPES[t]) for _ in range(4)]
                yield module("  " + params + "\n  " + form), args, [t] * 4, True
        for rows in (16, 33):  # a max-reduce of the rows the loop emitter takes, the tree rewriter splits
            T = f"{t}[7,{rows}]"
            body = (
                f"  a = {T} parameter(0)\n  b = {T} parameter(1)\n  c = {T} parameter(2)\n"
                f"  m = {T} multiply(a, b)\n  u = {T} add(m, c)\n  z = {t}[] constant(-inf)\n"
                f"  s = {t}[7] reduce(m, z), dimensions={{1}}, to_apply=max\n  ROOT r = ({T}, {t}[7]) tuple(u, s)"
            )
            args = [rng.standard_normal((7, rows)).astype(DTYPES[t]) for _ in range(3)]
            yield _with(_computation("max", t, "maximum(p, q)"), body), args, [t] * 3, True
        T = f"{t}[7,33]"  # a product by a broadcast that is an output too: still copied
        body = (
            f"  a = {T} parameter(0)\n  g = {t}[33] parameter(1)\n  c = {T} parameter(2)\n"
            f"  gb = {T} broadcast(g), dimensions={{1}}\n  m = {T} multiply(a, gb)\n  u = {T} add(m, c)\n"
            f"  ROOT r = ({T}, {T}) tuple(u, m)"
        )
        args = [rng.standard_normal((7, 33)), rng.standard_normal(33), rng.standard_normal((7, 33))]
        yield module(body), [x.astype(DTYPES[t]) for x in args], [t] * 3, True
        loop = (  # a loop body whose product feeds two outputs
            f"cond {{\n  p = (s32[], {t}[], {t}[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
            f"  n = s32[] constant(40)\n  ROOT c = pred[] compare(i, n), direction=LT\n}}\n\n"
            f"body {{\n  p = (s32[], {t}[], {t}[]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
            f"  x = {t}[] get-tuple-element(p), index=1\n  y = {t}[] get-tuple-element(p), index=2\n"
            f"  one = s32[] constant(1)\n  j = s32[] add(i, one)\n  m = {t}[] multiply(x, y)\n"
            f"  h = {t}[] constant(0.5)\n  x2 = {t}[] subtract(h, m)\n  q = {t}[] constant(0.25)\n"
            f"  y2 = {t}[] add(m, q)\n  ROOT r = (s32[], {t}[], {t}[]) tuple(j, x2, y2)\n}}\n\n"
        )
        body = (
            f"  x = {t}[] parameter(0)\n  y = {t}[] parameter(1)\n  z = s32[] constant(0)\n"
            f"  s = (s32[], {t}[], {t}[]) tuple(z, x, y)\n"
            f"  ROOT w = (s32[], {t}[], {t}[]) while(s), condition=cond, body=body"
        )
        for x0, y0 in ((0.3, 0.7), (0.1, -0.9)):
            yield _with(loop, body), [np.array(x0, DTYPES[t]), np.array(y0, DTYPES[t])], [t] * 2, True
    for seed in range(60):
        t = "f32" if seed < 40 else "f64"
        args = [rng.standard_normal(64).astype(DTYPES[t]) for _ in range(4)]
        yield module(_random_shared_products(seed, t, 64)), args, [t] * 4, True


def _ynn_dot_case(t: str, m: int, k: int, n: int, rhs_nk: bool, batch: int, rng: np.random.Generator) -> Case:
    dt, lead = DTYPES[t], (batch,) if batch else ()
    b = f"{batch}," if batch else ""
    a_ = (rng.standard_normal((*lead, m, k)) * 2.0 ** rng.integers(-6, 7, (*lead, m, k))).astype(dt)
    rhs = rng.standard_normal((*lead, n, k) if rhs_nk else (*lead, k, n)).astype(dt)
    lc, rc = (2, 2 if rhs_nk else 1) if batch else (1, 1 if rhs_nk else 0)
    dims = f"lhs_contracting_dims={{{lc}}}, rhs_contracting_dims={{{rc}}}"
    if batch:
        dims = "lhs_batch_dims={0}, rhs_batch_dims={0}, " + dims
    rs = f"[{b}{n},{k}]" if rhs_nk else f"[{b}{k},{n}]"
    return _dot_case(t, f"[{b}{m},{k}]", rs, f"[{b}{m},{n}]", dims, [a_, rhs], True)


def family_ynn_dots() -> Iterator[Case]:
    """Matrix products XLA:CPU runs on YNNPACK (hlo.numerics.ynn_dot), written on an AVX-512 CPU:
    the kernels' 1, 2 and 4 sums a result (n and k pick them), tails of k mod 4, k cut into
    128 KiB chunks, the rhs packed or not, stored [n, k], batches, several contracting
    dimensions, and the edge tiles whose kernels round each product (f32 17 x 1000 x 775)."""
    rng = np.random.default_rng(41)
    shapes = [
        (2, 8, 2), (8, 2, 2), (2, 3, 9), (8, 8, 8), (5, 20, 16), (3, 9, 2), (3, 14, 8), (3, 15, 16),
        (12, 20, 2), (9, 33, 17), (40, 40, 17), (16, 16, 16), (32, 64, 32), (4, 100, 4), (20, 17, 20),
        (7, 30, 96), (6, 12, 48), (64, 256, 64), (3, 2000, 20), (4, 3000, 8), (3, 4000, 24),
        (300, 64, 40), (4, 3000, 129), (17, 1000, 775), (70, 50, 300), (100, 17, 20), (100, 30, 32),
        (100, 201, 96), (60, 9, 200),
    ]  # fmt: skip
    for t in ("f32", "f64"):
        for m, k, n in shapes if t == "f32" else shapes[::2]:
            yield _ynn_dot_case(t, m, k, n, False, 0, rng)
        for m, k, n in ((8, 16, 8), (6, 20, 24), (8, 16, 32), (5, 300, 40), (100, 30, 32)):
            yield _ynn_dot_case(t, m, k, n, True, 0, rng)
        for m, k, n in ((8, 16, 8), (5, 20, 16), (8, 16, 32)):
            yield _ynn_dot_case(t, m, k, n, False, 3, rng)
            yield _ynn_dot_case(t, m, k, n, True, 2, rng)
    if os.environ.get("HLO_FIXTURE_F64_EDGES"):  # (297 x 300 x 129: f64 edge tiles, slow to check)
        yield _ynn_dot_case("f64", 297, 300, 129, False, 0, rng)
    # two contracting dimensions, the rhs's in another order: XLA transposes to [m, k] x [k, n]
    a_, b_ = (
        rng.standard_normal((2, 3, 4, 5)).astype(np.float32),
        rng.standard_normal((2, 5, 4, 6)).astype(np.float32),
    )
    yield _dot_case("f32", "[2,3,4,5]", "[2,5,4,6]", "[2,3,6]",
                    "lhs_batch_dims={0}, lhs_contracting_dims={2,3}, rhs_batch_dims={0}, rhs_contracting_dims={2,1}",
                    [a_, b_], True)  # fmt: skip
    a_, b_ = (
        rng.standard_normal((2, 5, 4, 6)).astype(np.float32),
        rng.standard_normal((5, 4, 2)).astype(np.float32),
    )
    yield _dot_case("f32", "[2,5,4,6]", "[5,4,2]", "[2,6,2]",
                    "lhs_contracting_dims={1,2}, rhs_contracting_dims={0,1}", [a_, b_], True)  # fmt: skip


FAMILIES = {
    "contractions": family_contractions,
    "complex_dots": family_complex_dots,
    "indexing": family_indexing,
    "vector_dots": family_vector_dots,
    "one_thread_sums": family_one_thread_sums,
    "scalars": family_scalars,
    "complex": family_complex,
    "reduce_window": family_reduce_window,
    "sums": family_sums,
    "ragged_dot": family_ragged_dot,
    "reducers": family_reducers,
    "vector_sums": family_vector_sums,
    "column_sums": family_column_sums,
    "split_sums": family_split_sums,
    "window_sums": family_window_sums,
    "window_rows": family_window_rows,
    "reduce_lanes": family_reduce_lanes,
    "reduce_products": family_reduce_products,
    "long_reduces": family_long_reduces,
    "subnormal_ties": family_subnormal_ties,
    "top_k": family_top_k,
    "vector_extremes": family_vector_extremes,
    "split_extremes": family_split_extremes,
    "variadic_reduces": family_variadic_reduces,
    "constant_folds": family_constant_folds,
    "subnormal_inputs": family_subnormal_inputs,
    "libm": family_libm,
    "log": family_log,
    "exp": family_exp,
    "simplifier": family_simplifier,
    "ynn_elementwise": family_ynn_elementwise,
    "rsqrt": family_rsqrt,
    "product_sums": family_product_sums,
    "conv_chains": family_conv_chains,
}


KERNELS = OUT.parent / "kernels"  # modules of several outputs: how XLA:CPU cut them into kernels
KERNEL_FAMILIES = {"shared_products": family_shared_products, "ynn_dots": family_ynn_dots}


def write_outputs(path: Path, cases: Iterator[Case]) -> None:
    """Each case's text, arguments and every output XLA:CPU gives (case{k}_out{j})."""
    from make_op_fixtures import run_on_cpu

    arrays: dict[str, np.ndarray] = {}
    for k, (text, args, _types, _exact) in enumerate(cases):
        arrays[f"case{k}_hlo"] = np.array(text)
        for j, a in enumerate(args):
            arrays[f"case{k}_arg{j}"] = np.asarray(a)
        for j, out in enumerate(run_on_cpu(text, args)):
            arrays[f"case{k}_out{j}"] = out
    np.savez_compressed(path, **arrays)
    print(f"{path.stem}: {k + 1} cases")


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    KERNELS.mkdir(parents=True, exist_ok=True)
    for name in names or [*FAMILIES, *KERNEL_FAMILIES]:
        if name in KERNEL_FAMILIES:
            write_outputs(KERNELS / f"{name}.npz", KERNEL_FAMILIES[name]())
            continue
        path = OUT / f"exact_{name}.npz"
        write_family(path, FAMILIES[name]())
        if name == "rsqrt":  # the CPU's estimate: the machine's vendor and forms
            from hlo.numerics import xla_rsqrt

            with np.load(path) as d:
                arrays = {k: d[k] for k in d.files}
            np.savez_compressed(path, cpu=np.array(xla_rsqrt.machine()), **arrays)
        if name in (
            "vector_sums",
            "column_sums",
            "split_sums",
            "vector_extremes",
            "window_rows",
            "reduce_lanes",
        ):  # where the kernels' (or LLVM's cost model's) order came from
            same = [isa for isa in ("AVX2", "SSE4_2") if replay_under_isa(path, isa) == 0]
            print(f"  the same bits under --xla_cpu_max_isa: {same}")
            with np.load(path) as d:
                arrays = {k: d[k] for k in d.files}
            np.savez_compressed(path, isa=np.array(_isa()), same_under=np.array(" ".join(same)), **arrays)


if __name__ == "__main__":
    main(sys.argv[1:])
