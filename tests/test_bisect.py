"""`hlo bisect`: every entry instruction's value compared with a reference's (a `--dump-values`
directory, another module run by hlo, XLA:CPU), the first divergent one named with its operands'
agreement, and a repro written (a module of that instruction alone, its inputs, the reference's
value). Divergences are made on purpose: a dump edited, a module with one instruction changed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import cli_checks
import hlo
from hlo.cli.main import main
from hlo.replay.bisect import bisect, of_computation, record
from hlo.text.parser import parse_module

GOLDEN = Path(__file__).parent / "golden"
CONTROL_FLOW = GOLDEN / "dumps" / "control_flow.hlo"

SMALL = """HloModule small, entry_computation_layout={(f32[4]{0}, f32[4]{0})->f32[4]{0}}

ENTRY %main (a: f32[4], b: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %b = f32[4]{0} parameter(1)
  %mul = f32[4]{0} multiply(f32[4]{0} %a, f32[4]{0} %b)
  %two = f32[] constant(2)
  %twos = f32[4]{0} broadcast(f32[] %two), dimensions={}
  %add = f32[4]{0} add(f32[4]{0} %mul, f32[4]{0} %twos)
  %idx = s32[4]{0} iota(), iota_dimension=0
  %f = f32[4]{0} convert(s32[4]{0} %idx)
  %sub = f32[4]{0} subtract(f32[4]{0} %add, f32[4]{0} %f)
  ROOT %neg = f32[4]{0} negate(f32[4]{0} %sub)
}
"""


def one_line_error(capsys) -> str:
    # an error prints nothing on standard output: told apart from a divergence
    return cli_checks.one_line_error(capsys, nothing_on_stdout=True)


@pytest.fixture
def small(tmp_path) -> Path:
    path = tmp_path / "small.hlo"
    path.write_text(SMALL)
    return path


def dump(tmp_path: Path, module: Path, *args: str) -> Path:
    out = tmp_path / "values"
    assert main(["run", str(module), "--dump-values", str(out), *args]) == 0
    return out


def edit(directory: Path, name: str, change) -> None:
    entry = next(e for e in json.loads((directory / "index.json").read_text()) if e["name"] == name)
    value = np.load(directory / entry["file"])
    np.save(directory / entry["file"], change(value))


def test_a_dump_of_the_same_run_agrees_everywhere(tmp_path, small, capsys):
    values = dump(tmp_path, small, "--seed", "2")
    capsys.readouterr()
    assert main(["bisect", str(small), "--reference", str(values)]) == 0
    out = capsys.readouterr().out
    assert f"inputs: the arguments recorded in {values}" in out
    assert out.splitlines()[-1] == "no instruction differs: 10 compared"


def test_an_edited_dump_names_the_first_divergent_instruction(tmp_path, small, capsys):
    values = dump(tmp_path, small)
    edit(values, "add", lambda v: v + np.array([0, 0, 0.5, 0], np.float32))
    capsys.readouterr()
    assert main(["bisect", str(small), "--reference", str(values)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "first divergence: %add (1 of 10 compared instructions differ)"
    assert lines[2].strip() == "%add = f32[4]{0} add(%mul, %twos)"
    assert lines[3].strip().startswith("%add: 1 of 4 elements differ; worst at [2]")
    assert lines[4].strip().startswith("largest differences: abs 0.5, rel")
    assert lines[5].strip() == "operands: %mul agrees, %twos agrees"


def test_the_repro_computes_hlo_value_and_shows_the_divergence_again(tmp_path, small, capsys):
    values = dump(tmp_path, small)
    entry = next(e for e in json.loads((values / "index.json").read_text()) if e["name"] == "add")
    ours = np.load(values / entry["file"])  # hlo's value of %add
    edit(values, "add", lambda v: v * 3)
    out = tmp_path / "repro"
    capsys.readouterr()
    assert main(["bisect", str(small), "--reference", str(values), "-o", str(out)]) == 1
    text = capsys.readouterr().out
    module, inputs, expected = out / "add.hlo", out / "add.inputs.npz", out / "add.expected.npz"
    assert f"re-run: hlo run {module} --inputs {inputs} --compare {expected}" in text
    repro = hlo.load(module).module
    assert repro.entry.root_name == "add"
    # height 0: operands as parameters, but the multiply XLA:CPU fuses into the add stays with
    # it (hlo.numerics.contraction), so the repro computes the add as the whole program did
    assert [p.name for p in repro.entry.parameters] == ["a", "b", "twos"]
    assert repro.entry.by_name["mul"].opcode is hlo.Opcode.MULTIPLY
    result = tmp_path / "r.npz"
    assert main(["run", str(module), "--inputs", str(inputs), "--output", str(result)]) == 0
    np.testing.assert_array_equal(np.load(result)["out0"], ours)
    np.testing.assert_array_equal(
        np.load(expected)["out0"], np.load(values / entry["file"])
    )  # the reference's
    assert (out / "add.reference_inputs.npz").exists()
    capsys.readouterr()
    assert main(["run", str(module), "--inputs", str(inputs), "--compare", str(expected)]) == 1
    assert "mismatch" in capsys.readouterr().out


def test_another_module_with_one_instruction_changed(tmp_path, small, capsys):
    other = tmp_path / "other.hlo"
    other.write_text(SMALL.replace("multiply(", "add("))
    assert (
        main(["bisect", str(small), "--reference", str(other), "--seed", "5", "-o", str(tmp_path / "r")]) == 1
    )
    out = capsys.readouterr().out
    assert "inputs: seed 5" in out
    assert "first divergence: %mul (4 of 10 compared instructions differ)" in out
    assert "operands: %a agrees, %b agrees" in out
    # The repro's inputs are the operands; its value is hlo's %mul, the expected one the other's.
    module = hlo.load(tmp_path / "r" / "mul.hlo").module
    inputs = np.load(tmp_path / "r" / "mul.inputs.npz")
    got = hlo.run(module, inputs["arg0"], inputs["arg1"])
    np.testing.assert_array_equal(got, inputs["arg0"] * inputs["arg1"])
    np.testing.assert_array_equal(
        np.load(tmp_path / "r" / "mul.expected.npz")["out0"], inputs["arg0"] + inputs["arg1"]
    )


def test_instructions_absent_on_one_side_are_skipped(tmp_path, small, capsys):
    other = tmp_path / "other.hlo"
    other.write_text(SMALL.replace("%sub", "%sub2"))
    assert main(["bisect", str(small), "--reference", str(other), "--inputs", str(inputs(tmp_path))]) == 0
    assert (
        "no instruction differs: 9 compared (1 skipped: 1 absent from the reference)"
        in capsys.readouterr().out
    )


def inputs(tmp_path: Path) -> Path:
    path = tmp_path / "in.npz"
    np.savez(path, arg0=np.arange(4, dtype=np.float32), arg1=np.full(4, 3, np.float32))
    return path


def test_tolerances_decide_what_differs(tmp_path, small, capsys):
    values = dump(tmp_path, small)
    edit(values, "mul", lambda v: v * np.float32(1 + 1e-3))
    capsys.readouterr()
    assert main(["bisect", str(small), "--reference", str(values)]) == 1  # beyond f32's 1e-4
    assert "first divergence: %mul" in capsys.readouterr().out
    assert main(["bisect", str(small), "--reference", str(values), "--rtol", "1e-2"]) == 0


def test_tuple_values_compare_leaf_by_leaf(tmp_path, capsys):
    values = dump(tmp_path, CONTROL_FLOW)
    module = hlo.load(CONTROL_FLOW).module
    ours = of_computation(
        record(module, [np.ones(4, np.float32), np.ones(4, np.float32), np.int32(1)]), "main.10"
    )
    result = bisect(module, ours, {n: dict(v) for n, v in ours.items()})
    assert result.first is None and len(result.checked) == len(ours)
    edit(values, "cond.6", lambda v: v)  # cond.6 is a tuple: its leaves are files .0 and .1
    index = json.loads((values / "index.json").read_text())
    leaf = next(e for e in index if e["name"] == "cond.6" and e["index"] == [1])
    np.save(values / leaf["file"], np.load(values / leaf["file"]) + 1)
    capsys.readouterr()
    assert main(["bisect", str(CONTROL_FLOW), "--reference", str(values), "-o", str(tmp_path / "r")]) == 1
    out = capsys.readouterr().out
    assert "first divergence: %cond.6" in out and "%cond.6{1}: 4 of 4 elements differ" in out
    assert (tmp_path / "r" / "cond.6.hlo").exists()


def test_bad_references_are_one_line_errors(tmp_path, small, capsys):
    assert main(["bisect", str(small), "--reference", str(tmp_path / "none")]) == 1
    assert "none: the reference does not exist" in one_line_error(capsys)
    assert main(["bisect", str(small), "--reference", str(tmp_path)]) == 1
    assert "not a --dump-values directory (it has no index.json)" in one_line_error(capsys)
    (tmp_path / "devices" / "device0").mkdir(parents=True)
    assert main(["bisect", str(small), "--reference", str(tmp_path / "devices")]) == 1
    assert "a dump of several devices has one per device: DIR/device0" in one_line_error(capsys)
    values = dump(tmp_path, CONTROL_FLOW)  # a dump of another module
    capsys.readouterr()
    assert main(["bisect", str(small), "--reference", str(values)]) == 1
    assert "no common names" in one_line_error(capsys)
    other = tmp_path / "other.hlo"
    other.write_text(SMALL.replace("%", "%x_").replace("x_main", "main"))
    assert main(["bisect", str(small), "--reference", str(other)]) == 1
    assert "other.hlo: no instruction of its entry has the name of one in small's entry" in one_line_error(
        capsys
    )
    assert main(["bisect", str(small), "--reference", str(CONTROL_FLOW)]) == 1
    assert "control_flow.hlo: 3 parameters, the module bisected has 2" in one_line_error(capsys)


def test_reference_xla_without_jaxlib_is_a_clear_error(small, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "jax", None)
    assert main(["bisect", str(small), "--reference", "xla"]) == 1
    assert one_line_error(capsys) == "--reference xla needs jaxlib: pip install 'hlo[xla]'"


def test_reference_xla_agrees_on_a_jax_program(capsys):
    pytest.importorskip("jax")
    assert main(["bisect", str(CONTROL_FLOW), "--reference", "xla", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "compared with XLA:CPU" in out
    assert "no instruction differs: 13 compared" in out  # the 3 parameters and 3 tuples are not outputs


def test_inside_a_fusion_the_first_differing_instruction_is_named(tmp_path, capsys):
    """An optimized module: the divergent entry instruction is a fusion; the values of its fused
    computation (recorded on both sides) name the instruction inside that differs first."""
    module = GOLDEN / "dumps" / "mlp_grad.opt.hlo"
    text = module.read_text()
    changed = "%mul.1 = f32[5,4]{1,0} multiply("
    assert text.count(changed) == 1
    other = tmp_path / "other.hlo"
    other.write_text(text.replace(changed, "%mul.1 = f32[5,4]{1,0} add("))
    assert main(["bisect", str(module), "--reference", str(other)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("first divergence: %multiply_add_fusion ")
    at = lines.index("  inside it (values of the last call), the first to differ is in fused_computation.4:")
    assert lines[at + 1].strip().startswith("%mul.1 = f32[5,4]{1,0} multiply(%broadcast_in_dim.0, %sub.0)")
    assert lines[at + 2].strip().startswith("%mul.1: 20 of 20 elements differ")


BF16 = """HloModule half, entry_computation_layout={(bf16[3]{0})->bf16[3]{0}}

