"""Custom calls: Python functions and C functions (page 003's ABI) registered by target name,
the built-in targets, and the errors a user sees."""

# ruff: noqa: E501  (HLO text lines)

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import hlo

MODULE = """HloModule m
ENTRY e {
  x = f32[2] parameter(0)
  y = f32[2,3] parameter(1)
  ROOT r = f32[3,3] custom-call(x, y), custom_call_target="%s"
}
"""
X = np.array([1, 2], np.float32)
Y = np.array([[10, 20, 30], [40, 50, 60]], np.float32)


def test_python_function():
    hlo.register_custom_call("outer_plus", lambda x, y: np.add.outer(y[1], x[:1].repeat(3)))
    got = hlo.run(hlo.parse_module(MODULE % "outer_plus"), X, Y)
    assert got.tolist() == [[41.0] * 3, [51.0] * 3, [61.0] * 3]


def test_python_function_sees_backend_config_and_shape():
    seen = {}

    def fn(x, y, backend_config, shape):
        seen["config"], seen["shape"] = backend_config, shape
        return np.zeros(shape.dimensions)

    hlo.register_custom_call("inspect_me", fn)
    text = (MODULE % "inspect_me").replace('target="inspect_me"', 'target="inspect_me", backend_config="cfg"')
    hlo.run(hlo.parse_module(text), X, Y)
    assert seen["config"] == "cfg"
    assert str(seen["shape"]) == "f32[3,3]{1,0}"


def test_wrong_result_and_raising_functions_are_named():
    hlo.register_custom_call("bad_shape", lambda x, y: np.zeros(4))
    with pytest.raises(
        hlo.EvalError, match=r"%r: custom-call target 'bad_shape' returned an array of shape \(4,\)"
    ):
        hlo.run(hlo.parse_module(MODULE % "bad_shape", "m.hlo"), X, Y)

    def boom(x, y):
        raise ValueError("no")

    hlo.register_custom_call("boom", boom)
    with pytest.raises(hlo.EvalError, match=r"custom-call target 'boom' raised ValueError: no"):
        hlo.run(hlo.parse_module(MODULE % "boom"), X, Y)


def test_unknown_target_says_how_to_register():
    with pytest.raises(
        hlo.EvalError, match=r"unknown custom-call target 'nowhere': register .*register_custom_call"
    ):
        hlo.run(hlo.parse_module(MODULE % "nowhere"), X, Y)


C_SOURCE = r"""
void myfunc(void* out, void** in) {
  float (*x)[2] = (float (*)[2]) in[0];
  float (*y)[2][3] = (float (*)[2][3]) in[1];
  float (*z)[3][3] = (float (*)[3][3]) out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      (*z)[i][j] = (*x)[1] + (*y)[1][j] + i;
}
"""


def test_c_function_with_the_page_003_abi(tmp_path: Path):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler on this machine")
    source, library = tmp_path / "myfunc.c", tmp_path / "libmyfunc.so"
    source.write_text(C_SOURCE)
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    hlo.register_c_custom_call("myfunc", str(library))
    got = hlo.run(hlo.parse_module(MODULE % "myfunc"), X, Y)
    assert got.tolist() == [[42, 52, 62], [43, 53, 63], [44, 54, 64]]


def test_sharding_markers_are_identities():
    text = MODULE.replace("f32[3,3] custom-call(x, y)", "f32[2] custom-call(x)") % "Sharding"
    assert hlo.run(hlo.parse_module(text), X, Y).tolist() == [1.0, 2.0]


def test_lapack_cholesky_target():
    text = """HloModule m
ENTRY e {
  a = f32[3,3] parameter(0)
  ROOT c = (f32[3,3]{0,1}, s32[]) custom-call(a), custom_call_target="lapack_spotrf_ffi", operand_layout_constraints={f32[3,3]{0,1}}, api_version=API_VERSION_TYPED_FFI, backend_config={uplo = 76 : ui8}
}
"""
    m = np.array([[4, 2, 0], [2, 5, 1], [0, 1, 3]], np.float32)
    factor, info = hlo.run(hlo.parse_module(text), m)
    lower = np.tril(factor)
    np.testing.assert_allclose(lower @ lower.T, m, rtol=1e-5)
    assert int(info) == 0
