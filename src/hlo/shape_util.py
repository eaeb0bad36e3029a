"""Shape manipulations with layouts, after XLA's ShapeUtil: inserting, deleting and moving
dimensions, and whether a reshape or transpose leaves physical memory unchanged (a bitcast)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .errors import ShapeError
from .layout import Layout, default_layout
from .physical_bytes import physical_positions
from .shape import Shape


def _layout(shape: Shape) -> Layout:
    return shape.layout if shape.layout is not None else default_layout(len(shape.dimensions))


def move_dim_to_major(shape: Shape, dim: int) -> Shape:
    """`dim` becomes the most major dimension (of every array in a tuple), others keep order."""
    if shape.is_tuple:
        return Shape.make_tuple(move_dim_to_major(s, dim) for s in shape.tuple_shapes)
    return shape.with_layout(Layout(_layout(shape).move_dim_to_major(dim).minor_to_major))


def delete_dimensions(shape: Shape, dims: Sequence[int]) -> Shape:
    """Drop the given logical dimensions (in any order) and their places in the layout."""
    result = shape
    for d in sorted(set(dims), reverse=True):
        layout = result.layout.delete_dimension(d) if result.layout is not None else None
        keep = [i for i in range(result.rank) if i != d]
        result = Shape(
            result.element_type,
            tuple(result.dimensions[i] for i in keep),
            tuple(result.dynamic_dimensions[i] for i in keep),
            layout,
        )
    return result


def insert_dimension_at_index(shape: Shape, index: int, bound: int) -> Shape:
    """A new logical dimension at `index`; in the layout it sits just more major than the
    dimension that was at `index` (the most minor place when appended at the end)."""
    if not 0 <= index <= shape.rank:
        raise ShapeError(f"cannot insert a dimension at {index} in {shape}")
    dims = shape.dimensions[:index] + (bound,) + shape.dimensions[index:]
    dynamic = shape.dynamic_dimensions[:index] + (False,) + shape.dynamic_dimensions[index:]
    layout = None
    if shape.layout is not None:
        m2m = [d + (d >= index) for d in shape.layout.minor_to_major]
        if index == shape.rank:
            m2m.insert(0, index)
        else:
            m2m.insert(m2m.index(index + 1) + 1, index)
        layout = shape.layout.replace(minor_to_major=tuple(m2m))
    return Shape(shape.element_type, dims, dynamic, layout)


def insert_dimensions_at_index(shape: Shape, index: int, bounds: Sequence[int]) -> Shape:
    for k, bound in enumerate(bounds):
        shape = insert_dimension_at_index(shape, index + k, bound)
    return shape


def prepend_major_dimension(shape: Shape, bound: int) -> Shape:
    layout = None
    if shape.layout is not None:
        layout = Layout(tuple(d + 1 for d in shape.layout.minor_to_major) + (0,))
    return Shape(shape.element_type, (bound, *shape.dimensions), (False, *shape.dynamic_dimensions), layout)


def append_minor_dimension(shape: Shape, bound: int) -> Shape:
    layout = None
    if shape.layout is not None:
        layout = Layout((shape.rank, *shape.layout.minor_to_major))
    return Shape(shape.element_type, (*shape.dimensions, bound), (*shape.dynamic_dimensions, False), layout)


def permute_dimensions(permutation: Sequence[int], shape: Shape) -> Shape:
    """Dimension i of the result is dimension permutation[i] of `shape`; default layout."""
    return Shape.array(
        shape.element_type,
        [shape.dimensions[p] for p in permutation],
        dynamic_dimensions=[shape.dynamic_dimensions[p] for p in permutation],
    )


def descending_layout_with_same_physical_layout(shape: Shape) -> Shape:
    """The dimensions reordered major to minor, so the default layout describes the same memory
    (XLA's MakeShapeWithDescendingLayoutAndSamePhysicalLayout)."""
    layout = _layout(shape)
    order = layout.major_to_minor
    new_layout = default_layout(shape.rank).replace(
        tiles=layout.tiles,
        element_size_in_bits=layout.element_size_in_bits,
        tail_padding_alignment_in_elements=layout.tail_padding_alignment_in_elements,
        memory_space=layout.memory_space,
    )
    return Shape(
        shape.element_type,
        tuple(shape.dimensions[d] for d in order),
        tuple(shape.dynamic_dimensions[d] for d in order),
        new_layout,
    )


def has_degenerate_dimensions(shape: Shape) -> bool:
    return 1 in shape.dimensions


def is_effectively_most_major_dimension(shape: Shape, dim: int) -> bool:
    """`dim` is the most major dimension once size-1 dimensions are ignored."""
    layout = _layout(shape)
    for major in layout.major_to_minor:
        if major == dim:
            return True
        if shape.dimensions[major] != 1:
            return False
    return False


def common_factors(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int]]:
    """XLA's CommonFactors: bounds (i, j) with prod(a[:i]) == prod(b[:j]) splitting both into
    the finest groups of equal products."""
    if list(a) == list(b):
        return [(i, i) for i in range(len(a) + 1)]
    bounds: list[tuple[int, int]] = []
    i = j = 0
    prior = (-1, -1)
    pa = pb = 1
    while True:
        if pa == pb and (i > prior[0] or j > prior[1]):
            prior = (i, j)
            bounds.append(prior)
            continue
        in_a, in_b = i < len(a), j < len(b)
        if not (in_a or in_b):
            break
        next_a = pa < pb or (in_a and (not in_b or (pa == pb and a[i] <= b[j])))
        next_b = pb < pa or (in_b and (not in_a or (pa == pb and b[j] <= a[i])))
        if not (next_a or next_b):
            break  # zero-size dimensions: no finer factoring
        if next_a:
            pa *= a[i]
            i += 1
        if next_b:
            pb *= b[j]
            j += 1
    if bounds[-1] != (len(a), len(b)):
        bounds.append((len(a), len(b)))
    return bounds


