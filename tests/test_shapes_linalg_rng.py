"""Shape rules and builder functions of the linear-algebra and random-number ops: fft (XLA's
InferFftShape), triangular-solve (InferTriangularSolveShape), cholesky (InferCholeskyShape),
batch-norm-training/inference/grad (InferBatchNorm*Shape), rng (the verifier's HandleRng),
rng-bit-generator (HandleRngBitGenerator and the state sizes XLA's RngBitGeneratorExpander takes)
and rng-get-and-update-state. Tables of HLO lines, each with the written result shape XLA infers
or the rule it breaks; builder round trips and argument errors."""

from __future__ import annotations

import pytest

import hlo
from hlo import ops
from shape_checks import rule_errors

FAMILIES = ("linalg", "rng")


def module(params: list[str], line: str) -> str:
    body = "".join(f"  p{k} = {s} parameter({k})\n" for k, s in enumerate(params))
    return f"HloModule m\n\nENTRY e {{\n{body}  ROOT r = {line}\n}}\n"


# (operand shapes, instruction line with its written shape, None or a fragment of the error)
CASES = [
    # fft: FFT/IFFT keep the complex shape; RFFT f32 -> c64 with n/2+1; IRFFT back to n
    (["c64[8,16]"], "c64[8,16] fft(p0), fft_type=FFT, fft_length={16}", None),
    (["c128[4,8,16]"], "c128[4,8,16] fft(p0), fft_type=IFFT, fft_length={8,16}", None),
    (["c64[2,4,8,16]"], "c64[2,4,8,16] fft(p0), fft_type=FFT, fft_length={4,8,16}", None),
    (["f32[8,16]"], "c64[8,9] fft(p0), fft_type=RFFT, fft_length={16}", None),
    (["f64[8,15]"], "c128[8,8] fft(p0), fft_type=RFFT, fft_length={15}", None),
    (["f32[4,6,16]"], "c64[4,6,9] fft(p0), fft_type=RFFT, fft_length={6,16}", None),
    (["c64[8,9]"], "f32[8,16] fft(p0), fft_type=IRFFT, fft_length={16}", None),
    (["c128[8,8]"], "f64[8,15] fft(p0), fft_type=IRFFT, fft_length={15}", None),
    (["c64[4,6,9]"], "f32[4,6,16] fft(p0), fft_type=IRFFT, fft_length={6,16}", None),
    (["f32[8,?]"], "c64[8,9] fft(p0), fft_type=RFFT, fft_length={16}", None),
    (["f32[8,0]"], "c64[8,0] fft(p0), fft_type=RFFT, fft_length={0}", None),
    (["c64[8,16]"], "c64[8,16] fft(p0), fft_type=FFT, fft_length={}", "must hold 1 to 3 sizes"),
    (["c64[2,2,2,2]"], "c64[2,2,2,2] fft(p0), fft_type=FFT, fft_length={2,2,2,2}", "must hold 1 to 3 sizes"),
    (["c64[16]"], "c64[16] fft(p0), fft_type=FFT, fft_length={4,16}", "needs an operand of rank 2 or more"),
    (["f32[8,16]"], "c64[8,16] fft(p0), fft_type=FFT, fft_length={16}", "FFT takes a complex operand"),
    (["c64[8,16]"], "c64[8,9] fft(p0), fft_type=RFFT, fft_length={16}", "RFFT takes an f32 or f64 operand"),
    (["bf16[8,16]"], "c64[8,9] fft(p0), fft_type=RFFT, fft_length={16}", "RFFT takes an f32 or f64 operand"),
    (["f32[8,16]"], "f32[8,16] fft(p0), fft_type=IRFFT, fft_length={16}", "IRFFT takes a complex operand"),
    (["f32[8,12]"], "c64[8,9] fft(p0), fft_type=RFFT, fft_length={16}", "dimension 1 is 12"),
    (
        ["c64[8,16]"],
        "f32[8,16] fft(p0), fft_type=IRFFT, fft_length={16}",
        "the last dimension (fft_length[-1]/2+1) is 16",
    ),
    (["c64[8,8]"], "c64[8,8] fft(p0), fft_type=FFT, fft_length={16}", "dimension 1 is 8"),
    # triangular-solve: a [..., m, m]; b [..., m, n] (left side) or [..., n, m]; the result is b
    (
        ["f32[4,4]", "f32[4,3]"],
        "f32[4,3] triangular-solve(p0, p1), left_side=true, lower=true, transpose_a=NO_TRANSPOSE",
        None,
    ),
    (["f32[4,4]", "f32[3,4]"], "f32[3,4] triangular-solve(p0, p1), lower=true, transpose_a=TRANSPOSE", None),
    (
        ["c64[2,5,5]", "c64[2,5,7]"],
        "c64[2,5,7] triangular-solve(p0, p1), left_side=true, unit_diagonal=true, transpose_a=ADJOINT",
        None,
    ),
    (
        ["f32[4,4]", "f32[3,4]"],
        "f32[3,4] triangular-solve(p0, p1), left_side=true, transpose_a=NO_TRANSPOSE",
        "the rows of b must match the size of a (left_side=true)",
    ),
    (
        ["f32[4,4]", "f32[4,3]"],
        "f32[4,3] triangular-solve(p0, p1), transpose_a=NO_TRANSPOSE",
        "the columns of b must match the size of a (left_side=false)",
    ),
    (
        ["f32[4,3]", "f32[4,3]"],
        "f32[4,3] triangular-solve(p0, p1), left_side=true, transpose_a=NO_TRANSPOSE",
        "must be square in its two minor dimensions",
    ),
    (
        ["f32[4,4]", "f64[4,3]"],
        "f64[4,3] triangular-solve(p0, p1), left_side=true, transpose_a=NO_TRANSPOSE",
        "must have the element type of operand 0 (a)",
    ),
    (
        ["s32[4,4]", "s32[4,3]"],
        "s32[4,3] triangular-solve(p0, p1), left_side=true, transpose_a=NO_TRANSPOSE",
        "must be floating point or complex",
    ),
    (
        ["f32[2,4,4]", "f32[4,3]"],
        "f32[4,3] triangular-solve(p0, p1), left_side=true, transpose_a=NO_TRANSPOSE",
        "must have the rank of operand 0 (a)",
    ),
    (
        ["f32[2,4,4]", "f32[3,4,3]"],
        "f32[3,4,3] triangular-solve(p0, p1), left_side=true, transpose_a=NO_TRANSPOSE",
        "must have the batch dimensions of operand 0 (a)",
    ),
    (
        ["f32[4]", "f32[4]"],
        "f32[4] triangular-solve(p0, p1), left_side=true, transpose_a=NO_TRANSPOSE",
        "at least 2 dimensions",
    ),
    (
        ["f32[4,4]", "f32[4,3]"],
        "f32[4,3] triangular-solve(p0, p1), left_side=true",
        "transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT",
    ),
    # cholesky
    (["f32[3,3]"], "f32[3,3] cholesky(p0), lower=true", None),
    (["c128[2,4,4]"], "c128[2,4,4] cholesky(p0)", None),
    (["f32[3,4]"], "f32[3,4] cholesky(p0)", "must be square"),
    (["s32[3,3]"], "s32[3,3] cholesky(p0)", "must be floating point or complex"),
    (["f32[3]"], "f32[3] cholesky(p0)", "at least 2 dimensions"),
    # batch norm: feature vectors of the feature dimension's size; grad_output like the operand
    (
        ["f32[2,3,4]", "f32[3]", "f32[3]"],
        "(f32[2,3,4], f32[3], f32[3]) batch-norm-training(p0, p1, p2), epsilon=0.001, feature_index=1",
        None,
    ),
    (
        ["bf16[2,3,4]", "bf16[4]", "bf16[4]"],
        "(bf16[2,3,4], bf16[4], bf16[4]) batch-norm-training(p0, p1, p2), epsilon=0.001, feature_index=2",
        None,
    ),
    (
        ["f32[2,3,4]", "f32[3]", "f32[3]", "f32[3]", "f32[3]"],
        "f32[2,3,4] batch-norm-inference(p0, p1, p2, p3, p4), epsilon=0.001, feature_index=1",
        None,
    ),
    (
        ["f32[2,3,4]", "f32[3]", "f32[3]", "f32[3]", "f32[2,3,4]"],
        "(f32[2,3,4], f32[3], f32[3]) batch-norm-grad(p0, p1, p2, p3, p4), epsilon=0.001, feature_index=1",
        None,
    ),
    (
        ["f32[2,3,4]", "f32[4]", "f32[3]"],
        "(f32[2,3,4], f32[3], f32[3]) batch-norm-training(p0, p1, p2), epsilon=0.001, feature_index=1",
        "operand 1 (scale) must be f32[3], one value per feature",
    ),
    (
        ["f32[2,3,4]", "f32[3]", "f32[3]"],
        "(f32[2,3,4], f32[3], f32[3]) batch-norm-training(p0, p1, p2), epsilon=0.001, feature_index=3",
        "feature_index=3 must be a dimension of operand 0",
    ),
    (
        ["s32[2,3,4]", "s32[3]", "s32[3]"],
        "(s32[2,3,4], s32[3], s32[3]) batch-norm-training(p0, p1, p2), epsilon=0.001, feature_index=1",
        "operand 0 must be floating point",
    ),
    (
        ["f32[2,3,4]", "f32[3]", "f32[3]", "f32[3]", "f32[2,3,5]"],
        "(f32[2,3,4], f32[3], f32[3]) batch-norm-grad(p0, p1, p2, p3, p4), epsilon=0.001, feature_index=1",
        "operand 4 (grad_output) must have the shape of operand 0",
    ),
    (
        ["f32[2,3,4]", "f32[3]", "f32[3]", "f32[3,1]", "f32[3]"],
        "f32[2,3,4] batch-norm-inference(p0, p1, p2, p3, p4), epsilon=0.001, feature_index=1",
        "operand 3 (mean) must be f32[3]",
    ),
    # rng: scalar parameters of the written result's type; uniform of floats/integers/pred, normal of floats
    (["f32[]", "f32[]"], "f32[3,4] rng(p0, p1), distribution=rng_uniform", None),
    (["s32[]", "s32[]"], "s32[7] rng(p0, p1), distribution=rng_uniform", None),
    (["f64[]", "f64[]"], "f64[2] rng(p0, p1), distribution=rng_normal", None),
    (["s32[]", "s32[]"], "s32[7] rng(p0, p1), distribution=rng_normal", "rng_normal produces floats"),
    (["f32[2]", "f32[]"], "f32[3] rng(p0, p1), distribution=rng_uniform", "must be scalars"),
    (["f32[]", "f32[]"], "f64[3] rng(p0, p1), distribution=rng_uniform", "must be f64[] like the result"),
    # rng-bit-generator: the state keeps its shape; u64[2] for ThreeFry, u64[2] or u64[3] for Philox
    (["u64[2]"], "(u64[2], u32[4,4]) rng-bit-generator(p0), algorithm=rng_three_fry", None),
    (["u64[3]"], "(u64[3], u64[8]) rng-bit-generator(p0), algorithm=rng_philox", None),
    (["u64[2]"], "(u64[2], f32[5]) rng-bit-generator(p0), algorithm=rng_default", None),
    (
        ["u64[3]"],
        "(u64[3], u32[4]) rng-bit-generator(p0), algorithm=rng_three_fry",
        "u64[2] for rng_three_fry",
    ),
    (
        ["u32[2]"],
        "(u32[2], u32[4]) rng-bit-generator(p0), algorithm=rng_philox",
        "u64[2] or u64[3] for rng_philox",
    ),
    (
        ["u64[2]"],
        "(u64[3], u32[4]) rng-bit-generator(p0), algorithm=rng_philox",
        "the result's state must have the shape of operand 0",
    ),
    (["u64[2]"], "(u64[2], pred[4]) rng-bit-generator(p0), algorithm=rng_philox", "not pred or complex"),
    (["u64[2]"], "(u64[2], c64[4]) rng-bit-generator(p0), algorithm=rng_philox", "not pred or complex"),
    # rng-get-and-update-state
    ([], "u64[2] rng-get-and-update-state(), delta=4", None),
]


