"""Make the fixtures that pin the order of the window and scatter kernels: which element each
step folds in, and in what order additions land on one element. Dev only: needs jax
(../shared/ORACLE.md).

- tests/golden/ops/exact_window_order.npz (read by the op tables like every ops/ file):
  reduce-window with a reducer that writes down its fold order (acc * 100 + x on s64, so
  the result spells the elements in the order folded, a padding position or init value
  folded in would show), f32 sums of 1e8, 1, -1e8 patterns, a first-element-wins reducer and a
  variadic argmax with a tie-break; select-and-scatter with overlapping windows, ties and
  padding, whose additions into one element show their order; scatter-add of embedding rows
  with repeated ids (the same order test on rows).
- tests/golden/windows_column_order.npz: windows XLA:CPU does not fold row-major: its emitter
  folds the last offset of one padded window dimension after all the others (column by column
  for a minor window size of 2), by a rule hlo.numerics.window_order models; select-and-scatter
  scans its windows in that order too (XLA:CPU rewrites it into a variadic reduce-window and a
  scatter). Cases for each branch of the rule: offsets the emitter cannot hoist (row-major
  again), bounds its simplifier tightens, rescaled offsets under base dilation, the limit of
  64 inner positions. Run by tests/test_window_order.py.
- tests/golden/windows_pad_merge.npz: a pad read by a reduce-window, which XLA merges into the
  window's padding (then skipped, not folded) when its value is the init value, and the cases
  where it does not (another value, a reshape between, rank 1, negative edges, a variadic
  window, select-and-scatter, ...). Run by tests/test_pad_merge.py.

    python tools/make_window_fixtures.py
"""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_op_fixtures import Case, write_family

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

SPELL = "f {\n  p = s64[] parameter(0)\n  q = s64[] parameter(1)\n  k = s64[] constant(100)\n  m = s64[] multiply(p, k)\n  ROOT r = s64[] add(m, q)\n}\n\n"
ADD = "f {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  ROOT r = f32[] add(p, q)\n}\n\n"
MAX = "f {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  ROOT r = f32[] maximum(p, q)\n}\n\n"
FIRST = "f {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  z = f32[] constant(-7)\n  e = pred[] compare(p, z), direction=EQ\n  ROOT r = f32[] select(e, q, p)\n}\n\n"
ARGMAX = (
    "f {\n  v1 = f32[] parameter(0)\n  i1 = s32[] parameter(1)\n  v2 = f32[] parameter(2)\n  i2 = s32[] parameter(3)\n"
    "  gt = pred[] compare(v1, v2), direction=GT\n  eq = pred[] compare(v1, v2), direction=EQ\n"
    "  lt = pred[] compare(i1, i2), direction=LT\n  tie = pred[] and(eq, lt)\n  p = pred[] or(gt, tie)\n"
    "  v = f32[] select(p, v1, v2)\n  i = s32[] select(p, i1, i2)\n  ROOT t = (f32[], s32[]) tuple(v, i)\n}\n\n"
)
GE = "ge {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = pred[] compare(a, b), direction=GE\n}\n\n"
GT = "gt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = pred[] compare(a, b), direction=GT\n}\n\n"


