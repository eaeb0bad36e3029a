"""Complex dots (c64, c128) as XLA:CPU computes them: its dot thunk hands them to Eigen's tensor
contraction, column-major, so Eigen's rows are the dot's columns (n) and its columns the dot's
rows (m). Measured with jaxlib 0.10.2, whose Eigen is an AVX build without FMA (docs/SEMANTICS.md):

- a matrix product is Eigen's GEBP kernel over k cut into cache blocks. Within a block each
  result keeps four real sums from 0 (re*re, im*im, re*im, im*re of the operands: products
  rounded, then added), joined as re = rr - ii, im = ri + ir; a block is added to the result
  (which starts at +0) after a multiply by alpha = 1 + 0i (an infinite part makes both NaN).
  Columns in groups of Eigen's mr (8 c64, 4 c128) add k in order; the rest, in the rows of
  whole 4-row panels, add even and odd k apart up to the last multiple of 8, then the rest in
  order; rows past the last 4-row panel add in order. The c64 column left over after Eigen's
  smallest vectors (2 values) takes its swapped kernel in the 4-row panels (k mod 4 apart up to
  the last multiple of 4, (l0 + l1) + (l2 + l3), then the rest in order) and complex products
  (re = ac - bd rounded) added in turn past them.
- a dot of vectors (every free dimension 1) is XLA's multiply and reduce: up to 32 products
  one loop from 0 whose real part adds each product's real part (ac - bd, its multiply fused)
  and whose imaginary part takes both of its products as FMAs (ad first, then bc); above 32, the
  complex multiply and XLA's reduce (its tree rewrite).
- a product of one contracted element is XLA's complex multiply (its simplifier's rewrite).
- a vector times a matrix (m = 1; stored [k, n] or [n, k] alike) is Eigen's column-major GEMV:
  complex products added in k order, in blocks of 16 (4 when a column of the matrix is 32,000
  bytes or more) once k is 128 or more, each block added to the result as above.

k is cut into blocks, or between threads, as hlo.numerics.eigen_contraction says."""

from __future__ import annotations

import numpy as np

from . import complex_dot_tier, eigen_contraction, subnormals, threads
from .complex_arith import multiply, multiply_by_invariant
from .complex_steps import Steps, negated
from .numerics import make_complex
from .reduction import float_sum

SMALLEST = {np.dtype(np.complex64): 2, np.dtype(np.complex128): 1}  # Eigen's smallest vector
PANEL = eigen_contraction.NR  # the dot's rows one kernel call takes
FUSED_LOOP = 32  # dots of vectors: at most this many products in one loop
PEEL = eigen_contraction.PEEL
GEMV_WHOLE = 128  # GEMV: below this many k, one block
GEMV_STRIDE_BYTES = 32000


def applies(dtype: np.dtype) -> bool:
    return dtype in SMALLEST


