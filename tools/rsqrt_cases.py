"""Cases of make_exactness_fixtures' `rsqrt` family: XLA:CPU's rsqrt, the CPU's estimate refined
(hlo.numerics.xla_rsqrt), over every binade, zeros, subnormals, infinities, NaN and negatives,
for f32 and f64 and every narrow float (computed in f32), complex values (their magnitude's
rsqrt), in fused loops of several lengths, and the layer norms jax writes (`x * rsqrt(v)` and
`x / sqrt(v)`, which XLA's simplifier turns into the former through jax's reshapes). The
estimate is the CPU's: the file records the forms of the machine that made it (`cpu`), and the
test runs it only on such a machine. Dev only."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

from collections.abc import Iterator

import ml_dtypes
import numpy as np

Case = tuple[str, list[np.ndarray], list[str], bool]

_SUM = "sm {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  ROOT r = f32[] add(p, q)\n}\n\n"


def _unary(t: str, dims: str) -> str:
    return (
        f"HloModule m\n\nENTRY main {{\n  p = {t}[{dims}] parameter(0)\n  ROOT r = {t}[{dims}] rsqrt(p)\n}}\n"
    )


def _positive(dtype: type, n: int, rng: np.random.Generator) -> np.ndarray:
    """Every binade (subnormals too), values near 1, then zeros, infinities, NaN, negatives."""
    info = np.finfo(dtype)
    x = np.exp(rng.uniform(np.log(float(info.smallest_subnormal)), np.log(float(info.max)), n))
    x[: n // 4] = rng.uniform(0.25, 4, n // 4)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, info.tiny, np.nextafter(info.tiny, 0), info.smallest_subnormal,
             -info.smallest_subnormal, info.max, 1.0, 4.0]  # fmt: skip
    x[: len(edges)] = edges
    return x.astype(dtype)


def _layer_norm(r: int, c: int, by_sqrt: bool) -> str:
    """jax's layer norm, unoptimized: the mean and variance as sums times 1/c, reshapes between."""
    s = f"f32[{r},{c}]"
    scale = (
        f"  sq = f32[{r},1] sqrt(a)\n  sb = f32[{r},1] broadcast(sq), dimensions={{0,1}}\n  sv = f32[{r}] reshape(sb)\n"
        f"  sx = {s} broadcast(sv), dimensions={{0}}\n  ROOT y = {s} divide(d, sx)"
        if by_sqrt
        else f"  rs = f32[{r},1] rsqrt(a)\n  rv = f32[{r}] reshape(rs)\n  rx = {s} broadcast(rv), dimensions={{0}}\n"
        f"  ROOT y = {s} multiply(d, rx)"
    )
    return (
        "HloModule m\n\n" + _SUM + f"ENTRY main {{\n  x = {s} parameter(0)\n  z = f32[] constant(0)\n"
        f"  n = f32[] constant({c})\n  nb = f32[{r},1] broadcast(n), dimensions={{}}\n"
        f"  sum1 = f32[{r}] reduce(x, z), dimensions={{1}}, to_apply=sm\n  sum1r = f32[{r},1] reshape(sum1)\n"
        f"  m = f32[{r},1] divide(sum1r, nb)\n  mv = f32[{r}] reshape(m)\n  mb = {s} broadcast(mv), dimensions={{0}}\n"
        f"  d = {s} subtract(x, mb)\n  q = {s} multiply(d, d)\n  sum2 = f32[{r}] reduce(q, z), dimensions={{1}}, to_apply=sm\n"
        f"  sum2r = f32[{r},1] reshape(sum2)\n  v = f32[{r},1] divide(sum2r, nb)\n  e = f32[] constant(1e-05)\n"
        f"  eb = f32[{r},1] broadcast(e), dimensions={{}}\n  a = f32[{r},1] add(v, eb)\n" + scale + "\n}\n"
    )


def family_rsqrt() -> Iterator[Case]:
    rng = np.random.default_rng(211)
    for t, dtype in (("f32", np.float32), ("f64", np.float64)):
        for n in (1, 7, 16, 1000, 20000):  # a scalar loop, vector lanes and a tail, long loops
            yield _unary(t, str(n)), [_positive(dtype, max(n, 13), rng)[:n]], [t, t], True
        yield _unary(t, "3,5,7"), [_positive(dtype, 105, rng).reshape(3, 5, 7)], [t, t], True
        yield _unary(t, ""), [np.array(rng.uniform(0.1, 10), dtype)], [t, t], True
    for t, dtype in (("bf16", ml_dtypes.bfloat16), ("f16", np.float16)):  # every value
        yield _unary(t, "65536"), [np.arange(65536, dtype=np.uint16).view(dtype)], [t, t], True
    for t, dtype in (("c64", np.complex64), ("c128", np.complex128)):
        re, im = rng.standard_normal((2, 2000)) * 10.0 ** rng.uniform(-6, 6, (2, 2000))
        z = (re + 1j * im).astype(dtype)
        z[:6] = [0, 1, -1, 1j, -4j, 3 + 4j]
        yield _unary(t, "2000"), [z], [t, t], True
    # in a fused loop: a product and a sum around it
    body = ("  x = f32[64,40] parameter(0)\n  y = f32[64,40] parameter(1)\n  a = f32[64,40] multiply(x, x)\n"
            "  b = f32[64,40] add(a, y)\n  r = f32[64,40] rsqrt(b)\n  ROOT o = f32[64,40] multiply(r, x)")  # fmt: skip
    args = [
        rng.standard_normal((64, 40)).astype(np.float32),
        rng.uniform(0.01, 3, (64, 40)).astype(np.float32),
    ]
    yield "HloModule m\n\nENTRY main {\n" + body + "\n}\n", args, ["f32", "f32", "f32"], True
    for r, c in ((22, 16), (8, 128), (33, 40), (3, 1024)):
        for by_sqrt in (False, True):
            x = (rng.standard_normal((r, c)) * rng.uniform(0.1, 10)).astype(np.float32)
            yield _layer_norm(r, c, by_sqrt), [x], ["f32", "f32"], True
