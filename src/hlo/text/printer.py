"""The HLO text printer: XLA's canonical text of modules, computations and instructions, in the
forms XLA prints (long, short, default, canonical, ...; see print_options)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..ops.registry import OpContext, spec
from ..shape import Shape
from . import module_header as mh
from .async_ops import is_sugarable
from .codec_table import codec_of
from .literal_codec import print_constant_operand
from .metadata_codec import (
    print_frontend_attributes,
    print_metadata,
    print_original_value,
    print_result_accuracy,
    print_statistics,
)
from .order import computation_order, instruction_order
from .print_options import DEFAULT, PrintOptions, Subcomputations, options_for
from .sharding_codec import print_sharding

ASYNC_SUFFIX = {Opcode.ASYNC_START: "-start", Opcode.ASYNC_UPDATE: "-update", Opcode.ASYNC_DONE: "-done"}


@dataclass
class Printer:
    """Prints within one module (for computation bodies, operand shapes, async sugar)."""

    opts: PrintOptions
    module: Module | None = None
    canonical: dict[str, str] = field(default_factory=dict)
    skip_wrapped_statistics: bool = False

    @property
    def percent(self) -> bool:
        return self.opts.print_percent

    # -- names ------------------------------------------------------------------------------
    def name(self, name: str) -> str:
        if self.opts.canonicalize_instruction_names and self.opts.is_in_nested_computation:
            return self.canonical.setdefault(name, f"tmp_{len(self.canonical)}")
        if not self.opts.print_ids:
            name = name.split(".", 1)[0]
        return ("%" if self.percent else "") + name

    def computation_name(self, name: str) -> str:
        return ("%" if self.percent else "") + (name if self.opts.print_ids else name.split(".", 1)[0])

    def shape(self, shape: Shape) -> str:
        return shape.to_string(self.opts.include_layout_in_shapes)

    # -- module -----------------------------------------------------------------------------
    def module_text(self, m: Module) -> str:
        out = [mh.print_header(m, self.opts.indent_amount, _default_module_text)]
        if m.stack_frames is not None and self.opts.print_metadata:
            out.append(mh.print_stack_frames(m.stack_frames))
        out.append("\n\n")
        hidden = self.sugared_computations(m) if self.opts.syntax_sugar_async_ops else set()
        for c in computation_order(m):
            if c.name not in hidden:
                out.append(self.computation_text(c, entry=c.name == m.entry_name) + "\n\n")
        return "".join(out)

    def sugared_computations(self, m: Module) -> set[str]:
        names = set()
        for c in m.computations:
            for i in c.instructions:
                if i.opcode is Opcode.ASYNC_START and is_sugarable(m.computation(i.attrs["calls"][0])):
                    names.add(i.attrs["calls"][0])
        return names

    # -- computation ------------------------------------------------------------------------
    def computation_text(self, c: Computation, entry: bool = False) -> str:
        opts = self.opts
        tab = "  " * opts.indent_amount
        head = tab + ("ENTRY " if entry else "")
        if not opts.is_in_nested_computation:
            head += ("%" if self.percent else "") + (c.name + " " if opts.print_ids else "")
        if opts.print_program_shape:
            head += program_shape(c, opts.print_ids) + " "
        inner = Printer(
            opts.replace(indent_amount=opts.indent_amount + 1, is_in_nested_computation=True), self.module
        )
        lines = [head + "{"]
        scheduled = self.module is not None and self.module.is_scheduled and not self.is_fusion_computation(c)
        for i in instruction_order(c, scheduled):
            if opts.compact_gte and i.opcode is Opcode.GET_TUPLE_ELEMENT and i.name != c.root_name:
                continue
            root = "ROOT " if i.name == c.root_name else ""
            lines.append(tab + "  " + root + inner.instruction_text(i, c))
        tail = tab + "}"
        if opts.print_ids and c.execution_thread != "main":
            tail += f', execution_thread="{c.execution_thread}"'
        lines.append(tail)
        return "\n".join(lines)

    def is_fusion_computation(self, c: Computation) -> bool:
        assert self.module is not None
        return any(
            i.opcode is Opcode.FUSION and c.name in i.attrs.get("calls", ())
            for comp in self.module.computations
            for i in comp.instructions
        )

    # -- instruction ------------------------------------------------------------------------
    def instruction_text(self, i: Instruction, c: Computation | None = None) -> str:
        opts = self.opts
        parts = []
        if not (opts.canonicalize_instruction_names and not opts.is_in_nested_computation):
            parts.append(self.name(i.name) + " = ")
        if opts.print_result_shape:
            parts.append(self.shape(i.shape) + " ")
        wrapped_root = self.async_wrapped_root(i)
        opcode = i.opcode.text if wrapped_root is None else wrapped_root.opcode.text + ASYNC_SUFFIX[i.opcode]
        parts.append(opcode + "(" + self.operands_text(i, c) + ")")
        attrs = self.attributes(i, c, wrapped_root)
        return "".join(parts) + "".join(", " + a for a in attrs)

    def async_wrapped_root(self, i: Instruction) -> Instruction | None:
        if i.opcode not in ASYNC_SUFFIX or not self.opts.syntax_sugar_async_ops or self.module is None:
            return None
        callee = self.module.by_name.get(i.attrs.get("calls", ("",))[0])
        if callee is None or not is_sugarable(callee):
            return None
        return callee.root

    def operands_text(self, i: Instruction, c: Computation | None) -> str:
        opts = self.opts
        if i.opcode is Opcode.PARAMETER:
            return str(i.attrs["parameter_number"]) if opts.print_parameter_number else ""
        if i.opcode is Opcode.CONSTANT:
            return print_constant_operand(i.attrs["literal"], opts.print_large_constants)
        out = []
        interval = opts.operand_index_interval
        for k, name in enumerate(i.operands):
            text = ""
            operand = c.by_name.get(name) if c is not None else None
            if opts.print_operand_shape and operand is not None:
                text = self.shape(operand.shape)
            show_name = (
                opts.is_in_nested_computation
                if opts.canonicalize_instruction_names
                else opts.print_operand_names
            )
            if show_name:
                if text:
                    text += " "
                text += self.operand_name(name, c)
            if k:
                out.append(f", /*index={k}*/" if interval and k % interval == 0 else ", ")
            out.append(text)
        return "".join(out)

    def operand_name(self, name: str, c: Computation | None) -> str:
        if not self.opts.compact_gte or c is None:
            return self.name(name)
        indices: list[int] = []
        current = c.by_name.get(name)
        while current is not None and current.opcode is Opcode.GET_TUPLE_ELEMENT:
            indices.append(current.attrs["index"])
            name = current.operands[0]
            current = c.by_name.get(name)
        return self.name(name) + "".join(f"#{k}" for k in reversed(indices))

    def attributes(
        self, i: Instruction, c: Computation | None, wrapped_root: Instruction | None
    ) -> list[str]:
        opts = self.opts
        out: list[str] = []
        if opts.print_extra_attributes:
            if wrapped_root is not None:
                if i.opcode is Opcode.ASYNC_START:
                    thread = i.attrs.get("async_execution_thread", "main")
                    if thread != "main":
                        out.append(f'async_execution_thread="{thread}"')
                    # The wrapped op's frontend attributes print only if the start has none (as
                    # XLA); statistics likewise, so the text parses back (XLA prints them twice).
                    inner = Printer(
                        opts.replace(
                            print_frontend_attributes=opts.print_frontend_attributes
                            and not i.frontend_attributes
                        ),
                        self.module,
                        self.canonical,
                        skip_wrapped_statistics=i.statistics is not None,
                    )
                    out += inner.own_attributes(
                        wrapped_root, self.module.computation(i.attrs["calls"][0]) if self.module else None
                    )
                    out += inner.generic_attributes(wrapped_root, wrapped=True)
                    aliasing = i.attrs.get("output_to_operand_aliasing")
                    if aliasing:
                        out.append(
                            "output_to_operand_aliasing="
                            + codec_of(spec(i.opcode).by_name["output_to_operand_aliasing"].kind).print(
                                aliasing, self
                            )
                        )
            else:
                out += self.own_attributes(i, c)
        out += self.generic_attributes(i)
        return out

    def own_attributes(self, i: Instruction, c: Computation | None) -> list[str]:
        """The op's attributes (schema order, XLA's), called computations included."""
        opts = self.opts
        op_spec = spec(i.opcode)
        operand_shapes = (
            tuple(c.by_name[o].shape for o in i.operands if o in c.by_name) if c is not None else ()
        )
        ctx = OpContext(i.opcode, operand_shapes if len(operand_shapes) == len(i.operands) else (), i.shape)
        out = []
        for a in op_spec.attrs:
            value = i.attrs.get(a.name)
            if codec_of(a.kind).calls_computations:
                if (
                    value is None
                    or opts.subcomputations is Subcomputations.OFF
                    or not a.should_print(value, ctx)
                ):
                    continue
                if opts.subcomputations is Subcomputations.FULL_BODIES and self.module is not None:
                    out.append(a.name + "=" + self.bodies(a.name, value))
                    continue
            elif not a.should_print(value, ctx):
                continue
            if a.name == "replica_groups" and opts.print_full_replica_group_list:
                from .sharding_codec import print_replica_groups

                assert value is not None
                out.append(f"replica_groups={print_replica_groups(value, full=True)}")
                continue
            if a.name == "channel_id" and not opts.print_channel_id:
                out.append("channel_id=_")
                continue
            if a.name in ("infeed_config", "outfeed_config") and not opts.print_infeed_outfeed_config:
                continue
            out.append(f"{a.name}={codec_of(a.kind).print(value, self)}")
        if i.opcode is Opcode.PARAMETER and i.parameter_replication is not None and opts.print_ids:
            out.append(
                "parameter_replication={"
                + ",".join("true" if b else "false" for b in i.parameter_replication)
                + "}"
            )
        return out

    def bodies(self, name: str, value: str | tuple[str, ...]) -> str:
        """Called computations printed in full (Canonical form)."""
        assert self.module is not None
        names = value if isinstance(value, tuple) else (value,)
        nested = Printer(self.opts.replace(is_in_nested_computation=True), self.module)
        texts = [
            Printer(nested.opts, self.module).computation_text(self.module.computation(n)) for n in names
        ]
        if name in ("branch_computations", "called_computations"):
            return "{\n" + ",\n".join(texts) + "\n}"
        return "\n" + ", ".join(texts)

    def generic_attributes(self, i: Instruction, wrapped: bool = False) -> list[str]:
        opts = self.opts
        out = []
        if i.sharding is not None:
            out.append("sharding=" + print_sharding(i.sharding, include_metadata=opts.print_metadata))
        if opts.print_frontend_attributes and i.frontend_attributes:
            out.append("frontend_attributes=" + print_frontend_attributes(i.frontend_attributes))
        if opts.print_control_dependencies and i.control_predecessors:
            out.append(
                "control-predecessors={" + ", ".join(self.name(p) for p in i.control_predecessors) + "}"
            )
        if i.statistics is not None and not (wrapped and self.skip_wrapped_statistics):
            out.append("statistics=" + print_statistics(i.statistics))
        if i.result_accuracy is not None and i.result_accuracy.is_printed:
            out.append("result_accuracy=" + print_result_accuracy(i.result_accuracy))
        if wrapped:
            return out
        if opts.print_original_value and i.original_value is not None:
            out.append("origin=" + print_original_value(i.original_value))
        if opts.print_metadata and i.metadata is not None and i.metadata.is_printed:
            out.append("metadata={" + print_metadata(i.metadata, opts.print_metadata_only_op_name) + "}")
        if opts.print_backend_config and i.backend_config:
            out.append("backend_config=" + backend_config_text(i.backend_config))
        return out


def _default_module_text(m: Module, indent: int) -> str:
    return print_module(m, DEFAULT.replace(indent_amount=indent))


def backend_config_text(config: str) -> str:
    from .escapes import c_escape
    from .format import lexes_as_json_dict

    return config if lexes_as_json_dict(config) else '"' + c_escape(config) + '"'


def program_shape(c: Computation, print_ids: bool = True) -> str:
    params = ", ".join(
        f"{(p.name if print_ids else p.name.split('.', 1)[0]) or '(unknown)'}: {p.shape.to_string(False)}"
        for p in c.parameters
    )
    return f"({params}) -> {c.result_shape.to_string(False)}"


def print_module(m: Module, form: str | PrintOptions = "long") -> str:
    return Printer(options_for(form), m).module_text(m)


def print_computation(c: Computation, form: str | PrintOptions = "long", module: Module | None = None) -> str:
    return Printer(options_for(form), module).computation_text(c)


def print_instruction(
    i: Instruction, form: str | PrintOptions = "default", computation: Computation | None = None,
    module: Module | None = None,
) -> str:  # fmt: skip
    return Printer(options_for(form), module).instruction_text(i, computation)


Print = Callable[[Instruction], str]
