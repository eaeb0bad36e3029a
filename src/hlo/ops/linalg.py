"""Linear algebra, FFT and batch normalization."""

from __future__ import annotations

from ..ir.attrs import FftType, TransposeA
from ..ir.opcode import Opcode
from ..text.attr_codecs import BOOL, FLOAT, INT, INT_LIST, EnumCodec
from .registry import AttrSpec, define, if_true, unless

Op = Opcode

# TriangularSolveOptions / CholeskyOptions: XLA prints the fields that are set, in field order.
define(
    Op.TRIANGULAR_SOLVE,
    AttrSpec("left_side", BOOL, default=False, printed=if_true),
    AttrSpec("lower", BOOL, default=False, printed=if_true),
    AttrSpec("unit_diagonal", BOOL, default=False, printed=if_true),
    AttrSpec(
        "transpose_a",
        EnumCodec(TransposeA, "a transpose option"),
        default=TransposeA.INVALID,
        printed=unless(TransposeA.INVALID),
    ),
)
define(Op.CHOLESKY, AttrSpec("lower", BOOL, default=False, printed=if_true))
define(
    Op.FFT,
    AttrSpec("fft_type", EnumCodec(FftType, "an FFT type"), required=True),
    AttrSpec("fft_length", INT_LIST, required=True),
)
for op in (Op.BATCH_NORM_TRAINING, Op.BATCH_NORM_INFERENCE, Op.BATCH_NORM_GRAD):
    define(op, AttrSpec("epsilon", FLOAT, required=True), AttrSpec("feature_index", INT, required=True))
