"""Cases of make_exactness_fixtures' `simplifier` family: the arithmetic XLA's algebraic
simplifier rewrites before XLA:CPU compiles (hlo.numerics.simplifier_rules), each rule alone in
f16, f32 and f64, the cases it must leave alone, calls inlined first (a divisor made constant
by the caller's argument, a product in the caller fused into an add in the callee), and random
graphs of divides, products and sums with constants and broadcasts. Inputs in [0.5, 2): most
elements change in their last bit when a rule is missed. Dev only."""

# ruff: noqa: E501  (tables of cases)

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

Case = tuple[str, list[np.ndarray], list[str], bool]
_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _entry(body: str, computations: str = "") -> str:
    return "HloModule m\n\n" + computations + "ENTRY main {\n" + body + "\n}\n"


def _rule_bodies(t: str, r: int, c: int) -> Iterator[str]:
    """Entry bodies over x, y, z: [r,c] and v, w: [r] (parameters 0-4), one rule each."""
    s, row = f"{t}[{r},{c}]", f"{t}[{r}]"
    head = (f"  x = {s} parameter(0)\n  y = {s} parameter(1)\n  z = {s} parameter(2)\n"
            f"  v = {row} parameter(3)\n  w = {row} parameter(4)\n")  # fmt: skip

    def scalar(name: str, value: str) -> str:
        return f"  {name}c = {t}[] constant({value})\n  {name} = {s} broadcast({name}c), dimensions={{}}\n"

    for value in ("3", "7", "0.1", "1.7"):  # a / c => a * (1/c)
        yield head + scalar("k", value) + f"  ROOT d = {s} divide(x, k)"
    yield head + f"  b = {s} broadcast(v), dimensions={{0}}\n  ROOT d = {s} divide(x, b)"  # 1/v spread
    yield (head + f"  b = {s} broadcast(v), dimensions={{0}}\n  d = {s} divide(x, b)\n"
           f"  ROOT e = {s} divide(d, b)")  # (x/b)/b: x / (b*b), the product before its broadcast  # fmt: skip
    yield (head + f"  b = {s} broadcast(v), dimensions={{0}}\n  u = {row} add(v, w)\n"
           f"  e = {s} broadcast(u), dimensions={{0}}\n  d = {s} divide(x, b)\n  f = {s} divide(y, e)\n"
           f"  ROOT g = {s} add(d, f)")  # fmt: skip
    yield head + f"  d = {s} divide(x, y)\n  ROOT e = {s} divide(d, z)"  # (x/y)/z => x/(y*z)
    yield head + f"  d = {s} divide(y, z)\n  ROOT e = {s} divide(x, d)"  # x/(y/z) => (x*z)/y
    yield head + f"  d = {s} divide(x, y)\n  e = {s} divide(z, x)\n  ROOT f = {s} divide(d, e)"
    yield (
        head
        + scalar("k", "3")
        + f"  m = {s} multiply(x, k)\n"
        + scalar("l", "7")
        + f"  ROOT p = {s} multiply(m, l)"
    )
    yield (
        head
        + scalar("k", "3")
        + f"  m = {s} multiply(k, x)\n"
        + scalar("l", "0.3")
        + f"  ROOT p = {s} multiply(l, m)"
    )
    yield (head + scalar("k", "1.3") + f"  m = {s} multiply(x, k)\n  b = {s} broadcast(v), dimensions={{0}}\n"
           f"  ROOT p = {s} multiply(m, b)")  # (x*c) * broadcast(v) => x * broadcast(v*c)  # fmt: skip
    yield (
        head
        + scalar("k", "0.3")
        + f"  a = {s} add(x, k)\n"
        + scalar("l", "0.7")
        + f"  ROOT p = {s} add(a, l)"
    )
    yield (
        head
        + scalar("k", "0.3")
        + f"  a = {s} subtract(x, k)\n"
        + scalar("l", "0.7")
        + f"  ROOT p = {s} add(a, l)"
    )
    yield (
        head
        + scalar("k", "0.3")
        + f"  a = {s} subtract(k, x)\n"
        + scalar("l", "1.9")
        + f"  ROOT p = {s} add(a, l)"
    )
    yield (head + scalar("k", "0.001") + f"  a = {s} subtract(x, k)\n" + scalar("l", "0.3")
           + f"  b = {s} add(a, l)\n" + scalar("n", "0.7") + f"  ROOT p = {s} add(b, n)")  # fmt: skip
    for exponent in ("2", "3", "-1"):
        yield head + scalar("k", exponent) + f"  ROOT p = {s} power(x, k)"


