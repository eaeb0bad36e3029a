"""Random numbers: rng (uniform/normal), rng-bit-generator and the RNG state op."""

from __future__ import annotations

from ..ir.attrs import RandomAlgorithm, RandomDistribution
from ..ir.opcode import Opcode
from ..text.attr_codecs import INT, EnumCodec
from .registry import AttrSpec, define

Op = Opcode

define(
    Op.RNG,
    AttrSpec("distribution", EnumCodec(RandomDistribution, "a random distribution", True), required=True),
    arity=None,
)
define(
    Op.RNG_BIT_GENERATOR,
    AttrSpec("algorithm", EnumCodec(RandomAlgorithm, "an RNG algorithm", True), required=True),
)
define(Op.RNG_GET_AND_UPDATE_STATE, AttrSpec("delta", INT, required=True))
