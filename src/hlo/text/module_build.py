"""What XLA's text parser does once the computations are read: computation and instruction names
made unique module-wide, the module config from the header, the entry computation layout when
the text gives none, and the stack-frame tables re-interned."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import Span
from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.metadata import StackFrameIndex
from ..ir.module import ComputationLayout, Module, ModuleConfig
from ..ops.registry import rename_references
from ..shape import Shape
from .instruction_parser import INTERNAL_MARK
from .names import NameUniquer
from .stack_frames import canonicalize_stack_frames


def build_module(
    parsed: list[Computation],
    name: str | None,
    header: dict[str, Any],
    stack_frames: StackFrameIndex | None,
    entry: str,
    span: Span,
    keep_stack_frames: bool,
) -> Module:
    """The module of the parsed computations with the header's attributes, as XLA's parser
    finishes it: names made unique module-wide, the config, the entry layout (given or set),
    the stack-frame tables re-interned unless `keep_stack_frames`."""
    computations, entry = unique_names(parsed, entry)
    entry_comp = next(c for c in computations if c.name == entry)
    config_items = {
        k: header[k] for k in ("replica_count", "num_partitions", "alias_passthrough_params") if k in header
    }
    config = ModuleConfig(**config_items)
    if header.get("num_partitions", 1) != 1:
        config = replace(config, use_spmd_partitioning=True)
    for key in (
        "allow_spmd_sharding_propagation_to_parameters",
        "allow_spmd_sharding_propagation_to_output",
    ):
        if header.get(key):
            config = replace(config, **{key: header[key]})
    layout = header.get("entry_computation_layout")
    if layout is None:
        layout = entry_layout(entry_comp, default=config != ModuleConfig())
    config = replace(config, entry_computation_layout=layout)
    module = Module(
        name if name is not None else f"module_{entry}",
        tuple(computations),
        entry,
        config,
        is_scheduled=bool(header.get("is_scheduled", False)),
        input_output_alias=header.get("input_output_alias", ()),
        buffer_donors=header.get("buffer_donor", ()),
        frontend_attributes=header.get("frontend_attributes", FrozenDict()),
        origin_recovery_table=header.get("origin_recovery_table", ()),
        debug_attributes=header.get("debug_attributes", ()),
        span=span,
    )
    if keep_stack_frames:
        return module.replace(stack_frames=stack_frames)
    return canonicalize_stack_frames(module, stack_frames)


def entry_layout(entry: Computation, default: bool) -> ComputationLayout:
    """The entry layout XLA sets when the text gives none: the parameters' and root's shapes, or
    (a quirk of XLA's parser, when other config attributes were given) their default layouts."""

    def fix(s: Shape) -> Shape:
        return s.with_default_layout() if default else s

    return ComputationLayout(tuple(fix(s) for s in entry.parameter_shapes), fix(entry.result_shape))


def unique_names(computations: list[Computation], entry: str) -> tuple[list[Computation], str]:
    """XLA makes computation names and instruction names unique module-wide (`x`, `x.1`, ...)
    when computations are added to the module, in this order."""
    comp_names = NameUniquer()
    instr_names = NameUniquer()
    comp_map: dict[str, str] = {}
    renamed: list[tuple[Computation, dict[str, str]]] = []
    for c in computations:
        comp_map[c.name] = comp_names.unique(c.name.split(INTERNAL_MARK)[0])
        mapping = {}
        for i in c.instructions:
            new = instr_names.unique(i.name.split(INTERNAL_MARK)[0])
            if new != i.name:
                mapping[i.name] = new
        renamed.append((c, mapping))
    comps = {k: v for k, v in comp_map.items() if k != v}
    result = []
    for c, mapping in renamed:
        if mapping or comps:
            instructions = tuple(rename_references(i, mapping, comps) for i in c.instructions)
            c = replace(c, instructions=instructions, root_name=mapping.get(c.root_name, c.root_name))
        result.append(replace(c, name=comp_map[c.name]) if c.name in comps else c)
    return result, comp_map[entry]
