"""Arrays of other libraries as `hlo.run` arguments (without importing them: fakes with
`__array__` and `__dlpack__` stand in for jax and torch arrays), and `hlo.from_jax`, whose tests
need jax and compare with what jax itself computes on XLA:CPU (skipped where jax is missing)."""

from __future__ import annotations

import sys
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import hlo

ADD = hlo.parse_module(
    """HloModule add
ENTRY main {
  a = bf16[2,3]{1,0} parameter(0)
  b = bf16[2,3]{1,0} parameter(1)
  ROOT sum = bf16[2,3]{1,0} add(a, b)
}""",
    "add.hlo",
)
BF16 = np.dtype(ml_dtypes.bfloat16)


class ArrayOnly:
    """An array library's array that NumPy reads through `__array__` (as jax's arrays)."""

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.data if dtype is None else self.data.astype(dtype)


class DlpackOnly:
    """An array reachable only through DLPack (as some GPU libraries' arrays)."""

    def __init__(self, data: np.ndarray) -> None:
        self.data = data

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.data.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self.data.__dlpack_device__()


class Refusing:
    """An array whose library refuses both ways out (torch's bf16 tensors refuse `__array__`)."""

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise TypeError("Got unsupported ScalarType BFloat16")

    def __dlpack__(self, **kwargs: Any) -> Any:
        raise BufferError("bfloat16 is not a DLPack type NumPy reads")


class Objects:
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.array([object()] * 3, dtype=object)


def test_bf16_through_array_protocol_keeps_its_type():
    a = np.arange(6, dtype=np.float32).reshape(2, 3).astype(BF16)
    out = hlo.run(ADD, ArrayOnly(a), ArrayOnly(a))
    assert out.dtype == BF16
    np.testing.assert_array_equal(out.astype(np.float32), 2 * np.arange(6, dtype=np.float32).reshape(2, 3))


def test_dlpack_only_array():
    m = hlo.parse_module(
        "HloModule m\nENTRY e {\n  p = f32[3]{0} parameter(0)\n  ROOT n = f32[3]{0} negate(p)\n}", "m.hlo"
    )
    out = hlo.run(m, DlpackOnly(np.array([1.0, -2.0, 0.5], np.float32)))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [-1.0, 2.0, -0.5])


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            ArrayOnly(np.zeros((2, 3), np.float32)),
            r"argument 0 \(a\) must be bf16\[2,3\]\{1,0\}: got a f32\[2,3\] ArrayOnly \(dtype float32\)",
        ),
        (
            DlpackOnly(np.zeros((2, 3), np.float16)),
            r"argument 0 \(a\) must be bf16\[2,3\]\{1,0\}: got a f16\[2,3\] DlpackOnly \(dtype float16\)",
        ),
        (ArrayOnly(np.zeros((3, 2), BF16)), r"argument 0 \(a\) must be bf16\[2,3\]\{1,0\}: got bf16\[3,2\]$"),
        (
            Refusing(),
            r"argument 0 \(a\) must be bf16\[2,3\]\{1,0\}: cannot read the Refusing as a NumPy array "
            r"\(__array__: TypeError: Got unsupported ScalarType BFloat16; __dlpack__: BufferError: ",
        ),
        (
            Objects(),
            r"cannot read the Objects as a NumPy array \(__array__ gave ndarray of object\)",
        ),
    ],
)
def test_array_library_arguments_that_do_not_fit(value, message):
    with pytest.raises(hlo.EvalError, match=message):
        hlo.run(ADD, value, np.zeros((2, 3), BF16))


def test_numpy_and_ml_dtypes_scalars_still_convert_when_exact():
    m = hlo.parse_module(
        "HloModule m\nENTRY e {\n  p = bf16[] parameter(0)\n  ROOT n = bf16[] negate(p)\n}", "m.hlo"
    )
    assert hlo.run(m, ml_dtypes.bfloat16(1.5)) == ml_dtypes.bfloat16(-1.5)
    assert hlo.run(m, np.float32(2.0)) == ml_dtypes.bfloat16(-2.0)
    with pytest.raises(hlo.EvalError, match=r"the values np.float32\(1.0001\) are not exactly representable"):
        hlo.run(m, np.float32(1.0001))


def test_from_jax_without_jax_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(hlo.HloError, match=r"^hlo.from_jax needs jax: pip install 'hlo\[jax\]'$"):
        hlo.from_jax(lambda x: x, np.zeros(2, np.float32))


def test_import_hlo_does_not_import_jax():
    import subprocess

    code = "import sys, hlo; print('jax' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# With jax: the module jax lowers, run by hlo, against jax's own result (XLA:CPU).


