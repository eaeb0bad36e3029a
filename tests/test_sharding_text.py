"""Shardings, meshes, replica groups, source-target pairs and domains as HLO text: XLA's parser
tests (attributes.jsonl, the values inside roundtrip.jsonl, the mesh cases of parse_errors.jsonl),
the iota canonicalization of the printer notes (§6.10), XLA's sharding normalizations, and the
explicit groups each replica-group form stands for."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from hlo import ParseError
from hlo.ir.mesh import AxisRef, Mesh, SubAxis
from hlo.ir.metadata import OpMetadata
from hlo.ir.replica_groups import ExplicitReplicaGroups, IotaReplicaGroups, MeshAxesReplicaGroups
from hlo.ir.sharding import (
    DimSharding,
    HloSharding,
    NamedSharding,
    ReductionOp,
    ShardGroup,
    ShardingKind,
    SubgroupType,
    TupleSharding,
)
from hlo.ir.tile_assignment import IotaTileAssignment, TileAssignment, canonicalize_iota
from hlo.text.lexer import Lexer
from hlo.text.reader import TextReader
from hlo.text.sharding_codec import (
    parse_domain,
    parse_replica_groups,
    parse_replica_groups_string,
    parse_sharding,
    parse_sharding_string,
    parse_source_target_pairs,
    print_domain,
    print_replica_groups,
    print_sharding,
    print_source_target_pairs,
)

from conftest import cases, load


def reader(text: str, offset: int = 0) -> TextReader:
    lexer = Lexer(text)
    lexer.pos = offset
    return TextReader(lexer)


def sharding(text: str) -> object:
    return parse_sharding_string(text)


# -- attributes.jsonl -------------------------------------------------------------------------
@cases("hlo_text/attributes", "sharding")
def test_sharding_attribute(row):
    s = parse_sharding_string(row["text"])
    assert print_sharding(s, include_metadata=row.get("print_metadata", True)) == row["expected"]
    again = parse_sharding_string(print_sharding(s))
    assert again == s
    assert print_sharding(again) == print_sharding(s)


@cases("hlo_text/attributes", "replica_groups")
def test_replica_groups_attribute(row):
    groups = parse_replica_groups_string(row["text"])
    assert print_replica_groups(groups, full=True) == row["expected"]
    assert groups.groups() == parse_replica_groups_string(row["expected"]).groups()
    assert parse_replica_groups_string(print_replica_groups(groups)) == groups


COLLECTIVE_DEVICE_LIST_FORMS = {
    "kListOfLists": ExplicitReplicaGroups,
    "kIota": IotaReplicaGroups,
    "kMeshAxes": MeshAxesReplicaGroups,
}


@cases("hlo_text/attributes", "collective_device_list")
def test_collective_device_list_attribute(row):
    groups = parse_replica_groups_string(row["text"])
    assert isinstance(groups, COLLECTIVE_DEVICE_LIST_FORMS[row["version"]])
    assert print_replica_groups(groups) == row["expected"]
    assert groups.groups() == ((0, 1), (2, 3))  # each of XLA's three cases is 2 groups of 2
    assert print_replica_groups(groups, full=True) == "{{0,1},{2,3}}"


# -- values inside roundtrip.jsonl ------------------------------------------------------------
CODECS = {
    "sharding": (parse_sharding, print_sharding),
    "replica_groups": (parse_replica_groups, print_replica_groups),
    "source_target_pairs": (parse_source_target_pairs, print_source_target_pairs),
    "domain": (parse_domain, print_domain),
}
ATTRIBUTE = re.compile(r"\b(sharding|replica_groups|source_target_pairs|domain)=")
ROUNDTRIP_VALUES = [
    (row["name"], m.group(1), row["text"], m.end())
    for row in load("hlo_text/roundtrip")
    for m in ATTRIBUTE.finditer(row["text"])
]


def test_roundtrip_values_were_found():
    kinds = {kind for _, kind, _, _ in ROUNDTRIP_VALUES}
    assert kinds == set(CODECS)
    assert len(ROUNDTRIP_VALUES) >= 45


@pytest.mark.parametrize(
    ("name", "kind", "text", "offset"),
    ROUNDTRIP_VALUES,
    ids=[f"{i}-{n}-{k}" for i, (n, k, _, _) in enumerate(ROUNDTRIP_VALUES)],
)
def test_roundtrip_value(name, kind, text, offset):
    parse, write = CODECS[kind]
    r = reader(text, offset)
    value = parse(r)
    written = text[offset : r.lex.last_end]
    assert write(value) == written
    assert parse(reader(written)) == value


# -- parse_errors.jsonl -----------------------------------------------------------------------
MESH_ERRORS = [row for row in load("hlo_text/parse_errors") if re.search("Mesh|Shard", row["name"])]


def test_mesh_error_cases_were_found():
    assert [r["name"] for r in MESH_ERRORS] == [
        "MeshReplicaGroupInvalidAxisName",
        "MeshReplicaGroupAxisIndexOutOfBounds",
        "MeshReplicaGroupDeviceIdsCountMismatch",
    ]


@pytest.mark.parametrize("row", MESH_ERRORS, ids=[r["name"] for r in MESH_ERRORS])
def test_mesh_parse_error(row):
    text = row["text"]
    m = re.search(r"replica_groups=", text)
    assert m is not None
    with pytest.raises(ParseError, match=re.escape(row["error_contains"])) as e:
        parse_replica_groups(reader(text, m.end()))
    assert e.value.span is not None
    assert e.value.span.line == text.count("\n", 0, m.start()) + 1  # on the instruction's line


# -- iota canonicalization (printer notes §6.10) ----------------------------------------------
@pytest.mark.parametrize(
    ("reshape", "perm", "expected"),
    [
        ((3, 4, 5), (0, 1, 2), ((60,), (0,))),
        ((3, 4, 5), (1, 2, 0), ((3, 20), (1, 0))),
        ((3, 4, 5), (2, 0, 1), ((12, 5), (1, 0))),
        ((1, 3, 1, 4, 1, 5), (4, 3, 2, 5, 1, 0), ((3, 20), (1, 0))),
        ((3, 4, 5), (2, 1, 0), ((3, 4, 5), (2, 1, 0))),
        ((3, 4, 5), (1, 0, 2), ((3, 4, 5), (1, 0, 2))),
        ((1, 1), (1, 0), ((1,), (0,))),
    ],
)
def test_canonicalize_iota(reshape, perm, expected):
    assert canonicalize_iota(reshape, perm) == expected
    # the canonical form names the same devices
    n = math.prod(reshape)
    ta = TileAssignment.make_iota((n,), reshape, perm)
    assert ta.iota is not None and (ta.iota.reshape_dims, ta.iota.transpose_perm) == expected
    assert ta.array().tolist() == np.arange(n).reshape(reshape).transpose(perm).ravel().tolist()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{devices=[2,2]<=[2,2]T(0,1)}", "{devices=[2,2]<=[4]}"),
        ("{devices=[3,4,5]<=[3,4,5]T(2,0,1)}", "{devices=[3,4,5]<=[12,5]T(1,0)}"),
        ("{devices=[2,6]<=[3,4]T(0,1)}", "{devices=[2,6]<=[12]}"),
        ("{devices=[6]<=[1,2,1,3]T(3,2,1,0)}", "{devices=[6]<=[2,3]T(1,0)}"),
    ],
)
def test_iota_tile_assignment_prints_canonical(text, expected):
    assert print_sharding(sharding(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[2,2]<=[2,2]T(0,1)", "[2,2]<=[4]"),
        ("[3,20]<=[1,3,1,4,1,5]T(4,3,2,5,1,0)", "[3,20]<=[3,20]T(1,0)"),
        ("[4,8]<=[4,8]T(1,0)", "[4,8]<=[4,8]T(1,0)"),
    ],
)
def test_iota_replica_groups_print_canonical(text, expected):
    groups = parse_replica_groups_string(text)
    assert print_replica_groups(groups) == expected
    assert groups.groups() == parse_replica_groups_string(expected).groups()


def test_iota_transpose_keeps_iota_like_xla():
    """XLA's tile_assignment_test: no-op, reshape-only and regular transposes stay iotas."""
    assert IotaTileAssignment.create((2, 3)).transpose((0, 1)) == IotaTileAssignment((2, 3), (6,), (0,))
    assert IotaTileAssignment.create((2, 1, 3)).transpose((0, 2, 1)) == IotaTileAssignment(
        (2, 3, 1), (6,), (0,)
    )
    iota = IotaTileAssignment.create((2, 3), (2, 3), (0, 1))
    assert iota.transpose((1, 0)) == IotaTileAssignment((3, 2), (2, 3), (1, 0))
    ta = TileAssignment.make_iota((8, 3), (2, 4, 3), (1, 2, 0)).transpose((1, 0))
    assert ta.array().tolist() == np.arange(24).reshape(2, 4, 3).transpose(1, 2, 0).reshape(8, 3).T.tolist()


