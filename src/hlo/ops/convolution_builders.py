"""Convolution's builder functions (page 003: Conv, ConvWithGeneralPadding,
ConvWithGeneralDimensions, ConvGeneral, ConvGeneralDilated), as XlaBuilder makes them: they turn
strides, paddings, dilations and dimension numbers into the instruction's window and dim_labels.
Apart from convolution.py (schema, shape rule, kernel) because they are as long as the rest of
the op together and change for other reasons (the builder API, not the op's semantics)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.attrs import ConvolutionDimensionNumbers, PaddingType, Window, WindowDimension
from ..ir.opcode import Opcode
from ..shape import UNBOUNDED
from .array_rules import int_tuple, require_ops
from .dot_common import PrecisionConfig, precision_config_attrs, preferred_type
from .registry import builder_function
from .rule_helpers import builder_of
from .windows import make_padding, padding_type

if TYPE_CHECKING:
    from ..builder import XlaBuilder
    from .handles import XlaOp

Op = Opcode


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
    preferred = preferred_type(builder, name, preferred_element_type)
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