def _out(n: int, size: int, stride: int, lo: int, hi: int, base: int = 1, dil: int = 1) -> int:
    padded = (n - 1) * base + 1 + lo + hi
    return max((padded - ((size - 1) * dil + 1)) // stride + 1, 0)


def _window(dims: list[tuple[int, int, int, int, int, int]]) -> str:
    text = "size=" + "x".join(str(d[0]) for d in dims) + " stride=" + "x".join(str(d[1]) for d in dims)
    text += " pad=" + "x".join(f"{d[2]}_{d[3]}" for d in dims)
    if any(d[4] != 1 for d in dims):
        text += " lhs_dilate=" + "x".join(str(d[4]) for d in dims)
    if any(d[5] != 1 for d in dims):
        text += " rhs_dilate=" + "x".join(str(d[5]) for d in dims)
    return text


def _reduce_window(comp: str, t: str, shape: tuple[int, ...], dims: list[tuple[int, ...]], init: str) -> str:
    out = [_out(n, *d) for n, d in zip(shape, dims)]
    return (
        "HloModule m\n\n" + comp + "ENTRY main {\n"
        f"  x = {t}[{','.join(map(str, shape))}] parameter(0)\n  z = {t}[] constant({init})\n"
        f"  ROOT r = {t}[{','.join(map(str, out))}] reduce-window(x, z), window={{{_window(dims)}}}, to_apply=f\n}}\n"
    )


# (shape, per dimension (size, stride, low, high, base dilation, window dilation)): windows
# XLA:CPU folds row-major (padding on the major dimension, dilations, minor padding where its
# emitter keeps the row-major order)
ROW_MAJOR = [
    ((5, 7), [(3, 1, 1, 1, 1, 1), (2, 1, 0, 0, 1, 1)]),
    ((5, 7), [(3, 2, 1, 0, 1, 1), (3, 2, 0, 0, 1, 1)]),
    ((6, 9), [(2, 1, 1, 0, 1, 1), (3, 2, 1, 1, 1, 1)]),
    ((5, 7), [(2, 1, 0, 0, 1, 1), (3, 1, 1, 0, 1, 1)]),
    ((5, 7), [(2, 1, 0, 0, 1, 1), (3, 1, 2, 0, 1, 1)]),
    ((5, 7), [(3, 1, 0, 0, 1, 1), (4, 1, 1, 1, 1, 1)]),
    ((4, 5), [(2, 1, 0, 0, 1, 1), (2, 1, 0, 0, 2, 1)]),
    ((4, 5), [(2, 1, 0, 0, 2, 1), (2, 1, 0, 0, 1, 1)]),
    ((4, 5), [(2, 1, 0, 0, 1, 1), (2, 1, 0, 0, 1, 2)]),
    ((4, 5), [(3, 2, 2, 1, 2, 1), (2, 1, 0, 0, 1, 2)]),
    ((6, 9), [(1, 1, 0, 0, 1, 1), (4, 1, -1, 2, 1, 1)]),
    ((3, 4, 5), [(2, 1, 1, 0, 1, 1), (2, 1, 0, 0, 1, 1), (2, 2, 0, 0, 1, 1)]),
    ((3, 4, 5), [(2, 1, 0, 0, 1, 1), (3, 1, 1, 1, 1, 1), (1, 1, 0, 0, 1, 1)]),
]
# the same, observed column-major on XLA:CPU (jaxlib 0.10.2)
COLUMN_MAJOR = [
    ((5, 7), [(2, 1, 0, 0, 1, 1), (2, 1, 1, 0, 1, 1)]),
    ((5, 7), [(2, 1, 0, 0, 1, 1), (2, 1, 1, 1, 1, 1)]),
    ((5, 7), [(2, 1, 0, 0, 1, 1), (3, 1, 0, 1, 1, 1)]),
    ((5, 7), [(3, 1, 1, 0, 1, 1), (2, 1, 0, 1, 1, 1)]),
    ((56, 56), [(3, 2, 0, 1, 1, 1), (3, 2, 0, 1, 1, 1)]),  # a "SAME" 3x3/2 max-pool's window
    ((6, 9), [(3, 2, 0, 1, 2, 1), (2, 1, 2, 0, 1, 2)]),
    ((3, 4, 5), [(2, 1, 0, 0, 1, 1), (2, 1, 1, 0, 1, 1), (2, 1, 1, 0, 1, 1)]),
]


def _spelled(shape: tuple[int, ...]) -> np.ndarray:
    return (np.arange(int(np.prod(shape))) % 99 + 1).reshape(shape).astype(np.int64)


def _cancelling(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """1e8, 1 and -1e8 in a random arrangement: each order of adding them gives another sum."""
    return rng.choice(np.array([1e8, 1.0, -1e8, 3.0, -1.0], np.float32), size=shape)


def family_window_order() -> Iterator[Case]:
    rng = np.random.default_rng(41)
    for shape, dims in ROW_MAJOR:
        yield _reduce_window(SPELL, "s64", shape, dims, "7"), [_spelled(shape)], ["s64", "s64"], True
        yield _reduce_window(ADD, "f32", shape, dims, "0.5"), [_cancelling(shape, rng)], ["f32", "f32"], True
        x = rng.choice(np.array([-7.0, 1.0, 2.0, 3.0, 4.0], np.float32), size=shape)
        yield _reduce_window(FIRST, "f32", shape, dims, "-7"), [x], ["f32", "f32"], True
    for shape, dims in COLUMN_MAJOR:  # where XLA:CPU's column order cannot show: a maximum
        x = rng.choice(np.array([-0.0, 0.0, 1.0, 2.5, -3.0, 2.5], np.float32), size=shape)
        yield _reduce_window(MAX, "f32", shape, dims, "-inf"), [x], ["f32", "f32"], True
    for n, window, m in (
        (12, "size=3 stride=2 pad=1_1", 6),
        (12, "size=4 stride=1 pad=2_1 lhs_dilate=2", 23),
    ):
        x = rng.choice(np.array([1, 2, 2, 0], np.float32), size=n)
        ix = rng.permutation(n).astype(np.int32)
        text = ("HloModule m\n\n" + ARGMAX + "ENTRY main {\n"
                f"  x = f32[{n}] parameter(0)\n  ix = s32[{n}] parameter(1)\n  a = f32[] constant(-inf)\n  b = s32[] constant(-1)\n"
                f"  r = (f32[{m}], s32[{m}]) reduce-window(x, ix, a, b), window={{{window}}}, to_apply=f\n"
                "  ROOT o = s32[" + str(m) + "] get-tuple-element(r), index=1\n}\n")  # fmt: skip
        yield text, [x, ix], ["f32", "s32", "s32"], True
    yield from _select_and_scatter(rng)
    yield from _select_and_scatter_edges(rng)
    yield from _scatter_rows(rng)


# select-and-scatter windows (size, stride, low, high) scanned row-major by XLA:CPU, and ones
# it scans column by column (the same padded-minor-dimension rule as reduce-window's)
SCAN_ROW_MAJOR = [
    ((7, 7), [(3, 2, 1, 1), (3, 2, 1, 1)]),
    ((6, 6), [(2, 1, 0, 0), (2, 1, 0, 0)]),
    ((8, 8), [(3, 2, 1, 0), (3, 2, 0, 0)]),
    ((8, 9), [(3, 2, 0, 1), (3, 2, 1, 0)]),
    ((2, 3, 7, 7), [(1, 1, 0, 0), (1, 1, 0, 0), (3, 2, 1, 1), (3, 2, 1, 1)]),
    ((12, 12), [(7, 1, 0, 0), (7, 1, 0, 0)]),  # each element in up to 49 windows
]
SCAN_COLUMN_MAJOR = [
    ((8, 8), [(3, 2, 0, 1), (3, 2, 0, 1)]),  # a "SAME" 3x3/2 max-pool's gradient
    ((6, 7), [(3, 1, 1, 1), (2, 2, 0, 1)]),
    ((2, 3, 6, 6), [(1, 1, 0, 0), (1, 1, 0, 0), (3, 2, 1, 0), (3, 2, 0, 1)]),
]


def _select_and_scatter(rng: np.random.Generator, windows: list[Any] = SCAN_ROW_MAJOR) -> Iterator[Case]:
    """Overlapping windows (each element in up to four), ties (GE keeps the first of equal
    values, GT the last), padding, and sources of 1e8, 1, -1e8 whose sums show the order."""
    for shape, dims in windows:
        out = [_out(n, s, st, lo, hi) for n, (s, st, lo, hi) in zip(shape, dims)]
        window = _window([(*d, 1, 1) for d in dims])
        # (over the checkerboard, XLA:CPU's first-maximum scans of the column-ordered windows
        # pick what a row-major scan picks: its order is not plainly column-major; the
        # last-maximum scans show that it is not row-major)
        for select in (GT,) if windows is SCAN_COLUMN_MAJOR else (GE, GT):
            for init in ("0", "1.5"):
                x = rng.choice(np.array([1, 2, 3, 3, 3], np.float32), size=shape)
                if windows is SCAN_COLUMN_MAJOR:  # maxima on a checkerboard: the scan order shows
                    x = np.where(np.indices(shape).sum(axis=0) % 2 == 1, 3, 1).astype(np.float32)
                source = _cancelling(tuple(out), rng)
                text = ("HloModule m\n\n" + select + ADD + "ENTRY main {\n"
                        f"  x = f32[{','.join(map(str, shape))}] parameter(0)\n  s = f32[{','.join(map(str, out))}] parameter(1)\n"
                        f"  z = f32[] constant({init})\n"
                        f"  ROOT r = f32[{','.join(map(str, shape))}] select-and-scatter(x, s, z), window={{{window}}}, "
                        f"select={select.split()[0]}, scatter=f\n}}\n")  # fmt: skip
                yield text, [x, source], ["f32", "f32", "f32"], True


HALF = "h {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  c = f32[] constant(0.5)\n  m = f32[] multiply(p, c)\n  ROOT r = f32[] add(m, q)\n}\n\n"


def _select_and_scatter_edges(rng: np.random.Generator) -> Iterator[Case]:
    """A scatter computation that is no single op (run lifted; not commutative, so the order
    of combining into one element shows), and windows of padding only (nothing scattered)."""
    for shape, window, out, scatter in (
        ((9,), "size=3 stride=1", (7,), "h"),
        ((5, 6), "size=3x2 stride=1x1 pad=1_1x0_0", (5, 5), "h"),
        ((6,), "size=2 stride=2 pad=0_4", (5,), "f"),
        ((6,), "size=2 stride=2 pad=0_4", (5,), "h"),
        ((10, 10), "size=7x7 stride=1x1", (4, 4), "h"),  # more overlapping windows than compared
        ((0, 3), "size=1x2 stride=1x1", (0, 2), "f"),
    ):
        x = rng.choice(np.array([1, 2, 3, 3], np.float32), size=shape)
        source = _cancelling(out, rng)
        text = ("HloModule m\n\n" + GE + ADD + HALF + "ENTRY main {\n"
                f"  x = f32[{','.join(map(str, shape))}] parameter(0)\n  s = f32[{','.join(map(str, out))}] parameter(1)\n"
                "  z = f32[] constant(0.25)\n"
                f"  ROOT r = f32[{','.join(map(str, shape))}] select-and-scatter(x, s, z), window={{{window}}}, "
                f"select=ge, scatter={scatter}\n}}\n")  # fmt: skip
        yield text, [x, source], ["f32", "f32", "f32"], True


def _scatter_rows(rng: np.random.Generator) -> Iterator[Case]:
    """Embedding-gradient scatter-adds: rows with repeated ids (each element's additions in
    update order), distinct ids, and ids out of range (skipped)."""
    for vocab, count, width, ids_range in ((7, 40, 5, 7), (40, 12, 4, 40), (9, 30, 3, 11)):
        ids = rng.integers(0, ids_range, count).astype(np.int32)
        if vocab == 40:
            ids = rng.permutation(vocab)[:count].astype(np.int32)  # distinct rows
        updates = _cancelling((count, width), rng)
        text = ("HloModule m\n\n" + ADD + "ENTRY main {\n"
                f"  a = f32[{vocab},{width}] parameter(0)\n  i = s32[{count},1] parameter(1)\n  u = f32[{count},{width}] parameter(2)\n"
                f"  ROOT r = f32[{vocab},{width}] scatter(a, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, "
                "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=f\n}\n")  # fmt: skip
        base = rng.choice(np.array([0.0, 0.5, 1e8], np.float32), size=(vocab, width))
        yield text, [base, ids[:, None], updates], ["f32", "s32", "f32", "f32"], True
    # s4 rows wrap (the narrow integers add through int64), and a replacing scatter: the last
    # update of an element wins
    ids = rng.integers(0, 5, 9).astype(np.int32)[:, None]
    for t, comp, values in (
        (
            "s4",
            "f {\n  p = s4[] parameter(0)\n  q = s4[] parameter(1)\n  ROOT r = s4[] add(p, q)\n}\n\n",
            rng.integers(-8, 8, (9, 3)),
        ),
        (
            "f32",
            "f {\n  p = f32[] parameter(0)\n  ROOT q = f32[] parameter(1)\n}\n\n",
            rng.standard_normal((9, 3)),
        ),
    ):
        dtype = {"s4": ml_dtypes.int4, "f32": np.float32}[t]
        text = ("HloModule m\n\n" + comp + "ENTRY main {\n"
                f"  a = {t}[5,3] parameter(0)\n  i = s32[9,1] parameter(1)\n  u = {t}[9,3] parameter(2)\n"
                f"  ROOT r = {t}[5,3] scatter(a, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, "
                "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=f\n}\n")  # fmt: skip
        base = np.zeros((5, 3), dtype) if t == "s4" else rng.standard_normal((5, 3)).astype(dtype)
        yield text, [base, ids, values.astype(dtype)], [t, "s32", t, t], True


# more windows whose order XLA:CPU's emitter decides by simplifying the in-bounds test of each
# window dimension (hlo.numerics.window_order): hoisted or not, and which offset comes last
HOISTED = [
    (
        (8, 3, 2, 8),
        [(2, 1, 2, 0, 1, 1), (2, 1, 3, 3, 1, 2), (4, 2, 0, 1, 2, 1), (4, 1, 0, 3, 1, 3)],
    ),  # a test turned bound
    ((1, 9, 9), [(3, 3, 1, 1, 1, 1), (4, 3, 2, 3, 2, 2), (3, 1, 0, 3, 2, 2)]),  # d tightened to real elements
    ((4, 2), [(4, 3, 0, 2, 3, 1), (4, 1, 1, 0, 2, 1)]),  # a modulus turned equality
    ((6, 6, 9), [(4, 2, 3, 1, 3, 1), (3, 1, 2, 0, 1, 2), (4, 2, 0, 1, 2, 1)]),  # rescaled offsets
    ((4, 7), [(2, 1, 0, 0, 1, 1), (4, 2, 0, 1, 2, 1)]),
    ((7, 4), [(4, 1, 3, 0, 2, 1), (3, 1, 0, 2, 3, 3)]),
    ((9, 6), [(3, 1, 0, -1, 1, 1), (4, 3, 1, 0, 2, 2)]),  # row-major: a modulus of d and s stays
    ((5, 7, 6), [(3, 1, -1, 0, 3, 1), (4, 1, 3, -1, 2, 3), (3, 2, 2, 0, 2, 3)]),  # row-major
    (
        (2, 3, 9, 11),
        [(2, 1, 0, 0, 1, 1), (2, 1, 0, 1, 1, 1), (7, 1, 0, 0, 1, 1), (9, 1, 0, 0, 1, 1)],
    ),  # 63 inner
    (
        (2, 3, 10, 10),
        [(2, 1, 0, 0, 1, 1), (2, 1, 0, 1, 1, 1), (8, 1, 0, 0, 1, 1), (8, 1, 0, 0, 1, 1)],
    ),  # 64: row-major
    ((6, 8), [(3, 1, 0, 0, 1, 1), (3, 1, 1, 0, 1, 1)]),  # padded low, size 3: row-major
    ((6, 8), [(3, 1, 0, 0, 1, 1), (3, 1, 0, 2, 1, 1)]),  # padded high, size 3: not peelable
    ((6, 8), [(3, 1, 0, 0, 1, 1), (3, 2, 0, 1, 1, 1)]),  # padded high, size 3: last column last
    # row-major: a modulus tightens d to one value, which is not substituted
    ((5, 2, 9), [(2, 3, -1, -1, 1, 2), (3, 1, 2, 1, 2, 2), (4, 3, 0, 1, 2, 1)]),
]
SCAN_HOISTED = [
    ((6, 7), [(2, 1, 0, 0), (2, 1, 1, 1)]),
    ((5, 9), [(3, 1, 1, 1), (3, 2, 0, 1)]),
    ((3, 6, 8), [(2, 1, 0, 1), (1, 1, 0, 0), (2, 1, 0, 1)]),
]


def family_column_order() -> Iterator[Case]:
    rng = np.random.default_rng(43)
    for shape, dims in COLUMN_MAJOR:
        yield _reduce_window(SPELL, "s64", shape, dims, "7"), [_spelled(shape)], ["s64", "s64"], True
        yield _reduce_window(ADD, "f32", shape, dims, "0.5"), [_cancelling(shape, rng)], ["f32", "f32"], True
    yield from _select_and_scatter(rng, SCAN_COLUMN_MAJOR)
    for shape, dims in HOISTED:
        yield _reduce_window(SPELL, "s64", shape, dims, "7"), [_spelled(shape)], ["s64", "s64"], True
        yield _reduce_window(ADD, "f32", shape, dims, "0.5"), [_cancelling(shape, rng)], ["f32", "f32"], True
    for shape, dims in SCAN_HOISTED:
        out = [_out(n, s, st, lo, hi) for n, (s, st, lo, hi) in zip(shape, dims)]
        window = _window([(*d, 1, 1) for d in dims])
        for select in (GE, GT):
            x = np.where(np.indices(shape).sum(axis=0) % 2 == 1, 3, 1).astype(np.float32)
            source = _cancelling(tuple(out), rng)
            text = ("HloModule m\n\n" + select + ADD + "ENTRY main {\n"
                    f"  x = f32[{','.join(map(str, shape))}] parameter(0)\n  s = f32[{','.join(map(str, out))}] parameter(1)\n"
                    "  z = f32[] constant(0)\n"
                    f"  ROOT r = f32[{','.join(map(str, shape))}] select-and-scatter(x, s, z), window={{{window}}}, "
                    f"select={select.split()[0]}, scatter=f\n}}\n")  # fmt: skip
            yield text, [x, source], ["f32", "f32", "f32"], True
    # a variadic argmax (first index wins a tie) over a window padded in its minor dimension
    x = rng.choice(np.array([1, 2, 2, 0], np.float32), size=(6, 7))
    ix = rng.permutation(42).astype(np.int32).reshape(6, 7)
    text = ("HloModule m\n\n" + ARGMAX + "ENTRY main {\n"
            "  x = f32[6,7] parameter(0)\n  ix = s32[6,7] parameter(1)\n  a = f32[] constant(-inf)\n  b = s32[] constant(-1)\n"
            "  r = (f32[3,7], s32[3,7]) reduce-window(x, ix, a, b), window={size=3x2 stride=2x1 pad=0_1x1_0}, to_apply=f\n"
            "  ROOT o = s32[3,7] get-tuple-element(r), index=1\n}\n")  # fmt: skip
    yield text, [x, ix], ["f32", "s32", "s32"], True


def _module(comps: str, body: str) -> str:
    return "HloModule m\n\n" + comps + "ENTRY main {\n" + body + "}\n"


# (name, entry body): a spelling reducer (s64, init 7) over `x` = s64[6,7] padded with 7s where
# the pad merges, so a padded position folded in would show as a 07 in the result
PAD_SPELLED = [
    (
        "merged",
        "  pd = s64[8,9] pad(x, z), padding=1_1x1_1\n  ROOT r = s64[4,4] reduce-window(pd, z), window={size=2x3 stride=2x2}, to_apply=f\n",
    ),
    (
        "merged, a window padded on its minor side only",
        "  pd = s64[6,8] pad(x, z), padding=0_0x0_1\n  ROOT r = s64[5,7] reduce-window(pd, z), window={size=2x2}, to_apply=f\n",
    ),
    (
        "interior padding -> base dilation",
        "  pd = s64[13,9] pad(x, z), padding=1_1_1x1_1\n  ROOT r = s64[6,4] reduce-window(pd, z), window={size=2x3 stride=2x2}, to_apply=f\n",
    ),
    (
        "window dilation",
        "  pd = s64[8,9] pad(x, z), padding=1_1x1_1\n  ROOT r = s64[4,3] reduce-window(pd, z), window={size=2x3 stride=2x2 rhs_dilate=1x2}, to_apply=f\n",
    ),
    (
        "base dilation scales the edges",
        "  pd = s64[8,9] pad(x, z), padding=1_1x1_1\n  ROOT r = s64[4,8] reduce-window(pd, z), window={size=2x3 stride=2x2 lhs_dilate=1x2}, to_apply=f\n",
    ),
    (
        "padding of the window's own",
        "  pd = s64[8,9] pad(x, z), padding=1_1x1_1\n  ROOT r = s64[5,5] reduce-window(pd, z), window={size=2x3 stride=2x2 pad=1_1x1_1}, to_apply=f\n",
    ),
    (
        "the pad read elsewhere too",
        "  pd = s64[8,9] pad(x, z), padding=1_1x1_1\n  r = s64[4,4] reduce-window(pd, z), window={size=2x3 stride=2x2}, to_apply=f\n  s = s64[4,4] slice(pd), slice={[0:4], [0:4]}\n  ROOT o = s64[4,4] add(r, s)\n",
    ),
    (
        "two constants of one value",
        "  z2 = s64[] constant(7)\n  pd = s64[8,9] pad(x, z2), padding=1_1x1_1\n  ROOT r = s64[4,4] reduce-window(pd, z), window={size=2x3 stride=2x2}, to_apply=f\n",
    ),
    (
        "a convert between, padding of a tenth",
        "  y = s32[6,7] convert(x)\n  z32 = s32[] constant(7)\n  pd = s32[6,9] pad(y, z32), padding=0_0x1_1\n  c = s64[6,9] convert(pd)\n  ROOT r = s64[6,3] reduce-window(c, z), window={size=1x3 stride=1x3}, to_apply=f\n",
    ),
    (
        "rank 3",
        "  x3 = s64[2,3,7] reshape(x)\n  pd = s64[2,5,9] pad(x3, z), padding=0_0x1_1x1_1\n  ROOT r = s64[2,2,4] reduce-window(pd, z), window={size=1x2x3 stride=1x2x2}, to_apply=f\n",
    ),
    (
        "one real element a window: a broadcast",
        "  x1 = s64[1,7] slice(x), slice={[0:1], [0:7]}\n  pd = s64[3,7] pad(x1, z), padding=1_1x0_0\n  ROOT r = s64[3,7] reduce-window(pd, z), window={size=3x1 pad=1_1x0_0}, to_apply=f\n",
    ),
    (
        "not merged: another value",
        "  z5 = s64[] constant(5)\n  pd = s64[8,9] pad(x, z5), padding=1_1x1_1\n  ROOT r = s64[4,4] reduce-window(pd, z), window={size=2x3 stride=2x2}, to_apply=f\n",
    ),
    (
        "not merged: negative edges",
        "  pd = s64[7,8] pad(x, z), padding=-1_2x1_0\n  ROOT r = s64[3,3] reduce-window(pd, z), window={size=2x3 stride=2x2}, to_apply=f\n",
    ),
    (
        "not merged: a reshape between",
        "  pd = s64[8,9] pad(x, z), padding=1_1x1_1\n  rs = s64[8,9,1] reshape(pd)\n  ROOT r = s64[4,4,1] reduce-window(rs, z), window={size=2x3x1 stride=2x2x1}, to_apply=f\n",
    ),
    (
        "not merged: rank 1",
        "  x1 = s64[42] reshape(x)\n  pd = s64[44] pad(x1, z), padding=1_1\n  ROOT r = s64[14] reduce-window(pd, z), window={size=3 stride=3}, to_apply=f\n",
    ),
    (
        "not merged: interior padding under base dilation",
        "  pd = s64[11,7] pad(x, z), padding=0_0_1x0_0\n  ROOT r = s64[5,6] reduce-window(pd, z), window={size=2x3 stride=2x2 lhs_dilate=1x2}, to_apply=f\n",
    ),
    (
        "not merged: a convert between, padding under a tenth",
        "  y = s64[3,14] reshape(x)\n  y2 = s32[3,14] convert(y)\n  z32 = s32[] constant(7)\n  pd = s32[3,15] pad(y2, z32), padding=0_0x0_1\n  c = s64[3,15] convert(pd)\n  ROOT r = s64[3,5] reduce-window(c, z), window={size=1x3 stride=1x3}, to_apply=f\n",
    ),
    (
        "not merged: whole dimensions (a reduce)",
        "  pd = s64[8,9] pad(x, z), padding=1_1x1_1\n  ROOT r = s64[8,1] reduce-window(pd, z), window={size=1x9}, to_apply=f\n",
    ),
]


def family_pad_merge() -> Iterator[Case]:
    rng = np.random.default_rng(44)
    x = _spelled((6, 7))
    for _, body in PAD_SPELLED:
        text = _module(SPELL, "  x = s64[6,7] parameter(0)\n  z = s64[] constant(7)\n" + body)
        yield text, [x], ["s64", "s64"], True
    # the init value a parameter: merged when the pad's value is that parameter, not when it is
    # a constant of the same value
    for pad_value in ("z", "k"):
        text = _module(SPELL, "  x = s64[6,7] parameter(0)\n  z = s64[] parameter(1)\n  k = s64[] constant(7)\n"
                       f"  pd = s64[8,9] pad(x, {pad_value}), padding=1_1x1_1\n"
                       "  ROOT r = s64[4,4] reduce-window(pd, z), window={size=2x3 stride=2x2}, to_apply=f\n")  # fmt: skip
        yield text, [x, np.int64(7)], ["s64", "s64", "s64"], True
    # float sums that cancel, and a max, padded with their init value (merged) or not
    for comp, value, init in ((ADD, "0", "0"), (ADD, "0", "0.5"), (MAX, "-inf", "-inf")):
        for dims in (
            [(2, 2, 1, 1), (3, 2, 1, 1)],
            [(2, 1, 0, 0), (2, 1, 0, 1)],
            [(3, 2, 1, 1), (3, 2, 1, 1)],
        ):
            shape = (6, 7)
            padded = [n + lo + hi for n, (_, _, lo, hi) in zip(shape, dims)]
            out = [_out(n, s, st, 0, 0) for n, (s, st, _, _) in zip(padded, dims)]
            cfg = "x".join(f"{lo}_{hi}" for _, _, lo, hi in dims)
            text = _module(comp, f"  x = f32[6,7] parameter(0)\n  v = f32[] constant({value})\n  z = f32[] constant({init})\n"
                           f"  pd = f32[{padded[0]},{padded[1]}] pad(x, v), padding={cfg}\n"
                           f"  ROOT r = f32[{out[0]},{out[1]}] reduce-window(pd, z), window={{size={dims[0][0]}x{dims[1][0]} stride={dims[0][1]}x{dims[1][1]}}}, to_apply=f\n")  # fmt: skip
            yield text, [_cancelling(shape, rng)], ["f32", "f32"], True
    # never merged: a variadic window (argmax) and select-and-scatter over a pad of their init
    v = rng.choice(np.array([1, 2, 2, 0], np.float32), size=(6, 7))
    ix = rng.permutation(64).astype(np.int32).reshape(8, 8)
    text = _module(ARGMAX, "  x = f32[6,7] parameter(0)\n  ix = s32[8,8] parameter(1)\n  a = f32[] constant(-inf)\n  b = s32[] constant(-1)\n"
                   "  pd = f32[8,8] pad(x, a), padding=1_1x0_1\n"
                   "  r = (f32[4,7], s32[4,7]) reduce-window(pd, ix, a, b), window={size=2x2 stride=2x1}, to_apply=f\n"
                   "  ROOT o = s32[4,7] get-tuple-element(r), index=1\n")  # fmt: skip
    yield text, [v, ix], ["f32", "s32", "s32"], True
    text = _module(GE + ADD, "  x = f32[6,7] parameter(0)\n  s = f32[4,4] parameter(1)\n  z = f32[] constant(0)\n"
                   "  pd = f32[8,9] pad(x, z), padding=1_1x1_1\n"
                   "  ROOT r = f32[8,9] select-and-scatter(pd, s, z), window={size=2x3 stride=2x2}, select=ge, scatter=f\n")  # fmt: skip
    yield (
        text,
        [
            np.where(np.indices((6, 7)).sum(axis=0) % 2 == 1, 3, 0).astype(np.float32),
            _cancelling((4, 4), rng),
        ],
        ["f32", "f32", "f32"],
        True,
    )


def main() -> None:
    write_family(GOLDEN / "ops" / "exact_window_order.npz", family_window_order())
    write_family(GOLDEN / "windows_column_order.npz", family_column_order())
    write_family(GOLDEN / "windows_pad_merge.npz", family_pad_merge())


if __name__ == "__main__":
    main()
