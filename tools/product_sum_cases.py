"""Cases of make_exactness_fixtures' `product_sums` family: small f32/f64 sums over several
dimensions of a product XLA:CPU fuses into the reduce's loop (hlo.numerics.reduce_contraction):
one FMA chain in row-major order where its loops sum in order (`jnp.sum(x * x)`, a norm, a mean
squared error), lanes of FMA chains where its vector loop takes the rows (2 lanes of squares or
with a factor the same for every row; products of two arrays in 2 rows in order), squares,
products of two arrays and of broadcasts (a row, a column, a scalar), init values and negated
products. Dev only."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

Case = tuple[str, list[np.ndarray], list[str], bool]

_SPREAD = {"row": lambda rank: [rank - 1], "col": lambda rank: [0], "scalar": lambda rank: []}


def _module(
    t: str, shape: tuple[int, ...], dims: tuple[int, ...], kind: str, init: str, negated: bool
) -> str:
    s = f"{t}[{','.join(map(str, shape))}]"
    out = f"{t}[{','.join(str(n) for d, n in enumerate(shape) if d not in dims)}]"
    body = f"  x = {s} parameter(0)\n"
    if kind == "square":
        body += f"  p = {s} multiply(x, x)\n"
    elif kind == "two":
        body += f"  y = {s} parameter(1)\n  p = {s} multiply(x, y)\n"
    else:
        spread = _SPREAD[kind](len(shape))
        small = ",".join(str(shape[d]) for d in spread)
        body += (f"  y = {t}[{small}] parameter(1)\n  b = {s} broadcast(y), dimensions={{{','.join(map(str, spread))}}}\n"
                 f"  p = {s} multiply(x, b)\n")  # fmt: skip
    body += f"  q = {s} negate(p)\n" if negated else f"  q = {s} copy(p)\n"
    return (
        f"HloModule m\n\nadd {{\n  a = {t}[] parameter(0)\n  c = {t}[] parameter(1)\n  ROOT r = {t}[] add(a, c)\n}}\n\n"
        f"ENTRY main {{\n{body}  z = {t}[] constant({init})\n"
        f"  ROOT r = {out} reduce(q, z), dimensions={{{','.join(map(str, dims))}}}, to_apply=add\n}}\n"
    )


_CASES = [  # (type, shape, reduced dimensions, kind, init, negated)
    ("f32", (6, 13), (0, 1), "square", "0", False), ("f32", (3, 5), (0, 1), "square", "0", False),
    ("f32", (29, 22), (0, 1), "two", "0", False), ("f32", (20, 20), (0, 1), "square", "0", False),
    ("f32", (5, 6, 7), (0, 1), "square", "0", False), ("f32", (5, 6, 7), (1, 2), "two", "0", False),
    ("f32", (5, 6, 7), (0, 2), "square", "0", False), ("f32", (4, 3, 2), (0, 1, 2), "square", "1.5", False),
    ("f32", (6, 13), (0, 1), "row", "0", False), ("f32", (6, 13), (0, 1), "scalar", "0", True),
    ("f32", (3, 5), (0, 1), "col", "0", False), ("f64", (6, 13), (0, 1), "square", "0", False),
    ("f64", (3, 4, 5), (0, 2), "two", "-0", False), ("f32", (17, 3), (0, 1), "square", "0", True),
    # lanes: 2 rows of squares or with a factor the same for every row; products of two arrays in order
    ("f32", (2, 2), (0, 1), "square", "0", False), ("f32", (2, 3), (0, 1), "square", "1.5", False),
    ("f64", (2, 2), (0, 1), "square", "0", False), ("f32", (3, 2, 2), (1, 2), "square", "0", False),
    ("f32", (2, 2), (0, 1), "row", "0", False), ("f32", (2, 3), (0, 1), "col", "0", False),
    ("f32", (2, 4), (0, 1), "two", "0", False), ("f64", (2, 3), (0, 1), "two", "0", False),
    # 4 and 8 lanes with broadcast factors
    ("f32", (4, 4), (0, 1), "col", "0", False), ("f32", (4, 4), (0, 1), "row", "0", False),
    ("f32", (8, 3), (0, 1), "scalar", "0", False), ("f64", (4, 2), (0, 1), "col", "0", False),
    ("f32", (16, 2), (0, 1), "row", "0", False), ("f32", (8, 4), (0, 1), "two", "0", True),
]  # fmt: skip


def family_product_sums() -> Iterator[Case]:
    rng = np.random.default_rng(307)
    for t, shape, dims, kind, init, negated in _CASES:
        dtype = np.float32 if t == "f32" else np.float64
        for _ in range(3):
            x = rng.standard_normal(shape).astype(dtype)
            args = [x]
            if kind == "two":
                args.append(rng.standard_normal(shape).astype(dtype))
            elif kind in _SPREAD:
                args.append(
                    np.asarray(rng.standard_normal([shape[d] for d in _SPREAD[kind](len(shape))]), dtype)
                )
            yield _module(t, shape, dims, kind, init, negated), args, [t] * (len(args) + 1), True
