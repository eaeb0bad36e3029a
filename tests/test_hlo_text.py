"""HLO text against XLA's parser tests: round trips in every printer form, non-round-trip cases,
texts that must parse (and the facts XLA asserts about them), and texts that must fail."""

from __future__ import annotations

import pytest

from hlo import ParseError
from hlo.ir.opcode import Opcode
from hlo.text.parser import ParseOptions, parse_module
from hlo.text.print_options import CANONICAL
from hlo.text.printer import print_instruction

from conftest import cases


def same_text(got: str, expected: str, compare: str) -> None:
    if compare == "strip_whitespace":
        got, expected = got.strip(), expected.strip()
    assert got == expected


@cases("hlo_text/roundtrip")
def test_roundtrip(row):
    module = parse_module(row["text"])
    text = module.to_text(row["print_form"])
    same_text(text, row["text"], row["compare"])
    assert parse_module(text) == module


@cases("hlo_text/non_roundtrip")
def test_non_roundtrip(row):
    module = parse_module(row["text"])
    form = row["print_form"]
    if form == "canonical_root_instruction":
        entry = module.entry
        text = print_instruction(entry.root, CANONICAL, entry, module)
    elif form == "canonical_module_no_metadata":
        text = module.to_text(CANONICAL.replace(print_metadata=False))
    else:
        text = module.to_text(form)
    if "expected" in row:
        same_text(text, row["expected"], row["compare"])
    else:
        assert row["expected_contains"] in text


def options(row) -> ParseOptions:
    given = row.get("parser_options") or {}
    return ParseOptions(**{k: v for k, v in given.items() if k in ParseOptions.__dataclass_fields__})


@cases("hlo_text/parse_ok")
def test_parse_ok(row):
    module = parse_module(row["text"], options=options(row))
    text = module.to_text("long")
    assert parse_module(text, options=options(row)).to_text("long") == text
    check_expectations(module, row.get("expect") or {})


def check_expectations(module, expect: dict) -> None:
    entry = module.entry
    root = entry.root
    layout = module.config.entry_computation_layout
    for key, value in expect.items():
        if key == "root_opcode":
            assert root.opcode.text == value
        elif key == "root_instruction_name":
            assert root.name == value
        elif key == "entry_computation_name":
            assert entry.name == value
        elif key == "entry_result_shape":
            assert str(entry.result_shape) == value
        elif key == "entry_parameter_layouts":
            assert [list(s.layout.minor_to_major) for s in layout.parameters] == value
        elif key == "entry_result_layout":
            assert list(layout.result.layout.minor_to_major) == value
        elif key == "entry_computation_layout_any_set":
            assert any(s.layout is not None and s.rank for s in layout.parameters) == value
        elif key == "root_shape_has_layout":
            assert (root.shape.layout is not None) == value
        elif key == "root_layout_minor_to_major":
            assert list(root.shape.layout.minor_to_major) == value
        elif key == "root_layout_has_tiles":
            assert bool(root.shape.layout.tiles) == value
        elif key == "root_operands":
            assert [
                entry[o].opcode.text + f"({entry[o].attrs['parameter_number']})" for o in root.operands
            ] == value
        elif key == "root_operand_count":
            assert len(root.operands) == value
        elif key == "has_schedule":
            assert module.is_scheduled == value
        elif key == "entry_sequence_opcodes":
            assert [i.opcode.text for i in entry.instructions] == value
        elif key == "config":
            for name, v in value.items():
                got = getattr(module.config, name)
                assert (list(got) if isinstance(got, tuple) else got) == v
        elif key == "module_frontend_attributes":
            assert dict(module.frontend_attributes) == value
        elif key == "root_metadata":
            md = root.metadata
            assert md.op_name == value["op_name"] and md.op_type == value["op_type"]
            assert [{1: "WINDOW", 2: "FLAG", 3: "INTEGER"}[p] for p in md.profile_type] == value[
                "profile_type"
            ]
        elif key == "root_raw_backend_config":
            assert root.backend_config == value
        elif key == "input_output_alias":
            got = [
                {
                    "output_index": list(a.output_index),
                    "param": a.parameter,
                    "param_index": list(a.parameter_index),
                    "must_alias": a.must_alias,
                }
                for a in module.input_output_alias
            ]  # fmt: skip
            assert got == value
        elif key == "input_output_alias_checks":
            pairs = {(a.parameter, a.parameter_index, a.output_index) for a in module.input_output_alias}
            for v in value:
                assert (v["param"], tuple(v["param_index"]), tuple(v["output_index"])) in pairs
        elif key == "buffer_donors":
            assert [[p, list(i)] for p, i in module.buffer_donors] == value
        elif key == "not_buffer_donors":
            donors = {(p, i) for p, i in module.buffer_donors}
            assert all((p, tuple(i)) not in donors for p, i in value)
        elif key == "feature_group_count":
            assert root.attr("feature_group_count") == value
        elif key == "convolution_kind":
            assert "CONVOLUTION_KIND_" + root.attr("convolution_kind").name == value
        elif key == "precision_config_algorithm":
            assert "ALG_" + root.attr("algorithm").name == value
        elif key == "root_result_accuracy":
            acc = root.result_accuracy
            if "mode" in value:
                assert acc.mode.name == value["mode"] if acc is not None else value["mode"] == "DEFAULT"
            else:
                tol = value["tolerance"]
                assert (acc.rtol, acc.atol) == (tol["rtol"], tol["atol"])
                assert "ulps" not in tol or acc.ulps == tol["ulps"]
        elif key == "sparsity_config":
            config = root.attr("sparsity_config")
            for side, v in value.items():
                t = getattr(config, side)
                assert (t.block_size, t.num_non_zero, t.dimension, t.stride) == (
                    v["block_size"],
                    v["num_non_zero"],
                    v["dimension"],
                    v["stride"],
                )
        elif key == "async_wrapped_root_shape":
            start = next(i for i in entry.instructions if i.opcode is Opcode.ASYNC_START)
            wrapped = module.computation(start.attrs["calls"][0])
            assert wrapped.root.shape.to_string(False) == value
        else:
            pytest.fail(f"unchecked expectation {key}")


@cases("hlo_text/parse_errors")
def test_parse_errors(row):
    with pytest.raises(ParseError) as e:
        parse_module(row["text"], options=options(row))
    assert e.value.span is not None
    rendered = str(e.value)
    assert ":" in rendered.splitlines()[0] and "error:" in rendered
