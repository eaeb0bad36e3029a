"""What the first result of a fresh process pays for: the FFT kernel runs SciPy's pocketfft
without importing `scipy.fft` (0.35 s), with the bits of `scipy.fft` (which the XLA:CPU FFT
fixtures of tests/test_engine_programs.py pin) on either path; a module's first use of the op
registry imports the families of the opcodes it uses, not every family."""

from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import scipy.fft

from hlo.ir.attrs import FftType
from hlo.numerics import linalg, pocketfft, threads

FFT_MODULE = """
HloModule m
ENTRY e {
  p = c64[4,16] parameter(0)
  f = c64[4,16] fft(p), fft_type=FFT, fft_length={16}
  r = f32[4,16] parameter(1)
  g = c64[4,9] fft(r), fft_type=RFFT, fft_length={16}
  ROOT t = (c64[4,16], c64[4,9]) tuple(f, g)
}
"""


def _fresh(code: str) -> str:
    """What `code` prints in a fresh interpreter (which must exit cleanly), stripped."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_fft_does_not_import_scipy_fft() -> None:
    code = (
        "import sys, numpy as np, hlo\n"
        f"m = hlo.parse_module('''{FFT_MODULE}''')\n"
        "hlo.run(m, np.ones((4, 16), np.complex64), np.ones((4, 16), np.float32))\n"
        "print('scipy.fft' in sys.modules)\n"
    )
    assert _fresh(code) == "False"


def _cases() -> list[tuple[FftType, tuple[int, ...], int, type]]:
    shapes = [(3, 16), (2, 5, 12), (7,), (2, 3, 4, 9), (1, 97)]
    return [
        (kind, shape, rank, ct)
        for kind in FftType
        for shape in shapes
        for rank in range(1, min(3, len(shape)) + 1)
        for ct in (np.complex64, np.complex128)
    ]


class _OtherSignature:
    """An extension whose transforms take other arguments (another SciPy's)."""

    def __getattr__(self, name: str) -> object:
        def refuse(*args: object) -> None:
            raise TypeError(f"{name}() takes other arguments")

        return refuse


@pytest.mark.parametrize("fallback", ["none", "missing", "other signature"])
def test_fft_bits_as_scipy_fft(fallback: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if fallback == "missing":  # as where SciPy keeps the extension elsewhere: scipy.fft itself
        monkeypatch.setattr(pocketfft, "_loaded", [None])
    elif fallback == "other signature":  # refused once: scipy.fft from then on
        monkeypatch.setattr(pocketfft, "_loaded", [_OtherSignature()])
    else:
        assert pocketfft.extension() is not None
    rng = np.random.default_rng(7)
    for kind, shape, rank, ct in _cases():
        rt = np.float32 if ct is np.complex64 else np.float64
        axes = tuple(range(len(shape) - rank, len(shape)))
        lengths = list(shape[len(shape) - rank :])
        if kind is FftType.RFFT:
            x = rng.standard_normal(shape).astype(rt)
            want, out = scipy.fft.rfftn(x, s=lengths, axes=axes, workers=2), ct
        elif kind is FftType.IRFFT:
            half = (*shape[:-1], shape[-1] // 2 + 1)
            x = (rng.standard_normal(half) + 1j * rng.standard_normal(half)).astype(ct)
            want, out = scipy.fft.irfftn(x, s=lengths, axes=axes, workers=2), rt
        else:
            x = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(ct)
            fn = scipy.fft.fftn if kind is FftType.FFT else scipy.fft.ifftn
            want, out = fn(x, axes=axes, workers=2), ct
        x = x.astype(x.dtype.newbyteorder(">"))  # pocketfft takes native order: a copy is made
        with threads.using(2):
            got = linalg.fft(x, kind, lengths, np.dtype(out))
        assert got.dtype == np.dtype(out) and got.shape == want.shape
        assert got.tobytes() == want.astype(out).tobytes(), (kind, shape, rank, ct)


# -- op families loaded as their opcodes are first used -------------------------------------
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _program_alone(name: str) -> str | None:
    """One corpus program, unoptimized and optimized, in a fresh interpreter: only the families
    its opcodes need are imported, and it still gives XLA:CPU's outputs."""
    code = (
        f"import sys; sys.path.insert(0, {str(TESTS)!r})\n"
        "from hlo.ops import registry\n"
        "import test_engine_programs as t\n"
        f"t.test_program_matches_xla_cpu({name!r}, False)\n"
        f"t.test_program_matches_xla_cpu({name!r}, True)\n"
        "assert not registry._loaded, 'every family was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    return None if done.returncode == 0 else f"{name}: {done.stderr.strip()[-600:]}"


def test_corpus_runs_with_only_its_families_loaded() -> None:
    sys.path.insert(0, str(TESTS))
    from test_engine_programs import RUNNING

    with ThreadPoolExecutor(4) as pool:
        failed = [f for f in pool.map(_program_alone, RUNNING) if f]
    assert not failed, "\n".join(failed)


def test_family_index_is_current() -> None:
    tool = ROOT / "tools" / "make_family_index.py"
    done = subprocess.run([sys.executable, str(tool), "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_first_parse_loads_only_the_families_it_uses() -> None:
    code = (
        "import sys, hlo\n"
        "hlo.parse_module('HloModule m\\nENTRY e { p = f32[4] parameter(0)\\n"
        "ROOT d = f32[4] negate(p) }')\n"
        "print(sorted(m for m in sys.modules if m.startswith('hlo.ops.') and m.count('.') == 2))\n"
    )
    loaded = set(ast.literal_eval(_fresh(code)))
    assert {"hlo.ops.elementwise", "hlo.ops.tuple_ops"} <= loaded
    assert not loaded & {"hlo.ops.collectives", "hlo.ops.convolution", "hlo.ops.sort", "hlo.ops.linalg"}


def test_builder_functions_of_families_not_yet_loaded_are_found() -> None:
    """A builder function may call another family's (`BUILDERS["Reshape"]`) before any opcode of
    that family was used."""
    code = (
        "from hlo.ops import registry\n"
        "fn = registry.BUILDERS['Reshape']\n"
        "assert registry._loaded\n"
        "try:\n"
        "    registry.BUILDERS['NoSuchBuilder']\n"
        "except KeyError:\n"
        "    print('ok')\n"
    )
    assert _fresh(code) == "ok"


# -- memory: scatter's positions in blocks ---------------------------------------------------
def _scatter_cases() -> list[tuple[str, int]]:
    sys.path.insert(0, str(TESTS))
    from test_engine_ops import cases, data

    return [(f, k) for f, k in cases() if " scatter(" in str(data(f)[f"case{k}_hlo"])]


@pytest.mark.parametrize("block", [1, 7])
def test_scatter_in_blocks_of_updates_matches_xla_cpu(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scatter fixture (XLA:CPU's outputs) with the positions built a few elements at a
    time (the kernel's blocks are 2M elements: the fixtures would fit in one)."""
    from hlo.numerics import scatter
    from test_engine_ops import check_case

    monkeypatch.setattr(scatter, "_POSITIONS_BLOCK", block)
    found = _scatter_cases()
    assert len(found) > 20
    for family, k in found:
        check_case(family, k)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's libm by its soname")
def test_flush_mode_is_found_without_a_subprocess() -> None:
    """ctypes.util.find_library runs `ldconfig -p` (10-30 ms of a first run): libm.so.6 first."""
    code = (
        "import subprocess\n"
        "def refuse(*a, **k):\n"
        "    raise AssertionError('a subprocess')\n"
        "subprocess.Popen.__init__ = refuse\n"
        "from hlo.numerics import subnormals\n"
        "print(subnormals._mode() is not None)\n"
    )
    assert _fresh(code) == "True"
