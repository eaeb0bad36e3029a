"""Elementwise ops XLA:CPU hands to YNNPACK with a large reduce (hlo.numerics.ynn_fusion) and
YNNPACK's own functions (hlo.numerics.ynn_exp, ynn_math). XLA:CPU's values are in
tests/golden/ops/exact_ynn_elementwise.npz (test_engine_ops); these pin which ops are taken."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.numerics import contraction, ynn_exp, ynn_exp_loop, ynn_fusion

REDUCERS = (
    "mx {\n p = f32[] parameter(0)\n q = f32[] parameter(1)\n ROOT r = f32[] maximum(p, q)\n}\n\n"
    "sm {\n p = f32[] parameter(0)\n q = f32[] parameter(1)\n ROOT r = f32[] add(p, q)\n}\n\n"
)


def _module(body: str, t: str = "f32") -> hlo.Module:
    return hlo.parse_module("HloModule m\n\n" + REDUCERS.replace("f32", t) + "ENTRY e {\n" + body + "\n}\n")


def _minus_max(r: int, c: int, op: str = "exponential", t: str = "f32") -> hlo.Module:
    s = f"{t}[{r},{c}]"
    return _module(
        f" x = {s} parameter(0)\n lo = {t}[] constant(-inf)\n"
        f" m = {t}[{r}] reduce(x, lo), dimensions={{1}}, to_apply=mx\n"
        f" b = {s} broadcast(m), dimensions={{0}}\n d = {s} subtract(x, b)\n ROOT e = {s} {op}(d)",
        t,
    )


def _marked(module: hlo.Module) -> set[str]:
    comp = contraction.contracted(module.entry, module)
    return {i.name for i in comp.instructions if i.attrs and i.attrs.get(ynn_fusion.MARK)}


def test_softmax_exp_over_4096_elements_is_ynnpacks():
    assert _marked(_minus_max(64, 64)) == {"e"}
    assert _marked(_minus_max(64, 63)) == set()  # 4032 elements: XLA's own loop
    assert _marked(_minus_max(64, 64, t="f64")) == {"e"}


def test_a_sum_takes_its_operand_only_when_it_is_the_only_user():
    alone = " x = f32[32,128] parameter(0)\n e = f32[32,128] exponential(x)\n z = f32[] constant(0)\n"
    whole = alone + " ROOT s = f32[32] reduce(e, z), dimensions={1}, to_apply=sm"
    assert _marked(_module(whole)) == {"e"}
    shared = alone + (  # e's other user (cos) is no op of YNNPACK's: e stays out
        " s = f32[32] reduce(e, z), dimensions={1}, to_apply=sm\n"
        " b = f32[32,128] broadcast(s), dimensions={0}\n c = f32[32,128] cosine(e)\n"
        " ROOT a = f32[32,128] add(c, b)"
    )
    assert _marked(_module(shared)) == set()
    joined = shared.replace(" c = f32[32,128] cosine(e)\n", "").replace("add(c, b)", "add(e, b)")
    assert _marked(_module(joined)) == {"e"}  # the add joins from the sum, then e (all its users in)
    assert _marked(_module(" x = f32[64,128] parameter(0)\n ROOT e = f32[64,128] exponential(x)")) == set()


@pytest.mark.parametrize("op", ["exponential", "exponential-minus-one", "tanh", "logistic", "erf"])
def test_the_interpreter_and_the_compiled_tiers_give_ynnpacks_bits(op):
    module = _minus_max(48, 89, op)
    x = (np.random.default_rng(1).standard_normal((48, 89)) * 3).astype(np.float32)
    d = x - x.max(axis=1, keepdims=True)
    want = ynn_exp.function(op, np.float32)(d)
    for jit in ("off", "eager"):
        assert np.asarray(hlo.run(module, x, jit=jit)).tobytes() == want.tobytes()


def test_ynnpacks_exp_overflows_early_and_flushes_its_tail():
    x = np.array([88.37, 88.38, 88.7, -87.3, -87.4, -88.0, -90.0, np.inf, -np.inf, np.nan, 0.0], np.float32)
    got = ynn_exp.function("exponential", np.float32)(x)
    assert np.isfinite(got[0]) and np.isinf(got[1]) and np.isinf(got[2])  # (exp(88.38) < FLT_MAX)
    assert got[3] > 0 and got[4] == 0 and got[5] == 0 and got[6] == 0
    assert np.isinf(got[7]) and got[8] == 0 and np.isnan(got[9]) and got[10] == 1


def test_ynnpacks_log_and_rsqrt_at_their_edges():
    log = ynn_exp.function("log", np.float32)
    got = log(np.array([-1.0, 0.0, -0.0, 1e-40, np.inf, 1.0], np.float32))
    assert got[0].tobytes() == np.array(0x7FC00000, np.uint32).tobytes()  # +NaN, not the CPU's -NaN
    assert np.isneginf(got[1:4]).all() and np.isposinf(got[4]) and got[5] == 0
    rsqrt = ynn_exp.function("rsqrt", np.float64)
    x = np.array([2.0, 3.0, 1e-310], np.float64)
    assert rsqrt(x).tobytes() == np.array([1 / np.sqrt(2.0), 1 / np.sqrt(3.0), np.inf]).tobytes()
    erf = ynn_exp.function("erf", np.float32)
    assert erf(np.array([np.inf], np.float32))[0] == np.float32(0.99999994)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", ["exponential", "exponential-minus-one", "tanh", "logistic"])
def test_the_machine_code_loop_gives_the_numpy_forms_bits(op, dtype):
    pytest.importorskip("llvmlite")
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(1 << 15) * rng.choice([0.001, 1, 30, 300], 1 << 15)).astype(dtype)
    x[:8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 88.37, 88.38, -87.4]
    ops = ynn_exp.Ops(dtype, True)
    numpy_form = ynn_exp.FUNCTIONS[op](ops, x)
    assert ynn_exp_loop.takes(x.size)
    assert ynn_exp.function(op, dtype)(x).tobytes() == numpy_form.tobytes()
