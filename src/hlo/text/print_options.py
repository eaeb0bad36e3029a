"""Printer settings (XLA's HloPrintOptions) and the named forms of HLO text."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace


class Subcomputations(enum.Enum):
    OFF = "off"
    NAME_ONLY = "name_only"
    FULL_BODIES = "full_bodies"


@dataclass(frozen=True)
class PrintOptions:
    print_operand_shape: bool = False
    print_percent: bool = True
    print_program_shape: bool = True
    print_metadata: bool = True
    print_metadata_only_op_name: bool = False
    print_backend_config: bool = True
    print_large_constants: bool = False
    print_control_dependencies: bool = True
    print_result_shape: bool = True
    print_operand_names: bool = True
    print_ids: bool = True
    print_extra_attributes: bool = True
    print_frontend_attributes: bool = True
    print_original_value: bool = True
    print_infeed_outfeed_config: bool = True
    print_parameter_number: bool = True
    print_channel_id: bool = True
    print_full_replica_group_list: bool = False
    include_layout_in_shapes: bool = True
    operand_index_interval: int = 5
    subcomputations: Subcomputations = Subcomputations.NAME_ONLY
    syntax_sugar_async_ops: bool = True
    compact_gte: bool = False
    canonicalize_instruction_names: bool = False
    indent_amount: int = 0
    is_in_nested_computation: bool = False

    def replace(self, **changes: object) -> PrintOptions:
        return replace(self, **changes)  # type: ignore[arg-type]


DEFAULT = PrintOptions()
LONG = DEFAULT.replace(print_operand_shape=True, print_large_constants=True)
SHORT = DEFAULT.replace(
    print_large_constants=True,
    print_metadata=False,
    operand_index_interval=0,
    print_program_shape=False,
    print_percent=False,
    print_control_dependencies=False,
)
CANONICAL = DEFAULT.replace(
    subcomputations=Subcomputations.FULL_BODIES,
    print_metadata=False,
    print_backend_config=False,
    print_operand_names=False,
    print_operand_shape=True,
    operand_index_interval=0,
    print_program_shape=False,
    print_percent=False,
    print_control_dependencies=False,
    canonicalize_instruction_names=True,
)
FINGERPRINT = CANONICAL.replace(
    print_infeed_outfeed_config=False, print_ids=False, print_full_replica_group_list=True
)

FORMS: dict[str, PrintOptions] = {
    "long": LONG,
    "short": SHORT,
    "default": DEFAULT,
    "canonical": CANONICAL,
    "fingerprint": FINGERPRINT,
    "short+compact_gte+operand_shape+percent": SHORT.replace(
        compact_gte=True, print_operand_shape=True, print_percent=True
    ),
    "canonical_no_metadata": CANONICAL,
}


def options_for(form: str | PrintOptions) -> PrintOptions:
    if isinstance(form, PrintOptions):
        return form
    try:
        return FORMS[form]
    except KeyError:
        raise ValueError(f"unknown text form {form!r}: one of {', '.join(FORMS)}") from None
