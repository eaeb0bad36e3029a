"""XlaBuilder: build HLO from Python, as XLA's C++ builder does (page 003 of the spec).

`hlo.XlaBuilder(name)` collects instructions; the functions of `hlo.ops` (`Parameter`, `Add`,
`Reduce`, ...) add them, each computing its result shape with the op's shape rule, so a bad
program fails where it is written: the error names the op, the operand, the rule and the shapes,
and points at the caller's line. `b.build()` gives an `XlaComputation` (an HLO module with this
computation as its entry) that prints as HLO text and parses back equal.
"""

from __future__ import annotations

import linecache
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from .dtypes import PrimitiveType
from .errors import HloError, ShapeError, Span
from .ir.computation import Computation
from .ir.frozen import FrozenDict
from .ir.instruction import Instruction
from .ir.module import ComputationLayout, Module, ModuleConfig
from .ir.opcode import Opcode
from .ops.handles import XlaComputation, XlaOp
from .ops.registry import OpContext, ShapeContext, rename_references, spec
from .shape import Shape
from .text.names import NameUniquer
from .text.order import computation_order, instruction_order

__all__ = ["XlaBuilder", "XlaComputation", "XlaOp", "user_span"]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def user_span() -> Span | None:
    """The place in the user's code (the first frame outside this package) that called in."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None
    source = _source(frame.f_code.co_filename)
    line = frame.f_lineno
    if source is None or not 1 <= line < len(source[1]):
        return None
    column, length = 0, 1
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is not None:  # Python 3.11+: where the call expression starts and ends
        for k, (first, last, start, end) in enumerate(positions()):
            if 2 * k == frame.f_lasti and start is not None:
                column = start
                if first == last == line and end is not None:
                    length = max(1, end - start)
                break
    return Span(source[0], source[1][line - 1] + column, length, frame.f_code.co_filename)


_SOURCES: dict[str, tuple[list[str], str, list[int]]] = {}


def _source(filename: str) -> tuple[str, list[int]] | None:
    """A source file's text and the offsets of its line starts (cached: a builder program makes
    one span per instruction)."""
    lines = linecache.getlines(filename)
    if not lines:
        return None
    cached = _SOURCES.get(filename)
    if cached is None or cached[0] is not lines:
        starts = [0]
        for text_line in lines:
            starts.append(starts[-1] + len(text_line))
        cached = (lines, "".join(lines), starts)
        _SOURCES[filename] = cached
    return cached[1], cached[2]


class XlaBuilder:
    def __init__(self, name: str) -> None:
        self.name = name
        self.instructions: list[Instruction] = []
        self.by_name: dict[str, Instruction] = {}
        self.names = NameUniquer()
        self.subcomputations: dict[str, Computation] = {}  # embedded, in callee-first order
        self._computation_names = NameUniquer()
        self._computation_names.unique(name)

    def sub_builder(self, name: str) -> XlaBuilder:
        """A new builder for a computation this one will call (XLA's CreateSubBuilder)."""
        return XlaBuilder(name)

    def __repr__(self) -> str:
        return f"XlaBuilder({self.name!r}, {len(self.instructions)} instructions)"

    # -- adding instructions ------------------------------------------------------------------
    def add(
        self,
        op_name: str,
        opcode: Opcode,
        operands: Sequence[XlaOp] = (),
        attrs: Mapping[str, Any] | None = None,
        shape: Shape | None = None,
        name: str | None = None,
        preferred_element_type: PrimitiveType | None = None,
        **generic: Any,
    ) -> XlaOp:
        """Add an instruction; its shape comes from the op's shape rule unless given. A broken rule
        is a ShapeError that names `op_name` (the builder function) and the caller's line.
        `preferred_element_type` reaches the rule of ops that accumulate in a chosen type."""
        for k, o in enumerate(operands):
            if not isinstance(o, XlaOp):
                raise self.error(op_name, f"operand {k} is not an XlaOp but {type(o).__name__}")
            if o.builder is not self:
                raise self.error(
                    op_name, f"operand {k} ({o.name}) belongs to builder {o.builder.name}, not {self.name}"
                )
        op_spec = spec(opcode)
        attrs = dict(attrs or {})
        operand_shapes = tuple(o.shape for o in operands)
        ctx = OpContext(opcode, operand_shapes, shape)
        unfilled = [a for a in op_spec.fill_defaults(attrs, ctx) if a.name not in attrs]
        if unfilled:
            raise self.error(op_name, f"the attribute {unfilled[0].name} is required")
        if op_spec.shape_rule is not None:
            # With a given shape (reshape's new sizes, a custom call's result) the rule checks it.
            context = ShapeContext(
                opcode, operand_shapes, attrs, self.program_shape, preferred_element_type, shape
            )
            try:
                inferred = op_spec.shape_rule(context)
            except ShapeError as e:
                raise self.error(op_name, e.message) from None
            if shape is not None and not inferred.compatible(shape):
                raise self.error(
                    op_name, f"the result shape {shape} does not match the op's rule: {inferred}"
                )
            shape = shape if shape is not None else inferred
        elif shape is None:
            raise self.error(op_name, f"{opcode.text} needs its result shape")
        instr_name = self.names.unique(name if name is not None else opcode.text)
        instr = Instruction(
            instr_name,
            opcode,
            shape,
            tuple(o.name for o in operands),
            FrozenDict(attrs),
            span=user_span(),
            **generic,
        )
        if op_spec.check is not None:
            message = op_spec.check(instr, operand_shapes)
            if message:
                raise self.error(op_name, message)
        self.instructions.append(instr)
        self.by_name[instr_name] = instr
        return XlaOp(self, instr_name, shape)

    def error(self, op_name: str, message: str) -> ShapeError:
        return ShapeError(f"{op_name}: {message}", user_span())

    # -- called computations --------------------------------------------------------------------
    def computation_ref(self, computation: XlaComputation) -> str:
        """Embed a sub-computation (and everything it calls) and give its name here."""
        if not isinstance(computation, XlaComputation):
            raise HloError(
                f"expected an XlaComputation (from a builder's build()), not {type(computation).__name__}"
            )
        module = computation.module
        renames: dict[str, str] = {}
        for c in module.computations:  # callees first, entry last
            renames[c.name] = self._computation_names.unique(c.name)
            # Instruction names are unique in the whole module, as XLA's are.
            names = {i.name: self.names.unique(i.name) for i in c.instructions}
            names = {k: v for k, v in names.items() if k != v}
            comps = {k: v for k, v in renames.items() if k != v}
            instructions = tuple(rename_references(i, names, comps) for i in c.instructions)
            root = names.get(c.root_name, c.root_name)
            self.subcomputations[renames[c.name]] = c.replace(
                name=renames[c.name], instructions=instructions, root_name=root
            )
        return renames[module.entry_name]

    def program_shape(self, name: str) -> tuple[tuple[Shape, ...], Shape]:
        c = self.subcomputations[name]
        return c.parameter_shapes, c.result_shape

    # -- building -------------------------------------------------------------------------------
    def build(self, root: XlaOp | None = None) -> XlaComputation:
        """The computation, with `root` (by default the last instruction added) as its root."""
        if not self.instructions:
            raise HloError(f"builder {self.name} has no instructions to build a computation from")
        if root is not None and root.builder is not self:
            raise HloError(f"the root {root.name} belongs to builder {root.builder.name}, not {self.name}")
        root_name = root.name if root is not None else self.instructions[-1].name
        entry = Computation(self.name, tuple(self.instructions), root_name)
        numbers = sorted(
            i.attrs["parameter_number"] for i in entry.instructions if i.opcode is Opcode.PARAMETER
        )
        if numbers != list(range(len(numbers))):
            raise HloError(f"builder {self.name}: parameter numbers must be 0..n-1, not {numbers}")
        layout = ComputationLayout(
            tuple(s.with_default_layout() for s in entry.parameter_shapes),
            entry.result_shape.with_default_layout(),
        )
        # Instructions and computations in the order the printer writes them, so that the
        # module equals its text parsed back.
        entry = entry.replace(instructions=tuple(instruction_order(entry)))
        module = Module(
            self.name,
            (*self.subcomputations.values(), entry),
            self.name,
            ModuleConfig(entry_computation_layout=layout),
        )
        module = module.replace(computations=tuple(computation_order(module)))
        return XlaComputation(module)
