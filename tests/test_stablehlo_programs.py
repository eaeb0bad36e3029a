"""StableHLO in: the golden jax programs' StableHLO (tests/golden/stablehlo/programs, from
`jax.jit(f).lower(*args).as_text()`, made by tools/make_stablehlo_fixtures.py) read by
`hlo.parse_stablehlo` and run by the engine match XLA:CPU's outputs for the same inputs (the
golden dumps' .npz): integers and predicates exactly, floats within rounding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo

GOLDEN = Path(__file__).parent / "golden"
PROGRAMS = GOLDEN / "stablehlo" / "programs"
FILES = sorted(p.name for p in PROGRAMS.glob("*.mlir"))


def leaves(value: object) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in leaves(v)]
    assert isinstance(value, np.ndarray)
    return [value]


def run_file(file: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    module = hlo.parse_stablehlo((PROGRAMS / file).read_text(), file)
    hlo.verify(module)
    data = np.load(GOLDEN / "dumps" / f"{file.split('.')[0]}.npz")
    params = module.entry.parameter_shapes
    args = [data[f"arg{k}"].astype(s.element_type.numpy_dtype) for k, s in enumerate(params)]
    outs = [data[k] for k in sorted((k for k in data.files if k.startswith("out")), key=lambda k: int(k[3:]))]
    return leaves(hlo.run(module, *args)), outs


def assert_matches(got: list[np.ndarray], expected: list[np.ndarray]) -> None:
    assert len(got) == len(expected)
    for k, (g, e) in enumerate(zip(got, expected)):
        widened = g.astype(np.float32) if g.dtype.kind == "V" and e.dtype == np.float32 else g
        assert widened.shape == e.shape, f"out{k}"
        assert widened.dtype == e.dtype, f"out{k}"
        if e.dtype.kind in "fc":
            np.testing.assert_allclose(widened, e, rtol=2e-4, atol=1e-5, err_msg=f"out{k}")
        else:
            np.testing.assert_array_equal(widened, e, err_msg=f"out{k}")


def test_every_golden_program_has_its_stablehlo() -> None:
    dumps = {p.stem for p in (GOLDEN / "dumps").glob("*.npz")}
    assert dumps <= {f.split(".")[0] for f in FILES}
    assert any(f.endswith(".generic.mlir") for f in FILES)
    assert any(f.endswith(".loc.mlir") for f in FILES)


@pytest.mark.parametrize("file", FILES)
def test_program_matches_xla_cpu(file: str) -> None:
    got, expected = run_file(file)
    assert_matches(got, expected)


def test_the_module_is_named_and_laid_out_as_xla_converts_it() -> None:
    module = hlo.parse_stablehlo((PROGRAMS / "control_flow.mlir").read_text(), "control_flow.mlir")
    assert module.name == "jit_fn"
    assert module.entry_name.startswith("main.")
    names = [i.name for i in module.entry.instructions]
    assert names[0].startswith("Arg_0.")
    assert all(c.name.startswith("region_") for c in module.computations if c is not module.entry)
    layout = module.config.entry_computation_layout
    assert layout is not None and str(layout.parameters[0]) == "f32[4]{0}"
    assert module.entry.root.opcode is hlo.Opcode.TUPLE
