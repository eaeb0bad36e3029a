"""Layout and shape manipulations from XLA's layout_util/shape_util tests (layout_ops.jsonl)."""

from __future__ import annotations

import pytest

from hlo import Layout, SplitConfig, parse_shape
from hlo import shape_util as su
from hlo.layout import ascending_layout, default_layout, descending_layout

from conftest import cases

P = parse_shape


@cases("layout/layout_ops")
def test_layout_ops(row):
    kind = row["kind"]
    expected_m2m = tuple(row.get("expected_minor_to_major", ()))
    if kind == "default_layout":
        rank = row["rank"] if "rank" in row else len(P(row["shape"]).dimensions)
        assert default_layout(rank).minor_to_major == expected_m2m
        if "shape" in row:
            assert P(row["shape"]).layout.minor_to_major == expected_m2m
    elif kind == "make_descending_layout":
        assert descending_layout(row["rank"]).minor_to_major == expected_m2m
    elif kind == "make_ascending_layout":
        assert ascending_layout(row["rank"]).minor_to_major == expected_m2m
    elif kind == "layout_move_dim_to_major":
        assert (
            Layout(tuple(row["minor_to_major"])).move_dim_to_major(row["dim"]).minor_to_major == expected_m2m
        )
    elif kind == "layout_move_dim_to_minor":
        assert (
            Layout(tuple(row["minor_to_major"])).move_dim_to_minor(row["dim"]).minor_to_major == expected_m2m
        )
    elif kind == "layout_delete_dimension":
        splits = tuple(
            SplitConfig(s["dimension"], tuple(s["split_indices"])) for s in row.get("split_configs", [])
        )
        got = Layout(tuple(row["minor_to_major"]), split_configs=splits).delete_dimension(row["dim"])
        assert got.minor_to_major == expected_m2m
        expected_splits = tuple(
            SplitConfig(s["dimension"], tuple(s["split_indices"]))
            for s in row.get("expected_split_configs", [])
        )
        assert got.split_configs == expected_splits
    elif kind == "shape_move_dim_to_major":
        assert su.move_dim_to_major(P(row["shape"]), row["dim"]) == P(row["expected"])
    elif kind == "shape_delete_dimensions":
        assert su.delete_dimensions(P(row["shape"]), row["dims"]) == P(row["expected"])
    elif kind == "prepend_major_dimension":
        assert su.prepend_major_dimension(P(row["shape"]), row["bound"]) == P(row["expected"])
    elif kind == "append_minor_dimension":
        assert su.append_minor_dimension(P(row["shape"]), row["bound"]) == P(row["expected"])
    elif kind == "insert_dimension_at_index":
        assert su.insert_dimension_at_index(P(row["shape"]), row["index"], row["bound"]) == P(row["expected"])
    elif kind == "insert_dimensions_at_index":
        assert su.insert_dimensions_at_index(P(row["shape"]), row["index"], row["bounds"]) == P(
            row["expected"]
        )
    elif kind == "permute_dimensions_ignoring_layout":
        assert su.permute_dimensions(row["permutation"], P(row["shape"])) == P(row["expected"])
    elif kind == "make_shape_with_descending_layout_and_same_physical_layout":
        assert su.descending_layout_with_same_physical_layout(P(row["shape"])) == P(row["expected"])
    elif kind == "reshape_is_bitcast":
        got = su.reshape_is_bitcast(P(row["input"]), P(row["output"]), row.get("ignore_element_type", False))
        assert got == row["expected"]
    elif kind == "transpose_is_bitcast":
        got = su.transpose_is_bitcast(
            P(row["input"]), P(row["output"]), row["permutation"], row.get("ignore_element_type", False)
        )
        assert got == row["expected"]
    elif kind == "is_reshape_or_transpose_bitcast":
        assert su.is_reshape_or_transpose_bitcast(P(row["input"]), P(row["output"])) == row["expected"]
    elif kind == "deduce_transpose_dimensions_for_bitcast":
        assert (
            su.deduce_transpose_dimensions_for_bitcast(P(row["input"]), P(row["output"])) == row["expected"]
        )
    elif kind == "is_effectively_most_major_dimension":
        assert su.is_effectively_most_major_dimension(P(row["shape"]), row["dim"]) == row["expected"]
    elif kind == "dimensions_unmodified_by_reshape":
        got = su.dimensions_unmodified_by_reshape(P(row["input"]), P(row["output"]))
        assert [list(p) for p in got] == row["expected"]
    elif kind == "has_degenerate_dimensions":
        assert su.has_degenerate_dimensions(P(row["shape"])) == row["expected"]
    else:
        pytest.fail(f"untested kind {kind}")


def test_tiled_reshape_is_not_a_bitcast_when_tiles_move_elements():
    assert su.reshape_is_bitcast(P("f32[8,128]{1,0:T(8,128)}"), P("f32[1024]{0:T(1024)}"))
    assert not su.reshape_is_bitcast(P("f32[16,128]{1,0:T(8,128)}"), P("f32[8,256]{1,0:T(8,128)}"))