def dimensions_unmodified_by_reshape(input_shape: Shape, output_shape: Shape) -> list[tuple[int, int]]:
    """(input dim, output dim) pairs a reshape passes through unchanged."""
    bounds = common_factors(input_shape.dimensions, output_shape.dimensions)
    return [(i0, j0) for (i0, j0), (i1, j1) in zip(bounds, bounds[1:]) if i1 - i0 == 1 and j1 - j0 == 1]


def _same_elements(a: Shape, b: Shape, ignore_element_type: bool) -> bool:
    if not ignore_element_type and a.element_type is not b.element_type:
        return False
    return a.element_count == b.element_count


def reshape_is_bitcast(input_shape: Shape, output_shape: Shape, ignore_element_type: bool = False) -> bool:
    """Whether reshaping `input_shape` to `output_shape` keeps every element at its place in
    memory (the logical reshape is row-major)."""
    if not _same_elements(input_shape, output_shape, ignore_element_type):
        return False
    if input_shape.element_count == 0:
        return True
    return bool(
        np.array_equal(
            physical_positions(input_shape).reshape(-1), physical_positions(output_shape).reshape(-1)
        )
    )


def transpose_is_bitcast(
    input_shape: Shape, output_shape: Shape, permutation: Sequence[int], ignore_element_type: bool = False
) -> bool:
    """Whether transposing (output dim i is input dim permutation[i]) keeps memory unchanged."""
    if not _same_elements(input_shape, output_shape, ignore_element_type):
        return False
    if tuple(output_shape.dimensions) != tuple(input_shape.dimensions[p] for p in permutation):
        return False
    if input_shape.element_count == 0:
        return True
    moved = physical_positions(input_shape).transpose(list(permutation))
    return bool(np.array_equal(moved, physical_positions(output_shape)))


def deduce_transpose_dimensions_for_bitcast(
    input_shape: Shape, output_shape: Shape, ignore_element_type: bool = False
) -> list[int] | None:
    """The permutation under which transposing input to output is a bitcast, if one exists."""
    if input_shape.rank != output_shape.rank:
        return None
    perm = [0] * input_shape.rank
    for k in range(input_shape.rank):
        perm[_layout(output_shape).major(k)] = _layout(input_shape).major(k)
    if not transpose_is_bitcast(input_shape, output_shape, perm, ignore_element_type):
        return None
    return perm


def is_reshape_or_transpose_bitcast(a: Shape, b: Shape, ignore_element_type: bool = False) -> bool:
    if reshape_is_bitcast(a, b, ignore_element_type):
        return True
    return deduce_transpose_dimensions_for_bitcast(a, b, ignore_element_type) is not None
