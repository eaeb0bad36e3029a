"""What CHLO's special functions are expanded with: `Expr`, elementwise HLO over one shape, and
`upcast`, the handler that computes narrow float types in f32 as XLA's CHLO legalization does.

The expansions themselves follow XLA's legalization operation for operation (the order decides
the roundings), one family per module: chlo_erf.py (erf_inv, erfc), chlo_gamma.py (lgamma,
digamma, zeta, polygamma), chlo_misc.py (bessel_i1e, next_after)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.attrs import ComparisonDirection as Dir
from ..ir.opcode import Opcode
from ..literal import Literal
from ..shape import Shape
from .computation_converter import ComputationConverter
from .ops_table import Handler
from .syntax import Op

Op_ = Opcode


class Expr:
    """Elementwise HLO over one array shape, emitted into a computation."""

    def __init__(self, cc: ComputationConverter, shape: Shape, pos: int) -> None:
        self.cc, self.shape, self.pos = cc, shape, pos
        self.pred = Shape.array(PrimitiveType.PRED, shape.dimensions)
        self.constants: dict[bytes, str] = {}

    @property
    def f64(self) -> bool:
        return self.shape.element_type is PrimitiveType.F64

    def const(self, value: float) -> str:
        """A splat of `value` (one per distinct value: XLA's conversion folds duplicates)."""
        key = np.array(value, dtype=self.shape.element_type.numpy_dtype).tobytes()  # NaN, -0 too
        if key not in self.constants:
            self.constants[key] = self.splat(value, self.shape)
        return self.constants[key]

    def splat(self, value: float | int, shape: Shape) -> str:
        scalar = Shape.array(shape.element_type, ())
        literal = Literal(scalar, np.array(value, dtype=shape.element_type.numpy_dtype))
        c = self.cc.emit(Op_.CONSTANT, (), scalar, {"literal": literal}, self.pos)
        if not shape.dimensions:
            return c
        return self.cc.emit(Op_.BROADCAST, (c,), shape, {"dimensions": ()}, self.pos)

    def op(self, opcode: Opcode, *xs: str) -> str:
        return self.cc.emit(opcode, xs, self.shape, None, self.pos)

    def add(self, a: str, b: str) -> str:
        return self.op(Op_.ADD, a, b)

    def sub(self, a: str, b: str) -> str:
        return self.op(Op_.SUBTRACT, a, b)

    def mul(self, a: str, b: str) -> str:
        return self.op(Op_.MULTIPLY, a, b)

    def div(self, a: str, b: str) -> str:
        return self.op(Op_.DIVIDE, a, b)

    def cmp(self, direction: Dir, a: str, b: str) -> str:
        return self.cc.emit(Op_.COMPARE, (a, b), self.pred, {"direction": direction}, self.pos)

    def both(self, opcode: Opcode, a: str, b: str) -> str:
        """A logical and/or of two predicates."""
        return self.cc.emit(opcode, (a, b), self.pred, None, self.pos)

    def select(self, p: str, a: str, b: str) -> str:
        return self.cc.emit(Op_.SELECT, (p, a, b), self.shape, None, self.pos)

    def poly(self, x: str, coefficients: tuple[float, ...]) -> str:
        """Horner's rule, highest coefficient first: ((c0 x + c1) x + c2) ..."""
        p = self.const(coefficients[0])
        for c in coefficients[1:]:
            p = self.add(self.mul(p, x), self.const(c))
        return p


def upcast(fn: Callable[..., str]) -> Handler:
    """Run `fn(expr, *operands)` in f32 for narrower float types (converting in and out), as
    XLA does."""

    def handler(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
        shape = op.result_types[0]
        xs = list(ins)
        narrow = shape.element_type.bit_width < 32
        if narrow:
            shape = Shape.array(PrimitiveType.F32, shape.dimensions)
            xs = [cc.emit(Op_.CONVERT, (x,), shape, None, op.pos) for x in xs]
        out = fn(Expr(cc, shape, op.pos), *xs)
        if narrow:
            out = cc.emit(Op_.CONVERT, (out,), op.result_types[0], None, op.pos)
        return [out]

    return handler


def by_width(f32: Callable[..., str], f64: Callable[..., str]) -> Callable[..., str]:
    """The f64 formula for f64, the single-precision one otherwise (XLA keeps two sets of
    coefficients for some functions)."""

    def fn(e: Expr, *xs: str) -> str:
        return (f64 if e.f64 else f32)(e, *xs)

    return fn
