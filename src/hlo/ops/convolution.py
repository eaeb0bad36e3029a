"""Convolution."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ShapeError
from ..ir.attrs import ConvolutionKind, Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import DIM_LABELS, INT, SPARSITY_CONFIG, WINDOW, EnumCodec
from .array_rules import higher_precision
from .dot import precision_attrs
from .reduce import _window_printed, window_output_dims
from .registry import AttrSpec, ShapeContext, define, kernel, shape_rule, unless
from .rule_helpers import array_operand

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


# -- shape rule -------------------------------------------------------------------------------
@shape_rule(Op.CONVOLUTION)
def convolution_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferConvolveShape: batch (divided by batch_group_count), the kernel's output
    features, and each spatial dimension after the window."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    d = ctx.attr("dim_labels")
    if d is None:
        raise ShapeError("dim_labels= (the convolution dimension numbers) is required")
    window = ctx.attr("window") or Window()
    fgc, bgc = ctx.attr("feature_group_count", 1), ctx.attr("batch_group_count", 1)
    if fgc < 1 or bgc < 1:
        raise ShapeError(f"feature_group_count={fgc} and batch_group_count={bgc} must be at least 1")
    if fgc > 1 and bgc > 1:
        raise ShapeError(f"feature_group_count={fgc} and batch_group_count={bgc} cannot both be above 1")
    if lhs.rank != rhs.rank:
        raise ShapeError(f"lhs and rhs must have the same rank: found {lhs} and {rhs}")
    spatial = lhs.rank - 2
    if spatial < 0:
        raise ShapeError(f"the operands need batch and feature dimensions: found {lhs}")
    if len(window.dimensions) != spatial:
        raise ShapeError(
            f"the window must have {spatial} dimensions (one per spatial dimension): "
            f"found {len(window.dimensions)}"
        )
    input_dims = (d.input_batch_dimension, d.input_feature_dimension, *d.input_spatial_dimensions)
    kernel_dims = (
        d.kernel_output_feature_dimension,
        d.kernel_input_feature_dimension,
        *d.kernel_spatial_dimensions,
    )
    output_dims = (d.output_batch_dimension, d.output_feature_dimension, *d.output_spatial_dimensions)
    for what, named in (("input", input_dims), ("kernel", kernel_dims), ("output", output_dims)):
        if len(named) != lhs.rank or sorted(named) != list(range(lhs.rank)):
            raise ShapeError(
                f"the {what} dimension numbers {list(named)} must name each of the {lhs.rank} dimensions once"
            )
    batch = lhs.dimensions[d.input_batch_dimension]
    features = lhs.dimensions[d.input_feature_dimension]
    kernel_in = rhs.dimensions[d.kernel_input_feature_dimension]
    kernel_out = rhs.dimensions[d.kernel_output_feature_dimension]
    if features % fgc:
        raise ShapeError(
            f"the input features ({features}) of {lhs} must be divisible by feature_group_count={fgc}"
        )
    if kernel_in * fgc != features:
        raise ShapeError(
            f"the kernel's input features ({kernel_in}) times feature_group_count={fgc} must equal the input "
            f"features ({features}): found {lhs} and {rhs}"
        )
    if kernel_out % fgc:
        raise ShapeError(
            f"the kernel's output features ({kernel_out}) must be divisible by feature_group_count={fgc}"
        )
    if batch % bgc:
        raise ShapeError(f"the input batch ({batch}) of {lhs} must be divisible by batch_group_count={bgc}")
    if kernel_out % bgc:
        raise ShapeError(
            f"the kernel's output features ({kernel_out}) must be divisible by batch_group_count={bgc}"
        )
    for k, (w, kd) in enumerate(zip(window.dimensions, d.kernel_spatial_dimensions)):
        if w.size != rhs.dimensions[kd]:
            raise ShapeError(
                f"window dimension {k} has size {w.size}, but kernel spatial dimension {kd} of {rhs} has "
                f"{rhs.dimensions[kd]}"
            )
    spatial_sizes = window_output_dims(tuple(lhs.dimensions[s] for s in d.input_spatial_dimensions), window)
    dims = [0] * lhs.rank
    dynamic = [False] * lhs.rank
    dims[d.output_batch_dimension] = batch // bgc
    dynamic[d.output_batch_dimension] = lhs.dynamic_dimensions[d.input_batch_dimension]
    dims[d.output_feature_dimension] = kernel_out
    for o, size in zip(d.output_spatial_dimensions, spatial_sizes):
        dims[o] = size
    t = ctx.preferred_element_type or higher_precision(lhs.element_type, rhs.element_type)
    return Shape.array(t, dims, dynamic_dimensions=dynamic)
