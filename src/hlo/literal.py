"""Literals: the values of `constant(...)` and of custom-call `literal=` (XLA's Literal).

A `Literal` is a frozen value: a static array shape with a NumPy array of the element type's
dtype (logical, row-major: `array.shape == shape.dimensions`), a tuple shape with one Literal per
element, or an array shape with no values at all (a constant written `{...}`, "elided").
Equality is bit-for-bit (NaN payloads and -0 count), so `parse(print(x)) == x` is checkable.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from . import dtypes
from .dtypes import PrimitiveType
from .errors import ShapeError
from .layout import Layout
from .shape import DEFAULT_LAYOUT, Shape, as_primitive_type

Value: TypeAlias = "np.ndarray | tuple[Literal, ...] | None"


@dataclass(frozen=True, eq=False)
class Literal:
    shape: Shape
    value: Value = None

    def __post_init__(self) -> None:
        shape, value = self.shape, self.value
        if shape.is_tuple:
            if not isinstance(value, tuple) or not all(isinstance(e, Literal) for e in value):
                raise ShapeError(f"a literal of tuple shape {shape} holds a tuple of literals")
            if tuple(e.shape for e in value) != shape.tuple_shapes:
                got = ", ".join(str(e.shape) for e in value)
                raise ShapeError(f"tuple literal elements of shapes ({got}) do not match {shape}")
            return
        if not shape.is_array:
            raise ShapeError(f"a literal holds array or tuple values, not {shape}")
        if not shape.is_static:
            raise ShapeError(f"a literal's shape is static; {shape} has dynamic dimensions")
        if value is None:
            return
        if not isinstance(value, np.ndarray):
            raise ShapeError(f"the values of a {shape} literal are a NumPy array, not {type(value).__name__}")
        dtype = shape.element_type.numpy_dtype
        if value.dtype != dtype or value.shape != shape.dimensions:
            raise ShapeError(
                f"a {shape} literal holds a {dtype} array of shape {shape.dimensions}, "
                f"not a {value.dtype} array of shape {value.shape}"
            )
        frozen = np.array(value, copy=True, order="C")
        frozen.setflags(write=False)
        object.__setattr__(self, "value", frozen)

    # -- construction -------------------------------------------------------------------
    @staticmethod
    def from_array(
        values: Any,
        element_type: PrimitiveType | str | None = None,
        layout: Layout | None = DEFAULT_LAYOUT,
    ) -> Literal:
        """An array literal from NumPy or Python values. Without `element_type` the NumPy dtype
        decides (Python floats are f64, ints s64); with it, values are converted, and integers
        that do not fit (or floats with a fraction going to an integer type) are refused."""
        source = np.asarray(values)
        if element_type is None:
            ptype = dtypes.from_numpy_dtype(source.dtype)
            array = source
        else:
            ptype = as_primitive_type(element_type)
            array = _convert(source, ptype)
        return Literal(Shape.array(ptype, array.shape, layout), array)

    @staticmethod
    def scalar(value: Any, element_type: PrimitiveType | str | None = None) -> Literal:
        literal = Literal.from_array(value, element_type)
        if literal.shape.dimensions:
            raise ShapeError(f"a scalar literal needs one value, not an array of shape {np.shape(value)}")
        return literal

    @staticmethod
    def make_tuple(elements: Iterable[Literal]) -> Literal:
        items = tuple(elements)
        return Literal(Shape.make_tuple(e.shape for e in items), items)

    @staticmethod
    def elided(shape: Shape) -> Literal:
        """A constant whose values were not written (`{...}`)."""
        return Literal(shape, None)

    # -- access ---------------------------------------------------------------------------
    @property
    def element_type(self) -> PrimitiveType:
        return self.shape.element_type

    @property
    def is_tuple(self) -> bool:
        return self.shape.is_tuple

    @property
    def is_elided(self) -> bool:
        return self.value is None

    @property
    def elements(self) -> tuple[Literal, ...]:
        if not isinstance(self.value, tuple):
            raise ShapeError(f"a literal of shape {self.shape} has no tuple elements")
        return self.value

    @property
    def array(self) -> np.ndarray:
        """The values (read-only); a ShapeError for tuple and elided literals."""
        if not isinstance(self.value, np.ndarray):
            what = "elided" if self.value is None else "a tuple"
            raise ShapeError(f"the literal of shape {self.shape} is {what}: it has no array of values")
        return self.value

    def to_numpy(self) -> Any:
        """The values: an array, or for a tuple literal a tuple of them (nested as the shape)."""
        if self.is_tuple:
            return tuple(e.to_numpy() for e in self.elements)
        return self.array

    def __getitem__(self, index: Any) -> Any:
        """A tuple element (a Literal), or array elements as NumPy indexes them."""
        if self.is_tuple:
            return self.elements[index]
        return self.array[index]

    # -- value semantics ------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Literal):
            return NotImplemented
        if self.shape != other.shape:
            return False
        a, b = self.value, other.value
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            return a.tobytes() == b.tobytes()
        return a == b if isinstance(a, tuple) else a is b

    def __hash__(self) -> int:
        value = self.value
        key = value.tobytes() if isinstance(value, np.ndarray) else value
        return hash((self.shape, key))

    def __str__(self) -> str:
        from .value_text.literal import print_literal

        return print_literal(self, with_shape=True)

    def __repr__(self) -> str:
        from .value_text.literal import print_constant_operand

        return f"Literal({self.shape}, {print_constant_operand(self, print_large_constants=False)})"


def _convert(source: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    """`source` as `ptype`'s dtype, refusing conversions that would change integer values."""
    dtype = ptype.numpy_dtype
    if source.dtype == dtype:
        return source
    kind = source.dtype.kind
    if kind not in "biufc":
        raise ShapeError(f"cannot make a {ptype.text} literal from {source.dtype} values")
    if ptype.is_complex or ptype.is_floating_point:
        if kind == "c" and not ptype.is_complex:
            raise ShapeError(f"cannot make a {ptype.text} literal from complex values")
        with np.errstate(all="ignore"):
            return source.astype(dtype)
    if kind in "fc" and not (np.isfinite(source).all() and (source == np.round(source.real)).all()):
        raise ShapeError(f"a {ptype.text} literal holds integers, not fractions or non-finite values")
    lo, hi = (0, 1) if ptype is PrimitiveType.PRED else _int_range(ptype)
    if source.size:
        values = source.real if kind == "c" else source
        low, high = values.min(), values.max()
        if low < lo or high > hi:
            raise ShapeError(f"values [{low}, {high}] do not fit a {ptype.text} literal, namely [{lo}, {hi}]")
    return source.real.astype(dtype) if kind == "c" else source.astype(dtype)


def _int_range(ptype: PrimitiveType) -> tuple[int, int]:
    bits = ptype.bit_width
    if ptype.is_unsigned_integral:
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
