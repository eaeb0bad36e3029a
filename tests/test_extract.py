"""`hlo extract` (XLA's hlo-extractor): the cone of an instruction as a standalone module that
parses and verifies, its parameters the values `--height` hops up, constants kept, called
computations brought along; with `--values DIR` the inputs from a `--dump-values` run, which
compute the instruction's recorded value again."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import hlo
from cli_checks import one_line_error
from hlo.cli.main import main
from hlo.replay.extract import extract, extract_with_sources
from hlo.text.parser import parse_module

GOLDEN = Path(__file__).parent / "golden"
CONTROL_FLOW = GOLDEN / "dumps" / "control_flow.hlo"  # conditionals over tuples, a reduce

SMALL = """HloModule small, entry_computation_layout={(f32[4]{0}, f32[4]{0})->f32[4]{0}}

ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %mul = f32[4]{0} multiply(f32[4]{0} %a, f32[4]{0} %b)
  %two = f32[] constant(2)
  %twos = f32[4]{0} broadcast(f32[] %two), dimensions={}
  %add = f32[4]{0} add(f32[4]{0} %mul, f32[4]{0} %twos)
  ROOT %neg = f32[4]{0} negate(f32[4]{0} %add)
}
"""


def names(module: hlo.Module) -> list[str]:
    return [i.name for i in module.entry.instructions]


def params(module: hlo.Module) -> list[tuple[str, int]]:
    return [(p.name, p.attr("parameter_number")) for p in module.entry.parameters]


def test_default_height_keeps_the_cone_up_to_the_entry_parameters():
    m = extract(parse_module(SMALL), "add")
    assert extract(parse_module(SMALL), "%add") == m  # a name as the text writes it
    assert m.entry.root_name == "add"
    assert names(m) == ["a", "b", "mul", "two", "twos", "add"]  # post order; %neg is not in the cone
    assert params(m) == [("a", 0), ("b", 1)]
    hlo.verify(m)
    assert parse_module(m.to_text()) == m  # the text round-trips


@pytest.mark.parametrize(
    ("height", "expected_params", "kept"),
    [
        (0, [("mul", 0), ("twos", 1)], ["add"]),
        (1, [("a", 0), ("b", 1)], ["mul", "two", "twos", "add"]),  # %two is 2 hops up: kept, a constant
        (2, [("a", 0), ("b", 1)], ["mul", "two", "twos", "add"]),
    ],
)
def test_height_makes_farther_values_parameters_and_keeps_constants(height, expected_params, kept):
    m = extract(parse_module(SMALL), "add", height=height)
    assert params(m) == expected_params
    assert [n for n in names(m) if n not in dict(expected_params)] == kept
    hlo.verify(m)


def test_parameters_are_numbered_in_post_order_from_the_root():
    """XLA's extractor numbers parameters as its post-order walk meets them, not as before."""
    text = SMALL.replace("multiply(f32[4]{0} %a, f32[4]{0} %b)", "multiply(f32[4]{0} %b, f32[4]{0} %a)")
    assert params(extract(parse_module(text), "mul")) == [("b", 0), ("a", 1)]


def test_called_computations_come_along_with_their_callees():
    module = hlo.load(CONTROL_FLOW).module
    whole = extract(module, "cond.7")
    assert {c.name for c in whole.computations} == {"main.10", "region_0.1", "region_1.2", "region_2.3"}
    top = extract(module, "cond.7", height=0)  # the reduce (and its region_0.1) is above the boundary
    assert {c.name for c in top.computations} == {"main.10", "region_1.2", "region_2.3"}


def test_a_tuple_valued_boundary_becomes_one_parameter_per_leaf():
    e = extract_with_sources(hlo.load(CONTROL_FLOW).module, "cond.7", height=0)
    assert params(e.module) == [
        ("convert_element_type.1", 0), ("cond.5.leaf0", 1), ("cond.5.leaf1", 2),
        ("cond.6.leaf0", 3), ("cond.6.leaf1", 4),
    ]  # fmt: skip
    assert e.module.entry["cond.5"].opcode is hlo.Opcode.TUPLE
    assert [(s.name, s.index) for s in e.sources][1:3] == [("cond.5", (0,)), ("cond.5", (1,))]
    hlo.verify(e.module)


def test_an_instruction_of_a_called_computation():
    m = extract(hlo.load(CONTROL_FLOW).module, "reduce_sum.5", computation="region_0.1")
    assert m.entry_name == "region_0.1" and m.entry.root_name == "reduce_sum.5"
    assert [p.name for p in m.entry.parameters] == ["reduce_sum.3", "reduce_sum.4"]


