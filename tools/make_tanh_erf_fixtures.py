"""Make tests/golden/ops/exact_tanh_erf.npz: tanh (f32, f64, f16, bf16) and erf (f32, f16, bf16;
f64 erf is the C library's, in exact_libm.npz), which XLA:CPU computes with its own rational
approximations (hlo.numerics.xla_tanh, xla_erf), bit for bit: values of every scale, the edges
(zeros, infinities, NaN, subnormals, the extremes) and each side of the approximations' bounds
(the clamps, the small-argument and saturation bounds). Same case format as make_op_fixtures.py.
Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_tanh_erf_fixtures.py            # write the fixture
    python tools/make_tanh_erf_fixtures.py --check N  # also compare hlo with XLA:CPU on N random
                                                      # values per function and type (and every
                                                      # f16 and bf16 value), printing mismatches
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_exactness_fixtures import _libm_values
from make_op_fixtures import DTYPES, Case, module, run_on_cpu, write_family

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ops"
FUNCTIONS = {"tanh": ("f32", "f64", "f16", "bf16"), "erf": ("f32", "f16", "bf16")}
# The approximations' bounds: clamps (tanh f32 and f64, both of XLA's), the small-argument
# bound, the saturation bounds (tanh 20, erf 3.8325...)
BOUNDS = [7.99881172180175781, 7.90531110763549805, 17.714196154005176, 17.6610191624600077, 0.0004, 20.0,
          3.832506856900711, 9.0]  # fmt: skip


def _near_bounds(t: str) -> np.ndarray:
    """Each bound and its neighbours, a few steps of the type's spacing either side, both signs."""
    dtype = np.dtype(DTYPES[t]) if t in ("f32", "f64") else np.dtype(np.float32)
    values = []
    for b in BOUNDS:
        v = dtype.type(b)
        for _ in range(3):
            v = np.nextafter(v, dtype.type(0))
        for _ in range(7):
            values += [v, -v]
            v = np.nextafter(v, dtype.type(np.inf))
    return np.array(values, dtype).astype(DTYPES[t])


def values(t: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """n values: the bounds' neighbours, then the exactness fixtures' values of every scale and
    edges, then uniform values where the approximations work (|x| < 21)."""
    near = _near_bounds(t)
    wide = _libm_values(t, n // 2, rng)
    with np.errstate(over="ignore"):
        inner = rng.uniform(-21, 21, n - near.size - wide.size).astype(DTYPES[t])
    return np.concatenate([near, wide, inner])


def family_tanh_erf() -> Iterator[Case]:
    rng = np.random.default_rng(2317)
    n = 2048
    for op, types in FUNCTIONS.items():
        for t in types:
            x = values(t, n, rng)
            yield module(f"  a = {t}[{n}] parameter(0)\n  ROOT r = {t}[{n}] {op}(a)"), [x], [t, t], True


def check(count: int) -> None:
    """hlo against XLA:CPU on `count` random values per function and type: random bit patterns
    (every scale, NaN payloads, subnormals), uniform values and values spread over magnitudes
    below the saturation bound; every value for f16 and bf16."""
    import hlo

    rng = np.random.default_rng(9)
    for op, types in FUNCTIONS.items():
        for t in types:
            dtype = DTYPES[t]
            if t in ("f16", "bf16"):
                x = np.arange(1 << 16, dtype=np.uint16).view(dtype)
            else:
                bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
                info = np.iinfo(bits)
                raw = rng.integers(0, int(info.max), count // 2, dtype=bits, endpoint=True).view(dtype)
                spread = rng.choice([-1, 1], count // 4) * 10.0 ** rng.uniform(-12, 1.35, count // 4)
                uniform = rng.uniform(-21, 21, count - raw.size - spread.size)
                x = np.concatenate([raw, spread.astype(dtype), uniform.astype(dtype)])
            n = x.size
            text = module(f"  a = {t}[{n}] parameter(0)\n  ROOT r = {t}[{n}] {op}(a)")
            (want,) = run_on_cpu(text, [x])
            got = hlo.compile_module(hlo.parse_module(text))(x)
            bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
            differ = got.view(bits) != want.view(bits)
            nan = np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))
            payloads = int((differ & nan).sum())
            print(f"{op} {t}: {n} values, {int(differ.sum())} differ ({payloads} of them NaN payloads)")


def main(args: list[str]) -> None:
    write_family(OUT / "exact_tanh_erf.npz", family_tanh_erf())
    if args[:1] == ["--check"]:
        check(int(args[1]))


if __name__ == "__main__":
    main(sys.argv[1:])
