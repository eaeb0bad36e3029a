"""Random numbers: rng (uniform/normal), rng-bit-generator and the RNG state op."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..engine import random
from ..errors import HloError, ShapeError
from ..ir.attrs import RandomAlgorithm, RandomDistribution
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..shape import Shape
from ..text.attr_codecs import INT, EnumCodec
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..engine.plan import KernelContext

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


# -- shape rules ------------------------------------------------------------------------------
@shape_rule(Op.RNG)
def rng_shape(ctx: ShapeContext) -> Shape:
    """The written shape (only the builder and the text know it), filled from a uniform
    distribution over [a, b) or a normal one (mu, sigma), whose scalar parameters have the
    result's element type."""
    if len(ctx.operands) != 2:
        raise ShapeError(f"rng takes 2 operands (a and b, or mu and sigma): found {len(ctx.operands)}")
    a, b = array_operand(ctx, 0, "a"), array_operand(ctx, 1, "b")
    if a.rank or b.rank:
        raise ShapeError(f"the parameters of rng must be scalars: found {a} and {b}")
    result = ctx.shape or Shape.array(a.element_type, ())
    if not result.is_array:
        raise ShapeError(f"rng produces an array: found {result}")
    t = result.element_type
    if a.element_type is not t or b.element_type is not t:
        raise ShapeError(
            f"the parameters of rng must be {t.text}[] like the result {result}: found {a} and {b}"
        )
    kind = ctx.attr("distribution")
    if kind is RandomDistribution.UNIFORM and not (
        t.is_floating_point or t.is_integral or t is PrimitiveType.PRED
    ):
        raise ShapeError(f"rng_uniform produces floats, integers or pred: found {result}")
    if kind is RandomDistribution.NORMAL and not t.is_floating_point:
        raise ShapeError(f"rng_normal produces floats: found {result}")
    if kind not in (RandomDistribution.UNIFORM, RandomDistribution.NORMAL):
        raise ShapeError("distribution must be rng_uniform or rng_normal")
    return result


@shape_rule(Op.RNG_BIT_GENERATOR)
def rng_bit_generator_shape(ctx: ShapeContext) -> Shape:
    """(new state, random bits): the state keeps its shape; the output's shape is written."""
    state = array_operand(ctx, 0, "state")
    if state.rank != 1 or not state.element_type.is_unsigned_integral:
        raise ShapeError(f"operand 0 (state) must be a vector of unsigned integers (u64): found {state}")
    result = ctx.shape
    if result is None:
        raise ShapeError("rng-bit-generator needs its result shape (state, output) written")
    if not result.is_tuple or len(result.tuple_shapes) != 2:
        raise ShapeError(f"the result must be a (state, output) tuple: found {result}")
    if not result.tuple_shapes[0].compatible(state):
        raise ShapeError(f"the result's state must have the shape of operand 0 {state}: found {result}")
    output = result.tuple_shapes[1]
    if not output.is_array or not (output.element_type.is_integral or output.element_type.is_floating_point):
        raise ShapeError(f"the random output must be an array of integers: found {output}")
    return result


@shape_rule(Op.RNG_GET_AND_UPDATE_STATE)
def rng_get_and_update_state_shape(ctx: ShapeContext) -> Shape:
    if ctx.operands:
        raise ShapeError(f"rng-get-and-update-state takes no operands: found {len(ctx.operands)}")
    return Shape.array(PrimitiveType.U64, (2,))


# -- builder functions ------------------------------------------------------------------------
def _shape(builder: XlaBuilder, op_name: str, shape: Shape | str) -> Shape:
    from ..text.shape_codec import parse_shape

    try:
        return parse_shape(shape) if isinstance(shape, str) else shape
    except HloError as e:
        raise builder.error(op_name, e.message) from None


@builder_function
def RngUniform(a: XlaOp, b: XlaOp, shape: Shape | str) -> XlaOp:
    """Numbers drawn uniformly from [a, b) (page 003)."""
    builder = builder_of("RngUniform", a, b)
    written = _shape(builder, "RngUniform", shape)
    attrs = {"distribution": RandomDistribution.UNIFORM}
    return builder.add("RngUniform", Op.RNG, (a, b), attrs, shape=written)


@builder_function
def RngNormal(mu: XlaOp, sigma: XlaOp, shape: Shape | str) -> XlaOp:
    """Numbers drawn from N(mu, sigma) (page 003)."""
    builder = builder_of("RngNormal", mu, sigma)
    written = _shape(builder, "RngNormal", shape)
    attrs = {"distribution": RandomDistribution.NORMAL}
    return builder.add("RngNormal", Op.RNG, (mu, sigma), attrs, shape=written)


@builder_function
def RngBitGenerator(algorithm: RandomAlgorithm | str, initial_state: XlaOp, shape: Shape | str) -> XlaOp:
    """(new state, random bits of `shape`) (page 003)."""
    builder = builder_of("RngBitGenerator", initial_state)
    if isinstance(algorithm, str):
        names = {a.name: a for a in RandomAlgorithm} | {a.value: a for a in RandomAlgorithm}
        found = names.get(algorithm.upper()) or names.get(algorithm)
        if found is None:
            raise builder.error(
                "RngBitGenerator", f"algorithm must be one of {', '.join(names)}: found {algorithm!r}"
            )
        algorithm = found
    output = _shape(builder, "RngBitGenerator", shape)
    result = Shape.make_tuple((initial_state.shape, output))
    return builder.add(
        "RngBitGenerator", Op.RNG_BIT_GENERATOR, (initial_state,), {"algorithm": algorithm}, shape=result
    )


# -- kernels ---------------------------------------------------------------------------------
@kernel(Op.RNG_BIT_GENERATOR)
def rng_bit_generator_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    algorithm = instr.attrs["algorithm"]
    output = instr.shape.tuple_shapes[1]
    dims, dtype = output.dimensions, np.dtype(output.element_type.numpy_dtype)
    return lambda state: random.rng_bit_generator(algorithm, state, dims, dtype)


def _generator(ctx: KernelContext) -> np.random.Generator:
    """One generator per run, seeded by RunOptions.seed."""
    generator = ctx.state.get("rng")
    if generator is None:
        generator = ctx.state["rng"] = np.random.default_rng(ctx.options.seed)
    return generator  # type: ignore[no-any-return]


@kernel(Op.RNG)
def rng_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """Uniform over [a, b) or normal(mu, sigma), deterministic for a seed (XLA does not fix the
    bits of these ops)."""
    shape, dtype = instr.shape.dimensions, np.dtype(instr.shape.element_type.numpy_dtype)
    t = instr.shape.element_type
    normal = instr.attrs["distribution"] is RandomDistribution.NORMAL

    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        g = _generator(ctx)
        if normal:
            return (float(a) + float(b) * g.standard_normal(shape)).astype(dtype)
        if t.is_integral or dtype == np.bool_:
            low, high = int(a), int(b)
            return g.integers(low, max(high, low + 1), size=shape).astype(dtype)
        return g.uniform(float(a), float(b), size=shape).astype(dtype)

    return run


@kernel(Op.RNG_GET_AND_UPDATE_STATE)
def rng_state_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The state before, as u64[2] (seed, counter); the counter advances by `delta`."""
    delta = instr.attrs["delta"]

    def run() -> np.ndarray:
        counter = ctx.state.get("rng_counter", 0)
        ctx.state["rng_counter"] = counter + delta
        return np.array([ctx.options.seed, counter], dtype=np.uint64)

    return run
