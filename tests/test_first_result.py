"""What the first result of a fresh process pays for: the FFT kernel runs SciPy's pocketfft
without importing `scipy.fft` (0.35 s), with the bits of `scipy.fft` (which the XLA:CPU FFT
fixtures of tests/test_engine_programs.py pin) on either path."""

from __future__ import annotations

import subprocess
import sys

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


def test_fft_does_not_import_scipy_fft() -> None:
    code = (
        "import sys, numpy as np, hlo\n"
        f"m = hlo.parse_module('''{FFT_MODULE}''')\n"
        "hlo.run(m, np.ones((4, 16), np.complex64), np.ones((4, 16), np.float32))\n"
        "print('scipy.fft' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def _cases() -> list[tuple[FftType, tuple[int, ...], int, type]]:
    shapes = [(3, 16), (2, 5, 12), (7,), (2, 3, 4, 9), (1, 97)]
    return [
        (kind, shape, rank, ct)
        for kind in FftType
        for shape in shapes
        for rank in range(1, min(3, len(shape)) + 1)
        for ct in (np.complex64, np.complex128)
    ]


@pytest.mark.parametrize("fallback", [False, True])
def test_fft_bits_as_scipy_fft(fallback: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if fallback:  # as where SciPy keeps the extension elsewhere: scipy.fft itself
        monkeypatch.setattr(pocketfft, "_loaded", [None])
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
