"""The C heap's thresholds (hlo.numerics.heap): set once, when a module is first compiled."""

from __future__ import annotations

import ctypes
import sys

import pytest

import hlo
from hlo.numerics import heap


def test_compiling_a_module_keeps_the_heap() -> None:
    hlo.compile_module(hlo.parse_module("HloModule m\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n"))
    assert heap._done
    if sys.platform.startswith("linux") and hasattr(ctypes.CDLL(None), "mallopt"):
        assert heap.keep_heap()  # glibc accepted both thresholds (it returns 0 for a bad value)


def test_without_mallopt_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_library(name: object) -> object:
        raise OSError("no C library")

    monkeypatch.setattr(heap, "_done", False)
    monkeypatch.setattr(heap.ctypes, "CDLL", no_library)
    monkeypatch.setattr(heap.sys, "platform", "linux")
    assert heap.keep_heap() is False
    assert heap.keep_heap() is True  # once per process: not tried again
