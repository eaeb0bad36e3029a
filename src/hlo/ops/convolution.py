"""Convolution."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..ir.attrs import ConvolutionKind
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..text.attr_codecs import DIM_LABELS, INT, SPARSITY_CONFIG, WINDOW, EnumCodec
from .dot import precision_attrs
from .reduce import _window_printed
from .registry import AttrSpec, define, kernel, unless

if TYPE_CHECKING:
    from ..engine.plan import KernelContext

Op = Opcode

define(
    Op.CONVOLUTION,
    AttrSpec("window", WINDOW, printed=_window_printed),
    AttrSpec("dim_labels", DIM_LABELS, required=True),
    AttrSpec("feature_group_count", INT, default=1, printed=unless(1)),
    AttrSpec("batch_group_count", INT, default=1, printed=unless(1)),
    AttrSpec(
        "convolution_kind",
        EnumCodec(ConvolutionKind, "a convolution kind"),
        default=ConvolutionKind.UNSET,
        printed=unless(ConvolutionKind.UNSET),
    ),
    *precision_attrs(-1),
    AttrSpec(
        "sparsity_config", SPARSITY_CONFIG, printed=lambda v, ctx: v.lhs is not None or v.rhs is not None
    ),
)


# -- kernel -----------------------------------------------------------------------------------
@kernel(Op.CONVOLUTION)
def convolution_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """im2col over strided window views + a batched matmul (engine.linear.convolution)."""
    from ..engine.linear import convolution

    window, dnums = instr.attrs["window"], instr.attrs["dim_labels"]
    groups = instr.attrs.get("feature_group_count", 1), instr.attrs.get("batch_group_count", 1)
    result, flush = instr.shape.element_type, ctx.options.flush_denormals
    return lambda lhs, rhs: convolution(lhs, rhs, window, dnums, *groups, result, flush)
