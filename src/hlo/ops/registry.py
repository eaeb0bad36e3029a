"""The op registry: for every opcode, its attribute schema (each attribute declared by its kind),
its operand-count rule, its parse-time checks, its shape rule and its kernel. The parser, printer,
verifier, builder and engine know no op by name; they ask here. Each op family's module
(`hlo.ops.<family>`) registers its ops with `define` and the decorators."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..dtypes import PrimitiveType
from ..ir.attr_kinds import AttrKind
from ..ir.frozen import FrozenDict
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape

_NO_DEFAULT: Any = object()


@dataclass(frozen=True)
class OpContext:
    """What an attribute's default, required or printed rule may look at."""

    opcode: Opcode
    operand_shapes: tuple[Shape, ...]
    shape: Shape | None = None


Rule = Callable[[OpContext], Any]


@dataclass(frozen=True)
class ShapeContext:
    """What a shape rule sees: the op, its operands' shapes and attributes, and the program shape
    (parameter shapes, result shape) of any computation it calls.

    `shape` is the result shape the instruction states, when there is one (the verifier, and the
    builder for ops whose new dimensions live only in the result: reshape, broadcast, iota,
    bitcast); rules of those ops check it, other rules ignore it. `preferred_element_type` is
    the result type asked for by ops that accumulate in a type of their own (dot, convolution:
    XlaBuilder's `preferred_element_type`); HLO text has no attribute for it, so the verifier
    passes the written result's element type, as XLA's verifier does."""

    opcode: Opcode
    operands: tuple[Shape, ...]
    attrs: Mapping[str, Any]
    program_shape: Callable[[str], tuple[tuple[Shape, ...], Shape]]
    preferred_element_type: PrimitiveType | None = None
    shape: Shape | None = None

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)


@dataclass(frozen=True)
class AttrSpec:
    """One attribute of an op, as it appears in text (`name=value`).

    `required` may depend on the operands (broadcast's dimensions); `default` (a value or a rule
    of the context) is stored when the text leaves the attribute out; `printed` decides whether
    the printer writes it (XLA leaves out default values), by default when it is not None."""

    name: str
    kind: AttrKind
    required: bool | Callable[[OpContext], bool] = False
    default: Any = _NO_DEFAULT
    printed: Callable[[Any, OpContext], bool] | None = None

    def is_required(self, ctx: OpContext) -> bool:
        return self.required(ctx) if callable(self.required) else self.required

    def default_value(self, ctx: OpContext) -> Any:
        if self.default is _NO_DEFAULT:
            return None
        return self.default(ctx) if callable(self.default) else self.default

    def should_print(self, value: Any, ctx: OpContext) -> bool:
        if value is None:
            return False
        return self.printed(value, ctx) if self.printed is not None else True


def unless(default: Any) -> Callable[[Any, OpContext], bool]:
    """A `printed` rule: print unless the value equals `default`."""
    return lambda value, ctx: value != default


def if_true(value: Any, ctx: OpContext) -> bool:
    return bool(value)


def if_nonempty(value: Any, ctx: OpContext) -> bool:
    return len(value) > 0


@dataclass
class OpSpec:
    opcode: Opcode
    attrs: tuple[AttrSpec, ...] = ()
    # Checked after parsing an instruction of this op: raises an error message (str) or None.
    check: Callable[[Instruction, tuple[Shape, ...]], str | None] | None = None
    shape_rule: Callable[..., Shape] | None = None
    kernel: Callable[..., Any] | None = None
    accepts_result_accuracy: bool = False
    # One of the unary or binary elementwise ops (a called computation made only of these and
    # a few others runs lifted to whole arrays).
    elementwise: bool = False
    # Applied to each parsed instruction of this op (normalizations XLA makes when it builds one).
    finish: Callable[[Instruction], Instruction] | None = None
    # The order of called computations when it differs from the attribute order (while: body
    # first, as XLA's called_computations()).
    callee_order: tuple[str, ...] = ()
    # Operand count: the opcode table's arity unless an op says otherwise (None: any number).
    arity: int | None = -1
    by_name: dict[str, AttrSpec] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_name = {a.name: a for a in self.attrs}
        if self.arity == -1:
            self.arity = self.opcode.arity

    def fill_defaults(self, attrs: dict[str, Any], ctx: OpContext) -> list[AttrSpec]:
        """Store in `attrs` the default of each attribute it lacks; returns the required
        attributes it lacked (some now filled by their default), for the caller to report in
        its own terms."""
        missing = []
        for a in self.attrs:
            if a.name not in attrs:
                if a.is_required(ctx):
                    missing.append(a)
                default = a.default_value(ctx)
                if default is not None:
                    attrs[a.name] = default
        return missing


