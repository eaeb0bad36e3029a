"""Replaying XLA's dumps with `hlo run`: snapshots run with their recorded arguments and compare
with XLA's recorded result; --compare with a .npz or a snapshot; --reference xla; conversions
with `hlo fmt --to`; bad inputs end as one-line errors naming the file and the field."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

import hlo
from cli_checks import one_line_error
from hlo.cli.main import main
from hlo.proto.writer import module_to_proto
from hlo.replay.compare import compare_output
from hlo.replay.load import load_bytes

GOLDEN = Path(__file__).parent / "golden"
PROTO = GOLDEN / "dumps_proto"
PROGRAMS = ("mlp", "loop", "gather_sort")


@pytest.mark.parametrize("program", PROGRAMS)
def test_snapshot_replays_and_matches_xla_recorded_result(program, capsys):
    assert main(["run", str(PROTO / f"{program}.snapshot.pb")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"compared with the snapshot's result: match \(\d+ outputs?\)", out)


def test_snapshot_holds_xla_arguments_and_result():
    loaded = hlo.load(PROTO / "loop.snapshot.pb")
    assert loaded.format == "HloSnapshot (binary)"
    assert [a.shape for a in loaded.arguments] == [(6,), ()]
    assert loaded.arguments[1] == 5  # the trip count the tool passed
    assert loaded.result.shape == (6,)


def test_compare_with_npz_reports_the_worst_element_and_exits_1(tmp_path, capsys):
    snapshot = hlo.load(PROTO / "loop.snapshot.pb")
    ref = tmp_path / "ref.npz"
    bad = np.array(snapshot.result, copy=True)
    bad[3] += 1.0
    np.savez(ref, out0=bad)
    assert main(["run", str(PROTO / "loop.snapshot.pb"), "--compare", str(ref)]) == 1
    out = capsys.readouterr().out
    assert "out0: 1 of 6 elements differ; worst at [3]" in out
    assert "first bad index [3]" in out
    assert "mismatch (1 of 1 outputs)" in out.splitlines()[-1]
    np.savez(ref, out0=snapshot.result)
    assert main(["run", str(PROTO / "loop.snapshot.pb"), "--compare", str(ref)]) == 0


def test_compare_file_with_other_keys_shapes_or_types_is_an_error(tmp_path, capsys):
    snapshot = str(PROTO / "loop.snapshot.pb")
    ref = tmp_path / "ref.npz"
    np.savez(ref, result=np.zeros(6, np.float32))
    assert main(["run", snapshot, "--compare", str(ref)]) == 1
    assert re.search(r"ref\.npz: out0: missing", one_line_error(capsys))
    np.savez(ref, out0=np.zeros(5, np.float32))
    assert main(["run", snapshot, "--compare", str(ref)]) == 1
    assert "ref.npz: out0: shape [5] differs" in one_line_error(capsys)
    np.savez(ref, out0=np.zeros(6, np.int32))
    assert main(["run", snapshot, "--compare", str(ref)]) == 1
    assert "ref.npz: out0: type int32 differs" in one_line_error(capsys)
    assert main(["run", snapshot, "--compare", str(tmp_path / "none.npz")]) == 1
    assert "does not exist" in one_line_error(capsys)


def test_compare_is_nan_aware_and_signed_zeros_on_request():
    a = np.array([np.nan, 0.0, -np.inf, 1.0], np.float32)
    assert compare_output("o", a, a.copy()).ok
    assert not compare_output("o", a, np.array([1.0, 0.0, -np.inf, 1.0], np.float32)).ok
    neg = np.array([np.nan, -0.0, -np.inf, 1.0], np.float32)
    assert compare_output("o", a, neg).ok
    r = compare_output("o", a, neg, signed_zeros=True)
    assert (r.mismatches, r.first_bad) == (1, (1,))
    ints = compare_output("i", np.array([1, 2, 3]), np.array([1, 2, 4]))
    assert (ints.mismatches, ints.worst_index, ints.got, ints.want) == (1, (2,), 3, 4)


def test_reference_xla_without_jaxlib_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "jax", None)
    assert main(["run", str(PROTO / "mlp.before.hlo.pb"), "--reference", "xla"]) == 1
    assert "--reference xla needs jaxlib: pip install 'hlo[xla]'" in one_line_error(capsys)


def test_reference_xla_runs_the_module_on_xla_cpu(capsys):
    pytest.importorskip("jaxlib")
    assert main(["run", str(PROTO / "mlp.before.hlo.pb"), "--reference", "xla"]) == 0
    assert "compared with XLA:CPU: match (2 outputs)" in capsys.readouterr().out
    # A text module goes to XLA as the HloModuleProto hlo writes: XLA accepts and runs it.
    assert main(["run", str(GOLDEN / "dumps" / "sort.hlo"), "--reference", "xla"]) == 0
    assert "compared with XLA:CPU: match (8 outputs)" in capsys.readouterr().out


def test_reference_xla_survives_xla_aborting(capsys):
    """XLA:CPU aborts the process on this optimized module (a CHECK failure when it compiles it
    again): the run happens in a child process, so hlo reports one line."""
    pytest.importorskip("jaxlib")
    assert main(["run", str(PROTO / "loop.after.hlo.pb"), "--reference", "xla"]) == 1
    err = one_line_error(capsys)
    assert err.startswith("--reference xla: XLA:CPU could not run the module: XLA:CPU crashed")


def test_truncated_proto_is_a_one_line_error(capsys):
    assert main(["run", str(PROTO / "mlp.truncated.pb")]) == 1
    err = one_line_error(capsys)
    assert err.startswith(str(PROTO / "mlp.truncated.pb") + ": not an HLO module")


def test_snapshot_arguments_that_do_not_fit_the_module(capsys):
    from hlo.proto import hlo_pb2

    snap = hlo_pb2.HloSnapshot()
    snap.ParseFromString((PROTO / "loop.snapshot.pb").read_bytes())
    snap.arguments[0].shape.dimensions[0] = 5
    del snap.arguments[0].f32s[5:]
    with pytest.raises(
        hlo.HloError, match=r"x.pb: arguments\[0\]: a float32\[5\] value does not fit parameter 0"
    ):
        load_bytes(snap.SerializeToString(), "x.pb")


def test_text_format_proto_reads_like_the_binary():
    text = hlo.load(PROTO / "loop.before.pbtxt")
    binary = hlo.load(PROTO / "loop.before.hlo.pb")
    assert text.format == "HloModuleProto (text)"
    assert text.module == binary.module


@pytest.mark.parametrize("to", ["pb", "pbtxt"])
def test_fmt_converts_text_to_proto_and_back(to, tmp_path, capsys):
    source = GOLDEN / "dumps" / "scan_rnn.hlo"
    out = tmp_path / f"m.{to}"
    assert main(["fmt", str(source), "--to", to, "-o", str(out)]) == 0
    assert f"wrote {out} ({to})" in capsys.readouterr().err
    assert hlo.load(out).module == hlo.load(source).module.replace(config=hlo.load(out).module.config)


@pytest.mark.parametrize(
    "path",
    sorted((GOLDEN / "dumps").glob("*.hlo")) + sorted((GOLDEN / "sharded").glob("*.hlo")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_text_to_proto_to_text(path):
    """IR -> HloModuleProto -> IR keeps every module of the golden corpora, sharded ones too (but
    the module config, which HloModuleProto does not hold; the partition count travels in a device
    assignment)."""
    module = hlo.parse_module(path.read_text(), path.name)
    back = load_bytes(module_to_proto(module).SerializeToString(), path.name).module
    assert back.config.num_partitions == module.config.num_partitions
    assert back.replace(config=module.config) == module


def test_fmt_of_proto_prints_text(capsys):
    assert main(["fmt", str(PROTO / "mlp.after.hlo.pb")]) == 0
    assert capsys.readouterr().out.startswith("HloModule jit_mlp, is_scheduled=true,")


def test_check_takes_several_files(capsys):
    files = [
        str(PROTO / "mlp.after.hlo.pb"),
        str(GOLDEN / "dumps" / "cnn.hlo"),
        str(PROTO / "loop.snapshot.pb"),
    ]
    assert main(["check", *files]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3
    assert main(["check", files[0], str(PROTO / "mlp.truncated.pb")]) == 1


def test_unoptimized_snapshot_replays_with_the_recorded_arguments(tmp_path, capsys):
    """--xla_dump_hlo_unoptimized_snapshots: the module before optimization and its arguments (no
    result); the same run's optimized snapshot holds the same arguments and XLA's result."""
    unoptimized = hlo.load(PROTO / "loop.unoptimized_snapshot.pb")
    optimized = hlo.load(PROTO / "loop.snapshot.pb")
    assert unoptimized.format == "HloUnoptimizedSnapshot (binary)" and unoptimized.result is None
    for a, b in zip(unoptimized.arguments, optimized.arguments):
        np.testing.assert_array_equal(a, b)
    path = str(PROTO / "loop.unoptimized_snapshot.pb")
    assert main(["run", path, "--compare", str(PROTO / "loop.snapshot.pb")]) == 0
    assert "compared with" in capsys.readouterr().out
