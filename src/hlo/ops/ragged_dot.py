"""The kernel of ragged-dot (the schema and shape rule are in ops/dot.py). XLA:CPU has no
runtime for the opcode, so the reference is its definition (jax.lax.ragged_dot_general, the
StableHLO ragged_dot proposal; fixtures from jax's own CPU expansion in
tests/golden/ops/exact_ragged_dot.npz). The ragged lhs dimension is cut into consecutive groups
of `group_sizes` elements (per batch and leading position when group_sizes has those
dimensions, the same for all when it is [g]):

- ragged non-contracting dimension: each group's rows use their own rhs matrix (rhs_group_dims
  picks it); rows past the last group are zero;
- ragged contracting dimension: one result per group, contracting over that group's part only;
- ragged batch dimension: an ordinary batched dot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..engine.linear import dot_general
from ..engine.plan import KernelContext
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from .dot import DotDimensionNumbers
from .registry import kernel


def _placed(values: np.ndarray, dims: Sequence[int], rank: int) -> np.ndarray:
    """`values`, whose axes stand for dimensions `dims` (in that order) of a rank-`rank` array,
    with size-1 axes for the other dimensions, ready to broadcast against that array."""
    others = [d for d in range(rank) if d not in dims]
    full = values.reshape(values.shape + (1,) * len(others))
    order = [*dims, *others]
    return np.transpose(full, [order.index(d) for d in range(rank)])


def _bounds(group_sizes: np.ndarray, prefix_shape: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each group's [start, end) along the ragged dimension, shape (prefix..., g)."""
    sizes = np.broadcast_to(group_sizes.astype(np.int64), (*prefix_shape, group_sizes.shape[-1]))
    ends = np.cumsum(sizes, axis=-1)
    return ends - sizes, ends


@kernel(Opcode.RAGGED_DOT)
def ragged_dot_kernel(instr: Instruction, ctx: KernelContext) -> Callable[..., np.ndarray]:
    dn = DotDimensionNumbers.of(instr.attrs)
    lb, lc = dn.lhs_batch_dimensions, dn.lhs_contracting_dimensions
    rb, rc = dn.rhs_batch_dimensions, dn.rhs_contracting_dimensions
    r = instr.attrs["lhs_ragged_dims"][0]
    result, flush = instr.shape.element_type, ctx.options.flush_denormals
    out_dtype = np.dtype(result.numpy_dtype)

    if r in lb:  # ragged batch dimension: the groups tile the batch, the dot is unchanged
        return lambda lhs, rhs, sizes: dot_general(lhs, rhs, lb, lc, rb, rc, result, flush)

    if r in lc:
        prefix = [*lb, *lc[: lc.index(r)]]

        def contracting(lhs: np.ndarray, rhs: np.ndarray, sizes: np.ndarray) -> np.ndarray:
            starts, ends = _bounds(sizes, [lhs.shape[d] for d in prefix])
            t = np.arange(lhs.shape[r])
            parts = []
            for j in range(sizes.shape[-1]):
                inside = (t >= starts[..., j, None]) & (t < ends[..., j, None])  # (prefix..., size_r)
                masked = np.where(_placed(inside, [*prefix, r], lhs.ndim), lhs, np.zeros((), lhs.dtype))
                parts.append(dot_general(masked, rhs, lb, lc, rb, rc, result, flush))
            return np.stack(parts).astype(out_dtype, copy=False)

        return contracting

    group_dim = instr.attrs["rhs_group_dims"][0]
    lhs_free = [d for d in range(len(ctx.operand_shapes(instr)[0].dimensions)) if d not in lb and d not in lc]
    prefix = [*lb, *lhs_free[: lhs_free.index(r)]]
    # rhs dimensions once the group dimension is taken out
    shift = [d - (d > group_dim) for d in range(len(ctx.operand_shapes(instr)[1].dimensions))]
    rb2, rc2 = [shift[d] for d in rb], [shift[d] for d in rc]
    # where the prefix and ragged dimensions sit in the result (batch, lhs free, rhs free)
    at = {d: k for k, d in enumerate(lb)} | {d: len(lb) + k for k, d in enumerate(lhs_free)}

    def non_contracting(lhs: np.ndarray, rhs: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        starts, ends = _bounds(sizes, [lhs.shape[d] for d in prefix])
        t = np.arange(lhs.shape[r])
        out = np.zeros(instr.shape.dimensions, out_dtype)
        rank = out.ndim
        for j in range(sizes.shape[-1]):
            inside = (t >= starts[..., j, None]) & (t < ends[..., j, None])
            part = dot_general(lhs, np.take(rhs, j, axis=group_dim), lb, lc, rb2, rc2, result, flush)
            out = np.where(_placed(inside, [at[d] for d in [*prefix, r]], rank), part, out)
        return out

    return non_contracting
