"""Make tests/golden/ops/exact_elementwise_folds.npz: elementwise ops of constants, which XLA
folds at compile time with the host's C math library, not with XLA:CPU's kernels
(hlo.numerics.libm_fold): StableHLO's folder first, in double, then XLA's evaluator on what it
left. Per op and float type, values where the folded value and the kernel's differ (picked by
running the same op on a parameter), with edges, for each folder; broadcasts of constants,
iotas beside a constant, chains across both folders. Same case format as make_op_fixtures.py.
Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_fold_fixtures.py [elementwise_folds extreme_folds subnormal_folds daz_folds]
"""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_op_fixtures import DTYPES, Case, module, run_on_cpu, write_family

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ops" / "exact_elementwise_folds.npz"
UNARY = ("exponential", "exponential-minus-one", "log", "log-plus-one", "logistic", "rsqrt", "cbrt", "sine",
         "cosine", "tan", "tanh", "erf", "sqrt")  # fmt: skip
BINARY = ("power", "atan2")
TYPES = ("f32", "f64", "bf16", "f16")
EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, np.inf, -np.inf, np.nan, 100.0, 88.7, 1e5, 709.0, 3.0, -2.5]


def _literal(a: np.ndarray) -> str:
    return "{" + ", ".join(repr(float(v)) for v in a) + "}"


