"""The binary elementwise ops (page 003: element-wise binary arithmetic operations): a table of
rows (builder name, opcode, accepted element types, how the engine computes it) from which their
schemas, kernels and builder functions are made; the shape rule of the HLO instruction (no
implicit broadcasting) and XlaBuilder's BinaryOp inference with broadcasting, which compare
shares (compare.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attrs import ComparisonType
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..numerics import bits, complex_arith, complex_math, complex_polar, numerics
from ..numerics.elementwise import Math, elementwise_kernel
from ..shape import Shape
from .array_rules import dims_compatible, int_tuple, require_ops
from .broadcasting import elementwise_binary
from .elementwise import (
    ANY,
    ARITHMETIC,
    FLOAT,
    FLOAT_OR_COMPLEX,
    INTEGRAL,
    PRED_OR_INTEGRAL,
    Types,
    by_width,
)
from .registry import ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of
from .shape_ops import add_broadcast_sequence, broadcast_in_dim

if TYPE_CHECKING:
    from ..numerics.context import KernelContext
    from .handles import XlaOp

Op = Opcode
FAMILY = "elementwise"  # split out of elementwise.py: pictures colour its ops as that family's
P = PrimitiveType


@dataclass(frozen=True)
class Binary:
    name: str
    opcode: Opcode
    types: Types  # checked on operand 0; operand 1 must have its type (floats may mix precision)
    math: Math | None = None  # how the engine computes it


BINARY = (
    Binary("Add", Op.ADD, ANY, math=Math(np.add)),
    Binary("Sub", Op.SUBTRACT, ARITHMETIC, math=Math(np.subtract)),
    Binary(
        "Mul",
        Op.MULTIPLY,
        ANY,
        math=Math(
            np.multiply,
            complex_fn=complex_arith.multiply,
            complex_invariant_rhs_fn=complex_arith.multiply_by_invariant,
        ),
    ),
    Binary(
        "Div",
        Op.DIVIDE,
        ARITHMETIC,
        math=Math(numerics.divide, real_ufunc=np.divide, complex_fn=complex_arith.divide),
    ),
    Binary("Rem", Op.REMAINDER, ARITHMETIC, math=Math(numerics.remainder_flushing_divisor, flush=False)),
    Binary(
        "Pow",
        Op.POWER,
        ARITHMETIC,
        math=Math(numerics.power, flush=False, typed=True, complex_fn=complex_polar.power, libm=True),
    ),
    Binary(
        "Max", Op.MAXIMUM, ANY, math=Math(numerics.maximum, selects=True, complex_fn=complex_math.maximum)
    ),
    Binary(
        "Min", Op.MINIMUM, ANY, math=Math(numerics.minimum, selects=True, complex_fn=complex_math.minimum)
    ),
    Binary("Mulhi", Op.MULHI, ANY, math=by_width(bits.multiply_high)),
    Binary(
        "Atan2",
        Op.ATAN2,
        FLOAT_OR_COMPLEX,
        math=Math(np.arctan2, flush=False, complex_fn=complex_polar.atan2, libm=True),
    ),
    Binary("Complex", Op.COMPLEX, FLOAT, math=Math(numerics.make_complex, flush=False)),
    Binary("And", Op.AND, PRED_OR_INTEGRAL, math=Math(np.bitwise_and)),
    Binary("Or", Op.OR, PRED_OR_INTEGRAL, math=Math(np.bitwise_or)),
    Binary("Xor", Op.XOR, PRED_OR_INTEGRAL, math=Math(np.bitwise_xor)),
    # XLA's shape inference only refuses pred here; its backends shift integers only.
    Binary("ShiftLeft", Op.SHIFT_LEFT, INTEGRAL, math=by_width(numerics.shift_left)),
    Binary(
        "ShiftRightArithmetic",
        Op.SHIFT_RIGHT_ARITHMETIC,
        INTEGRAL,
        math=by_width(numerics.shift_right_arithmetic),
    ),
    Binary(
        "ShiftRightLogical", Op.SHIFT_RIGHT_LOGICAL, INTEGRAL, math=by_width(numerics.shift_right_logical)
    ),
)
BINARY_BY_OPCODE = {b.opcode: b for b in BINARY}
COMPLEX_OF = {(P.F32, P.F32): P.C64, (P.F64, P.F64): P.C128}

for _b in BINARY:
    define(_b.opcode).elementwise = True


@kernel(*BINARY_BY_OPCODE)
def binary_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    math = BINARY_BY_OPCODE[instr.opcode].math
    assert math is not None
    return elementwise_kernel(math, instr, ctx)


def comparison_type_for(shape: Shape) -> ComparisonType:
    """FLOAT for floats and complex, SIGNED for signed ints, UNSIGNED for unsigned and pred."""
    et = shape.element_type
    if et.is_floating_point or et.is_complex:
        return ComparisonType.FLOAT
    if et.is_signed_integral:
        return ComparisonType.SIGNED
    return ComparisonType.UNSIGNED


def infer_binary(opcode: Opcode, lhs: Shape, rhs: Shape, broadcast_dimensions: Sequence[int] = ()) -> Shape:
    """The result shape of a binary op (or compare) as XlaBuilder infers it, broadcasting included
    (XLA's InferBinaryOpShape)."""
    for k, s in enumerate((lhs, rhs)):
        if not s.is_array:
            raise ShapeError(f"operand {k} ({('lhs', 'rhs')[k]}) must be an array: found {s}")
    types = BINARY_BY_OPCODE[opcode].types if opcode in BINARY_BY_OPCODE else ANY
    if not types.accepts(lhs.element_type):
        raise ShapeError(f"operand 0 (lhs) must be {types.text}: found {lhs}")
    shape = elementwise_binary(lhs, rhs, broadcast_dimensions)
    if opcode is Op.COMPLEX:
        complex_type = COMPLEX_OF.get((lhs.element_type, rhs.element_type))
        if complex_type is None:
            raise ShapeError(
                f"the operands must be two f32 (giving c64) or two f64 (giving c128): found {lhs} and {rhs}"
            )
        return shape.with_element_type(complex_type)
    if opcode is Op.COMPARE:
        return shape.with_element_type(P.PRED)
    return shape


@shape_rule(*BINARY_BY_OPCODE)
def binary_shape(ctx: ShapeContext) -> Shape:
    """The HLO instruction: its operands have the result's dimensions (no implicit broadcast)."""
    lhs, rhs = array_operand(ctx, 0, "lhs"), array_operand(ctx, 1, "rhs")
    if not dims_compatible(lhs, rhs):
        raise ShapeError(
            f"operand 1 (rhs) must have the dimensions of operand 0 (lhs), as HLO has no implicit "
            f"broadcasting: found {lhs} and {rhs}"
        )
    shape = infer_binary(ctx.opcode, lhs, rhs)
    if ctx.opcode is Op.COMPARE:
        kind = ctx.attr("type") or comparison_type_for(lhs)
        et = rhs.element_type
        allowed = (
            (ComparisonType.FLOAT, ComparisonType.TOTALORDER)
            if et.is_floating_point
            else (comparison_type_for(rhs),)
        )
        if kind not in allowed:
            names = " or ".join(a.value for a in allowed)
            raise ShapeError(
                f"type={kind.value} must be {names} for operands of type {et.text}: found {lhs} and {rhs}"
            )
    return shape


def binary_op(
    op_name: str,
    opcode: Opcode,
    lhs: XlaOp,
    rhs: XlaOp,
    broadcast_dimensions: Sequence[int],
    attrs: dict[str, Any] | None = None,
) -> XlaOp:
    """XlaBuilder::BinaryOp: infer the result with broadcasting, make both operands that shape
    with explicit broadcasts, then add the instruction."""
    builder = builder_of(op_name, lhs, rhs)
    require_ops(builder, op_name, lhs=lhs, rhs=rhs)
    bd = int_tuple(builder, op_name, broadcast_dimensions, "broadcast_dimensions")
    try:
        shape = infer_binary(opcode, lhs.shape, rhs.shape, bd)
    except ShapeError as e:
        raise builder.error(op_name, e.message) from None
    lhs, rhs = broadcast_to_result(op_name, shape, (lhs, rhs), bd)
    return builder.add(op_name, opcode, (lhs, rhs), attrs)


def broadcast_to_result(
    op_name: str, shape: Shape, operands: tuple[XlaOp, ...], broadcast_dimensions: Sequence[int] = ()
) -> tuple[XlaOp, ...]:
    """Each operand broadcast to the dimensions of `shape`: a lower rank first mapped by
    `broadcast_dimensions` (BroadcastInDim), then size-1 dimensions expanded."""
    if any(o.shape.is_unbounded_dynamic for o in operands):
        if any(not dims_compatible(o.shape, shape) or o.shape.rank == 0 for o in operands):
            raise operands[0].builder.error(
                op_name,
                "broadcasting operands with unbounded dimensions is not supported (XLA emits "
                "mhlo.dynamic_broadcast_in_dim, which HLO cannot run): found "
                + ", ".join(str(o.shape) for o in operands),
            )
        return operands
    result = []
    for o in operands:
        if 0 < o.shape.rank < shape.rank:
            sizes = list(shape.dimensions)
            for k, d in enumerate(broadcast_dimensions):
                sizes[d] = o.shape.dimensions[k]
            o = broadcast_in_dim(op_name, o, sizes, broadcast_dimensions)
        if o.shape.dimensions != shape.dimensions:
            o = add_broadcast_sequence(op_name, shape, o)
        result.append(o)
    return tuple(result)


def _binary_builder(row: Binary) -> Callable[..., XlaOp]:
    def binary(lhs: XlaOp, rhs: XlaOp, broadcast_dimensions: Sequence[int] = ()) -> XlaOp:
        return binary_op(row.name, row.opcode, lhs, rhs, broadcast_dimensions)

    binary.__name__ = binary.__qualname__ = row.name
    binary.__doc__ = (
        f"Element-wise `{row.opcode.text}` (page 003, element-wise binary arithmetic operations); "
        "`broadcast_dimensions` maps the lower-rank operand into the other."
    )
    return binary


for _b in BINARY:
    builder_function(_binary_builder(_b))
