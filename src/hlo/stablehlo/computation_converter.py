"""One computation of a StableHLO module being built as XLA's conversion builds it: its
instructions (named `opcode.N`, attribute defaults from the op's schema, dead pure ones dropped)
and its regions, each a new computation. Values that the regions of if, case and while use from
outside (implicit captures) are passed in, as XLA passes them; constants are cloned instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.metadata import OpMetadata
from ..ir.opcode import Opcode
from ..ops.registry import OpContext, spec
from ..shape import Shape
from .syntax import Block, Op

if TYPE_CHECKING:
    from .convert import ModuleConverter


class ComputationConverter:
    """One computation being built: its instructions and the HLO names of the MLIR values in
    scope (a region's converter sees only its own values)."""

    def __init__(self, mc: ModuleConverter, constants: dict[str, Op] | None = None) -> None:
        self.mc = mc
        self.instructions: list[Instruction] = []
        self.shapes: dict[str, Shape] = {}
        self.values: dict[str, str] = {}
        # The constant ops of this computation and the enclosing ones, by MLIR value: a region
        # that uses one gets its own copy (XLA's conversion clones constants into regions
        # rather than passing them in).
        self.constants: dict[str, Op] = dict(constants or {})
        self.name_hint: tuple[str, OpMetadata] | None = None  # what the current op's loc gives

    def captures(self, blocks: list[Block]) -> list[str]:
        """The values of this computation a region uses (constants aside: they are cloned)."""
        return [v for v in free_values(blocks) if v in self.values and v not in self.constants]

    def value(self, name: str, pos: int) -> str:
        hlo = self.values.get(name)
        if hlo is None:
            raise self.mc.error(f"use of undefined value {name}", pos)
        return hlo

    def shape(self, hlo_name: str) -> Shape:
        return self.shapes[hlo_name]

    def emit(
        self,
        opcode: Opcode,
        operands: tuple[str, ...] | list[str],
        shape: Shape,
        attrs: dict[str, Any] | None,
        pos: int,
        prefix: str | None = None,
        **generic: Any,
    ) -> str:
        """Add an instruction (its attribute defaults filled from the op's schema)."""
        op_spec = spec(opcode)
        attrs = dict(attrs or {})
        operand_shapes = tuple(self.shapes[o] for o in operands)
        ctx = OpContext(opcode, operand_shapes, shape)
        op_spec.fill_defaults(attrs, ctx)  # required attributes are the converter's to give
        hint = self.name_hint
        name = self.mc.names.instruction(prefix or (hint[0] if hint else opcode.text))
        if hint is not None and "metadata" not in generic:
            generic["metadata"] = hint[1]
        instr = Instruction(
            name, opcode, shape, tuple(operands), FrozenDict(attrs), span=self.mc.span(pos), **generic
        )
        if op_spec.finish is not None:
            instr = op_spec.finish(instr)
        if op_spec.check is not None:
            message = op_spec.check(instr, operand_shapes)
            if message:
                raise self.mc.error(f"{opcode.text}: {message}", pos)
        self.instructions.append(instr)
        self.shapes[name] = shape
        return name

    def tuple_of(self, names: list[str], pos: int) -> str:
        shape = Shape.make_tuple([self.shapes[n] for n in names])
        return self.emit(Opcode.TUPLE, names, shape, None, pos)

    def unpack(self, tup: str, pos: int) -> list[str]:
        shape = self.shapes[tup]
        return [
            self.emit(Opcode.GET_TUPLE_ELEMENT, (tup,), s, {"index": k}, pos)
            for k, s in enumerate(shape.tuple_shapes)
        ]

    def bind(self, op: Op, results: list[str]) -> None:
        for mlir_name, hlo_name in zip(op.results, results):
            self.values[mlir_name] = hlo_name

    def block(self, block: Block) -> tuple[list[str], int]:
        """Convert the ops of a block; the HLO names its terminator returns, and its place."""
        from .ops_table import convert_op

        for op in block.ops:
            if op.name in ("stablehlo.return", "func.return"):
                return [self.value(v, op.pos) for v in op.operands], op.pos
            convert_op(self, op)
        raise self.mc.error("a block without a return (stablehlo.return or func.return)", _block_pos(block))

    def result(self, returned: tuple[list[str], int], pos: int) -> str:
        values, rpos = returned
        if len(values) == 1:
            return values[0]
        return self.tuple_of(values, rpos)

    def finish(self, name: str, root: str, pos: int) -> Computation:
        """The computation, without the pure instructions nothing uses (XLA's conversion drops
        dead code: MLIR's canonicalizer runs first)."""
        live = {root}
        for instr in reversed(self.instructions):
            if instr.name in live or instr.opcode in _KEPT or _has_side_effect(instr):
                live.add(instr.name)
                live.update(instr.operands)
        kept = tuple(i for i in self.instructions if i.name in live)
        return Computation(name, kept, root, span=self.mc.span(pos))

    # -- regions ------------------------------------------------------------------------------
    def region(
        self,
        blocks: list[Block],
        pos: int,
        tuple_param: bool = False,
        captures: list[str] | None = None,
        root: Callable[[ComputationConverter, list[str], int], str] | None = None,
    ) -> str:
        """A region as a new computation. Its block arguments (then `captures`, values of this
        computation it uses) become parameters: one each, or one tuple of all when
        `tuple_param`. `root` makes the root from the returned values (default: a tuple when
        there are several)."""
        if len(blocks) != 1:
            raise self.mc.error("regions with several blocks are not supported", pos)
        block = blocks[0]
        sub = ComputationConverter(self.mc, self.constants)
        names = [a[0] for a in block.args] + list(captures or [])
        shapes = [a[1] for a in block.args] + [self.shapes[self.values[v]] for v in captures or []]
        if tuple_param:
            p = sub.emit(
                Opcode.PARAMETER, (), Shape.make_tuple(shapes), {"parameter_number": 0}, pos, "arg_tuple"
            )
            for name, part in zip(names, sub.unpack(p, pos)):
                sub.values[name] = part
        else:
            for k, (name, shape) in enumerate(zip(names, shapes)):
                default = f"Arg_{k}" if not captures else "Arg_"
                named = self.mc.loc_name(block.arg_locs.get(name), frames=False)
                sub.values[name] = sub.emit(
                    Opcode.PARAMETER,
                    (),
                    shape,
                    {"parameter_number": k},
                    pos,
                    prefix=named[0] if named else default,
                    **({"metadata": named[1]} if named else {}),
                )
        comp_name = self.mc.region_name()
        from .ops_table import convert_op

        for v in free_values(blocks):
            if v in self.constants and v not in sub.values:
                convert_op(sub, self.constants[v])
        returned, rpos = sub.block(block)
        top = root(sub, returned, rpos) if root is not None else sub.result((returned, rpos), rpos)
        self.mc.computations.append(sub.finish(comp_name, top, pos))
        return comp_name


# Kept even when unused: parameters, and ops with effects beyond their result.
_KEPT = frozenset({
    Opcode.PARAMETER, Opcode.INFEED, Opcode.OUTFEED, Opcode.SEND, Opcode.SEND_DONE, Opcode.RECV,
    Opcode.RECV_DONE, Opcode.RNG, Opcode.ALL_REDUCE, Opcode.ALL_GATHER, Opcode.ALL_TO_ALL,
    Opcode.REDUCE_SCATTER, Opcode.COLLECTIVE_PERMUTE, Opcode.COLLECTIVE_BROADCAST,
})  # fmt: skip


def _has_side_effect(instr: Instruction) -> bool:
    return instr.opcode is Opcode.CUSTOM_CALL and bool(instr.attr("custom_call_has_side_effect"))


def _block_pos(block: Block) -> int:
    return block.ops[-1].pos if block.ops else 0


def free_values(blocks: list[Block]) -> list[str]:
    """The values a region uses but does not define (in order of first use)."""
    defined: set[str] = set()
    out: list[str] = []

    def walk(bs: list[Block]) -> None:
        for b in bs:
            defined.update(a[0] for a in b.args)
            for op in b.ops:
                for v in op.operands:
                    if v not in defined and v not in out:
                        out.append(v)
                for r in op.regions:
                    walk(r)
                defined.update(op.results)

    walk(blocks)
    return out
