"""custom-call: a call to a target outside HLO, with the convolution-like fields XLA lets it
carry, layout constraints, aliasing, a literal and called computations. Its result is whatever
the target returns, so the instruction states it; the rule checks what can be checked against
it (page 003, CustomCall; XLA's verifier)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attr_kinds import (
    BOOL,
    COMPUTATION,
    COMPUTATION_LIST,
    DIM_LABELS,
    INT,
    LITERAL,
    OPERAND_ALIASING,
    SHAPE_LIST,
    STRING,
    WINDOW,
    enum_kind,
)
from ..ir.attrs import (
    ConvolutionDimensionNumbers,
    CustomCallApiVersion,
    CustomCallSchedule,
    PaddingType,
    Window,
)
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..literal import Literal
from ..shape import Shape
from .callee import as_aliases, check_aliases, embed, written
from .dot_common import precision_attrs
from .registry import (
    AttrSpec,
    ShapeContext,
    builder_function,
    define,
    if_nonempty,
    if_true,
    kernel,
    shape_rule,
    unless,
)

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaComputation, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode

# Targets whose operand_layout_constraints XLA's verifier does not check.
UNCHECKED_LAYOUT_TARGETS = ("LayoutConstraint", "control_dep")


def _check(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    """Parse-time checks (XLA's parser makes them; the messages are XLA's)."""
    if instr.attr("api_version") is CustomCallApiVersion.UNSPECIFIED:
        return "Invalid API version: API_VERSION_UNSPECIFIED"
    constraints = instr.attr("operand_layout_constraints")
    if constraints is None:
        return None
    if instr.shape.is_array and instr.shape.layout is None:
        return "Layout must be set on layout-constrained custom call"
    if len(constraints) != len(operands):
        return f"Expected {len(operands)} operand layout constraints, {len(constraints)} given"
    for i, (c, s) in enumerate(zip(constraints, operands)):
        if c.is_array and c.layout is None:
            return f"Operand layout constraint shape {c} for operand {i} does not have a layout"
        if not c.compatible(s):
            return (
                f"Operand layout constraint shape {c} for operand {i} is not compatible with "
                f"operand shape {s}"
            )
    return None


def _finish(instr: Instruction) -> Instruction:
    """XLA keeps one list of called computations: `to_apply=` becomes it (and both are ignored
    when operand layouts are constrained)."""
    if instr.attr("operand_layout_constraints") is not None:
        instr = instr.replace(
            attrs={k: v for k, v in instr.attrs.items() if k not in ("to_apply", "called_computations")}
        )
    elif instr.attr("to_apply") is not None:
        attrs = {k: v for k, v in instr.attrs.items() if k != "to_apply"}
        attrs["called_computations"] = (instr.attrs["to_apply"],)
        instr = instr.replace(attrs=attrs)
    return instr


spec = define(
    Op.CUSTOM_CALL,
    AttrSpec("window", WINDOW),
    AttrSpec("dim_labels", DIM_LABELS),
    AttrSpec("feature_group_count", INT, default=1, printed=unless(1)),
    AttrSpec("batch_group_count", INT, default=1, printed=unless(1)),
    *precision_attrs(-1),
    AttrSpec("padding_type", enum_kind(PaddingType, "a padding type"), default=PaddingType.INVALID,
             printed=unless(PaddingType.INVALID)),
    AttrSpec("custom_call_target", STRING, required=True),
    AttrSpec("operand_layout_constraints", SHAPE_LIST),
    AttrSpec("custom_call_has_side_effect", BOOL, default=False, printed=if_true),
    AttrSpec("literal", LITERAL),
    AttrSpec("output_to_operand_aliasing", OPERAND_ALIASING, printed=if_nonempty),
    AttrSpec("schedule", enum_kind(CustomCallSchedule, "a custom-call schedule", True),
             default=CustomCallSchedule.NONE, printed=unless(CustomCallSchedule.NONE)),
    AttrSpec("api_version", enum_kind(CustomCallApiVersion, "a custom-call API version", True),
             default=CustomCallApiVersion.ORIGINAL, printed=unless(CustomCallApiVersion.ORIGINAL)),
    AttrSpec("to_apply", COMPUTATION, printed=lambda v, ctx: False),
    AttrSpec("called_computations", COMPUTATION_LIST, printed=if_nonempty),
    check=_check,
    arity=None,
)  # fmt: skip
spec.finish = _finish


def _has_layout(shape: Shape) -> bool:
    """Every array in the shape has a layout (XLA's LayoutUtil::HasLayout)."""
    return all(leaf.layout is not None for _, leaf in shape.leaves() if leaf.is_array)


@shape_rule(Op.CUSTOM_CALL)
def custom_call_shape(ctx: ShapeContext) -> Shape:
    """The written result (a custom call's result is what its target returns), checked against
    the API version, the operand layout constraints and the aliasing."""
    shape = written(ctx, "a custom call's result is whatever its target returns")
    if ctx.attr("api_version") is CustomCallApiVersion.UNSPECIFIED:
        raise ShapeError("api_version must be a known API version: found API_VERSION_UNSPECIFIED")
    constraints = ctx.attr("operand_layout_constraints")
    if constraints is not None and ctx.attr("custom_call_target") not in UNCHECKED_LAYOUT_TARGETS:
        if not _has_layout(shape):
            raise ShapeError(f"a layout-constrained custom call's result must have a layout: found {shape}")
        if len(constraints) != len(ctx.operands):
            raise ShapeError(
                f"operand_layout_constraints must hold one shape per operand: found {len(constraints)} "
                f"for {len(ctx.operands)} operands"
            )
        for k, (c, o) in enumerate(zip(constraints, ctx.operands)):
            if not _has_layout(c):
                raise ShapeError(f"operand_layout_constraints {k} must have a layout: found {c}")
            if not c.compatible(o):
                raise ShapeError(f"operand_layout_constraints {k} must match operand {k}: found {c} and {o}")
    check_aliases(ctx.attr("output_to_operand_aliasing", ()), ctx.operands, shape)
    return shape


# -- builder functions (page 003, CustomCall; xla_builder.h's CustomCall* overloads) ----------
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
        if not _has_layout(shape):
            raise builder.error(
                op_name, f"the result shape must have a layout when operand layouts are given: found {shape}"
            )
        for k, s in enumerate(layouts):
            if not _has_layout(s):
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


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.CUSTOM_CALL)
def custom_call_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The target registered under the custom call's name (ops.custom_call_targets)."""
    from .custom_call_targets import call, lookup

    target = instr.attrs["custom_call_target"]
    lookup(target)  # an unknown target is an error when the module is planned
    config = instr.backend_config or ""
    shape, operand_shapes = instr.shape, ctx.operand_shapes(instr)
    return lambda *xs: call(target, xs, shape, config, operand_shapes)
