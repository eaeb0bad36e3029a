"""Make tests/golden/dot_operands/large_dots.npz, large_conv.npz, weight_gradient.npz and
input_gradient.npz: dots
of operands large enough (64K elements and more) that hlo reads them for subnormals instead of
copying them flushed (hlo.numerics.linear._contiguous), one with its rhs contracted on its last
dimension (a copy into C order), and a convolution whose one image's patch matrix is made a few
input features at a time (a LeNet weight gradient) and one below linear.LARGE_GEMM whose patch
matrix is still copied positions innermost (a LeNet input gradient), with XLA:CPU's outputs, for
tests/test_dot_operands.py. Dev only: needs jax (../shared/ORACLE.md).

    python tools/make_dot_operand_fixtures.py

The values make every sum exact in any order: small integers, and per output column one term of
2^60 (the small integers vanish below its ulp, whatever the order). Rows of subnormals meet the
2^60 terms: their products are normal numbers unless the subnormal operands are read as zero, as
XLA:CPU reads them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "dot_operands"
TEXT = """HloModule large_dots

ENTRY main {
  a = f32[256,512] parameter(0)
  b = f32[512,256] parameter(1)
  p = f32[256,512] parameter(2)
  c = f32[256,512] parameter(3)
  d = f32[256,256] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[256,256] dot(p, c), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  ROOT t = (f32[256,256], f32[256,256]) tuple(d, e)
}
"""
BIG = np.float32(2.0**60)
# A convolution whose product per image (m*n*k = 2304*64*288) is above linear.LARGE_GEMM: its
# patch matrix is copied positions innermost; small integers, so every order gives these bits.
CONV_TEXT = """HloModule large_conv

ENTRY main {
  x = f32[2,32,48,48] parameter(0)
  k = f32[64,32,3,3] parameter(1)
  ROOT c = f32[2,64,48,48] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01
}
"""

# A weight gradient as jax writes LeNet's first one: the batch (64) is the contracted feature, the
# window the whole image: one image whose patch matrix (25 x 36864, 3.7 MB) is made in pieces.
GRAD_TEXT = """HloModule weight_gradient

ENTRY main {
  x = f32[64,1,28,28] parameter(0)
  g = f32[64,6,24,24] parameter(1)
  ROOT c = f32[6,1,5,5] convolution(x, g), window={size=24x24}, dim_labels=fb01_io01->fb01
}
"""

# LeNet's second input gradient as jax writes it: 8x8 positions padded by 4, a 5x5 window read
# reversed; products of a few images (m*n*k ~ 3M) below LARGE_GEMM, copied positions innermost.
INPUT_GRAD_TEXT = """HloModule input_gradient
ENTRY main {
  g = f32[64,16,8,8] parameter(0)
  k = f32[16,6,5,5] parameter(1)
  r = f32[16,6,5,5] reverse(k), dimensions={2,3}
  ROOT c = f32[64,6,12,12] convolution(g, r), window={size=5x5 pad=4_4x4_4}, dim_labels=bf01_io01->bf01
}
"""


def inputs(rng: np.random.Generator) -> list[np.ndarray]:
    def ints(*shape: int) -> np.ndarray:
        return rng.integers(-4, 5, shape).astype(np.float32)

    def subnormals(*shape: int) -> np.ndarray:
        return (rng.choice([-1.0, 1.0], shape) * rng.uniform(1e-42, 1e-39, shape)).astype(np.float32)

    a, b, p, c = ints(256, 512), ints(512, 256), ints(256, 512), ints(256, 512)
    a[8:16] = subnormals(8, 512)  # rows of subnormals in the lhs ...
    b[np.arange(256) % 512, np.arange(256)] = BIG  # ... meeting 2^60 in every column
    c[0:8] = subnormals(8, 512)  # rows of subnormals in a transposed rhs ...
    p[:, 0] = BIG  # ... meeting 2^60 in every row
    return [a, b, p, c]


def run_xla(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    import jax
    import jax.extend
    from jax._src.lib import _jax
    from jax._src.lib import xla_client as xc

    backend = jax.extend.backend.get_backend("cpu")
    module = xc.hlo.hlo_module_from_text(text)
    computation = xc.XlaComputation(module.as_serialized_hlo_module_proto())
    mlir = _jax.mlir.xla_computation_to_mlir_module(computation)
    devices = xc.DeviceList(tuple(backend.devices()[:1]))
    executable = backend.compile_and_load(mlir, devices, xc.CompileOptions())
    return [np.asarray(o) for o in executable.execute([jax.device_put(x) for x in args])]


def main() -> None:
    rng = np.random.default_rng(0)
    conv_args = [rng.integers(-4, 5, s).astype(np.float32) for s in ((2, 32, 48, 48), (64, 32, 3, 3))]
    grad_rng = np.random.default_rng(1)
    grad_args = [grad_rng.integers(-4, 5, s).astype(np.float32) for s in ((64, 1, 28, 28), (64, 6, 24, 24))]
    input_rng = np.random.default_rng(2)
    input_grad_args = [
        input_rng.integers(-4, 5, s).astype(np.float32) for s in ((64, 16, 8, 8), (16, 6, 5, 5))
    ]
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text, args in (
        ("large_dots", TEXT, inputs(rng)),
        ("large_conv", CONV_TEXT, conv_args),
        ("weight_gradient", GRAD_TEXT, grad_args),
        ("input_gradient", INPUT_GRAD_TEXT, input_grad_args),
    ):
        outs = run_xla(text, args)
        (OUT / f"{name}.hlo").write_text(text)
        arrays = {f"arg{k}": x for k, x in enumerate(args)} | {f"out{k}": o for k, o in enumerate(outs)}
        np.savez_compressed(OUT / f"{name}.npz", **arrays)
        print(f"wrote {OUT / name}.npz: outputs {[o.shape for o in outs]}")


if __name__ == "__main__":
    main()
