"""StableHLO token ops: infeed and outfeed run through hlo.run's feeds; send and recv become the
send/send-done and recv/recv-done pairs XLA's conversion makes (the expected text is jaxlib's
`mlir_module_to_xla_computation` output for the same module, without the token it leaves unused)."""

# ruff: noqa: E501  (MLIR and HLO text)
from __future__ import annotations

import numpy as np

import hlo

FEEDS = """func.func public @main(%arg0: tensor<3xf32>) -> (tensor<2xi32>, tensor<4xf32>) {
  %t = stablehlo.create_token : !stablehlo.token
  %0:2 = "stablehlo.infeed"(%t) <{infeed_config = "", layout = [[0]]}> : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %1 = "stablehlo.outfeed"(%arg0, %0#1) <{outfeed_config = ""}> : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<1.0> : tensor<f32>
  %shape = stablehlo.constant dense<4> : tensor<1xi64>
  %2 = stablehlo.rng %lo, %hi, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %0#0, %2 : tensor<2xi32>, tensor<4xf32>
}
"""
SEND_RECV = """func.func public @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %1 = "stablehlo.send"(%arg0, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  %2:2 = "stablehlo.recv"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<3xf32>, !stablehlo.token)
  return %2#0 : tensor<3xf32>
}
"""
XLA_SEND_RECV = """ENTRY main.1 {
  Arg_0.1 = f32[3]{0} parameter(0)
  after-all.1 = token[] after-all()
  send.1 = (f32[3]{0}, u32[], token[]) send(Arg_0.1, after-all.1), channel_id=1, is_host_transfer=true
  send-done.1 = token[] send-done(send.1), channel_id=1, is_host_transfer=true
  recv.1 = (f32[3]{0}, u32[], token[]) recv(send-done.1), channel_id=2, is_host_transfer=true
  recv-done.1 = (f32[3]{0}, token[]) recv-done(recv.1), channel_id=2, is_host_transfer=true
  ROOT get-tuple-element.1 = f32[3]{0} get-tuple-element(recv-done.1), index=0
}
"""


def test_infeed_outfeed_and_rng_run() -> None:
    m = hlo.parse_stablehlo(FEEDS, "feeds.mlir")
    hlo.verify(m)
    sink: list[object] = []
    got, uniform = hlo.run(
        m, np.arange(3, dtype=np.float32), infeed=[(np.array([7, 8], np.int32),)], outfeed=sink
    )
    np.testing.assert_array_equal(got, [7, 8])
    assert len(sink) == 1
    np.testing.assert_array_equal(sink[0][0], [0, 1, 2])  # type: ignore[index]
    assert uniform.shape == (4,) and ((uniform >= 0) & (uniform < 1)).all()


def test_send_and_recv_are_built_as_xla_builds_them() -> None:
    m = hlo.parse_stablehlo(SEND_RECV, "sr.mlir")
    hlo.verify(m)
    assert m.to_text("short").split("\n\n", 1)[1].strip() == XLA_SEND_RECV.strip()
