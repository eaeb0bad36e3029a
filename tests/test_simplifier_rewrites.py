"""XLA's simplifier rewrites (hlo.numerics.simplifier_rules) and call inlining
(hlo.numerics.call_inline), which every tier applies before it computes. XLA:CPU's values are
in tests/golden/ops/exact_simplifier.npz (test_engine_ops); these pin the rewritten graphs and
what is left alone."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import hlo
from hlo.ir.opcode import Opcode
from hlo.numerics import call_inline, contraction, simplifier_rewrites
from hlo.numerics.fma import fma


def _rewritten(body: str, computations: str = "") -> hlo.Module:
    return hlo.parse_module("HloModule m\n\n" + computations + "ENTRY e {\n" + body + "\n}\n")


def _ops(module: hlo.Module) -> dict[str, tuple[Opcode, tuple[str, ...]]]:
    comp = simplifier_rewrites.rewritten(call_inline.inlined(module.entry, module))
    return {i.name: (i.opcode, i.operands) for i in comp.instructions}


def _args(*shapes: tuple[int, ...], dtype: type = np.float32, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.5, 2.0, s).astype(dtype) for s in shapes]


def _run(module: hlo.Module, args: list[np.ndarray], **options: object) -> np.ndarray:
    return np.asarray(hlo.run(module, *args, **options))


def test_a_divide_by_a_constant_is_a_product_with_its_inverse():
    m = _rewritten(
        "x = f32[4,5] parameter(0)\n c = f32[] constant(3)\n b = f32[4,5] broadcast(c), dimensions={}\n"
        " ROOT d = f32[4,5] divide(x, b)"
    )
    ops = _ops(m)
    assert ops["d"][0] is Opcode.MULTIPLY and ops["d"][1][0] == "x"
    (x,) = _args((4, 5))
    want = x * (np.float32(1) / np.float32(3))
    for jit in ("off", "eager"):
        assert _run(m, [x], jit=jit).tobytes() == want.tobytes()
    assert want.tobytes() != (x / np.float32(3)).tobytes()  # (the exact quotient differs here)


def test_softmax_divides_by_its_row_sums_as_a_product_with_their_reciprocals():
    m = _rewritten(
        "x = f32[3,7] parameter(0)\n z = f32[] constant(0)\n e = f32[3,7] exponential(x)\n"
        " s = f32[3] reduce(e, z), dimensions={1}, to_apply=add\n b = f32[3,7] broadcast(s), dimensions={0}\n"
        " ROOT d = f32[3,7] divide(e, b)",
        "add {\n p = f32[] parameter(0)\n q = f32[] parameter(1)\n ROOT r = f32[] add(p, q)\n}\n\n",
    )
    ops = _ops(m)
    assert ops["d"][0] is Opcode.MULTIPLY
    spread = ops[ops["d"][1][1]]
    assert spread[0] is Opcode.BROADCAST and ops[spread[1][0]][0] is Opcode.DIVIDE  # 1/s, then spread


def test_one_over_a_square_root_becomes_rsqrt():
    m = _rewritten(
        "x = f32[4,5] parameter(0)\n v = f32[4] parameter(1)\n r = f32[4] sqrt(v)\n"
        " b = f32[4,5] broadcast(r), dimensions={0}\n ROOT d = f32[4,5] divide(x, b)"
    )
    ops = _ops(m)
    opcodes = {op for op, _ in ops.values()}
    assert Opcode.RSQRT in opcodes and ops["d"][0] is Opcode.MULTIPLY
    live = contraction.contracted(m.entry, m)
    assert not any(i.opcode is Opcode.DIVIDE for i in live.instructions if i.name.startswith("d."))


def test_one_over_a_square_root_becomes_rsqrt_under_jaxs_reshapes():
    """jax's layer norm divides by a square root reshaped [r,1] -> [r] before its broadcast: XLA's
    simplifier sees through those to `1/sqrt(v)`, so the result is XLA:CPU's rsqrt (the CPU's
    estimate), not the quotient (exact_rsqrt.npz has XLA:CPU's values)."""
    m = _rewritten(
        "x = f32[4,5] parameter(0)\n v = f32[4,1] parameter(1)\n r = f32[4,1] sqrt(v)\n"
        " i = f32[4,1] broadcast(r), dimensions={0,1}\n j = f32[4] reshape(i)\n"
        " b = f32[4,5] broadcast(j), dimensions={0}\n ROOT d = f32[4,5] divide(x, b)"
    )
    ops = _ops(m)
    (inverse,) = [name for name, (op, _) in ops.items() if op is Opcode.RSQRT]
    assert ops[inverse][1] == ("v",) and ops["d"][0] is Opcode.MULTIPLY
    module = _rewritten(  # a second reader of the reshape: no reciprocal, so no rsqrt
        "x = f32[4,5] parameter(0)\n v = f32[4,1] parameter(1)\n r = f32[4,1] sqrt(v)\n"
        " j = f32[4] reshape(r)\n b = f32[4,5] broadcast(j), dimensions={0}\n d = f32[4,5] divide(x, b)\n"
        " ROOT t = (f32[4,5], f32[4]) tuple(d, j)"
    )
    assert not any(op is Opcode.RSQRT for op, _ in _ops(module).values())


@pytest.mark.parametrize(
    "body",
    [
        # v read by two broadcasts: no reciprocal (XLA's one use)
        "x = f32[4,5] parameter(0)\n v = f32[4] parameter(1)\n b = f32[4,5] broadcast(v), dimensions={0}\n"
        " e = f32[4,5] broadcast(v), dimensions={0}\n d = f32[4,5] divide(x, b)\n"
        " ROOT r = f32[4,5] add(d, e)",
        # a broadcast adding one dimension of size 1 is a reshape to XLA
        "x = f32[4,1] parameter(0)\n v = f32[4] parameter(1)\n b = f32[4,1] broadcast(v), dimensions={0}\n"
        " ROOT d = f32[4,1] divide(x, b)",
        # bf16 ops are f32 ops between converts to XLA:CPU: nothing matches
        "x = bf16[4,5] parameter(0)\n c = bf16[] constant(3)\n b = bf16[4,5] broadcast(c), dimensions={}\n"
        " ROOT d = bf16[4,5] divide(x, b)",
        # integers are never rewritten
        "x = s32[4,5] parameter(0)\n c = s32[] constant(3)\n b = s32[4,5] broadcast(c), dimensions={}\n"
        " ROOT d = s32[4,5] divide(x, b)",
    ],
)
def test_divides_the_simplifier_leaves_alone(body):
    assert _ops(_rewritten(body))["d"][0] is Opcode.DIVIDE


def test_bf16_divides_keep_their_exact_quotient():
    m = _rewritten(
        "x = bf16[64] parameter(0)\n c = bf16[] constant(3)\n b = bf16[64] broadcast(c), dimensions={}\n"
        " ROOT d = bf16[64] divide(x, b)"
    )
    (x,) = _args((64,), dtype=ml_dtypes.bfloat16)
    want = (x.astype(np.float32) / np.float32(3)).astype(ml_dtypes.bfloat16)
    assert _run(m, [x]).tobytes() == want.tobytes()


def test_constants_gathered_from_a_chain_of_products_and_sums():
    m = _rewritten(
        "x = f64[8] parameter(0)\n a = f64[] constant(3)\n ab = f64[8] broadcast(a), dimensions={}\n"
        " m = f64[8] multiply(ab, x)\n c = f64[] constant(0.1)\n cb = f64[8] broadcast(c), dimensions={}\n"
        " p = f64[8] multiply(cb, m)\n k = f64[] constant(0.001)\n kb = f64[8] broadcast(k), dimensions={}\n"
        " s = f64[8] subtract(p, kb)\n l = f64[] constant(0.3)\n lb = f64[8] broadcast(l), dimensions={}\n"
        " ROOT t = f64[8] add(s, lb)"
    )
    (x,) = _args((8,), dtype=np.float64)
    # constants moved right, then gathered; the product then fused into the add (f64: an FMA)
    want = fma(x, np.full(8, 3.0 * 0.1), np.full(8, -0.001 + 0.3))
    assert _run(m, [x]).tobytes() == want.tobytes()
    assert want.tobytes() != ((3.0 * x) * 0.1 - 0.001 + 0.3).tobytes()


@pytest.mark.parametrize(
    ("exponent", "form"), [("2", lambda x: x * x), ("3", lambda x: x * (x * x)), ("-1", lambda x: 1 / x)]
)
def test_small_integer_powers_are_products(exponent, form):
    m = _rewritten(
        f"x = f32[16] parameter(0)\n c = f32[] constant({exponent})\n"
        f" b = f32[16] broadcast(c), dimensions={{}}\n ROOT p = f32[16] power(x, b)"
    )
    (x,) = _args((16,))
    assert _run(m, [x]).tobytes() == form(x).astype(np.float32).tobytes()


def test_a_call_is_inlined_under_its_name():
    m = _rewritten(
        "x = f32[8] parameter(0)\n y = f32[8] parameter(1)\n z = f32[8] parameter(2)\n"
        " p = f32[8] multiply(x, y)\n ROOT c = f32[8] call(p, z), to_apply=plus",
        "plus {\n a = f32[8] parameter(0)\n b = f32[8] parameter(1)\n ROOT r = f32[8] add(a, b)\n}\n\n",
    )
    comp = call_inline.inlined(m.entry, m)
    assert comp.by_name["c"].opcode is Opcode.ADD and comp.by_name["c"].operands == ("p", "z")
    x, y, z = _args((8,), (8,), (8,))
    assert _run(m, [x, y, z]).tobytes() == fma(x, y, z).tobytes()  # (the caller's product fused)


def test_a_call_returning_its_argument_and_nested_calls():
    m = _rewritten(
        "x = f32[4] parameter(0)\n ROOT c = f32[4] call(x), to_apply=outer",
        "same {\n ROOT a = f32[4] parameter(0)\n}\n\n"
        "outer {\n a = f32[4] parameter(0)\n s = f32[4] call(a), to_apply=same\n"
        " ROOT n = f32[4] negate(s)\n}\n\n",
    )
    comp = call_inline.inlined(m.entry, m)
    assert not any(i.opcode is Opcode.CALL for i in comp.instructions)
    assert comp.by_name["c.s"].opcode is Opcode.COPY
    (x,) = _args((4,))
    assert _run(m, [x]).tobytes() == (-x).tobytes()


def test_values_op_by_op_are_the_rewritten_ones():
    m = _rewritten(
        "x = f32[4,5] parameter(0)\n c = f32[] constant(7)\n b = f32[4,5] broadcast(c), dimensions={}\n"
        " ROOT d = f32[4,5] divide(x, b)"
    )
    (x,) = _args((4, 5), seed=3)
    assert _run(m, [x], fuse=False).tobytes() == _run(m, [x]).tobytes()
