"""Nothing runs that was not asked for (custom-call targets only from user registration, no
pickles, backend_config and frontend attributes never evaluated, no import or library load
driven by module text), and runs are deterministic: the same module, inputs and seed give the
same bits across runs, BLAS thread counts and devices (docs/HARDENING.md)."""

# ruff: noqa: E501  (HLO text)
from __future__ import annotations

import ctypes
import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.errors import EvalError, HloError

EXAMPLES = Path(hlo.__file__).parent / "examples"


def custom_call(target: str, extra: str = "") -> hlo.Module:
    return hlo.parse_module(
        f'HloModule m\nENTRY e {{ p = f32[2] parameter(0)\n ROOT c = f32[2] custom-call(p), custom_call_target="{target}"{extra} }}',
        "cc.hlo",
    )


@pytest.mark.parametrize(
    "target",
    ["os.system", "libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6:system", "builtins.eval", "__import__"],
)
def test_custom_call_targets_come_only_from_registration(
    target: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    loaded: list[object] = []
    monkeypatch.setattr(ctypes, "CDLL", lambda *a, **k: loaded.append(a))
    monkeypatch.setattr(importlib, "import_module", lambda *a, **k: loaded.append(a))
    hlo.run(hlo.parse_module("HloModule w\nENTRY e { ROOT c = f32[] constant(1) }"))  # what any run imports
    before = set(sys.modules)
    with pytest.raises(EvalError, match="unknown custom-call target"):
        hlo.run(custom_call(target), np.ones(2, np.float32))
    assert loaded == []
    assert {name for name in set(sys.modules) - before if not name.startswith("hlo.")} == set()


def test_backend_config_and_frontend_attributes_are_never_evaluated(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    code = f"__import__('pathlib').Path('{marker}').touch()"
    m = hlo.parse_module(
        "HloModule m\nENTRY e { p = f32[2] parameter(0)\n"
        f' ROOT n = f32[2] negate(p), backend_config="{code}", frontend_attributes={{x="{code}"}} }}',
        "cfg.hlo",
    )
    assert np.array_equal(hlo.run(m, np.ones(2, np.float32)), -np.ones(2, np.float32))
    m.to_text()
    with pytest.raises(HloError):
        hlo.run(custom_call("TopKx", f', backend_config="{code}"'), np.ones(2, np.float32))
    assert not marker.exists()


def test_npz_inputs_never_unpickle(tmp_path: Path) -> None:
    from hlo.replay.npz import load_inputs

    path = tmp_path / "evil.npz"
    np.savez(path, arg0=np.array([object()], dtype=object))
    with pytest.raises(
        HloError, match="cannot read arg0: Object arrays cannot be loaded when allow_pickle=False"
    ):
        load_inputs(str(path), (hlo.parse_shape("f32[1]"),))


def _mlp() -> tuple[hlo.Module, list[np.ndarray]]:
    from hlo.replay.inputs import random_value

    m = hlo.parse_module((EXAMPLES / "mlp.hlo").read_text(), "mlp.hlo")
    rng = np.random.default_rng(7)
    return m, [random_value(s, rng) for s in m.entry.parameter_shapes]


def _same_bits(a: object, b: object) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(_same_bits(x, y) for x, y in zip(a, b))
    assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_runs_are_bit_identical_across_runs_and_blas_thread_counts() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    m, args = _mlp()
    first = hlo.run(m, *args)
    assert _same_bits(first, hlo.run(m, *args))
    with threadpoolctl.threadpool_limits(1):
        assert _same_bits(first, hlo.run(m, *args))
    fresh = hlo.parse_module(m.to_text(), "again.hlo")
    assert _same_bits(first, hlo.run(fresh, *args))


def test_rng_is_deterministic_for_a_seed_and_differs_across_seeds() -> None:
    m = hlo.parse_module(
        "HloModule m\nENTRY e { a = f32[] constant(0)  b = f32[] constant(1)\n ROOT r = f32[64] rng(a, b), distribution=rng_uniform }",
        "rng.hlo",
    )
    assert _same_bits(hlo.run(m, seed=3), hlo.run(m, seed=3))
    assert not _same_bits(hlo.run(m, seed=3), hlo.run(m, seed=4))


def test_the_command_line_is_deterministic_across_processes(tmp_path: Path) -> None:
    outs = []
    for k in range(2):
        out = tmp_path / f"out{k}.npz"
        subprocess.run(
            [sys.executable, "-m", "hlo", "run", "--example", "mlp", "--seed", "5", "--output", str(out)],
            check=True,
            timeout=120,
        )
        outs.append(np.load(out))
    assert outs[0].files == outs[1].files
    for key in outs[0].files:
        assert outs[0][key].tobytes() == outs[1][key].tobytes()