REGISTRY: dict[Opcode, OpSpec] = {}


class _Builders(dict[str, Callable[..., Any]]):
    """The XlaBuilder API of hlo.ops, by spec name. Families are imported as their opcodes are
    first used: a builder function that calls another family's (`BUILDERS["Reshape"]`) finds
    it loaded on demand."""

    def __missing__(self, name: str) -> Callable[..., Any]:
        if _loaded:
            raise KeyError(name)
        _load()
        return self[name]


BUILDERS: dict[str, Callable[..., Any]] = _Builders()


def define(
    opcode: Opcode,
    *attrs: AttrSpec,
    check: Callable[[Instruction, tuple[Shape, ...]], str | None] | None = None,
    arity: int | None = -1,
    callee_order: tuple[str, ...] = (),
) -> OpSpec:
    """Register an op's attribute schema (in XLA's printing order)."""
    if opcode in REGISTRY:
        raise ValueError(f"{opcode.text} is defined twice")
    spec = OpSpec(opcode, attrs, check, arity=arity, callee_order=callee_order)
    REGISTRY[opcode] = spec
    return spec


def shape_rule(*opcodes: Opcode) -> Callable[[Callable[..., Shape]], Callable[..., Shape]]:
    """Decorator: the function computes the result shape of these ops."""

    def register(fn: Callable[..., Shape]) -> Callable[..., Shape]:
        for op in opcodes:
            REGISTRY[op].shape_rule = fn
        return fn

    return register


def kernel(*opcodes: Opcode) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the function runs these ops on NumPy values."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        for op in opcodes:
            REGISTRY[op].kernel = fn
        return fn

    return register


F = TypeVar("F", bound=Callable[..., Any])


def builder_function(fn: F) -> F:
    """Decorator: an XlaBuilder API function, exported from `hlo.ops` under its own name (the
    name page 003 of the spec uses: Add, BroadcastInDim, Reduce, ...)."""
    if fn.__name__ in BUILDERS:
        raise ValueError(f"builder function {fn.__name__} is defined twice")
    BUILDERS[fn.__name__] = fn
    return fn


def spec(opcode: Opcode) -> OpSpec:
    if opcode not in _ready:
        _load_for(opcode)
    return REGISTRY[opcode]


def called_computation_names(instr: Instruction) -> tuple[str, ...]:
    """Computations an instruction calls, in attribute order."""
    op = spec(instr.opcode)
    attrs = op.callee_order or tuple(a.name for a in op.attrs if a.kind.calls_computations)
    names: list[str] = []
    for name in attrs:
        if name in instr.attrs:
            value = instr.attrs[name]
            names.extend(value if isinstance(value, tuple) else (value,))
    return tuple(names)


def rename_references(i: Instruction, names: dict[str, str], comps: dict[str, str]) -> Instruction:
    """`i` with instruction names and computation names replaced (both maps hold changes only)."""
    changes: dict[str, Any] = {}
    if names:
        if i.name in names:
            changes["name"] = names[i.name]
        if any(o in names for o in i.operands):
            changes["operands"] = tuple(names.get(o, o) for o in i.operands)
        if any(o in names for o in i.control_predecessors):
            changes["control_predecessors"] = tuple(names.get(o, o) for o in i.control_predecessors)
    if comps:
        callees = [a.name for a in spec(i.opcode).attrs if a.kind.calls_computations and a.name in i.attrs]
        if callees:
            attrs = dict(i.attrs)
            for key in callees:
                value = attrs[key]
                attrs[key] = (
                    tuple(comps.get(v, v) for v in value)
                    if isinstance(value, tuple)
                    else comps.get(value, value)
                )
            changes["attrs"] = FrozenDict(attrs)
    return i.replace(**changes) if changes else i


def _install() -> None:
    from ..ir.services import Services

    Services.called_computation_names = called_computation_names


_install()
_loaded = False
_ready: set[Opcode] = set()  # opcodes whose entry is complete (every module writing it imported)


def _load() -> None:
    """Import every op family so the registry is complete."""
    global _loaded
    if not _loaded:
        _loaded = True
        from . import families  # noqa: F401

        _ready.update(REGISTRY)


load_all = _load


def _load_for(opcode: Opcode) -> None:
    """Import the families that write this opcode's entry (ops/family_index.py): a module's
    first parse and plan load the families it uses, not all of them (their import is most of
    a small module's first result)."""
    from .family_index import MODULES

    modules = MODULES.get(opcode.text)
    if modules is None:  # (not in the index: every family, as before)
        _load()
    else:
        for name in modules:
            importlib.import_module(f"{__package__}.{name}")
    _ready.add(opcode)
