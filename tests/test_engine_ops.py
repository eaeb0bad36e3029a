"""Single ops against XLA:CPU over every element type they accept and edge values
(tests/golden/ops/*.npz, made by tools/make_op_fixtures.py): integers, predicates, data
movement, comparisons and conversions bit for bit; float arithmetic within rounding."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.numerics import subnormals, xla_rsqrt

OPS = Path(__file__).parent / "golden" / "ops"
FAMILIES = sorted(p.stem for p in OPS.glob("*.npz"))


# Where hlo knowingly differs from XLA:CPU (docs/SEMANTICS.md): where the CPU's flush-to-zero mode
# cannot be set (software flushing), atan2, pow (f64, and both operands of f32), erf (f64) of
# subnormal inputs: XLA:CPU's C library functions see them half-flushed under that mode, which
# software cannot reproduce; and expm1, which returns a subnormal input unflushed (the kernel
# flushes inputs before computing). Elements with a subnormal input are not compared for these
# ops then. The complex ops whose formulas take atan2 of the operand's parts (log, log1p, rsqrt,
# power, atan2) likewise where a part is subnormal.
COMPLEX_ATAN2 = ("log(", "log-plus-one(", "rsqrt(", "power(", "atan2(")


def subnormal_inputs_differ(text: str, types: list[str]) -> bool:
    if subnormals.supported():
        return False
    return (
        "atan2(" in text
        or "erf(" in text
        or "exponential-minus-one(" in text
        or ("power(" in text and types[-1] in ("f32", "bf16", "f16", "f64", "c64", "c128"))
        or (types[0] in ("c64", "c128") and any(op in text for op in COMPLEX_ATAN2))
    )


def subnormal(x: np.ndarray) -> np.ndarray:
    """Elements with a subnormal value (for complex values, a subnormal part)."""
    if x.dtype.kind == "c":
        return subnormal(x.real.copy()) | subnormal(x.imag.copy())
    wide = x.astype(np.float64)
    tiny = np.finfo(np.float32).tiny if x.dtype.itemsize <= 4 else np.finfo(np.float64).tiny
    with np.errstate(invalid="ignore"):
        return (wide != 0) & (np.abs(wide) < tiny)


def cases() -> list[tuple[str, int]]:
    found = []
    for family in FAMILIES:
        with np.load(OPS / f"{family}.npz") as data:
            count = sum(1 for k in data.files if k.endswith("_hlo"))
        found += [(family, k) for k in range(count)]
    return found


_DATA: dict[str, np.lib.npyio.NpzFile] = {}


def data(family: str) -> np.lib.npyio.NpzFile:
    if family not in _DATA:
        _DATA[family] = np.load(OPS / f"{family}.npz")
    return _DATA[family]


def decode(stored: np.ndarray, type_name: str) -> np.ndarray:
    dtype = np.dtype(hlo.parse_shape(f"{type_name}[]").element_type.numpy_dtype)
    if dtype.type.__module__.startswith("ml_dtypes"):  # stored as raw bits
        return stored.view(dtype)
    return stored.astype(dtype, copy=False)


def same_bits(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elementwise: equal bits, or both NaN (XLA and NumPy may differ in NaN payloads)."""
    if got.dtype.kind == "c":
        return same_bits(got.real.copy(), want.real.copy()) & same_bits(got.imag.copy(), want.imag.copy())
    if got.dtype.kind in "fV" and got.dtype != np.bool_:
        wide_got, wide_want = got.astype(np.float64), want.astype(np.float64)
        both_nan = np.isnan(wide_got) & np.isnan(wide_want)
        bits = np.dtype(f"u{got.dtype.itemsize}")
        return both_nan | (got.view(bits) == want.view(bits))
    return got == want


def close(got: np.ndarray, want: np.ndarray, type_name: str) -> np.ndarray:
    rtol = {"f16": 2e-3, "bf16": 1.6e-2, "f32": 2e-6, "f64": 1e-14, "c64": 2e-6, "c128": 1e-14}.get(
        type_name, 0
    )
    g, w = (
        got.astype(np.complex128 if got.dtype.kind == "c" else np.float64),
        want.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
    )
    both_nan = np.isnan(g) & np.isnan(w)
    with np.errstate(all="ignore"):
        ok = (g == w) | (np.abs(g - w) <= rtol * np.abs(w)) | (np.abs(g - w) <= 1e-37)
    return ok | both_nan


