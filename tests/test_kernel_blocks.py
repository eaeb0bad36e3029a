"""Kernels that go a block at a time to bound their temporaries (memory: what a run adds against
the plan's live set) give the bits of the same kernel in one block: blocks of rows are
independent sums, products and selections, and blocks of updates keep update order. Each case
runs once with the kernel's block size so small that it takes many blocks, once so large that it
takes one."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import hlo
from hlo.numerics import conv_chains, convolution, scatter, select_scatter, sorting, vector_sum

RNG = np.random.default_rng(3)


def _run(text: str, args: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    out = hlo.compile_module(hlo.parse_module(text), hlo.RunOptions())(*args)
    return tuple(np.asarray(o) for o in (out if isinstance(out, tuple) else (out,)))


def _same_bits(
    blocked: Callable[[], tuple[np.ndarray, ...]], whole: Callable[[], tuple[np.ndarray, ...]]
) -> None:
    for a, b in zip(blocked(), whole(), strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()


def _spread(shape: tuple[int, ...]) -> np.ndarray:
    """Magnitudes over many binades and both signs: any regrouping of a sum shows."""
    return (RNG.standard_normal(shape) * 10.0 ** RNG.integers(-4, 6, shape)).astype(np.float32)


def _both(
    monkeypatch: pytest.MonkeyPatch, module: object, name: str, small: int, text: str, args: list
) -> None:
    def blocked() -> tuple[np.ndarray, ...]:
        monkeypatch.setattr(module, name, small)
        return _run(text, args)

    def whole() -> tuple[np.ndarray, ...]:
        monkeypatch.setattr(module, name, 1 << 40)
        return _run(text, args)

    _same_bits(blocked, whole)


SUM = """HloModule s
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e { x = f32[%s] parameter(0)  z = f32[] constant(0)
  ROOT r = f32[%s] reduce(x, z), dimensions={%s}, to_apply=add }"""


@pytest.mark.parametrize(
    "shape, out, dims", [("300000", "", "0"), ("3,70001", "3", "1"), ("40,9000", "40", "1")]
)
def test_trailing_sums_in_slabs(monkeypatch: pytest.MonkeyPatch, shape: str, out: str, dims: str) -> None:
    x = _spread(tuple(int(n) for n in shape.split(",")))
    _both(monkeypatch, vector_sum, "SLAB_ELEMENTS", 4096, SUM % (shape, out, dims), [x])


CONV = """HloModule c
ENTRY e { x = f32[%s] parameter(0)  w = f32[%s] parameter(1)
  ROOT r = f32[%s] convolution(x, w), window={%s}, dim_labels=%s }"""


@pytest.mark.parametrize(
    "x, w, out, window, labels",
    [
        ("3,4,40,40", "5,4,3,3", "3,5,40,40", "size=3x3 pad=1_1x1_1", "bf01_oi01->bf01"),
        ("3,36,36,3", "5,5,3,4", "3,36,36,4", "size=5x5 pad=2_2x2_2 rhs_reversal=1x0", "b01f_01io->b01f"),
    ],
)
def test_convolution_in_chunks_of_images(
    monkeypatch: pytest.MonkeyPatch, x: str, w: str, out: str, window: str, labels: str
) -> None:
    """One image per chunk, each at least MIN_ROWS rows of the patch matrix (OpenBLAS gives a
    product of few rows other bits than the same rows of a taller one); and in XLA:CPU's order
    (hlo.numerics.conv_chains) one image a chunk too."""
    args = [_spread(tuple(int(n) for n in s.split(","))) for s in (x, w)]
    _both(monkeypatch, convolution, "CHAIN_COLUMNS", 1, CONV % (x, w, out, window, labels), args)
    monkeypatch.setattr(conv_chains, "route", lambda *a: None)  # (the BLAS product)
    _both(monkeypatch, convolution, "PATCH_BYTES", 1024, CONV % (x, w, out, window, labels), args)


SELECT_SCATTER = """HloModule s
ge { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT c = pred[] compare(a, b), direction=GE }
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e { x = f32[6,4,21,21] parameter(0)  g = f32[6,4,10,10] parameter(1)  z = f32[] constant(0)
  ROOT r = f32[6,4,21,21] select-and-scatter(x, g, z), window={size=1x1x3x3 stride=1x1x2x2},
    select=ge, scatter=add }"""


def test_select_and_scatter_in_slabs(monkeypatch: pytest.MonkeyPatch) -> None:
    # few distinct values: ties, and windows that pick the same element
    x = RNG.integers(0, 3, (6, 4, 21, 21)).astype(np.float32)
    _both(monkeypatch, select_scatter, "_SLAB_WINDOWS", 7, SELECT_SCATTER, [x, _spread((6, 4, 10, 10))])


SCATTER = """HloModule s
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e { x = f32[50,8] parameter(0)  i = s32[3000,1] parameter(1)  u = f32[3000,8] parameter(2)
  ROOT r = f32[50,8] scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0},
    scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add }"""


def test_scatter_in_blocks_of_updates(monkeypatch: pytest.MonkeyPatch) -> None:
    # repeated rows (the order of their sums shows) and rows out of range (skipped)
    indices = RNG.integers(-3, 53, (3000, 1)).astype(np.int32)
    _both(
        monkeypatch, scatter, "_STARTS_BLOCK", 100, SCATTER, [_spread((50, 8)), indices, _spread((3000, 8))]
    )


TOP_K = """HloModule t
ENTRY e { x = f32[300,500] parameter(0)
  ROOT r = (f32[300,16], s32[300,16]) topk(x), k=16, largest=true }"""


def test_top_k_in_blocks_of_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    x = RNG.integers(0, 50, (300, 500)).astype(np.float32)  # ties everywhere
    x[::7, ::11] = np.nan
    _both(monkeypatch, sorting, "TOP_K_BLOCK", 1000, TOP_K, [x])