def test_unknown_names_suggest_near_ones(capsys):
    module = parse_module(SMALL)
    with pytest.raises(
        hlo.HloError, match=r"no instruction named 'mull' in computation main .*did you mean mul\?"
    ):
        extract(module, "mull")
    with pytest.raises(hlo.HloError, match=r"it is in computation region_0.1: --computation region_0.1"):
        extract(hlo.load(CONTROL_FLOW).module, "reduce_sum.5")
    with pytest.raises(hlo.HloError, match=r"no computation named 'region_0' .*did you mean region_0.1"):
        extract(hlo.load(CONTROL_FLOW).module, "x", computation="region_0")
    with pytest.raises(hlo.HloError, match="the height must be >= 0, not -1"):
        extract(module, "add", height=-1)
    assert main(["extract", str(CONTROL_FLOW), "cond7"]) == 1
    assert re.fullmatch(
        r".*control_flow.hlo: no instruction named 'cond7' .*did you mean cond.7.*", one_line_error(capsys)
    )


def test_cli_writes_a_module_that_hlo_check_accepts(tmp_path, capsys):
    assert main(["extract", str(CONTROL_FLOW), "cond.8", "--height", "1"]) == 0
    text = capsys.readouterr().out
    out = tmp_path / "cond8.hlo"
    out.write_text(text)
    assert main(["check", str(out)]) == 0
    assert main(["extract", str(CONTROL_FLOW), "cond.8", "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().err
    assert out.read_text() == extract(hlo.load(CONTROL_FLOW).module, "cond.8").to_text()


@pytest.mark.parametrize(("instruction", "height"), [("cond.7", "0"), ("cond.7", None), ("clamp.3", "1")])
def test_values_from_a_dump_reproduce_the_instruction(tmp_path, capsys, instruction, height):
    dump = tmp_path / "values"
    assert main(["run", str(CONTROL_FLOW), "--seed", "4", "--dump-values", str(dump)]) == 0
    out = tmp_path / "x.hlo"
    extra = ["--height", height] if height is not None else []
    assert (
        main(["extract", str(CONTROL_FLOW), instruction, "-o", str(out), "--values", str(dump), *extra]) == 0
    )
    inputs = tmp_path / "x.inputs.npz"
    assert f"wrote {inputs}: hlo run {out} --inputs {inputs}" in capsys.readouterr().err
    result = tmp_path / "r.npz"
    assert main(["run", str(out), "--inputs", str(inputs), "--output", str(result)]) == 0
    index = json.loads((dump / "index.json").read_text())
    recorded = next(e for e in index if e["name"] == instruction and e["computation"] == "main.10")
    np.testing.assert_array_equal(np.load(result)["out0"], np.load(dump / recorded["file"]))


def test_values_errors_are_one_line(tmp_path, capsys):
    out = str(tmp_path / "x.hlo")
    assert main(["extract", str(CONTROL_FLOW), "cond.7", "--values", str(tmp_path)]) == 1
    assert "--values needs -o OUT" in one_line_error(capsys)
    assert main(["extract", str(CONTROL_FLOW), "cond.7", "-o", out, "--values", str(tmp_path / "none")]) == 1
    assert "none: the values directory does not exist" in one_line_error(capsys)
    assert main(["extract", str(CONTROL_FLOW), "cond.7", "-o", out, "--values", str(tmp_path)]) == 1
    assert "not a --dump-values directory (it has no index.json)" in one_line_error(capsys)
    dump = tmp_path / "values"
    assert main(["run", str(CONTROL_FLOW), "--dump-values", str(dump)]) == 0
    capsys.readouterr()
    # A called computation's parameters are not recorded (only what its instructions compute).
    args = ["extract", str(CONTROL_FLOW), "reduce_sum.5", "--computation", "region_0.1"]
    assert main([*args, "-o", out, "--values", str(dump)]) == 1
    assert re.search(
        r"no value of %reduce_sum.3 \(computation region_0.1\) for parameter 0", one_line_error(capsys)
    )
    assert main(["extract", str(CONTROL_FLOW), "cond.7", "-o", str(tmp_path / "no" / "x.hlo")]) == 1
    assert "does not exist" in one_line_error(capsys)


@pytest.mark.parametrize(
    "path", ["dumps/mlp_grad.opt.hlo", "dumps/control_flow.opt.hlo", "dumps_proto/loop.after.hlo.pb"]
)
@pytest.mark.parametrize("height", [0, 2, None])
def test_every_instruction_extracted_computes_its_recorded_value(path, height):
    """Each entry instruction of optimized modules (fusions, loops, a scheduled module) extracted
    and fed the recorded values computes the value it had in the whole run, bit for bit."""
    from hlo.replay.bisect import record
    from hlo.replay.extract import values_of
    from hlo.replay.inputs import make_inputs

    module = hlo.load(GOLDEN / path).module
    recorded = record(module, make_inputs(module, "random", 3))
    for instr in module.entry.instructions:
        if (module.entry_name, instr.name) not in recorded:
            continue  # dead code: the run skips it
        e = extract_with_sources(module, instr.name, height)
        assert parse_module(e.module.to_text()) == e.module
        result = hlo.run(e.module, *values_of(e, recorded, "recorded"))
        leaves = recorded[(module.entry_name, instr.name)]
        got = dict(hlo.replay.values.leaf_values(result))
        assert got.keys() == leaves.keys(), instr.name
        for k, want in leaves.items():
            np.testing.assert_array_equal(got[k], want, err_msg=instr.name)
