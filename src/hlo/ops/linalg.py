"""Linear algebra, FFT and batch normalization (page 003: Fft, TriangularSolve, Cholesky,
BatchNormTraining, BatchNormInference, BatchNormGrad): attributes, shape rules as XLA's
shape_inference.cc (InferFftShape, InferTriangularSolveShape, InferCholeskyShape,
InferBatchNorm*Shape), builder functions and kernels."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import BOOL, FLOAT, INT, INT_LIST, enum_kind
from ..ir.attrs import FftType, TransposeA
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import linalg
from ..shape import UNBOUNDED, Shape
from .array_rules import int_tuple, ints_text, same_type_ignoring_fp
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
for op in (Op.BATCH_NORM_TRAINING, Op.BATCH_NORM_INFERENCE, Op.BATCH_NORM_GRAD):
    define(op, AttrSpec("epsilon", FLOAT, required=True), AttrSpec("feature_index", INT, required=True))


# -- shape rules ------------------------------------------------------------------------------
def _size(n: int) -> str:
    return "?" if n == UNBOUNDED else str(n)


def _compatible(x: int, y: int) -> bool:
    """XLA's CompatibleDimensionSizes: equal, or either unbounded."""
    return x == y or UNBOUNDED in (x, y)


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
                f"{ints_text(length)}: dimension {first + i} is {_size(size)}"
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
    if not _compatible(shape.dimensions[-2], shape.dimensions[-1]):
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
    if not _compatible(a.dimensions[-1], b.dimensions[-2] if left else b.dimensions[-1]):
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


def _feature_vector(ctx: ShapeContext, k: int, role: str, operand: Shape, feature: int) -> None:
    """Rank 1, one value per feature, of a floating-point type (XLA ignores the precision)."""
    s = array_operand(ctx, k, role)
    count = operand.dimensions[feature]
    if s.rank != 1 or not _compatible(s.dimensions[0], count) or not same_type_ignoring_fp(s, operand):
        raise ShapeError(
            f"operand {k} ({role}) must be {operand.element_type.text}[{_size(count)}], one value per "
            f"feature (dimension {feature} of {operand}): found {s}"
        )


def _batch_norm(ctx: ShapeContext, roles: tuple[str, ...]) -> tuple[Shape, int]:
    """XLA's InferBatchNorm*Shape checks: a floating-point operand, feature_index one of its
    dimensions, the other operands feature vectors (or, for grad_output, the operand's shape)."""
    operand = array_operand(ctx, 0, "operand")
    feature = ctx.attr("feature_index", -1)
    if not 0 <= feature < operand.rank:
        raise ShapeError(f"feature_index={feature} must be a dimension of operand 0 {operand}")
    if not operand.element_type.is_floating_point:
        raise ShapeError(f"operand 0 must be floating point: found {operand}")
    for k, role in enumerate(roles, 1):
        if role != "grad_output":
            _feature_vector(ctx, k, role, operand, feature)
            continue
        g = array_operand(ctx, k, role)
        if not g.element_type.is_floating_point:
            raise ShapeError(f"operand {k} (grad_output) must be floating point like operand 0: found {g}")
        if g.rank != operand.rank or not all(map(_compatible, g.dimensions, operand.dimensions)):
            raise ShapeError(
                f"operand {k} (grad_output) must have the shape of operand 0 {operand}: found {g}"
            )
    return operand, feature


def _with_features(operand: Shape, feature: int) -> Shape:
    """(operand's shape, the feature vector, the feature vector)."""
    vector = Shape.array(
        operand.element_type,
        (operand.dimensions[feature],),
        dynamic_dimensions=(operand.dynamic_dimensions[feature],),
    )
    return Shape.make_tuple((operand, vector, vector))


@shape_rule(Op.BATCH_NORM_TRAINING)
def batch_norm_training_shape(ctx: ShapeContext) -> Shape:
    """(normalized, batch mean, batch variance)."""
    return _with_features(*_batch_norm(ctx, ("scale", "offset")))


@shape_rule(Op.BATCH_NORM_INFERENCE)
def batch_norm_inference_shape(ctx: ShapeContext) -> Shape:
    """The normalized operand."""
    return _batch_norm(ctx, ("scale", "offset", "mean", "variance"))[0]


@shape_rule(Op.BATCH_NORM_GRAD)
def batch_norm_grad_shape(ctx: ShapeContext) -> Shape:
    """(grad operand, grad scale, grad offset)."""
    return _with_features(*_batch_norm(ctx, ("scale", "mean", "variance", "grad_output")))


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


def _add_batch_norm(
    name: str, opcode: Opcode, operands: tuple[XlaOp, ...], epsilon: float, feature_index: int
) -> XlaOp:
    builder = builder_of(name, *operands)
    if not isinstance(feature_index, int | np.integer) or isinstance(feature_index, bool):
        raise builder.error(name, f"feature_index must be an int: found {feature_index!r}")
    if not isinstance(epsilon, float | int | np.floating | np.integer) or isinstance(epsilon, bool):
        raise builder.error(name, f"epsilon must be a float: found {epsilon!r}")
    attrs = {"epsilon": float(epsilon), "feature_index": int(feature_index)}
    return builder.add(name, opcode, operands, attrs)


@builder_function
def BatchNormTraining(
    operand: XlaOp, scale: XlaOp, offset: XlaOp, epsilon: float, feature_index: int
) -> XlaOp:
    """(normalized, batch mean, batch variance) (page 003, BatchNormTraining)."""
    return _add_batch_norm(
        "BatchNormTraining", Op.BATCH_NORM_TRAINING, (operand, scale, offset), epsilon, feature_index
    )


@builder_function
def BatchNormInference(
    operand: XlaOp,
    scale: XlaOp,
    offset: XlaOp,
    mean: XlaOp,
    variance: XlaOp,
    epsilon: float,
    feature_index: int,
) -> XlaOp:
    """The operand normalized with the given mean and variance (page 003, BatchNormInference)."""
    return _add_batch_norm(
        "BatchNormInference", Op.BATCH_NORM_INFERENCE, (operand, scale, offset, mean, variance), epsilon,
        feature_index,
    )  # fmt: skip


@builder_function
def BatchNormGrad(
    operand: XlaOp, scale: XlaOp, batch_mean: XlaOp, batch_var: XlaOp, grad_output: XlaOp, epsilon: float,
    feature_index: int,
) -> XlaOp:  # fmt: skip
    """(grad operand, grad scale, grad offset) (page 003, BatchNormGrad; argument names as
    xla_builder.h)."""
    return _add_batch_norm(
        "BatchNormGrad", Op.BATCH_NORM_GRAD, (operand, scale, batch_mean, batch_var, grad_output), epsilon,
        feature_index,
    )  # fmt: skip


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


@kernel(Op.BATCH_NORM_TRAINING)
def batch_norm_training_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    eps, feature = instr.attrs["epsilon"], instr.attrs["feature_index"]
    return lambda x, scale, offset: linalg.batch_norm_training(x, scale, offset, eps, feature)


@kernel(Op.BATCH_NORM_INFERENCE)
def batch_norm_inference_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    eps, feature = instr.attrs["epsilon"], instr.attrs["feature_index"]
    return lambda x, scale, offset, mean, var: linalg.batch_norm_inference(
        x, scale, offset, mean, var, eps, feature
    )


@kernel(Op.BATCH_NORM_GRAD)
def batch_norm_grad_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    eps, feature = instr.attrs["epsilon"], instr.attrs["feature_index"]
    return lambda x, scale, mean, var, grad: linalg.batch_norm_grad(x, scale, mean, var, grad, eps, feature)
