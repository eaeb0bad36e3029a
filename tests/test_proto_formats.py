"""XLA's protobuf formats (tests/golden/dumps_proto, made by tools/make_dump_fixtures.py): the
HloModuleProtos XLA made from the golden text corpus read back to that text exactly; what XLA
dumped for real jax programs (.hlo.pb HloProtos, snapshots, a .pbtxt) reads to the text XLA
dumped beside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hlo

GOLDEN = Path(__file__).parent / "golden"
PROTO = GOLDEN / "dumps_proto"
CONFIG_FLAGS = re.compile(
    r", allow_spmd_sharding_propagation_to_parameters=\{[^}]*\}"
    r", allow_spmd_sharding_propagation_to_output=\{[^}]*\}"
)


def without_config_flags(text: str) -> str:
    """The sharding-propagation flags live in the module config, which HloModuleProto does not hold."""
    return CONFIG_FLAGS.sub("", text)


def jaxlib_0_10_text(text: str) -> str:
    return re.sub(r"(topk\([^\n]*largest=(?:true|false)), is_stable=true", r"\1", text)


def golden_text(proto: Path) -> Path:
    name = proto.name.removesuffix(".hlo.pb")
    if name.startswith("sharded."):
        return GOLDEN / "sharded" / (name.removeprefix("sharded.") + ".hlo")
    return GOLDEN / "dumps" / (name + ".hlo")


@pytest.mark.parametrize("path", sorted((PROTO / "corpus").glob("*.hlo.pb")), ids=lambda p: p.name)
def test_xla_proto_of_the_golden_text_reads_back_to_that_text(path):
    """Sharded modules too (shardings, replica groups, channels): num_partitions lives in the
    module config, which HloModuleProto does not hold, and XLA renumbers their stack-frame tables
    when it writes the proto (compared by the frames each instruction names)."""
    text = without_config_flags(golden_text(path).read_text())
    loaded = hlo.load(path)
    assert loaded.format == "HloModuleProto (binary)"
    if path.name.startswith("sharded."):  # written in XLA's default form (no operand shapes)
        printed = loaded.module.to_text("default")
        assert normalized(printed) == normalized(re.sub(r", num_partitions=\d+", "", text))
    else:
        assert jaxlib_0_10_text(loaded.module.to_text("long")) == text


def _frames(text: str) -> dict[int, str]:
    """stack_frame_id -> the frame chain as text (file, function, line, column of every frame)."""
    sections = dict(
        re.findall(r"\n(FileNames|FunctionNames|FileLocations|StackFrames)\n(.*?)(?=\n\n)", text, re.S)
    )
    if not sections:
        return {}

    def table(name: str) -> dict[int, str]:
        return {int(k): v for k, v in (line.split(" ", 1) for line in sections[name].splitlines())}

    files, functions, locations, frames = (
        table(n) for n in ("FileNames", "FunctionNames", "FileLocations", "StackFrames")
    )

    def location(k: int) -> str:
        f = dict(re.findall(r"(\w+)=(\d+)", locations[k]))
        where = f"{files[int(f['file_name_id'])]}:{functions[int(f['function_name_id'])]}"
        return f"{where}:{f['line']}:{f['column']}"

    def chain(k: int) -> str:
        f = dict(re.findall(r"(\w+)=(\d+)", frames[k]))
        parent = int(f["parent_frame_id"]) - 1  # the text writes the proto's 1-based id plus one
        here = location(int(f["file_location_id"]))
        return here if parent == 0 else here + " < " + chain(parent)

    return {k: chain(k) for k in frames}


def normalized(text: str) -> list[str]:
    """XLA's text with stack_frame_id resolved to the frames (XLA renumbers the tables when it
    writes a proto), computations in name order (the proto lists them in another order)."""
    frames = _frames(text)
    text = re.sub(r"stack_frame_id=(\d+)", lambda m: f"stack={frames[int(m.group(1))]!r}", text)
    blocks = without_config_flags(text).split("\n\n")
    head = blocks[0]
    computations = sorted(
        b.strip("\n")
        for b in blocks[1:]
        if b.strip() and not b.startswith(("FileNames", "FunctionNames", "FileLocations", "StackFrames"))
    )
    return [head, *computations]


PROGRAMS = ("mlp", "loop", "gather_sort")


@pytest.mark.parametrize("stage", ["before", "after"])
@pytest.mark.parametrize("program", PROGRAMS)
def test_dumped_hlo_proto_prints_as_xla_dumped_text(program, stage):
    loaded = hlo.load(PROTO / f"{program}.{stage}.hlo.pb")
    assert loaded.format == "HloProto (binary)"
    want = (PROTO / f"{program}.{stage}.txt").read_text()
    assert normalized(jaxlib_0_10_text(loaded.module.to_text("default"))) == normalized(want)


def test_complex_literals_keep_infinities():
    """LiteralProto stores c64 as interleaved (real, imaginary) floats (xla_data.proto)."""
    from hlo.proto import xla_data_pb2
    from hlo.proto.literals import literal_from_proto

    p = xla_data_pb2.LiteralProto()
    p.shape.element_type = xla_data_pb2.C64
    p.shape.dimensions.append(2)
    p.c64s.extend([1.0, 2.0, float("-inf"), float("nan")])
    value = literal_from_proto(p).value
    assert value[0] == 1 + 2j
    assert value[1].real == float("-inf") and value[1].imag != value[1].imag


def test_literals_in_a_non_default_layout_are_stored_in_layout_order():
    """Values follow the layout's minor-to-major order: {0,1} lists a 2x3 array column by column."""
    from hlo.proto import xla_data_pb2
    from hlo.proto.literals import literal_from_proto

    p = xla_data_pb2.LiteralProto()
    p.shape.element_type = xla_data_pb2.S32
    p.shape.dimensions.extend([2, 3])
    p.shape.layout.minor_to_major.extend([0, 1])
    p.s32s.extend([1, 4, 2, 5, 3, 6])
    assert literal_from_proto(p).value.tolist() == [[1, 2, 3], [4, 5, 6]]


