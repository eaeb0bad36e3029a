"""Shapes: kinds, dimensions, dynamic sizes, equality with and without layout, bad shapes."""

from __future__ import annotations

import pytest

from hlo import UNBOUNDED, Layout, PrimitiveType, Shape, ShapeError, Tile, parse_shape

P = parse_shape


def test_array_scalar_and_zero_sized():
    s = Shape.array("f32", (2, 0, 3))
    assert s.rank == 3 and s.element_count == 0 and s.is_zero_element
    assert s.layout == Layout((2, 1, 0))
    assert Shape.scalar(PrimitiveType.S32).is_scalar and Shape.scalar("s32").element_count == 1
    assert not Shape.scalar("s32").is_zero_element


def test_rank_true_rank_and_negative_dimension_numbers():
    s = P("f32[2,1,5,1]")
    assert s.rank == 4 and s.true_rank == 2 and s.element_count == 10
    assert s.dimension(-1) == 1 and s.dimension(-2) == 5 and s.dimension(0) == 2
    assert s.dimension_number(-4) == 0
    with pytest.raises(ShapeError, match="dimension -5 is out of range for f32\\[2,1,5,1\\]"):
        s.dimension(-5)


def test_tuples_token_opaque_buffer():
    t = P("((f32[2], ()), token[], opaque[])")
    assert t.is_tuple and t.is_nested_tuple and not t.is_array
    assert t.tuple_shapes[0].tuple_shapes[1].is_empty_tuple
    assert t.subshape((1,)).is_token and t.subshape((2,)).is_opaque
    assert [i for i, _ in t.leaves()] == [(0, 0), (1,), (2,)]  # an empty tuple has no leaves
    assert P("b(f32[2])").buffer_shape == P("f32[2]")
    with pytest.raises(ShapeError, match="rank needs an array shape"):
        _ = t.rank
    with pytest.raises(ShapeError, match="shape index"):
        t.subshape((0, 5))


def test_dynamic_dimensions():
    s = P("f32[<=10,3,?]")
    assert s.dynamic_dimensions == (True, False, True)
    assert s.dimensions == (10, 3, UNBOUNDED)
    assert s.is_dynamic_dimension(0) and not s.is_dynamic_dimension(1)
    assert s.is_unbounded_dynamic_dimension(-1) and not s.is_static
    assert P("f32[<=10]").element_count == 10
    with pytest.raises(ShapeError, match="unbounded"):
        _ = s.element_count


def test_equality_with_and_without_layout():
    a, b = P("f32[2,3]{1,0}"), P("f32[2,3]{0,1}")
    assert a != b and a.equal(b, ignore_layout=True) and a.compatible(b)
    assert a == Shape.array("f32", (2, 3)) and hash(a) == hash(Shape.array("f32", (2, 3)))
    assert P("f32[2,3]{1,0:T(2,2)}") != a
    assert not a.equal(P("s32[2,3]"), ignore_layout=True)
    assert a.equal(P("s32[2,3]"), ignore_element_type=True)
    assert a.equal(P("bf16[2,3]"), ignore_fp_precision=True)
    assert P("f32[<=3]").compatible(P("f32[3]")) and P("f32[?]").compatible(P("f32[7]"))
    assert not P("f32[<=3]").equal(P("f32[3]"))
    assert P("(f32[2]{0}, s32[])").equal(P("(f32[2]{0}, s32[])"))
    assert not P("(f32[2])").equal(P("(f32[2], f32[2])"))
    assert a.without_layout().layout is None and a.without_layout().with_default_layout() == a


def test_change_element_type_keeps_sub_byte_element_size():
    s = P("s4[8]{0:E(4)}")
    assert s.with_element_type("u4").layout.element_size_in_bits == 4
    assert s.with_element_type("f32").layout.element_size_in_bits == 0
    assert P("(s4[8]{0:E(4)}, f32[])").with_element_type("s8") == P("(s8[8], s8[])")


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: Shape.array("f32", (-1,)), "invalid size -1"),
        (lambda: Shape.array("f32", (UNBOUNDED,), dynamic_dimensions=(False,)), "invalid size"),
        (lambda: Shape.array("token", (2,)), "token is not an array element type"),
        (lambda: Shape.array("f33", (2,)), "unknown element type 'f33'"),
        (lambda: Shape.array("f32", (2,), dynamic_dimensions=(True, False)), "2 dynamic-dimension flags"),
        (lambda: Shape.array("f32", (2, 3), Layout((1,))), "not a permutation of its 2 dimensions"),
        (lambda: Shape.array("f32", (2,), Layout((0,), tiles=(Tile(()),))), "invalid tiles"),
        (lambda: Shape.array("f32", (2,), Layout((0,), memory_space=-1)), "memory space"),
        (lambda: Shape.array("f32", (2,), Layout((0,), tail_padding_alignment_in_elements=0)), "alignment"),
        (lambda: Shape.array("f32", (2,), Layout((0,), index_primitive_type=PrimitiveType.S32)), "unsigned"),
        (
            lambda: Shape.array("f32", (2,), Layout((0,), padded_dimensions=(1,))),
            "smaller than the dimension",
        ),
        (lambda: Shape(PrimitiveType.TOKEN, (1,)), "token shape has no dimensions"),
        (lambda: Shape(PrimitiveType.BUFFER), "buffer shape holds exactly one array"),
    ],
)
def test_bad_shapes_are_rejected(make, message):
    with pytest.raises(ShapeError, match=message):
        make()
