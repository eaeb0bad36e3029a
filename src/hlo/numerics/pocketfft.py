"""SciPy's pocketfft without importing `scipy.fft`: that package's import (its uarray backends,
scipy.special through fftlog) costs ~0.35 s, ten times the transform of a typical FFT, and it
would land on the first result of any module with an FFT. The compiled extension it wraps is
loaded on its own; the transforms are called as `scipy.fft.fftn` & co. call them, so the bits
are the same. When the extension is not where SciPy 1.x keeps it, `scipy.fft` is used."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

_NAME = "scipy.fft._pocketfft.pypocketfft"
_loaded: list[ModuleType | None] = []


def extension() -> ModuleType | None:
    """The pypocketfft extension module, loaded once; None when it cannot be found."""
    if not _loaded:
        _loaded.append(_load())
    return _loaded[0]


def _load() -> ModuleType | None:
    try:
        spec = importlib.util.find_spec("scipy")  # finds the package without importing it
        if spec is None or spec.origin is None:
            return None
        folder = Path(spec.origin).parent / "fft" / "_pocketfft"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = folder / f"pypocketfft{suffix}"
            if path.is_file():
                loader = importlib.machinery.ExtensionFileLoader(_NAME, str(path))
                found = importlib.util.spec_from_file_location(_NAME, str(path), loader=loader)
                if found is None:
                    return None
                module = importlib.util.module_from_spec(found)
                loader.exec_module(module)
                return module
    except (ImportError, OSError):
        pass
    return None


def _direct(name: str, *args: object) -> np.ndarray | None:
    """The extension's transform `name`, or None when it is missing or refuses these arguments
    (another SciPy's signature): the caller then takes `scipy.fft`, and so does every later
    call."""
    pfft = extension()
    if pfft is None:
        return None
    try:
        return getattr(pfft, name)(*args)  # type: ignore[no-any-return]
    except (TypeError, AttributeError):
        _loaded[0] = None
        return None


def c2c(x: np.ndarray, axes: tuple[int, ...], forward: bool, workers: int) -> np.ndarray:
    """scipy.fft.fftn / ifftn with the default ("backward") normalization."""
    # scipy's normalization codes: 0 none, 2 divide by n (the inverse's "backward" scaling)
    out = _direct("c2c", _aligned(x), axes, forward, 0 if forward else 2, None, workers)
    if out is None:
        import scipy.fft

        return (scipy.fft.fftn if forward else scipy.fft.ifftn)(x, axes=axes, workers=workers)
    return out


def r2c(x: np.ndarray, axes: tuple[int, ...], workers: int) -> np.ndarray:
    """scipy.fft.rfftn of an operand whose transformed sizes are the lengths (the shape rule's)."""
    out = _direct("r2c", _aligned(x), axes, True, 0, None, workers)
    if out is None:
        import scipy.fft

        s = [x.shape[a] for a in axes]
        return scipy.fft.rfftn(x, s=s, axes=axes, workers=workers)  # type: ignore[no-any-return]
    return out


def c2r(x: np.ndarray, axes: tuple[int, ...], last: int, workers: int) -> np.ndarray:
    """scipy.fft.irfftn to `last` elements in the last axis (the others as the operand's)."""
    out = _direct("c2r", _aligned(x), axes, last, False, 2, None, workers)
    if out is None:
        import scipy.fft

        s = [*(x.shape[a] for a in axes[:-1]), last]
        return scipy.fft.irfftn(x, s=s, axes=axes, workers=workers)  # type: ignore[no-any-return]
    return out


def _aligned(x: np.ndarray) -> np.ndarray:
    """What scipy's `_asfarray` hands pocketfft: native byte order, aligned (copied if not)."""
    return np.require(x, x.dtype.newbyteorder("="), "A")
