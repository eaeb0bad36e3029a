"""Convolution: the shape rule (XLA's InferConvolveShape), the kernel and the builder functions
Conv, ConvWithGeneralPadding, ConvWithGeneralDimensions, ConvGeneral and ConvGeneralDilated."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import DIM_LABELS, INT, SPARSITY_CONFIG, WINDOW, enum_kind
from ..ir.attrs import ConvolutionDimensionNumbers, ConvolutionKind, PaddingType, Window, WindowDimension
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.services import spell
from ..shape import UNBOUNDED, Shape, as_primitive_type
from .array_rules import higher_precision, int_tuple, require_ops
from .dot_common import PrecisionConfig, precision_attrs, precision_config_attrs
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule, unless
from .rule_helpers import array_operand, builder_of, operand
from .windows import make_padding, padding_type, window_output_dims, window_printed

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

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
    """im2col over strided window views + a batched matmul (numerics.linear.convolution)."""
    from ..numerics.linear import convolution

    window, dnums = instr.attrs.get("window") or Window(), instr.attrs["dim_labels"]
    groups = instr.attrs.get("feature_group_count", 1), instr.attrs.get("batch_group_count", 1)
    result, flush = instr.shape.element_type, ctx.options.flush_denormals
    return lambda lhs, rhs: convolution(lhs, rhs, window, dnums, *groups, result, flush)


# -- shape rule -------------------------------------------------------------------------------
def _size(n: int) -> str:
    return "?" if n == UNBOUNDED else str(n)


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
            f"the kernel's output features ({_size(kernel_out)}) must be divisible by "
            f"batch_group_count={bgc}: {pair}"
        )
    if kernel_out % fgc:
        raise ShapeError(
            f"the kernel's output features ({_size(kernel_out)}) must be divisible by "
            f"feature_group_count={fgc}: {pair}"
        )
    if batch == UNBOUNDED and bgc > 1:
        raise ShapeError(
            f"an unbounded input batch cannot be split into batch_group_count={bgc} groups: {pair}"
        )
    if batch % bgc:
        raise ShapeError(
            f"the input batch ({_size(batch)}) must be divisible by batch_group_count={bgc}: {pair}"
        )
    if features % fgc:
        raise ShapeError(
            f"the input features ({_size(features)}) must be divisible by feature_group_count={fgc}: {pair}"
        )
    if features // fgc != kernel_in:
        raise ShapeError(
            f"the kernel's input features ({_size(kernel_in)}) times feature_group_count={fgc} must equal "
            f"the input features ({_size(features)}): {pair}"
        )
    kernel_sizes = [rhs.dimensions[k] for k in d.kernel_spatial_dimensions]
    window_sizes = [w.size for w in window.dimensions]
    if kernel_sizes != window_sizes:
        raise ShapeError(
            f"the window sizes {window_sizes} must be the kernel's spatial sizes "
            f"[{', '.join(_size(n) for n in kernel_sizes)}]: found {rhs} and {_window_text(window)}"
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


# -- builder functions ------------------------------------------------------------------------
def default_dimension_numbers(spatial: int) -> ConvolutionDimensionNumbers:
    """XLA's CreateDefaultConvDimensionNumbers: [batch, feature, spatial...] for input and output,
    [output feature, input feature, spatial...] for the kernel (dim_labels bf01_oi01->bf01)."""
    dims = tuple(range(2, 2 + spatial))
    return ConvolutionDimensionNumbers(
        input_batch_dimension=0,
        input_feature_dimension=1,
        input_spatial_dimensions=dims,
        kernel_input_feature_dimension=1,
        kernel_output_feature_dimension=0,
        kernel_spatial_dimensions=dims,
        output_batch_dimension=0,
        output_feature_dimension=1,
        output_spatial_dimensions=dims,
    )


_SPATIAL_FIELDS = ("input_spatial_dimensions", "kernel_spatial_dimensions", "output_spatial_dimensions")
_SCALAR_FIELDS = (
    "input_batch_dimension",
    "input_feature_dimension",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "output_batch_dimension",
    "output_feature_dimension",
)


def _dimension_numbers(builder: XlaBuilder, name: str, value: Any) -> ConvolutionDimensionNumbers:
    """A ConvolutionDimensionNumbers (or a dict of its proto field names; a missing field is 0 or
    empty, as in the proto) with Python ints and tuples, as the dim_labels parser gives them."""
    if isinstance(value, Mapping):
        unknown = set(value) - set(_SPATIAL_FIELDS) - set(_SCALAR_FIELDS)
        if unknown:
            raise builder.error(name, f"dimension_numbers has unknown fields {sorted(unknown)}")
        value = ConvolutionDimensionNumbers(
            **{f: value.get(f, 0) for f in _SCALAR_FIELDS}, **{f: value.get(f, ()) for f in _SPATIAL_FIELDS}
        )
    if not isinstance(value, ConvolutionDimensionNumbers):
        raise builder.error(name, f"dimension_numbers must be a ConvolutionDimensionNumbers: found {value!r}")
    fields: dict[str, Any] = {f: int_tuple(builder, name, getattr(value, f), f) for f in _SPATIAL_FIELDS}
    for f in _SCALAR_FIELDS:
        (fields[f],) = int_tuple(builder, name, getattr(value, f), f)
    return ConvolutionDimensionNumbers(**fields)


def _verify_convolution(
    builder: XlaBuilder, name: str, lhs: XlaOp, rhs: XlaOp, numbers: ConvolutionDimensionNumbers
) -> None:
    """XLA's XlaBuilder::VerifyConvolution: array operands of one rank, at least 2, and spatial
    dimension lists of rank - 2 in-range entries."""
    for role, x in (("lhs", lhs), ("rhs", rhs)):
        if not x.shape.is_array:
            raise builder.error(name, f"{role} must be an array: found {x.shape}")
    if lhs.shape.rank != rhs.shape.rank:
        raise builder.error(
            name, f"lhs and rhs must have the same number of dimensions: found {lhs.shape} and {rhs.shape}"
        )
    rank = lhs.shape.rank
    if rank < 2:
        raise builder.error(
            name,
            f"lhs and rhs need at least 2 dimensions (batch and feature): found {lhs.shape} and {rhs.shape}",
        )
    for f in _SPATIAL_FIELDS:
        values = getattr(numbers, f)
        if len(values) != rank - 2:
            raise builder.error(
                name, f"dimension_numbers.{f} must have {rank - 2} entries (rank - 2): found {list(values)}"
            )
        for i, v in enumerate(values):
            if not 0 <= v < rank:
                raise builder.error(
                    name, f"dimension_numbers.{f}[{i}]={v} is out of bounds for rank-{rank} operands"
                )


def _make_window(
    builder: XlaBuilder,
    name: str,
    sizes: Sequence[int],
    strides: Any,
    padding: Any,
    lhs_dilation: Any,
    rhs_dilation: Any,
    reversal: Any,
) -> Window:
    """XLA's InferWindowFromDimensions: every list has one entry per window dimension, or is
    empty (strides and dilations 1, no padding, no reversal)."""
    n = len(sizes)
    try:
        pairs = [(int(lo), int(hi)) for lo, hi in padding]
    except (TypeError, ValueError):
        raise builder.error(name, f"padding must be (low, high) pairs: found {padding!r}") from None
    flips = [bool(r) for r in reversal] if reversal is not None else []
    lists: dict[str, Sequence[Any]] = {
        "window_strides": int_tuple(builder, name, strides, "window_strides"),
        "padding": pairs,
        "lhs_dilation": int_tuple(builder, name, lhs_dilation, "lhs_dilation"),
        "rhs_dilation": int_tuple(builder, name, rhs_dilation, "rhs_dilation"),
        "window_reversal": flips,
    }
    for what, values in lists.items():
        if len(values) not in (0, n):
            raise builder.error(
                name,
                f"{what} must have one entry per spatial dimension ({n}, the kernel's {list(sizes)}) "
                f"or none: found {len(values)}",
            )

    def entry(what: str, i: int, default: Any) -> Any:
        return lists[what][i] if lists[what] else default

    return Window(
        tuple(
            WindowDimension(
                size=sizes[i],
                stride=entry("window_strides", i, 1),
                padding_low=entry("padding", i, (0, 0))[0],
                padding_high=entry("padding", i, (0, 0))[1],
                base_dilation=entry("lhs_dilation", i, 1),
                window_dilation=entry("rhs_dilation", i, 1),
                window_reversal=entry("window_reversal", i, False),
            )
            for i in range(n)
        )
    )


def _preferred(builder: XlaBuilder, name: str, t: PrimitiveType | str | None) -> PrimitiveType | None:
    if t is None:
        return None
    try:
        return as_primitive_type(t)
    except ShapeError as e:
        raise builder.error(name, e.message) from None


def _group_count(builder: XlaBuilder, name: str, value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise builder.error(name, f"{what} must be an int: found {value!r}")
    return int(value)


@builder_function
def ConvGeneralDilated(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    rhs_dilation: Sequence[int],
    dimension_numbers: ConvolutionDimensionNumbers | Mapping[str, Any],
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
    window_reversal: Sequence[bool] | None = None,
) -> XlaOp:
    """The general convolution (page 003): strides, explicit (low, high) padding (negative
    removes elements), base (lhs) and window (rhs) dilation, dimension numbers, feature and batch
    groups. Empty strides, padding, dilations or reversal mean the defaults, as in XLA."""
    name = "ConvGeneralDilated"
    builder = builder_of(name, lhs, rhs)
    require_ops(builder, name, lhs=lhs, rhs=rhs)
    numbers = _dimension_numbers(builder, name, dimension_numbers)
    _verify_convolution(builder, name, lhs, rhs, numbers)
    sizes = [rhs.shape.dimensions[k] for k in numbers.kernel_spatial_dimensions]
    window = _make_window(
        builder, name, sizes, window_strides, padding, lhs_dilation, rhs_dilation, window_reversal
    )
    attrs: dict[str, Any] = {
        "window": window,
        "dim_labels": numbers,
        "feature_group_count": _group_count(builder, name, feature_group_count, "feature_group_count"),
        "batch_group_count": _group_count(builder, name, batch_group_count, "batch_group_count"),
    }
    attrs.update(precision_config_attrs(builder, name, precision_config, 2))
    preferred = _preferred(builder, name, preferred_element_type)
    return builder.add(name, Op.CONVOLUTION, (lhs, rhs), attrs, preferred_element_type=preferred)


@builder_function
def ConvGeneral(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    dimension_numbers: ConvolutionDimensionNumbers | Mapping[str, Any],
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """ConvGeneralDilated without dilation."""
    return ConvGeneralDilated(
        lhs, rhs, window_strides, padding, (), (), dimension_numbers, feature_group_count,
        batch_group_count, precision_config, preferred_element_type,
    )  # fmt: skip


def _same_or_valid_padding(
    builder: XlaBuilder,
    name: str,
    input_sizes: Sequence[int],
    window_sizes: Sequence[int],
    strides: Sequence[int],
    padding: PaddingType,
) -> list[tuple[int, int]]:
    """XLA's MakePadding, with its ValidatePaddingValues (CHECKs in XLA) as errors."""
    if not len(input_sizes) == len(window_sizes) == len(strides):
        raise builder.error(
            name,
            f"window_strides must have one entry per spatial dimension ({len(window_sizes)}): "
            f"found {list(strides)}",
        )
    for i, (n, w, s) in enumerate(zip(input_sizes, window_sizes, strides)):
        if w <= 0:
            raise builder.error(
                name, f"window dimension {i} (kernel spatial size) must be positive: found {w}"
            )
        if s <= 0:
            raise builder.error(name, f"window_strides[{i}] must be positive: found {s}")
        if n == UNBOUNDED and padding is PaddingType.SAME:
            raise builder.error(
                name, f"SAME padding needs a static or bounded size for input spatial dimension {i}: found ?"
            )
    return make_padding(input_sizes, window_sizes, strides, padding)


