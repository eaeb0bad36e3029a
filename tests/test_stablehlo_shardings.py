"""StableHLO in, shardings: a function's argument and result shardings (Shardy's `sdy.sharding`
over `sdy.mesh`, what jax writes, or `mhlo.sharding` strings) become the entry's parameter and
root shardings as jaxlib's own conversion gives them (tests/golden/stablehlo/shardings/, written
by tools/stablehlo_shardings.py: jax programs on a 4-device mesh and jaxlib's HLO of each)."""

from __future__ import annotations

from pathlib import Path

import pytest

import hlo
from hlo.stablehlo import StableHloError

SHARDINGS = Path(__file__).parent / "golden" / "stablehlo" / "shardings"
CASES = sorted(p.name.removesuffix(".mlir") for p in SHARDINGS.glob("*.mlir"))


def test_there_are_cases_of_both_spellings() -> None:
    assert any(c.endswith("_sdy") for c in CASES) and any(c.endswith("_mhlo") for c in CASES)


@pytest.mark.parametrize("name", CASES)
def test_shardings_are_xla_conversions(name: str) -> None:
    ours = hlo.parse_stablehlo((SHARDINGS / f"{name}.mlir").read_text(), f"{name}.mlir")
    theirs = hlo.parse_module((SHARDINGS / f"{name}.xla.hlo").read_text(), f"{name}.xla.hlo")
    assert ours.frontend_attributes.get("xla.sdy.meshes") == theirs.frontend_attributes.get("xla.sdy.meshes")
    # mhlo.layout_mode (layout_mode_sdy) leaves the entry's layout at its default, as in XLA's
    assert ours.config.entry_computation_layout == theirs.config.entry_computation_layout
    for mine, xla in zip(ours.entry.parameters, theirs.entry.parameters, strict=True):
        assert mine.sharding == xla.sharding, mine.name
        assert dict(mine.frontend_attributes) == dict(xla.frontend_attributes), mine.name
    assert ours.entry.root.sharding is not None
    assert ours.entry.root.sharding == theirs.entry.root.sharding
    assert ours.entry.root.opcode is theirs.entry.root.opcode


MESH = """module @m {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<SHARDING>}) -> tensor<4x4xf32> {
    return %arg0 : tensor<4x4xf32>
  }
}
"""


@pytest.mark.parametrize(
    ("sharding", "message"),
    [
        ('@other, [{"x"}, {}]', r"no sdy\.mesh @other in the module"),
        ('@mesh, [{"z"}, {}]', r'the axis "z" is not an axis of @mesh'),
        ('@mesh, [{"x":\\(1\\)2}, {}]', r"sub-axes are not supported"),
        ('@mesh, [{}, {}], replicated={"x"}', r"replicated, unreduced and manual axes are not supported"),
    ],
)
def test_shardings_it_cannot_express_are_located_errors(sharding: str, message: str) -> None:
    text = MESH.replace("SHARDING", sharding.replace("\\", ""))
    with pytest.raises(StableHloError, match=r"s\.mlir:3:\d+: error: sdy\.sharding .*" + message):
        hlo.parse_stablehlo(text, "s.mlir")