ENTRY %main (x: bf16[3]) -> bf16[3] {
  %x = bf16[3]{0} parameter(0)
  %e = bf16[3]{0} exponential(bf16[3]{0} %x)
  ROOT %m = bf16[3]{0} multiply(bf16[3]{0} %e, bf16[3]{0} %x)
}
"""


def test_bf16_values_come_back_from_a_dump_in_their_type(tmp_path, capsys):
    """A dump stores bf16 widened to f32: read back, it compares as bf16, with bf16's tolerance."""
    path = tmp_path / "half.hlo"
    path.write_text(BF16)
    values = dump(tmp_path, path)
    capsys.readouterr()
    assert main(["bisect", str(path), "--reference", str(values)]) == 0
    assert "no instruction differs: 3 compared" in capsys.readouterr().out
    edit(values, "e", lambda v: v * np.float32(1.005))  # within bf16's default rtol (2e-2)
    assert main(["bisect", str(path), "--reference", str(values)]) == 0
    edit(values, "e", lambda v: v * np.float32(1.5))
    capsys.readouterr()
    assert main(["bisect", str(path), "--reference", str(values), "-o", str(tmp_path / "r")]) == 1
    assert "first divergence: %e" in capsys.readouterr().out
    assert main(["run", str(tmp_path / "r" / "e.hlo"), "--inputs", str(tmp_path / "r" / "e.inputs.npz")]) == 0


