"""custom-call: a call to a target outside HLO, with the convolution-like fields XLA lets it
carry, layout constraints, aliasing, a literal and called computations. Its result is whatever
the target returns, so the instruction states it; the rule checks what can be checked against
it (page 003, CustomCall; XLA's verifier). Its builder functions, xla_builder.h's five CustomCall
overloads, are custom_call_builders.py."""

from __future__ import annotations

from collections.abc import Callable
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
    CustomCallApiVersion,
    CustomCallSchedule,
    PaddingType,
)
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from .callee import check_aliases, written
from .dot_common import precision_attrs
from .registry import (
    AttrSpec,
    ShapeContext,
    define,
    if_nonempty,
    if_true,
    kernel,
    shape_rule,
    unless,
)

if TYPE_CHECKING:
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


def has_layout(shape: Shape) -> bool:
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
        if not has_layout(shape):
            raise ShapeError(f"a layout-constrained custom call's result must have a layout: found {shape}")
        if len(constraints) != len(ctx.operands):
            raise ShapeError(
                f"operand_layout_constraints must hold one shape per operand: found {len(constraints)} "
                f"for {len(ctx.operands)} operands"
            )
        for k, (c, o) in enumerate(zip(constraints, ctx.operands)):
            if not has_layout(c):
                raise ShapeError(f"operand_layout_constraints {k} must have a layout: found {c}")
            if not c.compatible(o):
                raise ShapeError(f"operand_layout_constraints {k} must match operand {k}: found {c} and {o}")
    check_aliases(ctx.attr("output_to_operand_aliasing", ()), ctx.operands, shape)
    return shape


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
