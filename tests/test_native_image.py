"""hlo.numerics.native_image: the approximations made ahead of time are the IR of today's code
(tools/make_native_image.py remade the image after its last change) and give the bits that
llvmlite's compilation of the same IR for this CPU gives, on values of every kind; where the
image cannot run, nothing uses it."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from hlo.numerics import native_image, subnormals

IMAGE = native_image.APPROXIMATIONS


def _values(dtype: type) -> np.ndarray:
    """Values of every scale and sign, subnormals, zeros, infinities and NaN (3,000 + 13)."""
    rng = np.random.default_rng(11)
    info = np.finfo(dtype)
    scales = 10.0 ** rng.uniform(-45 if dtype is np.float32 else -320, 38, 2000)
    random = (rng.choice([-1.0, 1.0], 2000) * scales).astype(dtype)
    near = rng.uniform(-30, 30, 1000).astype(dtype)
    special = np.array(
        [0.0, -0.0, np.inf, -np.inf, np.nan, info.tiny, -info.tiny, info.smallest_subnormal, 1.0, -1.0,
         info.max, -info.max, 0.5], dtype,
    )  # fmt: skip
    return np.concatenate([random, near, special])


def test_the_image_is_the_ir_of_todays_code() -> None:
    pytest.importorskip("llvmlite")
    from hlo.numerics import native_sources

    header, _ = native_image.read(IMAGE)
    sources = native_sources.approximations()
    assert sorted(header["digests"]) == sorted(sources), "run tools/make_native_image.py"
    for name, (text, _) in sources.items():
        assert header["digests"][name] == native_image.digest(text), f"{name}: run tools/make_native_image.py"


@pytest.mark.parametrize("flush", [True, False])
def test_the_image_gives_llvmlites_bits(flush: bool) -> None:
    pytest.importorskip("llvmlite")
    if not native_image.available(IMAGE):
        pytest.skip("the image does not run on this machine")
    from hlo.numerics import llvm_jit, native_sources

    header, _ = native_image.read(IMAGE)
    checked = 0
    lacking = 0
    for module, (text, optimize) in native_sources.approximations().items():
        names = [key.split(":", 1)[1] for key in header["functions"] if key.startswith(module + ":")]
        if not set(header["module_features"].get(module, [])) <= native_image.cpu_flags():
            assert all(native_image.function(IMAGE, module, name) is None for name in names)
            lacking += len(names)
            continue  # compiled for AVX-512, which this CPU lacks: left out
        imports = {name: native_image.import_address(name) for name in header["imports"] if name in text}
        compiled = llvm_jit.compile_ir(text, names, optimize=optimize, symbols=imports)
        dtype = np.float32 if "32" in module.rsplit("/", 1)[1] else np.float64
        x = _values(dtype)
        for name in names:
            made = native_image.function(IMAGE, module, name)
            assert made is not None
            got, want = (_call(name, address, x, flush) for address in (made, compiled[name]))
            bits = f"u{x.itemsize}"
            assert np.array_equal(got.view(bits), want.view(bits)), f"{module}:{name}"
            checked += 1
    assert checked + lacking == len(header["functions"]) >= 35


def _call(name: str, address: int, x: np.ndarray, flush: bool) -> np.ndarray:
    """Run one function of the image's six kinds over x: a loop `(n, x, out)`, a loop of three
    operands, FMA chains over a matrix, a matrix times a vector, NumPy's strided loop signature,
    or a scalar function."""
    out = np.empty_like(x)
    pointer = ctypes.c_void_p
    real = ctypes.c_float if x.dtype == np.float32 else ctypes.c_double
    with subnormals.flushing_subnormals() if flush else subnormals.keeping_subnormals():
        if name.startswith("chain_"):  # `(k, n, a, b, out)`: n FMA chains over x as [23, 131]
            k = 23
            out = np.zeros(x.size // k, x.dtype)
            a, b = np.ascontiguousarray(x[::-1][:k]), x.reshape(k, -1)
            loop = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, *([pointer] * 3))(address)
            loop(k, b.shape[1], a.ctypes.data, b.ctypes.data, out.ctypes.data)
        elif name.startswith("rows_"):  # `(m, k, w, x, out)`: x as [131, 23] times its reversed rows
            w, v = x.reshape(131, 23), np.ascontiguousarray(x[::-1][:23])
            out = np.empty(131, x.dtype)
            loop = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, *([pointer] * 3))(address)
            loop(131, 23, w.ctypes.data, v.ctypes.data, out.ctypes.data)
        elif name.startswith("ternary_"):  # a loop `(n, a, b, c, out)`: here x*reversed(x) + rolled x
            a, b, c = x, np.ascontiguousarray(x[::-1]), np.roll(x, 7)
            loop = ctypes.CFUNCTYPE(None, ctypes.c_int64, *([pointer] * 4))(address)
            loop(x.size, a.ctypes.data, b.ctypes.data, c.ctypes.data, out.ctypes.data)
        elif name.startswith("loop_"):
            loop = ctypes.CFUNCTYPE(None, ctypes.c_int64, pointer, pointer)(address)
            loop(x.size, x.ctypes.data, out.ctypes.data)
        elif name.startswith("strided_") or name == "loop":
            data = (pointer * 2)(x.ctypes.data, out.ctypes.data)
            dims, steps = (ctypes.c_int64 * 1)(x.size), (ctypes.c_int64 * 2)(x.itemsize, x.itemsize)
            ctypes.CFUNCTYPE(ctypes.c_int32, *([pointer] * 5))(address)(None, data, dims, steps, None)
        else:
            fn = ctypes.CFUNCTYPE(real, real)(address)
            out[:] = [fn(v) for v in x.tolist()]
    return out


def test_the_image_is_not_used_where_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native_image, "cpu_flags", lambda: frozenset({"sse2"}))
    native_image._loaded.cache_clear()
    try:
        assert not native_image.available(IMAGE)
        assert native_image.function(IMAGE, "xla_exp/exp_32", "loop_exp_32") is None
        monkeypatch.undo()
        monkeypatch.setenv("HLO_NATIVE_CODE", "off")
        native_image._loaded.cache_clear()
        assert not native_image.available(IMAGE)
    finally:
        native_image._loaded.cache_clear()
