"""The StableHLO ops that map to one HLO instruction with simple attributes: constants,
compare, broadcasts and reshapes, slice and pad, iota, convert, clamp, fft, rng and dot."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ir.attrs import (
    ComparisonDirection,
    ComparisonType,
    FftType,
    PaddingConfig,
    PaddingDimension,
    RandomAlgorithm,
    RandomDistribution,
    SliceRange,
)
from ..ir.opcode import Opcode
from ..shape import Shape
from .attrs import Dense, Struct, ints, scalar, word
from .computation_converter import ComputationConverter
from .ops_table import RULES, one, precisions, rule
from .syntax import Op

Op_ = Opcode


@rule("stablehlo.constant")
def _constant(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    from ..literal import Literal
    from .dense import dense_array

    shape = op.result_types[0]
    value = op.attrs.get("value")
    if not isinstance(value, Dense):
        raise cc.mc.error("stablehlo.constant needs a dense<...> value", op.name_pos)
    array = dense_array(cc.mc.c, value, shape)
    # A splat is a broadcast of a scalar constant in XLA's conversion.
    if shape.dimensions and array.size and _is_splat(value):
        scalar_shape = Shape.array(shape.element_type, ())
        scalar_literal = Literal(scalar_shape, array.reshape(-1)[:1].reshape(()))
        c = cc.emit(Op_.CONSTANT, (), scalar_shape, {"literal": scalar_literal}, op.pos)
        return [cc.emit(Op_.BROADCAST, (c,), shape, {"dimensions": ()}, op.pos)]
    return [cc.emit(Op_.CONSTANT, (), shape, {"literal": Literal(shape, array)}, op.pos)]


def _is_splat(value: Dense) -> bool:
    from .attrs import HexBytes

    if isinstance(value.payload, HexBytes):
        width = value.type.element_type.byte_width if isinstance(value.type, Shape) else 0
        return len(value.payload.data) == width and not value.type.element_type.is_complex  # type: ignore[union-attr]
    return value.payload is not None and not isinstance(value.payload, list)


@rule("stablehlo.compare")
def _compare(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    attrs: dict[str, Any] = {"direction": ComparisonDirection(word(op.attrs["comparison_direction"]))}
    t = op.attrs.get("compare_type")
    if t is not None and word(t) != "NOTYPE":
        attrs["type"] = ComparisonType(word(t))
    return one(cc, op, Op_.COMPARE, ins, attrs)


@rule("stablehlo.broadcast_in_dim")
def _broadcast_in_dim(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """HLO's broadcast keeps each operand dimension's size; a size-1 dimension that StableHLO
    expands is first reshaped away, as XLA's conversion does."""
    dims = ints(op.attrs["broadcast_dimensions"])
    operand = cc.shape(ins[0])
    out = op.result_types[0]
    if operand.dimensions == out.dimensions and dims == tuple(range(len(dims))):
        return [ins[0]]  # the identity: XLA's canonicalizer folds it away
    expanded = [k for k, d in enumerate(dims) if operand.dimensions[k] == 1 and out.dimensions[d] != 1]
    if expanded:
        kept = [k for k in range(len(dims)) if k not in expanded]
        reshaped = Shape.array(operand.element_type, [operand.dimensions[k] for k in kept])
        ins = [cc.emit(Op_.RESHAPE, ins, reshaped, None, op.pos)]
        dims = tuple(dims[k] for k in kept)
    return one(cc, op, Op_.BROADCAST, ins, {"dimensions": dims})


