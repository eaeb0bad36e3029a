"""Dev tool: write a golden corpus of real HLO dumps made by JAX and XLA:CPU.

For every program in ``PROGRAMS`` this lowers a small JAX function with fixed-seed inputs, compiles
it for XLA:CPU, runs it, and writes into ``tests/golden/dumps/``:

* ``<name>.hlo``      the unoptimized HLO text (``debug_info=True``, so metadata and the stack-frame
                      tables are present; constants are written out in full),
* ``<name>.opt.hlo``  the HLO module after XLA:CPU's optimization passes (fusions, copies, layout
                      bitcasts, LAPACK custom calls), printed with large constants and metadata,
* ``<name>.npz``      the inputs ``arg0, arg1, ...`` (one per entry parameter, in parameter order:
                      the flattened pytree leaves of the arguments) and the outputs ``out0, out1, ...``
                      computed by XLA:CPU (the leaves of the result in depth-first order).

Types NumPy cannot hold natively are stored widened: bf16 and the f8/f4 types as float32, int4/int2
as int8, uint4/uint2 as uint8. Only the ``elementwise`` program has such values (a bf16 output,
stored as float32; widening bf16 to f32 is exact). The HLO text gives the true types.

Both texts are stored as XLA's parser and printer give them back (long form: operand shapes,
large constants, metadata), the form `hlo` must print identically.

Source file names in the metadata are made relative to the repository root (through jax's
``jax_hlo_source_file_canonicalization_regex``), so the dumps hold no machine paths.

It also writes ``tests/golden/dumps/README.md`` (programs, what each covers, the jax version and
the opcodes found in the corpus). Needs jax from the ``dev`` extra; the tests only read the files.

Usage::

    python tools/make_golden_dumps.py            # (re)generate every program
    python tools/make_golden_dumps.py sort fft   # only these programs
"""

from __future__ import annotations

import argparse
import re
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax
from jax._src.lib import xla_client  # private: pinned jax version in the dev extra

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "tests" / "golden" / "dumps"

# ---------------------------------------------------------------------------------------------
# Program registry
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A function and the positional arguments (pytrees of NumPy arrays) to lower it with."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    x64: bool = False  # trace and run with jax_enable_x64


@dataclass(frozen=True)
class Program:
    name: str
    description: str
    build: Callable[[np.random.Generator], Case]


PROGRAMS: dict[str, Program] = {}


def program(build: Callable[[np.random.Generator], Case]) -> Callable[[np.random.Generator], Case]:
    """Register a program; its name is the function name, its description the docstring."""
    doc = " ".join((build.__doc__ or "").split())
    PROGRAMS[build.__name__] = Program(build.__name__, doc, build)
    return build


