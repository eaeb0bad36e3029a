"""hlo.numerics.native_loops: the C library's call loops as machine code made ahead of time
(x86-64 Linux). The same bits as the loops llvmlite compiles from the same IR and as calls one
by one through ctypes; a first use loads no llvmlite; elsewhere the other loops take over."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from hlo.numerics import libm, libm_loop, native_loops

needs_native = pytest.mark.skipif(native_loops.address(32, 1) is None, reason="no ahead-of-time loops here")
OPS = [("sine", 1), ("cbrt", 1), ("atan2", 2), ("power", 2)]


def _operands(dtype: type, arity: int, n: int = 4096) -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    xs = [rng.uniform(-50, 50, n).astype(dtype) for _ in range(arity)]
    for x in xs:  # edges: zeros, infinities, NaN, the smallest normal
        x[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, np.finfo(dtype).tiny]
    return xs


def _one_by_one(op: str, xs: list[np.ndarray]) -> np.ndarray:
    fn = libm.function(op, xs[0].dtype)
    return np.array([fn(*(float(x[i]) for x in xs)) for i in range(xs[0].size)], xs[0].dtype)


@needs_native
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("op", "arity"), OPS)
def test_native_loops_call_the_function_for_every_element(op: str, arity: int, dtype: type) -> None:
    xs = _operands(dtype, arity)
    out = np.empty_like(xs[0])
    libm_loop.run(libm.function(op, xs[0].dtype), xs, out)
    want = _one_by_one(op, xs)
    assert np.array_equal(out.view(np.uint8), want.view(np.uint8))
    assert not np.array_equal(out, xs[0])  # (the function ran)


@needs_native
def test_native_loops_match_llvmlites_and_keep_subnormal_inputs() -> None:
    llvm = pytest.importorskip("llvmlite.binding")
    assert llvm is not None
    rng = np.random.default_rng(4)
    for width, dtype in ((32, np.float32), (64, np.float64)):
        for op, arity in OPS:
            xs = [rng.uniform(-3, 3, 50000).astype(dtype) for _ in range(arity)]
            xs[0][:3] = np.array([1e-40, -1e-41, 2e-39]).astype(dtype)  # f32 subnormals by their bits
            native, compiled = np.empty_like(xs[0]), np.empty_like(xs[0])
            address = libm_loop.ctypes.cast(libm.function(op, xs[0].dtype), libm_loop.ctypes.c_void_p).value
            loop = libm_loop.ctypes.CFUNCTYPE(None, *[libm_loop.ctypes.c_void_p] * (arity + 3))
            for target, out in (
                (native_loops.address(width, arity), native),
                (libm_loop._compile(width, arity), compiled),
            ):
                loop(target)(address, out.size, *(a.ctypes.data for a in xs), out.ctypes.data)
            assert np.array_equal(native.view(np.uint8), compiled.view(np.uint8)), (op, width)


@needs_native
def test_a_first_result_loads_no_llvmlite() -> None:
    code = (
        "import sys, numpy as np, hlo\n"
        "m = hlo.parse_module('HloModule m\\nENTRY e {\\n  p = f32[100000] parameter(0)\\n"
        "  ROOT s = f32[100000] sine(p)\\n}\\n')\n"
        "x = np.linspace(-3, 3, 100000, dtype=np.float32)\n"
        "y = hlo.run(m, x)\n"
        "assert abs(float(y[-1]) - float(np.sin(np.float32(3)))) < 1e-6\n"
        "print('llvmlite.binding' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_without_native_loops_the_other_paths_give_the_same_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    xs = _operands(np.float32, 2, 300)
    want = _one_by_one("atan2", xs)
    monkeypatch.setattr(native_loops, "address", lambda width, arity: None)
    monkeypatch.setattr(libm_loop, "_loop", libm_loop._loop.__wrapped__)  # (uncached: llvmlite's)
    for size in (300, libm.COMPILED_MIN_ELEMENTS + 5):  # ctypes calls, then a compiled loop
        big = [np.resize(x, size) for x in xs]
        got = libm.apply("atan2", big)
        assert np.array_equal(got[:300].view(np.uint32), want.view(np.uint32))