# -- group expansion --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("{{1,2},{3,0}}", ((1, 2), (3, 0))),
        ("{}", ()),
        ("[2,4]<=[8]", ((0, 1, 2, 3), (4, 5, 6, 7))),
        ("[2,4]<=[4,2]T(1,0)", ((0, 2, 4, 6), (1, 3, 5, 7))),
        ("[4,2]<=[2,2,2]T(2,1,0)", ((0, 4), (2, 6), (1, 5), (3, 7))),
        ("mesh['axis_0'=2,'axis_1'=2] {'axis_0'}", ((0, 2), (1, 3))),
        ("mesh['axis_0'=2,'axis_1'=2] {'axis_1'}", ((0, 1), (2, 3))),
        ("mesh['axis_0'=2,'axis_1'=2] {'axis_1','axis_0'}", ((0, 2, 1, 3),)),
        ("mesh['axis_0'=2,'axis_1'=2] {}", ((0,), (1,), (2,), (3,))),
        ("mesh['a'=8] {'a':(1)2,'a':(4)2}", ((0, 1, 4, 5), (2, 3, 6, 7))),
        ("mesh['a'=8] {'a':(4)2,'a':(1)2}", ((0, 4, 1, 5), (2, 6, 3, 7))),
        ("mesh['a'=4,'b'=2] {'a':(2)2}", ((0, 2), (1, 3), (4, 6), (5, 7))),
        ("mesh['a'=2,'b'=2], device_ids=(0,2,1,3) {'b'}", ((0, 2), (1, 3))),
        ("mesh['a'=2,'b'=3], device_ids=([3,2]T(1,0)) {'a'}", ((0, 1), (2, 3), (4, 5))),
        ("maximal_mesh[device_id=1] {}", ((1,),)),
        ("mesh[] {}", ()),
    ],
)
def test_groups(text, groups):
    value = parse_replica_groups_string(text)
    assert value.groups() == groups
    assert parse_replica_groups_string(print_replica_groups(value)) == value
    assert parse_replica_groups_string(print_replica_groups(value, full=True)).groups() == groups


