"""The source of a while loop's compiled function (the compiled loop tier's, hlo.numerics.loop_tier):
the condition and the body written by `Gen` (hlo.numerics.jit_codegen) into one numba function
over the state's leaves, which runs at most `limit` iterations, and the key it is cached by."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..ir.module import Module
from ..shape import Shape
from .jit_codegen import GENERATOR_VERSION, Gen, Unsupported, Val, check_shape, log, type_name
from .jit_inplace import reuse_state_buffers, unchanged_leaves


@dataclass(frozen=True)
class LoopSource:
    """A generated loop: its source, the constants and NumPy loops it takes, and its key."""

    source: str
    constants: tuple[np.ndarray, ...]
    ufuncs: tuple[tuple[str, str], ...]
    state: tuple[Shape, ...]  # the loop state's leaves
    tupled: bool  # whether the state is a tuple (else one array)
    key: str


def _state_vals(shape: Shape) -> tuple[list[Val], bool]:
    if shape.is_tuple:
        leaves = list(shape.tuple_shapes)
        if any(s.is_tuple for s in leaves):
            raise Unsupported("a nested tuple in the loop state")
        return [Val(s, f"s{k}") for k, s in enumerate(leaves)], True
    return [Val(shape, "s0")], False


def loop_source(
    module: Module,
    condition: str,
    body: str,
    state: Shape,
    flush: bool,
    folded: Mapping[str, Any] | None = None,
) -> LoopSource | None:
    """The loop `while condition(s): s = body(s)` as the source of a function
    `loop(s0, ..., k0, ..., fp, limit) -> (s0, ..., done, count)` that runs at most `limit`
    iterations; None if the tier cannot compile it."""
    try:
        check_shape(state)
        leaves, tupled = _state_vals(state)
        g = Gen(module, flush, folded)
        g.invariant = {leaves[k].var for k in unchanged_leaves(module.computation(body))} if tupled else set()
        wrap = (lambda v: Val(state, items=v)) if tupled else (lambda v: v[0])
        g.indent = 2
        cond = g.computation(module.computation(condition), [wrap(leaves)])
        g.line(f"if not {cond.var}:")
        g.line("    done = True")
        g.line("    break")
        g.line("if count >= limit:")
        g.line("    break")
        result = g.computation(module.computation(body), [wrap(leaves)])
        outs = result.items if tupled else [result]
        g.line(f"{', '.join(v.var for v in leaves)}, = {', '.join(o.var for o in outs)},")
        for v in leaves:
            if v.scalar:  # a scalar's variable keeps one type across iterations
                g.line(f"{v.var} = {type_name(v.shape.element_type)}({v.var})")
        g.line("count += 1")
    except Unsupported as e:
        log.debug("hlo.jit: the loop of %s stays on the interpreter: %s", body, e)
        return None
    # Scalars come and go in one-element arrays: numba passes a scalar argument or result
    # through a double, a conversion the CPU's flush-to-zero mode would flush.
    params = ", ".join(f"{v.var}_" if v.scalar else v.var for v in leaves)
    unpack = [f"    {v.var} = {v.var}_[0]" for v in leaves if v.scalar]
    results = ", ".join(f"np.full(1, {v.var})" if v.scalar else v.var for v in leaves)
    consts = "".join(f"k{n}, " for n in range(len(g.constants)))
    updated, owned = reuse_state_buffers(g.lines, [v.var for v in leaves], "    " * 2)
    lines = [
        f"def loop({params}, {consts}fp, limit):",
        *unpack,
        *(f"    {v} = {v}.copy()" for v in owned),  # (updated in place: never the caller's arrays)
        *g.prologue,
        "    count = 0",
        "    done = False",
        "    while True:",
        *updated,
        f"    return ({results}, done, count)",
    ]
    functions = "\n\n".join("\n".join(f) for f in g.extra)
    source = functions + "\n\n" + "\n".join(lines) + "\n"
    # (the NumPy loops are in the key: kernels of one key share their pointers)
    key = hashlib.sha256(f"{GENERATOR_VERSION}\n{flush}\n{source}\n{g.ufuncs}".encode()).hexdigest()[:24]
    return LoopSource(
        source, tuple(g.constants), tuple(g.ufuncs), tuple(v.shape for v in leaves), tupled, key
    )
