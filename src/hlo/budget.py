"""The memory budget: how many bytes one array of a run, a constant, a random input or a
picture may take before hlo refuses to make it.

Without a guard a module that says `f32[1000000000000]` is a MemoryError traceback, or worse an
out-of-memory kill of the whole machine's work. So sizes are checked before anything is
allocated, against a budget that by default is a fraction of the memory this process may really
use: the smallest of the memory the system has available, what the process's own address-space
limit (RLIMIT_AS) leaves, and what its cgroup's memory limit leaves. `memory_limit` (RunOptions,
`--memory-limit`) sets the budget in bytes; 0 turns the check off.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import EvalError
from .shape import UNBOUNDED, Shape

# Of the memory the process may use, the part one array may take: a run holds its operands,
# its result and NumPy's temporaries at once.
DEFAULT_FRACTION = 0.5


class MemoryBudgetError(EvalError):
    """An array, a constant, an input or a picture larger than the memory budget."""


def available_bytes() -> int | None:
    """The memory this process may still use, in bytes (None when nothing says)."""
    limits = [x for x in (_meminfo_available(), _rlimit_left(), _cgroup_left()) if x is not None]
    return min(limits) if limits else None


def default_budget() -> int | None:
    available = available_bytes()
    return None if available is None else int(available * DEFAULT_FRACTION)


def resolve(limit: int | None) -> int | None:
    """The budget in bytes for a `memory_limit` option: None gives the default budget, 0 none."""
    if limit is None:
        return default_budget()
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise MemoryBudgetError(f"memory_limit must be a byte count >= 0 (0: no limit): got {limit!r}")
    return limit or None


def array_bytes(shape: Shape) -> int:
    """The bytes the engine's NumPy values of `shape` take (dynamic dimensions at their bound,
    a sub-byte element in a whole byte, tuples the sum of their leaves; unbounded dimensions,
    whose size only the run knows, count as 1)."""
    if shape.is_tuple:
        return sum(array_bytes(s) for s in shape.tuple_shapes)
    if not shape.is_array:
        return 0
    n = max(1, (shape.element_type.bit_width + 7) // 8)
    for d in shape.dimensions:
        n *= 1 if d == UNBOUNDED else max(d, 0)
    return n


def check(nbytes: int, what: str, budget: int | None) -> None:
    """Raise MemoryBudgetError if `nbytes` is over `budget` (None: no limit)."""
    if budget is not None and nbytes > budget:
        raise MemoryBudgetError(
            f"{what} needs {nbytes:,} bytes, over the memory budget of {budget:,} bytes "
            f"(set it with --memory-limit or memory_limit=, 0 for none)"
        )


def check_shape(shape: Shape, what: str, budget: int | None) -> None:
    if budget is not None:
        check(array_bytes(shape), f"{what} {shape}", budget)


# -- what the system says -----------------------------------------------------------------
def _meminfo_available() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return _sysconf_available()


def _sysconf_available() -> int | None:
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def _rlimit_left() -> int | None:
    try:
        import resource
    except ImportError:  # not on POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(0, soft - _own_virtual_size())


def _own_virtual_size() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _cgroup_left() -> int | None:
    """What the process's cgroup (v2, or v1's memory controller) still allows."""
    for limit_file, usage_file in (
        ("memory.max", "memory.current"),
        ("memory.limit_in_bytes", "memory.usage_in_bytes"),
    ):
        for base in _cgroup_dirs():
            limit = _read_int(base / limit_file)
            if limit is not None and limit < 1 << 60:  # v1 says "no limit" with a huge number
                return max(0, limit - (_read_int(base / usage_file) or 0))
    return None


def _cgroup_dirs() -> list[Path]:
    dirs = []
    try:
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controllers in ("", "memory") or "memory" in controllers.split(","):
                root = Path("/sys/fs/cgroup") if controllers == "" else Path("/sys/fs/cgroup/memory")
                dirs.append(root / path.lstrip("/"))
    except (OSError, ValueError):
        pass
    dirs.append(Path("/sys/fs/cgroup"))
    return dirs


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