@rule("stablehlo.dynamic_iota", "stablehlo.dynamic_reshape", "stablehlo.dynamic_broadcast_in_dim")
def _dynamic_made_static(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """With a static result type, the shape operand says nothing the type does not: the op is its
    static form (iota, reshape, broadcast_in_dim)."""
    out = op.result_types[0]
    if not out.is_static:
        message = f"{op.name}: dynamic shapes are not supported (the result {out} is not static)"
        raise cc.mc.error(message, op.name_pos)
    static = {
        "dynamic_iota": _iota, "dynamic_reshape": _reshape, "dynamic_broadcast_in_dim": _broadcast_in_dim,
    }  # fmt: skip
    data = [] if op.name.endswith("iota") else ins[:1]
    return static[op.name.split(".", 1)[1]](cc, op, data)


def _reshape(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    return one(cc, op, Op_.RESHAPE, ins)


@rule("stablehlo.broadcast")
def _broadcast(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    n = len(ints(op.attrs["broadcast_sizes"]))
    rank = cc.shape(ins[0]).rank
    return one(cc, op, Op_.BROADCAST, ins, {"dimensions": tuple(range(n, n + rank))})


def _dims_rule(name: str, opcode: Opcode, key: str, out_key: str, single: bool = False) -> None:
    def handler(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
        return one(cc, op, opcode, ins, {out_key: ints(op.attrs[key])})

    RULES[name] = handler


_dims_rule("stablehlo.transpose", Op_.TRANSPOSE, "permutation", "dimensions")
_dims_rule("stablehlo.reverse", Op_.REVERSE, "dimensions", "dimensions")
_dims_rule("stablehlo.concatenate", Op_.CONCATENATE, "dimension", "dimensions")
_dims_rule("stablehlo.dynamic_slice", Op_.DYNAMIC_SLICE, "slice_sizes", "dynamic_slice_sizes")


@rule("stablehlo.get_dimension_size")
def _get_dimension_size(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """A static dimension's size is a constant (XLA's conversion folds it)."""
    from ..literal import Literal

    dim = int(scalar(op.attrs["dimension"]))
    shape = cc.shape(ins[0])
    if 0 <= dim < shape.rank and not shape.dynamic_dimensions[dim]:
        out = op.result_types[0]
        literal = Literal(out, np.array(shape.dimensions[dim], dtype=out.element_type.numpy_dtype))
        return [cc.emit(Op_.CONSTANT, (), out, {"literal": literal}, op.pos)]
    return one(cc, op, Op_.GET_DIMENSION_SIZE, ins, {"dimensions": (dim,)})


@rule("stablehlo.clamp")
def _clamp(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """Scalar bounds are broadcast to the operand's shape first, as XLA's conversion does."""
    out = op.result_types[0]
    bounds = []
    for k in (0, 2):
        b = ins[k]
        if cc.shape(b).rank == 0 and out.rank > 0:
            b = cc.emit(
                Op_.BROADCAST, (b,), Shape.array(out.element_type, out.dimensions), {"dimensions": ()}, op.pos
            )
        bounds.append(b)
    return one(cc, op, Op_.CLAMP, [bounds[0], ins[1], bounds[1]])


_dims_rule("stablehlo.set_dimension_size", Op_.SET_DIMENSION_SIZE, "dimension", "dimensions")


@rule("stablehlo.iota")
def _iota(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """An iota along one dimension of a multi-dimensional shape is a 1-D iota broadcast along
    that dimension (XLA's canonical form)."""
    dim = int(scalar(op.attrs["iota_dimension"]))
    out = op.result_types[0]
    if out.rank > 1 and 0 <= dim < out.rank:
        line = Shape.array(out.element_type, (out.dimensions[dim],))
        i = cc.emit(Op_.IOTA, (), line, {"iota_dimension": 0}, op.pos)
        return [cc.emit(Op_.BROADCAST, (i,), out, {"dimensions": (dim,)}, op.pos)]
    return one(cc, op, Op_.IOTA, ins, {"iota_dimension": dim})


@rule("stablehlo.convert")
def _convert(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    source, target = cc.shape(ins[0]), op.result_types[0]
    if source.element_type is target.element_type:
        return [ins[0]]  # converting to the same type: XLA's canonicalizer drops it
    if source.element_type.is_complex and not target.element_type.is_complex:
        # complex to real keeps the real part: XLA's conversion takes it first
        part = Shape.array(source.element_type.complex_component_type, source.dimensions)
        ins = [cc.emit(Op_.REAL, ins, part, None, op.pos)]
        if part.element_type is target.element_type:
            return ins
    return one(cc, op, Op_.CONVERT, ins)


@rule("stablehlo.get_tuple_element")
def _gte(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    return one(cc, op, Op_.GET_TUPLE_ELEMENT, ins, {"index": int(scalar(op.attrs["index"]))})


@rule("stablehlo.slice")
def _slice(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    ranges = tuple(
        SliceRange(s, e, k)
        for s, e, k in zip(ints(a["start_indices"]), ints(a["limit_indices"]), ints(a["strides"]))
    )
    return one(cc, op, Op_.SLICE, ins, {"slice": ranges})


@rule("stablehlo.pad")
def _pad(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    dims = tuple(
        PaddingDimension(lo, hi, i)
        for lo, hi, i in zip(
            ints(a["edge_padding_low"]), ints(a["edge_padding_high"]), ints(a["interior_padding"])
        )
    )
    return one(cc, op, Op_.PAD, ins, {"padding": PaddingConfig(dims)})


@rule("stablehlo.fft")
def _fft(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    attrs = {"fft_type": FftType(word(op.attrs["fft_type"])), "fft_length": ints(op.attrs["fft_length"])}
    return one(cc, op, Op_.FFT, ins, attrs)


@rule("stablehlo.reduce_precision")
def _reduce_precision(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    a = op.attrs
    if "format" in a:  # pretty: format = e5m10
        text = word(a["format"])
        e, _, m = text[1:].partition("m")
        bits = (int(e), int(m))
    else:
        bits = (int(scalar(a["exponent_bits"])), int(scalar(a["mantissa_bits"])))
    return one(cc, op, Op_.REDUCE_PRECISION, ins, {"exponent_bits": bits[0], "mantissa_bits": bits[1]})


@rule("stablehlo.rng_bit_generator")
def _rng_bit_generator(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    algorithm = word(op.attrs.get("rng_algorithm", "DEFAULT")).lower()
    attrs = {"algorithm": RandomAlgorithm("rng_" + algorithm)}
    return one(cc, op, Op_.RNG_BIT_GENERATOR, ins, attrs)


@rule("stablehlo.rng")
def _rng(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    dist = word(op.attrs["rng_distribution"]).lower()
    return one(cc, op, Op_.RNG, ins[:2], {"distribution": RandomDistribution("rng_" + dist)})


@rule("stablehlo.optimization_barrier")
def _optimization_barrier(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    t = cc.tuple_of(ins, op.pos)
    barrier = cc.emit(Op_.OPTIMIZATION_BARRIER, (t,), cc.shape(t), None, op.pos)
    return cc.unpack(barrier, op.pos)


@rule("stablehlo.dot_general", "stablehlo.dot")
def _dot(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    from .ops_more import dot_algorithm

    a = op.attrs
    if op.name == "stablehlo.dot":
        dims: dict[str, Any] = {
            "lhs_contracting_dims": (cc.shape(ins[0]).rank - 1,),
            "rhs_contracting_dims": (0,),
        }
    elif isinstance(a.get("dot_dimension_numbers"), Struct):
        s = a["dot_dimension_numbers"]
        dims = {
            "lhs_batch_dims": ints(s.get("lhs_batching_dimensions", [])),
            "rhs_batch_dims": ints(s.get("rhs_batching_dimensions", [])),
            "lhs_contracting_dims": ints(s.get("lhs_contracting_dimensions", [])),
            "rhs_contracting_dims": ints(s.get("rhs_contracting_dimensions", [])),
        }
    else:
        batch = a.get("batching_dims", ([], []))
        contracting = a.get("contracting_dims", ([], []))
        dims = {
            "lhs_batch_dims": ints(batch[0]), "rhs_batch_dims": ints(batch[1]),
            "lhs_contracting_dims": ints(contracting[0]), "rhs_contracting_dims": ints(contracting[1]),
        }  # fmt: skip
    dims["operand_precision"] = precisions(a.get("precision_config"), 2)
    if a.get("algorithm") is not None:
        dims["algorithm"] = dot_algorithm(cc, op, a["algorithm"])
    return one(cc, op, Op_.DOT, ins, dims)