def _pool(t: str, n: int, rng: np.random.Generator) -> np.ndarray:
    x = np.concatenate(
        [rng.standard_normal(n // 2) * 3, rng.uniform(-30, 30, n // 4), np.exp(rng.uniform(-20, 20, n // 4))]
    )
    with np.errstate(all="ignore"):
        return x if t == "f64" else x.astype(np.float32).astype(DTYPES[t])


def _differing(text_const: str, text_param: str, args: list[np.ndarray], keep: int) -> np.ndarray:
    """Indices where the folded value differs from XLA:CPU's kernel (then a few others)."""
    (folded,) = run_on_cpu(text_const, [])
    (kernel,) = run_on_cpu(text_param, args)
    f, k = folded.astype(np.float64), kernel.astype(np.float64)
    same = (f == k) | (np.isnan(f) & np.isnan(k))
    order = np.concatenate([np.flatnonzero(~same), np.flatnonzero(same)])
    return np.sort(order[:keep])


def _zeros(t: str, n: int) -> str:
    """`z`: zeros XLA folds but StableHLO's folder does not (an iota times a constant of +0 and
    -0, which is no splat), so an op of `a0 + z` is left to XLA's evaluator."""
    signs = np.where(np.arange(n) % 2 == 0, 0.0, -0.0)
    return f"  i = {t}[{n}] iota(), iota_dimension=0\n  zc = {t}[{n}] constant({_literal(signs)})\n  z = {t}[{n}] multiply(i, zc)\n"


def _op_cases(t: str, op: str, rng: np.random.Generator, stage: str) -> Case:
    """op of constants, its values picked where the folded value and XLA:CPU's kernel differ.
    `stage`: "mlir" (constants StableHLO's folder takes; positive for log and rsqrt), "mixed"
    (with values <= 0, which it refuses for log and rsqrt) or "xla" (left to XLA's evaluator)."""
    pool = [_pool(t, 2000, rng) for _ in range(2 if op in BINARY else 1)]
    if stage == "mlir":
        pool[0] = np.abs(pool[0])
    if op == "power":
        pool[1] = np.concatenate([np.round(pool[1][:200]), pool[1][200:] / 4]).astype(pool[1].dtype)
    names = "ab"[: len(pool)]

    def text(values: list[np.ndarray], params: bool) -> str:
        m = values[0].size
        decl = "".join(
            f"  {v} = {t}[{m}] parameter({k})\n" if params else f"  {v} = {t}[{m}] constant({_literal(p)})\n"
            for k, (v, p) in enumerate(zip(names, values))
        )
        call = f"{op}({', '.join(names)})"
        if stage == "xla" and not params:
            decl = _zeros(t, m) + decl.replace("  a = ", "  a0 = ") + f"  a = {t}[{m}] add(a0, z)\n"
        return module(decl + f"  ROOT r = {t}[{m}] {call}")

    keep = _differing(text(pool, False), text(pool, True), pool, 24)
    edges = [x for x in EDGES if stage != "mlir" or not x <= 0]  # (NaN stays)
    picked = [np.concatenate([p[keep], np.array(edges).astype(p.dtype)]) for p in pool]
    return text(picked, False), [], [t], True


def family_elementwise_folds() -> Iterator[Case]:
    rng = np.random.default_rng(22)
    for t in TYPES:
        for op in UNARY + BINARY:
            yield _op_cases(t, op, rng, "xla")
            yield _op_cases(t, op, rng, "mixed")
            if op in ("log", "rsqrt", "sqrt"):
                yield _op_cases(t, op, rng, "mlir")
    for t in ("f32", "bf16", "f64"):
        # a broadcast of a scalar is a splat to StableHLO's folder: folded there, in double
        yield (
            module(
                f"  c = {t}[] constant(2.4844697)\n  b = {t}[4,300] broadcast(c), dimensions={{}}\n  ROOT r = {t}[4,300] exponential(b)"
            ),
            [],
            [t],
            True,
        )
        # another broadcast it leaves; XLA's simplifier applies the op first, its evaluator folds it
        yield (module(f"  c = {t}[3] constant({{-2.641129, 1.0139161, 0.9360656}})\n  b = {t}[3,200] broadcast(c), dimensions={{0}}\n"
                      f"  ROOT r = {t}[3,200] tanh(b)"), [], [t], True)  # fmt: skip
        x = _pool(t, 64, rng)
        # an iota: XLA folds the chain (its evaluator), StableHLO's folder none of it
        yield (module(f"  c = {t}[64] constant({_literal(x)})\n  k = {t}[] constant(0.375)\n  b = {t}[64] broadcast(k), dimensions={{}}\n"
                      f"  i = {t}[64] iota(), iota_dimension=0\n  m = {t}[64] multiply(c, b)\n  s = {t}[64] add(m, i)\n"
                      f"  e = {t}[64] sine(s)\n  ROOT r = {t}[64] logistic(e)"), [], [t], True)  # fmt: skip
        # chains: both in double; log refused (a value <= 0), then tanh left to XLA too; an op it
        # has no folder for after one it folds
        for inner, outer in (("sine", "tanh"), ("log", "tanh"), ("exponential", "log-plus-one")):
            yield (
                module(
                    f"  c = {t}[64] constant({_literal(x)})\n  e = {t}[64] {inner}(c)\n  ROOT r = {t}[64] {outer}(e)"
                ),
                [],
                [t],
                True,
            )
    # subnormal inputs in a small array: neither folder flushes them (XLA:CPU's kernels would)
    for t, tiny in (("f32", "1e-40"), ("bf16", "9.18355e-41")):
        for op in ("sqrt", "log", "rsqrt", "exponential-minus-one", "sine", "erf"):
            yield module(f"  c = {t}[3] constant({{{tiny}, 2, 3}})\n  ROOT r = {t}[3] {op}(c)"), [], [t], True


def _rows(a: np.ndarray) -> str:
    return "{" + ", ".join(_rows(r) for r in a) + "}" if a.ndim > 1 else _literal(a)


def family_extreme_folds() -> Iterator[Case]:
    """max/min reduces of constants, which XLA's evaluator folds from the init value in row-major
    order (NaN propagated, unlike XLA:CPU's kernels over 4096+ elements, which skip it; a tie of
    zeros keeps the accumulator); short ones, which XLA:CPU's tree rewrite splits first."""
    rng = np.random.default_rng(23)
    for t in ("f32", "f64"):
        for op, init in (("maximum", "-inf"), ("minimum", "inf"), ("maximum", "-0.0"), ("minimum", "0")):
            comp = f"{op} {{\n  p = {t}[] parameter(0)\n  q = {t}[] parameter(1)\n  ROOT r = {t}[] {op}(p, q)\n}}\n\n"
            for shape, dims, nan in (((4, 3000), "1", True), ((4, 3000), "1", False), ((3000, 3), "0", False),
                                     ((2, 50, 60), "1,2", False), ((6, 40), "1", True), ((5000,), "0", False)):  # fmt: skip
                pool = [0.0, -0.0, -1.0] + ([np.nan, -np.nan] if nan else [])
                x = rng.choice(np.array(pool), size=shape).astype(DTYPES[t])
                kept = [str(n) for d, n in enumerate(shape) if str(d) not in dims.split(",")]
                dims_text = ",".join(map(str, shape))
                body = (f"  x = {t}[{dims_text}] constant({_rows(x)})\n  z = {t}[] constant({init})\n"
                        f"  ROOT r = {t}[{','.join(kept)}] reduce(x, z), dimensions={{{dims}}}, to_apply={op}")  # fmt: skip
                yield "HloModule m\n\n" + comp + "ENTRY main {\n" + body + "\n}\n", [], [t], True


def _subnormal_values(t: str) -> np.ndarray:
    """Subnormals of `t` (both signs), zeros, and normal values whose products, sums and
    quotients with them land among the subnormals."""
    tiny = float(ml_dtypes.finfo(DTYPES[t]).smallest_normal)
    values = np.array(
        [tiny / 3, -tiny / 7, tiny * 0.75, 0.0, -0.0, 1.5, -0.25, tiny * 1.25, 3.0, -tiny / 1.5]
    )
    return values.astype(DTYPES[t]).astype(np.float64)  # (as the type holds them)


def family_subnormal_folds() -> Iterator[Case]:
    """Ops of constants with subnormal values: StableHLO's folder computes them without flushing
    (multiply(1e-40, 1.5) folds to 1.5e-40, compare(1e-40, 0) is not EQ), XLA's evaluator, on
    what it leaves (an op of an iota), and XLA:CPU's kernels (an op of a parameter) flush them."""
    binary = ("add", "subtract", "multiply", "divide", "maximum", "minimum", "remainder")
    unary = ("negate", "abs", "sign", "round-nearest-even", "round-nearest-afz")
    for t in ("f32", "f64", "bf16", "f16"):
        x = _subnormal_values(t)
        y = np.roll(x, 3)
        n = x.size
        consts = f"  a = {t}[{n}] constant({_literal(x)})\n  b = {t}[{n}] constant({_literal(y)})\n"
        for op in binary:
            yield module(consts + f"  ROOT r = {t}[{n}] {op}(a, b)"), [], [t], True
        for op in unary:
            yield module(consts + f"  ROOT r = {t}[{n}] {op}(a)"), [], [t], True
        for direction in ("EQ", "NE", "LT", "GE"):
            yield (
                module(consts + f"  ROOT r = pred[{n}] compare(a, b), direction={direction}"),
                [],
                ["pred"],
                True,
            )
        yield (
            module(
                consts + f"  p = pred[{n}] compare(a, b), direction=GT\n  ROOT r = {t}[{n}] select(p, a, b)"
            ),
            [],
            [t],
            True,
        )
        yield (
            module(
                consts
                + f"  l = {t}[] constant(0)\n  h = {t}[] constant(1)\n  ROOT r = {t}[{n}] clamp(l, a, h)"
            ),
            [],
            [t],
            True,
        )
        # chains: folded without flushing throughout; then an op it leaves (expm1: XLA's
        # evaluator, flushing) and an op of a parameter (XLA:CPU's kernel, flushing)
        yield (
            module(
                consts
                + f"  m = {t}[{n}] multiply(a, b)\n  s = {t}[{n}] add(m, a)\n  ROOT r = {t}[{n}] negate(s)"
            ),
            [],
            [t],
            True,
        )
        yield (
            module(consts + f"  m = {t}[{n}] multiply(a, b)\n  ROOT r = {t}[{n}] exponential-minus-one(m)"),
            [],
            [t],
            True,
        )
        yield (
            module(consts + f"  i = {t}[{n}] iota(), iota_dimension=0\n  ROOT r = {t}[{n}] multiply(a, i)"),
            [],
            [t],
            True,
        )
        p = np.linspace(1, 2, n).astype(DTYPES[t])
        yield (module(consts + f"  q = {t}[{n}] parameter(0)\n  m = {t}[{n}] multiply(a, b)\n  ROOT r = {t}[{n}] multiply(m, q)"),
               [p], [t, t], True)  # fmt: skip
        c = f"  c = {t}[] constant({float(x[0])!r})\n  k = {t}[{n}] broadcast(c), dimensions={{}}\n"
        yield module(consts + c + f"  ROOT r = {t}[{n}] multiply(k, b)"), [], [t], True
    # the folders' own rules: sign (none of a NaN: left to XLA's evaluator), remainder (NaN
    # signs), clamp (scalar bounds: XLA's evaluator), told apart by zeros of both signs
    for t in ("f32", "f64", "bf16", "f16"):
        tiny = float(ml_dtypes.finfo(DTYPES[t]).smallest_normal) / 4
        a = _literal(np.array([-0.0, 0.0, tiny, -tiny, tiny, 2.0]))
        b = _literal(np.array([0.0, -0.0, -tiny, tiny, 0.0, 3 * tiny]))
        a_nan = _literal(np.array([-0.0, 0.0, tiny, -tiny, np.nan, 2.0]))
        b_nan = _literal(np.array([0.0, -0.0, -tiny, tiny, 1.0, np.nan]))
        for x, y in ((a, b), (a_nan, b_nan)):
            pair = f"  a = {t}[6] constant({x})\n  b = {t}[6] constant({y})\n"
            for op in ("maximum", "minimum", "remainder"):
                yield module(pair + f"  ROOT r = {t}[6] {op}(a, b)"), [], [t], True
            yield module(pair + f"  ROOT r = {t}[6] sign(a)"), [], [t], True
            yield (
                module(
                    pair + f"  h = {t}[6] constant({{1, 1, 1, 1, 1, 1}})\n  ROOT r = {t}[6] clamp(b, a, h)"
                ),
                [],
                [t],
                True,
            )
            for low in ("0", "-0.0"):
                bounds = f"  l = {t}[] constant({low})\n  h = {t}[] constant(1)\n"
                yield module(pair + bounds + f"  ROOT r = {t}[6] clamp(l, a, h)"), [], [t], True
    # conversions keep or make subnormals
    for src, dst in (
        ("f64", "f32"),
        ("f32", "f64"),
        ("f32", "bf16"),
        ("f32", "f16"),
        ("f16", "f32"),
        ("bf16", "f32"),
        ("f64", "f16"),
    ):
        x = (
            _subnormal_values(src)
            if src != "f64"
            else np.array([1e-40, -3e-39, 1e-310, 2e-45, 5e-8, 1.0, 0.0, -6e-5, 1e-6, 7e-39])
        )
        v = x.astype(DTYPES[src]).astype(np.float64)
        yield (
            module(f"  a = {src}[{v.size}] constant({_literal(v)})\n  ROOT r = {dst}[{v.size}] convert(a)"),
            [],
            [dst],
            True,
        )


def family_daz_folds() -> Iterator[Case]:
    """Transcendental ops of subnormal constants left to XLA's evaluator (a value StableHLO's
    folder refuses, an op it has no folder for): its float functions see the operand's bits in
    flush-to-zero mode (logf of 1e-40 is -103.97), its double ones zeros. Not covered (they
    differ, SEMANTICS): log1p, pow and atan2 of subnormals, f64 tanh and erf."""
    for t in ("f32", "f64", "bf16", "f16"):
        tiny = float(ml_dtypes.finfo(DTYPES[t]).smallest_normal) / 4
        mixed = _literal(np.array([tiny, -tiny, 3 * tiny, -1.0, 0.0, 2.0]))
        ops = ("log", "rsqrt", "sqrt", "exponential-minus-one", "cbrt") + (
            ("tanh", "erf") if t != "f64" else ()
        )
        for op in ops:
            yield module(f"  a = {t}[6] constant({mixed})\n  ROOT r = {t}[6] {op}(a)"), [], [t], True


FAMILIES = {
    "elementwise_folds": family_elementwise_folds,
    "extreme_folds": family_extreme_folds,
    "subnormal_folds": family_subnormal_folds,
    "daz_folds": family_daz_folds,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or FAMILIES:  # (python tools/make_fold_fixtures.py [family ...])
        write_family(OUT.with_name(f"exact_{name}.npz"), FAMILIES[name]())
