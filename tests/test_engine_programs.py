"""The real-program corpus (tests/golden/dumps: jax programs, unoptimized and as XLA:CPU optimized
them, their inputs and XLA:CPU's outputs) run by the engine: every output matches XLA:CPU
(integers and predicates exactly, floats within rounding: XLA:CPU fuses multiply-adds and folds
reductions in its own order)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo

DUMPS = Path(__file__).parent / "golden" / "dumps"

RUNNING = [
    "bitcast_convert", "checkpoint", "cnn", "complex_ops", "control_flow", "conv_grouped",
    "conv_transpose", "cumulative", "dot_general", "dynamic_slicing", "elementwise", "fft",
    "gather_scatter", "linalg", "mlp_grad", "pool_grad", "reduce_precision", "reductions", "rng",
    "rng_bit_generator", "scan_rnn", "sort", "transformer_block", "while_loop", "x64",
]  # fmt: skip
# rng: its values are XLA's own (not fixed by XLA); only shapes and types are compared.
RANDOM = {"rng"}


def load(name: str, optimized: bool = False) -> tuple[hlo.Module, list[np.ndarray], list[np.ndarray]]:
    """A dump (the XLA:CPU-optimized one: fusions, layout bitcasts, copies, custom calls; same
    inputs and outputs), its inputs and XLA:CPU's outputs."""
    file = f"{name}.opt.hlo" if optimized else f"{name}.hlo"
    module = hlo.parse_module((DUMPS / file).read_text(), file)
    data = np.load(DUMPS / f"{name}.npz")
    params = module.entry.parameter_shapes
    args = [data[f"arg{k}"].astype(s.element_type.numpy_dtype) for k, s in enumerate(params)]
    outs = [data[k] for k in sorted((k for k in data.files if k.startswith("out")), key=lambda k: int(k[3:]))]
    return module, args, outs


def leaves(value: object) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in leaves(v)]
    assert isinstance(value, np.ndarray)
    return [value]


@pytest.mark.parametrize("optimized", [False, True], ids=["hlo", "opt.hlo"])
@pytest.mark.parametrize("name", RUNNING)
def test_program_matches_xla_cpu(name: str, optimized: bool) -> None:
    module, args, expected = load(name, optimized)
    got = leaves(hlo.run(module, *args))
    assert len(got) == len(expected)
    for k, (g, e) in enumerate(zip(got, expected)):
        widened = g.astype(np.float32) if g.dtype.kind == "V" and e.dtype == np.float32 else g
        assert widened.shape == e.shape, f"out{k}"
        if name in RANDOM:
            assert widened.dtype == e.dtype
        elif e.dtype.kind in "fc":
            np.testing.assert_allclose(widened, e, rtol=2e-4, atol=1e-5, err_msg=f"out{k}")
        else:
            np.testing.assert_array_equal(widened, e, err_msg=f"out{k}")


def test_results_have_the_exact_result_types() -> None:
    module, args, _ = load("elementwise")
    root = module.entry.root.shape
    shapes = root.tuple_shapes if root.is_tuple else (root,)
    for value, shape in zip(leaves(hlo.run(module, *args)), shapes):
        assert value.dtype == shape.element_type.numpy_dtype
        assert value.shape == shape.dimensions
