"""glibc malloc's thresholds (hlo.runtime.allocator): a run's freed blocks are reused from the
heap instead of being unmapped and faulted in afresh by the next step."""

from __future__ import annotations

import ctypes
import os
import resource

import numpy as np
import pytest

from hlo.runtime import allocator

GLIBC = bool(getattr(os, "confstr_names", {}).get("CS_GNU_LIBC_VERSION")) and bool(
    os.confstr("CS_GNU_LIBC_VERSION")
)


def _faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _faults_of_reallocations() -> int:
    np.ones(1 << 18, np.float32)  # 1 MB (below NumPy's hugepage advice): allocated and freed once
    before = _faults()
    for _ in range(8):
        block = np.ones(1 << 18, np.float32)
        del block
    return _faults() - before


@pytest.mark.skipif(not GLIBC, reason="glibc's malloc only")
def test_a_freed_block_is_reused_without_page_faults(monkeypatch: pytest.MonkeyPatch) -> None:
    libc = ctypes.CDLL(None)
    libc.mallopt(allocator.M_MMAP_THRESHOLD, 128 << 10)  # glibc's start: 1 MB blocks are mapped
    libc.mallopt(allocator.M_TRIM_THRESHOLD, 128 << 10)
    libc.malloc_trim(0)  # (no free 1 MB in the heap already)
    assert _faults_of_reallocations() >= 8 * 200  # unmapped at each free, faulted in again
    monkeypatch.setattr(allocator, "_DONE", [])
    allocator.keep_freed_memory()
    assert _faults_of_reallocations() < 200


def test_elsewhere_nothing_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator, "_DONE", [])

    def no_name(name: str) -> str:
        raise ValueError(f"unrecognized configuration name {name}")

    monkeypatch.setattr(allocator.os, "confstr", no_name)
    allocator.keep_freed_memory()  # no error
    assert allocator._DONE == [True]
    allocator.keep_freed_memory()  # once per process
