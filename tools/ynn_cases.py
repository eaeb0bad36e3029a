"""Cases of make_exactness_fixtures' `ynn_elementwise` family: f32 exp, expm1, tanh and logistic
that XLA:CPU hands to YNNPACK with a large reduce (hlo.numerics.ynn_fusion, ynn_exp): a max
reduce grown down into `op(x - max)`, a sum grown up into its operand, softmax as jax writes
it, and the cases that stay XLA's (under 4096 elements, an op with a user outside the fusion,
an op alone). Arguments spread over exp's whole range, underflow and overflow included. Dev only."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

Case = tuple[str, list[np.ndarray], list[str], bool]

_REDUCERS = (
    "mx {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  ROOT r = f32[] maximum(p, q)\n}\n\n"
    "sm {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  ROOT r = f32[] add(p, q)\n}\n\n"
)
_MIN = "mn {{\n  p = {t}[] parameter(0)\n  q = {t}[] parameter(1)\n  ROOT r = {t}[] minimum(p, q)\n}}\n\n"
_OPS = ("exponential", "exponential-minus-one", "tanh", "logistic")


def _module(body: str) -> str:
    return "HloModule m\n\n" + _REDUCERS + "ENTRY main {\n" + body + "\n}\n"


def _minus_max(r: int, c: int, op: str) -> str:
    s = f"f32[{r},{c}]"
    return _module(
        f"  x = {s} parameter(0)\n  lo = f32[] constant(-inf)\n  m = f32[{r}] reduce(x, lo), dimensions={{1}}, to_apply=mx\n"
        f"  b = {s} broadcast(m), dimensions={{0}}\n  d = {s} subtract(x, b)\n  ROOT e = {s} {op}(d)"
    )


def _values(shape: tuple[int, ...], rng: np.random.Generator, scale: float) -> np.ndarray:
    x = (rng.standard_normal(shape) * scale).astype(np.float32)
    x.reshape(-1)[:: max(1, x.size // 37)] *= 30  # some arguments far out: underflow, overflow
    return x


def _of_min(t: str, op: str, r: int, c: int) -> str:
    """op(x - min(y)) with y zeros: the op sees x itself, in the min reduce's YNNPACK fusion."""
    s = f"{t}[{r},{c}]"
    return (
        "HloModule m\n\n"
        + _MIN.format(t=t)
        + f"ENTRY main {{\n  x = {s} parameter(0)\n  y = {s} parameter(1)\n"
        f"  hi = {t}[] constant(inf)\n  m = {t}[{r}] reduce(y, hi), dimensions={{1}}, to_apply=mn\n"
        f"  b = {s} broadcast(m), dimensions={{0}}\n  d = {s} subtract(x, b)\n  ROOT u = {s} {op}(d)\n}}\n"
    )


def _arguments(t: str, op: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Values over the op's whole range, signs and edges (zeros, subnormals, infinities, NaN)."""
    dtype = np.float32 if t == "f32" else np.float64
    info = np.finfo(dtype)
    if op in ("log", "log-plus-one", "rsqrt"):
        x = np.exp(rng.uniform(np.log(info.tiny), np.log(info.max) - 1, n))  # every binade
        x[: n // 8] = rng.uniform(0.25, 4, n // 8)
        x[n // 8 : n // 4] *= -1 if op != "log-plus-one" else 0
        if op == "log-plus-one":
            x[n // 8 : n // 4] = -rng.uniform(0, 1, n // 8)
    else:
        x = rng.standard_normal(n) * rng.choice([0.01, 1, 5, 30, 300], n)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, info.tiny, -info.tiny, info.tiny / 4, 1.0, -1.0]
    x[: len(edges)] = edges
    return x.astype(dtype)


def family_ynn_elementwise() -> Iterator[Case]:
    rng = np.random.default_rng(101)
    for t in ("f32", "f64"):  # each function of YNNPACK's over its range, both types
        for op in (*_OPS, "log", "log-plus-one", "erf", "rsqrt"):
            x = _arguments(t, op, 16 * 512, rng).reshape(16, 512)
            yield _of_min(t, op, 16, 512), [x, np.zeros_like(x)], [t, t, t], True
    for op in _OPS:
        for r, c in ((64, 64), (48, 89), (8, 1024), (64, 63)):  # (64, 63): 4032 elements, XLA's own
            for scale in (3.0, 0.01):
                yield _minus_max(r, c, op), [_values((r, c), rng, scale)], ["f32", "f32"], True
    for op in _OPS:  # a sum grown up into its operand: YNNPACK's op
        yield (
            _module(f"  x = f32[32,128] parameter(0)\n  e = f32[32,128] {op}(x)\n  z = f32[] constant(0)\n"
                    "  ROOT s = f32[32] reduce(e, z), dimensions={1}, to_apply=sm"),
            [_values((32, 128), rng, 3.0)],
            ["f32", "f32"],
            True,
        )  # fmt: skip
    # the op read by the sum and by an add the sum's fusion takes: YNNPACK's; and by a cosine: XLA's
    head = ("  x = f32[32,128] parameter(0)\n  e = f32[32,128] exponential(x)\n  z = f32[] constant(0)\n"
            "  s = f32[32] reduce(e, z), dimensions={1}, to_apply=sm\n  b = f32[32,128] broadcast(s), dimensions={0}\n")  # fmt: skip
    for tail in (
        "  ROOT a = f32[32,128] add(e, b)",
        "  c = f32[32,128] cosine(e)\n  ROOT a = f32[32,128] add(c, b)",
    ):
        yield _module(head + tail), [_values((32, 128), rng, 3.0)], ["f32", "f32"], True
    yield (  # an op alone starts nothing: XLA's exp
        _module("  x = f32[64,128] parameter(0)\n  ROOT e = f32[64,128] exponential(x)"),
        [_values((64, 128), rng, 3.0)],
        ["f32", "f32"],
        True,
    )
    # softmax as jax writes it: max with -inf, reshapes, the divide by the sums' broadcast
    s = "f32[40,128]"
    yield (
        _module(f"  x = {s} parameter(0)\n  lo = f32[] constant(-inf)\n  m = f32[40] reduce(x, lo), dimensions={{1}}, to_apply=mx\n"
                "  nb = f32[40] broadcast(lo), dimensions={}\n  mm = f32[40] maximum(m, nb)\n  mr = f32[40,1] reshape(mm)\n"
                f"  mv = f32[40] reshape(mr)\n  mb = {s} broadcast(mv), dimensions={{0}}\n  d = {s} subtract(x, mb)\n  e = {s} exponential(d)\n"
                "  z = f32[] constant(0)\n  t = f32[40] reduce(e, z), dimensions={1}, to_apply=sm\n"
                f"  tb = {s} broadcast(t), dimensions={{0}}\n  ROOT q = {s} divide(e, tb)"),
        [_values((40, 128), rng, 3.0)],
        ["f32", "f32"],
        True,
    )  # fmt: skip
