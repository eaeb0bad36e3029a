"""Random numbers (page 003: RngUniform, RngNormal, RngBitGenerator): rng, rng-bit-generator
and rng-get-and-update-state; their attributes, shape rules (XLA's verifier: HandleRng,
HandleRngBitGenerator, HandleRngGetAndUpdateState, and what its RngBitGeneratorExpander
accepts), builder functions and kernels."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..dtypes import PrimitiveType
from ..errors import HloError, ShapeError
from ..ir.attr_kinds import INT, enum_kind
from ..ir.attrs import RandomAlgorithm, RandomDistribution
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.services import parse_shape
from ..numerics import random
from ..shape import Shape
from .registry import AttrSpec, ShapeContext, builder_function, define, kernel, shape_rule
from .rule_helpers import array_operand, builder_of, enum_argument

if TYPE_CHECKING:
    from ..builder import XlaBuilder, XlaOp
    from ..numerics.context import KernelContext

Op = Opcode

define(
    Op.RNG,
    AttrSpec("distribution", enum_kind(RandomDistribution, "a random distribution", True), required=True),
    arity=None,
)
define(
    Op.RNG_BIT_GENERATOR,
    AttrSpec("algorithm", enum_kind(RandomAlgorithm, "an RNG algorithm", True), required=True),
)
define(Op.RNG_GET_AND_UPDATE_STATE, AttrSpec("delta", INT, required=True))


# -- shape rules ------------------------------------------------------------------------------
@shape_rule(Op.RNG)
def rng_shape(ctx: ShapeContext) -> Shape:
    """The written shape (only the builder and the text know it), filled from a uniform
    distribution over [a, b) (floats, integers or pred) or a normal one N(mu, sigma) (floats);
    both parameters are scalars of the result's element type (XLA's verifier, HandleRng)."""
    if len(ctx.operands) != 2:
        raise ShapeError(f"rng takes 2 operands (a and b, or mu and sigma): found {len(ctx.operands)}")
    a, b = array_operand(ctx, 0, "a"), array_operand(ctx, 1, "b")
    if a.rank or b.rank:
        raise ShapeError(f"the parameters of rng must be scalars: found {a} and {b}")
    result = ctx.shape
    if result is None:
        raise ShapeError("rng needs its result shape written: its dimensions are not in its operands")
    if not result.is_array:
        raise ShapeError(f"rng produces an array: found {result}")
    t = result.element_type
    if a.element_type is not t or b.element_type is not t:
        raise ShapeError(
            f"the parameters of rng must be {t.text}[] like the result {result}: found {a} and {b}"
        )
    kind = ctx.attr("distribution")
    if kind is RandomDistribution.UNIFORM:
        if not (t.is_floating_point or t.is_integral or t is PrimitiveType.PRED):
            raise ShapeError(f"rng_uniform produces floats, integers or pred: found {result}")
    elif kind is RandomDistribution.NORMAL:
        if not t.is_floating_point:
            raise ShapeError(f"rng_normal produces floats: found {result}")
    else:
        raise ShapeError(f"distribution must be rng_uniform or rng_normal: found {kind.value}")
    return result


def state_sizes(algorithm: RandomAlgorithm) -> tuple[int, ...]:
    """The u64 state vector sizes an algorithm takes: a key and a counter for ThreeFry; a key
    and a 64- or 128-bit counter for Philox (the default on XLA's CPU and GPU backends), as
    XLA's RngBitGeneratorExpander slices them and StableHLO's rng_bit_generator states."""
    return (2,) if algorithm is RandomAlgorithm.THREE_FRY else (2, 3)


def _sizes_text(sizes: tuple[int, ...]) -> str:
    return " or ".join(f"u64[{n}]" for n in sizes)


@shape_rule(Op.RNG_BIT_GENERATOR)
def rng_bit_generator_shape(ctx: ShapeContext) -> Shape:
    """The written (new state, random bits) tuple: the state keeps operand 0's shape (XLA's
    verifier); the state is a u64 vector of the size the algorithm takes and the bits an array
    of any type but pred and complex (what XLA's expander generates)."""
    state = array_operand(ctx, 0, "state")
    algorithm = ctx.attr("algorithm", RandomAlgorithm.DEFAULT)
    sizes = state_sizes(algorithm)
    if state.element_type is not PrimitiveType.U64 or state.rank != 1 or state.dimensions[0] not in sizes:
        raise ShapeError(
            f"operand 0 (state) must be a vector of unsigned integers, {_sizes_text(sizes)} for "
            f"{algorithm.value}: found {state}"
        )
    result = ctx.shape
    if result is None:
        raise ShapeError("rng-bit-generator needs its result shape (state, output) written")
    if not result.is_tuple or len(result.tuple_shapes) != 2:
        raise ShapeError(f"the result must be a (state, output) tuple: found {result}")
    if not result.tuple_shapes[0].compatible(state):
        raise ShapeError(f"the result's state must have the shape of operand 0 {state}: found {result}")
    output = result.tuple_shapes[1]
    t = output.element_type
    if not output.is_array or t is PrimitiveType.PRED or t.is_complex:
        raise ShapeError(
            f"the random output must be an array of integers or floats (not pred or complex): found {output}"
        )
    return result


@shape_rule(Op.RNG_GET_AND_UPDATE_STATE)
def rng_get_and_update_state_shape(ctx: ShapeContext) -> Shape:
    """u64[2], the state before the update (XLA's verifier)."""
    if ctx.operands:
        raise ShapeError(f"rng-get-and-update-state takes no operands: found {len(ctx.operands)}")
    return Shape.array(PrimitiveType.U64, (2,))


# -- builder functions ------------------------------------------------------------------------
def _shape(builder: XlaBuilder, op_name: str, shape: Shape | str) -> Shape:
    if not isinstance(shape, Shape | str):
        raise builder.error(op_name, f"shape must be a Shape or its text: found {shape!r}")
    try:
        return parse_shape(shape) if isinstance(shape, str) else shape
    except HloError as e:
        raise builder.error(op_name, e.message) from None


@builder_function
def RngUniform(a: XlaOp, b: XlaOp, shape: Shape | str) -> XlaOp:
    """Numbers drawn uniformly from [a, b) (page 003, RngUniform)."""
    builder = builder_of("RngUniform", a, b)
    written = _shape(builder, "RngUniform", shape)
    attrs = {"distribution": RandomDistribution.UNIFORM}
    return builder.add("RngUniform", Op.RNG, (a, b), attrs, shape=written)


@builder_function
def RngNormal(mu: XlaOp, sigma: XlaOp, shape: Shape | str) -> XlaOp:
    """Numbers drawn from N(mu, sigma) (page 003, RngNormal)."""
    builder = builder_of("RngNormal", mu, sigma)
    written = _shape(builder, "RngNormal", shape)
    attrs = {"distribution": RandomDistribution.NORMAL}
    return builder.add("RngNormal", Op.RNG, (mu, sigma), attrs, shape=written)


_UNSIGNED = {t.bit_width: t for t in PrimitiveType if t.is_unsigned_integral}


@builder_function
def RngBitGenerator(algorithm: RandomAlgorithm | str, initial_state: XlaOp, shape: Shape | str) -> XlaOp:
    """(new state, random bits of `shape`) (page 003, RngBitGenerator). As XLA's builder, the
    bits are of the unsigned type of the shape's bit width: f32[4] gives u32[4], pred[4] u1[4]."""
    name = "RngBitGenerator"
    builder = builder_of(name, initial_state)
    found = enum_argument(builder, name, RandomAlgorithm, algorithm, "algorithm")
    output = _shape(builder, name, shape)
    unsigned = _UNSIGNED.get(output.element_type.bit_width) if output.is_array else None
    if unsigned is None:
        raise builder.error(
            name, f"shape must be an array of 1, 2, 4, 8, 16, 32 or 64-bit elements: found {output}"
        )
    result = Shape.make_tuple((initial_state.shape, output.with_element_type(unsigned)))
    return builder.add(name, Op.RNG_BIT_GENERATOR, (initial_state,), {"algorithm": found}, shape=result)


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
        # b <= a is implementation-defined (page 003): every element is a, as for an empty range
        if t.is_integral or dtype == np.bool_:
            low, high = int(a), int(b)
            if high <= low:
                return np.full(shape, a, dtype)
            wide = np.uint64 if high > 2**63 - 1 else np.int64  # u64 bounds past int64
            return g.integers(low, high, size=shape, dtype=wide).astype(dtype)
        low_f, high_f = float(a), float(b)
        if not low_f < high_f:  # also NaN bounds
            return np.full(shape, a, dtype)
        if not np.isfinite(high_f - low_f):  # NumPy refuses a range wider than the largest float
            with np.errstate(all="ignore"):
                return (low_f + (high_f - low_f) * g.random(shape)).astype(dtype)
        return g.uniform(low_f, high_f, size=shape).astype(dtype)

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
