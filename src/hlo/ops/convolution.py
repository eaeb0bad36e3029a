"""Convolution."""

from __future__ import annotations

from ..ir.attrs import ConvolutionKind
from ..ir.opcode import Opcode
from ..text.attr_codecs import DIM_LABELS, INT, SPARSITY_CONFIG, WINDOW, EnumCodec
from .dot import precision_attrs
from .reduce import _window_printed
from .registry import AttrSpec, define, unless

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
