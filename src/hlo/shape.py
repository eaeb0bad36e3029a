"""Shapes (spec pages 000-002; XLA's shape.h): arrays with static, bounded (`<=n`) or unbounded
(`?`) dimensions and an optional layout, tuples (nested, empty), token, opaque and buffer.

A `Shape` is a frozen value checked when it is made, so an invalid shape cannot exist. Equality
(`==`) compares everything, layout included; `equal(..., ignore_layout=True)` and `compatible`
give XLA's looser comparisons.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import dtypes
from .dtypes import PrimitiveType
from .errors import ShapeError
from .layout import Layout, default_layout, validate_layout

UNBOUNDED = -(2**63)
"""XLA's Shape::kUnboundedSize: the size of an unbounded dynamic dimension, printed `?`."""


class _Default:
    def __repr__(self) -> str:
        return "DEFAULT_LAYOUT"


DEFAULT_LAYOUT: Any = _Default()
"""Ask for XLA's default (major-to-minor) layout when making a shape."""


def as_primitive_type(element_type: PrimitiveType | str) -> PrimitiveType:
    if isinstance(element_type, PrimitiveType):
        return element_type
    ptype = dtypes.from_text(element_type)
    if ptype is None:
        raise ShapeError(f"unknown element type {element_type!r}")
    return ptype


