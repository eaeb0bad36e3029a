"""Which f32/f64 adds and subtracts XLA:CPU computes as one fused multiply-add (FMA).

XLA:CPU's generated code allows LLVM to contract a multiply into the add or subtract that is its
only use in the same basic block: `x*y + z` is `fma(x, y, z)`, one rounding (measured with
jaxlib 0.10.2 on every shape, 1-D and n-D, scalars and loop bodies alike). hlo computes the same
where the pair is plain: the multiply is an operand of the add (through negates and copies, which
XLA removes or folds into the FMA), the multiply and the links of the chain have no other user,
and the multiply is not the same all along the kernel's innermost loop (a product of broadcasts
LLVM hoists out of the loop, away from the add). Where both operands qualify, LLVM's Reassociate
pass first puts the operand of lower rank first (loads rank in the order XLA's fused kernel
emits them, every op one more than its highest operand, a negate the same; values hoisted out
of the loop lowest), and its instruction combiner turns an add of a negated product into a
subtract; code generation then fuses the first multiply of an add, the subtracted-from one of a
subtract.

"No other user" is per kernel (cpu_kernels: XLA copies a cheap multiply into each consumer's
kernel and each copy is contracted, unless two consumers share a kernel). Not modelled (plain in
hlo, equal within rounding): a reshape, transpose or broadcast between the multiply and the add
(LLVM's loop structure decides), and kernels that XLA's
algebraic simplifier reshapes beyond what cpu_kernels.as_fused removes.

The plan computes a contracted add from the multiply's operands (`contracted` rewrites its
operands to (x, y, z), `Fma` marks it); bf16/f16 arithmetic rounds each op, so never contracts.
Products fused into a small reduce's loop are rewritten alike (hlo.numerics.reduce_contraction).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import Module
from ..ir.opcode import Opcode
from . import (
    call_inline,
    contraction_order,
    cpu_kernels,
    reduce_contraction,
    simplifier_rewrites,
    subnormals,
    ynn_fusion,
)
from .complex_steps import Steps, negated

MARK = "fused_multiply_add"  # the attribute of a contracted add: its Fma
TYPES = frozenset({PrimitiveType.F32, PrimitiveType.F64})
_VECTOR_OPS = frozenset(
    {Opcode.ADD, Opcode.SUBTRACT, Opcode.MULTIPLY, Opcode.DIVIDE, Opcode.MAXIMUM, Opcode.MINIMUM,
     Opcode.POWER, Opcode.EXP, Opcode.LOG, Opcode.TANH, Opcode.NEGATE}
)  # fmt: skip


@dataclass(frozen=True)
class Fma:
    """A contracted add's value: fma(product_sign * x, y, addend_sign * z), its operands (x, y, z)."""

    product_sign: int
    addend_sign: int


def mark(instr: Instruction) -> Fma | None:
    """The Fma of a contracted add (of a computation `contracted` rewrote), else None."""
    value = instr.attrs.get(MARK) if instr.attrs else None
    return value if isinstance(value, Fma) else None


def fused_product(module: Module, name: str) -> frozenset[str]:
    """The multiply (and the negates or copies between) that the entry's add `name` is fused
    with, else nothing: what a module computing the add alone must keep to compute it so."""
    comp = module.entry
    if name not in comp.by_name:
        return frozenset()
    add = contracted(comp, module).by_name[name]
    if mark(add) is None and reduce_contraction.mark(add) is None:
        return frozenset()
    for operand in comp.by_name[name].operands:
        chain, value = [], comp.by_name[operand]
        while value.opcode in contraction_order.LINKS:
            chain.append(value.name)
            value = comp.by_name[value.operands[0]]
        if value.opcode is Opcode.MULTIPLY and tuple(value.operands) == tuple(add.operands[:2]):
            return frozenset([*chain, value.name])
    return frozenset()


