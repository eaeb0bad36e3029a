"""Layers called from tools/frames/train.py: frames in a second file."""

from __future__ import annotations

import jax
import jax.numpy as jnp


def dense(w: jax.Array, x: jax.Array) -> jax.Array:
    with jax.named_scope("dense"):
        return jnp.tanh(x @ w)


def stack(ws: list[jax.Array], x: jax.Array) -> jax.Array:
    for w in ws:
        x = dense(w, x)
    return x