def _mlp_module_proto():
    from hlo.proto import hlo_pb2

    p = hlo_pb2.HloProto()
    p.ParseFromString((PROTO / "mlp.before.hlo.pb").read_bytes())
    return p.hlo_module


def test_errors_in_a_proto_name_the_file_computation_and_instruction(tmp_path, capsys):
    from hlo.cli.main import main

    m = _mlp_module_proto()
    dot = next(i for c in m.computations for i in c.instructions if i.opcode == "dot")
    dot.dot_dimension_numbers.lhs_contracting_dimensions[0] = 7
    path = tmp_path / "bad.pb"
    path.write_bytes(m.SerializeToString())
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    want = "dot: lhs_contracting_dims=[7] contains 7, not a dimension of lhs f32[3,4]{1,0}"
    assert err == f"{path}: %{dot.name}: {want}"
    dot.opcode = "dott"
    path.write_bytes(m.SerializeToString())
    assert main(["fmt", str(path)]) == 1
    assert (
        capsys.readouterr().err.strip().endswith(f"instruction {dot.name!r}: opcode: unknown opcode 'dott'")
    )
    dot.opcode = "dot"
    dot.operand_ids.append(999999)
    path.write_bytes(m.SerializeToString())
    assert main(["fmt", str(path)]) == 1
    assert capsys.readouterr().err.strip().endswith("operand_ids: no instruction with id 999999")


def _tables_and_ids(text: str) -> tuple[str, dict[str, str]]:
    """The stack-frame tables as printed, and each instruction's stack_frame_id."""
    start = text.index("\nFileNames\n")
    end = min(i for i in (text.find("\n\n%", start), text.find("\n\nENTRY", start)) if i >= 0)
    return text[start:end], dict(re.findall(r"%([\w.\-]+) = [^\n]*?stack_frame_id=(\d+)", text))


@pytest.mark.parametrize("stage", ["before", "after", "loss.after"])
def test_module_proto_stack_frame_tables_as_xla_loads_them(stage):
    """XLA's loader re-interns an HloModuleProto's tables by first reference, computations in the
    proto's order and their instructions by id (frames.<stage>.xla.txt: XLA's print of the loaded
    proto; frames over two files): jax's tables (before) come out as they are; an optimized
    module drops frames (after) or, with every frame in use, is renumbered (loss.after: its
    fusions store instructions in another order than their ids)."""
    loaded = hlo.load(PROTO / f"frames.{stage}.module.pb")
    want = (PROTO / f"frames.{stage}.xla.txt").read_text()
    got = loaded.module.to_text("long")
    assert _tables_and_ids(got) == _tables_and_ids(want)
    assert normalized(got) == normalized(want)  # the rest too (computations in another order)
    assert '"tools/frames/train.py"' in got and '"tools/frames/layers.py"' in got


@pytest.mark.parametrize("stage", ["before", "after"])
def test_text_parse_renumbers_stack_frames_as_xla_does(stage):
    """XLA's text parser re-interns the tables (only frames in use, in order of first reference),
    so its own parse-print round trip is not idempotent: the second round renumbers again (the
    printer writes computations in another order than the parser met them). hlo gives XLA's
    text at each round (frames.<stage>.reparsed.txt, .reparsed2.txt)."""
    from hlo.text.parser import parse_module

    text = (PROTO / f"frames.{stage}.xla.txt").read_text()
    once = (PROTO / f"frames.{stage}.reparsed.txt").read_text()
    twice = (PROTO / f"frames.{stage}.reparsed2.txt").read_text()
    assert _tables_and_ids(text) != _tables_and_ids(once) != _tables_and_ids(twice)  # XLA renumbers
    assert parse_module(text).to_text("long") == once
    assert parse_module(once).to_text("long") == twice
