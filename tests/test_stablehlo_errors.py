"""StableHLO in, bad input: unknown dialects and ops, dynamic shapes, quantized types, malformed
MLIR give one `hlo` error naming the place (file:line:col), the op and what is unsupported;
never a traceback, also for text cut or garbled anywhere."""

# ruff: noqa: E501  (a table of cases)
from __future__ import annotations

import contextlib
import random
import re
from pathlib import Path

import numpy as np
import pytest

import hlo
from hlo.stablehlo import StableHloError

PROGRAM = Path(__file__).parent / "golden" / "stablehlo" / "programs" / "while_loop.mlir"

MAIN = "func.func @main(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32> {{\n  {body}\n  return %0 : tensor<4x3xf32>\n}}\n"

BAD = [
    ("%0 = mhlo.foo %arg0 : tensor<4x3xf32>", r":2:8: error: unsupported op mhlo\.foo"),
    ("%0 = arith.addf %arg0, %arg0 : tensor<4x3xf32>", r":2:8: error: unknown dialect 'arith' of op arith\.addf"),
    ("%0 = stablehlo.frobnicate %arg0 : tensor<4x3xf32>", r":2:8: error: unsupported op stablehlo\.frobnicate"),
    ("%0 = stablehlo.add %arg0, %arg9 : tensor<4x3xf32>", r":2:3: error: use of undefined value %arg9"),
    ("%0 = stablehlo.transpose %arg0 : (tensor<4x3xf32>) -> tensor<4x3xf32>",
     r":2:8: error: stablehlo\.transpose: the attribute permutation is missing"),
    ('%0 = "stablehlo.dynamic_pad"(%arg0, %arg0, %arg0, %arg0, %arg0) : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>',
     r":2:8: error: stablehlo\.dynamic_pad: its edge_padding_low \(operand 2, %arg0\) is not a constant, so the result stays dynamic"),
    ('%c = stablehlo.constant dense<[0, 0]> : tensor<2xi64>\n  %0 = "stablehlo.real_dynamic_slice"(%arg0, %c, %arg0, %c) : (tensor<4x3xf32>, tensor<2xi64>, tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>',
     r":3:8: error: stablehlo\.real_dynamic_slice: its limit_indices \(operand 2, %arg0\) is not a constant"),
    ('%0 = "stablehlo.dynamic_conv"(%arg0, %arg0, %arg0) : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>',
     r":2:8: error: stablehlo\.dynamic_conv: its padding \(operand 2, %arg0\) is not a constant"),
    ('%c = stablehlo.constant dense<[1, 1]> : tensor<2xi64>\n  %0 = "stablehlo.dynamic_gather"(%arg0, %arg0, %c) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>}> : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2xi64>) -> tensor<?x3xf32, #stablehlo.bounds<4, ?>>',
     r":3:8: error: stablehlo\.dynamic_gather: dynamic shapes are not supported \(the result f32\[<=4,3\]"),
    ("%0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<4x3xf32>",
     r":2:32: error: the dense constant does not fit f32\[4,3\]\{1,0\}: 2 values for 12 elements"),
    ("%0 = stablehlo.add %arg0, %arg0 : tensor<4x?xf32>",
     r":2:37: error: dimension 1 of tensor<4x\?xf32> is dynamic \('\?'\) without a bound"),
    ("%0 = stablehlo.add %arg0, %arg0 : tensor<4x3x!quant.uniform<i8:f32, 1.0>>",
     r":2:37: error: quantized types are not supported"),
    ("%0 = stablehlo.add %arg0, %arg0 : tensor<4x3xf33>", r":2:48: error: unsupported element type 'f33'"),
    ("%0 = stablehlo.add %arg0 %arg0 : tensor<4x3xf32>", r":2:28: error: expected"),
    ("%0 = stablehlo.slice %arg0 [0:2, x] : (tensor<4x3xf32>) -> tensor<4x3xf32>",
     r":2:30: error: expected slice ranges"),
    ('%0 = "stablehlo.add"(%arg0, %arg0) ({\n  ^bb0:\n    stablehlo.return\n  ^bb1:\n  }) : '
     "(tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>", r"regions with several blocks are not supported"),
]  # fmt: skip


@pytest.mark.parametrize(("body", "message"), BAD, ids=[b[1][:40] for b in BAD])
def test_bad_input_is_one_located_error(body: str, message: str) -> None:
    with pytest.raises(StableHloError) as info:
        hlo.parse_stablehlo(MAIN.format(body=body), "bad.mlir")
    text = str(info.value)
    assert re.search("bad.mlir" + message if message.startswith(":") else message, text), text
    assert "\n" in text  # the source line and a caret follow the message


