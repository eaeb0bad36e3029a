"""HLO opcodes: one table with each opcode's text name, operand count (None: variadic) and
whether the text may leave out its result shape (XLA's HLO_OPCODE_LIST and CanInferShape)."""

from __future__ import annotations

import enum

VARIADIC = None


class Opcode(enum.Enum):
    """Members' values are (text name, arity, result shape optional in text)."""

    ABS = ("abs", 1, True)
    ACOS = ("acos", 1, True)
    ACOSH = ("acosh", 1, True)
    ADD = ("add", 2, True)
    ADD_DEPENDENCY = ("add-dependency", 2, True)
    AFTER_ALL = ("after-all", VARIADIC, True)
    ALL_GATHER = ("all-gather", VARIADIC, False)
    ALL_GATHER_DONE = ("all-gather-done", 1, False)
    ALL_GATHER_START = ("all-gather-start", VARIADIC, False)
    ALL_REDUCE = ("all-reduce", VARIADIC, False)
    ALL_REDUCE_DONE = ("all-reduce-done", 1, False)
    ALL_REDUCE_START = ("all-reduce-start", VARIADIC, False)
    ALL_TO_ALL = ("all-to-all", VARIADIC, False)
    AND = ("and", 2, True)
    ASIN = ("asin", 1, True)
    ASINH = ("asinh", 1, True)
    ASYNC_DONE = ("async-done", 1, False)
    ASYNC_START = ("async-start", VARIADIC, False)
    ASYNC_UPDATE = ("async-update", VARIADIC, False)
    ATAN2 = ("atan2", 2, True)
    ATANH = ("atanh", 1, True)
    BATCH_NORM_GRAD = ("batch-norm-grad", 5, True)
    BATCH_NORM_INFERENCE = ("batch-norm-inference", 5, True)
    BATCH_NORM_TRAINING = ("batch-norm-training", 3, True)
    BITCAST = ("bitcast", 1, False)
    BITCAST_CONVERT = ("bitcast-convert", 1, False)
    BROADCAST = ("broadcast", 1, True)
    CALL = ("call", VARIADIC, True)
    CBRT = ("cbrt", 1, True)
    CEIL = ("ceil", 1, True)
    CHOLESKY = ("cholesky", 1, True)
    CLAMP = ("clamp", 3, True)
    CLZ = ("count-leading-zeros", 1, True)
    COLLECTIVE_BROADCAST = ("collective-broadcast", VARIADIC, False)
    COLLECTIVE_PERMUTE = ("collective-permute", VARIADIC, False)
    COLLECTIVE_PERMUTE_DONE = ("collective-permute-done", 1, False)
    COLLECTIVE_PERMUTE_START = ("collective-permute-start", VARIADIC, False)
    COMPARE = ("compare", 2, True)
    COMPLEX = ("complex", 2, True)
    CONCATENATE = ("concatenate", VARIADIC, True)
    CONDITIONAL = ("conditional", VARIADIC, True)
    CONSTANT = ("constant", 0, False)
    CONVERT = ("convert", 1, False)
    CONVOLUTION = ("convolution", 2, True)
    COPY = ("copy", 1, True)
    COPY_DONE = ("copy-done", 1, False)
    COPY_START = ("copy-start", 1, False)
    COS = ("cosine", 1, True)
    COSH = ("cosh", 1, True)
    CUSTOM_CALL = ("custom-call", VARIADIC, False)
    DIVIDE = ("divide", 2, True)
    DOMAIN = ("domain", 1, True)
    DOT = ("dot", 2, True)
    DYNAMIC_RESHAPE = ("dynamic-reshape", VARIADIC, False)
    DYNAMIC_SLICE = ("dynamic-slice", VARIADIC, False)
    DYNAMIC_UPDATE_SLICE = ("dynamic-update-slice", VARIADIC, False)
    ERF = ("erf", 1, True)
    EXP = ("exponential", 1, True)
    EXPM1 = ("exponential-minus-one", 1, True)
    FFT = ("fft", 1, True)
    FLOOR = ("floor", 1, True)
    FUSION = ("fusion", VARIADIC, False)
    GATHER = ("gather", 2, True)
    GET_DIMENSION_SIZE = ("get-dimension-size", 1, True)
    GET_TUPLE_ELEMENT = ("get-tuple-element", 1, True)
    IMAG = ("imag", 1, True)
    INFEED = ("infeed", 1, False)
    IOTA = ("iota", 0, False)
    IS_FINITE = ("is-finite", 1, True)
    LOG = ("log", 1, True)
    LOG1P = ("log-plus-one", 1, True)
    LOGISTIC = ("logistic", 1, True)
    MAP = ("map", VARIADIC, True)
    MAXIMUM = ("maximum", 2, True)
    MINIMUM = ("minimum", 2, True)
    MULHI = ("mulhi", 2, True)
    MULTIPLY = ("multiply", 2, True)
    NEGATE = ("negate", 1, True)
    NOT = ("not", 1, True)
    OPTIMIZATION_BARRIER = ("opt-barrier", 1, True)
    OR = ("or", 2, True)
    OUTFEED = ("outfeed", 2, False)
    PAD = ("pad", 2, True)
    PARAMETER = ("parameter", 0, False)
    PARTITION_ID = ("partition-id", 0, True)
    POPULATION_COUNT = ("popcnt", 1, True)
    POWER = ("power", 2, True)
    RAGGED_ALL_TO_ALL = ("ragged-all-to-all", 6, False)
    RAGGED_DOT = ("ragged-dot", 3, True)
    REAL = ("real", 1, True)
    RECV = ("recv", 1, False)
    RECV_DONE = ("recv-done", 1, False)
    REDUCE = ("reduce", VARIADIC, True)
    REDUCE_PRECISION = ("reduce-precision", 1, False)
    REDUCE_SCATTER = ("reduce-scatter", VARIADIC, False)
    REDUCE_WINDOW = ("reduce-window", VARIADIC, True)
    REMAINDER = ("remainder", 2, True)
    REPLICA_ID = ("replica-id", 0, True)
    RESHAPE = ("reshape", 1, False)
    REVERSE = ("reverse", 1, True)
    RNG = ("rng", VARIADIC, False)
    RNG_BIT_GENERATOR = ("rng-bit-generator", 1, False)
    RNG_GET_AND_UPDATE_STATE = ("rng-get-and-update-state", 0, False)
    ROUND_NEAREST_AFZ = ("round-nearest-afz", 1, True)
    ROUND_NEAREST_EVEN = ("round-nearest-even", 1, True)
    RSQRT = ("rsqrt", 1, True)
    SCALED_DOT = ("scaled-dot", 4, True)
    SCAN = ("scan", VARIADIC, True)
    SCATTER = ("scatter", VARIADIC, True)
    SELECT = ("select", 3, True)
    SELECT_AND_SCATTER = ("select-and-scatter", 3, True)
    SEND = ("send", 2, False)
    SEND_DONE = ("send-done", 1, False)
    SET_DIMENSION_SIZE = ("set-dimension-size", 2, True)
    SHIFT_LEFT = ("shift-left", 2, True)
    SHIFT_RIGHT_ARITHMETIC = ("shift-right-arithmetic", 2, True)
    SHIFT_RIGHT_LOGICAL = ("shift-right-logical", 2, True)
    SIGN = ("sign", 1, True)
    SIN = ("sine", 1, True)
    SINH = ("sinh", 1, True)
    SLICE = ("slice", 1, False)
    SORT = ("sort", VARIADIC, True)
    SQRT = ("sqrt", 1, True)
    STOCHASTIC_CONVERT = ("stochastic-convert", 2, False)
    SUBTRACT = ("subtract", 2, True)
    TAN = ("tan", 1, True)
    TANH = ("tanh", 1, True)
    TOP_K = ("topk", 1, True)
    TRANSPOSE = ("transpose", 1, True)
    TRIANGULAR_SOLVE = ("triangular-solve", 2, True)
    TUPLE = ("tuple", VARIADIC, True)
    WHILE = ("while", 1, True)
    XOR = ("xor", 2, True)

    @property
    def text(self) -> str:
        return self.value[0]  # type: ignore[no-any-return]

    @property
    def arity(self) -> int | None:
        """The operand count, or None when it varies."""
        return self.value[1]  # type: ignore[no-any-return]

    @property
    def shape_optional_in_text(self) -> bool:
        return self.value[2]  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return self.value[0]  # type: ignore[no-any-return]


_BY_TEXT = {op.text: op for op in Opcode}


def opcode_from_text(text: str) -> Opcode | None:
    return _BY_TEXT.get(text)
