"""A pad merged into the reduce-window that reads it, at plan time, as XLA's algebraic simplifier
merges it before XLA:CPU runs the window: the pad's edges become the window's padding (scaled
by its base dilation), its interior padding the window's base dilation. XLA:CPU then skips those
positions, as it skips any padding, and folds the others in its window order
(hlo.numerics.window_order); folding the padded elements instead, row-major, changes the last
bits of float sums and what an order-revealing reducer returns.

Only the run plan changes: the module keeps its pad, whose step still runs (its value stays
visible to `--dump-values` and `hlo bisect`); the reduce-window's step reads the pad's operand.

XLA (jaxlib 0.10.2) merges when, checked on XLA:CPU's optimized modules:
- the reduce-window has one output and rank 2 or more (XLA:CPU first reshapes a rank-1 window
  to rank 2, and the reshape then stands between the pad and the window);
- its operand is the pad, or a convert of the pad whose padding, in the only non-trivial window
  dimension if there is one, is at least a tenth of that dimension;
- the pad's edges are not negative (XLA first turns such a pad into a pad and a slice) and it
  has no interior padding if the window has base dilation;
- the pad's value is the init value's instruction, or both are constants of the same value
  (the pad's converted to the init's type, compared bit for bit);
- the window is not one XLA simplifies otherwise first: all size-1 windows under an
  add/min/max reducer (an elementwise op), a window that reduces whole dimensions (a reduce),
  a scan (XLA:CPU's scan rewrite).
A merge whose every window holds one real element and only padding besides (no stride, even
edges on dimensions of one element, size-1 windows elsewhere) becomes a broadcast of that element
(the init value is not folded in).
Select-and-scatter and variadic reduce-windows are never merged; nor is a pad reached through a
reshape or bitcast.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..ir.attrs import PaddingConfig, Window, WindowDimension
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..numerics import numerics
from ..numerics.computations import recognise_reducer
from ..numerics.scan import scan_axis

_SIMPLE = (Opcode.ADD, Opcode.MINIMUM, Opcode.MAXIMUM)


@dataclass(frozen=True)
class Merge:
    """How a reduce-window runs with its pad merged."""

    operands: tuple[str, str]  # the pad's operand and the init value
    window: Window | None  # the merged window; None: a broadcast of the real elements
    convert: Instruction | None  # the convert between the pad and the window, applied first


def plan_merges(order: list[Instruction], c: Computation, module: Module) -> dict[str, Merge]:
    """The merges of a computation's reduce-windows, by the reduce-window's name."""
    merges: dict[str, Merge] = {}
    for i in order:
        if i.opcode is Opcode.REDUCE_WINDOW:
            m = _merge(i, c.by_name, module)
            if m is not None:
                merges[i.name] = m
    return merges


def _trivial(d: WindowDimension) -> bool:
    return (d.size, d.stride, d.padding_low, d.padding_high, d.base_dilation, d.window_dilation) == (
        1, 1, 0, 0, 1, 1) and not d.window_reversal  # fmt: skip


def _unit(d: WindowDimension) -> bool:
    """A window dimension of one element a window, every element (padding aside)."""
    return (
        d.size == 1
        and d.stride == 1
        and d.base_dilation == 1
        and d.window_dilation == 1
        and not d.window_reversal
    )


def _merge(i: Instruction, by_name: Mapping[str, Instruction], module: Module) -> Merge | None:
    if i.shape.is_tuple or len(i.operands) != 2:
        return None
    window: Window = i.attrs["window"]
    operand, init = by_name[i.operands[0]], by_name[i.operands[1]]
    convert = None
    if operand.opcode is Opcode.CONVERT and by_name[operand.operands[0]].opcode is Opcode.PAD:
        convert, operand = operand, by_name[operand.operands[0]]
    if operand.opcode is not Opcode.PAD:
        return None
    pad, dims = operand, window.dimensions
    shape = pad.shape.dimensions
    real = by_name[pad.operands[0]].shape.dimensions
    if len(shape) < 2 or 0 in shape or 0 in real or 0 in i.shape.dimensions or not pad.shape.is_static:
        return None
    reducer = recognise_reducer(module.computation(i.attrs["to_apply"]))
    if all(map(_unit, dims)) and reducer is not None and reducer.opcode in _SIMPLE:
        return None  # an elementwise op
    if _whole_dimensions(window, i.shape.dimensions) or scan_axis(shape, window) is not None:
        return None
    config: PaddingConfig = pad.attrs["padding"]
    if any(p.low < 0 or p.high < 0 for p in config.dimensions):
        return None
    interior = any(p.interior for p in config.dimensions)
    if interior and any(d.base_dilation != 1 for d in dims):
        return None
    if convert is not None and not _worth_it(dims, config, shape):
        return None
    if not _same_value(by_name[pad.operands[1]], init):
        return None
    operands = (pad.operands[0], i.operands[1])
    if _broadcast(dims, config, real, i.shape.dimensions):
        return Merge(operands, None, convert)
    merged = tuple(
        replace(
            d,
            padding_low=d.padding_low + d.base_dilation * p.low,
            padding_high=d.padding_high + d.base_dilation * p.high,
            base_dilation=1 + p.interior if p.interior else d.base_dilation,
        )
        for d, p in zip(dims, config.dimensions)
    )
    return Merge(operands, Window(merged), convert)


def _whole_dimensions(window: Window, out: tuple[int, ...]) -> bool:
    """Whether XLA makes the reduce-window a reduce: windows of one element or of a whole
    dimension, without stride, dilation or padding."""
    dims = window.dimensions
    if any(not (d.stride == 1 and d.base_dilation == 1 and d.window_dilation == 1 and
                d.padding_low == 0 and d.padding_high == 0) for d in dims):  # fmt: skip
        return False
    if any(d.size != 1 and n != 1 for d, n in zip(dims, out)):
        return False
    return any(d.size != 1 for d in dims)


def _worth_it(dims: tuple[WindowDimension, ...], config: PaddingConfig, shape: tuple[int, ...]) -> bool:
    """XLA's condition on a pad behind a convert: with one non-trivial window dimension, padding
    of at least a tenth of it."""
    nontrivial = [a for a, d in enumerate(dims) if not _trivial(d)]
    if len(nontrivial) != 1:
        return True
    a = nontrivial[0]
    return (config.dimensions[a].low + config.dimensions[a].high) / shape[a] >= 0.1


def _same_value(pad_value: Instruction, init: Instruction) -> bool:
    if pad_value.name == init.name:
        return True
    if pad_value.opcode is not Opcode.CONSTANT or init.opcode is not Opcode.CONSTANT:
        return False
    try:
        a = np.asarray(pad_value.attrs["literal"].to_numpy())
        b = np.asarray(init.attrs["literal"].to_numpy())
        if a.dtype != b.dtype:
            with np.errstate(all="ignore"):
                a = np.asarray(numerics.convert(a, init.shape.element_type))
    except Exception:  # an elided or odd literal: XLA would not prove them equal either
        return False
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _broadcast(
    dims: tuple[WindowDimension, ...], config: PaddingConfig, real: tuple[int, ...], out: tuple[int, ...]
) -> bool:
    """Whether every window holds a single real element and padding only (XLA's broadcast of
    the real elements; left to the merged window when they would not broadcast to the result)."""
    if any(d.stride != 1 for d in dims):
        return False
    for d, p, n, m in zip(dims, config.dimensions, real, out):
        if n != 1 and n != m:
            return False
        if p.low != p.high or p.interior:
            return False
        if (p.low or p.high) and (n != 1 or d.size < p.low + 1):
            return False
        if n != 1 and d.size != 1:
            return False
    return True


def bind(
    i: Instruction, merge: Merge, bind_instruction: Callable[[Instruction], Callable[..., Any]]
) -> Callable[..., Any]:
    """The step function of reduce-window `i` with its pad merged: reads the pad's operand and
    the init value."""
    convert = bind_instruction(merge.convert) if merge.convert is not None else None
    if merge.window is None:
        out = i.shape.dimensions

        def broadcast(x: np.ndarray, init: np.ndarray) -> np.ndarray:
            x = convert(x) if convert is not None else x
            return np.ascontiguousarray(np.broadcast_to(x, out))

        return broadcast
    fn = bind_instruction(i.replace(attrs=i.attrs.set("window", merge.window)))
    if convert is None:
        return fn
    return lambda x, init: fn(convert(x), init)
