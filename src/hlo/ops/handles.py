"""The handles the builder API passes around: an XlaOp is a value being built (its builder, its
instruction's name and shape), an XlaComputation a finished computation (a module whose entry it
is). The builder functions of the op families take and return them; hlo.builder.XlaBuilder
makes them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..ir.computation import Computation
from ..ir.module import Module
from ..shape import Shape

if TYPE_CHECKING:
    from ..builder import XlaBuilder


@dataclass(frozen=True, eq=False)
class XlaOp:
    """A value being built: the builder it belongs to, its instruction's name and shape."""

    builder: XlaBuilder
    name: str
    shape: Shape

    def __repr__(self) -> str:
        return f"XlaOp({self.name}: {self.shape})"

    # Operators, as the C++ builder's overloads; scalars become constants of the op's type.
    def _binary(self, other: Any, fn_name: str, reverse: bool = False) -> XlaOp:
        from .. import ops

        other_op = (
            other
            if isinstance(other, XlaOp)
            else ops.ConstantR0(self.builder, other, self.shape.element_type)
        )
        fn = getattr(ops, fn_name)
        return fn(other_op, self) if reverse else fn(self, other_op)

    def __add__(self, other: Any) -> XlaOp:
        return self._binary(other, "Add")

    def __radd__(self, other: Any) -> XlaOp:
        return self._binary(other, "Add", reverse=True)

    def __sub__(self, other: Any) -> XlaOp:
        return self._binary(other, "Sub")

    def __rsub__(self, other: Any) -> XlaOp:
        return self._binary(other, "Sub", reverse=True)

    def __mul__(self, other: Any) -> XlaOp:
        return self._binary(other, "Mul")

    def __rmul__(self, other: Any) -> XlaOp:
        return self._binary(other, "Mul", reverse=True)

    def __truediv__(self, other: Any) -> XlaOp:
        return self._binary(other, "Div")

    def __rtruediv__(self, other: Any) -> XlaOp:
        return self._binary(other, "Div", reverse=True)

    def __mod__(self, other: Any) -> XlaOp:
        return self._binary(other, "Rem")

    def __pow__(self, other: Any) -> XlaOp:
        return self._binary(other, "Pow")

    def __matmul__(self, other: XlaOp) -> XlaOp:
        from .. import ops

        return ops.Dot(self, other)  # type: ignore[no-any-return]

    def __and__(self, other: Any) -> XlaOp:
        return self._binary(other, "And")

    def __or__(self, other: Any) -> XlaOp:
        return self._binary(other, "Or")

    def __xor__(self, other: Any) -> XlaOp:
        return self._binary(other, "Xor")

    def __lshift__(self, other: Any) -> XlaOp:
        return self._binary(other, "ShiftLeft")

    def __neg__(self) -> XlaOp:
        from .. import ops

        return ops.Neg(self)  # type: ignore[no-any-return]

    def __invert__(self) -> XlaOp:
        from .. import ops

        return ops.Not(self)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class XlaComputation:
    """A built computation: an HLO module whose entry is the computation."""

    module: Module

    @property
    def name(self) -> str:
        return self.module.entry_name

    @property
    def computation(self) -> Computation:
        return self.module.entry

    @property
    def parameter_shapes(self) -> tuple[Shape, ...]:
        return self.module.entry.parameter_shapes

    @property
    def result_shape(self) -> Shape:
        return self.module.entry.result_shape

    def to_text(self, form: str = "long") -> str:
        return self.module.to_text(form)

    def __str__(self) -> str:
        return self.to_text()
