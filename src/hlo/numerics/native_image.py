"""Machine code of XLA:CPU's own approximations (exp, expm1, logistic, tanh, erf, log, log1p:
hlo.numerics.xla_exp_loop, xla_log_loop, odd_rational_loop) made ahead of time, so that a first
result does not wait for llvmlite: loading it costs ~0.1 s and compiling each loop 40-150 ms,
which made the first results of softmax and of the 12-op chain slower than XLA:CPU's compile
and run together. The same LLVM IR the loops compile with llvmlite, compiled by
tools/make_native_image.py for x86-64 CPUs with AVX2 and FMA (x86-64-v3) and linked into one
position-independent image (native/*.bin). The IR asks for no fast-math, so the vector width
changes no bit: the code gives what llvmlite's for this CPU gives (tests/test_native_image.py).

An image is a magic line, the length of a JSON header, the header (the CPU features it needs,
as Linux names them; the features some modules need beyond those, compiled for x86-64-v4; its
functions' offsets by module and name; its imports' 8-byte slots; each module's IR digest),
then the code. A module whose own features this CPU lacks is left out. Elsewhere (another OS
or CPU, a CPU without those features, `HLO_NATIVE_CODE=off`) `function` gives None and the
modules compile with llvmlite."""

from __future__ import annotations

import ctypes
import functools
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import executable_memory

MAGIC = b"hlo native image 1\n"
APPROXIMATIONS = "approximations-x86_64-v3-linux"


def function(image: str, module: str, name: str) -> int | None:
    """The address of function `name` of `module` (e.g. "xla_exp_loop/exp_32", "loop_exp_32")
    in `image`, or None where the image cannot run here or lacks it."""
    loaded = _loaded(image)
    return None if loaded is None else loaded.get(f"{module}:{name}")


def _runnable(header: dict[str, Any], module: str) -> bool:
    """Whether this CPU has the features `module` needs beyond the image's (AVX-512: f64 rsqrt)."""
    return set(header.get("module_features", {}).get(module, [])) <= cpu_flags()


def functions(image: str, module: str, names: Sequence[str]) -> dict[str, int] | None:
    """The addresses of the functions `names` of `module` in `image`; None unless all are there."""
    found = {name: function(image, module, name) for name in names}
    return None if None in found.values() else {k: v for k, v in found.items() if v is not None}


def available(image: str) -> bool:
    """Whether `image` runs here (its functions are then all at hand, without compiling)."""
    return _loaded(image) is not None


def path(image: str) -> Path:
    return Path(__file__).with_name("native") / f"{image}.bin"


def read(image: str) -> tuple[dict[str, Any], bytes]:
    """The header and the code of an image file."""
    import json  # (here: ~1.5 ms of importing hlo's ops otherwise)

    data = path(image).read_bytes()
    if not data.startswith(MAGIC):
        raise ValueError(f"{path(image)}: not an hlo native image")
    (length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    return json.loads(data[start : start + length]), data[start + length :]


def write(image: str, header: dict[str, Any], code: bytes) -> None:
    """Write an image file (tools/make_native_image.py)."""
    import json

    text = json.dumps(header, indent=1, sort_keys=True).encode()
    path(image).write_bytes(MAGIC + struct.pack("<I", len(text)) + text + code)


@functools.cache
def cpu_flags() -> frozenset[str]:
    """The CPU features Linux reports for this machine (/proc/cpuinfo's flags)."""
    return frozenset(_cpuinfo("flags").split())


@functools.cache
def cpu_vendor() -> str:
    """The CPU's vendor as Linux reports it ("GenuineIntel", "AuthenticAMD"; "" if unknown)."""
    return _cpuinfo("vendor_id").strip()


def _cpuinfo(field: str) -> str:
    """The value of /proc/cpuinfo's first line for `field` ("" where there is none)."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.split(":", 1)[0].strip() == field:
                    return line.split(":", 1)[1]
    except OSError:
        pass
    return ""


def import_address(name: str) -> int | None:
    """The address of a C function an image calls (`hlo_libm_<name>_f64`: the C library's; the
    C library's memset and memcpy, which LLVM writes for some loops)."""
    from . import libm

    if name in ("memset", "memcpy"):
        return ctypes.cast(getattr(ctypes, name), ctypes.c_void_p).value
    if name.startswith("hlo_libm_") and name.endswith("_f64"):
        fn = libm.c_function(name[len("hlo_libm_") : -len("_f64")], False, 1)
        return None if fn is None else ctypes.cast(fn, ctypes.c_void_p).value
    return None


@functools.cache
def _loaded(image: str) -> dict[str, int] | None:
    """The image mapped executable, its functions by "module:name"; None where it cannot run."""
    if not executable_memory.supported():
        return None
    try:
        header, code = read(image)
    except (OSError, ValueError):
        return None
    if not set(header["features"]) <= cpu_flags():
        return None
    patches = {}
    for name, slots in header["imports"].items():
        address = import_address(name)
        if address is None:
            return None
        patches.update(dict.fromkeys(slots, address))
    base = executable_memory.map_code(code, patches)
    if base is None:
        return None
    functions = header["functions"].items()
    return {symbol: base + offset for symbol, offset in functions if _runnable(header, symbol.split(":")[0])}


def digest(ir_text: str) -> str:
    """The digest of a module's IR the image records (the target triple line left out)."""
    import hashlib

    kept = [line for line in ir_text.splitlines() if not line.startswith("target triple")]
    return hashlib.sha256("\n".join(kept).encode()).hexdigest()
