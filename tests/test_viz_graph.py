"""`hlo graph`: the dot text (clusters, family colours, shapes on edges), pieces of big modules,
Model Explorer's JSON, and one-line refusals. Pictures are rendered only where graphviz exists."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_checks import one_line_error
from hlo.cli.main import main
from hlo.replay.load import load
from hlo.viz.graph_dot import colours, to_dot
from hlo.viz.graph_model_explorer import attribute_texts, to_model_explorer
from hlo.viz.graph_select import family, select

ROOT = Path(__file__).resolve().parent.parent
AFTER = ROOT / "tests" / "golden" / "dumps_proto" / "mlp.after.hlo.pb"  # XLA:CPU's fused module
MLP = ROOT / "src" / "hlo" / "examples" / "mlp.hlo"


@pytest.fixture(scope="module")
def after():
    return load(AFTER).module


def test_fusions_are_clusters_fed_to_their_callers(after):
    text = to_dot(select(after))
    assert 'subgraph "cluster_fused_computation.2" {' in text
    # the fusion body's root feeds the fusion instruction that calls it, by a dashed edge
    fusion = next(i for i in after.entry.instructions if "fused_computation.2" in i.called_computations)
    root = after.computation("fused_computation.2").root_name
    assert f'"fused_computation.2/{root}" -> "{after.entry.name}/{fusion.name}" [style=dashed' in text
    # nested calls: the reducer inside fused_computation.5 is a cluster of its own
    assert 'subgraph "cluster_region_0.1"' in text


def test_edges_carry_shapes_without_layouts(after):
    text = to_dot(select(after))
    entry = after.entry.name
    # dot = f32[4,8] dot(x.1 f32[3,4], multiply_add_fusion f32[3,8]) in XLA's optimized module
    assert f'"{entry}/x.1" -> "{entry}/dot" [label="f32[3,4]"];' in text
    assert "{1,0}" not in text.split("legend")[0].split("->", 1)[1]


def test_ops_are_coloured_by_family(after):
    palette = colours()
    text = to_dot(select(after))
    dot_node = next(
        line for line in text.splitlines() if line.strip().startswith(f'"{after.entry.name}/dot" [')
    )
    assert f'fillcolor="{palette["dot"]}"' in dot_node
    assert family(after.entry["tuple.1"]) == "tuple_ops"
    assert family(after.entry["x.1"]) == "parameter"
    assert family(after.computation("fused_computation.3").root) == "elementwise"
    assert len(set(palette.values())) == len(palette)  # no two families share a colour


def test_computation_option_draws_only_that_computation_and_its_callees(after):
    sel = select(after, computation="fused_computation.5")
    assert set(sel.shown) == {"fused_computation.5", "region_0.1"}


def test_around_keeps_the_neighbourhood(after):
    sel = select(after, around="dot", depth=1)
    assert sel.shown == {after.entry.name: ("x.1", "multiply_add_fusion", "dot", "tuple.1")}
    text = to_dot(sel)
    assert 'color="#d62728", penwidth=3' in text and "cluster_" not in text
    assert "calls fused_computation" in text  # callees named, not drawn


def test_model_explorer_json(after):
    collection = json.loads(to_model_explorer(select(after)))
    assert collection["label"] == after.name
    graph = collection["graphs"][0]
    nodes = {n["id"]: n for n in graph["nodes"]}
    dot = nodes["dot"]
    assert dot["label"] == "dot" and dot["namespace"] == ""
    assert [e["sourceNodeId"] for e in dot["incomingEdges"]] == ["x.1", "multiply_add_fusion"]
    attrs = {a["key"]: a["value"] for a in dot["attrs"]}
    assert attrs["lhs_contracting_dims"] == "{0}" and attrs["rhs_contracting_dims"] == "{0}"
    assert attrs["metadata"].startswith('{op_name="jit(mlp)/transpose(jvp())/transpose"')
    assert dot["outputsMetadata"][0]["attrs"] == [{"key": "tensor_shape", "value": "f32[4,8]"}]
    # a fusion's body is a layer under its caller; its parameter 0 is fed by the caller's operand 0
    fusion = next(i for i in after.entry.instructions if "fused_computation.2" in i.called_computations)
    layer = f"{fusion.name}:fused_computation.2"
    inner = [n for n in graph["nodes"] if n["namespace"] == layer]
    assert inner
    p0 = next(n for n in inner if {"key": "parameter_number", "value": "0"} in n["attrs"])
    assert p0["incomingEdges"][0]["sourceNodeId"] == fusion.operands[0]


def test_attribute_texts_split_at_top_level_commas():
    module = load(MLP).module
    reduce = next(i for i in module.entry.instructions if i.opcode.text == "reduce")
    pairs = dict(attribute_texts(reduce))
    assert pairs["dimensions"] == "{0,1}" and pairs["to_apply"].startswith("%region_0")


def test_cli_writes_dot_and_json(tmp_path, capsys):
    assert main(["graph", str(MLP), "-o", str(tmp_path / "g.dot")]) == 0
    assert (tmp_path / "g.dot").read_text().startswith('digraph "')
    assert main(["graph", str(MLP), "-o", str(tmp_path / "g.json")]) == 0
    assert json.loads((tmp_path / "g.json").read_text())["graphs"][0]["nodes"]


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz is not installed")
def test_cli_renders_svg_png_html(tmp_path):
    for ext, magic in ((".svg", b"<?xml"), (".png", b"\x89PNG"), (".html", b"<!DOCTYPE html>")):
        out = tmp_path / f"g{ext}"
        assert main(["graph", str(AFTER), "-o", str(out)]) == 0
        assert out.read_bytes().startswith(magic)


def test_without_graphviz_the_dot_file_and_how_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main(["graph", str(MLP), "-o", str(tmp_path / "g.svg")]) == 1
    err = one_line_error(capsys)
    assert "graphviz's dot is not installed" in err and "install graphviz" in err
    assert (tmp_path / "g.dot").read_text().startswith("digraph")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--around", "dott"], "no instruction named 'dott' in module jit_mlp (did you mean dot"),
        (["--computation", "fused_computatio"], "no computation named 'fused_computatio'"),
        (["--max-nodes", "10"], "too many to draw legibly (limit 10): draw a piece with --around INSTR"),
        (["--around", "dot", "--depth", "-1"], "--depth must be >= 0"),
    ],
)
def test_bad_input_is_one_line(tmp_path, capsys, argv, message):
    assert main(["graph", str(AFTER), "-o", str(tmp_path / "g.dot"), *argv]) == 1
    assert message in one_line_error(capsys)
