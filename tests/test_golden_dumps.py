"""Real HLO dumps from JAX (tests/golden/dumps, made by tools/make_golden_dumps.py): each parses,
prints back exactly as XLA prints it (long form) and parses back to an equal module."""

from __future__ import annotations

from pathlib import Path

import pytest

from hlo.text.parser import parse_module

DUMPS = sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo"))


@pytest.mark.parametrize("path", DUMPS, ids=lambda p: p.name)
def test_dump_round_trips(path):
    text = path.read_text()
    module = parse_module(text, path.name)
    printed = module.to_text("long")
    assert printed == text
    assert parse_module(printed) == module


PROGRAMS = (
    "mlp_grad", "cnn", "transformer_block", "scan_rnn", "while_loop", "sort", "gather_scatter", "fft",
    "linalg", "rng",
)  # fmt: skip


@pytest.mark.parametrize("program", PROGRAMS)
def test_corpus_has_the_programs_of_the_issue_unoptimized_and_optimized(program):
    names = {p.name for p in DUMPS}
    assert f"{program}.hlo" in names and f"{program}.opt.hlo" in names


@pytest.mark.parametrize(
    "path", sorted((Path(__file__).parent / "golden" / "dumps").glob("*.hlo")), ids=lambda p: p.name
)
def test_fast_line_path_builds_what_the_general_parser_builds(path, monkeypatch):
    """The parser's whole-line fast path (text/fast_line.py) is an optimization only."""
    from hlo.text import instruction_parser

    text = path.read_text()
    fast = parse_module(text, path.name)
    monkeypatch.setattr(instruction_parser, "fast_instruction", lambda parser, scope: None)
    general = parse_module(text, path.name)
    assert fast == general
    assert [i.span for c in fast.computations for i in c.instructions] == [
        i.span for c in general.computations for i in c.instructions
    ]
