"""Collective-permute (page 003: CollectivePermute; XLA's MultiCollectivePermute and the
in-place form with offsets) and its -start/-done forms: shape rules and builder functions.
Imported by collectives.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.attr_kinds import INT_LIST_LIST, SOURCE_TARGET_PAIRS
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from ..ir.services import spell
from ..shape import Shape
from .callee import text
from .collective_common import (
    array_operands,
    channel_id,
    channel_number,
    one_or_tuple,
)
from .registry import AttrSpec, ShapeContext, builder_function, define, if_nonempty, shape_rule
from .rule_helpers import builder_of, operand

if TYPE_CHECKING:
    from .handles import XlaOp

Op = Opcode


# -- collective-permute -----------------------------------------------------------------------
def _in_place_permute(instr: Instruction, operands: tuple[Shape, ...]) -> str | None:
    """Parse-time: the in-place form (slice_sizes=) has four operands."""
    if instr.attr("slice_sizes") and len(operands) != 4:
        return (
            "with slice_sizes= (the in-place form) expects 4 operands (input, output, input offsets, "
            f"output offsets): found {len(operands)}"
        )
    return None


for op in (Op.COLLECTIVE_PERMUTE, Op.COLLECTIVE_PERMUTE_START):
    define(
        op,
        channel_id(),
        AttrSpec("source_target_pairs", SOURCE_TARGET_PAIRS, required=True),
        AttrSpec("slice_sizes", INT_LIST_LIST, printed=if_nonempty),
        check=_in_place_permute,
    )
define(Op.COLLECTIVE_PERMUTE_DONE)


def _offsets(buffer: Shape, offsets: Shape, what: str) -> None:
    """A buffer's offsets: a tuple of one scalar per dimension, or a tuple of such tuples."""
    elements = offsets.tuple_shapes if offsets.is_tuple else ()
    if not offsets.is_tuple or not (all(e.is_array for e in elements) or all(e.is_tuple for e in elements)):
        raise ShapeError(
            f"{what} must be a tuple of indices or a tuple of such tuples: found {text(offsets)}"
        )
    counts = [len(e.tuple_shapes) for e in elements] if elements and elements[0].is_tuple else [len(elements)]
    if any(c != buffer.rank for c in counts):
        raise ShapeError(f"{what} must hold one index per dimension of {text(buffer)}: found {text(offsets)}")


def _in_place(ctx: ShapeContext) -> int:
    """Checks the in-place form's buffers and offsets; how many times a device may appear."""
    if len(ctx.operands) != 4:
        raise ShapeError(
            f"with slice_sizes= expects 4 operands (input, output, input offsets, output offsets): found "
            f"{len(ctx.operands)}"
        )
    source, dest, source_offsets, dest_offsets = ctx.operands
    if source.is_array and dest.is_array:
        _offsets(source, source_offsets, "operand 2 (input offsets)")
        _offsets(dest, dest_offsets, "operand 3 (output offsets)")
    elif source.is_tuple and dest.is_tuple and len(source.tuple_shapes) == len(dest.tuple_shapes):
        for buffers, offsets, what in (
            (source, source_offsets, "operand 2 (input offsets)"),
            (dest, dest_offsets, "operand 3 (output offsets)"),
        ):
            if not (offsets.is_tuple and len(offsets.tuple_shapes) == len(buffers.tuple_shapes)):
                raise ShapeError(
                    f"{what} must hold offsets for each buffer of {text(buffers)}: found {text(offsets)}"
                )
            for b, o in zip(buffers.tuple_shapes, offsets.tuple_shapes):
                _offsets(b, o, what)
    else:
        raise ShapeError(
            f"operands 0 and 1 (input and output buffers) must both be arrays or tuples of one length: found "
            f"{text(source)} and {text(dest)}"
        )
    offsets = source_offsets if source.is_array else source_offsets.tuple_shapes[0]
    return len(offsets.tuple_shapes)


def _pairs(ctx: ShapeContext, allowed: int) -> None:
    """Ids are non-negative, and no device is a source (or a target) more than `allowed` times."""
    pairs = ctx.attr("source_target_pairs", ())
    for source, target in pairs:
        if source < 0 or target < 0:
            raise ShapeError(f"source_target_pairs= must hold device ids >= 0: found {{{source},{target}}}")
    for k, role in enumerate(("source", "target")):
        for device, n in Counter(p[k] for p in pairs).items():
            if n > allowed:
                times = "once" if allowed == 1 else f"{allowed} times"
                raise ShapeError(
                    f"source_target_pairs= must name each {role} at most {times}: "
                    f"found {role} {device} {n} times "
                    f"in {spell(SOURCE_TARGET_PAIRS, pairs)}"
                )


