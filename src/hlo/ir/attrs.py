"""Typed values of instruction attributes (XLA's xla_data.proto messages and enums): windows,
convolution dimension numbers, padding, slices, enums. Frozen, with tuple fields; no attribute
travels as a string past the parser."""

from __future__ import annotations

import enum
from dataclasses import dataclass


# -- enums (the value is the text XLA prints) -------------------------------------------------
class ComparisonDirection(enum.Enum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(enum.Enum):
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


class FftType(enum.Enum):
    FFT = "FFT"
    IFFT = "IFFT"
    RFFT = "RFFT"
    IRFFT = "IRFFT"


class RandomDistribution(enum.Enum):
    INVALID = "rng_invalid"
    UNIFORM = "rng_uniform"
    NORMAL = "rng_normal"


class RandomAlgorithm(enum.Enum):
    DEFAULT = "rng_default"
    THREE_FRY = "rng_three_fry"
    PHILOX = "rng_philox"


class Precision(enum.Enum):
    DEFAULT = "default"
    HIGH = "high"
    HIGHEST = "highest"


class DotAlgorithm(enum.Enum):
    """PrecisionConfig.Algorithm, printed lower case without the ALG_ prefix."""

    UNSET = "unset"
    DOT_ANY_F8_ANY_F8_F32 = "dot_any_f8_any_f8_f32"
    DOT_ANY_F8_ANY_F8_F32_FAST_ACCUM = "dot_any_f8_any_f8_f32_fast_accum"
    DOT_F16_F16_F16 = "dot_f16_f16_f16"
    DOT_F16_F16_F32 = "dot_f16_f16_f32"
    DOT_BF16_BF16_BF16 = "dot_bf16_bf16_bf16"
    DOT_BF16_BF16_F32 = "dot_bf16_bf16_f32"
    DOT_BF16_BF16_F32_X3 = "dot_bf16_bf16_f32_x3"
    DOT_BF16_BF16_F32_X6 = "dot_bf16_bf16_f32_x6"
    DOT_BF16_BF16_F32_X9 = "dot_bf16_bf16_f32_x9"
    DOT_TF32_TF32_F32 = "dot_tf32_tf32_f32"
    DOT_TF32_TF32_F32_X3 = "dot_tf32_tf32_f32_x3"
    DOT_F32_F32_F32 = "dot_f32_f32_f32"
    DOT_F64_F64_F64 = "dot_f64_f64_f64"


class FusionKind(enum.Enum):
    LOOP = "kLoop"
    INPUT = "kInput"
    OUTPUT = "kOutput"
    CUSTOM = "kCustom"


class CustomCallSchedule(enum.Enum):
    NONE = "SCHEDULE_NONE"
    LATEST = "SCHEDULE_LATEST"
    EARLIEST = "SCHEDULE_EARLIEST"


class CustomCallApiVersion(enum.Enum):
    UNSPECIFIED = "API_VERSION_UNSPECIFIED"
    ORIGINAL = "API_VERSION_ORIGINAL"
    STATUS_RETURNING = "API_VERSION_STATUS_RETURNING"
    STATUS_RETURNING_UNIFIED = "API_VERSION_STATUS_RETURNING_UNIFIED"
    TYPED_FFI = "API_VERSION_TYPED_FFI"


class PaddingType(enum.Enum):
    INVALID = "PADDING_INVALID"
    VALID = "PADDING_VALID"
    SAME = "PADDING_SAME"


class ConvolutionKind(enum.Enum):
    UNSET = "unset"
    FPROP = "fprop"
    WGRAD = "wgrad"
    DGRAD = "dgrad"


class TransposeA(enum.Enum):
    """TriangularSolveOptions.Transpose."""

    INVALID = "TRANSPOSE_INVALID"
    NO_TRANSPOSE = "NO_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    ADJOINT = "ADJOINT"


class CollectiveMode(enum.Enum):
    """all-reduce / reduce-scatter `mode=`: accepted and checked, not stored by XLA."""

    CROSS_REPLICA = "cross_replica"
    CROSS_PARTITION = "cross_partition"
    CROSS_REPLICA_AND_PARTITION = "cross_replica_and_partition"
    FLATTENED_ID = "flattened_id"


# -- structured values ------------------------------------------------------------------------
@dataclass(frozen=True)
class WindowDimension:
    size: int
    stride: int = 1
    padding_low: int = 0
    padding_high: int = 0
    base_dilation: int = 1  # lhs_dilate
    window_dilation: int = 1  # rhs_dilate
    window_reversal: bool = False


@dataclass(frozen=True)
class Window:
    dimensions: tuple[WindowDimension, ...] = ()


@dataclass(frozen=True)
class ConvolutionDimensionNumbers:
    """What `dim_labels=b01f_01io->b01f` says: which dimension of each operand is batch,
    feature and each spatial dimension."""

    input_batch_dimension: int
    input_feature_dimension: int
    input_spatial_dimensions: tuple[int, ...]
    kernel_input_feature_dimension: int
    kernel_output_feature_dimension: int
    kernel_spatial_dimensions: tuple[int, ...]
    output_batch_dimension: int
    output_feature_dimension: int
    output_spatial_dimensions: tuple[int, ...]


@dataclass(frozen=True)
class PaddingDimension:
    low: int
    high: int
    interior: int = 0


@dataclass(frozen=True)
class PaddingConfig:
    dimensions: tuple[PaddingDimension, ...]


@dataclass(frozen=True)
class SliceRange:
    start: int
    limit: int
    stride: int = 1


@dataclass(frozen=True)
class TensorSparsity:
    num_non_zero: int = 0
    block_size: int = 0
    dimension: int = 0
    stride: int = 0


@dataclass(frozen=True)
class SparsityConfig:
    lhs: TensorSparsity | None = None
    rhs: TensorSparsity | None = None


@dataclass(frozen=True)
class OperandAlias:
    """One `{output index}: (operand, {operand index})` of output_to_operand_aliasing."""

    output_index: tuple[int, ...]
    operand: int
    operand_index: tuple[int, ...]
