"""Linear algebra, FFT and batch normalization."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..engine import linalg
from ..errors import ShapeError
from ..ir.attrs import FftType, TransposeA
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import BOOL, FLOAT, INT, INT_LIST, EnumCodec
from .array_rules import int_tuple
from .registry import AttrSpec, ShapeContext, builder_function, define, if_true, kernel, shape_rule, unless
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..engine.plan import KernelContext

Op = Opcode

# TriangularSolveOptions / CholeskyOptions: XLA prints the fields that are set, in field order.
define(
    Op.TRIANGULAR_SOLVE,
    AttrSpec("left_side", BOOL, default=False, printed=if_true),
    AttrSpec("lower", BOOL, default=False, printed=if_true),
    AttrSpec("unit_diagonal", BOOL, default=False, printed=if_true),
    AttrSpec(
        "transpose_a",
        EnumCodec(TransposeA, "a transpose option"),
        default=TransposeA.INVALID,
        printed=unless(TransposeA.INVALID),
    ),
)
define(Op.CHOLESKY, AttrSpec("lower", BOOL, default=False, printed=if_true))
define(
    Op.FFT,
    AttrSpec("fft_type", EnumCodec(FftType, "an FFT type"), required=True),
    AttrSpec("fft_length", INT_LIST, required=True),
)
for op in (Op.BATCH_NORM_TRAINING, Op.BATCH_NORM_INFERENCE, Op.BATCH_NORM_GRAD):
    define(op, AttrSpec("epsilon", FLOAT, required=True), AttrSpec("feature_index", INT, required=True))


# -- shape rules ------------------------------------------------------------------------------
@shape_rule(Op.FFT)
def fft_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferFftShape over the last len(fft_length) (1 to 3) dimensions: FFT/IFFT keep a
    complex shape; RFFT takes f32/f64 to c64/c128 with the last dimension n/2+1; IRFFT the
    reverse, the last dimension back to fft_length."""
    operand = array_operand(ctx, 0)
    kind, length = ctx.attr("fft_type"), tuple(ctx.attr("fft_length", ()))
    if not 1 <= len(length) <= 3:
        raise ShapeError(f"fft_length={list(length)} must have 1 to 3 sizes")
    if operand.rank < len(length):
        raise ShapeError(
            f"operand {operand} must have at least {len(length)} dimensions for fft_length={list(length)}"
        )
    inner = operand.dimensions[operand.rank - len(length) :]
    t = operand.element_type
    if kind in (FftType.FFT, FftType.IFFT):
        if not t.is_complex:
            raise ShapeError(f"{kind.value} takes a complex operand: found {operand}")
        if tuple(inner) != length:
            raise ShapeError(f"the last dimensions of {operand} must be fft_length={list(length)}")
        return operand
    if kind is FftType.RFFT:
        if t not in (PrimitiveType.F32, PrimitiveType.F64):
            raise ShapeError(f"RFFT takes an f32 or f64 operand: found {operand}")
        if tuple(inner) != length:
            raise ShapeError(f"the last dimensions of {operand} must be fft_length={list(length)}")
        out = PrimitiveType.C64 if t is PrimitiveType.F32 else PrimitiveType.C128
        dims = (*operand.dimensions[:-1], length[-1] // 2 + 1 if length[-1] else 0)
        return Shape.array(out, dims)
    if not t.is_complex:
        raise ShapeError(f"IRFFT takes a complex operand: found {operand}")
    expected = (*length[:-1], length[-1] // 2 + 1 if length[-1] else 0)
    if tuple(inner) != expected:
        raise ShapeError(
            f"the last dimensions of {operand} must be {list(expected)} for fft_length={list(length)}"
        )
    out = PrimitiveType.F32 if t is PrimitiveType.C64 else PrimitiveType.F64
    return Shape.array(out, (*operand.dimensions[:-1], length[-1]))


def _square_matrices(shape: Shape, what: str) -> None:
    if shape.rank < 2:
        raise ShapeError(f"{what} must have at least 2 dimensions (a batch of matrices): found {shape}")
    if shape.dimensions[-1] != shape.dimensions[-2]:
        raise ShapeError(f"{what} must be square in its two minor dimensions: found {shape}")
    t = shape.element_type
    if not (t.is_floating_point or t.is_complex):
        raise ShapeError(f"{what} must be floating point or complex: found {shape}")


@shape_rule(Op.TRIANGULAR_SOLVE)
def triangular_solve_shape(ctx: ShapeContext) -> Shape:
    """XLA's InferTriangularSolveShape: a [..., m, m] (left side, b [..., m, n]) or a [..., n, n]
    (right side); the result has b's shape."""
    a, b = array_operand(ctx, 0, "a"), array_operand(ctx, 1, "b")
    _square_matrices(a, "operand 0 (a)")
    if b.element_type is not a.element_type:
        raise ShapeError(f"operand 1 (b) must have the element type of a: found {a} and {b}")
    if b.rank != a.rank or a.dimensions[:-2] != b.dimensions[:-2]:
        raise ShapeError(f"a and b must have the same rank and batch dimensions: found {a} and {b}")
    left = bool(ctx.attr("left_side", False))
    k = b.dimensions[-2] if left else b.dimensions[-1]
    if k != a.dimensions[-1]:
        side = "rows" if left else "columns"
        raise ShapeError(
            f"the {side} of b must match the size of a (left_side={str(left).lower()}): found {a} and {b}"
        )
    if ctx.attr("transpose_a", TransposeA.INVALID) is TransposeA.INVALID:
        raise ShapeError("transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT")
    return b


@shape_rule(Op.CHOLESKY)
def cholesky_shape(ctx: ShapeContext) -> Shape:
    a = array_operand(ctx, 0, "a")
    _square_matrices(a, "operand 0 (a)")
    return a


def _feature_vector(ctx: ShapeContext, k: int, role: str, operand: Shape, feature: int) -> None:
    s = array_operand(ctx, k, role)
    want = Shape.array(operand.element_type, (operand.dimensions[feature],))
    if not s.compatible(want):
        raise ShapeError(
            f"operand {k} ({role}) must be {want.to_string(print_layout=False)}, one value per feature "
            f"(dimension {feature} of {operand}): found {s}"
        )


def _batch_norm(ctx: ShapeContext, roles: tuple[str, ...]) -> tuple[Shape, int]:
    operand = array_operand(ctx, 0, "operand")
    if not operand.element_type.is_floating_point:
        raise ShapeError(f"operand 0 must be floating point: found {operand}")
    feature = ctx.attr("feature_index", -1)
    if not 0 <= feature < operand.rank:
        raise ShapeError(f"feature_index={feature} must be a dimension of {operand}")
    for k, role in enumerate(roles, 1):
        if role == "grad_output":
            g = array_operand(ctx, k, role)
            if not g.compatible(operand):
                raise ShapeError(
                    f"operand {k} (grad_output) must have the shape of operand 0 {operand}: found {g}"
                )
        else:
            _feature_vector(ctx, k, role, operand, feature)
    return operand, feature


def _with_features(operand: Shape, feature: int) -> Shape:
    vector = Shape.array(operand.element_type, (operand.dimensions[feature],))
    return Shape.make_tuple((operand, vector, vector))


@shape_rule(Op.BATCH_NORM_TRAINING)
def batch_norm_training_shape(ctx: ShapeContext) -> Shape:
    """(normalized, batch mean, batch variance)."""
    return _with_features(*_batch_norm(ctx, ("scale", "offset")))


@shape_rule(Op.BATCH_NORM_INFERENCE)
def batch_norm_inference_shape(ctx: ShapeContext) -> Shape:
    return _batch_norm(ctx, ("scale", "offset", "mean", "variance"))[0]


@shape_rule(Op.BATCH_NORM_GRAD)
def batch_norm_grad_shape(ctx: ShapeContext) -> Shape:
    """(grad operand, grad scale, grad offset)."""
    return _with_features(*_batch_norm(ctx, ("scale", "mean", "variance", "grad_output")))


# -- builder functions ------------------------------------------------------------------------
def _enum(builder: XlaBuilder, op_name: str, kind: type[enum.Enum], value: Any, what: str) -> Any:
    if isinstance(value, kind):
        return value
    for member in kind:
        if isinstance(value, str) and value.upper() in (member.name, str(member.value).upper()):
            return member
    raise builder.error(op_name, f"{what} must be one of {', '.join(m.name for m in kind)}: found {value!r}")


@builder_function
def Fft(operand: XlaOp, fft_type: FftType | str, fft_length: Sequence[int]) -> XlaOp:
    """FFT, IFFT, RFFT or IRFFT over the last len(fft_length) dimensions (page 003)."""
    builder = builder_of("Fft", operand)
    attrs = {
        "fft_type": _enum(builder, "Fft", FftType, fft_type, "fft_type"),
        "fft_length": int_tuple(builder, "Fft", fft_length, "fft_length"),
    }
    return builder.add("Fft", Op.FFT, (operand,), attrs)


@builder_function
def TriangularSolve(
    a: XlaOp, b: XlaOp, left_side: bool, lower: bool, unit_diagonal: bool, transpose_a: TransposeA | str
) -> XlaOp:
    """x with op(a) x = b (left side) or x op(a) = b (page 003)."""
    builder = builder_of("TriangularSolve", a, b)
    attrs = {
        "left_side": bool(left_side), "lower": bool(lower), "unit_diagonal": bool(unit_diagonal),
        "transpose_a": _enum(builder, "TriangularSolve", TransposeA, transpose_a, "transpose_a"),
    }  # fmt: skip
    return builder.add("TriangularSolve", Op.TRIANGULAR_SOLVE, (a, b), attrs)


@builder_function
def Cholesky(a: XlaOp, lower: bool = True) -> XlaOp:
    """The Cholesky factor of each (batched) matrix (page 003)."""
    return builder_of("Cholesky", a).add("Cholesky", Op.CHOLESKY, (a,), {"lower": bool(lower)})


def _add_batch_norm(
    name: str, opcode: Opcode, operands: tuple[XlaOp, ...], epsilon: float, feature_index: int
) -> XlaOp:
    builder = builder_of(name, *operands)
    if not isinstance(feature_index, int) or isinstance(feature_index, bool):
        raise builder.error(name, f"feature_index must be an int: found {feature_index!r}")
    return builder.add(name, opcode, operands, {"epsilon": float(epsilon), "feature_index": feature_index})


@builder_function
def BatchNormTraining(
    operand: XlaOp, scale: XlaOp, offset: XlaOp, epsilon: float, feature_index: int
) -> XlaOp:
    """(normalized, batch mean, batch variance) (page 003)."""
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
    return _add_batch_norm(
        "BatchNormInference", Op.BATCH_NORM_INFERENCE, (operand, scale, offset, mean, variance), epsilon,
        feature_index,
    )  # fmt: skip


@builder_function
def BatchNormGrad(
    operand: XlaOp, scale: XlaOp, batch_mean: XlaOp, batch_var: XlaOp, grad_output: XlaOp, epsilon: float,
    feature_index: int,
) -> XlaOp:  # fmt: skip
    """(grad operand, grad scale, grad offset) (page 003)."""
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
