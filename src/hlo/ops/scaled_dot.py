"""The kernel of scaled-dot (the schema and shape rule are in ops/dot.py). XLA:CPU cannot run
the opcode (its HLO -> StableHLO path has no form for it), so the reference is XLA's own
definition, the ScaledDotRewriter that decomposes it for the backends: each operand with a
non-scalar scale is dequantized, operand and scale converted to a common type (bf16 when both
are narrower than 16 bits, the type itself when they agree, f32 for two different types of one
width, else the wider), the scale repeated over blocks (operand size / scale size elements per
scale element along each dimension) and multiplied in; a scalar scale leaves its operand as it
is. Then an ordinary dot with the scaled-dot's dimension numbers and result type.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..dtypes import PrimitiveType
from ..engine import numerics
from ..engine.linear import dot_general
from ..engine.plan import KernelContext
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .dot import DotDimensionNumbers
from .registry import kernel


def common_type(a: PrimitiveType, b: PrimitiveType) -> PrimitiveType:
    """XLA's GetTargetType for an operand and its scale."""
    if a.bit_width < 16 and b.bit_width < 16:
        return PrimitiveType.BF16
    if a is b:
        return a
    if a.bit_width == b.bit_width:
        return PrimitiveType.F32
    return a if a.bit_width > b.bit_width else b


def dequantize(
    x: np.ndarray, scale: np.ndarray, x_type: PrimitiveType, scale_type: PrimitiveType, flush: bool
) -> np.ndarray:
    """x times its scale repeated over blocks, in the common type (rounded once, as XLA's
    multiply of that type); x itself for a scalar scale."""
    if scale.ndim == 0:
        return x
    target = common_type(x_type, scale_type)
    full = scale
    for axis, (n, m) in enumerate(zip(x.shape, scale.shape)):
        full = np.repeat(full, n // m, axis=axis)
    work = np.dtype(numerics.compute_dtype(np.dtype(target.numpy_dtype)))
    a = numerics.convert(x, target).astype(work)
    b = numerics.convert(full, target).astype(work)
    if flush:
        a, b = numerics.flush_denormals(a), numerics.flush_denormals(b)
    product = np.multiply(a, b)
    if flush:
        product = numerics.flush_denormals(product)
    return product.astype(np.dtype(target.numpy_dtype))


@kernel(Opcode.SCALED_DOT)
def scaled_dot_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    dn = DotDimensionNumbers.of(instr.attrs)
    dims = (
        dn.lhs_batch_dimensions,
        dn.lhs_contracting_dimensions,
        dn.rhs_batch_dimensions,
        dn.rhs_contracting_dimensions,
    )
    types = [s.element_type for s in ctx.operand_shapes(instr)]
    result, flush = instr.shape.element_type, ctx.options.flush_denormals

    def run(lhs: np.ndarray, rhs: np.ndarray, lhs_scale: np.ndarray, rhs_scale: np.ndarray) -> np.ndarray:
        a = dequantize(lhs, lhs_scale, types[0], types[2], flush)
        b = dequantize(rhs, rhs_scale, types[1], types[3], flush)
        return dot_general(a, b, *dims, result, flush)

    return run
