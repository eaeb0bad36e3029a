"""The CPU's flush-to-zero mode (hlo.numerics.subnormals): on for the threads that run a plan,
off again afterwards, even when the run fails; NumPy's arithmetic flushes while it is on."""

from __future__ import annotations

import platform
import sys

import numpy as np
import pytest

import hlo
from hlo.numerics import subnormals

TINY = np.array([1e-40], np.float32)  # a subnormal f32
SUPPORTED_HERE = sys.platform.startswith("linux") and platform.machine().lower() in ("x86_64", "aarch64")


def test_the_mode_is_found_on_linux_x86_64_and_aarch64() -> None:
    if not SUPPORTED_HERE:
        pytest.skip("another platform: software flushing")
    assert subnormals.supported()


def test_on_inside_the_block_off_outside_and_after_an_error() -> None:
    if not subnormals.supported():
        pytest.skip("no flush-to-zero mode here")
    assert (TINY * np.float32(1))[0] != 0
    with subnormals.flushing_subnormals():
        assert subnormals.active()
        assert (TINY * np.float32(1))[0] == 0
        with subnormals.keeping_subnormals():
            assert (TINY * np.float32(1))[0] != 0
        assert (TINY * np.float32(1))[0] == 0
    assert not subnormals.active() and (TINY * np.float32(1))[0] != 0
    with pytest.raises(ZeroDivisionError), subnormals.flushing_subnormals():
        raise ZeroDivisionError
    assert not subnormals.active() and (TINY * np.float32(1))[0] != 0


def test_a_run_flushes_and_leaves_the_caller_unchanged() -> None:
    m = hlo.parse_module("HloModule m\nENTRY e { p = f32[1] parameter(0)  ROOT r = f32[1] multiply(p, p) }")
    x = np.array([1e-20], np.float32)  # its square is subnormal: XLA:CPU flushes it
    assert hlo.run(m, x)[0] == 0
    assert hlo.run(m, x, flush_denormals=False)[0] != 0
    assert (TINY * np.float32(1))[0] != 0  # the caller's thread is as it was