class _Steps(Steps):
    """complex_steps.Steps for the dot's NumPy steps, which run in the CPU's flush-to-zero mode
    where it can be set: flushed in software only where it cannot."""

    def __init__(self, flush: bool) -> None:
        super().__init__(flush and not subnormals.active())

    def mul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self(a * b)

    def add(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self(a + b)

    def sub(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self(a - b)


def _zeros(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.zeros((a.shape[0], a.shape[1], b.shape[2]), a.real.dtype)


def _four_sums(s: _Steps, a: np.ndarray, b: np.ndarray, lanes: int) -> tuple[np.ndarray, np.ndarray]:
    """re, im of a [B, m, k] . b [B, k, n] from the four real sums: `lanes` 1, k in order; 2,
    Eigen's even/odd peel where its smaller vectors take the columns (up to the last multiple of
    8, the two added, then the rest in order); 4, its swapped kernel for the last column in
    4-row panels (k mod 4 apart up to the last multiple of 4, (l0 + l1) + (l2 + l3), then the
    rest in order)."""
    k = a.shape[2]
    # the lhs's parts stored k-major, so that each step reads a contiguous column
    ar, ai = (np.ascontiguousarray(np.moveaxis(p, 2, 1)) for p in (a.real, a.imag))
    br, bi = np.ascontiguousarray(b.real), np.ascontiguousarray(b.imag)
    apart = [[_zeros(a, b) for _ in range(4)] for _ in range(lanes)]
    split = k - k % (PEEL if lanes == 2 else lanes) if lanes > 1 else 0
    sums = apart[0]
    product = _zeros(a, b)
    for j in range(k):
        acc = apart[j % lanes] if j < split else sums
        x_r, x_i, y_r, y_i = ar[:, j, :, None], ai[:, j, :, None], br[:, None, j], bi[:, None, j]
        for t, (p, q) in enumerate(((x_r, y_r), (x_i, y_i), (x_r, y_i), (x_i, y_r))):
            if s.flush:
                acc[t] = s.add(acc[t], s.mul(p, q))
            else:
                np.multiply(p, q, out=product)
                np.add(acc[t], product, out=acc[t])
        if j == split - 1:
            if lanes == 2:
                sums = [s.add(e, o) for e, o in zip(*apart)]
            else:
                sums = [s.add(s.add(l0, l1), s.add(l2, l3)) for l0, l1, l2, l3 in zip(*apart)]
    rr, ii, ri, ir = sums
    return s.sub(rr, ii), s.add(ir, ri)


def _complex_products(s: _Steps, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """re, im of a [B, m, k] . b [B, k, n] as complex products (ac - bd, ad + bc) added in k
    order."""
    re, im = _zeros(a, b), _zeros(a, b)
    for j in range(a.shape[2]):
        x_r, x_i = a.real[:, :, j, None], a.imag[:, :, j, None]
        y_r, y_i = b.real[:, None, j], b.imag[:, None, j]
        re = s.add(re, s.sub(s.mul(x_r, y_r), s.mul(x_i, y_i)))
        im = s.add(im, s.add(s.mul(x_r, y_i), s.mul(x_i, y_r)))
    return re, im


def _add_block(s: _Steps, out: np.ndarray, re: np.ndarray, im: np.ndarray) -> None:
    """out += (1 + 0i) * (re + im i): re - im*0, im + re*0 (NaN where a part is infinite)."""
    re2 = s.sub(re, im * 0)
    im2 = s.add(im, re * 0)
    out.real = s.add(out.real, re2)
    out.imag = s.add(out.imag, im2)


def _gemm_block(s: _Steps, a: np.ndarray, b: np.ndarray, out: np.ndarray, jit: str, tile: int | None) -> None:
    """One k slice of the product added to `out`, Eigen's kernel called on tiles of `tile` of
    the dot's columns (all at once for None)."""
    n = b.shape[2]
    step = tile or n
    for start in range(0, n, step):
        _gemm_tile(s, a, b[:, :, start : start + step], out[:, :, start : start + step], jit)


def _gemm_tile(s: _Steps, a: np.ndarray, b: np.ndarray, out: np.ndarray, jit: str) -> None:
    m, n = a.shape[1], b.shape[2]
    whole = n // eigen_contraction.MR[a.dtype] * eigen_contraction.MR[a.dtype]
    packed = n // SMALLEST[a.dtype] * SMALLEST[a.dtype]
    panels = m // PANEL * PANEL
    re, im = _zeros(a, b), _zeros(a, b)
    regions = (  # (rows, columns, the kernel's lanes for them)
        (slice(None), slice(0, whole), 1),
        (slice(0, panels), slice(whole, packed), 2),
        (slice(panels, m), slice(whole, packed), 1),
        (slice(0, panels), slice(packed, n), 4),
    )
    for rows, cols, lanes in regions:
        sub_a, sub_b = a[:, rows], b[:, :, cols]
        if not (sub_a.shape[1] and sub_b.shape[2]):
            continue
        compiled = None if (lanes > 1 or s.flush) else complex_dot_tier.four_sums(sub_a, sub_b, jit)
        if compiled is not None:
            rr, ii, ri, ir = compiled
            re[:, rows, cols], im[:, rows, cols] = s.sub(rr, ii), s.add(ir, ri)
        else:
            re[:, rows, cols], im[:, rows, cols] = _four_sums(s, sub_a, sub_b, lanes)
    if panels < m and packed < n:
        tail = _complex_products(s, a[:, panels:], b[:, :, packed:])
        re[:, panels:, packed:], im[:, panels:, packed:] = tail
    _add_block(s, out, re, im)


def matmul(a: np.ndarray, b: np.ndarray, flush: bool, workers: int, jit: str = "auto") -> np.ndarray:
    """a [B, m, k] . b [B, k, n] (complex, flushed already) as XLA:CPU's Eigen product on
    `workers` threads, one product of each batch (its main sums compiled as RunOptions.jit
    says: hlo.numerics.complex_dot_tier)."""
    s = _Steps(flush)
    parts = []
    with np.errstate(all="ignore"):
        plan = eigen_contraction.schedule(a.dtype, b.shape[2], a.shape[1], a.shape[2], workers)
        for slices in plan.parts:
            out = np.zeros((a.shape[0], a.shape[1], b.shape[2]), a.dtype)
            for start, stop in slices:
                _gemm_block(s, a[:, :, start:stop], b[:, start:stop], out, jit, plan.rows)
            parts.append(out)
        return parts[0] if len(parts) == 1 else eigen_contraction.combine(a.dtype, parts, s.add)


def vector_matrix(a: np.ndarray, b: np.ndarray, flush: bool) -> np.ndarray:
    """a [B, 1, k] . b [B, k, n] as Eigen's column-major GEMV."""
    s = _Steps(flush)
    k, n = b.shape[1:]
    block = max(k, 1) if k < GEMV_WHOLE else 16 if n * b.dtype.itemsize < GEMV_STRIDE_BYTES else 4
    out = np.zeros((b.shape[0], 1, n), b.dtype)
    with np.errstate(all="ignore"):
        for start in range(0, k, block):
            re, im = _complex_products(s, a[:, :, start : start + block], b[:, start : start + block])
            _add_block(s, out, re, im)
    return out


def vector_dot(a: np.ndarray, b: np.ndarray, flush: bool) -> np.ndarray:
    """sum(a * b) over the last axis of two [batch, k] complex arrays (flushed already)."""
    k = a.shape[1]
    with np.errstate(all="ignore"):
        if k > FUSED_LOOP:
            return float_sum(multiply(a, b, flush), 1, flush)
        s = _Steps(flush)
        re = np.zeros(a.shape[0], a.real.dtype)
        im = re.copy()
        for j in range(k):
            x_r, x_i, y_r, y_i = a.real[:, j], a.imag[:, j], b.real[:, j], b.imag[:, j]
            re = s.add(re, s.fma(x_r, y_r, negated(s.mul(x_i, y_i))))
            im = s.fma(x_i, y_r, s.fma(x_r, y_i, im))
        return make_complex(re, im).astype(a.dtype, copy=False)


def dot(a: np.ndarray, b: np.ndarray, flush: bool, jit: str = "auto") -> np.ndarray:
    """a [B, m, k] . b [B, k, n] (complex, flushed already) as XLA:CPU computes it."""
    _, m, k = a.shape
    n = b.shape[2]
    if k == 1:  # XLA's simplifier: a multiply of broadcasts, the rhs's invariant where n is 1
        with np.errstate(all="ignore"):
            return (multiply_by_invariant if n == 1 and m > 1 else multiply)(a, b, flush)
    if m == 1 and n == 1:
        return vector_dot(a[:, 0, :], b[:, :, 0], flush)[:, None, None]
    if m == 1:
        return vector_matrix(a, b, flush)
    return matmul(a, b, flush, threads.xla_threads(), jit)