def test_replica_group_values():
    iota = parse_replica_groups_string("[3,10]<=[6,5]T(1,0)")
    assert iota == IotaReplicaGroups(3, 10, (6, 5), (1, 0))
    assert (iota.num_groups, iota.group_size) == (3, 10)
    assert iota.groups()[0] == (0, 5, 10, 15, 20, 25, 1, 6, 11, 16)
    assert IotaReplicaGroups(2, 10) == parse_replica_groups_string("[2,10]<=[20]")
    mesh = parse_replica_groups_string("mesh['x'=4,'y'=2] {'x':(2)2}")
    assert mesh == MeshAxesReplicaGroups(Mesh.iota(("x", "y"), (4, 2)), (AxisRef(0, SubAxis(2, 2)),))
    assert (mesh.num_groups, mesh.group_size) == (4, 2)
    assert parse_replica_groups_string("{{0},{1}}") == ExplicitReplicaGroups(((0,), (1,)))


# -- classic shardings: values and XLA's normalizations ---------------------------------------
def test_classic_values():
    s = sharding("{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate shard_like 3}")
    assert isinstance(s, HloSharding)
    assert s.kind is ShardingKind.TILED and s.replicate_on_last_tile_dim
    assert s.shard_group == ShardGroup(shard_as=False, group_id=3)
    assert s.num_data_dims == 1
    assert s.device_array().tolist() == [[0, 2], [1, 3]]
    assert sharding("{maximal device=42}") == HloSharding.maximal(42)
    assert sharding("{maximal device=42}").device_array().tolist() == [42]
    subgroup = sharding("{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}")
    assert subgroup.subgroup_types == (SubgroupType.MANUAL, SubgroupType.REPLICATED)
    assert sharding("{{replicated}, {manual}}") == TupleSharding(
        (HloSharding.replicate(), HloSharding.manual())
    )
    assert sharding("{}") == TupleSharding(())
    assert print_sharding(sharding("{manual shard_as 1 shard_like 2}")) == "{manual shard_as 2}"


