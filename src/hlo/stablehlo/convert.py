"""StableHLO syntax tree -> hlo's IR, as XLA's own StableHLO -> HLO conversion builds it.

The public `main` function is the entry computation (`main.N`), its arguments parameters
`Arg_i.N`; other functions become computations called by `call`; each region becomes a computation
`region_k.N`. Instructions are named after their opcode (`add.N`, `broadcast.N`), shapes carry
XLA's default layouts, ops with several results produce a tuple read by get-tuple-element, and
the entry returns a tuple when main has several results. Values that the regions of if, case and
while use from outside (implicit captures) are passed in, as XLA passes them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import HloError, Span
from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.metadata import OpMetadata
from ..ir.module import ComputationLayout, Module, ModuleConfig
from ..ir.opcode import Opcode
from ..ops.registry import OpContext, spec
from ..shape import Shape
from .attrs import scalar
from .cursor import Cursor, StableHloError
from .shardy import func_sharding, mesh_attributes, sharded_root
from .syntax import Block, Func, MlirModule, Op


@dataclass
class Names:
    """Module-wide `prefix.N` names (N counts per prefix from 1), and computation names
    numbered in creation order."""

    counts: dict[str, int] = field(default_factory=dict)
    computations: int = 0

    def instruction(self, prefix: str) -> str:
        n = self.counts.get(prefix, 0) + 1
        self.counts[prefix] = n
        return f"{prefix}.{n}"

    def computation(self, prefix: str) -> str:
        self.computations += 1
        return f"{prefix}.{self.computations}"


class ModuleConverter:
    def __init__(self, mlir: MlirModule, cursor: Cursor) -> None:
        self.mlir = mlir
        self.c = cursor
        self.names = Names()
        self.regions = 0
        self.computations: list[Computation] = []
        self.funcs = {f.name: f for f in mlir.funcs}
        self.func_computations: dict[str, str] = {}
        self.converting: set[str] = set()
        from .frames import FrameIndex

        self.frames = FrameIndex(mlir.aliases)

    def span(self, pos: int) -> Span:
        return self.c.span(pos)

    def error(self, message: str, pos: int) -> StableHloError:
        return StableHloError(message, self.span(pos))

    def convert(self) -> Module:
        main = self.funcs.get("main")
        if main is None:
            public = [f for f in self.mlir.funcs if f.public]
            if len(public) != 1:
                raise self.error("the module has no public function @main to run", self.mlir.pos)
            main = public[0]
        self.frames.prepare_module(main, self.funcs)
        entry = self.function(main, entry=True)
        comps = tuple(self.computations)
        ent = next(c for c in comps if c.name == entry)
        layout = ComputationLayout(ent.parameter_shapes, ent.result_shape)
        attrs = self.mlir.attrs
        replicas, partitions = self.count("mhlo.num_replicas"), self.count("mhlo.num_partitions")
        config = ModuleConfig(
            replica_count=replicas,
            num_partitions=partitions,
            use_spmd_partitioning=bool(attrs.get("mhlo.use_spmd_partitioning", False)) or partitions > 1,
            entry_computation_layout=layout,
        )
        frontend = dict(attrs.get("mhlo.frontend_attributes") or {})
        frontend.update(mesh_attributes(attrs))
        return Module(
            _module_name(self.mlir.name),
            comps,
            entry,
            config,
            frontend_attributes=FrozenDict({k: str(v) for k, v in frontend.items()}),
            span=self.span(self.mlir.pos),
            stack_frames=self.frames.index(),
        )

    def count(self, key: str) -> int:
        """A positive integer module attribute (`mhlo.num_replicas = 2 : i32`), 1 when absent."""
        value = scalar(self.mlir.attrs.get(key, 1))
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self.error(f"module attribute {key} must be a positive integer", self.mlir.pos)
        return value

    def function(self, func: Func, entry: bool = False) -> str:
        """The computation of `func` (converted once), by name."""
        if func.name in self.func_computations:
            return self.func_computations[func.name]
        if func.name in self.converting:
            raise self.error(f"@{func.name} calls itself: HLO has no recursion", func.pos)
        self.converting.add(func.name)
        comp = ComputationConverter(self)
        for k, ((value, shape), attrs) in enumerate(zip(func.args, func.arg_attrs)):
            generic = func_sharding(attrs, self, func.pos)
            named = self.loc_name(func.body.arg_locs.get(value), frames=False)
            if named is not None:
                generic["metadata"] = named[1]
            prefix = named[0] if named else f"Arg_{k}"
            comp.values[value] = comp.emit(
                Opcode.PARAMETER, (), shape, {"parameter_number": k}, func.pos, prefix=prefix, **generic
            )
        returned = comp.block(func.body)
        root = comp.result(returned, func.pos)
        if entry:
            root = sharded_root(comp, func, root)
        name = self.names.computation("main" if entry else func.name)
        self.computations.append(comp.finish(name, root, func.pos))
        self.func_computations[func.name] = name
        self.converting.discard(func.name)
        return name

    def loc_name(self, loc: Any, frames: bool = True) -> tuple[str, OpMetadata] | None:
        """The instruction name and metadata (op_name, stack frame) an op's location gives (None
        without a name). Parameters get no stack frame, as in XLA's conversion."""
        from .locations import loc_names

        names = loc_names(loc, self.mlir.aliases)
        if names is None:
            return None
        frame = self.frames.frame(loc) if frames else 0
        return names[0], OpMetadata(op_name=names[1], stack_frame_id=frame)

    def region_name(self) -> str:
        k = self.regions
        self.regions += 1
        return self.names.computation(f"region_{k}")


def _module_name(name: str | None) -> str:
    return name if name else "main"


def sharding_of(attrs: dict[str, Any], mc: ModuleConverter, pos: int) -> dict[str, Any]:
    """`mhlo.sharding = "{devices=...}"` as an HLO sharding; `sdy.*` attributes are kept as
    frontend attributes (data only)."""
    out: dict[str, Any] = {}
    text = attrs.get("mhlo.sharding")
    if isinstance(text, str):
        from ..text.sharding_codec import parse_sharding_string

        try:
            out["sharding"] = parse_sharding_string(text)
        except HloError as e:
            raise mc.error(f"malformed mhlo.sharding {text!r}: {e.message}", pos) from None
    extra = {k: _attr_text(v) for k, v in attrs.items() if k.startswith("sdy.")}
    fa = attrs.get("mhlo.frontend_attributes")
    if isinstance(fa, dict):
        extra.update({k: str(v) for k, v in fa.items()})
    if extra:
        out["frontend_attributes"] = FrozenDict(extra)
    return out


def _attr_text(value: Any) -> str:
    return getattr(value, "text", str(value))


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


def convert_module(mlir: MlirModule, cursor: Cursor) -> Module:
    return ModuleConverter(mlir, cursor).convert()
