"""Windows for the builder functions of windowed ops (ReduceWindow, SelectAndScatter, Conv...):
XLA's `Padding` (SAME/VALID) turned into explicit (low, high) pairs as its MakePadding does, and
a `Window` attribute made from per-dimension lists, checked for length."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attr_kinds import WINDOW
from ..ir.attrs import PaddingType, Window, WindowDimension
from ..ir.services import spell
from ..shape import UNBOUNDED
from .array_rules import int_tuple

if TYPE_CHECKING:
    from ..builder import XlaBuilder


def padding_type(builder: XlaBuilder, op_name: str, padding: Any) -> PaddingType:
    """ "SAME", "VALID" (any case) or a PaddingType."""
    if isinstance(padding, PaddingType) and padding is not PaddingType.INVALID:
        return padding
    if isinstance(padding, str) and padding.upper() in ("SAME", "VALID", "PADDING_SAME", "PADDING_VALID"):
        return PaddingType.SAME if "SAME" in padding.upper() else PaddingType.VALID
    raise builder.error(op_name, f'padding must be "SAME" or "VALID": found {padding!r}')


def make_padding(
    input_dims: Sequence[int], window: Sequence[int], strides: Sequence[int], padding: PaddingType
) -> list[tuple[int, int]]:
    """XLA's MakePadding: VALID pads nothing; SAME pads so the output has ceil(input / stride)
    elements, the odd element of padding going high."""
    if padding is PaddingType.VALID:
        return [(0, 0)] * len(input_dims)
    pairs = []
    for n, w, s in zip(input_dims, window, strides):
        out = -(-n // s)
        needed = max(0, (out - 1) * s + w - n)
        pairs.append((needed // 2, needed - needed // 2))
    return pairs


def padding_pairs(builder: XlaBuilder, op_name: str, padding: Any, rank: int) -> list[tuple[int, int]]:
    """A sequence of (low, high) pairs, one per dimension."""
    try:
        pairs = [(int(lo), int(hi)) for lo, hi in padding]
    except (TypeError, ValueError):
        raise builder.error(op_name, f"padding must be (low, high) pairs: found {padding!r}") from None
    if len(pairs) != rank:
        raise builder.error(op_name, f"padding needs {rank} (low, high) pairs: found {len(pairs)}")
    return pairs


def make_window(
    builder: XlaBuilder,
    op_name: str,
    sizes: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilations: Sequence[int] | None = None,
    window_dilations: Sequence[int] | None = None,
    reversal: Sequence[bool] | None = None,
) -> Window:
    """A Window with one dimension per entry of `sizes`; every list must have that length."""
    sizes = int_tuple(builder, op_name, sizes, "window_dimensions")
    rank = len(sizes)
    strides = int_tuple(builder, op_name, strides, "window_strides")
    base = int_tuple(builder, op_name, base_dilations, "base_dilations") if base_dilations else (1,) * rank
    dil = (
        int_tuple(builder, op_name, window_dilations, "window_dilations") if window_dilations else (1,) * rank
    )
    flips = tuple(bool(r) for r in reversal) if reversal else (False,) * rank
    for what, values in (("window_strides", strides), ("padding", padding), ("base_dilations", base),
                         ("window_dilations", dil), ("window_reversal", flips)):  # fmt: skip
        if len(values) != rank:
            raise builder.error(
                op_name, f"{what} has {len(values)} entries for a window of {rank} dimensions ({list(sizes)})"
            )
    return Window(
        tuple(
            WindowDimension(size, stride, lo, hi, b, d, r)
            for size, stride, (lo, hi), b, d, r in zip(sizes, strides, padding, base, dil, flips)
        )
    )


def window_output_dims(dims: Sequence[int], window: Window) -> list[int]:
    """XLA's InferWindowOutputShape: each dimension's base dilated (lhs_dilate), padded (the
    padding may be negative but must leave a size >= 0), and the dilated window (rhs_dilate)
    slid over it by its stride; the window needs positive sizes, strides and dilations. An
    unbounded dimension stays unbounded."""
    if len(window.dimensions) != len(dims):
        raise ShapeError(
            f"the window has {len(window.dimensions)} dimensions for an operand of rank {len(dims)}: "
            f"window={spell(WINDOW, window)}"
        )
    out = []
    for k, (size, w) in enumerate(zip(dims, window.dimensions)):
        fields = (
            ("size", w.size),
            ("stride", w.stride),
            ("lhs_dilate", w.base_dilation),
            ("rhs_dilate", w.window_dilation),
        )
        for field, value in fields:
            if value < 1:
                raise ShapeError(
                    f"window dimension {k} must have a positive {field}: found {value} in "
                    f"window={spell(WINDOW, window)}"
                )
        if size == UNBOUNDED:
            out.append(UNBOUNDED)
            continue
        base = (size - 1) * w.base_dilation + 1 if size else 0
        padded = w.padding_low + base + w.padding_high
        if padded < 0:
            raise ShapeError(
                f"the padding {w.padding_low}_{w.padding_high} of window dimension {k} leaves a negative "
                f"size around {size} (dilated {base}): window={spell(WINDOW, window)}"
            )
        extent = (w.size - 1) * w.window_dilation + 1
        out.append(0 if extent > padded else (padded - extent) // w.stride + 1)
    return out


def window_printed(value: object, ctx: Any) -> bool:
    # XLA leaves out `window=` when the window has no dimensions (rank-0 operands).
    return bool(getattr(value, "dimensions", ()))
