"""Kernels of gather, scatter, sort, top-k, select-and-scatter, FFT, Cholesky, triangular solve,
batch normalization and the random-number ops; the algorithms live in hlo.engine (indexing,
sorting, select_scatter, linalg, random), bound here to each instruction's attributes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import linalg, random
from ..engine.computations import combiner, lifted
from ..engine.indexing import IndexMap, gather, scatter
from ..engine.select_scatter import select_and_scatter
from ..engine.sorting import sort_fn, top_k
from ..ir.attrs import RandomDistribution, TransposeA
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .registry import kernel

if TYPE_CHECKING:
    from ..engine.plan import KernelContext

Op = Opcode


def _dtype(instr: Instruction) -> np.dtype:
    return np.dtype(instr.shape.element_type.numpy_dtype)


@kernel(Op.GATHER)
def gather_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    a = instr.attrs
    index_map = IndexMap(
        a["index_vector_dim"], tuple(a["start_index_map"]),
        tuple(a.get("operand_batching_dims", ())), tuple(a.get("start_indices_batching_dims", ())),
    )  # fmt: skip
    offset, collapsed, sizes = (
        tuple(a["offset_dims"]),
        tuple(a["collapsed_slice_dims"]),
        tuple(a["slice_sizes"]),
    )
    return lambda operand, indices: gather(operand, indices, index_map, offset, collapsed, sizes)


@kernel(Op.SCATTER)
def scatter_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    a = instr.attrs
    index_map = IndexMap(
        a["index_vector_dim"], tuple(a["scatter_dims_to_operand_dims"]),
        tuple(a.get("input_batching_dims", ())), tuple(a.get("scatter_indices_batching_dims", ())),
    )  # fmt: skip
    window, inserted = tuple(a["update_window_dims"]), tuple(a["inserted_window_dims"])
    n = (len(instr.operands) - 1) // 2
    combine_at, apply = combiner(ctx, a["to_apply"], "scatter") if n == 1 else (None, None)
    if n > 1:
        apply = lifted(ctx, a["to_apply"], "scatter")

    def run(*xs: np.ndarray) -> Any:
        results = scatter(xs[:n], xs[n], xs[n + 1 :], index_map, window, inserted, combine_at, apply)
        return results[0] if n == 1 else tuple(results)

    return run


@kernel(Op.SORT)
def sort_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    types = [s.element_type for s in ctx.operand_shapes(instr)]
    return sort_fn(instr.attrs["to_apply"], instr.attrs["dimensions"][0], ctx, types)


@kernel(Op.TOP_K)
def topk_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    k, largest = instr.attrs["k"], instr.attrs.get("largest", True)
    width = ctx.operand_shapes(instr)[0].element_type.bit_width
    return lambda x: top_k(x, k, largest, width)


@kernel(Op.SELECT_AND_SCATTER)
def select_and_scatter_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    select = lifted(ctx, instr.attrs["select"], "select-and-scatter")
    combine_at, apply = combiner(ctx, instr.attrs["scatter"], "select-and-scatter")
    window = instr.attrs["window"]
    return lambda operand, source, init: select_and_scatter(
        operand, source, init, window, select, combine_at, apply
    )


@kernel(Op.FFT)
def fft_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    kind, lengths, out = instr.attrs["fft_type"], tuple(instr.attrs["fft_length"]), _dtype(instr)
    return lambda x: linalg.fft(x, kind, lengths, out)


@kernel(Op.CHOLESKY)
def cholesky_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    lower = bool(instr.attrs.get("lower", False))
    return lambda a: linalg.cholesky(a, lower)


@kernel(Op.TRIANGULAR_SOLVE)
def triangular_solve_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    a = instr.attrs
    options = (
        bool(a.get("left_side", False)), bool(a.get("lower", False)), bool(a.get("unit_diagonal", False)),
        a.get("transpose_a", TransposeA.NO_TRANSPOSE),
    )  # fmt: skip
    return lambda x, b: linalg.triangular_solve(x, b, *options)


@kernel(Op.BATCH_NORM_TRAINING)
def batch_norm_training_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    eps, feature = instr.attrs["epsilon"], instr.attrs["feature_index"]
    return lambda x, scale, offset: linalg.batch_norm_training(x, scale, offset, eps, feature)


@kernel(Op.BATCH_NORM_INFERENCE)
def batch_norm_inference_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    eps, feature = instr.attrs["epsilon"], instr.attrs["feature_index"]
    return lambda x, scale, offset, mean, var: linalg.batch_norm_inference(
        x, scale, offset, mean, var, eps, feature
    )


@kernel(Op.BATCH_NORM_GRAD)
def batch_norm_grad_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    eps, feature = instr.attrs["epsilon"], instr.attrs["feature_index"]
    return lambda x, scale, mean, var, grad: linalg.batch_norm_grad(x, scale, mean, var, grad, eps, feature)


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
    shape, dtype = instr.shape.dimensions, _dtype(instr)
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


@kernel(Op.CUSTOM_CALL)
def custom_call_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., Any]:
    """The target registered under the custom call's name (engine.custom_calls)."""
    from ..engine.custom_calls import call, lookup

    target = instr.attrs["custom_call_target"]
    lookup(target)  # an unknown target is an error when the module is planned
    config = instr.backend_config or ""
    shape, operand_shapes = instr.shape, ctx.operand_shapes(instr)
    return lambda *xs: call(target, xs, shape, config, operand_shapes)