def layer(params: dict[str, Any], x: Any, *, scale: float = 1.0) -> Any:
    import jax.numpy as jnp

    h = jnp.tanh(x @ params["w"] + params["b"])
    return h * scale, (h * h).sum(axis=1)


def _inputs(dtype: Any) -> tuple[dict[str, Any], Any]:
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    params = {
        "w": jnp.asarray(rng.standard_normal((3, 4)), dtype),
        "b": jnp.asarray(rng.standard_normal(4), dtype),
    }
    return params, jnp.asarray(rng.standard_normal((2, 3)), dtype)


def _same_bits(got: Any, want: Any) -> None:
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got, want)


def _within_rounding(got: Any, want: Any) -> None:
    """Whole float programs agree within rounding, not bit for bit (as tests/test_engine_programs.py
    says: XLA:CPU fuses multiply-adds and folds reductions in its own order): one bf16 ulp is 2**-8
    relative."""
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = 2e-4 if want.dtype == np.float32 else 2**-7
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=rtol, atol=1e-5)


@pytest.mark.parametrize("optimized", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_from_jax_runs_as_jax_does(optimized, dtype):
    jax = pytest.importorskip("jax")
    params, x = _inputs(dtype)
    m = hlo.from_jax(layer, params, x, scale=2.0, optimized=optimized)
    want = jax.jit(layer)(params, x, scale=2.0)  # one XLA:CPU program, as the module is
    got = hlo.run(m, *jax.tree_util.tree_leaves(((params, x), {"scale": 2.0})))
    assert len(got) == len(want) == 2
    for g, w in zip(got, want):
        _within_rounding(g, w)


def test_from_jax_parameters_are_the_flattened_pytree():
    pytest.importorskip("jax")
    params, x = _inputs("float32")
    m = hlo.from_jax(layer, params, x, scale=2.0)
    # (args, kwargs) flattened: the dict's keys sorted, then x, then the keyword argument.
    by_number = sorted(m.entry.parameters, key=lambda p: p.attr("parameter_number"))
    assert [p.metadata.op_name for p in by_number] == ["params['b']", "params['w']", "x", "scale"]
    assert [str(p.shape) for p in by_number] == ["f32[4]{0}", "f32[3,4]{1,0}", "f32[2,3]{1,0}", "f32[]"]


def test_from_jax_unused_arguments_stay_parameters():
    jax = pytest.importorskip("jax")
    m = hlo.from_jax(lambda a, unused: a + 1, np.float32(1), np.zeros(5, np.int32))
    assert len(m.entry.parameters) == 2
    _same_bits(hlo.run(m, jax.numpy.float32(1), np.zeros(5, np.int32)), np.float32(2))


def test_from_jax_function_that_fails_to_trace():
    pytest.importorskip("jax")

    def bad(x: Any) -> Any:
        return x @ x

    with pytest.raises(hlo.HloError, match=r"^from_jax: jax could not lower bad: TypeError: .*dot_general"):
        hlo.from_jax(bad, np.zeros((2, 3), np.float32))


def test_jax_array_of_the_wrong_type_is_a_clear_error():
    jnp = pytest.importorskip("jax.numpy")
    m = hlo.parse_module(
        "HloModule m\nENTRY e {\n  p = f64[2]{0} parameter(0)\n  ROOT n = f64[2]{0} negate(p)\n}", "m.hlo"
    )
    with pytest.raises(hlo.EvalError, match=r"argument 0 \(p\) must be f64\[2\]\{0\}: got a f32\[2\] \w+ "):
        hlo.run(m, jnp.zeros(2, jnp.float32))


def test_from_jax_integer_program_is_bit_exact():
    jax = pytest.importorskip("jax")

    def mix(a: Any, b: Any) -> Any:
        return (a * 7 + b // 3) % 5 - jax.numpy.cumsum(a)

    a, b = np.arange(-6, 6, dtype=np.int32), np.arange(12, dtype=np.int32)[::-1].copy()
    _same_bits(hlo.run(hlo.from_jax(mix, a, b), a, b), jax.jit(mix)(a, b))


def test_from_jax_optimized_needs_jaxlibs_printer(monkeypatch):
    pytest.importorskip("jax")
    import types

    monkeypatch.setitem(sys.modules, "jax._src.lib", types.ModuleType("jax._src.lib"))
    with pytest.raises(hlo.HloError, match=r"^from_jax\(optimized=True\): this jaxlib does not give"):
        hlo.from_jax(lambda x: x + 1, np.zeros(2, np.float32), optimized=True)
