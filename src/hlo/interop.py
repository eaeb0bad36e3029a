"""From a JAX function to an `hlo.Module` (the `hlo[jax]` extra).

jax is imported only when `from_jax` is called: `import hlo` never needs it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .errors import HloError
from .ir.module import Module


def from_jax(fn: Callable[..., Any], *args: Any, optimized: bool = False, **kwargs: Any) -> Module:
    """The HLO module jax makes for `fn(*args, **kwargs)`: `jax.jit(fn, keep_unused=True)
    .lower(*args, **kwargs)`, as HLO text with constants written out and jax's debug names, parsed.
    With `optimized=True`, the module after XLA:CPU's optimization passes (fusions, layouts).

    Parameters: jax flattens `(args, kwargs)` as one pytree, leaves in order (a dict's keys
    sorted, keyword arguments after the positional ones), one parameter per leaf —
    `keep_unused=True` keeps the leaves `fn` does not use. The unoptimized module names each
    parameter after its path (`params['w']` is `params__w__.1`, with `op_name="params['w']"`), so
    `hlo.run(module, *jax.tree_util.tree_leaves((args, kwargs)))` runs it on the same values.
    Python scalars become weakly typed 0-d parameters (f32[] or s32[] unless x64 is enabled)."""
    jax = _import_jax()
    try:
        lowered = jax.jit(fn, keep_unused=True).lower(*args, **kwargs)
    except Exception as e:  # tracing runs the user's code: any error of theirs, said in one line
        raise HloError(f"from_jax: jax could not lower {_name(fn)}: {type(e).__name__}: {e}") from None
    text = _optimized_text(lowered) if optimized else lowered.as_text(dialect="hlo", debug_info=True)
    from .text.parser import parse_module

    return parse_module(text, f"<from_jax {_name(fn)}>")


def _import_jax() -> Any:
    try:
        return importlib.import_module("jax")
    except ImportError:
        raise HloError("hlo.from_jax needs jax: pip install 'hlo[jax]'") from None


def _optimized_text(lowered: Any) -> str:
    """XLA:CPU's optimized module with large constants printed: `compiled.as_text()` elides them
    as `{...}`, which no parser can read back, so ask the executable's module for full text
    (jaxlib's printer options, a private API: say so if this jaxlib moved it)."""
    compiled = lowered.compile()
    try:
        xla_client: Any = importlib.import_module("jax._src.lib").xla_client
        options = xla_client.hlo.HloPrintOptions()
        options.print_large_constants = True
        options.print_metadata = True
        return str(compiled.runtime_executable().hlo_modules()[0].to_string(options))
    except (ImportError, AttributeError, IndexError) as e:
        raise HloError(
            f"from_jax(optimized=True): this jaxlib does not give the optimized module's full text ({e})"
        ) from None


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__name__", type(fn).__name__)
