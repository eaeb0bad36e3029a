"""StableHLO in, locations: JAX's call-stack locations become the module's stack-frame tables and
each op's metadata (op_name, stack_frame_id), as jaxlib's own conversion makes them
(tests/golden/stablehlo/frames/*.xla.json, written by tools/stablehlo_frames.py from the
HloModuleProto jaxlib gives for the same text)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import hlo
from hlo.ir.metadata import StackFrameIndex

GOLDEN = Path(__file__).parent / "golden" / "stablehlo"
FRAMES = GOLDEN / "frames"
CASES = sorted(p.name.removesuffix(".xla.json") for p in FRAMES.glob("*.xla.json"))
# Where XLA's own order of first sight is reproduced, the tables are equal id for id. Where its
# canonicalizer rewrites ops first (folding, merging constants), XLA sees some locations in an
# order of its own: the same frames (file, function, line, column, parents), numbered otherwise.
EXACT = ("calls", "handwritten", "nested_calls")
# Ops whose count or form XLA's canonicalization changes (broadcasts of size-1 dimensions become
# reshapes; every result of a while or call is read): compared as frames, not one by one.
REWRITTEN = {"broadcast", "reshape", "get-tuple-element"}

Chain = tuple[tuple[str, str, int, int], ...]


def _source(name: str) -> str:
    path = FRAMES / f"{name}.mlir"
    return (path if path.exists() else GOLDEN / "programs" / f"{name}.mlir").read_text()


def _xla_index(data: dict) -> StackFrameIndex:
    from hlo.ir.metadata import FileLocation, StackFrame

    return StackFrameIndex(
        tuple(data["file_names"]),
        tuple(data["function_names"]),
        tuple(FileLocation(*row) for row in data["file_locations"]),
        tuple(StackFrame(*row) for row in data["stack_frames"]),
    )


def _chain(index: StackFrameIndex, frame: int) -> Chain:
    """Frame `frame` and its callers, innermost first, each as (file, function, line, column)."""
    out = []
    while frame:
        f = index.stack_frames[frame - 1]
        loc = index.file_locations[f.file_location_id - 1]
        out.append((index.file_names[loc.file_name_id - 1], index.function_names[loc.function_name_id - 1],
                    loc.line, loc.column))  # fmt: skip
        frame = f.parent_frame_id
    return tuple(out)


def _chains(index: StackFrameIndex) -> set[Chain]:
    return {_chain(index, k) for k in range(1, len(index.stack_frames) + 1)}


@pytest.mark.parametrize("name", CASES)
def test_stack_frames_are_xla_conversions(name: str) -> None:
    data = json.loads((FRAMES / f"{name}.xla.json").read_text())
    theirs = _xla_index(data)
    module = hlo.parse_stablehlo(_source(name), f"{name}.mlir")
    ours = module.stack_frames
    assert ours is not None
    if name in EXACT:
        assert ours == theirs
    assert _chains(ours) == _chains(theirs)
    # Each op XLA gives a frame has its counterpart here: same opcode, op_name and call stack.
    ops = Counter(
        (i.opcode.text, i.metadata.op_name, _chain(ours, i.metadata.stack_frame_id))
        for comp in module.computations
        for i in comp.instructions
        if i.metadata is not None and i.metadata.stack_frame_id
    )
    expected = Counter(
        (opcode, op_name, _chain(theirs, frame))
        for _, _, opcode, op_name, frame in data["instructions"]
        if frame and opcode not in REWRITTEN
    )
    assert not expected - ops


@pytest.mark.parametrize("name", EXACT)
def test_instructions_get_xla_frame_ids(name: str) -> None:
    # Instructions paired by opcode and op_name where the pair is unique on both sides (XLA's
    # canonicalization renumbers names).
    data = json.loads((FRAMES / f"{name}.xla.json").read_text())
    module = hlo.parse_stablehlo(_source(name), f"{name}.mlir")
    instructions = [i for comp in module.computations for i in comp.instructions]
    ours = [(i.opcode.text, i.metadata) for i in instructions if i.metadata is not None]
    mine = Counter((opcode, md.op_name) for opcode, md in ours)
    theirs = Counter((opcode, op_name) for _, _, opcode, op_name, _ in data["instructions"])
    frames = {(opcode, md.op_name): md.stack_frame_id for opcode, md in ours}
    compared = 0
    for _, instr, opcode, op_name, frame in data["instructions"]:
        if mine[opcode, op_name] == 1 and theirs[opcode, op_name] == 1:
            assert frames[opcode, op_name] == frame, instr
            compared += frame != 0
    assert compared >= 3


def test_parameters_and_unnamed_locations_get_no_frame() -> None:
    module = hlo.parse_stablehlo(_source("handwritten"), "handwritten.mlir")
    by_name = {i.name: i.metadata for i in module.entry.instructions}
    assert by_name["x.1"].stack_frame_id == 0 and by_name["plain.1"].stack_frame_id == 0
    # fused locations carry no frame in XLA's conversion
    assert by_name["exp.1"].stack_frame_id == 0 and by_name["exp.1"].op_name == "jit(f)/exp"