def _permuted(ctx: ShapeContext) -> tuple[Shape, Shape]:
    """(what is sent, what is received) of a collective-permute(-start), pairs checked."""
    if ctx.attr("slice_sizes"):
        allowed = _in_place(ctx)
        _pairs(ctx, allowed)
        return ctx.operands[0], ctx.operands[1]
    arrays = array_operands(ctx)
    _pairs(ctx, 1)
    shape = one_or_tuple(arrays)
    return shape, shape


@shape_rule(Op.COLLECTIVE_PERMUTE)
def collective_permute_shape(ctx: ShapeContext) -> Shape:
    """The operands (a tuple if several) as received from each pair's source; in place (with
    slice_sizes=), the output buffer operand 1 (page 003, CollectivePermute)."""
    return _permuted(ctx)[1]


@shape_rule(Op.COLLECTIVE_PERMUTE_START)
def collective_permute_start_shape(ctx: ShapeContext) -> Shape:
    """(sent, received, context...); the context shapes are the written ones."""
    sent, received = _permuted(ctx)
    context = ctx.shape.tuple_shapes[2:] if ctx.shape is not None and ctx.shape.is_tuple else ()
    return Shape.make_tuple((sent, received, *context))


@shape_rule(Op.COLLECTIVE_PERMUTE_DONE)
def collective_permute_done_shape(ctx: ShapeContext) -> Shape:
    start = operand(ctx, 0, "the collective-permute-start")
    if not (start.is_tuple and len(start.tuple_shapes) >= 2):
        raise ShapeError(
            f"operand 0 must be a collective-permute-start's (sent, received, ...): found {text(start)}"
        )
    return start.tuple_shapes[1]


def _pairs_arg(builder: Any, op_name: str, pairs: Any) -> tuple[tuple[int, int], ...]:
    try:
        out = tuple((int(s), int(t)) for s, t in pairs)
    except (TypeError, ValueError):
        raise builder.error(
            op_name, f"source_target_pairs must be (source, target) pairs: found {pairs!r}"
        ) from None
    return out


def _permute(op_name: str, opcode: Opcode, operands: Sequence[XlaOp], pairs: Any, channel: Any) -> XlaOp:
    builder = builder_of(op_name, operands)
    attrs: dict[str, Any] = {"source_target_pairs": _pairs_arg(builder, op_name, pairs)}
    number = channel_number(builder, op_name, channel)
    if number is not None:
        attrs["channel_id"] = number
    return builder.add(op_name, opcode, tuple(operands), attrs)


@builder_function
def CollectivePermute(
    operand: XlaOp, source_target_pairs: Sequence[tuple[int, int]], channel_id: Any = None
) -> XlaOp:
    """Each pair's source sends `operand` to its target; a device no pair targets receives
    zeros (page 003). No two pairs share a source, nor a target."""
    return _permute("CollectivePermute", Op.COLLECTIVE_PERMUTE, [operand], source_target_pairs, channel_id)


@builder_function
def MultiCollectivePermute(
    operands: Sequence[XlaOp], source_target_pairs: Sequence[tuple[int, int]], channel_id: Any = None
) -> XlaOp:
    """CollectivePermute of several operands at once (a tuple result)."""
    return _permute(
        "MultiCollectivePermute", Op.COLLECTIVE_PERMUTE, operands, source_target_pairs, channel_id
    )


@builder_function
def CollectivePermuteStart(
    operand: XlaOp, source_target_pairs: Sequence[tuple[int, int]], channel_id: Any = None
) -> XlaOp:
    """The asynchronous start of a CollectivePermute: (sent, received)."""
    return _permute(
        "CollectivePermuteStart", Op.COLLECTIVE_PERMUTE_START, [operand], source_target_pairs, channel_id
    )


@builder_function
def CollectivePermuteDone(operand: XlaOp) -> XlaOp:
    """The received value of a CollectivePermuteStart."""
    return builder_of("CollectivePermuteDone", operand).add(
        "CollectivePermuteDone", Op.COLLECTIVE_PERMUTE_DONE, (operand,)
    )
