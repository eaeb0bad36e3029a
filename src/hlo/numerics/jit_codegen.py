"""The compiled loop tier's code generator: a while loop's condition and body (a scan's body is
one) as the source of one Python function that numba compiles (hlo.numerics.jit_numba).

Values are static: an array is a flat, row-major NumPy array of its element type, a scalar a
scalar of that type, a tuple a list known while generating. Each op's emitter
(hlo.numerics.jit_ops, jit_data_ops) writes lines that compute what the interpreter's kernel computes, element
by element, with the same bits. Constants are arguments, not literals, so that no compiler folds
arithmetic the CPU's flush-to-zero mode would have flushed. A computation with an op, a type or a
form the tier does not know gives None (`loop_source`): the loop stays on the interpreter.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from ..shape import Shape
from . import contraction, libm_fold, odd_rational, ynn_fusion

P = PrimitiveType
log = logging.getLogger("hlo.jit")
# The element types the tier computes in: no narrow floats, complex or sub-byte integers.
TYPES = {
    P.PRED: "np.bool_", P.S8: "np.int8", P.S16: "np.int16", P.S32: "np.int32", P.S64: "np.int64",
    P.U8: "np.uint8", P.U16: "np.uint16", P.U32: "np.uint32", P.U64: "np.uint64",
    P.F32: "np.float32", P.F64: "np.float64",
}  # fmt: skip
GENERATOR_VERSION = "4"  # (2: clamp flushes its result; 3: dots of vectors as FMA chains; 4: contracted adds)
FOLDED_ELEMENTS = 1 << 16  # the largest plan-folded value the generated code takes as a constant
XLA_LOOPS = frozenset(
    {"xla_log", "xla_log-plus-one", "xla_exp", "xla_expm1", "xla_logistic", "xla_rsqrt"}
)  # (not odd_rational)


def cache_dir() -> Path:
    """hlo's cache directory: $HLO_CACHE_DIR, else the platform's user cache directory."""
    if os.environ.get("HLO_CACHE_DIR"):
        return Path(os.environ["HLO_CACHE_DIR"])
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "hlo"


class Unsupported(Exception):
    """The computation has something the tier does not compile (never shown to users)."""


@dataclass
class Val:
    """A value while generating: a variable of a static shape, or a tuple of values, or (an
    elementwise op's result its one elementwise user reads) an expression of each element,
    written into that user's loop instead of an array of its own."""

    shape: Shape
    var: str = ""
    items: list[Val] = field(default_factory=list)
    element: Callable[[str], str] | None = None

    @property
    def scalar(self) -> bool:
        return self.shape.is_array and self.shape.rank == 0

    @property
    def size(self) -> int:
        return self.shape.element_count

    def at(self, index: str) -> str:
        """The element at a flat index (a scalar is itself everywhere)."""
        if self.element is not None:
            return self.element(index)
        return self.var if self.scalar else f"{self.var}[{index}]"


def type_name(t: PrimitiveType) -> str:
    if t not in TYPES:
        raise Unsupported(f"element type {t.text}")
    return TYPES[t]


def check_shape(shape: Shape) -> None:
    if shape.is_tuple:
        for s in shape.tuple_shapes:
            check_shape(s)
        return
    if not shape.is_static:
        raise Unsupported("dynamic shape")
    type_name(shape.element_type)


Emitter = Callable[["Gen", Instruction, list[Val]], Val]
EMITTERS: dict[Opcode, Emitter] = {}
# ops whose emitters read their operands only by Val.at inside one Gen.elementwise: a chain of
# them shares one loop (each value used once), as XLA's loop fusion runs it
ELEMENTWISE: set[Opcode] = set()


def emits(*opcodes: Opcode, elementwise: bool = False) -> Callable[[Emitter], Emitter]:
    """Register the emitter of some opcodes (hlo.numerics.jit_ops, jit_data_ops); `elementwise`:
    it reads its operands only element by element in one Gen.elementwise (ELEMENTWISE)."""

    def register(fn: Emitter) -> Emitter:
        for op in opcodes:
            EMITTERS[op] = fn
            if elementwise:
                ELEMENTWISE.add(op)
        return fn

    return register


def emitter_for(opcode: Opcode) -> Emitter | None:
    """The emitter of an opcode, or None: every emitter module registered first (they import
    this module, so they are imported here, when code is generated)."""
    from . import jit_data_ops, jit_linear, jit_ops  # noqa: F401

    return EMITTERS.get(opcode)


class Gen:
    """The lines of the function being written, its names, its constants (arguments `k<n>`)
    and the NumPy loops it calls (rows of the argument `fp`)."""

    def __init__(self, module: Module, flush: bool, folded: Mapping[str, Any] | None = None) -> None:
        self.module, self.flush = module, flush
        # values the plan computed at plan time, as XLA's folders compute them: taken as they are
        self.folded = folded or {}
        # values computed from constants alone: XLA folds reductions of them in its evaluator's
        # order (hlo.numerics.evaluator_fold), which the emitters do not follow
        self.from_constants: set[str] = set()
        self.lines: list[str] = []
        self.indent = 1
        self.count = 0
        self.constants: list[np.ndarray] = []
        self.ufuncs: list[tuple[str, str]] = []  # (NumPy ufunc name, dtype name)
        self.functions: dict[str, str] = {}  # called computation -> its generated function
        self.extra: list[list[str]] = []  # the sources of those functions
        self.result_rank = -1  # the rank of the instruction being emitted
        # a loop's state leaves its body hands on unchanged (their variables), and what is
        # computed from them alone once before the loop (by key: each once)
        self.invariant: set[str] = set()
        # whether the instruction being emitted may leave its elementwise result unwritten
        # (Val.element): its one user is elementwise too, so the two share one loop
        self.defer = False
        self.prologue: list[str] = []
        self.hoisted: dict[tuple[Any, ...], str] = {}

    def before_loop(self, key: tuple[Any, ...], emit: Callable[[], str]) -> str:
        """The variable of a value `emit` writes from invariant state leaves alone, written
        once before the loop instead of in every iteration (a dot's flushed copy of a weight
        matrix, which an RNN's scan would otherwise make each step)."""
        if key not in self.hoisted:
            saved, indent = self.lines, self.indent
            self.lines, self.indent = self.prologue, 1
            try:
                self.hoisted[key] = emit()
            finally:
                self.lines, self.indent = saved, indent
        return self.hoisted[key]

    def name(self, prefix: str = "v") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def constant(self, value: np.ndarray) -> str:
        self.constants.append(value)
        return f"k{len(self.constants) - 1}"

    def ufunc(self, name: str, t: PrimitiveType) -> int:
        """The row of `fp` that holds NumPy's own loop of ufunc `name` for type t."""
        key = (name, np.dtype(t.numpy_dtype).name)
        if name.startswith("xla_") and name not in XLA_LOOPS and odd_rational.named(*key) is None:
            raise Unsupported(f"{name[4:]} of {t.text}")  # (f64 erf: the C library's)
        if key not in self.ufuncs:
            self.ufuncs.append(key)
        return self.ufuncs.index(key)

    def new_array(self, shape: Shape) -> str:
        var = self.name()
        self.line(f"{var} = np.empty({shape.element_count}, {type_name(shape.element_type)})")
        return var

    def elementwise(self, shape: Shape, args: list[Val], expr: Callable[..., str]) -> Val:
        """A result computed element by element from the operands' elements (scalar operands
        are broadcast); `expr` gets the operands' element expressions. Each op's value is
        rounded to its type (`t(...)`), in one loop with its users' or not: the same bits."""
        t = type_name(shape.element_type)
        if shape.rank == 0:
            var = self.name()
            self.line(f"{var} = {t}({expr(*(a.var for a in args))})")
            return Val(shape, var)
        rank = self.result_rank

        def element(index: str) -> str:
            saved, self.result_rank = self.result_rank, rank  # (the expression as this op's)
            try:
                return f"{t}({expr(*(a.at(index) for a in args))})"
            finally:
                self.result_rank = saved

        if self.defer:
            self.defer = False
            return Val(shape, element=element)
        return self.written(Val(shape, element=element))

    def written(self, value: Val) -> Val:
        """`value` as an array variable (an element expression written out in a loop)."""
        if value.element is None:
            return value
        var = self.new_array(value.shape)
        index = self.name("i")
        self.line(f"for {index} in range({value.shape.element_count}):")
        self.line(f"    {var}[{index}] = {value.element(index)}")
        return Val(value.shape, var)

    def loops(self, dims: tuple[int, ...]) -> tuple[list[str], str]:
        """Open nested loops over `dims` (row-major); the indices and the flat index."""
        names = []
        for d in dims:
            i = self.name("i")
            self.line(f"for {i} in range({d}):")
            self.indent += 1
            names.append(i)
        return names, flat_index(names, dims)

    def close(self, count: int) -> None:
        self.indent -= count

    def computation(self, comp: Computation, params: list[Val]) -> Val:
        """Emit every live instruction of a computation inline; its root's value."""
        comp = contraction.contracted(comp, self.module)  # the adds XLA:CPU fuses with a multiply
        values: dict[str, Val] = {}
        live = live_instructions(comp)
        users: dict[str, list[Opcode]] = {}
        for instr in live:
            for o in instr.operands:
                users.setdefault(o, []).append(instr.opcode)
        for instr in live:
            check_shape(instr.shape)
            if instr.opcode is Opcode.PARAMETER:
                values[instr.name] = params[instr.attrs.get("parameter_number", 0)]
                continue
            args = [values[o] for o in instr.operands]
            if instr.opcode not in ELEMENTWISE:
                args = [self.written(a) for a in args]
            found = users.get(instr.name, [])
            offer = (
                instr.opcode in ELEMENTWISE
                and instr.name != comp.root_name
                and len(found) == 1
                and found[0] in ELEMENTWISE
            )
            self.defer = offer
            try:
                value = self.emit(instr, args)
            finally:
                self.defer = False
            # (an emitter may hand on a deferred operand, a convert to the same type does)
            values[instr.name] = value if offer else self.written(value)
        return values[comp.root_name]

    def emit(self, instr: Instruction, args: list[Val]) -> Val:
        """One instruction by its op's emitter (Unsupported if it has none)."""
        if instr.attrs and instr.attrs.get(ynn_fusion.MARK):
            raise Unsupported("YNNPACK's own exp, log, ... (the interpreter's)")
        if instr.opcode in (Opcode.CONSTANT, Opcode.IOTA) or (
            instr.operands and all(o in self.from_constants for o in instr.operands)
        ):
            self.from_constants.add(instr.name)  # a value of constants only
            value = self.folded.get(instr.name)
            if value is not None and instr.shape.is_array and np.size(value) <= FOLDED_ELEMENTS:
                return self.folded_value(instr, np.asarray(value))
            if instr.opcode in libm_fold.OPCODES and instr.operands:
                # XLA folds it with the C math library, as the interpreter's plan does
                raise Unsupported(f"{instr.opcode.text} of constants")
        emitter = emitter_for(instr.opcode)
        if emitter is None:
            raise Unsupported(instr.opcode.text)
        self.result_rank = instr.shape.rank if instr.shape.is_array else -1
        return emitter(self, instr, args)

    def folded_value(self, instr: Instruction, value: np.ndarray) -> Val:
        """A value the plan folded, as a constant argument (in an array: a scalar argument would
        pass through a double)."""
        self.result_rank = instr.shape.rank
        if instr.shape.rank == 0:
            return Val(instr.shape, self.constant(np.array(value).reshape(1)) + "[0]")
        return Val(instr.shape, self.constant(np.array(value).reshape(-1)))  # (a C copy)

    def scalar_function(self, name: str) -> str:
        """A called computation of scalars (a reducer) as a function of its own."""
        if name in self.functions:
            return self.functions[name]
        comp = self.module.computation(name)
        fn = f"f_{len(self.functions)}"
        self.functions[name] = fn
        saved, indent = self.lines, self.indent
        self.lines, self.indent = [], 1
        params = []
        for p in comp.parameters:
            if not (p.shape.is_array and p.shape.rank == 0):
                raise Unsupported("a non-scalar parameter of a called computation")
            params.append(Val(p.shape, self.name("p")))
        root = self.computation(comp, params)
        if root.items or not root.scalar:
            raise Unsupported("a called computation that does not return a scalar")
        body = [
            "@_jit",
            f"def {fn}({', '.join(p.var for p in params)}):",
            *self.lines,
            f"    return {root.var}",
        ]
        self.extra.append(body)
        self.lines, self.indent = saved, indent
        return fn


def flat_index(names: list[str], dims: tuple[int, ...]) -> str:
    """The row-major flat index of indices `names` into an array of `dims`."""
    terms = []
    stride = 1
    for i, d in reversed(list(zip(names, dims))):
        terms.append(i if stride == 1 else f"{i} * {stride}")
        stride *= d
    return " + ".join(reversed(terms)) or "0"


def live_instructions(comp: Computation) -> list[Instruction]:
    """The instructions the root depends on, in order (the interpreter leaves out the rest)."""
    live = {comp.root_name}
    for instr in reversed(comp.instructions):
        if instr.name in live:
            live.update(instr.operands)
    return [i for i in comp.instructions if i.name in live]