@dataclass(frozen=True)
class Shape:
    element_type: PrimitiveType
    dimensions: tuple[int, ...] = ()
    dynamic_dimensions: tuple[bool, ...] = ()
    layout: Layout | None = None
    tuple_shapes: tuple[Shape, ...] = ()
    buffer_shape: Shape | None = None

    def __post_init__(self) -> None:
        et = self.element_type
        if et is PrimitiveType.TUPLE:
            if self.dimensions or self.layout is not None or self.buffer_shape is not None:
                raise ShapeError("a tuple shape has no dimensions, layout or buffer")
            return
        if self.tuple_shapes:
            raise ShapeError(f"a {et.text} shape has no tuple elements")
        if et is PrimitiveType.BUFFER:
            if self.buffer_shape is None or not self.buffer_shape.is_array:
                raise ShapeError("a buffer shape holds exactly one array shape")
            return
        if not et.is_array_type:
            if self.dimensions or self.layout is not None:
                raise ShapeError(f"a {et.text} shape has no dimensions or layout")
            return
        dims = tuple(int(d) for d in self.dimensions)
        dynamic = tuple(bool(x) for x in self.dynamic_dimensions) or tuple(d == UNBOUNDED for d in dims)
        object.__setattr__(self, "dimensions", dims)
        object.__setattr__(self, "dynamic_dimensions", dynamic)
        if len(dynamic) != len(dims):
            raise ShapeError(
                f"{len(dynamic)} dynamic-dimension flags for the {len(dims)} dimensions of a shape"
            )
        for i, (d, dyn) in enumerate(zip(dims, dynamic)):
            if d < 0 and not (d == UNBOUNDED and dyn):
                raise ShapeError(f"dimension {i} of a {et.text} shape has invalid size {d}")
        if self.layout is not None:
            validate_layout(self.layout, dims, f"{et.text}[{','.join(map(str, dims))}]")

    # -- construction ---------------------------------------------------------------------
    @staticmethod
    def array(
        element_type: PrimitiveType | str,
        dimensions: Iterable[int] = (),
        layout: Layout | None = DEFAULT_LAYOUT,
        dynamic_dimensions: Sequence[bool] = (),
    ) -> Shape:
        """An array shape; by default with XLA's default layout, as ShapeUtil::MakeShape."""
        dims = tuple(dimensions)
        et = as_primitive_type(element_type)
        if not et.is_array_type:
            raise ShapeError(f"{et.text} is not an array element type")
        if layout is DEFAULT_LAYOUT:
            layout = default_layout(len(dims))
        return Shape(et, dims, tuple(dynamic_dimensions), layout)

    @staticmethod
    def scalar(element_type: PrimitiveType | str) -> Shape:
        return Shape.array(element_type, ())

    @staticmethod
    def make_tuple(shapes: Iterable[Shape]) -> Shape:
        return Shape(PrimitiveType.TUPLE, tuple_shapes=tuple(shapes))

    @staticmethod
    def token() -> Shape:
        return Shape(PrimitiveType.TOKEN)

    @staticmethod
    def opaque() -> Shape:
        return Shape(PrimitiveType.OPAQUE_TYPE)

    @staticmethod
    def buffer(shape: Shape) -> Shape:
        return Shape(PrimitiveType.BUFFER, buffer_shape=shape)

    def replace(self, **changes: Any) -> Shape:
        return replace(self, **changes)

    # -- kind -----------------------------------------------------------------------------
    @property
    def is_array(self) -> bool:
        return self.element_type.is_array_type

    @property
    def is_tuple(self) -> bool:
        return self.element_type is PrimitiveType.TUPLE

    @property
    def is_token(self) -> bool:
        return self.element_type is PrimitiveType.TOKEN

    @property
    def is_opaque(self) -> bool:
        return self.element_type is PrimitiveType.OPAQUE_TYPE

    @property
    def is_buffer(self) -> bool:
        return self.element_type is PrimitiveType.BUFFER

    @property
    def is_scalar(self) -> bool:
        return self.is_array and not self.dimensions

    @property
    def is_empty_tuple(self) -> bool:
        return self.is_tuple and not self.tuple_shapes

    @property
    def is_nested_tuple(self) -> bool:
        return self.is_tuple and any(s.is_tuple for s in self.tuple_shapes)

    # -- dimensions -----------------------------------------------------------------------
    def _require_array(self, what: str) -> None:
        if not self.is_array:
            raise ShapeError(f"{what} needs an array shape, not {self}")

    @property
    def rank(self) -> int:
        """The number of dimensions (XLA's dimensions_size)."""
        self._require_array("rank")
        return len(self.dimensions)

    @property
    def true_rank(self) -> int:
        """The number of dimensions of size other than 1 (XLA's TrueNumDimensions)."""
        self._require_array("true rank")
        return sum(1 for d in self.dimensions if d != 1)

    @property
    def element_count(self) -> int:
        """Elements of the array, dynamic dimensions at their bound (XLA's ElementsIn)."""
        self._require_array("element count")
        if UNBOUNDED in self.dimensions:
            raise ShapeError(f"{self} has an unbounded dimension: its element count is unknown")
        return math.prod(self.dimensions)

    @property
    def is_zero_element(self) -> bool:
        return self.is_array and 0 in self.dimensions

    @property
    def is_static(self) -> bool:
        if self.is_tuple:
            return all(s.is_static for s in self.tuple_shapes)
        return not any(self.dynamic_dimensions)

    @property
    def is_unbounded_dynamic(self) -> bool:
        if self.is_tuple:
            return any(s.is_unbounded_dynamic for s in self.tuple_shapes)
        return UNBOUNDED in self.dimensions

    def dimension_number(self, dim: int) -> int:
        """`dim` with Python-style negative numbering resolved (-1 is the last dimension)."""
        rank = self.rank
        if not -rank <= dim < rank:
            raise ShapeError(f"dimension {dim} is out of range for {self} of rank {rank}")
        return dim + rank if dim < 0 else dim

    def dimension(self, dim: int) -> int:
        return self.dimensions[self.dimension_number(dim)]

    def is_dynamic_dimension(self, dim: int) -> bool:
        return self.dynamic_dimensions[self.dimension_number(dim)]

    def is_unbounded_dynamic_dimension(self, dim: int) -> bool:
        return self.dimensions[self.dimension_number(dim)] == UNBOUNDED

    # -- layout ---------------------------------------------------------------------------
    def with_layout(self, layout: Layout | None) -> Shape:
        self._require_array("with_layout")
        return replace(self, layout=layout)

    def with_default_layout(self) -> Shape:
        """Every array inside gets the default layout (XLA's SetToDefaultLayout)."""
        if self.is_tuple:
            return Shape.make_tuple(s.with_default_layout() for s in self.tuple_shapes)
        if self.is_buffer and self.buffer_shape is not None:
            return Shape.buffer(self.buffer_shape.with_default_layout())
        if not self.is_array:
            return self
        return replace(self, layout=default_layout(len(self.dimensions)))

    def without_layout(self) -> Shape:
        if self.is_tuple:
            return Shape.make_tuple(s.without_layout() for s in self.tuple_shapes)
        if self.is_buffer and self.buffer_shape is not None:
            return Shape.buffer(self.buffer_shape.without_layout())
        return replace(self, layout=None) if self.is_array else self

    def with_element_type(self, element_type: PrimitiveType | str) -> Shape:
        """The shape with another element type (of every array in a tuple); `E(n)` is kept only
        for sub-byte types, as XLA's ShapeUtil::ChangeElementType."""
        et = as_primitive_type(element_type)
        if self.is_tuple:
            return Shape.make_tuple(s.with_element_type(et) for s in self.tuple_shapes)
        self._require_array("with_element_type")
        layout = self.layout
        if layout is not None and not et.is_sub_byte and layout.element_size_in_bits:
            layout = layout.replace(element_size_in_bits=0)
        return replace(self, element_type=et, layout=layout)

    # -- comparison -----------------------------------------------------------------------
    def equal(
        self,
        other: Shape,
        *,
        ignore_layout: bool = False,
        ignore_dynamic_dimensions: bool = False,
        ignore_element_type: bool = False,
        ignore_fp_precision: bool = False,
    ) -> bool:
        """XLA's Shape::Equal with its Ignore* options."""
        if self.is_tuple or other.is_tuple:
            return (
                self.is_tuple
                and other.is_tuple
                and len(self.tuple_shapes) == len(other.tuple_shapes)
                and all(
                    a.equal(
                        b,
                        ignore_layout=ignore_layout,
                        ignore_dynamic_dimensions=ignore_dynamic_dimensions,
                        ignore_element_type=ignore_element_type,
                        ignore_fp_precision=ignore_fp_precision,
                    )
                    for a, b in zip(self.tuple_shapes, other.tuple_shapes)
                )
            )
        if self.is_buffer or other.is_buffer:
            if not (self.is_buffer and other.is_buffer):
                return False
            assert self.buffer_shape is not None and other.buffer_shape is not None
            return self.buffer_shape.equal(other.buffer_shape, ignore_layout=ignore_layout)
        a, b = self.element_type, other.element_type
        if not ignore_element_type:
            if ignore_fp_precision and a.is_floating_point and b.is_floating_point:
                pass
            elif a is not b:
                return False
        elif self.is_array != other.is_array:
            return False
        if not self.is_array:
            return a is b or ignore_element_type
        if len(self.dimensions) != len(other.dimensions):
            return False
        if ignore_dynamic_dimensions:
            for x, y in zip(self.dimensions, other.dimensions):
                if x != y and UNBOUNDED not in (x, y):
                    return False
        elif self.dimensions != other.dimensions or self.dynamic_dimensions != other.dynamic_dimensions:
            return False
        return ignore_layout or self.layout == other.layout

    def compatible(self, other: Shape) -> bool:
        """XLA's ShapeUtil::Compatible: equal ignoring layout and dynamic dimensions."""
        return self.equal(other, ignore_layout=True, ignore_dynamic_dimensions=True)

    # -- structure ------------------------------------------------------------------------
    def subshape(self, index: Sequence[int]) -> Shape:
        """The shape at a ShapeIndex (a path of tuple element numbers)."""
        shape = self
        for i in index:
            if not shape.is_tuple or not 0 <= i < len(shape.tuple_shapes):
                raise ShapeError(f"shape index {{{','.join(map(str, index))}}} is invalid in {self}")
            shape = shape.tuple_shapes[i]
        return shape

    def leaves(self, prefix: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Shape]]:
        """(index, shape) of every non-tuple subshape, depth first."""
        if self.is_tuple:
            for i, s in enumerate(self.tuple_shapes):
                yield from s.leaves(prefix + (i,))
        else:
            yield prefix, self

    # -- text -----------------------------------------------------------------------------
    def to_string(self, print_layout: bool = True) -> str:
        """The shape as XLA prints it (remembered: printers ask for the same shapes again)."""
        key = "_text_with_layout" if print_layout else "_text"
        text = self.__dict__.get(key)
        if text is None:
            from .value_text.shape import print_shape

            text = print_shape(self, print_layout)
            object.__setattr__(self, key, text)  # a cache, not a field: equality ignores it
        return text

    def __str__(self) -> str:
        return self.to_string()
