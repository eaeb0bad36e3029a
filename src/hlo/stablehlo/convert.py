"""StableHLO syntax tree -> hlo's IR, as XLA's own StableHLO -> HLO conversion builds it.

The public `main` function is the entry computation (`main.N`), its arguments parameters
`Arg_i.N`; other functions become computations called by `call`; each region becomes a computation
`region_k.N`. Instructions are named after their opcode (`add.N`, `broadcast.N`), shapes carry
XLA's default layouts, ops with several results produce a tuple read by get-tuple-element, and
the entry returns a tuple when main has several results. This module converts the module and its
functions; `computation_converter.py` builds each computation's instructions and regions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Span
from ..ir.computation import Computation
from ..ir.frozen import FrozenDict
from ..ir.metadata import OpMetadata
from ..ir.module import ComputationLayout, Module, ModuleConfig
from ..ir.opcode import Opcode
from .attrs import scalar
from .computation_converter import ComputationConverter
from .cursor import Cursor, StableHloError
from .shardy import func_sharding, mesh_attributes, sharded_root
from .syntax import Func, MlirModule


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


def convert_module(mlir: MlirModule, cursor: Cursor) -> Module:
    return ModuleConverter(mlir, cursor).convert()
