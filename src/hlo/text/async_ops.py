"""async-start / async-update / async-done, as XLA's parser builds them. The sugared spelling
`X-start(...)` (X any opcode but the few with real -start opcodes) is turned into an async-start
calling a synthesized computation `async_wrapped` whose root is X; the printer writes the sugar
back when that computation holds nothing but parameters and the root."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ParseError
from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ops.registry import spec
from ..shape import Shape

if TYPE_CHECKING:
    from .instruction_parser import AsyncParts
    from .parser import HloParser

COPIED_TO_WRAPPED = ("metadata", "original_value", "backend_config", "frontend_attributes", "statistics")


def is_sugarable(computation: Computation) -> bool:
    """XLA's CanExpandIntoSingleInstruction: every instruction is a parameter or the root."""
    return all(
        i.opcode is Opcode.PARAMETER or i.name == computation.root_name for i in computation.instructions
    )


class AsyncBuilder:
    def __init__(self, parser: HloParser) -> None:
        self.p = parser

    def error(self, parts: AsyncParts, message: str) -> ParseError:
        return ParseError(message, self.p.lex.span(parts.name_token))

    def build(self, parts: AsyncParts) -> Instruction:
        if parts.shape is None:
            raise self.error(parts, f"{parts.opcode.text} needs its result shape written")
        if parts.opcode in (Opcode.ASYNC_START, Opcode.ASYNC_UPDATE):
            s = parts.shape
            if not (s.is_tuple and len(s.tuple_shapes) >= 2 and s.tuple_shapes[0].is_tuple):
                raise self.error(
                    parts,
                    "AsyncStart and AsyncUpdate expect the shape to be in the form of "
                    "((operand0_shape, operand1_shape, ...), output_shape, ...).",
                )
        if parts.opcode is Opcode.ASYNC_START:
            return self.start(parts)
        return self.update_or_done(parts)

    # -- async-start ------------------------------------------------------------------------------
    def start(self, parts: AsyncParts) -> Instruction:
        attrs: dict[str, Any] = {
            "async_execution_thread": parts.async_attrs.get("async_execution_thread", "main")
        }
        if parts.wrapped is None:
            attrs.update(parts.attrs)
        else:
            attrs["calls"] = (self.wrap(parts),)
        if "output_to_operand_aliasing" in parts.async_attrs:
            attrs["output_to_operand_aliasing"] = parts.async_attrs["output_to_operand_aliasing"]
        callee = attrs["calls"][0]
        if callee in self.p.async_callers:
            raise self.error(parts, f"Computation {callee} is called by more than one async op.")
        self.p.async_callers.add(callee)
        return self.instruction(parts, attrs)

    def wrap(self, parts: AsyncParts) -> str:
        """The computation `async_wrapped` for a sugared `X-start`: parameters shaped as the
        start's operand tuple, and X as the root."""
        assert parts.shape is not None and parts.wrapped is not None
        operand_shapes = list(parts.shape.tuple_shapes[0].tuple_shapes)
        root_shape = parts.shape.tuple_shapes[1]
        called = [
            c
            for a in spec(parts.wrapped).attrs
            if a.kind.calls_computations and a.name in parts.attrs
            for c in (
                parts.attrs[a.name] if isinstance(parts.attrs[a.name], tuple) else (parts.attrs[a.name],)
            )
        ]
        if parts.wrapped in (Opcode.FUSION, Opcode.CALL) and called:
            params, root_shape = self.p.program_shape(called[0])
            operand_shapes = list(params)
        arity = parts.wrapped.arity
        while arity is not None and len(operand_shapes) < arity:
            operand_shapes.append(Shape.array("f32", (1,)))
        names = [f"async_param.{i}" if i else "async_param" for i in range(len(operand_shapes))]
        params_instrs = [
            Instruction(n, Opcode.PARAMETER, s, attrs=FrozenDict(parameter_number=i))
            for i, (n, s) in enumerate(zip(names, operand_shapes))
        ]
        copied = {k: v for k, v in parts.generic.items() if k in COPIED_TO_WRAPPED}
        root = Instruction(
            "async_op", parts.wrapped, root_shape, tuple(names), FrozenDict(parts.attrs), **copied
        )
        finish = spec(parts.wrapped).finish
        if finish is not None:
            root = finish(root)
        name = self.p.inline_name("async_wrapped")
        thread = parts.async_attrs.get("async_execution_thread", "main")
        self.p.add_computation(Computation(name, (*params_instrs, root), "async_op", thread))
        return name

    # -- async-update / async-done ------------------------------------------------------------------
    def update_or_done(self, parts: AsyncParts) -> Instruction:
        scope = parts.scope
        if not parts.operands:
            raise self.error(parts, "No operand found for AsyncUpdate and AsyncDone")
        previous = scope.internal[parts.operands[0].name]
        if previous.opcode is Opcode.ASYNC_DONE:
            raise self.error(parts, "AsyncDone cannot be the first operand of an AsyncUpdate or AsyncDone.")
        if previous.opcode not in (Opcode.ASYNC_START, Opcode.ASYNC_UPDATE):
            raise self.error(
                parts, "AsyncUpdate and AsyncDone expect an asynchronous operation as their first operand."
            )
        callee = previous.attrs["calls"][0]
        thread = previous.attrs.get("async_execution_thread", "main")
        wrapped_comp = self.p.computation(callee)
        given = parts.attrs.get("calls") or parts.async_attrs.get("calls")
        if given is not None and given[0] != callee:
            raise self.error(parts, f"Expect async_wrapped_computation to be {callee}, but got {given[0]}")
        given_thread = parts.async_attrs.get(
            "async_execution_thread", parts.attrs.get("async_execution_thread")
        )
        if given_thread is not None and given_thread != thread:
            raise self.error(parts, f"Expect async_execution_thread to be {thread}, but got {given_thread}")
        if parts.wrapped is not None and wrapped_comp.root.opcode is not parts.wrapped:
            raise self.error(
                parts,
                f"Expect async wrapped opcode to be {wrapped_comp.root.opcode.text}, "
                f"but got {parts.wrapped.text}",
            )
        if parts.opcode is Opcode.ASYNC_DONE:
            del parts.operands[1:]
        if parts.wrapped is not None:
            self.rebind(wrapped_comp, parts, previous)
        attrs = {"async_execution_thread": thread, "calls": (callee,)}
        return self.instruction(parts, attrs)

    def rebind(self, comp: Computation, parts: AsyncParts, previous: Instruction) -> None:
        """Late binding: an update or done says the wrapped computation's operand shapes and
        result shape; parameters it lacks are added (and given to the root)."""
        assert parts.shape is not None
        if parts.opcode is Opcode.ASYNC_UPDATE:
            operand_shapes, result = parts.shape.tuple_shapes[0].tuple_shapes, parts.shape.tuple_shapes[1]
        else:
            operand_shapes, result = previous.shape.tuple_shapes[0].tuple_shapes, parts.shape
        params = list(comp.parameters)
        others = [i for i in comp.instructions if i.opcode is not Opcode.PARAMETER]
        for k, s in enumerate(operand_shapes):
            if k < len(params):
                params[k] = params[k].replace(shape=s)
            else:
                params.append(
                    Instruction(f"async_param.{k}", Opcode.PARAMETER, s, attrs=FrozenDict(parameter_number=k))
                )
        root = comp.root.replace(shape=result)
        if len(root.operands) < len(params):
            root = root.replace(operands=root.operands + tuple(p.name for p in params[len(root.operands) :]))
        instructions = tuple(params) + tuple(root if i.name == comp.root_name else i for i in others)
        self.p.replace_computation(comp.replace(instructions=instructions))

    def instruction(self, parts: AsyncParts, attrs: dict[str, Any]) -> Instruction:
        assert parts.shape is not None
        return Instruction(
            parts.name,
            parts.opcode,
            parts.shape,
            tuple(o.name for o in parts.operands),
            FrozenDict(attrs),
            span=self.p.lex.span(parts.name_token),
            **parts.generic,
        )
