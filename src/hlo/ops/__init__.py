"""Every HLO op: one block per op (attribute schema, shape rule, builder function, kernel) in one
family module. The XlaBuilder API lives here: `hlo.ops.Add`, `hlo.ops.Reduce`, ... (the names of
page 003 of the spec), gathered from the families by `registry.builder_function`."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if not name[:1].isupper():  # a family module being imported (`from . import x`), not a builder
        raise AttributeError(f"module 'hlo.ops' has no attribute {name!r}")
    from .registry import BUILDERS, _load

    _load()
    try:
        return BUILDERS[name]
    except KeyError:
        raise AttributeError(f"hlo.ops has no builder function {name!r}") from None


def __dir__() -> list[str]:
    from .registry import BUILDERS, _load

    _load()
    return sorted(BUILDERS)
