"""StableHLO's dynamic ops whose shape operands are constants: their result is static, and they
are the static HLO op (what StableHLO's shape refinement and XLA's conversion make of them:
dynamic_pad -> pad, real_dynamic_slice -> slice, dynamic_gather -> gather, dynamic_conv ->
convolution). A shape operand that is not a constant, or a result type that is not static,
leaves the op dynamic: an error naming the op and the operand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..ir.attrs import PaddingConfig, PaddingDimension, SliceRange
from ..ir.opcode import Opcode
from .computation_converter import ComputationConverter
from .ops_table import one, rule
from .syntax import Op


def static_operand(cc: ComputationConverter, op: Op, k: int, what: str) -> tuple[int, ...]:
    """The integers of operand `k`, which must be a stablehlo.constant (of this computation or
    an enclosing one), of an op whose result type must be static."""
    out = op.result_types[0]
    if not out.is_static:
        message = f"{op.name}: dynamic shapes are not supported (the result {out} is not static)"
        raise cc.mc.error(message, op.name_pos)
    const = cc.constants.get(op.operands[k])
    if const is None:
        raise cc.mc.error(
            f"{op.name}: its {what} (operand {k}, {op.operands[k]}) is not a constant, so the result "
            "stays dynamic: dynamic shapes are not supported",
            op.name_pos,
        )
    from .dense import dense_array

    array = dense_array(cc.mc.c, const.attrs["value"], const.result_types[0])
    return tuple(int(x) for x in np.asarray(array).reshape(-1))


@rule("stablehlo.dynamic_pad")
def _dynamic_pad(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    low = static_operand(cc, op, 2, "edge_padding_low")
    high = static_operand(cc, op, 3, "edge_padding_high")
    interior = static_operand(cc, op, 4, "interior_padding")
    dims = tuple(PaddingDimension(lo, hi, i) for lo, hi, i in zip(low, high, interior))
    return one(cc, op, Opcode.PAD, ins[:2], {"padding": PaddingConfig(dims)})


@rule("stablehlo.real_dynamic_slice")
def _real_dynamic_slice(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    start = static_operand(cc, op, 1, "start_indices")
    limit = static_operand(cc, op, 2, "limit_indices")
    strides = static_operand(cc, op, 3, "strides")
    ranges = tuple(SliceRange(s, e, k) for s, e, k in zip(start, limit, strides))
    return one(cc, op, Opcode.SLICE, ins[:1], {"slice": ranges})


@rule("stablehlo.dynamic_gather")
def _dynamic_gather(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    from .ops_more import gather

    sizes = static_operand(cc, op, 2, "slice_sizes")
    return gather(cc, replace(op, attrs={**op.attrs, "slice_sizes": list(sizes)}), ins[:2])


@rule("stablehlo.dynamic_conv")
def _dynamic_conv(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    from .ops_more import convolution

    padding = static_operand(cc, op, 2, "padding")
    return convolution(cc, replace(op, attrs={**op.attrs, "padding": list(padding)}), ins[:2])
