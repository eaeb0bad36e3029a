"""custom-call: a call to a target outside HLO, with the convolution-like fields XLA lets it
carry, layout constraints, aliasing, a literal and called computations."""

from __future__ import annotations

from ..ir.attrs import CustomCallApiVersion, CustomCallSchedule, PaddingType
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import (
    BOOL,
    COMPUTATION,
    COMPUTATION_LIST,
    DIM_LABELS,
    INT,
    OPERAND_ALIASING,
    SHAPE_LIST,
    STRING,
    WINDOW,
    EnumCodec,
    Simple,
)
from ..text.literal_codec import parse_untyped_literal, print_literal
from .dot import precision_attrs
from .registry import AttrSpec, define, if_nonempty, if_true, unless

Op = Opcode

LITERAL = Simple(parse_untyped_literal, lambda v: print_literal(v, with_shape=True))


def _check(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
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
    AttrSpec("padding_type", EnumCodec(PaddingType, "a padding type"), default=PaddingType.INVALID,
             printed=unless(PaddingType.INVALID)),
    AttrSpec("custom_call_target", STRING, required=True),
    AttrSpec("operand_layout_constraints", SHAPE_LIST),
    AttrSpec("custom_call_has_side_effect", BOOL, default=False, printed=if_true),
    AttrSpec("literal", LITERAL),
    AttrSpec("output_to_operand_aliasing", OPERAND_ALIASING, printed=if_nonempty),
    AttrSpec("schedule", EnumCodec(CustomCallSchedule, "a custom-call schedule", True),
             default=CustomCallSchedule.NONE, printed=unless(CustomCallSchedule.NONE)),
    AttrSpec("api_version", EnumCodec(CustomCallApiVersion, "a custom-call API version", True),
             default=CustomCallApiVersion.ORIGINAL, printed=unless(CustomCallApiVersion.ORIGINAL)),
    AttrSpec("to_apply", COMPUTATION, printed=lambda v, ctx: False),
    AttrSpec("called_computations", COMPUTATION_LIST, printed=if_nonempty),
    check=_check,
    arity=None,
)  # fmt: skip
spec.finish = _finish