@pytest.mark.parametrize(
    ("explicit", "iota"),
    [  # XLA's V1V2*Equality tests: an explicit device list equals the same devices as an iota
        ("{devices=[2,2]0,1,2,3}", "{devices=[2,2]<=[4]}"),
        ("{devices=[2,2]0,2,1,3}", "{devices=[2,2]<=[2,2]T(1,0)}"),
        ("{devices=[2,2,2]0,2,4,6,1,3,5,7}", "{devices=[2,2,2]<=[2,2,2]T(2,0,1)}"),
        (
            "{devices=[2,2]0,2,1,3 last_tile_dim_replicate}",
            "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}",
        ),
        (
            "{devices=[2,2,2]0,2,4,6,1,3,5,7 last_tile_dims={manual, replicated}}",
            "{devices=[2,2,2]<=[2,2,2]T(2,0,1) last_tile_dims={manual, replicated}}",
        ),
    ],
)
def test_explicit_equals_iota(explicit, iota):
    assert sharding(explicit) == sharding(iota)
    assert hash(sharding(explicit)) == hash(sharding(iota))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # HloSharding::Subgroup: one subgroup type and no tiled data dim folds to the plain kind
        ("{devices=[1,2,1]0,1 last_tile_dims={manual, replicated}}", "{manual}"),
        ("{devices=[1,1,4]<=[4] last_tile_dims={replicated}}", "{replicated}"),
        ("{devices=[1,2,2]<=[4] last_tile_dims={manual, manual}}", "{manual}"),
        # ... drops size-1 subgroup dims, merges and orders the types
        (
            "{devices=[2,2,1]<=[4] last_tile_dims={manual, unreduced}}",
            "{devices=[2,2]<=[4] last_tile_dims={manual}}",
        ),
        (
            "{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}",
            "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}",
        ),
        (
            "{devices=[2,1,2]<=[4] last_tile_dims={manual, replicated}}",
            "{devices=[2,2]<=[4] last_tile_dim_replicate}",
        ),
        # HloSharding::PartialTile: groups are sorted; trivial replication folds away
        ("{devices=[2,2]3,2,1,0 last_tile_dim_replicate}", "{devices=[2,2]2,3,0,1 last_tile_dim_replicate}"),
        ("{devices=[1,4]<=[4] last_tile_dim_replicate}", "{replicated}"),
        ("{devices=[2,1]0,1 last_tile_dim_replicate}", "{devices=[2]0,1}"),
        (
            "{devices=[2,4]<=[2,4]T(1,0) last_tile_dim_replicate}",
            "{devices=[2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}",
        ),
    ],
)
def test_classic_normalization(text, expected):
    s = sharding(text)
    assert print_sharding(s) == expected
    assert sharding(expected) == s


def test_partial_tile_groups_hold_the_same_devices_sorted():
    given = TileAssignment.make_iota((2, 4), (2, 4), (1, 0))
    s = HloSharding.partial_tile(given)
    assert s.tile_assignment is not None and s.tile_assignment.iota is not None
    assert s.device_array().tolist() == np.sort(given.array(), axis=1).tolist()


