"""Convolution."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attrs import ConvolutionDimensionNumbers, ConvolutionKind, Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape, as_primitive_type
from ..text.attr_codecs import DIM_LABELS, INT, SPARSITY_CONFIG, WINDOW, EnumCodec
from .array_rules import higher_precision, int_tuple, require_ops
from .dot import PrecisionConfig, precision_attrs, precision_config_attrs
from .reduce import _window_printed, window_output_dims
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule, unless
from .rule_helpers import array_operand, builder_of
from .windows import make_padding, make_window, padding_pairs, padding_type

if TYPE_CHECKING:
    from ..builder import XlaOp
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


# -- builder functions ------------------------------------------------------------------------
def default_dimension_numbers(spatial: int) -> ConvolutionDimensionNumbers:
    """XLA's CreateDefaultConvDimensionNumbers: [batch, feature, spatial...] for input and output,
    [output feature, input feature, spatial...] for the kernel."""
    dims = tuple(range(2, 2 + spatial))
    return ConvolutionDimensionNumbers(0, 1, dims, 1, 0, dims, 0, 1, dims)


@builder_function
def ConvGeneralDilated(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    rhs_dilation: Sequence[int],
    dimension_numbers: ConvolutionDimensionNumbers | None = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
    window_reversal: Sequence[bool] | None = None,
) -> XlaOp:
    """The general convolution (page 003): strides, explicit padding, base (lhs) and window (rhs)
    dilation, dimension numbers, feature and batch groups."""
    name = "ConvGeneralDilated"
    builder = builder_of(name, lhs, rhs)
    require_ops(builder, name, lhs=lhs, rhs=rhs)
    rank = lhs.shape.rank if lhs.shape.is_array else 0
    numbers = dimension_numbers or default_dimension_numbers(max(rank - 2, 0))
    if not isinstance(numbers, ConvolutionDimensionNumbers):
        raise builder.error(
            name, f"dimension_numbers must be a ConvolutionDimensionNumbers: found {numbers!r}"
        )
    sizes = [rhs.shape.dimensions[d] for d in numbers.kernel_spatial_dimensions if d < rhs.shape.rank]
    pairs = padding_pairs(builder, name, padding, len(sizes))
    window = make_window(
        builder, name, sizes, window_strides, pairs, lhs_dilation, rhs_dilation, window_reversal
    )
    attrs: dict[str, Any] = {
        "window": window,
        "dim_labels": numbers,
        "feature_group_count": int(feature_group_count),
        "batch_group_count": int(batch_group_count),
    }
    attrs.update(precision_config_attrs(builder, name, precision_config, 2))
    preferred = as_primitive_type(preferred_element_type) if preferred_element_type is not None else None
    return builder.add(name, Op.CONVOLUTION, (lhs, rhs), attrs, preferred_element_type=preferred)


@builder_function
def ConvGeneral(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    dimension_numbers: ConvolutionDimensionNumbers,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    ones = (1,) * len(tuple(window_strides))
    return ConvGeneralDilated(
        lhs, rhs, window_strides, padding, ones, ones, dimension_numbers, feature_group_count,
        batch_group_count, precision_config, preferred_element_type,
    )  # fmt: skip


@builder_function
def ConvWithGeneralDimensions(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: str,
    dimension_numbers: ConvolutionDimensionNumbers,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """SAME/VALID padding with explicit dimension numbers."""
    builder = builder_of("ConvWithGeneralDimensions", lhs, rhs)
    kind = padding_type(builder, "ConvWithGeneralDimensions", padding)
    require_ops(builder, "ConvWithGeneralDimensions", lhs=lhs, rhs=rhs)
    spatial_in = [lhs.shape.dimensions[d] for d in dimension_numbers.input_spatial_dimensions]
    sizes = [rhs.shape.dimensions[d] for d in dimension_numbers.kernel_spatial_dimensions]
    strides = int_tuple(builder, "ConvWithGeneralDimensions", window_strides, "window_strides")
    pairs = make_padding(spatial_in, sizes, strides, kind)
    return ConvGeneral(
        lhs, rhs, strides, pairs, dimension_numbers, feature_group_count, batch_group_count,
        precision_config, preferred_element_type,
    )  # fmt: skip


@builder_function
def ConvWithGeneralPadding(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """Explicit padding, default dimension numbers ([batch, feature, spatial...])."""
    numbers = default_dimension_numbers(max(lhs.shape.rank - 2, 0))
    return ConvGeneral(
        lhs, rhs, window_strides, padding, numbers, feature_group_count, batch_group_count,
        precision_config, preferred_element_type,
    )  # fmt: skip


@builder_function
def Conv(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: str,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """SAME/VALID padding, default dimension numbers (page 003's Conv)."""
    numbers = default_dimension_numbers(max(lhs.shape.rank - 2, 0))
    return ConvWithGeneralDimensions(
        lhs, rhs, window_strides, padding, numbers, feature_group_count, batch_group_count,
        precision_config, preferred_element_type,
    )  # fmt: skip