@pytest.mark.parametrize(("family", "k"), cases(), ids=lambda x: str(x))
def test_op_matches_xla_cpu(family: str, k: int) -> None:
    check_case(family, k)


@pytest.mark.parametrize(("family", "k"), cases(), ids=lambda x: str(x))
def test_op_matches_xla_cpu_with_software_flushing(family: str, k: int, monkeypatch) -> None:
    """The same cases where the CPU's flush-to-zero mode cannot be set (another platform): the
    kernels flush subnormals in software, with the same results (not the folds whose C functions
    XLA's evaluator calls in that mode: docs/SEMANTICS.md lists them)."""
    if family == "exact_daz_folds":
        pytest.skip("the C functions' own reading of subnormals needs the CPU's mode")
    monkeypatch.setattr(subnormals, "_mode", lambda: None)
    assert not subnormals.supported()
    check_case(family, k)


# families made by XLA:CPU with another thread count than the suite's (conftest)
XLA_THREADS = {"exact_one_thread_sums": "1"}


def check_case(family: str, k: int, options: hlo.RunOptions | None = None) -> None:
    threads = XLA_THREADS.get(family)
    if threads is None:
        _check_case(family, k, options)
        return
    before = os.environ.get("HLO_XLA_THREADS")
    os.environ["HLO_XLA_THREADS"] = threads
    try:
        _check_case(family, k, options)
    finally:
        if before is None:
            del os.environ["HLO_XLA_THREADS"]
        else:
            os.environ["HLO_XLA_THREADS"] = before


def made_elsewhere(d: np.lib.npyio.NpzFile) -> str | None:
    """Why a family's values cannot be had on this machine: XLA:CPU's rsqrt is the CPU's own
    estimate (hlo.numerics.xla_rsqrt), so its fixtures record the vendor and forms they came from."""
    if "cpu" not in d.files:
        return None
    here = xla_rsqrt.machine()
    return None if str(d["cpu"]) == here else f"made on {d['cpu']}, this machine is {here}"


def _check_case(family: str, k: int, options: hlo.RunOptions | None = None) -> None:
    d = data(family)
    elsewhere = made_elsewhere(d)
    if elsewhere is not None:
        pytest.skip(elsewhere)
    text = str(d[f"case{k}_hlo"])
    types = [str(t) for t in d[f"case{k}_types"]]
    args = []
    j = 0
    while f"case{k}_arg{j}" in d.files:
        args.append(decode(d[f"case{k}_arg{j}"], types[j]))
        j += 1
    want = decode(d[f"case{k}_out"], types[-1])
    executable = hlo.compile_module(hlo.parse_module(text), options)
    got = executable(*args)
    again = executable(*args)  # the second call runs the plan's generated code (runtime/straight_line.py)
    assert same_bits(again, got).all()
    assert type(got) is np.ndarray, f"a {type(got).__name__}, not an array"  # never a NumPy scalar
    assert got.dtype == want.dtype and got.shape == want.shape
    ok = same_bits(got, want) if bool(d[f"case{k}_exact"]) else close(got, want, types[-1])
    if subnormal_inputs_differ(text, types):
        for a in (a for a in args if a.shape in (got.shape, ())):
            if a.dtype.kind in "fc" or a.dtype.type.__module__.startswith("ml_dtypes"):
                ok = ok | subnormal(np.broadcast_to(a, got.shape))
    if not ok.all():
        bad = np.flatnonzero(~ok.reshape(-1))[:6]
        flat_args = [np.broadcast_to(a, got.shape).reshape(-1) for a in args if a.shape in (got.shape, ())]
        rows = [
            f"args={[a[i] for a in flat_args]} got={got.reshape(-1)[i]!r} want={want.reshape(-1)[i]!r}"
            for i in bad
        ]
        pytest.fail(
            f"{text.splitlines()[-2].strip()}: {int((~ok).sum())} of {ok.size} differ:\n" + "\n".join(rows)
        )
