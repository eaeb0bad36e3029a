"""Batch normalization (page 003: BatchNormTraining, BatchNormInference, BatchNormGrad):
attributes, shape rules as XLA's shape_inference.cc (InferBatchNorm*Shape), builder functions and
kernels (numerics/linalg.py computes them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ShapeError
from ..ir.attr_kinds import FLOAT, INT
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import linalg
from ..shape import Shape
from .array_rules import dim_size_text, same_type_ignoring_fp, sizes_compatible
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaOp
    from ..numerics.context import KernelContext

Op = Opcode
FAMILY = "linalg"  # split out of linalg.py: pictures colour its ops as that family's

for op in (Op.BATCH_NORM_TRAINING, Op.BATCH_NORM_INFERENCE, Op.BATCH_NORM_GRAD):
    define(op, AttrSpec("epsilon", FLOAT, required=True), AttrSpec("feature_index", INT, required=True))


# -- shape rules ------------------------------------------------------------------------------
def _feature_vector(ctx: ShapeContext, k: int, role: str, operand: Shape, feature: int) -> None:
    """Rank 1, one value per feature, of a floating-point type (XLA ignores the precision)."""
    s = array_operand(ctx, k, role)
    count = operand.dimensions[feature]
    if s.rank != 1 or not sizes_compatible(s.dimensions[0], count) or not same_type_ignoring_fp(s, operand):
        raise ShapeError(
            f"operand {k} ({role}) must be {operand.element_type.text}[{dim_size_text(count)}], one value "
            f"per feature (dimension {feature} of {operand}): found {s}"
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
        if g.rank != operand.rank or not all(map(sizes_compatible, g.dimensions, operand.dimensions)):
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
