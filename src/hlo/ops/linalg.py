"""Linear algebra and FFT (page 003: Fft, TriangularSolve, Cholesky): attributes, shape rules as
XLA's shape_inference.cc (InferFftShape, InferTriangularSolveShape, InferCholeskyShape), builder
functions and kernels. Batch normalization is batch_norm.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, INT_LIST, enum_kind
from ..ir.attrs import FftType, TransposeA
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import linalg
from ..shape import UNBOUNDED, Shape
from .array_rules import dim_size_text, int_tuple, ints_text, sizes_compatible
from .registry import AttrSpec, ShapeContext, builder_function, define, if_true, kernel, shape_rule, unless
from .rule_helpers import array_operand, builder_of, enum_argument

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode

# TriangularSolveOptions / CholeskyOptions: XLA prints the fields that are set, in field order.
define(
    Op.TRIANGULAR_SOLVE,
    AttrSpec("left_side", BOOL, default=False, printed=if_true),
    AttrSpec("lower", BOOL, default=False, printed=if_true),
    AttrSpec("unit_diagonal", BOOL, default=False, printed=if_true),
    AttrSpec(
        "transpose_a",
        enum_kind(TransposeA, "a transpose option"),
        default=TransposeA.INVALID,
        printed=unless(TransposeA.INVALID),
    ),
)
define(Op.CHOLESKY, AttrSpec("lower", BOOL, default=False, printed=if_true))
define(
    Op.FFT,
    AttrSpec("fft_type", enum_kind(FftType, "an FFT type"), required=True),
    AttrSpec("fft_length", INT_LIST, required=True),
)


# -- shape rules ------------------------------------------------------------------------------
def _last_changed(shape: Shape, element_type: PrimitiveType, size: int, dynamic: bool) -> Shape:
    """`shape` of another element type whose last dimension is `size` (dynamic or not)."""
    changed = shape.with_element_type(element_type)
    return changed.replace(
        dimensions=(*shape.dimensions[:-1], size),
        dynamic_dimensions=(*shape.dynamic_dimensions[:-1], dynamic),
    )


@shape_rule(Op.FFT)
def fft_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferFftShape over the last len(fft_length) (1 to 3) dimensions: FFT/IFFT keep a
    complex shape; RFFT takes f32/f64 to c64/c128 with the last dimension n/2+1; IRFFT the
    reverse, the last dimension back to n. A zero-sized last dimension stays as it is.

    XLA checks the transformed sizes against fft_length only for RFFT and IRFFT; this rule
    checks them for FFT and IFFT too: XLA:CPU transforms fft_length elements per dimension
    into a buffer of the operand's shape, so any other size reads or writes out of bounds."""
    operand = array_operand(ctx, 0)
    kind, length = ctx.attr("fft_type"), tuple(ctx.attr("fft_length", ()))
    if not 1 <= len(length) <= 3:
        raise ShapeError(f"fft_length={ints_text(length)} must hold 1 to 3 sizes (FFT ranks 1-3)")
    if any(n < 0 for n in length):
        raise ShapeError(f"fft_length={ints_text(length)} must hold sizes >= 0")
    t = operand.element_type
    if kind is FftType.RFFT:
        if t not in (PrimitiveType.F32, PrimitiveType.F64):
            raise ShapeError(f"RFFT takes an f32 or f64 operand: found {operand}")
    elif not t.is_complex:
        raise ShapeError(f"{kind.value} takes a complex operand: found {operand}")
    rank, first = len(length), operand.rank - len(length)
    if first < 0:
        raise ShapeError(
            f"an FFT of rank {rank} (fft_length={ints_text(length)}) needs an operand of rank {rank} or "
            f"more: found {operand}"
        )
    inner = operand.dimensions[first:]
    if kind is not FftType.IRFFT:
        for i, (size, n) in enumerate(zip(inner, length)):
            if size != n and size != UNBOUNDED:
                raise ShapeError(
                    f"the last dimensions of {operand} must be fft_length={ints_text(length)}: "
                    f"dimension {first + i} is {size}"
                )
        if kind is not FftType.RFFT:
            return operand
        out = PrimitiveType.C64 if t is PrimitiveType.F32 else PrimitiveType.C128
        if length[-1] == 0:
            return operand.with_element_type(out)
        dynamic = operand.dynamic_dimensions[-1] and inner[-1] != UNBOUNDED
        return _last_changed(operand, out, length[-1] // 2 + 1, dynamic)
    expected = (*length[:-1], length[-1] // 2 + 1)
    for i, (size, n) in enumerate(zip(inner[:-1], length[:-1])):
        if size != n:
            raise ShapeError(
                f"the last dimensions of {operand} must be {ints_text(expected)} for fft_length="
                f"{ints_text(length)}: dimension {first + i} is {dim_size_text(size)}"
            )
    last = inner[-1]
    if (last or length[-1]) and last != UNBOUNDED and last != expected[-1]:
        raise ShapeError(
            f"the last dimensions of {operand} must be {ints_text(expected)} for fft_length="
            f"{ints_text(length)}: the last dimension (fft_length[-1]/2+1) is {last}"
        )
    dynamic = operand.dynamic_dimensions[-1] and last != UNBOUNDED
    return _last_changed(operand, t.complex_component_type, length[-1], dynamic)


def _floating_or_complex(shape: Shape, what: str) -> None:
    t = shape.element_type
    if not (t.is_floating_point or t.is_complex):
        raise ShapeError(f"{what} must be floating point or complex: found {shape}")


def _matrices(shape: Shape, what: str) -> None:
    """A batch of square matrices: rank 2 or more, the two minor sizes compatible."""
    if shape.rank < 2:
        raise ShapeError(f"{what} must have at least 2 dimensions (a batch of matrices): found {shape}")
    if not sizes_compatible(shape.dimensions[-2], shape.dimensions[-1]):
        raise ShapeError(f"{what} must be square in its two minor dimensions: found {shape}")


@shape_rule(Op.TRIANGULAR_SOLVE)
def triangular_solve_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferTriangularSolveShape: a [..., m, m] with b [..., m, n] (left_side) or
    b [..., n, m] (right side), the same batch dimensions and element type (floating point or
    complex), transpose_a set; the result has b's shape."""
    a, b = array_operand(ctx, 0, "a"), array_operand(ctx, 1, "b")
    _floating_or_complex(a, "operand 0 (a)")
    if b.element_type is not a.element_type:
        raise ShapeError(f"operand 1 (b) must have the element type of operand 0 (a): found {a} and {b}")
    if a.rank < 2:
        raise ShapeError(f"operand 0 (a) must have at least 2 dimensions (a batch of matrices): found {a}")
    if b.rank != a.rank:
        raise ShapeError(f"operand 1 (b) must have the rank of operand 0 (a): found {a} and {b}")
    _matrices(a, "operand 0 (a)")
    left = bool(ctx.attr("left_side", False))
    if not sizes_compatible(a.dimensions[-1], b.dimensions[-2] if left else b.dimensions[-1]):
        side = "rows" if left else "columns"
        raise ShapeError(
            f"the {side} of b must match the size of a (left_side={str(left).lower()}): found {a} and {b}"
        )
    if a.dimensions[:-2] != b.dimensions[:-2]:
        raise ShapeError(f"operand 1 (b) must have the batch dimensions of operand 0 (a): found {a} and {b}")
    if ctx.attr("transpose_a", TransposeA.INVALID) not in (
        TransposeA.NO_TRANSPOSE,
        TransposeA.TRANSPOSE,
        TransposeA.ADJOINT,
    ):
        raise ShapeError("transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT: found none")
    return b


@shape_rule(Op.CHOLESKY)
def cholesky_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferCholeskyShape: a batch of square floating-point or complex matrices."""
    a = array_operand(ctx, 0, "a")
    _floating_or_complex(a, "operand 0 (a)")
    _matrices(a, "operand 0 (a)")
    return a


# -- builder functions ------------------------------------------------------------------------
def _flag(builder: XlaBuilder, op_name: str, value: Any, what: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise builder.error(op_name, f"{what} must be a bool: found {value!r}")
    return bool(value)


@builder_function
def Fft(operand: XlaOp, fft_type: FftType | str, fft_length: Sequence[int]) -> XlaOp:
    """FFT, IFFT, RFFT or IRFFT over the last len(fft_length) dimensions (page 003, Fft)."""
    builder = builder_of("Fft", operand)
    attrs = {
        "fft_type": enum_argument(builder, "Fft", FftType, fft_type, "fft_type"),
        "fft_length": int_tuple(builder, "Fft", fft_length, "fft_length"),
    }
    return builder.add("Fft", Op.FFT, (operand,), attrs)


@builder_function
def TriangularSolve(
    a: XlaOp, b: XlaOp, left_side: bool, lower: bool, unit_diagonal: bool, transpose_a: TransposeA | str
) -> XlaOp:
    """x with op(a) x = b (left side) or x op(a) = b (page 003, TriangularSolve)."""
    name = "TriangularSolve"
    builder = builder_of(name, a, b)
    attrs = {
        "left_side": _flag(builder, name, left_side, "left_side"),
        "lower": _flag(builder, name, lower, "lower"),
        "unit_diagonal": _flag(builder, name, unit_diagonal, "unit_diagonal"),
        "transpose_a": enum_argument(builder, name, TransposeA, transpose_a, "transpose_a"),
    }
    return builder.add(name, Op.TRIANGULAR_SOLVE, (a, b), attrs)


@builder_function
def Cholesky(a: XlaOp, lower: bool = True) -> XlaOp:
    """The Cholesky factor of each (batched) matrix (page 003, Cholesky); `lower` defaults to
    true as in XLA's Python binding (the C++ function has no default)."""
    builder = builder_of("Cholesky", a)
    return builder.add("Cholesky", Op.CHOLESKY, (a,), {"lower": _flag(builder, "Cholesky", lower, "lower")})


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.FFT)
def fft_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    kind, lengths, out = (
        instr.attrs["fft_type"],
        tuple(instr.attrs["fft_length"]),
        np.dtype(instr.shape.element_type.numpy_dtype),
    )
    return lambda x: linalg.fft(x, kind, lengths, out)


@kernel(Op.CHOLESKY)
def cholesky_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    lower = bool(instr.attrs.get("lower", False))
    return lambda a: linalg.cholesky(a, lower)


@kernel(Op.TRIANGULAR_SOLVE)
def triangular_solve_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    a = instr.attrs
    options = (
        bool(a.get("left_side", False)), bool(a.get("lower", False)), bool(a.get("unit_diagonal", False)),
        a.get("transpose_a", TransposeA.NO_TRANSPOSE),
    )  # fmt: skip
    return lambda x, b: linalg.triangular_solve(x, b, *options)