def test_module_level_errors() -> None:
    with pytest.raises(StableHloError, match=r"a\.mlir:1:1: error: the module has no public function @main"):
        hlo.parse_stablehlo("module {\n}\n", "a.mlir")
    with pytest.raises(StableHloError, match=r"@main calls itself"):
        hlo.parse_stablehlo(
            "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n  %0 = func.call @main(%a) : "
            "(tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n"
        )
    with pytest.raises(StableHloError, match=r"expected '\}' to close the region"):
        hlo.parse_stablehlo(
            "module {\n  func.func @main(%a: tensor<f32>) -> tensor<f32> {\n    return %a : tensor<f32>\n"
        )


def test_a_result_shape_the_op_cannot_give_fails_verification_at_the_op() -> None:
    text = (
        "func.func @main(%arg0: tensor<4x3xf32>) -> tensor<3x4xf32> {\n"
        "  %0 = stablehlo.add %arg0, %arg0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<3x4xf32>\n"
        "  return %0 : tensor<3x4xf32>\n}\n"
    )
    module = hlo.parse_stablehlo(text, "v.mlir")
    with pytest.raises(hlo.VerifyError, match=r"v\.mlir:2:3: error: .*add"):
        hlo.verify(module)


def test_dynamic_ops_with_static_results_are_their_static_forms() -> None:
    text = (
        "func.func @main(%arg0: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<4x2xi32>, tensor<4x2x3xf32>) {\n"
        "  %s = stablehlo.constant dense<[3, 2]> : tensor<2xi64>\n"
        "  %0 = stablehlo.dynamic_reshape %arg0, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>\n"
        "  %t = stablehlo.constant dense<[4, 2]> : tensor<2xi64>\n"
        "  %1 = stablehlo.dynamic_iota %t, dim = 0 : (tensor<2xi64>) -> tensor<4x2xi32>\n"
        "  %u = stablehlo.constant dense<[4, 2, 3]> : tensor<3xi64>\n"
        "  %2 = stablehlo.dynamic_broadcast_in_dim %arg0, %u, dims = [1, 2] : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<4x2x3xf32>\n"
        "  return %0, %1, %2 : tensor<3x2xf32>, tensor<4x2xi32>, tensor<4x2x3xf32>\n}\n"
    )
    module = hlo.parse_stablehlo(text)
    ops = [i.opcode.text for i in module.entry.instructions]
    assert "reshape" in ops and "iota" in ops and "broadcast" in ops
    reshaped, iota, broadcast = hlo.run(module, np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(reshaped, [[0, 1], [2, 3], [4, 5]])  # row-major, as the spec's reshape
    np.testing.assert_array_equal(iota[:, 0], [0, 1, 2, 3])
    np.testing.assert_array_equal(broadcast[3], [[0, 1, 2], [3, 4, 5]])


def test_bounded_dynamic_dimensions_are_read_as_hlo_bounds() -> None:
    t = "tensor<?x4xf32, #stablehlo.bounds<8, ?>>"
    module = hlo.parse_stablehlo(f"func.func @main(%a: {t}) -> {t} {{\n  return %a : {t}\n}}\n")
    assert str(module.entry.root.shape) == "f32[<=8,4]{1,0}"


def test_garbled_text_never_escapes_as_a_traceback() -> None:
    text = PROGRAM.read_text()
    rng = random.Random(15)
    for _ in range(300):
        k = rng.randrange(len(text))
        cut = [
            text[:k],
            text[:k] + text[k + rng.randrange(1, 20) :],
            text[:k] + rng.choice("{}()<>[],:=%#@x?") + text[k:],
        ]
        for t in cut:
            with contextlib.suppress(hlo.HloError):
                hlo.verify(hlo.parse_stablehlo(t, "g.mlir"))


@pytest.mark.parametrize("part", ["f32", "f64"])
def test_complex_cbrt_is_refused_as_xla_refuses_it(part: str) -> None:
    # XLA's conversion: "Expected element type in shape to be floating for cbrt operation".
    ty = f"tensor<4xcomplex<{part}>>"
    text = f"func.func @main(%arg0: {ty}) -> {ty} {{\n  %0 = stablehlo.cbrt %arg0 : {ty}\n  return %0 : {ty}\n}}\n"
    with pytest.raises(
        StableHloError,
        match=r"c\.mlir:2:8: error: stablehlo\.cbrt: operand 0 must be floating point: found c",
    ):
        hlo.parse_stablehlo(text, "c.mlir")
