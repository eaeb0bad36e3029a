"""`hlo run`: bundled examples, inputs and outputs as .npz, seeded random inputs, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.cli.examples import NAMES, load_example
from hlo.cli.main import main
from hlo.replay.inputs import make_inputs
from hlo.text.parser import parse_module

DUMPS = Path(__file__).parent / "golden" / "dumps"


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("mlp", "out0 (loss): f32[] "),
        ("cnn", "out0 (class probabilities (softmax over 10 classes, per image)): f32[2,10] "),
        ("transformer", "out0 (the block's output x + attention + MLP): f32[2,8,16] "),
    ],
)
def test_examples_run_and_name_their_outputs(name, first, capsys):
    assert main(["run", "--example", name]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"example {name} (")
    assert lines[1].startswith("  from tools/make_golden_dumps.py, ")
    assert lines[2] == (
        "  inputs: random, seed 0 (floats from a standard normal distribution; --seed N for others, "
        "--inputs IN.npz for your own)"
    )
    assert lines[3].startswith(first)


def test_mlp_example_names_the_loss_and_each_gradient(tmp_path, capsys):
    inputs = tmp_path / "in.npz"
    np.savez(inputs, **dict(np.load(DUMPS / "mlp_grad.npz")))
    assert main(["run", "--example", "mlp", "--inputs", str(inputs)]) == 0
    out = capsys.readouterr().out
    assert f"  inputs: {inputs}\n" in out
    lines = out.splitlines()[3:]
    prefixes = [
        "out0 (loss): f32[] ",
        "out1 (d loss / d b1): f32[16] {",
        "out2 (d loss / d b2): f32[4] {",
        "out3 (d loss / d w1): f32[8,16] float32[8, 16]  min ",
        "out4 (d loss / d w2): f32[16,4] {",
    ]
    assert len(lines) == len(prefixes) and all(a.startswith(b) for a, b in zip(lines, prefixes)), lines
    assert main(["run", "--example", "mlp", "--seed", "5", "--random-range=-1,1"]) == 0
    assert "  inputs: random, seed 5 (floats uniform in [-1, 1); " in capsys.readouterr().out


@pytest.mark.parametrize("name", NAMES)
def test_every_example_has_a_name_per_output(name):
    example = load_example(name)
    root = parse_module(example.text).entry.root.shape
    assert len(example.outputs) == len(list(root.leaves()) if root.is_tuple else [root])
    assert all(example.outputs) and example.description and example.program


def test_mlp_example_names_match_what_jax_computes():
    """The names say which gradient each output is: jax computes each from the same inputs."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    module = parse_module(load_example("mlp").text)
    b1, b2, w1, w2, x, y = make_inputs(module, "random", 0)

    def loss(params, x, y):
        h = jax.nn.relu(x @ params["w1"] + params["b1"])
        return jnp.mean((jnp.tanh(h @ params["w2"] + params["b2"]) - y) ** 2)

    value, grads = jax.jit(jax.value_and_grad(loss))({"b1": b1, "b2": b2, "w1": w1, "w2": w2}, x, y)
    want = {"loss": value, **{f"d loss / d {k}": g for k, g in grads.items()}}
    for name, got in zip(load_example("mlp").outputs, hlo.run(module, b1, b2, w1, w2, x, y)):
        np.testing.assert_allclose(got, want[name], rtol=2e-4, atol=1e-6, err_msg=name)


def test_inputs_and_outputs_files(tmp_path):
    inputs = DUMPS / "mlp_grad.npz"
    out = tmp_path / "out.npz"
    assert main(["run", str(DUMPS / "mlp_grad.hlo"), "--inputs", str(inputs), "--output", str(out)]) == 0
    got, want = np.load(out), np.load(inputs)
    for k in range(5):
        np.testing.assert_allclose(got[f"out{k}"], want[f"out{k}"], rtol=2e-4, atol=1e-5)


def test_random_inputs_are_seeded(tmp_path):
    a, b, c = tmp_path / "a.npz", tmp_path / "b.npz", tmp_path / "c.npz"
    module = str(DUMPS / "cnn.hlo")
    main(["run", module, "--output", str(a), "--seed", "1"])
    main(["run", module, "--output", str(b), "--seed", "1"])
    main(["run", module, "--output", str(c), "--seed", "2"])
    assert np.array_equal(np.load(a)["out0"], np.load(b)["out0"])
    assert not np.array_equal(np.load(a)["out0"], np.load(c)["out0"])


def test_print_uses_xla_literal_text(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text("HloModule m\nENTRY e {\n  ROOT i = s32[2,3] iota(), iota_dimension=1\n}\n")
    assert main(["run", str(path), "--print"]) == 0
    assert "out0: s32[2,3] { { 0, 1, 2 }, { 0, 1, 2 } }" in capsys.readouterr().out


def test_errors_are_diagnostics_not_tracebacks(tmp_path, capsys):
    path = tmp_path / "m.hlo"
    path.write_text("HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  ROOT r = f32[2] negate(a)\n}\n")
    missing = tmp_path / "none.npz"
    np.savez(missing, other=np.zeros(2))
    assert main(["run", str(path), "--inputs", str(missing)]) == 1
    assert "has no arg0 for parameter 0" in capsys.readouterr().err
    assert main(["run"]) == 1
    assert "give a MODULE file or --example NAME" in capsys.readouterr().err