@pytest.mark.parametrize(
    "params, line, message", CASES, ids=[c[1].split("(")[0] + str(i) for i, c in enumerate(CASES)]
)
def test_rules(params: list[str], line: str, message: str | None) -> None:
    errors = rule_errors(module(params, line), FAMILIES)
    if message is None:
        assert errors == []
    else:
        assert len(errors) == 1 and message in errors[0], errors


def built(build) -> str:  # type: ignore[no-untyped-def]
    b = hlo.XlaBuilder("c")
    build(b)
    text = b.build().to_text()
    hlo.parse_module(text)  # prints and parses back
    assert rule_errors(text, FAMILIES) == []
    return text


def test_builders_give_xla_shapes() -> None:
    text = built(lambda b: ops.Fft(ops.Parameter(b, 0, "f32[8,16]", "x"), "rfft", [16]))
    assert "c64[8,9]" in text and "fft_type=RFFT" in text
    text = built(
        lambda b: ops.TriangularSolve(
            ops.Parameter(b, 0, "f32[4,4]", "a"),
            ops.Parameter(b, 1, "f32[4,3]", "b"),
            True,
            True,
            False,
            "TRANSPOSE",
        )
    )
    assert "left_side=true" in text and "transpose_a=TRANSPOSE" in text
    text = built(lambda b: ops.Cholesky(ops.Parameter(b, 0, "f64[3,3]", "a")))
    assert "lower=true" in text  # XLA's Python binding's default
    text = built(
        lambda b: ops.BatchNormTraining(
            ops.Parameter(b, 0, "f32[2,3]", "x"),
            ops.Parameter(b, 1, "f32[3]", "s"),
            ops.Parameter(b, 2, "f32[3]", "o"),
            1e-3,
            1,
        )
    )
    assert "(f32[2,3]{1,0}, f32[3]{0}, f32[3]{0}) batch-norm-training" in text
    # XLA's builder makes the bits unsigned of the requested width: f32[4] gives u32[4]
    text = built(lambda b: ops.RngBitGenerator("philox", ops.Parameter(b, 0, "u64[2]", "s"), "f32[4]"))
    assert "(u64[2]{0}, u32[4]{0}) rng-bit-generator" in text and "algorithm=rng_philox" in text
    text = built(lambda b: ops.RngNormal(ops.ConstantR0(b, 0.0), ops.ConstantR0(b, 1.0), "f32[2,2]"))
    assert "f32[2,2]{1,0} rng(" in text and "distribution=rng_normal" in text


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda b: ops.Fft(ops.Parameter(b, 0, "c64[8]", "x"), "sideways", [8]), "fft_type must be one of"),
        (lambda b: ops.Cholesky(ops.Parameter(b, 0, "f32[3,3]", "a"), lower="yes"), "lower must be a bool"),
        (
            lambda b: ops.TriangularSolve(
                ops.Parameter(b, 0, "f32[4,4]", "a"),
                ops.Parameter(b, 1, "f32[4,3]", "b"),
                True,
                True,
                False,
                "FLIP",
            ),
            "transpose_a must be one of",
        ),
        (
            lambda b: ops.BatchNormInference(
                *(ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(["f32[2,3]"] + ["f32[3]"] * 4)),
                1e-3,
                1.5,
            ),
            "feature_index must be an int",
        ),
        (
            lambda b: ops.RngBitGenerator("mersenne", ops.Parameter(b, 0, "u64[2]", "s"), "u32[4]"),
            "algorithm must be one of",
        ),
        (
            lambda b: ops.RngBitGenerator("philox", ops.Parameter(b, 0, "u64[2]", "s"), "(u32[4])"),
            "shape must be an array",
        ),
        (
            lambda b: ops.RngUniform(ops.ConstantR0(b, 0.0), ops.ConstantR0(b, 1.0), 5),
            "shape must be a Shape or its text",
        ),
    ],
)
def test_builder_argument_errors(build, message: str) -> None:  # type: ignore[no-untyped-def]
    b = hlo.XlaBuilder("c")
    with pytest.raises(hlo.HloError, match=message):
        build(b)
        b.build()
