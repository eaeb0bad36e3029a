"""Programs jax shards with shard_map, as XLA:CPU compiled them for 4 devices (per-device SPMD
modules: fusions, collectives over partitions with channel ids and iota groups, partition ids),
run on 4 devices in process; every device's results match jax's (tests/golden/sharded, made by
tools/make_sharded_fixtures.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hlo

SHARDED = Path(__file__).parent / "golden" / "sharded"


@pytest.mark.parametrize("name", sorted(p.stem for p in SHARDED.glob("*.hlo")))
def test_sharded_program_matches_jax(name):
    module = hlo.parse_module((SHARDED / f"{name}.hlo").read_text(), f"{name}.hlo")
    data = np.load(SHARDED / f"{name}.npz")
    devices = module.config.num_partitions * module.config.replica_count
    params = len(module.entry.parameters)
    args = [[data[f"in{d}_{k}"] for k in range(params)] for d in range(devices)]
    results = hlo.run(module, args)
    assert len(results) == devices
    for d, result in enumerate(results):
        leaves = result if isinstance(result, tuple) else (result,)
        for k, value in enumerate(leaves):
            np.testing.assert_allclose(
                value, data[f"out{d}_{k}"], rtol=1e-5, atol=1e-6, err_msg=f"device {d} out{k}"
            )
