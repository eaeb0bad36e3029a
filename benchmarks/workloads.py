"""The workloads of the speed benchmark (issue: "within 1.5x of XLA:CPU on real workloads"), each
a jax program with its inputs.

`make(name, quick)` gives the function and the NumPy inputs it is lowered with; the inputs become
the entry parameters (`jax.jit(fn, keep_unused=True)`), so both engines read the same values and
nothing is folded into constants. `quick` shrinks every size (for iterating on the harness; the
ratios of the quick sizes are not the issue's table). Needs jax (the `dev` extra): only
benchmarks/bench_xla.py imports this module, in the process that writes the HLO text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    build: Callable[[bool, np.random.Generator], tuple[Callable[..., Any], list[np.ndarray]]]


def _f32(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _n(quick: bool, full: int, small: int) -> int:
    return small if quick else full


# Elementwise and normalisations ----------------------------------------------------------------


def sin_mul_add(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    return (lambda x: jnp.sin(x) * 2 + x), [_f32(rng, _n(quick, 1 << 22, 1 << 18))]


def chain12(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    def f(x, y):  # type: ignore[no-untyped-def]
        a = x * 1.5 + y  # 2
        b = jnp.tanh(a) - x  # 4
        c = jnp.exp(-jnp.abs(b))  # 7
        d = jnp.maximum(c, y) * 0.25  # 9
        return jnp.sqrt(d * d + 1.0) / (c + 2.0)  # 12 (+ constants)

    n = _n(quick, 1 << 22, 1 << 18)
    return f, [_f32(rng, n), _f32(rng, n)]


def softmax(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax

    return (lambda x: jax.nn.softmax(x, axis=-1)), [_f32(rng, _n(quick, 4096, 512), 1024)]


def layernorm(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    def f(x, g, b):  # type: ignore[no-untyped-def]
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
        return (x - mean) * (1.0 / jnp.sqrt(var + 1e-5)) * g + b

    rows = _n(quick, 4096, 512)
    return f, [_f32(rng, rows, 1024), _f32(rng, 1024), _f32(rng, 1024)]


# Dots and convolution --------------------------------------------------------------------------


def matmul(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    n = _n(quick, 1024, 256)
    return jnp.matmul, [_f32(rng, n, n), _f32(rng, n, n)]


def batched_matmul(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    b = _n(quick, 32, 4)
    return jnp.matmul, [_f32(rng, b, 256, 256), _f32(rng, b, 256, 256)]


def convolution(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    from jax import lax

    def f(x, k):  # type: ignore[no-untyped-def]
        return lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"))

    b = _n(quick, 32, 2)
    return f, [_f32(rng, b, 64, 56, 56), _f32(rng, 64, 64, 3, 3, scale=0.1)]


# Reductions and windows ------------------------------------------------------------------------


def sum_all(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    return jnp.sum, [_f32(rng, _n(quick, 1 << 24, 1 << 20))]


def row_max(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    n = _n(quick, 4096, 1024)
    return (lambda x: jnp.max(x, axis=1)), [_f32(rng, n, n)]


def column_sum(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    n = _n(quick, 4096, 1024)
    return (lambda x: jnp.sum(x, axis=0)), [_f32(rng, n, n)]


def _max_pool(x):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp
    from jax import lax

    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 3, 3), (1, 1, 2, 2), "SAME")


def max_pool(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    return _max_pool, [_f32(rng, _n(quick, 32, 2), 64, 56, 56)]


def max_pool_grad(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax

    def f(x, g):  # type: ignore[no-untyped-def]
        y, back = jax.vjp(_max_pool, x)
        return y, back(g)[0]

    b = _n(quick, 32, 2)
    return f, [_f32(rng, b, 64, 56, 56), _f32(rng, b, 64, 28, 28)]


def cumsum(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    n = _n(quick, 4096, 256)
    return (lambda x: jnp.cumsum(x, axis=1)), [_f32(rng, n, n)]  # reduce-window on CPU


# Data movement ---------------------------------------------------------------------------------


def _ids(quick: bool, rng: np.random.Generator) -> tuple[int, np.ndarray]:
    vocab = _n(quick, 50000, 5000)
    return vocab, rng.integers(0, vocab, _n(quick, 65536, 8192)).astype(np.int32)


def gather(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    vocab, ids = _ids(quick, rng)
    return (lambda table, i: table[i]), [_f32(rng, vocab, 256), ids]


def scatter_add(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    vocab, ids = _ids(quick, rng)
    return (lambda i, g: jnp.zeros((vocab, 256), jnp.float32).at[i].add(g)), [ids, _f32(rng, len(ids), 256)]


def sort(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    return jnp.sort, [_f32(rng, _n(quick, 1 << 20, 1 << 16))]


def argsort(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    return jnp.argsort, [_f32(rng, _n(quick, 1 << 20, 1 << 16))]


def top_k(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    from jax import lax

    return (lambda x: lax.top_k(x, 64)), [_f32(rng, _n(quick, 1024, 128), 4096)]


def fft(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp

    rows = _n(quick, 256, 32)
    x = (rng.standard_normal((rows, 4096)) + 1j * rng.standard_normal((rows, 4096))).astype(np.complex64)
    return (lambda v: jnp.fft.fft(v, axis=-1)), [x]


# Control flow and per-instruction overhead -----------------------------------------------------


def while_loop(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp
    from jax import lax

    steps = _n(quick, 1000, 100)

    def f(x, w):  # type: ignore[no-untyped-def]
        return lax.fori_loop(0, steps, lambda i, v: v * w + jnp.sin(v) * 0.01, x)

    return f, [_f32(rng, 16), np.full(16, 0.999, np.float32)]


def scan_rnn(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax.numpy as jnp
    from jax import lax

    def f(h, xs, w, u, b):  # type: ignore[no-untyped-def]
        def cell(h, x):  # type: ignore[no-untyped-def]
            h = jnp.tanh(w @ h + u @ x + b)
            return h, h

        return lax.scan(cell, h, xs)

    steps = _n(quick, 1000, 100)
    return f, [
        _f32(rng, 64),
        _f32(rng, steps, 64),
        _f32(rng, 64, 64, scale=0.125),
        _f32(rng, 64, 64, scale=0.125),
        _f32(rng, 64),
    ]


def scalar_chain(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    count = _n(quick, 10000, 1000)

    def f(x, a, c):  # type: ignore[no-untyped-def]
        for _ in range(count // 2):
            x = x * a + c  # two instructions each; a, c keep XLA from folding them away
        return x

    return f, [np.float32(0.5), np.float32(0.999), np.float32(0.001)]


# Training steps --------------------------------------------------------------------------------


def _sgd(loss, params, *batch):  # type: ignore[no-untyped-def]
    import jax

    value, grads = jax.value_and_grad(loss)(params, *batch)
    return value, jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)


def _xent(logits, labels):  # type: ignore[no-untyped-def]
    import jax
    import jax.numpy as jnp

    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1))


def _one_hot(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    return np.eye(k, dtype=np.float32)[rng.integers(0, k, n)]


def mlp_step(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax

    sizes = (784, 512, 512, 10)

    def loss(params, x, y):  # type: ignore[no-untyped-def]
        for k, (w, b) in enumerate(params):
            x = x @ w + b
            if k < len(params) - 1:
                x = jax.nn.relu(x)
        return _xent(x, y)

    def step(params, x, y):  # type: ignore[no-untyped-def]
        return _sgd(loss, params, x, y)

    batch = _n(quick, 128, 32)
    params = [(_f32(rng, a, b, scale=a**-0.5), np.zeros(b, np.float32)) for a, b in zip(sizes, sizes[1:])]
    return step, [params, _f32(rng, batch, 784), _one_hot(rng, batch, 10)]


def lenet_step(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import jax
    from jax import lax

    def conv(x, k):  # type: ignore[no-untyped-def]
        return lax.conv_general_dilated(x, k, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def pool(x):  # type: ignore[no-untyped-def]
        return lax.reduce_window(x, -float("inf"), lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def loss(params, x, y):  # type: ignore[no-untyped-def]
        k1, k2, w1, w2, w3 = params
        x = pool(jax.nn.relu(conv(x, k1)))  # 28 -> 24 -> 12
        x = pool(jax.nn.relu(conv(x, k2)))  # 12 -> 8 -> 4
        x = x.reshape(x.shape[0], -1)
        x = jax.nn.relu(x @ w1)
        x = jax.nn.relu(x @ w2)
        return _xent(x @ w3, y)

    def step(params, x, y):  # type: ignore[no-untyped-def]
        return _sgd(loss, params, x, y)

    batch = _n(quick, 64, 8)
    params = [
        _f32(rng, 6, 1, 5, 5, scale=0.2),
        _f32(rng, 16, 6, 5, 5, scale=0.08),
        _f32(rng, 256, 120, scale=256**-0.5),
        _f32(rng, 120, 84, scale=120**-0.5),
        _f32(rng, 84, 10, scale=84**-0.5),
    ]
    return step, [params, _f32(rng, batch, 1, 28, 28), _one_hot(rng, batch, 10)]


def _transformer(quick: bool, rng: np.random.Generator, dtype: Any):  # type: ignore[no-untyped-def]
    import jax
    import jax.numpy as jnp

    batch, seq, d, heads, hidden = (8, 128, 256, 4, 1024) if not quick else (2, 32, 64, 4, 256)

    def norm(x):  # type: ignore[no-untyped-def]
        mean = jnp.mean(x, axis=-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(jnp.var(x, axis=-1, keepdims=True) + 1e-5)

    def block(params, x):  # type: ignore[no-untyped-def]
        wq, wk, wv, wo, w1, w2 = params
        h = norm(x)
        q, k, v = ((h @ w).reshape(batch, seq, heads, d // heads).transpose(0, 2, 1, 3) for w in (wq, wk, wv))
        s = (q @ k.transpose(0, 1, 3, 2)) * (d // heads) ** -0.5
        mask = jnp.tril(jnp.ones((seq, seq), bool))
        a = jax.nn.softmax(jnp.where(mask, s, -1e9).astype(jnp.float32), axis=-1).astype(x.dtype)
        o = (a @ v).transpose(0, 2, 1, 3).reshape(batch, seq, d)
        x = x + o @ wo
        return x + jax.nn.gelu(norm(x) @ w1) @ w2

    def step(params, x):  # type: ignore[no-untyped-def]
        def loss(p):  # type: ignore[no-untyped-def]
            return jnp.mean(jnp.square(block(p, x).astype(jnp.float32)))

        value, grads = jax.value_and_grad(loss)(params)
        return value, grads

    shapes = [(d, d)] * 4 + [(d, hidden), (hidden, d)]
    params = [_f32(rng, *s, scale=s[0] ** -0.5).astype(dtype) for s in shapes]
    return step, [params, _f32(rng, batch, seq, d).astype(dtype)]


def transformer_f32(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    return _transformer(quick, rng, np.float32)


def transformer_bf16(quick: bool, rng: np.random.Generator):  # type: ignore[no-untyped-def]
    import ml_dtypes

    return _transformer(quick, rng, ml_dtypes.bfloat16)


WORKLOADS: tuple[Workload, ...] = (
    Workload("sin_mul_add", "sin(x)*2+x, 4M f32", sin_mul_add),
    Workload("chain12", "12-op elementwise chain, 4M f32", chain12),
    Workload("softmax", "softmax over [4096,1024]", softmax),
    Workload("layernorm", "layernorm over [4096,1024]", layernorm),
    Workload("matmul", "matmul 1024^3", matmul),
    Workload("batched_matmul", "batched matmul [32,256,256]", batched_matmul),
    Workload("convolution", "convolution NCHW [32,64,56,56] x [64,64,3,3]", convolution),
    Workload("sum", "sum over 16M", sum_all),
    Workload("row_max", "row max over [4096,4096]", row_max),
    Workload("col_sum", "column sum over [4096,4096]", column_sum),
    Workload("max_pool", "3x3 max-pool forward, [32,64,56,56]", max_pool),
    Workload("max_pool_grad", "3x3 max-pool forward+gradient", max_pool_grad),
    Workload("gather", "embedding gather ([50000,256], 65536 rows)", gather),
    Workload("scatter_add", "scatter-add gradient ([50000,256], 65536 rows)", scatter_add),
    Workload("sort", "sort of 1M f32", sort),
    Workload("argsort", "argsort of 1M f32", argsort),
    Workload("top_k", "top-k 64 of [1024,4096]", top_k),
    Workload("while_loop", "while loop, 1000 iterations of a small body", while_loop),
    Workload("scan_rnn", "scan of an RNN cell, 1000 steps, [64] state", scan_rnn),
    Workload("mlp_step", "MLP training step", mlp_step),
    Workload("lenet_step", "LeNet training step", lenet_step),
    Workload("transformer_f32", "transformer block fwd+bwd, f32", transformer_f32),
    Workload("transformer_bf16", "transformer block fwd+bwd, bf16", transformer_bf16),
    Workload("scalar_chain", "chain of 10,000 scalar ops", scalar_chain),
    Workload("cumsum", "cumulative sum over [4096,4096] (reduce-window)", cumsum),
    Workload("fft", "FFT [256,4096] c64", fft),
)

BY_NAME = {w.name: w for w in WORKLOADS}


def make(name: str, quick: bool, seed: int = 0) -> tuple[Callable[..., Any], list[Any]]:
    """The workload's function and its inputs (a list of arguments, possibly pytrees)."""
    return BY_NAME[name].build(quick, np.random.default_rng(seed))
