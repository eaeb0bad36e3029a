"""A training step over tools/frames/layers.py: grad, vmap, scan, cond and while_loop, each
calling back into the other file, so that stack frames nest across files."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from . import layers


def loss(ws: list[jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean((layers.stack(ws, x) - y) ** 2)


def scanned(w: jax.Array, xs: jax.Array) -> jax.Array:
    def body(c: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        c = c + layers.dense(w, x).sum()
        return c, c

    return lax.scan(body, jnp.float32(0), xs)[1]


def branchy(x: jax.Array, p: jax.Array) -> jax.Array:
    return lax.cond(p > 0, lambda v: jnp.sin(v) * 2, lambda v: layers.dense(v, v), x)


def looped(w: jax.Array) -> jax.Array:
    def body(c: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        return c[0] + 1, layers.dense(c[1], c[1])

    return lax.while_loop(lambda c: c[0] < 3, body, (jnp.int32(0), w))[1]


def step(ws: list[jax.Array], x: jax.Array, y: jax.Array, xs: jax.Array, p: jax.Array) -> tuple:
    with jax.named_scope("step"):
        grads = jax.grad(loss)(ws, x, y)
        per_row = jax.vmap(lambda r: loss(ws, r[None], y[:1]))(x)
        new = [w - 0.1 * g for w, g in zip(ws, grads)]
        return new, per_row, scanned(ws[0], xs), branchy(ws[1], p), looped(ws[2])