@builder_function
def ConvWithGeneralDimensions(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: str | PaddingType,
    dimension_numbers: ConvolutionDimensionNumbers | Mapping[str, Any],
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """SAME or VALID padding (XLA's MakePadding: SAME gives ceil(input / stride) outputs, the odd
    padding element high) with explicit dimension numbers."""
    name = "ConvWithGeneralDimensions"
    builder = builder_of(name, lhs, rhs)
    require_ops(builder, name, lhs=lhs, rhs=rhs)
    kind = padding_type(builder, name, padding)
    numbers = _dimension_numbers(builder, name, dimension_numbers)
    _verify_convolution(builder, name, lhs, rhs, numbers)
    strides = int_tuple(builder, name, window_strides, "window_strides")
    input_sizes = [lhs.shape.dimensions[k] for k in numbers.input_spatial_dimensions]
    window_sizes = [rhs.shape.dimensions[k] for k in numbers.kernel_spatial_dimensions]
    pairs = _same_or_valid_padding(builder, name, input_sizes, window_sizes, strides, kind)
    return ConvGeneral(
        lhs, rhs, strides, pairs, numbers, feature_group_count, batch_group_count,
        precision_config, preferred_element_type,
    )  # fmt: skip


def _default_numbers(builder: XlaBuilder, name: str, window_strides: Any) -> ConvolutionDimensionNumbers:
    """XLA's default dimension numbers, with as many spatial dimensions as window strides."""
    return default_dimension_numbers(len(int_tuple(builder, name, window_strides, "window_strides")))


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
    """Explicit padding, default dimension numbers ([batch, feature, spatial...], kernel
    [output feature, input feature, spatial...])."""
    builder = builder_of("ConvWithGeneralPadding", lhs, rhs)
    numbers = _default_numbers(builder, "ConvWithGeneralPadding", window_strides)
    return ConvGeneral(
        lhs, rhs, window_strides, padding, numbers, feature_group_count, batch_group_count,
        precision_config, preferred_element_type,
    )  # fmt: skip


@builder_function
def Conv(
    lhs: XlaOp,
    rhs: XlaOp,
    window_strides: Sequence[int],
    padding: str | PaddingType,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision_config: PrecisionConfig | None = None,
    preferred_element_type: PrimitiveType | str | None = None,
) -> XlaOp:
    """SAME or VALID padding, default dimension numbers (page 003's Conv)."""
    builder = builder_of("Conv", lhs, rhs)
    numbers = _default_numbers(builder, "Conv", window_strides)
    return ConvWithGeneralDimensions(
        lhs, rhs, window_strides, padding, numbers, feature_group_count, batch_group_count,
        precision_config, preferred_element_type,
    )  # fmt: skip
