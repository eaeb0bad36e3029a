"""The while-loop modules the compiled-tier tests run (test_jit.py, test_jit_dot.py): a loop over
the state (i, a, b, outputs...) whose condition counts i up to a number of steps and whose body
the test writes; the entry passes its parameters in as the initial state."""

from __future__ import annotations


def while_loop_text(
    name: str, t: str, n: int, outputs: list[str], steps: int, body: str, root: str, computations: str = ""
) -> str:
    """HloModule `name`: `computations` (called ones, each followed by a blank line), the
    condition `i < steps`, and a body over the state (s32[] i, t[n] a, t[n] b, `outputs`) that
    reads %i, %a and %b, then runs the lines of `body` and returns `tuple(root)`."""
    v = f"{t}[{n}]"
    state = f"(s32[], {v}, {v}, {', '.join(outputs)})"
    init = "\n".join(f"  %o{k} = {s} parameter({k + 3})" for k, s in enumerate(outputs))
    params = ", ".join(f"o{k}: {s}" for k, s in enumerate(outputs))
    return f"""HloModule {name}

{computations}%cond (c: {state}) -> pred[] {{
  %c = {state} parameter(0)
  %n = s32[] get-tuple-element(%c), index=0
  %limit = s32[] constant({steps})
  ROOT %lt = pred[] compare(%n, %limit), direction=LT
}}

%body (s: {state}) -> {state} {{
  %s = {state} parameter(0)
  %i = s32[] get-tuple-element(%s), index=0
  %a = {v} get-tuple-element(%s), index=1
  %b = {v} get-tuple-element(%s), index=2
{body}
  ROOT %t = {state} tuple({root})
}}

ENTRY %main (n: s32[], a: {v}, b: {v}, {params}) -> {state} {{
  %n = s32[] parameter(0)
  %a = {v} parameter(1)
  %b = {v} parameter(2)
{init}
  %init = {state} tuple(%n, %a, %b, {", ".join(f"%o{k}" for k in range(len(outputs)))})
  ROOT %w = {state} while(%init), condition=%cond, body=%body
}}
"""
