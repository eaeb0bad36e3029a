"""ShapeProto / LayoutProto <-> Shape / Layout (xla_data.proto; XLA's Shape(const ShapeProto&)
and Shape::ToProto)."""

from __future__ import annotations

from typing import Any

from ..dtypes import PrimitiveType
from ..errors import HloError
from ..layout import DimLevelType, Layout, SplitConfig, Tile
from ..shape import Shape

_DIM_LEVELS = {
    0: DimLevelType.DENSE,
    1: DimLevelType.COMPRESSED,
    2: DimLevelType.SINGLETON,
    3: DimLevelType.LOOSE_COMPRESSED,
}
_DIM_LEVEL_NUMBERS = {v: k for k, v in _DIM_LEVELS.items()}


def primitive_type(number: int, where: str) -> PrimitiveType:
    try:
        return PrimitiveType(number)
    except ValueError:
        raise HloError(f"{where}: unknown element type number {number}") from None


def shape_from_proto(p: Any, where: str = "shape") -> Shape:
    """The Shape a ShapeProto describes; `where` names the field in errors."""
    et = primitive_type(p.element_type, f"{where}.element_type")
    if et is PrimitiveType.TUPLE:
        return Shape.make_tuple(shape_from_proto(s, f"{where}.tuple_shapes") for s in p.tuple_shapes)
    if et is PrimitiveType.TOKEN:
        return Shape.token()
    if et is PrimitiveType.OPAQUE_TYPE:
        return Shape.opaque()
    if et is PrimitiveType.BUFFER:
        return Shape.buffer(shape_from_proto(p.tuple_shapes[0], f"{where}.tuple_shapes"))
    dims = tuple(p.dimensions)
    dynamic = tuple(p.is_dynamic_dimension)
    layout = layout_from_proto(p.layout, et) if p.HasField("layout") else None
    try:
        return Shape(et, dims, dynamic if any(dynamic) else (), layout)
    except HloError as e:
        raise HloError(f"{where}: {e}") from None


def layout_from_proto(p: Any, et: PrimitiveType | None = None) -> Layout:
    return Layout(
        minor_to_major=tuple(p.minor_to_major),
        tiles=tuple(Tile(tuple(t.dimensions)) for t in p.tiles),
        tail_padding_alignment_in_elements=p.tail_padding_alignment_in_elements or 1,
        index_primitive_type=PrimitiveType(p.index_primitive_type) if p.index_primitive_type else None,
        pointer_primitive_type=PrimitiveType(p.pointer_primitive_type) if p.pointer_primitive_type else None,
        element_size_in_bits=p.element_size_in_bits,
        memory_space=p.memory_space,
        split_configs=tuple(SplitConfig(s.dimension, tuple(s.split_indices)) for s in p.split_configs),
        physical_shape=shape_from_proto(p.physical_shape) if p.HasField("physical_shape") else None,
        dynamic_shape_metadata_prefix_bytes=p.dynamic_shape_metadata_prefix_bytes,
        dim_level_types=tuple(_DIM_LEVELS[d] for d in p.dim_level_types),
        dim_unique=tuple(p.dim_unique),
        dim_ordered=tuple(p.dim_ordered),
    )


def shape_to_proto(shape: Shape, p: Any) -> None:
    """Fill the ShapeProto `p` from `shape`, as Shape::ToProto (is_dynamic_dimension for every
    dimension of an array)."""
    p.element_type = int(shape.element_type)
    if shape.is_tuple:
        for s in shape.tuple_shapes:
            shape_to_proto(s, p.tuple_shapes.add())
        return
    if shape.is_buffer:
        assert shape.buffer_shape is not None
        shape_to_proto(shape.buffer_shape, p.tuple_shapes.add())
        return
    if not shape.is_array:
        return
    p.dimensions.extend(shape.dimensions)
    p.is_dynamic_dimension.extend(shape.dynamic_dimensions or (False,) * len(shape.dimensions))
    if shape.layout is not None:
        layout_to_proto(shape.layout, p.layout)


def layout_to_proto(layout: Layout, p: Any) -> None:
    p.minor_to_major.extend(layout.minor_to_major)
    for t in layout.tiles:
        p.tiles.add().dimensions.extend(t.dimensions)
    p.tail_padding_alignment_in_elements = layout.tail_padding_alignment_in_elements
    if layout.index_primitive_type is not None:
        p.index_primitive_type = int(layout.index_primitive_type)
    if layout.pointer_primitive_type is not None:
        p.pointer_primitive_type = int(layout.pointer_primitive_type)
    p.element_size_in_bits = layout.element_size_in_bits
    p.memory_space = layout.memory_space
    for s in layout.split_configs:
        c = p.split_configs.add()
        c.dimension = s.dimension
        c.split_indices.extend(s.split_indices)
    if layout.physical_shape is not None:
        shape_to_proto(layout.physical_shape, p.physical_shape)
    p.dynamic_shape_metadata_prefix_bytes = layout.dynamic_shape_metadata_prefix_bytes
    p.dim_level_types.extend(_DIM_LEVEL_NUMBERS[d] for d in layout.dim_level_types)
    p.dim_unique.extend(layout.dim_unique)
    p.dim_ordered.extend(layout.dim_ordered)
