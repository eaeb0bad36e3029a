"""Convolution: the attribute schema, the shape rule (XLA's InferConvolveShape) and the kernel; the
builder functions (Conv, ConvGeneralDilated, ...) are in convolution_builders.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import DIM_LABELS, INT, SPARSITY_CONFIG, WINDOW, enum_kind
from ..ir.attrs import ConvolutionDimensionNumbers, ConvolutionKind, Window
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.services import spell
from ..shape import UNBOUNDED, Shape
from .array_rules import dim_size_text, higher_precision
from .convolution_builders import default_dimension_numbers
from .dot_common import precision_attrs
from .registry import AttrSpec, ShapeContext, define, kernel, shape_rule, unless
from .rule_helpers import array_operand, operand
from .windows import window_output_dims, window_printed

if TYPE_CHECKING:
    from ..numerics.context import KernelContext

__all__ = ["default_dimension_numbers"]

Op = Opcode

define(
    Op.CONVOLUTION,
    # XLA's parser gives a convolution without `window=` an empty window (0 spatial dimensions);
    # the builder stores the same, so built and parsed instructions are equal.
    AttrSpec("window", WINDOW, default=Window(), printed=window_printed),
    AttrSpec("dim_labels", DIM_LABELS, required=True),
    AttrSpec("feature_group_count", INT, default=1, printed=unless(1)),
    AttrSpec("batch_group_count", INT, default=1, printed=unless(1)),
    AttrSpec(
        "convolution_kind",
        enum_kind(ConvolutionKind, "a convolution kind"),
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
    """im2col over strided window views + a batched matmul (numerics.convolution)."""
    from ..numerics.convolution import convolution

    window, dnums = instr.attrs.get("window") or Window(), instr.attrs["dim_labels"]
    groups = instr.attrs.get("feature_group_count", 1), instr.attrs.get("batch_group_count", 1)
    result, flush = instr.shape.element_type, ctx.options.flush_denormals
    return lambda lhs, rhs: convolution(lhs, rhs, window, dnums, *groups, result, flush)


# -- shape rule -------------------------------------------------------------------------------
def _window_text(window: Window) -> str:
    return "window=" + spell(WINDOW, window)


def _input_dims(d: ConvolutionDimensionNumbers) -> tuple[int, ...]:
    return (d.input_batch_dimension, d.input_feature_dimension, *d.input_spatial_dimensions)


def _kernel_dims(d: ConvolutionDimensionNumbers) -> tuple[int, ...]:
    return (d.kernel_input_feature_dimension, d.kernel_output_feature_dimension, *d.kernel_spatial_dimensions)


def _output_dims(d: ConvolutionDimensionNumbers) -> tuple[int, ...]:
    return (d.output_batch_dimension, d.output_feature_dimension, *d.output_spatial_dimensions)


def _check_dimension_numbers(d: ConvolutionDimensionNumbers, window: Window, lhs: Shape, rhs: Shape) -> int:
    """The number of spatial dimensions, after XLA's checks of the dimension numbers against
    the window and the operands' ranks: equal spatial counts, one window dimension per spatial
    dimension, rank n + 2 operands, and each of input, kernel, output a permutation of 0..n+1."""
    counts = (
        len(d.input_spatial_dimensions),
        len(d.kernel_spatial_dimensions),
        len(d.output_spatial_dimensions),
    )
    if len(set(counts)) != 1:
        raise ShapeError(
            "dim_labels= must give the input, kernel and output the same number of spatial dimensions: "
            f"found {counts[0]}, {counts[1]} and {counts[2]}"
        )
    spatial = counts[0]
    if len(window.dimensions) != spatial:
        raise ShapeError(
            f"the window must have one dimension per spatial dimension of dim_labels= ({spatial}): "
            f"found {len(window.dimensions)} in {_window_text(window)}"
        )
    rank = spatial + 2
    for role, k, shape in (("lhs", 0, lhs), ("rhs", 1, rhs)):
        if shape.rank != rank:
            raise ShapeError(
                f"operand {k} ({role}) must have rank {rank} (batch, feature and the {spatial} spatial "
                f"dimensions of dim_labels=): found {shape}"
            )
    named = (("input", _input_dims(d)), ("kernel", _kernel_dims(d)), ("output", _output_dims(d)))
    for what, dims in named:
        for x in dims:
            if not 0 <= x < rank:
                raise ShapeError(
                    f"dim_labels= {what} dimension numbers must be dimensions of a rank-{rank} array: "
                    f"found {x} in {list(dims)}"
                )
    for what, dims in named:
        if sorted(dims) != list(range(rank)):
            raise ShapeError(
                f"dim_labels= {what} dimension numbers must name each of the {rank} dimensions exactly once: "
                f"found {list(dims)}"
            )
    return spatial


def _rhs(ctx: ShapeContext) -> Shape:
    """The kernel: operand 1, or the first element of a (kernel, sparsity metadata) pair."""
    rhs = operand(ctx, 1, "rhs")
    if rhs.is_tuple:
        if len(rhs.tuple_shapes) != 2:
            raise ShapeError(
                f"operand 1 (rhs), if a tuple, must be the 2 elements (kernel, metadata) of a sparse kernel: "
                f"found {rhs}"
            )
        rhs = rhs.tuple_shapes[0]
    if not rhs.is_array:
        raise ShapeError(f"operand 1 (rhs) must be an array: found {rhs}")
    return rhs


@shape_rule(Op.CONVOLUTION)
def convolution_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferConvolveShape (the forward form: XLA's verifier and parser check every
    convolution so, whatever its convolution_kind): the output batch is the input batch divided
    by batch_group_count, the output feature is the kernel's output feature, and each output
    spatial dimension is the input's after the window. The element type is the preferred one
    (HLO text: the written one), else the more precise of the operands' types."""
    lhs = array_operand(ctx, 0, "lhs")
    rhs = _rhs(ctx)
    d = ctx.attr("dim_labels")
    if d is None:
        raise ShapeError("dim_labels= (the convolution dimension numbers) is required")
    window = ctx.attr("window") or Window()
    fgc, bgc = ctx.attr("feature_group_count", 1), ctx.attr("batch_group_count", 1)
    if fgc <= 0:
        raise ShapeError(f"feature_group_count must be a positive number: found {fgc}")
    if bgc <= 0:
        raise ShapeError(f"batch_group_count must be a positive number: found {bgc}")
    if fgc > 1 and bgc > 1:
        raise ShapeError(
            f"feature_group_count and batch_group_count cannot both be greater than 1: found {fgc} and {bgc}"
        )
    spatial = _check_dimension_numbers(d, window, lhs, rhs)
    pair = f"found {lhs} and {rhs}"
    batch = lhs.dimensions[d.input_batch_dimension]
    features = lhs.dimensions[d.input_feature_dimension]
    kernel_in = rhs.dimensions[d.kernel_input_feature_dimension]
    kernel_out = rhs.dimensions[d.kernel_output_feature_dimension]
    sparsity = ctx.attr("sparsity_config")
    if sparsity is not None and sparsity.rhs is not None:
        if sparsity.rhs.num_non_zero != 1:
            raise ShapeError(
                "sparsity_config= rhs must be 1:N sparsity (one non-zero per block): found "
                f"{sparsity.rhs.num_non_zero}:{sparsity.rhs.block_size}"
            )
        kernel_in *= sparsity.rhs.block_size  # each stored input feature stands for a block
    if kernel_out % bgc:
        raise ShapeError(
            f"the kernel's output features ({dim_size_text(kernel_out)}) must be divisible by "
            f"batch_group_count={bgc}: {pair}"
        )
    if kernel_out % fgc:
        raise ShapeError(
            f"the kernel's output features ({dim_size_text(kernel_out)}) must be divisible by "
            f"feature_group_count={fgc}: {pair}"
        )
    if batch == UNBOUNDED and bgc > 1:
        raise ShapeError(
            f"an unbounded input batch cannot be split into batch_group_count={bgc} groups: {pair}"
        )
    if batch % bgc:
        raise ShapeError(
            f"the input batch ({dim_size_text(batch)}) must be divisible by batch_group_count={bgc}: {pair}"
        )
    if features % fgc:
        raise ShapeError(
            f"the input features ({dim_size_text(features)}) must be divisible by "
            f"feature_group_count={fgc}: {pair}"
        )
    if features // fgc != kernel_in:
        raise ShapeError(
            f"the kernel's input features ({dim_size_text(kernel_in)}) times feature_group_count={fgc} "
            f"must equal the input features ({dim_size_text(features)}): {pair}"
        )
    kernel_sizes = [rhs.dimensions[k] for k in d.kernel_spatial_dimensions]
    window_sizes = [w.size for w in window.dimensions]
    if kernel_sizes != window_sizes:
        raise ShapeError(
            f"the window sizes {window_sizes} must be the kernel's spatial sizes "
            f"[{', '.join(dim_size_text(n) for n in kernel_sizes)}]: found {rhs} and {_window_text(window)}"
        )
    sizes = window_output_dims([lhs.dimensions[s] for s in d.input_spatial_dimensions], window)
    if rhs.dynamic_dimensions[d.kernel_output_feature_dimension]:
        raise ShapeError(
            f"the kernel's output feature dimension {d.kernel_output_feature_dimension} must not be "
            f"dynamic: found {rhs}"
        )
    dims = [0] * (spatial + 2)
    dynamic = [False] * (spatial + 2)
    dims[d.output_batch_dimension] = batch if batch == UNBOUNDED else batch // bgc
    dynamic[d.output_batch_dimension] = lhs.dynamic_dimensions[d.input_batch_dimension]
    dims[d.output_feature_dimension] = kernel_out
    for j, o in enumerate(d.output_spatial_dimensions):
        dims[o] = sizes[j]
        dynamic[o] = (
            lhs.dynamic_dimensions[d.input_spatial_dimensions[j]]
            or rhs.dynamic_dimensions[d.kernel_spatial_dimensions[j]]
        )
    t = ctx.preferred_element_type or higher_precision(lhs.element_type, rhs.element_type)
    return Shape.array(t, dims, dynamic_dimensions=dynamic)