def _special_bodies(t: str) -> Iterator[tuple[str, str]]:
    """(computations, entry body) cases: what must stay, and calls."""
    s = f"{t}[6,10]"
    head = f"  x = {s} parameter(0)\n  y = {s} parameter(1)\n  z = {s} parameter(2)\n  v = {t}[6] parameter(3)\n  w = {t}[6] parameter(4)\n"
    # v read twice: no reciprocal (XLA's one use)
    yield (
        "",
        head
        + f"  b = {s} broadcast(v), dimensions={{0}}\n  e = {s} broadcast(v), dimensions={{0}}\n  d = {s} divide(x, b)\n  m = {s} multiply(y, e)\n  ROOT r = {s} add(d, m)",
    )
    # a broadcast that only adds a dimension of size 1 is a reshape: no reciprocal
    yield (
        "",
        f"  x = {t}[6,1] parameter(0)\n  v = {t}[6] parameter(1)\n  b = {t}[6,1] broadcast(v), dimensions={{0}}\n  ROOT d = {t}[6,1] divide(x, b)",
    )
    # a broadcast of one element: XLA reshapes it to a scalar per broadcast (each of one use)
    yield (
        "",
        f"  x = {t}[1,7] parameter(0)\n  v = {t}[1] parameter(1)\n  b = {t}[1,7] broadcast(v), dimensions={{0}}\n  e = {t}[1,7] broadcast(v), dimensions={{0}}\n  d = {t}[1,7] divide(x, b)\n  ROOT r = {t}[1,7] divide(d, e)",
    )
    # softmax's division by its row sums, a mean's by its count
    red = f"sum {{\n  p = {t}[] parameter(0)\n  q = {t}[] parameter(1)\n  ROOT r = {t}[] add(p, q)\n}}\n\n"
    yield (
        red,
        head
        + f"  zero = {t}[] constant(0)\n  e = {s} exponential(x)\n  s = {t}[6] reduce(e, zero), dimensions={{1}}, to_apply=sum\n  b = {s} broadcast(s), dimensions={{0}}\n  ROOT d = {s} divide(e, b)",
    )
    yield (
        red,
        head
        + f"  zero = {t}[] constant(0)\n  s = {t}[6] reduce(x, zero), dimensions={{1}}, to_apply=sum\n  n = {t}[] constant(10)\n  b = {t}[6] broadcast(n), dimensions={{}}\n  m = {t}[6] divide(s, b)\n  e = {s} broadcast(m), dimensions={{0}}\n  ROOT c = {s} subtract(x, e)",
    )
    # a variance's count, a constant only once the call is inlined (jnp.var's call)
    var = (f"var {{\n  a = {s} parameter(0)\n  k = s32[] parameter(1)\n  zero = {t}[] constant(0)\n"
           f"  s = {t}[10] reduce(a, zero), dimensions={{0}}, to_apply=sum\n  six = {t}[] constant(6)\n"
           f"  kf = {t}[] convert(k)\n  n = {t}[] subtract(six, kf)\n  gt = pred[] compare(n, zero), direction=GT\n"
           f"  b = {t}[10] broadcast(n), dimensions={{}}\n  ROOT d = {t}[10] divide(s, b)\n}}\n\n")  # fmt: skip
    yield (
        red + var,
        head
        + f"  k = s32[] constant(0)\n  c = {t}[10] call(x, k), to_apply=var\n  ROOT r = {t}[10] multiply(c, c)",
    )
    # a product in the caller fused into the callee's add (f32/f64: one FMA)
    callee = f"plus {{\n  a = {s} parameter(0)\n  b = {s} parameter(1)\n  ROOT r = {s} add(a, b)\n}}\n\n"
    yield callee, head + f"  m = {s} multiply(x, y)\n  ROOT c = {s} call(m, z), to_apply=plus"


