"""Properties of physical memory over random shapes, element types, layouts and tilings."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlo import (
    COMBINE_DIMENSION,
    Layout,
    Shape,
    Tile,
    from_physical,
    linear_index,
    memory,
    parse_shape,
    physical_bytes,
    to_physical,
)
from hlo.dtypes import array_types

TYPES = [t for t in array_types()]


@st.composite
def shapes(draw: st.DrawFn) -> Shape:
    et = draw(st.sampled_from(TYPES))
    rank = draw(st.integers(0, 4))
    dims = tuple(draw(st.lists(st.integers(0, 6), min_size=rank, max_size=rank)))
    m2m = tuple(draw(st.permutations(range(rank))))
    tiles = []
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(1, 3))
        sizes = draw(st.lists(st.integers(1, 4), min_size=k, max_size=k))
        if k > 1 and draw(st.booleans()):
            sizes[draw(st.integers(0, k - 2))] = COMBINE_DIMENSION  # never the last entry
        tiles.append(Tile(tuple(sizes)))
    bits = 0
    if draw(st.booleans()):
        bits = draw(st.sampled_from([b for b in (1, 2, 4, 6, 8, 16, 32, 64, 128) if b >= et.bit_width]))
    align = draw(st.sampled_from([1, 1, 3, 8]))
    padded = ()
    if not tiles and draw(st.integers(0, 4)) == 0:
        padded = tuple(d + draw(st.integers(0, 2)) for d in dims)
    layout = Layout(m2m, tuple(tiles), align, element_size_in_bits=bits, padded_dimensions=padded)
    return Shape.array(et, dims, layout)


def random_values(shape: Shape, seed: int) -> np.ndarray:
    """Random bit patterns that round-trip through the type (no NaN payload or -0 issues)."""
    dtype = shape.element_type.numpy_dtype
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, size=shape.element_count * dtype.itemsize, dtype=np.uint8)
    values = raw.view(dtype).reshape(shape.dimensions)
    # Canonicalise through a float32 round trip where the type is a float (drops odd encodings).
    if shape.element_type.is_floating_point:
        with np.errstate(over="ignore", invalid="ignore"):  # random bits: inf/NaN are expected
            values = np.nan_to_num(values.astype(np.float32), nan=1.0, posinf=1.0, neginf=-1.0).astype(dtype)
    elif shape.element_type.bit_width < 8 and shape.element_type.is_integral:
        values = (raw % (1 << shape.element_type.bit_width)).astype(np.int64)
        if shape.element_type.is_signed_integral:
            values -= (values >= 1 << (shape.element_type.bit_width - 1)) * (
                1 << shape.element_type.bit_width
            )
        values = values.astype(dtype).reshape(shape.dimensions)
    elif shape.element_type.name == "PRED":
        values = (raw % 2).astype(bool).reshape(shape.dimensions)
    return values


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(shapes(), st.integers(0, 2**31))
def test_from_physical_inverts_to_physical(shape, seed):
    values = random_values(shape, seed)
    data = to_physical(values, shape)
    assert len(data) == memory.byte_size(shape)
    back = from_physical(data, shape)
    assert back.dtype == values.dtype and back.shape == values.shape
    assert back.tobytes() == values.tobytes()


@SETTINGS
@given(shapes())
def test_linear_index_is_injective_inside_the_buffer_and_agrees_with_arrays(shape):
    positions = physical_bytes.physical_positions(shape)
    flat = positions.reshape(-1)
    assert len(set(flat.tolist())) == flat.size
    assert flat.size == 0 or (flat.min() >= 0 and flat.max() < memory.physical_element_count(shape))
    for index in list(np.ndindex(*shape.dimensions))[:50]:
        assert linear_index(shape, index) == positions[index]
        assert memory.multi_index(shape, positions[index]) == index


@SETTINGS
@given(shapes())
def test_byte_size_matches_xla_array_size_when_tiles_nest_evenly(shape):
    layout = shape.layout
    size = memory.byte_size(shape)
    if (
        layout.tiles
        and not layout.padded_dimensions
        and all(COMBINE_DIMENSION not in t.dimensions for t in layout.tiles)
    ):
        plan = memory.plan(shape)
        first = plan.steps[0]
        if math.prod(plan.final_dims) == math.prod(first.after):  # later tiles add no padding
            assert size == xla_array_size(shape)
    if shape.element_count:
        largest = int(physical_bytes.physical_positions(shape).max()) + 1
        bits = layout.element_size_in_bits or shape.element_type.byte_width * 8
        assert size * 8 >= largest * bits


def xla_array_size(shape: Shape) -> int:
    """ShapeUtil::ArraySize's arithmetic: only the first tile pads; then L(n); then E(n)."""
    layout = shape.layout
    tile = layout.tiles[0].dimensions
    n = 1
    for k in range(max(len(tile), shape.rank)):
        size = shape.dimensions[layout.minor_to_major[k]] if k < shape.rank else 1
        if k < len(tile):
            t = tile[len(tile) - 1 - k]
            size = -(-size // t) * t
        n *= size
    align = layout.tail_padding_alignment_in_elements
    n = -(-n // align) * align
    bits = layout.element_size_in_bits
    return -(-n * bits // 8) if bits else n * shape.element_type.byte_width


@SETTINGS
@given(shapes())
def test_parse_of_print_is_identity(shape):
    if shape.layout.padded_dimensions:  # legacy padding has no text form
        shape = shape.with_layout(shape.layout.replace(padded_dimensions=()))
    assert parse_shape(str(shape)) == shape


@SETTINGS
@given(st.recursive(shapes(), lambda inner: st.lists(inner, max_size=6).map(Shape.make_tuple), max_leaves=8))
def test_tuples_print_and_parse(shape):
    def strip(s: Shape) -> Shape:
        if s.is_tuple:
            return Shape.make_tuple(strip(x) for x in s.tuple_shapes)
        return s.with_layout(s.layout.replace(padded_dimensions=()))

    shape = strip(shape)
    assert parse_shape(str(shape)) == shape
