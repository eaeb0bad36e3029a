"""The verifier runs every instruction's shape rule: golden dumps broken by hand fail with the
instruction, the rule and the shapes, at the broken line (`file:line:col`)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from hlo import Opcode, VerifyError, parse_module, verify
from hlo.ops.registry import spec

DUMPS = Path(__file__).parent / "golden" / "dumps"

# Opcodes whose result shape cannot come from operands and attributes alone: the instruction
# states it and the parser/builder take it as written (their checks run at parse time).
SHAPE_GIVEN = {Opcode.PARAMETER, Opcode.CONSTANT}

# (dump, [(old, new), ...] applied to the text, the line that breaks, message regex)
BROKEN = [
    (
        "mlp_grad.hlo",
        [("broadcast(f32[16]{0} %add.9), dimensions={1}", "broadcast(f32[16]{0} %add.9), dimensions={0}")],
        "%add.10 = ",
        r"%add\.10: .*dimension.*f32\[16\]",
    ),
    (
        "mlp_grad.hlo",
        [("%select_n.1, f32[] %constant.13), dimensions={0}", "%select_n.1, f32[] %constant.13), dimensions={1}")],  # noqa: E501
        "%reduce_sum.38 = ",
        r"%reduce_sum\.38: result shape: reduce of \(f32\[5,16\]\{1,0\}, f32\[\]\) gives f32\[5\]\{0\}, "
        r"not f32\[16\]\{0\}",
    ),
    (
        "mlp_grad.hlo",
        [("add(f32[5,4]{1,0} %mul.4, f32[5,4]{1,0} %mul.5)", "add(f32[5,4]{1,0} %mul.4, f32[5,16]{1,0} %broadcast.7)")],  # noqa: E501
        "%add_any.1 = ",
        r"%add_any\.1: .*f32\[5,4\]\{1,0\}.*f32\[5,16\]\{1,0\}",
    ),
    (
        "mlp_grad.hlo",
        [("%mul.4 = f32[5,4]{1,0} multiply(", "%mul.4 = s32[5,4]{1,0} multiply("),
         ("f32[5,4]{1,0} %mul.4", "s32[5,4]{1,0} %mul.4")],
        "%mul.4 = ",
        r"%mul\.4: result shape: multiply of \(f32\[5,4\]\{1,0\}, f32\[5,4\]\{1,0\}\) gives f32\[5,4\]\{1,0\}, "  # noqa: E501
        r"not s32\[5,4\]\{1,0\}",
    ),
    (
        "mlp_grad.hlo",
        [("%dot_general.8 = f32[5,16]{1,0} dot(f32[5,4]{1,0} %add_any.1, f32[16,4]{1,0} %params__w2__.1), "
          "lhs_contracting_dims={1}, rhs_contracting_dims={1}",
          "%dot_general.8 = f32[5,16]{1,0} dot(f32[5,4]{1,0} %add_any.1, f32[16,4]{1,0} %params__w2__.1), "
          "lhs_contracting_dims={1}, rhs_contracting_dims={0}")],
        "%dot_general.8 = ",
        r"%dot_general\.8: .*f32\[5,4\]\{1,0\}.*f32\[16,4\]\{1,0\}",
    ),
    (
        "while_loop.hlo",
        [("condition=%region_4.6, body=%region_3.5", "condition=%region_4.6, body=%region_0.1")],
        "%while.18 = ",
        r"%while\.18: condition=%region_4\.6 must take the loop state body=%region_0\.1 returns",
    ),
    (
        "control_flow.hlo",
        [("branch_computations={%region_3.4, %region_4.5, %region_5.6}", "branch_computations={%region_3.4, %region_4.5, %region_1.2}")],  # noqa: E501
        "%cond.8 = ",
        r"%cond\.8: .*branch_computations\[2\]=%region_1\.2",
    ),
    (
        "dot_general.hlo",
        [("lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}", "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}")],  # noqa: E501
        "%dot_general.7 = ",
        r"%dot_general\.7: .*contracting dimension 2 of lhs \(4\) does not match contracting dimension 2 of rhs \(5\)",  # noqa: E501
    ),
]  # fmt: skip


@pytest.mark.parametrize(("dump", "edits", "line", "message"), BROKEN, ids=lambda x: str(x)[:40])
def test_broken_dumps_fail_at_the_broken_line(dump, edits, line, message):
    text = (DUMPS / dump).read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    module = parse_module(text, dump)
    with pytest.raises(VerifyError) as info:
        verify(module)
    error = info.value
    assert re.search(message, error.message), error.message
    expected_line = next(k for k, t in enumerate(text.splitlines(), 1) if line in t)
    assert error.span is not None
    assert error.span.line == expected_line
    rendered = str(error).splitlines()[0]
    assert rendered.startswith(f"{dump}:{expected_line}:")
    assert ": error: %" in rendered


def test_every_opcode_has_a_shape_rule():
    missing = [op.text for op in Opcode if op not in SHAPE_GIVEN and spec(op).shape_rule is None]
    assert missing == []


def test_check_all_reports_every_error(tmp_path):
    text = (DUMPS / "mlp_grad.hlo").read_text()
    for old, new in BROKEN[0][1] + BROKEN[1][1]:
        text = text.replace(old, new)
    path = tmp_path / "broken.hlo"
    path.write_text(text)
    first = subprocess.run([sys.executable, "-m", "hlo", "check", str(path)], capture_output=True, text=True)
    every = subprocess.run(
        [sys.executable, "-m", "hlo", "check", "--all", str(path)], capture_output=True, text=True
    )
    assert first.returncode == every.returncode == 1
    assert "Traceback" not in first.stderr + every.stderr
    assert len(re.findall(r"broken\.hlo:\d+:\d+: error: %", first.stderr)) == 1
    found = re.findall(r"broken\.hlo:\d+:\d+: error: (%[\w.]+)", every.stderr)
    assert found == ["%add.10", "%reduce_sum.38"]