def test_metadata_and_reduction_op():
    assert (
        print_sharding(sharding("{unreduced}"))
        == '{unreduced metadata={op_type="sdy::reduction_op" op_name="SUM"}}'
    )
    assert print_sharding(sharding("{unreduced}"), include_metadata=False) == "{unreduced}"
    text = '{unreduced metadata={{op_name="a"}, {op_type="sdy::reduction_op" op_name="MAX"}}}'
    s = sharding(text)
    assert isinstance(s, HloSharding)
    assert s.reduction_op is ReductionOp.MAX and s.metadata == (OpMetadata(op_name="a"),)
    assert print_sharding(s) == text
    assert (
        print_sharding(sharding('{replicated metadata={op_name="a"}}'))
        == '{replicated metadata={op_name="a"}}'
    )
    many = '{maximal device=7 metadata={{op_name="b"}, {op_name="c"}}}'
    assert print_sharding(sharding(many)) == many
    assert print_sharding(sharding(many), include_metadata=False) == "{maximal device=7}"
    assert sharding(many) == HloSharding.maximal(7)  # metadata is not part of the identity


def test_tuple_index_comments():
    text = (
        "{{replicated}, {manual}, {unknown}, {maximal device=0}, {replicated}, /*index=5*/{manual}, "
        "{unknown}}"
    )
    assert print_sharding(sharding(text)) == text
    assert len(sharding(text).elements) == 7


# -- named shardings --------------------------------------------------------------------------
def test_named_values():
    s = sharding("{mesh['a'=2,'b'=4,'c'=3,'d'=8], [{'b':(2)2}, {'d':(4)2, 'c', ?}], unreduced=min{'a'}}")
    assert isinstance(s, NamedSharding)
    assert s.mesh == Mesh.iota("abcd", (2, 4, 3, 8))
    assert s.dims == (
        DimSharding((AxisRef(1, SubAxis(2, 2)),)),
        DimSharding((AxisRef(3, SubAxis(4, 2)), AxisRef(2)), is_closed=False),
    )
    assert s.unreduced_axes == (AxisRef(0),) and s.reduction_op is ReductionOp.MIN
    mesh = sharding("{mesh['x'=2,'y'=2], device_ids=(0,2,1,3), [{'x'}]}").mesh
    assert mesh.device_array().tolist() == [[0, 2], [1, 3]]
    iota_mesh = sharding("{mesh['a'=2,'b'=4,'c'=4,'d'=2], device_ids=([4,16]T(1,0)), [{'a'}]}").mesh
    assert iota_mesh.device_array().ravel().tolist() == np.arange(64).reshape(4, 16).T.ravel().tolist()
    assert sharding("{maximal_mesh[device_id=5]}").mesh.maximal_device == 5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "{mesh['a'=2, 'b'=2], [{'a'}, {}], unreduced=max{'b'}}",
            "{mesh['a'=2,'b'=2], [{'a'}, {}], unreduced=max{'b'}}",
        ),
        ("{mesh['a'=2,'b'=2] , unreduced=sum}", "{mesh['a'=2,'b'=2], unreduced}"),
        ("{mesh['a'=2,'b'=2], unreduced=max{'a'}}", "{mesh['a'=2,'b'=2], [], unreduced=max{'a'}}"),
        ("{mesh['a'=2,'b'=1], unreduced{'a'}}", "{mesh['a'=2,'b'=1], unreduced{'a'}}"),
        ("{mesh['a'=2,'b'=2], [{}, {}]}", "{mesh['a'=2,'b'=2], [{}, {}]}"),
        ("{mesh['a'=2,'b'=2], [{?}, {'a', ?}]}", "{mesh['a'=2,'b'=2], [{?}, {'a', ?}]}"),
        ("{mesh['a'=2,'b'=2], device_ids=([4]), [{'a'}]}", "{mesh['a'=2,'b'=2], [{'a'}]}"),
        (
            "{mesh['a'=2,'b'=2], manual, metadata={op_name=\"m\"}}",
            "{mesh['a'=2,'b'=2], manual, metadata={{op_name=\"m\"}}}",
        ),
        ("{mesh['1'=2,'0'=2], [{'0'}]}", "{mesh['1'=2,'0'=2], [{'0'}]}"),  # a name before an index
        ("{mesh['x'=2,'y'=2], [{'1'}]}", "{mesh['x'=2,'y'=2], [{'y'}]}"),
    ],
)
def test_named_forms(text, expected):
    s = sharding(text)
    assert print_sharding(s) == expected
    assert sharding(expected) == s