def kernel(fma: Fma, add: Instruction, flush: bool) -> Callable[..., np.ndarray]:
    """The bound kernel of a contracted add: (x, y, z) to its result, one rounding, flushed as
    the CPU's FTZ/DAZ modes flush an FMA's operands and result when `flush`."""
    dtype = np.dtype(add.shape.element_type.numpy_dtype)
    step = Steps(flush)

    def run(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
        with subnormals.keeping_subnormals():
            x, y, z = step(x), step(y), step(z)
            x = negated(x) if fma.product_sign < 0 else x
            z = negated(z) if fma.addend_sign < 0 else z
            return np.asarray(step.fma(x, y, z), dtype)

    return run


def contracted(comp: Computation, module: Module) -> Computation:
    """The computation with each add or subtract XLA:CPU fuses with a multiply reading the
    multiply's operands (x, y, z) and marked with its Fma; `comp` itself when there is none.

    The decision is per kernel (cpu_kernels): where XLA:CPU copies a value into kernels that
    compute it differently (a product fused into its add in one, plain in another), each
    different copy is an instruction of its own, placed beside the original and named after it.
    """
    comp = call_inline.inlined(comp, module)  # XLA inlines calls, then simplifies: both first
    comp = simplifier_rewrites.rewritten(comp)
    written = comp
    comp, removed = cpu_kernels.as_fused(comp)
    whole = _emitted_whole(comp, module)
    groups = cpu_kernels.one_kernel(comp) if whole else cpu_kernels.kernels(comp)
    ynn = frozenset() if whole else ynn_fusion.marked(comp, module)  # YNNPACK's own exp, ...
    position = {i.name: k for k, i in enumerate(comp.instructions)}
    members: dict[str, list[Instruction]] = {}
    for i in comp.instructions:
        for root in groups.roots_of(i.name):
            members.setdefault(root, []).append(i)
    readers: dict[str, list[Instruction]] = {}
    for i in comp.instructions:
        for o in i.operands:
            readers.setdefault(o, []).append(i)
    by_name = comp.by_name
    constant: dict[str, bool] = {}
    copy_in: dict[tuple[str, str], str] = {}  # (kernel, instruction) -> the copy it computes
    made: dict[tuple[object, ...], str] = {}
    copies: dict[str, list[Instruction]] = {}
    changed = False
    for root in sorted(members, key=position.__getitem__):
        inside = members[root]
        names = {i.name for i in inside}
        uses: dict[str, int] = {}
        for i in inside:
            for o in i.operands:
                uses[o] = uses.get(o, 0) + 1
        kernel = contraction_order.Kernel(root, names, uses)
        for i in inside:
            fused = _contraction(i, by_name, kernel, constant)
            if fused is not None and _in_vector_kernel(i, comp, module, readers):
                fused = None  # YNNPACK's fusion computes it: no FMA there
            if i.opcode is Opcode.REDUCE:  # products fused into its loop
                fused = reduce_contraction.contraction(i, by_name, kernel, module, constant)
            value = fused or (i.with_attr(ynn_fusion.MARK, True) if i.name in ynn else i)
            operands = tuple(copy_in.get((root, o), o) for o in value.operands)
            key = (i.name, operands, mark(value), reduce_contraction.mark(value), i.name in ynn)
            name = made.get(key)
            if name is None:
                name = (
                    i.name if i.name not in copies else _fresh(i.name, len(copies[i.name]), written.by_name)
                )
                made[key] = name
                copies.setdefault(i.name, []).append(value.replace(name=name, operands=operands))
                changed |= value is not i or operands != i.operands
            copy_in[(root, i.name)] = name
    if not changed:
        return written
    # (what CSE or the simplifier removed stays, unread, for op-by-op values)
    instructions = tuple(
        c for i in written.instructions for c in ((i,) if i.name in removed else copies.get(i.name, (i,)))
    )
    return written.replace(instructions=instructions, root_name=comp.root_name)


def _fresh(name: str, k: int, taken: dict[str, Instruction]) -> str:
    while f"{name}.fma{k}" in taken:
        k += 1
    return f"{name}.fma{k}"


_WHOLE_CACHE: dict[int, tuple[Module, frozenset[str]]] = {}
_KERNELS_OF_THEIR_OWN = frozenset({Opcode.WHILE, Opcode.CONDITIONAL, Opcode.CALL, Opcode.ASYNC_START})


def _emitted_whole(comp: Computation, module: Module) -> bool:
    """Whether the computation is emitted into its caller's kernel (a fusion's, a reducer, a
    comparator) rather than cut into kernels of its own (the entry, loop bodies, branches)."""
    cached = _WHOLE_CACHE.get(id(module))
    if cached is None or cached[0] is not module:
        own = {module.entry_name}
        for c in module.computations:
            for i in c.instructions:
                if i.opcode in _KERNELS_OF_THEIR_OWN:
                    own.update(i.called_computations)
        if len(_WHOLE_CACHE) > 8:
            _WHOLE_CACHE.clear()
        cached = _WHOLE_CACHE[id(module)] = (module, frozenset(own))
    return comp.name not in cached[1]


def _in_vector_kernel(
    add: Instruction, comp: Computation, module: Module, readers: dict[str, list[Instruction]]
) -> bool:
    """Whether XLA:CPU's YNNPACK fusion takes the add: it starts at a sum, max or min reduce of
    f32/f64 that YNNPACK takes (4096+ elements) and takes in the ops of such sizes all of whose
    users it holds (here: a chain of single users from the add to the reduce)."""
    value = add
    while True:
        if value.name == comp.root_name or len(readers.get(value.name, ())) != 1:
            return False
        user = readers[value.name][0]
        if user.opcode is Opcode.REDUCE:
            return _vector_reduce(user, comp, module)
        if user.opcode not in _VECTOR_OPS or user.shape.element_type not in TYPES:
            return False
        sizes = [user.shape.element_count, *(comp.by_name[o].shape.element_count for o in user.operands)]
        if max(sizes) < cpu_kernels.VECTOR_ELEMENTS:
            return False
        value = user


def _vector_reduce(reduce: Instruction, comp: Computation, module: Module) -> bool:
    if len(reduce.operands) != 2 or reduce.shape.is_tuple or reduce.shape.element_type not in TYPES:
        return False
    operand = comp.by_name[reduce.operands[0]]
    if max(operand.shape.element_count, reduce.shape.element_count) < cpu_kernels.VECTOR_ELEMENTS:
        return False
    reducer = module.computation(reduce.attrs["to_apply"])
    root = reducer.root
    return root.opcode in (Opcode.ADD, Opcode.MAXIMUM, Opcode.MINIMUM) and all(
        reducer.by_name[o].opcode is Opcode.PARAMETER for o in root.operands
    )


def _contraction(
    add: Instruction,
    by_name: dict[str, Instruction],
    kernel: contraction_order.Kernel,
    constant: dict[str, bool],
) -> Instruction | None:
    if add.opcode not in (Opcode.ADD, Opcode.SUBTRACT) or not add.shape.is_array:
        return None
    if add.shape.element_type not in TYPES or len(add.operands) != 2:
        return None
    products = [_product(k, add, by_name, kernel) for k in range(2)]
    found = [p for p in products if p is not None]
    if not found:
        return None
    chosen = (
        found[0]
        if len(found) == 1
        else contraction_order.first_fused(add, found[0], found[1], by_name, kernel, constant)
    )
    other = by_name[add.operands[1 - chosen.position]]
    x, y = (by_name[o] for o in chosen.multiply.operands)
    if (
        x.shape.element_type is not add.shape.element_type
        or y.shape.element_type is not add.shape.element_type
    ):
        return None
    if all(contraction_order.of_constants(v.name, by_name, constant) for v in (x, y, other)):
        return None  # folded at compile time, unfused
    product_sign = -1 if chosen.negated else 1
    addend_sign = 1
    if add.opcode is Opcode.SUBTRACT:
        if chosen.position == 0:
            addend_sign = -1
        else:
            product_sign = -product_sign
    attrs = dict(add.attrs or {})
    attrs[MARK] = Fma(product_sign, addend_sign)
    return add.replace(operands=(x.name, y.name, other.name), attrs=attrs)


def _product(
    position: int, add: Instruction, by_name: dict[str, Instruction], kernel: contraction_order.Kernel
) -> contraction_order.Product | None:
    """The multiply the add's operand `position` is (contraction_order.product_through_links) if
    LLVM may fuse it: not hoisted out of the kernel's loop either."""
    found = contraction_order.product_through_links(by_name[add.operands[position]], by_name, kernel)
    if found is None:
        return None
    if all(
        contraction_order.invariant(by_name[o], add, by_name, kernel.invariant)
        for o in found.multiply.operands
    ):
        return None  # hoisted out of the loop
    return dataclasses.replace(found, position=position)
