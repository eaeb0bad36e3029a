"""All-to-all and ragged-all-to-all (page 003: AllToAll; XLA's RaggedAllToAll): shape rules and
builder functions. Collective-permute is in collective_permute.py. Imported by collectives.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..dtypes import PrimitiveType
from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST
from ..ir.opcode import Opcode
from ..layout import Layout
from ..shape import UNBOUNDED, Shape
from .array_rules import one_dimension
from .callee import text, texts
from .collective_common import (
    array_operands,
    collective_attrs,
    collective_base,
    group_mode,
    replica_groups,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, shape_rule
from .rule_helpers import builder_of

if TYPE_CHECKING:
    from .handles import XlaOp

Op = Opcode


# -- all-to-all -------------------------------------------------------------------------------
define(Op.ALL_TO_ALL, *collective_base(), AttrSpec("dimensions", INT_LIST), check=one_dimension)


@shape_rule(Op.ALL_TO_ALL)
def all_to_all_shape(ctx: ShapeContext) -> Shape:
    """With dimensions={d}: one array split into group-size blocks along d, block i sent to
    member i and the received blocks concatenated along d, so the shape is kept. Without: one
    operand per group member, all of one shape, giving the tuple of the received ones."""
    arrays = array_operands(ctx)
    groups = replica_groups(ctx, group_mode(ctx, False))
    count = len(groups[0]) if groups else None
    dims = ctx.attr("dimensions")
    if dims is not None:
        if len(dims) != 1:
            raise ShapeError(
                f"dimensions= must hold exactly one dimension (the split dimension): found {list(dims)}"
            )
        if len(arrays) != 1:
            raise ShapeError(f"with dimensions= expects one operand: found {len(arrays)} ({texts(arrays)})")
        return split_concat(arrays[0], dims[0], dims[0], count)
    if count is not None and len(arrays) != count:
        raise ShapeError(f"expects one operand per member of a replica group ({count}): found {len(arrays)}")
    for k, s in enumerate(arrays):
        if s.is_unbounded_dynamic:
            raise ShapeError(f"operand {k} must not have unbounded dimensions: found {text(s)}")
        if not s.equal(arrays[0], ignore_layout=True):
            raise ShapeError(
                f"operand {k} must have the shape of operand 0: found {text(s)} and {text(arrays[0])}"
            )
    return Shape.make_tuple(arrays)


def split_concat(s: Shape, split: int, concat: int, count: int | None) -> Shape:
    """`s` split into `count` blocks along `split`, the blocks concatenated along `concat`
    (XLA's InferAllToAllShape; count None: unknown here, sizes checked as far as possible)."""
    for what, d in (("split", split), ("concat", concat)):
        if not 0 <= d < s.rank:
            raise ShapeError(f"the {what} dimension {d} must be a dimension of the operand: found {text(s)}")
    if any(s.is_dynamic_dimension(d) and s.dimensions[d] != UNBOUNDED for d in range(s.rank)):
        raise ShapeError(f"the operand must not have bounded dynamic dimensions: found {text(s)}")
    size = s.dimensions[split]
    if count is None:
        return s
    if size != UNBOUNDED and size % count:
        raise ShapeError(
            f"the split dimension {split} must be divisible by the split count {count}: found {text(s)}"
        )
    dims = list(s.dimensions)
    if size != UNBOUNDED:
        dims[split] = size // count
    if dims[concat] != UNBOUNDED:
        dims[concat] *= count
    return s.replace(dimensions=tuple(dims))


def _layout_for(builder: Any, shape: Shape, layout: Layout | None) -> Shape:
    if layout is None:
        return shape
    if len(layout.minor_to_major) != shape.rank:
        raise builder.error("AllToAll", f"the layout must fit the operands: found {layout} for {text(shape)}")
    return shape.with_layout(layout)


@builder_function
def AllToAll(
    operand: XlaOp,
    split_dimension: int,
    concat_dimension: int,
    split_count: int,
    replica_groups: Any = (),
    layout: Layout | None = None,
    channel_id: Any = None,
) -> XlaOp:
    """Split `operand` into `split_count` blocks along `split_dimension`, send block i to group
    member i, concatenate what arrives along `concat_dimension` (page 003). As XlaBuilder: one
    all-to-all on the split dimension, then reshape, transpose and reshape (with `layout`, the
    tuple form)."""
    from .registry import BUILDERS

    if layout is not None:
        return AllToAllTuple(
            operand, split_dimension, concat_dimension, split_count, replica_groups, layout, channel_id
        )
    builder = builder_of("AllToAll", operand)
    s = operand.shape
    if not isinstance(split_count, int) or split_count <= 0:
        raise builder.error("AllToAll", f"split_count must be a positive int: found {split_count!r}")
    if not s.is_array:
        raise builder.error("AllToAll", f"the operand must be an array: found {text(s)}")
    try:
        final = split_concat(s, split_dimension, concat_dimension, split_count)
    except ShapeError as e:
        raise builder.error("AllToAll", e.message) from None
    attrs = collective_attrs(builder, "AllToAll", replica_groups or [list(range(split_count))], channel_id)
    attrs["dimensions"] = (split_dimension,)
    exchanged = builder.add("AllToAll", Op.ALL_TO_ALL, (operand,), attrs)
    if split_dimension == concat_dimension:
        return exchanged
    # Blocks as their own dimension before the split dimension, moved before the concat one.
    sizes: list[int] = []
    for i, d in enumerate(s.dimensions):
        sizes += [split_count, d if d == UNBOUNDED else d // split_count] if i == split_dimension else [d]
    permutation: list[int] = []
    for i in range(s.rank):
        if i == concat_dimension:
            permutation.append(split_dimension)
        permutation.append(i + 1 if i >= split_dimension else i)
    if not s.is_unbounded_dynamic:
        blocks = BUILDERS["Reshape"](exchanged, sizes)
        return BUILDERS["Reshape"](BUILDERS["Transpose"](blocks, permutation), list(final.dimensions))  # type: ignore[no-any-return]
    return _unbounded_all_to_all(
        exchanged, s, sizes, permutation, final, split_dimension, concat_dimension, split_count
    )


def _unbounded_all_to_all(
    exchanged: XlaOp, s: Shape, sizes: list[int], permutation: list[int], final: Shape,
    split: int, concat: int, count: int,
) -> XlaOp:  # fmt: skip
    """The reshapes of AllToAll with unbounded sizes: runtime sizes fed to mhlo.dynamic_reshape
    custom calls, as XlaBuilder does."""
    from .custom_call_builders import CustomCall
    from .registry import BUILDERS

    b = exchanged.builder

    def size_of(i: int) -> XlaOp:
        if s.dimensions[i] == UNBOUNDED:
            return BUILDERS["Reshape"](BUILDERS["GetDimensionSize"](exchanged, i), [1])  # type: ignore[no-any-return]
        return BUILDERS["ConstantR1"](b, [s.dimensions[i]], PrimitiveType.S32)  # type: ignore[no-any-return]

    r1_count = BUILDERS["ConstantR1"](b, [count], PrimitiveType.S32)
    dynamic_sizes: list[XlaOp] = []
    for i in range(s.rank):
        if i != split:
            dynamic_sizes.append(size_of(i))
            continue
        dynamic_sizes.append(r1_count)
        if s.dimensions[i] == UNBOUNDED:
            dynamic_sizes.append(BUILDERS["Div"](size_of(i), r1_count))
        else:
            dynamic_sizes.append(BUILDERS["ConstantR1"](b, [s.dimensions[i] // count], PrimitiveType.S32))
    blocks_shape = Shape.array(s.element_type, sizes, dynamic_dimensions=[d == UNBOUNDED for d in sizes])
    concat_sizes = BUILDERS["ConcatInDim"](b, dynamic_sizes, 0)
    blocks = CustomCall(b, "mhlo.dynamic_reshape", [exchanged, concat_sizes], blocks_shape)
    moved = BUILDERS["Transpose"](blocks, permutation)
    final_sizes = [size_of(i) for i in range(s.rank)]
    final_sizes[split] = BUILDERS["Div"](final_sizes[split], r1_count)
    final_sizes[concat] = BUILDERS["Mul"](final_sizes[concat], r1_count)
    return CustomCall(b, "mhlo.dynamic_reshape", [moved, BUILDERS["ConcatInDim"](b, final_sizes, 0)], final)


@builder_function
def AllToAllTuple(*args: Any, **kwargs: Any) -> XlaOp:
    """`AllToAllTuple(operands, replica_groups=(), layout=None, channel_id=None)`: operand i sent
    to group member i, the received ones as a tuple. `AllToAllTuple(operand, split_dimension,
    concat_dimension, split_count, replica_groups=(), layout=None, channel_id=None)`: AllToAll
    done as slices, the tuple form and a concatenation (XlaBuilder's two overloads)."""
    from .handles import XlaOp

    if args and isinstance(args[0], XlaOp):
        return _split_all_to_all_tuple(*args, **kwargs)
    return _all_to_all_tuple(*args, **kwargs)


def _all_to_all_tuple(
    operands: Sequence[XlaOp], replica_groups: Any = (), layout: Layout | None = None, channel_id: Any = None
) -> XlaOp:
    builder = builder_of("AllToAllTuple", operands)
    shapes = [o.shape for o in operands]
    for k, s in enumerate(shapes):
        if not s.is_array:
            raise builder.error("AllToAllTuple", f"operand {k} must be an array: found {text(s)}")
    attrs = collective_attrs(builder, "AllToAllTuple", replica_groups, channel_id)
    if layout is not None:
        attrs["constrain_layout"] = True
    shape = Shape.make_tuple(_layout_for(builder, s, layout) for s in shapes)
    return builder.add("AllToAllTuple", Op.ALL_TO_ALL, tuple(operands), attrs, shape=shape)


def _split_all_to_all_tuple(
    operand: XlaOp, split_dimension: int, concat_dimension: int, split_count: int,
    replica_groups: Any = (), layout: Layout | None = None, channel_id: Any = None,
) -> XlaOp:  # fmt: skip
    from .registry import BUILDERS
    from .tuple_ops import GetTupleElement

    builder = builder_of("AllToAllTuple", operand)
    s = operand.shape
    if not isinstance(split_count, int) or split_count <= 0:
        raise builder.error("AllToAllTuple", f"split_count must be a positive int: found {split_count!r}")
    if not s.is_array or s.is_unbounded_dynamic:
        raise builder.error(
            "AllToAllTuple", f"the operand must be an array without unbounded sizes: found {text(s)}"
        )
    try:
        split_concat(s, split_dimension, concat_dimension, split_count)
    except ShapeError as e:
        raise builder.error("AllToAllTuple", e.message) from None
    block = s.dimensions[split_dimension] // split_count
    slices = [
        BUILDERS["SliceInDim"](operand, i * block, (i + 1) * block, 1, split_dimension)
        for i in range(split_count)
    ]
    exchanged = _all_to_all_tuple(slices, replica_groups, layout, channel_id)
    received = [GetTupleElement(exchanged, i) for i in range(split_count)]
    return BUILDERS["ConcatInDim"](builder, received, concat_dimension)  # type: ignore[no-any-return]


# -- ragged-all-to-all ------------------------------------------------------------------------
define(
    Op.RAGGED_ALL_TO_ALL,
    *collective_base(),
    AttrSpec("dimensions", INT_LIST),
    check=one_dimension,
    arity=None,
)
RAGGED_ROLES = ("input", "output", "input_offsets", "send_sizes", "output_offsets", "recv_sizes")


@shape_rule(Op.RAGGED_ALL_TO_ALL)
def ragged_all_to_all_shape(ctx: ShapeContext) -> Shape:
    """Operands (input, output, input_offsets, send_sizes, output_offsets, recv_sizes); the
    result is the output buffer, updated in place. The four offset/size operands share one
    shape of rank 1 or 2."""
    if len(ctx.operands) != len(RAGGED_ROLES):
        raise ShapeError(
            f"expects 6 operands ({', '.join(RAGGED_ROLES)}): "
            f"found {len(ctx.operands)} ({texts(ctx.operands)})"
        )
    replica_groups(ctx, group_mode(ctx, False))
    for k in range(2, 6):
        s = ctx.operands[k]
        if not s.is_array or s.rank not in (1, 2):
            raise ShapeError(
                f"operand {k} ({RAGGED_ROLES[k]}) must be an array of rank 1 or 2: found {text(s)}"
            )
        if k > 2 and not s.equal(ctx.operands[2], ignore_layout=True):
            raise ShapeError(
                f"operand {k} ({RAGGED_ROLES[k]}) must have the shape of operand 2 (input_offsets): found "
                f"{text(s)} and {text(ctx.operands[2])}"
            )
    output = ctx.operands[1]
    if not output.is_array:
        raise ShapeError(f"operand 1 (output) must be an array: found {text(output)}")
    return output


@builder_function
def RaggedAllToAll(
    input: XlaOp,
    input_offsets: XlaOp,
    send_sizes: XlaOp,
    output: XlaOp,
    output_offsets: XlaOp,
    recv_sizes: XlaOp,
    replica_groups: Any = (),
    channel_id: Any = None,
) -> XlaOp:
    """Ragged blocks of `input` (at `input_offsets`, `send_sizes` long) sent to each group
    member, written into `output` at `output_offsets`. Arguments in xla_builder.h's order; the
    instruction's operands in HLO's (input, output, input_offsets, ...)."""
    builder = builder_of("RaggedAllToAll", input)
    attrs = collective_attrs(builder, "RaggedAllToAll", replica_groups, channel_id)
    operands = (input, output, input_offsets, send_sizes, output_offsets, recv_sizes)
    return builder.add("RaggedAllToAll", Op.RAGGED_ALL_TO_ALL, operands, attrs)
