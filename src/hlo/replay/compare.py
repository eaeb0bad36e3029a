"""Comparing results with a reference (XLA's recorded result, a .npz, an XLA:CPU run): per output
the mismatch count, the worst element (index, both values, absolute and relative error) and the
first bad index.

An element matches when |got - want| <= atol + rtol * |want|, as numpy.isclose; NaN matches NaN,
infinities match when equal, and with `signed_zeros` -0.0 does not match +0.0. Integers and
predicates must be equal. Default tolerances follow the element type's precision; XLA:CPU fuses
multiply-adds and reorders reductions, so float results differ from hlo's in the last bits."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# dtype name -> (rtol, atol)
TOLERANCES: dict[str, tuple[float, float]] = {
    "float64": (1e-9, 1e-12),
    "complex128": (1e-9, 1e-12),
    "float32": (1e-4, 1e-5),
    "complex64": (1e-4, 1e-5),
    "float16": (2e-3, 1e-3),
    "bfloat16": (2e-2, 1e-2),
}
FP8_TOLERANCE = (0.13, 0.02)


def default_tolerance(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for an element type: exact for integers and predicates."""
    if dtype.kind in "biu":
        return (0.0, 0.0)
    return TOLERANCES.get(dtype.name, FP8_TOLERANCE)


@dataclass(frozen=True)
class OutputReport:
    name: str
    shape: tuple[int, ...]
    dtype: str
    mismatches: int
    total: int
    worst_index: tuple[int, ...] | None = None
    got: object = None
    want: object = None
    abs_error: float = 0.0
    rel_error: float = 0.0
    first_bad: tuple[int, ...] | None = None
    problem: str = ""  # a shape or type difference: no element comparison

    @property
    def ok(self) -> bool:
        return not self.problem and self.mismatches == 0

    def describe(self) -> str:
        if self.problem:
            return f"{self.name}: {self.problem}"
        if self.ok:
            return f"{self.name}: match ({self.total} elements, {self.dtype}{list(self.shape)})"
        return (
            f"{self.name}: {self.mismatches} of {self.total} elements differ; "
            f"worst at {list(self.worst_index or ())}: got {self.got}, want {self.want} "
            f"(abs error {self.abs_error:.3g}, rel error {self.rel_error:.3g}); "
            f"first bad index {list(self.first_bad or ())}"
        )


def _as_float(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "c":
        return a.astype(np.complex128)
    if a.dtype.kind in "biu":
        return a.astype(np.float64) if a.dtype.kind != "b" else a.astype(np.int64).astype(np.float64)
    return a.astype(np.float64)


def compare_output(
    name: str,
    got: np.ndarray,
    want: np.ndarray,
    rtol: float | None = None,
    atol: float | None = None,
    signed_zeros: bool = False,
) -> OutputReport:
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return OutputReport(
            name,
            got.shape,
            str(got.dtype),
            0,
            got.size,
            problem=f"shape {list(got.shape)} differs from the reference's {list(want.shape)}",
        )
    if got.dtype != want.dtype:
        return OutputReport(
            name,
            got.shape,
            str(got.dtype),
            0,
            got.size,
            problem=f"type {got.dtype} differs from the reference's {want.dtype}",
        )
    d_rtol, d_atol = default_tolerance(got.dtype)
    rtol = d_rtol if rtol is None else rtol
    atol = d_atol if atol is None else atol
    g, w = _as_float(got), _as_float(want)
    with np.errstate(all="ignore"):
        err = np.abs(g - w)
        allowed = atol + rtol * np.abs(w)
        bad = ~(err <= allowed)
        both_nan = (
            np.isnan(g) & np.isnan(w) if g.dtype.kind != "c" else np.isnan(g).astype(bool) & np.isnan(w)
        )
        same_inf = (g == w) & ~np.isnan(g)
        bad &= ~(both_nan | same_inf)
        if signed_zeros and g.dtype.kind == "f":
            bad |= (g == 0) & (w == 0) & (np.signbit(g) != np.signbit(w))
    count = int(bad.sum())
    if count == 0:
        return OutputReport(name, got.shape, str(got.dtype), 0, got.size)
    with np.errstate(all="ignore"):
        score = np.where(
            bad,
            np.nan_to_num(err / np.maximum(allowed, np.finfo(np.float64).tiny), nan=np.inf, posinf=np.inf),
            -1.0,
        )
    worst = np.unravel_index(int(np.argmax(score)), got.shape)
    first = np.unravel_index(int(np.argmax(bad.reshape(-1))), got.shape)
    abs_err = float(np.abs(err[worst])) if got.ndim else float(np.abs(err))
    want_mag = float(np.abs(w[worst]))
    rel = abs_err / want_mag if want_mag else float("inf")
    return OutputReport(
        name,
        got.shape,
        str(got.dtype),
        count,
        got.size,
        tuple(int(i) for i in worst),
        got[worst].item(),
        want[worst].item(),
        abs_err,
        rel,
        tuple(int(i) for i in first),
    )


def compare_outputs(
    names: list[str],
    got: list[np.ndarray],
    want: list[np.ndarray],
    rtol: float | None = None,
    atol: float | None = None,
    signed_zeros: bool = False,
) -> list[OutputReport]:
    return [compare_output(n, g, w, rtol, atol, signed_zeros) for n, g, w in zip(names, got, want)]


def verdict(reports: list[OutputReport]) -> str:
    """One line: "match" or "mismatch" with the worst output."""
    bad = [r for r in reports if not r.ok]
    if not bad:
        return f"match ({len(reports)} output{'s' if len(reports) != 1 else ''})"
    worst = max(bad, key=lambda r: (bool(r.problem), r.rel_error if r.rel_error == r.rel_error else 0.0))
    return f"mismatch ({len(bad)} of {len(reports)} outputs): {worst.describe()}"