def test_inputs_given_win_over_the_dump_recorded_ones(tmp_path, small, capsys):
    values = dump(tmp_path, small, "--seed", "7")
    capsys.readouterr()
    assert main(["bisect", str(small), "--reference", str(values), "--inputs", str(inputs(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert f"inputs: {tmp_path / 'in.npz'}" in out
    assert "first divergence: %a " in out  # the parameters differ: other inputs than the dump's


def test_several_devices_are_an_error(tmp_path, small, capsys):
    path = tmp_path / "two.hlo"
    path.write_text(SMALL.replace("HloModule small,", "HloModule small, replica_count=2,"))
    assert main(["bisect", str(path), "--reference", str(small)]) == 1
    assert "hlo bisect runs one device; the module runs on 2" in one_line_error(capsys)


def test_the_module_xla_runs_returns_every_instruction_asked_for(small):
    """What --reference xla sends XLA (checked here on hlo): the entry with a tuple root of the
    instructions, which verifies and computes the same values as the original run."""
    from hlo.replay.xla_values import comparable, outputs_module

    module = hlo.load(small).module
    args = [np.arange(4, dtype=np.float32), np.full(4, 3, np.float32)]
    names = [i.name for i in module.entry.instructions if comparable(i)]
    assert names == ["mul", "two", "twos", "add", "idx", "f", "sub", "neg"]
    batch = outputs_module(module, names[2:5])
    hlo.verify(batch)
    ours = record(module, args)
    for name, value in zip(names[2:5], hlo.run(batch, *args)):
        np.testing.assert_array_equal(value, ours[("main", name)][()])


def test_reference_xla_in_batches(small):
    """Two batches of outputs, two XLA runs: every instruction's value comes back (the inputs
    make every value exact in f32, so XLA's equal the arithmetic's)."""
    pytest.importorskip("jax")
    from hlo.replay.xla_values import xla_values

    module = hlo.load(small).module
    a, b = np.arange(4, dtype=np.float32), np.full(4, 3, np.float32)
    names = [i.name for i in module.entry.instructions]
    got = xla_values(module, [a, b], names, batch=5)
    assert list(got) == ["mul", "two", "twos", "add", "idx", "f", "sub", "neg"]
    want = {"mul": a * b, "add": a * b + 2, "f": np.arange(4), "sub": a * b + 2 - a, "neg": -(a * b + 2 - a)}
    for name, value in want.items():
        np.testing.assert_array_equal(got[name][()], value)


def test_a_dump_of_a_module_whose_entry_has_another_name(tmp_path, small, capsys):
    """A pass may rename the entry computation: the dumped computation sharing the most names
    with the entry stands for it."""
    values = dump(tmp_path, small, "--seed", "1")
    renamed = tmp_path / "renamed.hlo"
    renamed.write_text(SMALL.replace("ENTRY %main ", "ENTRY %main.2 "))
    capsys.readouterr()
    assert main(["bisect", str(renamed), "--reference", str(values)]) == 0
    out = capsys.readouterr().out
    assert f"inputs: the arguments recorded in {values}" in out
    assert "no instruction differs: 10 compared" in out


def test_a_chain_the_engine_would_fuse_is_recorded_op_by_op():
    """Elementwise chains over large arrays run fused (block by block, one step); bisect's run
    records each instruction's value all the same."""
    big = SMALL.replace("[4]", "[512,512]").replace("{0}", "{1,0}")
    big = big.replace("iota_dimension=0", "iota_dimension=1")
    module = parse_module(big)
    a = np.random.default_rng(0).standard_normal((512, 512)).astype(np.float32)
    values = record(module, [a, a])
    assert [n for _, n in values] == [i.name for i in module.entry.instructions]
    np.testing.assert_array_equal(values[("main", "mul")][()], a * a)


CANCELS = """HloModule cancels, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

ENTRY %main (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  %one = f32[] constant(1)
  %ones = f32[4]{0} broadcast(f32[] %one), dimensions={}
  %m = f32[4]{0} maximum(f32[4]{0} %a, f32[4]{0} %ones)
  %d = f32[4]{0} subtract(f32[4]{0} %m, f32[4]{0} %ones)
  ROOT %r = f32[4]{0} negate(f32[4]{0} %d)
}
"""


def cancelling_reference(tmp_path: Path, capsys) -> tuple[Path, Path]:
    """A dump whose %m differs within tolerance (5e-5 relative) and whose %d = %m - 1 and %r = -%d
    follow from it: %d's cancellation magnifies the difference past the tolerance. (%m is no
    multiply: XLA:CPU would fuse that into %d, whose check would then take %m's operands.)"""
    module = tmp_path / "cancels.hlo"
    module.write_text(CANCELS)
    np.savez(tmp_path / "in.npz", arg0=np.array([1.001, 1.002, 1.003, 1.004], np.float32))
    values = dump(tmp_path, module, "--inputs", str(tmp_path / "in.npz"))
    edit(values, "m", lambda v: v * np.float32(1 + 5e-5))
    m = np.load(
        values / next(e["file"] for e in json.loads((values / "index.json").read_text()) if e["name"] == "m")
    )
    edit(values, "d", lambda v: m - np.float32(1))
    edit(values, "r", lambda v: -(m - np.float32(1)))
    capsys.readouterr()
    return module, values


def test_a_difference_magnified_is_told_from_one_made(tmp_path, capsys):
    module, values = cancelling_reference(tmp_path, capsys)
    assert main(["bisect", str(module), "--reference", str(values)]) == 1
    out = capsys.readouterr().out
    assert "first divergence: %d (2 of 6 compared instructions differ)" in out
    assert "operands: %m agrees, %ones agrees" in out
    assert "given the reference's operands, hlo gives the reference's value" in out
    assert "none of the 2 differing instructions checked differs given the reference's operands" in out


def test_the_first_instruction_at_fault_after_a_magnified_difference(tmp_path, capsys):
    module, values = cancelling_reference(tmp_path, capsys)
    edit(values, "r", lambda v: v + 1)  # %r now computes differently, whatever its operand
    assert main(["bisect", str(module), "--reference", str(values), "-o", str(tmp_path / "r")]) == 1
    out = capsys.readouterr().out
    assert "first divergence: %d " in out
    assert "the first that differs given the reference's operands: %r (still differs)" in out
    assert f"re-run: hlo run {tmp_path / 'r' / 'r.hlo'}" in out  # a repro of each
    assert f"re-run: hlo run {tmp_path / 'r' / 'd.hlo'}" in out
    # Run on the reference's operands, the repro of %r still differs from the reference's %r.
    reference_inputs = tmp_path / "r" / "r.reference_inputs.npz"
    expected = tmp_path / "r" / "r.expected.npz"
    assert (
        main(
            [
                "run",
                str(tmp_path / "r" / "r.hlo"),
                "--inputs",
                str(reference_inputs),
                "--compare",
                str(expected),
            ]
        )
        == 1
    )


def test_an_instruction_changed_is_at_fault(tmp_path, small, capsys):
    other = tmp_path / "other.hlo"
    other.write_text(SMALL.replace("multiply(", "add("))
    assert main(["bisect", str(small), "--reference", str(other)]) == 1
    out = capsys.readouterr().out
    assert "given the reference's operands, hlo still differs: this instruction computes differently" in out