def _random_graph(t: str, rng: np.random.Generator) -> tuple[str, tuple[int, int]]:
    """A random entry of divides, products and sums with constants and row broadcasts."""
    r, c = int(rng.integers(1, 9)), int(rng.integers(1, 12))
    s, row = f"{t}[{r},{c}]", f"{t}[{r}]"
    lines = [f"  x = {s} parameter(0)", f"  y = {s} parameter(1)", f"  z = {s} parameter(2)",
             f"  v = {row} parameter(3)", f"  w = {row} parameter(4)"]  # fmt: skip
    values, rows = ["x", "y", "z"], ["v", "w"]

    def new(expr: str, shape: str = s) -> str:
        name = f"n{len(lines)}"
        lines.append(f"  {name} = {shape} {expr}")
        return name

    def constant() -> str:
        k = new(f"constant({float(rng.choice([3.0, 7.0, 0.1, 1.5, 2.0, -1.0, 0.3, 1e-3, 11.0]))})", f"{t}[]")
        return new(f"broadcast({k}), dimensions={{}}")

    for _ in range(int(rng.integers(2, 7))):
        op, a = int(rng.integers(0, 9)), str(rng.choice(values))
        b = str(rng.choice(values))
        if op == 0:
            values.append(new(f"divide({a}, {constant()})"))
        elif op == 1:
            values.append(new(f"divide({a}, {new(f'broadcast({rng.choice(rows)}), dimensions={{0}}')})"))
        elif op == 2:
            k = constant()
            values.append(new(f"multiply({a}, {k})" if rng.random() < 0.7 else f"multiply({k}, {a})"))
        elif op == 3:
            values.append(new(f"{rng.choice(['add', 'subtract'])}({a}, {constant()})"))
        elif op == 4:
            values.append(new(f"divide({a}, {b})"))
        elif op == 5:
            k = new(f"constant({rng.choice(['2', '3', '-1'])})", f"{t}[]")
            values.append(new(f"power({a}, {new(f'broadcast({k}), dimensions={{}}')})"))
        elif op == 6:
            values.append(new(f"multiply({a}, {new(f'broadcast({rng.choice(rows)}), dimensions={{0}}')})"))
        elif op == 7:
            values.append(new(f"add({a}, {b})"))
        else:
            values.append(new(f"multiply({a}, {b})"))
    lines.append(f"  ROOT out = {s} copy({values[-1]})")
    return _entry("\n".join(lines)), (r, c)


def family_simplifier() -> Iterator[Case]:
    rng = np.random.default_rng(97)

    def args(t: str, r: int, c: int) -> list[np.ndarray]:
        return [rng.uniform(0.5, 2.0, shape).astype(_DTYPES[t]) for shape in [(r, c)] * 3 + [(r,)] * 2]

    for t in ("f16", "f32", "f64"):
        for body in _rule_bodies(t, 6, 10):
            yield _entry(body), args(t, 6, 10), [t] * 6, True
        for computations, body in _special_bodies(t):
            arguments = args(t, 6, 10)
            if "x = " + f"{t}[6,1]" in body or f"x = {t}[1,7]" in body:
                arguments = [a.reshape(-1)[: int(np.prod(shape))].reshape(shape) for a, shape in
                             zip(arguments, ((6, 1), (6,)) if "[6,1]" in body else ((1, 7), (1,)))]  # fmt: skip
            types = [t] * (len(arguments) + 1)
            yield _entry(body, computations), arguments, types, True
        for _ in range(25):
            text, (r, c) = _random_graph(t, rng)
            yield text, args(t, r, c), [t] * 6, True