def normal(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (scale * rng.standard_normal(shape)).astype(np.float32)


def ints(rng: np.random.Generator, low: int, high: int, *shape: int, dtype: Any = np.int32) -> np.ndarray:
    return rng.integers(low, high, size=shape).astype(dtype)


# ---------------------------------------------------------------------------------------------
# Programs
# ---------------------------------------------------------------------------------------------


@program
def mlp_grad(rng: np.random.Generator) -> Case:
    """2-layer MLP (relu, tanh), mean squared error, jax.value_and_grad w.r.t. the weights
    (dot, transposes, broadcasts, reduce, select for relu's derivative)."""

    def loss(params: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
        h = jax.nn.relu(x @ params["w1"] + params["b1"])
        pred = jnp.tanh(h @ params["w2"] + params["b2"])
        return jnp.mean((pred - y) ** 2)

    params = {
        "w1": normal(rng, 8, 16, scale=0.5),
        "b1": normal(rng, 16, scale=0.1),
        "w2": normal(rng, 16, 4, scale=0.5),
        "b2": normal(rng, 4, scale=0.1),
    }
    return Case(jax.value_and_grad(loss), (params, normal(rng, 5, 8), normal(rng, 5, 4)))


@program
def stack_frames(rng: np.random.Generator) -> Case:
    """A training step whose functions live in two files (tools/frames): grad, vmap, scan, cond
    and while_loop calling across files under named scopes, so the stack-frame tables hold
    several files, functions and nested frames."""
    sys.path.insert(0, str(REPO_ROOT))
    from tools.frames import train

    ws = [normal(rng, 8, 8, scale=0.3) for _ in range(3)]
    x, y = normal(rng, 4, 8), normal(rng, 4, 8)
    return Case(train.step, (ws, x, y, normal(rng, 5, 4, 8), np.float32(1.0)))


@program
def cnn(rng: np.random.Generator) -> Case:
    """NHWC conv net: conv (padding 1, stride 1) + relu, max pool 2x2/2 (reduce-window), conv
    (stride 2), avg pool with padding (reduce-window add), dense layer, softmax."""

    def fn(x: jax.Array, k1: jax.Array, k2: jax.Array, w: jax.Array, b: jax.Array) -> jax.Array:
        dn = ("NHWC", "HWIO", "NHWC")
        h = lax.conv_general_dilated(x, k1, (1, 1), ((1, 1), (1, 1)), dimension_numbers=dn)
        h = jax.nn.relu(h)  # [2,8,8,4]
        h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")  # [2,4,4,4]
        h = lax.conv_general_dilated(h, k2, (2, 2), ((1, 1), (1, 1)), dimension_numbers=dn)
        h = jax.nn.relu(h)  # [2,2,2,8]
        pad = ((0, 0), (0, 1), (0, 1), (0, 0))
        h = lax.reduce_window(h, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), pad) / 4.0
        logits = h.reshape(h.shape[0], -1) @ w + b
        return jax.nn.softmax(logits, axis=-1)

    return Case(
        fn,
        (
            normal(rng, 2, 8, 8, 3),
            normal(rng, 3, 3, 3, 4, scale=0.3),
            normal(rng, 3, 3, 4, 8, scale=0.3),
            normal(rng, 32, 10, scale=0.2),
            normal(rng, 10, scale=0.1),
        ),
    )


@program
def transformer_block(rng: np.random.Generator) -> Case:
    """Pre-norm transformer block (batch 2, seq 8, dim 16, 2 heads): layer norm, causal multi-head
    self-attention with softmax, MLP with exact (erf) gelu, residual connections."""
    heads, dim = 2, 16

    def layer_norm(x: jax.Array, g: jax.Array, b: jax.Array) -> jax.Array:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) * lax.rsqrt(var + 1e-5) * g + b

    def fn(p: dict[str, jax.Array], x: jax.Array) -> jax.Array:
        batch, seq, _ = x.shape
        h = layer_norm(x, p["ln1_g"], p["ln1_b"])
        q, k, v = jnp.split(h @ p["wqkv"], 3, axis=-1)

        def split_heads(t: jax.Array) -> jax.Array:
            return t.reshape(batch, seq, heads, dim // heads).transpose(0, 2, 1, 3)

        q, k, v = split_heads(q), split_heads(k), split_heads(v)
        scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(dim // heads).astype(np.float32)
        causal = jnp.arange(seq)[:, None] >= jnp.arange(seq)[None, :]
        scores = jnp.where(causal, scores, -1e9)
        attn = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(scores, axis=-1), v)
        x = x + attn.transpose(0, 2, 1, 3).reshape(batch, seq, dim) @ p["wo"]
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        h = jax.nn.gelu(h @ p["w1"] + p["b1"], approximate=False)
        return x + h @ p["w2"] + p["b2"]

    params = {
        "ln1_g": 1.0 + normal(rng, dim, scale=0.1),
        "ln1_b": normal(rng, dim, scale=0.1),
        "wqkv": normal(rng, dim, 3 * dim, scale=0.25),
        "wo": normal(rng, dim, dim, scale=0.25),
        "ln2_g": 1.0 + normal(rng, dim, scale=0.1),
        "ln2_b": normal(rng, dim, scale=0.1),
        "w1": normal(rng, dim, 2 * dim, scale=0.25),
        "b1": normal(rng, 2 * dim, scale=0.1),
        "w2": normal(rng, 2 * dim, dim, scale=0.25),
        "b2": normal(rng, dim, scale=0.1),
    }
    return Case(fn, (params, normal(rng, 2, 8, dim)))


@program
def scan_rnn(rng: np.random.Generator) -> Case:
    """lax.scan over a tanh RNN cell (6 steps, batch 2): a while loop whose tuple state carries the
    hidden state and the stacked outputs (dynamic-slice / dynamic-update-slice)."""

    def fn(params: dict[str, jax.Array], h0: jax.Array, xs: jax.Array) -> tuple[jax.Array, jax.Array]:
        def cell(h: jax.Array, x: jax.Array) -> tuple[jax.Array, jax.Array]:
            h = jnp.tanh(x @ params["wx"] + h @ params["wh"] + params["b"])
            return h, h.sum(-1)

        return lax.scan(cell, h0, xs)

    params = {"wx": normal(rng, 4, 8, scale=0.5), "wh": normal(rng, 8, 8, scale=0.3), "b": normal(rng, 8)}
    return Case(fn, (params, normal(rng, 2, 8), normal(rng, 6, 2, 4)))


@program
def while_loop(rng: np.random.Generator) -> Case:
    """lax.while_loop with a data-dependent trip count, lax.fori_loop with static bounds and with a
    traced upper bound."""

    def fn(x: jax.Array, limit: jax.Array, n: jax.Array) -> tuple[jax.Array, ...]:
        def cond(state: tuple[jax.Array, jax.Array]) -> jax.Array:
            return state[1].sum() < limit

        def body(state: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
            i, v = state
            return i + 1, v * 1.5 + 1.0

        steps, grown = lax.while_loop(cond, body, (jnp.int32(0), x))
        fixed = lax.fori_loop(0, 5, lambda i, v: v * 0.5 + i.astype(jnp.float32), x)
        traced = lax.fori_loop(0, n, lambda i, acc: acc + i * i, jnp.int32(0))
        return steps, grown, fixed, traced

    return Case(fn, (np.abs(normal(rng, 4)), np.float32(50.0), np.int32(7)))


@program
def sort(rng: np.random.Generator) -> Case:
    """jnp.sort (ascending and descending), jnp.argsort, lax.sort with several operands and two
    keys, lax.top_k (sort with comparator computations, iota)."""

    def fn(x: jax.Array, keys: jax.Array, vals: jax.Array) -> tuple[jax.Array, ...]:
        s = jnp.sort(x, axis=-1)
        sd = jnp.sort(keys, axis=0, descending=True)
        a = jnp.argsort(x, axis=0)
        multi = lax.sort((keys, x, vals), dimension=1, num_keys=2)
        tv, ti = lax.top_k(x, 3)
        return s, sd, a, *multi, tv, ti

    return Case(fn, (normal(rng, 4, 6), ints(rng, 0, 3, 4, 6), ints(rng, -100, 100, 4, 6)))


@program
def gather_scatter(rng: np.random.Generator) -> Case:
    """Fancy indexing x[idx] (negative indices), x[idx, 1:3], x.at[idx].add/set/max/mul,
    take_along_axis and segment_sum (gather and scatter with update computations)."""

    def fn(
        x: jax.Array,
        idx: jax.Array,
        uniq: jax.Array,
        v: jax.Array,
        cols: jax.Array,
        data: jax.Array,
        seg: jax.Array,
    ) -> tuple[jax.Array, ...]:
        return (
            x[idx],
            x[idx, 1:3],
            x.at[idx].add(v),
            x.at[uniq].set(v),
            x.at[uniq].max(v),
            x.at[idx].mul(v),
            jnp.take_along_axis(x, cols, axis=1),
            jax.ops.segment_sum(data, seg, num_segments=4),
        )

    return Case(
        fn,
        (
            normal(rng, 6, 4),
            np.array([4, 0, -1], np.int32),  # -1 is the last row
            np.array([5, 1, 3], np.int32),
            normal(rng, 3, 4),
            ints(rng, 0, 4, 6, 2),
            normal(rng, 7, 3),
            np.array([0, 0, 1, 3, 3, 3, 2], np.int32),
        ),
    )


@program
def fft(rng: np.random.Generator) -> Case:
    """jnp.fft.fft, ifft, rfft, irfft and fft2 (the fft opcode with FFT, IFFT, RFFT and IRFFT types on
    c64/f32)."""

    def fn(xr: jax.Array, xc: jax.Array, half: jax.Array) -> tuple[jax.Array, ...]:
        return (
            jnp.fft.fft(xc),
            jnp.fft.ifft(xc, axis=0),
            jnp.fft.rfft(xr),
            jnp.fft.irfft(half, n=8),
            jnp.fft.fft2(xc),
        )

    xc = (normal(rng, 4, 8) + 1j * normal(rng, 4, 8)).astype(np.complex64)
    half = (normal(rng, 4, 5) + 1j * normal(rng, 4, 5)).astype(np.complex64)
    return Case(fn, (normal(rng, 4, 8), xc, half))


@program
def linalg(rng: np.random.Generator) -> Case:
    """jnp.linalg.cholesky, solve_triangular, solve (LU), qr, eigh and svd on f32 4x4 matrices: LAPACK
    custom calls on CPU. Eigen- and singular vectors are unique only up to sign."""

    def fn(spd: jax.Array, m: jax.Array, b: jax.Array) -> tuple[jax.Array, ...]:
        chol = jnp.linalg.cholesky(spd)
        tri = jax.scipy.linalg.solve_triangular(chol, b, lower=True)
        sol = jnp.linalg.solve(m, b)
        q, r = jnp.linalg.qr(m)
        w, v = jnp.linalg.eigh(spd)
        u, s, vt = jnp.linalg.svd(m, full_matrices=False)
        return chol, tri, sol, q, r, w, v, u, s, vt

    a = normal(rng, 4, 4)
    spd = (a @ a.T + 4.0 * np.eye(4)).astype(np.float32)
    m = (normal(rng, 4, 4) + 3.0 * np.eye(4)).astype(np.float32)
    return Case(fn, (spd, m, normal(rng, 4, 2)))


@program
def rng(_: np.random.Generator) -> Case:
    """jax.random normal, uniform, bits and randint from a threefry2x32 key passed as its uint32 key
    data (split, fold_in; the threefry hash written out in HLO: shifts, xor, add on u32)."""

    def fn(key_data: jax.Array) -> tuple[jax.Array, ...]:
        key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
        k1, k2, k3, k4 = jax.random.split(key, 4)
        return (
            jax.random.normal(k1, (3, 4)),
            jax.random.uniform(k2, (5,), minval=-1.0, maxval=2.0),
            jax.random.bits(k3, (4,), jnp.uint32),
            jax.random.randint(jax.random.fold_in(k4, 7), (6,), 0, 10),
        )

    return Case(fn, (np.array([0, 42], np.uint32),))


@program
def rng_bit_generator(_: np.random.Generator) -> Case:
    """jax.random.bits and uniform from an "rbg" key passed as uint32[4] key data: the
    rng-bit-generator opcode."""

    def fn(key_data: jax.Array) -> tuple[jax.Array, jax.Array]:
        key = jax.random.wrap_key_data(key_data, impl="rbg")
        return jax.random.bits(key, (2, 3), jnp.uint32), jax.random.uniform(key, (4,))

    return Case(fn, (np.array([1, 2, 3, 4], np.uint32),))


@program
def control_flow(rng: np.random.Generator) -> Case:
    """lax.cond on a traced predicate and lax.switch on a traced index (also one out of range, which
    jax clamps): the conditional opcode with two and three branch computations."""

    def fn(x: jax.Array, y: jax.Array, i: jax.Array) -> tuple[jax.Array, ...]:
        c = lax.cond(x.sum() > 0, lambda a, b: a * b, lambda a, b: a - b, x, y)
        branches = [lambda a: a + 1.0, lambda a: jnp.sin(a), lambda a: a * a]
        return c, lax.switch(i, branches, x), lax.switch(i + 5, branches, x)

    return Case(fn, (normal(rng, 4), normal(rng, 4), np.int32(1)))


@program
def reductions(rng: np.random.Generator) -> Case:
    """sum, max, min, prod, mean, argmax, argmin, cumsum, logsumexp, any, all over different axes of
    f32 and s32 arrays (reduce with one and two operands, reduce-window for cumsum)."""

    def fn(x: jax.Array, n: jax.Array) -> tuple[jax.Array, ...]:
        return (
            x.sum(0),
            x.max(1),
            x.min((0, 2)),
            (1.0 + 0.1 * x).prod(2),
            x.mean(),
            jnp.argmax(x, axis=1),
            jnp.argmin(n, axis=2),
            jnp.cumsum(x, axis=1),
            jax.nn.logsumexp(x, axis=-1),
            n.sum(0),
            n.max(),
            n.prod(1),
            jnp.cumsum(n, axis=2),
            jnp.any(x > 1.5, axis=0),
            jnp.all(n > -5, axis=(1, 2)),
        )

    return Case(fn, (normal(rng, 3, 4, 5), ints(rng, -9, 10, 3, 4, 5)))


@program
def elementwise(rng: np.random.Generator) -> Case:
    """Unary and binary math (exp, log, trig, sqrt, rsqrt, cbrt, expm1, log1p, erf, atan2, pow, rem,
    round-to-even and away from zero; sigmoid, erf_inv, lgamma and digamma, which jax writes out
    with basic ops), comparisons, select, clamp, integer ops (shifts incl. amounts >= 32,
    and/or/xor/not, popcnt, clz, division and remainder), converts between f32/s32/u8/bf16/f16
    (the bf16 output is stored as float32)."""

    def fn(x: jax.Array, y: jax.Array, a: jax.Array, b: jax.Array, sh: jax.Array) -> tuple[jax.Array, ...]:
        pos = jnp.abs(x) + 0.5
        # fmt: off
        float_ops = (
            jnp.exp(x), jnp.log(pos), jnp.sin(x), jnp.cos(x), jnp.tan(x), jnp.sqrt(pos), lax.rsqrt(pos),
            lax.cbrt(x), jnp.tanh(x), jax.nn.sigmoid(x), jnp.abs(x), jnp.sign(x), jnp.floor(x), jnp.ceil(x),
            jnp.round(x * 2.0), lax.round(x * 2.0, lax.RoundingMethod.AWAY_FROM_ZERO),
            jnp.expm1(x), jnp.log1p(pos), lax.erf(x), lax.erf_inv(jnp.tanh(x)), lax.lgamma(pos),
            lax.digamma(pos), jnp.arctan2(x, y), lax.pow(pos, y), lax.rem(x, y), jnp.maximum(x, y),
            jnp.minimum(x, y), x / y, -x, lax.is_finite(x / (x - x[0])),
        )
        compare_ops = (x < y, x <= y, x == y, x != y, a > b, a >= b)
        select_ops = (jnp.where(x > y, x, y * 2.0), jnp.clip(x, -0.5, 0.5), lax.clamp(-3, a, 3))
        int_ops = (
            a + b, a * b, a - b, lax.div(a, b), lax.rem(a, b), a // b, a % b,
            lax.shift_left(a, sh), lax.shift_right_logical(a, sh), lax.shift_right_arithmetic(a, sh),
            a & b, a | b, a ^ b, ~a, lax.population_count(a), lax.clz(a), jnp.maximum(a, b),
        )
        converts = (
            x.astype(jnp.int32), a.astype(jnp.float32), (pos * 40.0).astype(jnp.uint8),
            x.astype(jnp.bfloat16), x.astype(jnp.float16), x.astype(jnp.bfloat16).astype(jnp.float32),
            (a > 0).astype(jnp.float32), a.astype(jnp.uint8),
        )
        # fmt: on
        return float_ops + compare_ops + select_ops + int_ops + converts

    b = ints(rng, 1, 9, 12) * np.where(rng.random(12) < 0.5, -1, 1).astype(np.int32)
    sh = np.array([0, 1, 2, 3, 5, 8, 15, 30, 31, 32, 33, 4], np.int32)
    x = normal(rng, 12, scale=2.0)
    y = normal(rng, 12, scale=2.0)
    y[np.abs(y) < 0.2] = 0.7  # keep x / y and rem(x, y) well away from zero divisors
    return Case(fn, (x, y, ints(rng, -1000, 1000, 12), b.astype(np.int32), sh))


@program
def dynamic_slicing(rng: np.random.Generator) -> Case:
    """lax.dynamic_slice and dynamic_update_slice with traced (also clamped) starts, x[i] with a
    traced index, lax.pad with negative and interior padding, concatenate, reverse, transpose,
    reshape, strided slice, broadcast_in_dim, iota."""

    def fn(x: jax.Array, upd: jax.Array, i: jax.Array, j: jax.Array) -> tuple[jax.Array, ...]:
        return (
            lax.dynamic_slice(x, (i, j), (3, 4)),  # j = 7 clamps to 4
            lax.dynamic_update_slice(x, upd, (i, j)),
            x[i],
            lax.pad(x, jnp.float32(-1.0), ((1, -1, 1), (-2, 2, 0))),
            jnp.concatenate([x, x[:2] * 2.0], axis=0),
            lax.rev(x, (0, 1)),
            x.T,
            x.reshape(4, 2, 6),
            x[::2, 1:7:3],
            lax.broadcast_in_dim(x[0], (3, 8, 2), (1,)),
            lax.broadcasted_iota(jnp.int32, (2, 3), 1) + i,
        )

    return Case(fn, (normal(rng, 6, 8), normal(rng, 2, 3), np.int32(2), np.int32(7)))


@program
def dot_general(rng: np.random.Generator) -> Case:
    """lax.dot_general with batch dims and two contracting dims, einsum (batched and multi-index),
    a dot without contracting dims (outer product), matrix-vector, an s8 x s8 -> s32 dot with
    preferred_element_type."""

    def fn(
        a: jax.Array, b: jax.Array, c: jax.Array, d: jax.Array, p: jax.Array, q: jax.Array
    ) -> tuple[jax.Array, ...]:
        return (
            lax.dot_general(a, b, (((2, 3), (2, 1)), ((0,), (0,)))),
            jnp.einsum("bij,bjk->bik", c, d),
            jnp.einsum("bjkl,jkm->blm", b, jnp.ones((5, 4, 2), jnp.float32) * 0.5),
            lax.dot_general(c[0], d[0, 0], (((), ()), ((), ()))),
            c[1] @ d[1, :, 0],
            lax.dot_general(p, q, (((1,), (0,)), ((), ())), preferred_element_type=jnp.int32),
        )

    return Case(
        fn,
        (
            normal(rng, 2, 3, 4, 5),
            normal(rng, 2, 5, 4, 6),
            normal(rng, 2, 3, 4),
            normal(rng, 2, 4, 5),
            ints(rng, -128, 128, 3, 4, dtype=np.int8),
            ints(rng, -128, 128, 4, 5, dtype=np.int8),
        ),
    )


@program
def bitcast_convert(rng: np.random.Generator) -> Case:
    """lax.bitcast_convert_type between f32, s32 and u32 of equal width, and f32 -> u8[..., 4] /
    u8[..., 4] -> f32 which change the shape."""

    def fn(x: jax.Array, a: jax.Array) -> tuple[jax.Array, ...]:
        as_bytes = lax.bitcast_convert_type(x, jnp.uint8)
        return (
            lax.bitcast_convert_type(x, jnp.int32),
            lax.bitcast_convert_type(a, jnp.float32),
            lax.bitcast_convert_type(x, jnp.uint32) >> 23,
            as_bytes,
            lax.bitcast_convert_type(as_bytes[::-1], jnp.float32),
        )

    return Case(fn, (normal(rng, 2, 3), np.array([0x3F800000, 0x7F800000, -1, 1], np.int32)))


@program
def reduce_precision(rng: np.random.Generator) -> Case:
    """lax.reduce_precision of f32 to bf16, f16 and e4m3/e5m2-like formats, including tiny, huge and
    non-finite values."""

    def fn(x: jax.Array) -> tuple[jax.Array, ...]:
        return (
            lax.reduce_precision(x, exponent_bits=8, mantissa_bits=7),
            lax.reduce_precision(x, exponent_bits=5, mantissa_bits=10),
            lax.reduce_precision(x, exponent_bits=4, mantissa_bits=3),
            lax.reduce_precision(x, exponent_bits=5, mantissa_bits=2),
        )

    special = np.array([0.0, -0.0, 1e-6, 65504.0, 7e4, 1e30, np.inf, -np.inf, np.nan], np.float32)
    return Case(fn, (np.concatenate([normal(rng, 7, scale=10.0), special]),))


@program
def cumulative(rng: np.random.Generator) -> Case:
    """lax.cumsum, cumprod, cummax, cummin and cumlogsumexp, forward and reversed, on f32 and s32."""

    def fn(x: jax.Array, n: jax.Array) -> tuple[jax.Array, ...]:
        return (
            lax.cumsum(x, axis=1),
            lax.cumsum(x, axis=0, reverse=True),
            lax.cumprod(1.0 + 0.1 * x, axis=1),
            lax.cummax(x, axis=1),
            lax.cummin(n, axis=0, reverse=True),
            lax.cumlogsumexp(x, axis=1),
            lax.cumsum(n, axis=1),
        )

    return Case(fn, (normal(rng, 3, 6), ints(rng, -20, 20, 3, 6)))


@program
def conv_grouped(rng: np.random.Generator) -> Case:
    """NCHW convolutions: feature_group_count=2, a depthwise conv, rhs_dilation (atrous) with
    asymmetric padding, and a 1-D conv with stride."""

    def fn(
        x: jax.Array, kg: jax.Array, kd: jax.Array, ka: jax.Array, x1: jax.Array, k1: jax.Array
    ) -> tuple[jax.Array, ...]:
        grouped = lax.conv_general_dilated(x, kg, (1, 1), "SAME", feature_group_count=2)
        depthwise = lax.conv_general_dilated(x, kd, (1, 1), "VALID", feature_group_count=4)
        dilated = lax.conv_general_dilated(x, ka, (1, 1), ((2, 1), (0, 1)), rhs_dilation=(2, 2))
        one_d = lax.conv_general_dilated(x1, k1, (2,), ((1, 1),))
        return grouped, depthwise, dilated, one_d

    return Case(
        fn,
        (
            normal(rng, 1, 4, 6, 6),
            normal(rng, 6, 2, 3, 3, scale=0.3),
            normal(rng, 4, 1, 3, 3, scale=0.3),
            normal(rng, 3, 4, 2, 2, scale=0.3),
            normal(rng, 2, 3, 9),
            normal(rng, 5, 3, 3, scale=0.3),
        ),
    )


@program
def conv_transpose(rng: np.random.Generator) -> Case:
    """lax.conv_transpose (stride 2: a convolution with lhs_dilation) and the gradient of a grouped
    conv w.r.t. input and kernel (reversed kernels, batch_group_count)."""

    def fn(x: jax.Array, k: jax.Array, xg: jax.Array, kg: jax.Array) -> tuple[jax.Array, ...]:
        up = lax.conv_transpose(x, k, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

        def loss(xg: jax.Array, kg: jax.Array) -> jax.Array:
            y = lax.conv_general_dilated(xg, kg, (2, 2), ((1, 1), (1, 1)), feature_group_count=2)
            return jnp.sum(jnp.tanh(y))

        dx, dk = jax.grad(loss, argnums=(0, 1))(xg, kg)
        return up, dx, dk

    return Case(
        fn,
        (
            normal(rng, 1, 4, 4, 2),
            normal(rng, 3, 3, 2, 3, scale=0.3),
            normal(rng, 2, 4, 6, 6),
            normal(rng, 6, 2, 3, 3, scale=0.3),
        ),
    )


@program
def pool_grad(rng: np.random.Generator) -> Case:
    """Gradient of max pooling (select-and-scatter) and of padded average pooling (pad and
    reduce-window on the cotangent)."""

    def loss(x: jax.Array) -> jax.Array:
        mx = lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        av = lax.reduce_window(x, 0.0, lax.add, (1, 1, 3, 3), (1, 1, 1, 1), "SAME") / 9.0
        return jnp.sum(mx**2) + jnp.sum(av * x)

    return Case(jax.value_and_grad(loss), (normal(rng, 2, 2, 6, 6),))


@program
def checkpoint(rng: np.random.Generator) -> Case:
    """jax.grad through jax.checkpoint (rematerialization): the opt-barrier opcode, plus
    stop_gradient."""

    @jax.checkpoint
    def block(w: jax.Array, x: jax.Array) -> jax.Array:
        return jnp.sin(x @ w) * jnp.cos(x)

    def loss(w: jax.Array, x: jax.Array) -> jax.Array:
        h = block(w, block(w, x))
        return jnp.sum(h * lax.stop_gradient(h))

    return Case(jax.value_and_grad(loss), (normal(rng, 4, 4, scale=0.5), normal(rng, 3, 4)))


@program
def complex_ops(rng: np.random.Generator) -> Case:
    """c64 arithmetic: complex from real/imag, real, imag, conj, abs, angle, exp, log, sqrt,
    multiply, divide, a complex matmul."""

    def fn(re: jax.Array, im: jax.Array, z: jax.Array) -> tuple[jax.Array, ...]:
        w = lax.complex(re, im)
        return (
            w * z,
            w / z,
            jnp.conj(z),
            jnp.abs(z),
            jnp.angle(z),
            jnp.exp(z),
            jnp.log(z),
            jnp.sqrt(z),
            jnp.real(z * z),
            jnp.imag(z),
            w @ z.reshape(4, 3),
        )

    z = (normal(rng, 3, 4) + 1j * normal(rng, 3, 4)).astype(np.complex64)
    return Case(fn, (normal(rng, 3, 4), normal(rng, 3, 4), z))


@program
def x64(rng: np.random.Generator) -> Case:
    """With jax_enable_x64: f64 math, s64 and u64 integer ops (shifts, division), converts between
    f64/f32/s64/u64, an f64 reduction and matmul."""

    def fn(x: jax.Array, a: jax.Array, u: jax.Array) -> tuple[jax.Array, ...]:
        return (
            jnp.exp(x) * jnp.float64(1.0 / 3.0),
            x.astype(jnp.float32),
            x.astype(jnp.float32).astype(jnp.float64),
            a * 3 + (a >> 2),
            a // 7,
            u >> jnp.uint64(40),
            u ^ jnp.uint64(0xFFFF_0000_FFFF_0000),
            a.astype(jnp.float64),
            x.astype(jnp.int64),
            x.sum(),
            x.reshape(2, 3) @ x.reshape(3, 2),
        )

    a = rng.integers(-(2**40), 2**40, size=6).astype(np.int64)
    u = rng.integers(0, 2**63, size=6, dtype=np.uint64) * np.uint64(2)
    return Case(fn, (rng.standard_normal(6) * 3.0, a, u), x64=True)


# ---------------------------------------------------------------------------------------------
# Lowering, compiling, running
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dump:
    hlo: str
    opt_hlo: str
    args: list[np.ndarray]
    outs: list[np.ndarray]


def storable(x: Any) -> np.ndarray:
    """A NumPy array `np.savez` can store: ml_dtypes' extension types are widened."""
    a = np.asarray(x)
    if a.dtype.kind != "V":  # bool, ints, floats, complex: native NumPy types
        return a
    try:
        signed = ml_dtypes.iinfo(a.dtype).min < 0
    except ValueError:  # a float type (bf16, f8, f4, ...)
        return a.astype(np.float32)
    return a.astype(np.int8 if signed else np.uint8)


def long_options() -> Any:
    """XLA's long text form: default options plus operand shapes, large constants and metadata."""
    options = xla_client.hlo.HloPrintOptions()
    options.print_large_constants = True
    options.print_metadata = True
    options.print_operand_shape = True
    return options


def canonical(text: str) -> str:
    """The text as XLA's own parser and printer give it back in the long form, repeated until it
    stops changing (the first pass renumbers the stack-frame tables in the order the printed text
    refers to them); `hlo` must reproduce this exactly from the parsed module."""
    for _ in range(5):
        again = str(xla_client.hlo.hlo_module_from_text(text).to_string(long_options()))
        if again == text:
            return text
        text = again
    raise RuntimeError("XLA's parse and print of the text did not reach a fixed point")


def optimized_text(compiled: Any) -> str:
    return canonical(str(compiled.runtime_executable().hlo_modules()[0].to_string(long_options())))


def make_dump(case: Case) -> Dump:
    with jax.enable_x64(case.x64):
        lowered = jax.jit(case.fn, keep_unused=True).lower(*case.args)
        compiled = lowered.compile()
        outs = compiled(*case.args)
        return Dump(
            hlo=canonical(lowered.as_text(dialect="hlo", debug_info=True)),
            opt_hlo=optimized_text(compiled),
            args=[storable(a) for a in jax.tree_util.tree_leaves(case.args)],
            outs=[storable(o) for o in jax.tree_util.tree_leaves(outs)],
        )


# ---------------------------------------------------------------------------------------------
# Checks on the text
# ---------------------------------------------------------------------------------------------

HLO_TYPE_NAMES = {
    "bool": "pred", "int8": "s8", "int16": "s16", "int32": "s32", "int64": "s64", "uint8": "u8",
    "uint16": "u16", "uint32": "u32", "uint64": "u64", "float16": "f16", "float32": "f32",
    "float64": "f64", "complex64": "c64", "complex128": "c128",
}  # fmt: skip


def entry_parameter_shapes(text: str) -> dict[int, str]:
    """Parameter number -> shape (without layout) of the ENTRY computation's parameters."""
    entry = text[text.index("\nENTRY ") :]
    entry = entry[: entry.index("\n}")]
    found = re.findall(r"= (\w+\[[\d,]*\])(?:\{[^}]*\})? parameter\((\d+)\)", entry)
    return {int(number): shape for shape, number in found}


def check(name: str, dump: Dump, case: Case) -> None:
    """Fail loudly if a dump is empty, elides constants, or its parameters do not match the args."""
    leaves = [np.asarray(a) for a in jax.tree_util.tree_leaves(case.args)]
    expected = {
        i: f"{HLO_TYPE_NAMES[a.dtype.name]}[{','.join(map(str, a.shape))}]" for i, a in enumerate(leaves)
    }
    for kind, text in (("hlo", dump.hlo), ("opt.hlo", dump.opt_hlo)):
        if not text.strip():
            raise RuntimeError(f"{name}.{kind} is empty")
        if "{...}" in text:
            raise RuntimeError(f"{name}.{kind} elides a constant as {{...}}")
        if (got := entry_parameter_shapes(text)) != expected:
            raise RuntimeError(f"{name}.{kind}: entry parameters {got} do not match the args {expected}")
    if not dump.outs:
        raise RuntimeError(f"{name} has no outputs")


# ---------------------------------------------------------------------------------------------
# Opcode census (for the README)
# ---------------------------------------------------------------------------------------------


def instruction_opcodes(text: str) -> Iterator[str]:
    """The opcode of every instruction line: the token before `(` after `name = shape`."""
    for line in text.splitlines():
        m = re.match(r"\s*(?:ROOT\s+)?%?[\w.\-]+ = ", line)
        if not m:
            continue
        rest = line[m.end() :]
        if rest.startswith("("):  # a tuple shape: skip to its closing parenthesis
            depth = 0
            for pos, ch in enumerate(rest):
                depth += {"(": 1, ")": -1}.get(ch, 0)
                if depth == 0:
                    rest = rest[pos + 1 :]
                    break
        else:
            rest = rest.split(" ", 1)[1] if " " in rest else ""
        op = re.match(r"\s*([\w\-]+)\(", rest)
        if op:
            yield op.group(1)


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------


def write_dump(name: str, dump: Dump) -> None:
    (OUT_DIR / f"{name}.hlo").write_text(dump.hlo)
    (OUT_DIR / f"{name}.opt.hlo").write_text(dump.opt_hlo)
    arrays = {f"arg{i}": a for i, a in enumerate(dump.args)}
    arrays |= {f"out{i}": o for i, o in enumerate(dump.outs)}
    np.savez(OUT_DIR / f"{name}.npz", **arrays)


def seed_for(name: str) -> int:
    """A fixed seed per program that does not depend on the order of the programs."""
    return zlib.crc32(name.encode())


def opcode_table() -> str:
    unopt: Counter[str] = Counter()
    opt: Counter[str] = Counter()
    for path in sorted(OUT_DIR.glob("*.hlo")):
        target = opt if path.name.endswith(".opt.hlo") else unopt
        target.update(instruction_opcodes(path.read_text()))
    rows = ["| opcode | in `.hlo` | in `.opt.hlo` |", "|---|---:|---:|"]
    rows += [f"| `{op}` | {unopt[op]} | {opt[op]} |" for op in sorted(unopt.keys() | opt.keys())]
    return "\n".join(rows)


def write_readme() -> None:
    present = [p for p in PROGRAMS.values() if (OUT_DIR / f"{p.name}.npz").exists()]
    lines = [
        "# Golden HLO dumps from JAX",
        "",
        f"Real HLO modules made by jax/jaxlib {jax.__version__} on XLA:CPU, written by",
        "`tools/make_golden_dumps.py` (do not edit by hand). Regenerate with the `dev` extra installed:",
        "",
        "```sh",
        "pip install -e '.[dev]'",
        "python tools/make_golden_dumps.py            # every program",
        "python tools/make_golden_dumps.py sort fft   # only some",
        "```",
        "",
        "For each program `<name>`:",
        "",
        '- `<name>.hlo`: unoptimized HLO text (`lowered.as_text(dialect="hlo", debug_info=True)`), with',
        "  metadata and the FileNames/FunctionNames/FileLocations/StackFrames tables; source paths are",
        "  relative to the repository root.",
        "- `<name>.opt.hlo`: the module after XLA:CPU's optimizations (fusions, copies, layout bitcasts,",
        "  custom calls), printed with large constants and metadata.",
        "- `<name>.npz`: inputs `arg0, arg1, ...` (one per entry parameter, in parameter order) and",
        "  XLA:CPU's outputs `out0, out1, ...` (leaves of the result, depth first; the unoptimized root",
        "  is a tuple of them when there are several). Types NumPy lacks are widened: bf16/f8 as",
        "  float32, int4 as int8, uint4 as uint8 (only `elementwise` has one: a bf16 output). The",
        "  HLO text has the true types.",
        "",
        "Outputs are XLA:CPU's, not exact math: float results may differ from other evaluation orders",
        "in the last bits (FMA contraction, reduction order, fast approximations of exp/tanh/...).",
        "Eigen- and singular vectors in `linalg` are unique only up to sign.",
        "",
        "## Programs",
        "",
        "| program | covers |",
        "|---|---|",
        *[f"| `{p.name}` | {p.description} |" for p in present],
        "",
        "## Opcodes in the corpus",
        "",
        "Number of instructions with each opcode, over all files.",
        "",
        opcode_table(),
        "",
    ]
    (OUT_DIR / "README.md").write_text("\n".join(lines))


def remove_files(name: str) -> None:
    for suffix in (".hlo", ".opt.hlo", ".npz"):
        (OUT_DIR / f"{name}{suffix}").unlink(missing_ok=True)


def remove_stale_files() -> None:
    """Delete dumps of programs that no longer exist."""
    for path in OUT_DIR.iterdir():
        stem = path.name.split(".", 1)[0]
        if path.suffix in (".hlo", ".npz") and stem not in PROGRAMS:
            path.unlink()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", nargs="*", help=f"programs to dump (default: all): {', '.join(PROGRAMS)}")
    names = parser.parse_args(argv).programs or list(PROGRAMS)
    if unknown := [n for n in names if n not in PROGRAMS]:
        parser.error(f"unknown programs: {', '.join(unknown)}")

    # Metadata names source files relative to the repository root, not by absolute path.
    jax.config.update("jax_hlo_source_file_canonicalization_regex", "^" + re.escape(f"{REPO_ROOT}/"))
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    failed = []
    for name in names:
        case = PROGRAMS[name].build(np.random.default_rng(seed_for(name)))
        try:
            dump = make_dump(case)
            check(name, dump, case)
        except Exception as e:  # report, drop the program's old files, go on with the others
            print(f"FAILED {name}: {type(e).__name__}: {e}", file=sys.stderr)
            failed.append(name)
            remove_files(name)
            continue
        write_dump(name, dump)
        print(f"{name}: {len(dump.args)} args, {len(dump.outs)} outputs")
    if len(names) == len(PROGRAMS):
        remove_stale_files()
    write_readme()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