# -- domain, source-target pairs --------------------------------------------------------------
def test_domain():
    text = '{kind="sharding", entry={maximal device=0}, exit={maximal device=1}}'
    d = parse_domain(reader(text))
    assert (d.kind, d.entry, d.exit) == ("sharding", HloSharding.maximal(0), HloSharding.maximal(1))
    assert print_domain(d) == text
    with_md = '{kind="sharding" entry={replicated metadata={op_name="a"}} exit={{manual}, {replicated}}}'
    assert print_domain(parse_domain(reader(with_md))) == (
        '{kind="sharding", entry={replicated}, exit={{manual}, {replicated}}}'
    )


def test_source_target_pairs():
    assert parse_source_target_pairs(reader("{{0,1},{1,2},{2,3}}")) == ((0, 1), (1, 2), (2, 3))
    assert print_source_target_pairs(((0, 1), (3, 0))) == "{{0,1},{3,0}}"
    assert parse_source_target_pairs(reader("{}")) == ()


# -- errors -----------------------------------------------------------------------------------
SHARDING_ERRORS = [
    ("{replicated device=1}", 2, r"replicated shardings should not have any devices assigned"),
    ("{manual devices=[2]0,1}", 2, r"manual shardings should not have any devices assigned"),
    ("{maximal}", 2, r"maximal shardings should have exactly one device assigned"),
    ("{last_tile_dim_replicate}", 2, r"must have a tile assignment list including dimensions"),
    ("{devices=[2]0}", 2, r"must have more than one device assigned"),
    ("{devices=[2,2]0,1,2}", 2, r"\[2,2\] needs 4 device ids, found 3"),
    ("{devices=[2,2]<=[5]}", 2, r"the iota \[5\] has 5 devices but \[2,2\] needs 4"),
    ("{devices=[2,2]<=[2,2]}", 22, r"expected 'T\(' to start sharding devices iota_transpose_perm"),
    (
        "{devices=[2,2]<=[2,2]T(2,0)}",
        24,
        r"Out of range iota minor_to_major value 2, expecting value in range \[0, 2\)",
    ),
    ("{devices=[2,2]<=[2,2]T(0,0)}", 2, r"not a permutation"),
    ("{devices=[4]<=[4] last_tile_dim_replicate last_tile_dims={manual}}", 2, r"cannot be used together"),
    ("{devices=[2,2]<=[4] last_tile_dims={tiled}}", 37, r"expected maximal, replicated, manual or unreduced"),
    ("{device=x}", 9, r"device= attribute must be an integer"),
    ("{colour=1}", 2, r"unknown attribute in sharding"),
    ("{replicated 3}", 13, r"unexpected '3' in sharding"),
    ("{replicated", 12, r"unexpected the end of input in sharding"),
    ("{{replicated} {manual}}", 15, r"expected '}' to end sharding attribute"),
    ("{mesh['a'=2], [{'b'}]}", 17, r"axis 'b' is not a valid axis name or index in mesh mesh\['a'=2\]"),
    ("{mesh['a'=2], [{'3'}]}", 17, r"axis index 3 is out of bounds for mesh mesh\['a'=2\] which has 1 axes"),
    ("{mesh['a'=2], [{'a', ?, 'a'}]}", 25, r"Saw axis ref after '\?'"),
    ("{mesh['a'=4], [{'a':2}]}", 21, r"expected '\(' before pre_size in sub axis"),
    ("{mesh['a'=4], [{'a':(1)4}]}", 17, r"Sub-axis size must be strictly less than the full axis size"),
    ("{mesh['a'=4], [{'a':(1)1}]}", 17, r"sub-axis size must be > 1"),
    ("{mesh['a'=4], [{'a':(1)2, 'a':(2)2}]}", 2, r"can be merged: 'a':\(1\)2, 'a':\(2\)2"),
    ("{mesh['a'=4], [{'a'}, {'a':(1)2}]}", 2, r"Axes cannot coexist or axes overlap"),
    ("{mesh['a'=2,'b'=2], [{}], replicated={'b', 'a'}}", 2, r"Replicated axes must be sorted"),
    ("{mesh['a'=2,'b'=2], [{}], unreduced=avg{'a'}}", 37, r"expected sum, max, or min for unreduced op"),
    ("{mesh['a'=2,'b'=2], [{}], sharded={'a'}}", 27, r"unknown attribute in named sharding"),
    ("{mesh['a'=2,'b'=2], [{}] replicated={'a'}}", 26, r"expected ',' before next attribute"),
    ("{mesh['a'=2,'a'=2], replicated}", 2, r"duplicate axis names"),
    (
        "{mesh['a'=2,'b'=2], device_ids=(0,1,2), [{}]}",
        33,
        r"Expected 4 device_ids based on mesh axes, but got 3",
    ),
    ("{mesh['a'=2,'b'=2], device_ids=(0,1,2,3), [{}]}", 33, r"iota device id list"),
    ("{mesh['a'=2,'b'=2], device_ids=(0,1,1,3), [{}]}", 33, r"must be a permutation"),
    ("{mesh['a'=2], replicated, colour=1}", 27, r"expected metadata= after ','"),
    ("{mesh['a'=2] replicated}", 14, r""),
    ("{mesh('a'=2), replicated}", 6, r"expected '\[' after mesh"),
    ("{mesh[a=2], replicated}", 7, r"expected a quoted axis name"),
    ("{maximal_mesh[device=1]}", 15, r"expected device_id= attribute in maximal_mesh"),
]


