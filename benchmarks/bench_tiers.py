"""Decision data for the compiled tier (speed issue): candidates measured against each other on
micro-benchmarks that stand for the slow workloads, and subnormal flushing strategies.

Candidates: plain NumPy as the interpreter runs it today (whole arrays, a temporary per op),
blocked NumPy (cache-sized chunks, preallocated scratch, `out=`), numexpr, and numba (@njit,
parallel=True, cache=True; kernels in benchmarks/tier_kernels.py). Each row: the median time,
the speed-up over the first row of its section, and whether the result is bit for bit the
first row's (else the largest difference in ulps). numba's cost to compile in a fresh process,
and to load its on-disk cache in the next one, is measured in child processes.

    python benchmarks/bench_tiers.py             # needs numba and numexpr (pip install numba numexpr)
    python benchmarks/bench_tiers.py --quick
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

HERE = Path(__file__).resolve().parent
F = np.float32


def median_time(fn: Callable[[], Any], reps: int) -> tuple[float, float]:
    """The median and the best of `reps` timed calls, after calls for 0.2 s untimed (a parallel
    kernel's threads start; on loaded cores the first regions wait for a time slice)."""
    start = time.perf_counter()
    while time.perf_counter() - start < 0.2:
        fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def ulps(a: np.ndarray, b: np.ndarray) -> str:
    """'exact', or the largest distance in units in the last place between two float arrays."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "biu":
        return "exact" if np.array_equal(a, b) else f"{np.count_nonzero(a != b)} differ"
    if np.array_equal(a, b, equal_nan=True):
        return "exact"
    bits = a.dtype.itemsize * 8
    ia = a.view(f"i{bits // 8}").astype(np.int64)
    ib = b.view(f"i{bits // 8}").astype(np.int64)
    # map the sign-magnitude bit patterns to a monotonic integer line
    ia = np.where(ia < 0, -(ia & ((1 << (bits - 1)) - 1)), ia)
    ib = np.where(ib < 0, -(ib & ((1 << (bits - 1)) - 1)), ib)
    return f"{int(np.max(np.abs(ia - ib)))} ulp"


class Section:
    def __init__(self, title: str, reps: int) -> None:
        self.title, self.reps, self.rows = title, reps, []  # type: ignore[var-annotated]
        self.base: float | None = None
        self.reference: Any = None

    def add_numba(self, name: str, fn: Callable[[], Any], result: Callable[[], Any] | None = None) -> None:
        """A parallel numba kernel on every thread, then on one (on shared cores a parallel
        region waits for its slowest thread's turn)."""
        import numba

        threads = numba.config.NUMBA_NUM_THREADS
        self.add(f"{name}, {threads} threads", fn, result)
        numba.set_num_threads(1)
        try:
            self.add(f"{name}, 1 thread", fn, result)
        finally:
            numba.set_num_threads(threads)

    def add(self, name: str, fn: Callable[[], Any], result: Callable[[], Any] | None = None) -> None:
        seconds, best = median_time(fn, self.reps)
        value = (result or fn)()
        if self.base is None:
            self.base, self.reference = seconds, value
        exact = (
            "; ".join(ulps(a, b) for a, b in zip(value, self.reference))
            if isinstance(value, tuple)
            else ulps(value, self.reference)
        )
        self.rows.append((name, seconds, best, self.base / seconds, exact))
        line = f"{seconds * 1e3:9.3f} ms (best {best * 1e3:8.3f}) {self.base / seconds:6.2f}x  {exact}"
        print(f"  {name:58} {line}", flush=True)


def while_loop(quick: bool, reps: int) -> Section:
    import tier_kernels as k

    s = Section("while loop: 1000 iterations of v = v * w + sin(v) * 0.01, f32[16]", reps)
    print(s.title)
    rng = np.random.default_rng(0)
    v0, w = rng.standard_normal(16).astype(F), np.full(16, 0.999, F)
    steps = 100 if quick else 1000

    def numpy_loop() -> np.ndarray:
        v, c = v0, F(0.01)
        for _ in range(steps):
            v = v * w + np.sin(v) * c
        return v

    s.add("NumPy, one call per op (the interpreter's floor)", numpy_loop)
    s.add("numba, the whole loop as one function", lambda: k.while_loop(v0, w, steps))
    return s


def chain12(quick: bool, reps: int) -> Section:
    import numexpr as ne

    import tier_kernels as k

    n = 1 << (18 if quick else 22)
    s = Section(f"12-op elementwise chain, {n >> 10}K f32", reps)
    print(s.title)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(n).astype(F), rng.standard_normal(n).astype(F)
    out = np.empty(n, F)

    def unfused() -> np.ndarray:
        a = x * F(1.5) + y
        b = np.tanh(a) - x
        c = np.exp(-np.abs(b))
        d = np.maximum(c, y) * F(0.25)
        return np.sqrt(d * d + F(1)) / (c + F(2))

    def blocked(chunk: int) -> Callable[[], np.ndarray]:
        a, b, d = np.empty(chunk, F), np.empty(chunk, F), np.empty(chunk, F)

        def run() -> np.ndarray:
            for lo in range(0, n, chunk):
                hi = min(n, lo + chunk)
                m = hi - lo
                xs, ys, o = x[lo:hi], y[lo:hi], out[lo:hi]
                aa, bb, dd = a[:m], b[:m], d[:m]
                np.multiply(xs, F(1.5), out=aa)
                np.add(aa, ys, out=aa)
                np.tanh(aa, out=bb)
                np.subtract(bb, xs, out=bb)
                np.abs(bb, out=bb)
                np.negative(bb, out=bb)
                np.exp(bb, out=bb)  # c
                np.maximum(bb, ys, out=dd)
                np.multiply(dd, F(0.25), out=dd)
                np.multiply(dd, dd, out=dd)
                np.add(dd, F(1), out=dd)
                np.sqrt(dd, out=dd)
                np.add(bb, F(2), out=bb)
                np.divide(dd, bb, out=o)
            return out

        return run

    s.add("NumPy, whole arrays, a temporary per op (today)", unfused)
    for chunk in (4096, 16384, 65536, 262144):
        s.add(f"blocked NumPy, {chunk}-element chunks, out=", blocked(chunk))
    expr = "sqrt(where(exp(-abs(tanh(x*1.5+y)-x)) > y, exp(-abs(tanh(x*1.5+y)-x)), y)**2*0.0625 + 1)"
    expr += " / (exp(-abs(tanh(x*1.5+y)-x)) + 2)"
    s.add(f"numexpr ({ne.get_num_threads()} threads)", lambda: ne.evaluate(expr, {"x": x, "y": y}, out=out))
    s.add_numba("numba", lambda: k.chain12(x, y, out), lambda: (k.chain12(x, y, out), out.copy())[1])
    s.add_numba(
        "numba, FTZ/DAZ inside the kernel",
        lambda: k.chain12_flushed(x, y, out),
        lambda: (k.chain12_flushed(x, y, out), out.copy())[1],
    )
    return s


def _pool_reference(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Today's interpreter: a padded copy, a strided view of the windows, one ufunc reduce."""
    p = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=-np.inf)
    win = np.lib.stride_tricks.sliding_window_view(p, (3, 3), axis=(2, 3))[:, :, ::2, ::2]
    return p, win


def max_pool(quick: bool, reps: int) -> tuple[Section, Section]:
    import tier_kernels as k

    b = 2 if quick else 32
    rng = np.random.default_rng(0)
    x = rng.standard_normal((b, 64, 56, 56)).astype(F)
    g = rng.standard_normal((b, 64, 28, 28)).astype(F)
    out = np.empty((b, 64, 28, 28), F)
    s = Section(f"3x3 max-pool (stride 2, SAME), [{b},64,56,56]", reps)
    print(s.title)
    s.add("NumPy, ufunc.reduce over a strided window view (today)", lambda: _pool_reference(x)[1].max((4, 5)))

    def shifted() -> np.ndarray:
        p = np.pad(x, ((0, 0), (0, 0), (0, 1), (0, 1)), constant_values=-np.inf)
        np.copyto(out, p[:, :, 0:56:2, 0:56:2])
        for di in range(3):
            for dj in range(3):
                if di or dj:
                    np.maximum(out, p[:, :, di : di + 56 : 2, dj : dj + 56 : 2], out=out)
        return out

    s.add("NumPy, 9 shifted maxima with out=", shifted)
    s.add_numba("numba", lambda: k.max_pool(x, out), lambda: (k.max_pool(x, out), out.copy())[1])

    t = Section(f"its gradient: select-and-scatter (ge, add), [{b},64,56,56]", max(1, reps // 2))
    print(t.title)
    dx = np.empty_like(x)

    def windows_argmax() -> np.ndarray:
        p, win = _pool_reference(x)
        flat = win.reshape(*win.shape[:4], 9)
        first = np.argmax(flat, axis=-1)  # the first maximum: select ge keeps the earlier
        di, dj = np.divmod(first, 3)
        ii = np.arange(28)[:, None] * 2 + di
        jj = np.arange(28)[None, :] * 2 + dj
        res = np.zeros_like(p)
        nn, cc = np.indices((b, 64))
        np.add.at(res, (nn[..., None, None], cc[..., None, None], ii, jj), g)
        return res[:, :, :56, :56]

    t.add("NumPy, argmax over window views + np.add.at (today's kind)", windows_argmax)
    t.add_numba(
        "numba (planes in parallel, window order kept)",
        lambda: k.select_and_scatter(x, g, dx),
        lambda: (k.select_and_scatter(x, g, dx), dx.copy())[1],
    )
    return s, t


def scatter_add(quick: bool, reps: int) -> Section:
    import tier_kernels as k

    vocab, rows = (5000, 8192) if quick else (50000, 65536)
    rng = np.random.default_rng(0)
    ids = rng.integers(0, vocab, rows).astype(np.int32)
    upd = rng.standard_normal((rows, 256)).astype(F)
    out = np.empty((vocab, 256), F)
    s = Section(f"scatter-add of {rows} rows of 256 into [{vocab},256]", reps)
    print(s.title)

    def add_at() -> np.ndarray:
        res = np.zeros((vocab, 256), F)
        np.add.at(res, ids, upd)
        return res

    def sorted_segments() -> np.ndarray:
        order = np.argsort(ids, kind="stable")  # keeps the update order within a row
        sid = ids[order]
        starts = np.flatnonzero(np.r_[True, sid[1:] != sid[:-1]])
        res = np.zeros((vocab, 256), F)
        res[sid[starts]] = np.add.reduceat(upd[order], starts, axis=0)
        return res

    s.add("NumPy np.add.at (in order)", add_at)
    s.add("NumPy stable sort + add.reduceat", sorted_segments)
    s.add_numba("numba over column blocks (order kept)", lambda: k.scatter_add(ids, upd, out), out.copy)
    return s


def top_k(quick: bool, reps: int) -> Section:
    import tier_kernels as k

    rows = 128 if quick else 1024
    rng = np.random.default_rng(0)
    x = rng.standard_normal((rows, 4096)).astype(F)
    values, indices = np.empty((rows, 64), F), np.empty((rows, 64), np.int32)
    s = Section(f"top-k 64 of [{rows},4096]", reps)
    print(s.title)

    def full_sort() -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(-x, axis=1, kind="stable")[:, :64]
        return np.take_along_axis(x, order, 1), order.astype(np.int32)

    def partition() -> tuple[np.ndarray, np.ndarray]:
        part = np.argpartition(-x, 64, axis=1)[:, :64]
        vals = np.take_along_axis(x, part, 1)
        order = np.lexsort((part, -vals), axis=1)
        idx = np.take_along_axis(part, order, 1)
        return np.take_along_axis(x, idx, 1), idx.astype(np.int32)

    s.add("NumPy stable argsort of each row", full_sort)
    s.add("NumPy argpartition + lexsort of the 64", partition)
    s.add_numba(
        "numba, insertion into a sorted buffer",
        lambda: k.top_k(x, 64, values, indices),
        lambda: (k.top_k(x, 64, values, indices), (values.copy(), indices.copy()))[1],
    )
    return s


def narrow_floats(quick: bool, reps: int) -> Section:
    import ml_dtypes

    import tier_kernels as k

    bf16 = ml_dtypes.bfloat16
    n = 1 << (18 if quick else 22)
    rng = np.random.default_rng(0)
    bits = [rng.integers(0, 1 << 16, n).astype(np.uint16) for _ in range(3)]  # every bf16 value
    a, b, c = (x.view(bf16) for x in bits)
    out = np.empty(n, np.uint16)
    s = Section(f"bf16 a * b + c (each op rounded to bf16), {n >> 10}K random bit patterns", reps)
    print(s.title)

    def numpy_bf16() -> np.ndarray:
        with np.errstate(all="ignore"):
            product = (a.astype(F) * b.astype(F)).astype(bf16)
            return (product.astype(F) + c.astype(F)).astype(bf16).astype(F)  # f32: NaN-aware compare

    s.add("NumPy + ml_dtypes: f32 work, rounded per op (today)", numpy_bf16)
    s.add_numba(
        "numba on the uint16 bits, rounding by bit arithmetic",
        lambda: k.bf16_fma(bits[0], bits[1], bits[2], out),
        lambda: (k.bf16_fma(bits[0], bits[1], bits[2], out), out.view(bf16).astype(F))[1],
    )
    return s


def flushing(quick: bool, reps: int) -> Section:
    import numexpr as ne

    import tier_kernels as k

    try:
        from hlo.numerics import flush_denormals  # after the structure change
    except ImportError:
        from hlo.numerics.numerics import flush_denormals
    n = 1 << (18 if quick else 22)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(F)
    tiny = np.finfo(F).tiny
    s = Section(f"subnormal check of one f32 operand, {n} elements, none subnormal", reps * 2)
    print(s.title)
    s.add("hlo's flush_denormals today (abs, compare, any)", lambda: flush_denormals(x))

    def bits() -> bool:
        u = x.view(np.uint32)
        return bool(np.any((u & np.uint32(0x7F800000)) == 0))  # zeros too: a superset

    def blocked(chunk: int) -> Callable[[], np.ndarray]:
        a, m = np.empty(chunk, F), np.empty(chunk, bool)

        def run() -> np.ndarray:
            for lo in range(0, n, chunk):
                part = x[lo : lo + chunk]
                k_ = part.size
                np.abs(part, out=a[:k_])
                np.less(a[:k_], tiny, out=m[:k_])
                if m[:k_].any():
                    break
            return x

        return run

    s.add("NumPy, exponent bits == 0 (one compare pass + any)", bits, lambda: x)
    s.add("NumPy, min(abs) then compare (abs pass + reduction)", lambda: np.min(np.abs(x)) < tiny, lambda: x)
    for chunk in (16384, 65536):
        s.add(f"blocked NumPy, {chunk}-element chunks", blocked(chunk))
    s.add(
        "numexpr sum(where(abs(x) < tiny, 1, 0))",
        lambda: ne.evaluate("sum(where(abs(x) < 1.1754944e-38, 1, 0))", {"x": x}),
        lambda: x,
    )
    s.add_numba("numba count (one read pass)", lambda: k.count_subnormal(x), lambda: x)
    s.add("nothing: the value cannot hold subnormals (skipped)", lambda: x)
    return s


def compile_probe() -> None:
    """In a child process: import numba and call every kernel once on small inputs; print the
    seconds each first call took (a compile, or a load from the on-disk cache)."""
    t = time.perf_counter()
    import tier_kernels as k

    result: dict[str, float] = {"import": time.perf_counter() - t}
    x = np.ones((1, 1, 8, 8), F)
    flat = np.ones(64, F)
    calls: dict[str, Callable[[], Any]] = {
        "noop": lambda: k.noop(flat),
        "while_loop": lambda: k.while_loop(flat[:16], flat[:16], 3),
        "chain12": lambda: k.chain12(flat, flat, np.empty(64, F)),
        "chain12_flushed": lambda: k.chain12_flushed(flat, flat, np.empty(64, F)),
        "max_pool": lambda: k.max_pool(x, np.empty((1, 1, 4, 4), F)),
        "select_and_scatter": lambda: k.select_and_scatter(x, np.ones((1, 1, 4, 4), F), np.empty_like(x)),
        "scatter_add": lambda: k.scatter_add(np.zeros(4, np.int32), np.ones((4, 8), F), np.empty((2, 8), F)),
        "top_k": lambda: k.top_k(np.ones((2, 128), F), 4, np.empty((2, 4), F), np.empty((2, 4), np.int32)),
        "count_subnormal": lambda: k.count_subnormal(flat),
        "bf16_fma": lambda: k.bf16_fma(*[np.ones(8, np.uint16)] * 3, np.empty(8, np.uint16)),
    }
    for name in k.KERNELS:
        t = time.perf_counter()
        calls[name]()
        result[name] = time.perf_counter() - t
    print(json.dumps(result))


def compile_costs() -> None:
    print("numba: first call in a fresh process (compile), then in the next one (on-disk cache)")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = []
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, str(Path(__file__)), "--compile-probe"],
                env=env,
                capture_output=True,
                text=True,
            )
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    for name in runs[0]:
        print(f"  {name:22} cold {runs[0][name] * 1e3:8.1f} ms   cached {runs[1][name] * 1e3:8.1f} ms")


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--compile-probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("sections", nargs="*", help="while, chain, pool, scatter, topk, bf16, flush, compile")
    opts = parser.parse_args()
    if opts.compile_probe:
        compile_probe()
        return
    import numba
    import numexpr

    threads = numba.config.NUMBA_NUM_THREADS
    print(f"numba {numba.__version__} ({threads} threads), numexpr {numexpr.__version__}")
    print(f"NumPy {np.__version__}, {os.cpu_count()} cores\n")
    wanted = set(opts.sections or ["while", "chain", "pool", "scatter", "topk", "bf16", "flush", "compile"])
    if "compile" in wanted:
        compile_costs()
    steps = {
        "while": while_loop,
        "chain": chain12,
        "pool": max_pool,
        "scatter": scatter_add,
        "topk": top_k,
        "bf16": narrow_floats,
        "flush": flushing,
    }
    for key, fn in steps.items():
        if key in wanted:
            fn(opts.quick, opts.reps)


if __name__ == "__main__":
    main()
