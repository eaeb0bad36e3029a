"""`hlo run` features for replaying dumps: made-up inputs (--inputs-mode, --random-range, valid
indices), --print-inputs, --iterations timing, --dump-values, summaries of large arrays, several
modules with a table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

import hlo
from hlo.cli.main import main
from hlo.replay.inputs import index_bounds, make_inputs
from hlo.replay.instrument import Watch, describe_progress, instrument

GOLDEN = Path(__file__).parent / "golden"
PROTO = GOLDEN / "dumps_proto"

INDEXING = """HloModule m

ENTRY e {
  x = f32[10,4] parameter(0)
  i = s32[] parameter(1)
  idx = s32[5,1] parameter(2)
  k = s32[] parameter(3)
  z = s32[] constant(0)
  d = f32[3,4] dynamic-slice(x, i, z), dynamic_slice_sizes={3,4}
  g = f32[5,2,4] gather(x, idx), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0},
      index_vector_dim=1, slice_sizes={2,4}
  ROOT t = (f32[3,4], f32[5,2,4], s32[]) tuple(d, g, k)
}
"""


def test_random_indices_stay_inside_what_they_index():
    module = hlo.parse_module(INDEXING)
    assert index_bounds(module.entry) == {1: 8, 2: 9}  # 10 - 3 + 1 starts, 10 - 2 + 1 gather starts
    for seed in range(20):
        _, i, idx, k = make_inputs(module, "random", seed)
        assert 0 <= i < 8 and idx.min() >= 0 and idx.max() < 9
        assert 0 <= k < 8  # other integers: small and non-negative


def test_inputs_modes_and_range():
    module = hlo.parse_module(INDEXING)
    assert all(not np.any(v) for v in make_inputs(module, "zeros", 0))
    assert all(np.all(v == 3) for v in make_inputs(module, "device-id", 0, device=3))
    x = make_inputs(module, "random", 1, random_range=(2.0, 3.0))[0]
    assert x.min() >= 2.0 and x.max() < 3.0


def test_print_inputs_and_snapshot_mode(capsys):
    assert main(["run", str(PROTO / "loop.snapshot.pb"), "--print-inputs", "--inputs-mode", "snapshot"]) == 0
    out = capsys.readouterr().out
    assert re.match(r"arg0 \S+: float32\[6\] \[", out) and re.search(r"arg1 \S+: int32\[\] 5", out)
    assert main(["run", str(PROTO / "loop.before.hlo.pb"), "--inputs-mode", "snapshot"]) == 1
    assert "needs a snapshot file" in capsys.readouterr().err
    assert main(["run", str(PROTO / "loop.before.hlo.pb"), "--random-range", "3,1"]) == 1
    assert "--random-range needs LO < HI" in capsys.readouterr().err


def test_iterations_print_min_median_max_and_first_result(capsys):
    assert main(["run", str(PROTO / "mlp.snapshot.pb"), "--iterations", "3"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"3 runs after a warm-up: min [\d.]+ ms, median [\d.]+ ms, max [\d.]+ ms; "
                     r"first result [\d.]+ ms \(parse \+ plan \+ run\)", out)  # fmt: skip


def test_dump_values_writes_every_instruction_with_an_index(tmp_path, capsys):
    out = tmp_path / "values"
    assert main(["run", str(PROTO / "loop.snapshot.pb"), "--dump-values", str(out)]) == 0
    index = json.loads((out / "index.json").read_text())
    names = {(e["computation"], e["name"]) for e in index}
    module = hlo.load(PROTO / "loop.snapshot.pb").module
    assert (module.entry_name, module.entry.root_name) in names
    assert any(c != module.entry_name for c, _ in names)  # called computations too (loop body)
    for e in index:
        assert np.load(out / e["file"]).shape == tuple(e["shape"])
    root = next(e for e in index if e["name"] == module.entry.root_name)
    np.testing.assert_array_equal(np.load(out / root["file"]), hlo.load(PROTO / "loop.snapshot.pb").result)


def test_progress_counts_instructions_and_loop_iterations():
    loaded = hlo.load(PROTO / "loop.before.hlo.pb")
    from hlo.runtime.run import Executable

    executable = Executable(loaded.module)
    watch = Watch()
    instrument(executable, watch)
    executable(np.zeros(6, np.float32), np.int32(5))
    assert watch.steps > 0
    assert sorted(watch.iterations.values()) == [5]  # the body ran five times
    assert re.fullmatch(r"\d+ instructions done, while loop \S+: iteration 5", describe_progress(watch, 0))


def test_large_arrays_are_summarized_unless_print_full(capsys):
    assert main(["run", "--example", "cnn", "--print"]) == 0
    main(["run", "--example", "transformer", "--print"])
    out = capsys.readouterr().out
    assert re.search(
        r"out0 \(the block's output x \+ attention \+ MLP\): "
        r"f32\[2,8,16\] float32\[2, 8, 16\]  min \S+ max \S+ mean \S+  nan 0 inf 0  first \[",
        out,
    )
    main(["run", "--example", "transformer", "--print-full"])
    assert "min" not in capsys.readouterr().out


def test_a_directory_runs_its_snapshots(capsys):
    assert main(["run", str(PROTO)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 4  # three snapshots and one unoptimized snapshot
    assert all(line.split()[-2:] != ["error:"] for line in lines[1:])


def test_several_modules_print_a_table(capsys):
    paths = [str(PROTO / f"{p}.snapshot.pb") for p in ("mlp", "loop")] + [str(PROTO / "mlp.truncated.pb")]
    assert main(["run", *paths]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["module", "time", "result"]
    assert "match (2 outputs)" in lines[1] and "match (1 output)" in lines[2]
    assert "error: " in lines[3] and "not an HLO module" in lines[3]