@pytest.mark.parametrize(
    ("text", "column", "message"), SHARDING_ERRORS, ids=[t for t, _, _ in SHARDING_ERRORS]
)
def test_sharding_errors(text, column, message):
    if text == "{mesh['a'=2] replicated}":  # XLA allows the comma after the mesh to be left out
        assert print_sharding(sharding(text)) == "{mesh['a'=2], replicated}"
        return
    with pytest.raises(ParseError, match=message) as e:
        parse_sharding_string(text)
    assert e.value.span is not None and e.value.span.column == column


REPLICA_GROUP_ERRORS = [
    ("[2,2]0,1,2,3", 6, r"Caller expected iota tile assignment"),
    ("[4]<=[4]", 1, r"iota replica groups need 2 dimensions"),
    ("[2,2]<=[3]", 1, r"the iota \[3\] has 3 devices"),
    ("[2,2]<=[]", 9, r"expected an iota reshape dim"),
    ("{{0,1},{2,3}", 13, r"expected ',' or '}'"),
    ("mesh['a'=4] {'a', 'a'}", 13, r"Axes cannot coexist or axes overlap"),
    ("mesh['a'=4] {'a':(1)2, 'a':(2)2}", 13, r"can be merged"),
    ("mesh['a'=2] {?}", 14, r"expected a quoted mesh axis name"),
    ("replicas", 1, r"expected replica groups"),
]


@pytest.mark.parametrize(
    ("text", "column", "message"), REPLICA_GROUP_ERRORS, ids=[t for t, _, _ in REPLICA_GROUP_ERRORS]
)
def test_replica_group_errors(text, column, message):
    with pytest.raises(ParseError, match=message) as e:
        parse_replica_groups_string(text)
    assert e.value.span is not None and e.value.span.column == column


def test_other_errors():
    with pytest.raises(ParseError, match="expects 'source_target_pairs=' to be a list of pairs"):
        parse_source_target_pairs(reader("{{0,1},{2}}"))
    with pytest.raises(ParseError, match="unsupported domain kind: colour") as e:
        parse_domain(reader('{kind="colour", entry={replicated}, exit={replicated}}'))
    assert e.value.span is not None and e.value.span.column == 7
    with pytest.raises(ParseError, match="sub-attribute exit is expected but not seen"):
        parse_domain(reader('{kind="sharding", entry={replicated}}'))
