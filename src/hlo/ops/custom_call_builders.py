"""The builder functions of custom-call (page 003, CustomCall): xla_builder.h's CustomCall,
CustomCallWithComputation, CustomCallWithLayout, CustomCallWithComputationAndLayouts and
CustomCallWithConvDnums, all one `custom_call` with the fields each overload sets. The op's
schema, shape rule and kernel are custom_call.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..ir.attrs import ConvolutionDimensionNumbers, CustomCallApiVersion, CustomCallSchedule, Window
from ..ir.opcode import Opcode
from ..literal import Literal
from ..shape import Shape
from .callee import as_aliases, embed
from .custom_call import has_layout
from .registry import builder_function

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp

Op = Opcode


def custom_call(
    op_name: str,
    builder: XlaBuilder,
    call_target_name: str,
    operands: Sequence[XlaOp],
    shape: Shape | str,
    *,
    computation: XlaComputation | None = None,
    operand_shapes_with_layout: Sequence[Shape | str] | None = None,
    opaque: str = "",
    has_side_effect: bool = False,
    output_operand_aliasing: Sequence[Any] = (),
    literal: Literal | None = None,
    window: Window | None = None,
    dnums: ConvolutionDimensionNumbers | None = None,
    schedule: CustomCallSchedule = CustomCallSchedule.NONE,
    api_version: CustomCallApiVersion = CustomCallApiVersion.ORIGINAL,
) -> XlaOp:
    from .tuple_ops import as_shape

    if not isinstance(call_target_name, str) or call_target_name.startswith("$"):
        raise builder.error(
            op_name,
            f"call_target_name must not start with '$' (reserved for XLA): found {call_target_name!r}",
        )
    shape = as_shape(shape)
    attrs: dict[str, Any] = {
        "custom_call_target": call_target_name,
        "custom_call_has_side_effect": bool(has_side_effect),
        "schedule": CustomCallSchedule(schedule),
        "api_version": CustomCallApiVersion(api_version),
    }
    if operand_shapes_with_layout is not None:
        layouts = tuple(as_shape(s) for s in operand_shapes_with_layout)
        if not has_layout(shape):
            raise builder.error(
                op_name, f"the result shape must have a layout when operand layouts are given: found {shape}"
            )
        for k, s in enumerate(layouts):
            if not has_layout(s):
                raise builder.error(op_name, f"operand_shapes_with_layout {k} must have a layout: found {s}")
        attrs["operand_layout_constraints"] = layouts
    if computation is not None:
        attrs["called_computations"] = (embed(builder, op_name, computation, "computation"),)
    aliases = as_aliases(builder, op_name, output_operand_aliasing)
    if aliases:
        attrs["output_to_operand_aliasing"] = aliases
    if literal is not None:
        if not isinstance(literal, Literal):
            raise builder.error(op_name, f"literal must be an hlo.Literal: found {type(literal).__name__}")
        attrs["literal"] = literal
    if window is not None:
        attrs["window"] = window
    if dnums is not None:
        attrs["dim_labels"] = dnums
    return builder.add(
        op_name, Op.CUSTOM_CALL, tuple(operands), attrs, shape=shape, backend_config=opaque or None
    )


@builder_function
def CustomCall(
    builder: XlaBuilder,
    call_target_name: str,
    operands: Sequence[XlaOp],
    shape: Shape | str,
    opaque: str = "",
    has_side_effect: bool = False,
    output_operand_aliasing: Sequence[Any] = (),
    literal: Literal | None = None,
    schedule: CustomCallSchedule = CustomCallSchedule.NONE,
    api_version: CustomCallApiVersion = CustomCallApiVersion.ORIGINAL,
) -> XlaOp:
    """A call of `call_target_name` on `operands` returning `shape`; `opaque` goes to the target
    as its backend config; `output_operand_aliasing` pairs (output index, (operand, index))."""
    return custom_call(
        "CustomCall", builder, call_target_name, operands, shape, opaque=opaque,
        has_side_effect=has_side_effect, output_operand_aliasing=output_operand_aliasing,
        literal=literal, schedule=schedule, api_version=api_version,
    )  # fmt: skip


@builder_function
def CustomCallWithComputation(
    builder: XlaBuilder,
    call_target_name: str,
    operands: Sequence[XlaOp],
    computation: XlaComputation,
    shape: Shape | str,
    opaque: str = "",
    has_side_effect: bool = False,
    output_operand_aliasing: Sequence[Any] = (),
    literal: Literal | None = None,
    schedule: CustomCallSchedule = CustomCallSchedule.NONE,
    api_version: CustomCallApiVersion = CustomCallApiVersion.ORIGINAL,
) -> XlaOp:
    """CustomCall that also names a computation for the target (`called_computations=`)."""
    return custom_call(
        "CustomCallWithComputation", builder, call_target_name, operands, shape, computation=computation,
        opaque=opaque, has_side_effect=has_side_effect, output_operand_aliasing=output_operand_aliasing,
        literal=literal, schedule=schedule, api_version=api_version,
    )  # fmt: skip


@builder_function
def CustomCallWithLayout(
    builder: XlaBuilder,
    call_target_name: str,
    operands: Sequence[XlaOp],
    shape_with_layout: Shape | str,
    operand_shapes_with_layout: Sequence[Shape | str],
    opaque: str = "",
    has_side_effect: bool = False,
    output_operand_aliasing: Sequence[Any] = (),
    literal: Literal | None = None,
    schedule: CustomCallSchedule = CustomCallSchedule.NONE,
    api_version: CustomCallApiVersion = CustomCallApiVersion.ORIGINAL,
) -> XlaOp:
    """CustomCall whose operands and result have fixed layouts (all given shapes need them)."""
    return custom_call(
        "CustomCallWithLayout", builder, call_target_name, operands, shape_with_layout,
        operand_shapes_with_layout=operand_shapes_with_layout, opaque=opaque,
        has_side_effect=has_side_effect, output_operand_aliasing=output_operand_aliasing,
        literal=literal, schedule=schedule, api_version=api_version,
    )  # fmt: skip


@builder_function
def CustomCallWithComputationAndLayouts(
    builder: XlaBuilder,
    call_target_name: str,
    operands: Sequence[XlaOp],
    computation: XlaComputation,
    shape: Shape | str,
    operand_shapes_with_layout: Sequence[Shape | str],
    opaque: str = "",
    has_side_effect: bool = False,
    output_operand_aliasing: Sequence[Any] = (),
    literal: Literal | None = None,
    schedule: CustomCallSchedule = CustomCallSchedule.NONE,
    api_version: CustomCallApiVersion = CustomCallApiVersion.ORIGINAL,
) -> XlaOp:
    """CustomCallWithComputation with fixed operand and result layouts."""
    return custom_call(
        "CustomCallWithComputationAndLayouts", builder, call_target_name, operands, shape,
        computation=computation, operand_shapes_with_layout=operand_shapes_with_layout, opaque=opaque,
        has_side_effect=has_side_effect, output_operand_aliasing=output_operand_aliasing,
        literal=literal, schedule=schedule, api_version=api_version,
    )  # fmt: skip


@builder_function
def CustomCallWithConvDnums(
    builder: XlaBuilder,
    call_target_name: str,
    operands: Sequence[XlaOp],
    shape: Shape | str,
    operand_shapes_with_layout: Sequence[Shape | str],
    opaque: str,
    has_side_effect: bool,
    output_operand_aliasing: Sequence[Any],
    literal: Literal | None,
    window: Window,
    dnums: ConvolutionDimensionNumbers,
    schedule: CustomCallSchedule = CustomCallSchedule.NONE,
    api_version: CustomCallApiVersion = CustomCallApiVersion.ORIGINAL,
) -> XlaOp:
    """CustomCall carrying a convolution's window and dimension numbers (for targets that are
    convolutions); operand layouts are fixed only if `operand_shapes_with_layout` is non-empty."""
    return custom_call(
        "CustomCallWithConvDnums", builder, call_target_name, operands, shape,
        operand_shapes_with_layout=operand_shapes_with_layout or None, opaque=opaque,
        has_side_effect=has_side_effect, output_operand_aliasing=output_operand_aliasing,
        literal=literal, window=window, dnums=dnums, schedule=schedule, api_version=api_version,
    )  # fmt: skip
