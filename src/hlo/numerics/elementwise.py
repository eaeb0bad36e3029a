"""How the engine runs an elementwise op: the NumPy function of each op (a `Math` value in the op
tables of hlo.ops.elementwise), computed in the op's working type (f32 for the narrow floats,
the byte-wide integer for sub-byte integers), with subnormal floats flushed as XLA:CPU does, and
the result cast to the instruction's element type."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import EvalError
from ..ir.instruction import Instruction
from ..shape import Shape
from . import libm, loop_invariance, subnormals
from .context import KernelContext
from .numerics import compute_dtype, flush_denormals, is_ml_dtype


@dataclass(frozen=True)
class Math:
    """The NumPy side of an elementwise op.

        `fn` takes the operands in their working type (and, when `typed`, the operand's
        PrimitiveType last); `flush` says whether XLA:CPU's flush-to-zero of subnormal floats
        applies to its inputs and result (not to sign-bit and bit-level ops: negate, abs, ...);
        `widen` whether narrow floats are computed in f32 (bit-level ops work on the type itself);
        `on_bits` that `fn` only moves or tests bits (abs, negate, ...), so the CPU's flush-to-zero
        mode cannot change it; other ops that must keep subnormals run with the mode off; `selects`
        that `fn` returns one of its operands' values (max, min, sign), which the mode does not
        flush: their float results are flushed by a multiplication by one, which it does.
        `complex_fn`, when given, computes complex operands instead: `complex_fn(*operands, flush)`
        on the unflushed operands (hlo.numerics.complex_math: XLA:CPU's own formulas, flushing in
        software, so they run with the CPU's mode off); `complex_invariant_rhs_fn` instead of it
        where the second operand is the same all along XLA:CPU's innermost loop
        (hlo.numerics.loop_invariance). `real_ufunc`, when given, is the NumPy ufunc
        `fn` amounts to on real floats (plans call it directly, and fused steps with `out=`). `libm`:
    where hlo.numerics.libm says XLA:CPU calls the platform's C function for the op and the float
    type, that function computes it instead of `fn`."""

    fn: Callable[..., Any]
    flush: bool = True
    widen: bool = True
    typed: bool = False
    on_bits: bool = False
    selects: bool = False
    complex_fn: Callable[..., Any] | None = None
    complex_invariant_rhs_fn: Callable[..., Any] | None = None  # complex_fn where the rhs is loop-invariant
    real_ufunc: np.ufunc | None = None
    libm: bool = False  # XLA:CPU calls the C library's function for some float types (numerics.libm)


@functools.cache
def working_dtype(dtype: np.dtype, widen: bool = True) -> np.dtype:
    """The dtype an elementwise op computes in (cached: called for every operand of every op)."""
    if is_ml_dtype(dtype) and not _is_float(dtype):  # s4, u4, s2, ...: the byte-wide integer
        return np.dtype(np.int8) if _is_signed(dtype) else np.dtype(np.uint8)
    return compute_dtype(dtype) if widen else dtype


def working_copy(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """x in `dtype`; a broadcast view (a bias row over a block) converted before it is
    broadcast again: ml_dtypes' casts of such views are ~13x slower than of the row."""
    if x.dtype == dtype:
        return x
    if x.ndim and x.size > 1 and 0 in x.strides:
        row = x[tuple(slice(0, 1) if step == 0 else slice(None) for step in x.strides)]
        return np.broadcast_to(row.astype(dtype), x.shape)
    return x.astype(dtype, copy=False)


def _is_float(dtype: np.dtype) -> bool:
    from ..dtypes import from_numpy_dtype

    return from_numpy_dtype(dtype).is_floating_point


def _is_signed(dtype: np.dtype) -> bool:
    from ..dtypes import from_numpy_dtype

    return from_numpy_dtype(dtype).is_signed_integral


def elementwise_kernel(math: Math, instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    """The bound kernel of one elementwise instruction."""
    out = np.dtype(instr.shape.element_type.numpy_dtype)
    operands = ctx.operand_shapes(instr)
    operand_type = operands[0].element_type
    if math.complex_fn is not None and operand_type.is_complex:
        complex_fn, flush_complex = math.complex_fn, ctx.options.flush_denormals
        if math.complex_invariant_rhs_fn is not None and loop_invariance.invariant_operand(instr, ctx, 1):
            complex_fn = math.complex_invariant_rhs_fn

        def run_complex(*xs: np.ndarray) -> np.ndarray:
            with subnormals.keeping_subnormals():
                return np.asarray(complex_fn(*xs, flush_complex)).astype(out, copy=False)

        return run_complex
    standard = _standard_kernel(math, instr, ctx, out, operands, operand_type)
    if math.libm and operand_type.is_floating_point and not operand_type.is_complex:
        work_dtype = working_dtype(np.dtype(operand_type.numpy_dtype))
        if libm.takes(instr.opcode.text, work_dtype):
            return sizes_checked(_libm_kernel(instr.opcode.text, work_dtype, out, ctx, standard), instr, ctx)
    return sizes_checked(standard, instr, ctx)


def _standard_kernel(
    math: Math,
    instr: Instruction,
    ctx: KernelContext,
    out: np.dtype,
    operands: Sequence[Shape],
    operand_type: PrimitiveType,
) -> Callable[..., np.ndarray]:
    """The kernel of `math.fn` (without the size check of dynamic operands)."""
    fn, widen = math.fn, math.widen
    flush = math.flush and ctx.options.flush_denormals
    typed: tuple[PrimitiveType, ...] = (operand_type,) if math.typed else ()

    keep = not math.flush and not math.on_bits
    dtypes = [np.dtype(s.element_type.numpy_dtype) for s in operands]
    in_place_types = all(working_dtype(d, widen) == d for d in dtypes)
    hardware_always = subnormals.supported()  # runs turn the CPU's mode on when it can
    if in_place_types and not typed and not keep and not (flush and (math.selects or not hardware_always)):
        # The common case, as lean as a NumPy call: operands in their working type already, and
        # flushing (if any) done by the CPU's mode during the run.
        if math.real_ufunc is not None and all(d.kind == "f" and not is_ml_dtype(d) for d in dtypes):
            fn = math.real_ufunc

        def run_plain(*xs: np.ndarray) -> np.ndarray:
            result = fn(*xs)
            if type(result) is not np.ndarray:
                result = np.asarray(result)
            return result if result.dtype == out else result.astype(out)

        if isinstance(fn, np.ufunc) and operands[0].is_static:
            resolved = _resolved_type(fn, tuple(dtypes))
            if resolved == out:  # the NumPy call is the whole kernel: plans may call it directly
                run_plain.inline = (fn, not instr.shape.dimensions)  # type: ignore[attr-defined]
        return run_plain

    def run(*xs: np.ndarray) -> np.ndarray:
        work = [working_copy(x, working_dtype(x.dtype, widen)) for x in xs]
        hardware = subnormals.active()
        if flush and not hardware:  # in flush-to-zero mode the CPU flushes
            work = [flush_denormals(w) for w in work]
            result = flush_denormals(np.asarray(fn(*work, *typed)))
        elif keep and hardware:
            with subnormals.keeping_subnormals():
                result = np.asarray(fn(*work, *typed))
        else:
            result = np.asarray(fn(*work, *typed))
            if flush and math.selects and result.dtype.kind in "fc":
                result = np.asarray(result * result.dtype.type(1))  # flush-to-zero applies to products
        return result.astype(out, copy=False)

    return run


def in_mode(op: str, values: list[np.ndarray], flush: bool, standard: Callable[[], np.ndarray]) -> np.ndarray:
    """The C library's `op` of f32 or f64 `values` in the run's floating-point mode (see
    `_libm_kernel`; `standard` gives the op's values for elements with a subnormal input where
    the mode cannot be set)."""
    if not (flush and not subnormals.active()):
        return libm.apply(op, values)
    result = flush_denormals(libm.apply(op, [flush_denormals(v) for v in values]))
    tiny = np.finfo(values[0].dtype).tiny
    odd = np.zeros(result.shape, bool)
    for v in values:
        odd |= np.broadcast_to((v != 0) & (np.abs(v) < tiny), result.shape)  # (no CPU mode here)
    if odd.any():
        kept = op in libm.KEEP_SUBNORMAL_INPUT
        result[odd] = np.broadcast_to(values[0] if kept else standard(), result.shape)[odd]
    return result


def _libm_kernel(
    op: str, work: np.dtype, out: np.dtype, ctx: KernelContext, standard: Callable[..., np.ndarray]
) -> Callable[..., np.ndarray]:
    """The C library's function element by element, in the run's floating-point mode as XLA:CPU
    calls it (subnormal inputs seen as zero by the function's arithmetic, not before it). Where
    that mode cannot be set, the function runs on the other elements, and those with a subnormal
    input are the input itself (sin, tan) or `standard`'s (the op's rules for subnormal inputs,
    numerics.subnormal_inputs)."""
    flush = ctx.options.flush_denormals

    def run(*xs: np.ndarray) -> np.ndarray:
        values = [np.asarray(x).astype(work, copy=False) for x in xs]
        return in_mode(op, values, flush, lambda: standard(*xs)).astype(out, copy=False)

    return run


@functools.cache
def _resolved_type(fn: np.ufunc, dtypes: tuple[np.dtype, ...]) -> np.dtype | None:
    """The result dtype of a ufunc on operands of these dtypes (None: NumPy has no loop)."""
    try:
        return fn.resolve_dtypes((*dtypes, None))[-1]  # type: ignore[no-any-return]
    except (TypeError, ValueError, np.exceptions.DTypePromotionError):
        return None


def sizes_checked(run: Callable[..., Any], instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """`run`, checking at run time that operands with dynamic dimensions agree in size (only
    when some operand is dynamic: static sizes the verifier has checked)."""
    operands = ctx.operand_shapes(instr)
    if len(operands) > 1 and not all(s.is_static for s in operands):
        arrays = tuple(k for k, s in enumerate(operands) if s.dimensions)  # (scalar bounds or predicates)
        return same_sizes(run, arrays)
    return run


def same_sizes(run: Callable[..., np.ndarray], arrays: tuple[int, ...]) -> Callable[..., np.ndarray]:
    """`run` after a check that the non-scalar operands have the same sizes at run time: NumPy
    would broadcast a size-1 dimension against any other, where XLA's dynamic operands must
    match."""

    def checked(*xs: np.ndarray) -> np.ndarray:
        first = np.shape(xs[arrays[0]]) if arrays else ()
        for k in arrays[1:]:
            if np.shape(xs[k]) != first:
                raise EvalError(
                    f"operand {k} has the sizes {list(np.shape(xs[k]))} at run time, operand "
                    f"{arrays[0]} has {list(first)}: the dynamic sizes of an elementwise op's "
                    f"operands must agree"
                )
        return run(*xs)

    return checked
