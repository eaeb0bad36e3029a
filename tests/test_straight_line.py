"""Plans run as generated straight-line code from their second call: the same values, and the
same errors (named and placed as the interpreting loop places them) when a kernel fails."""

from __future__ import annotations

import numpy as np
import pytest

import hlo
from hlo.errors import EvalError

CHAIN = """HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  q = f32[<=4] parameter(1)
  a = f32[4] add(p, p)
  m = f32[4] multiply(a, p)
  ROOT d = f32[] dot(m, q), lhs_contracting_dims={0}, rhs_contracting_dims={0}
}
"""


def test_the_second_call_gives_the_first_calls_values() -> None:
    executable = hlo.compile_module(hlo.parse_module(CHAIN, "t.hlo"))
    p = np.array([1.5, -2.0, 3.0, 0.25], np.float32)
    first = executable(p, p)
    assert executable.entry.runner is None  # interpreted
    second = executable(p, p)
    assert executable.entry.runner is not None  # generated
    assert (
        first.tobytes() == second.tobytes() == np.float32(2 * (1.5**3 - 2.0**3 + 3.0**3 + 0.25**3)).tobytes()
    )


@pytest.mark.parametrize("call", [1, 2, 3])
def test_a_failing_kernel_is_named_and_placed_on_every_call(call: int) -> None:
    executable = hlo.compile_module(hlo.parse_module(CHAIN, "t.hlo"))
    p = np.ones(4, np.float32)
    for _ in range(call - 1):
        executable(p, p)
    with pytest.raises(
        EvalError, match=r"t\.hlo:7:\d+: error: %d: the operands' run-time sizes \(f32\[4\], f32\[2\]\)"
    ):
        executable(p, np.ones(2, np.float32))


def test_a_loop_body_fails_in_its_generated_code_with_its_place() -> None:
    # A custom-call target that fails at the third iteration, after the body's plan went from
    # interpreted (first iteration) to generated (second).
    text = """HloModule m
cond { p = s32[] parameter(0)  ten = s32[] constant(10)  ROOT lt = pred[] compare(p, ten), direction=LT }
body {
  p = s32[] parameter(0)
  one = s32[] constant(1)
  n = s32[] add(p, one)
  ROOT c = s32[] custom-call(n), custom_call_target="fails_at_3"
}
ENTRY e { z = s32[] constant(0)  ROOT w = s32[] while(z), condition=cond, body=body }
"""
    calls: list[int] = []

    def fails_at_3(n: np.ndarray) -> np.ndarray:
        calls.append(int(n))
        if int(n) == 3:
            raise hlo.HloError("three is too many")
        return n

    hlo.register_custom_call("fails_at_3", fails_at_3)
    with pytest.raises(EvalError, match=r"t\.hlo:7:\d+: error: %c: three is too many"):
        hlo.run(hlo.parse_module(text, "t.hlo"))
    assert calls == [1, 2, 3]
