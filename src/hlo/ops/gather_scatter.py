"""What gather and scatter share: their dimension numbers, written as separate attributes and
read back into typed values by `gather_dimension_numbers` / `scatter_dimension_numbers`; the
checks of index vectors and batching dimensions both shape rules make (XLA's
shape_inference.cc); and the reading of dimension numbers given to a builder function. The ops
are gather.py and scatter.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ShapeError
from ..ir.instruction import Instruction
from ..shape import Shape
from .array_rules import int_tuple

if TYPE_CHECKING:
    from ..builder import XlaBuilder


@dataclass(frozen=True)
class GatherDimensionNumbers:
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    index_vector_dim: int
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScatterDimensionNumbers:
    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    index_vector_dim: int
    input_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


def gather_dimension_numbers(instr: Instruction) -> GatherDimensionNumbers:
    return GatherDimensionNumbers(**{f: instr.attrs[f] for f in GatherDimensionNumbers.__dataclass_fields__})


def scatter_dimension_numbers(instr: Instruction) -> ScatterDimensionNumbers:
    return ScatterDimensionNumbers(
        **{f: instr.attrs[f] for f in ScatterDimensionNumbers.__dataclass_fields__}
    )


# -- shape rules ------------------------------------------------------------------------------
def check_dims_in_range(dims: tuple[int, ...], what: str, limit: int, of: str, sort: bool = True) -> None:
    """Each of `dims` a dimension below `limit`, none twice, in order unless not `sort`."""
    for d in dims:
        if not 0 <= d < limit:
            raise ShapeError(f"{what}={list(dims)} holds {d}, out of range for {of}")
    if len(set(dims)) != len(dims):
        raise ShapeError(f"{what}={list(dims)} repeats a dimension")
    if sort and list(dims) != sorted(dims):
        raise ShapeError(f"{what}={list(dims)} must be sorted")


def index_vector_size(indices: Shape, index_vector_dim: int, what: str) -> tuple[int, list[int]]:
    """The size of the index vectors and the batch dimensions of the indices."""
    if not indices.element_type.is_integral:
        raise ShapeError(f"{what} must be of an integer type: found {indices}")
    if not 0 <= index_vector_dim <= indices.rank:
        raise ShapeError(f"index_vector_dim={index_vector_dim} is out of range for {what} {indices}")
    if index_vector_dim == indices.rank:
        return 1, list(range(indices.rank))
    return indices.dimensions[index_vector_dim], [d for d in range(indices.rank) if d != index_vector_dim]


def check_batching(
    operand_dims: tuple[int, ...],
    indices_dims: tuple[int, ...],
    operand: Shape,
    indices: Shape,
    index_vector_dim: int,
    names: tuple[str, str],
) -> None:
    """The operand's batching dimensions pair up with the indices' (named `names`), one for one
    and of the same sizes, none of them the index vector dimension."""
    if len(operand_dims) != len(indices_dims):
        raise ShapeError(f"{names[0]}={list(operand_dims)} and {names[1]}={list(indices_dims)} must pair up")
    check_dims_in_range(indices_dims, names[1], indices.rank, str(indices), sort=False)
    if index_vector_dim in indices_dims:
        raise ShapeError(f"{names[1]}={list(indices_dims)} must not hold index_vector_dim={index_vector_dim}")
    for a, b in zip(operand_dims, indices_dims):
        if operand.dimensions[a] != indices.dimensions[b]:
            raise ShapeError(
                f"batching dimension {a} of {operand} and dimension {b} of {indices} must have the same size"
            )


# -- builder functions ------------------------------------------------------------------------
def dimension_numbers_attrs(builder: XlaBuilder, op_name: str, numbers: Any, kind: type) -> dict[str, Any]:
    """The attributes of dimension numbers given to a builder function as a `kind` or a dict."""
    if isinstance(numbers, dict):
        try:
            numbers = kind(**numbers)
        except TypeError as e:
            raise builder.error(op_name, f"dimension_numbers: {e}") from None
    if not isinstance(numbers, kind):
        raise builder.error(op_name, f"dimension_numbers must be a {kind.__name__}: found {numbers!r}")
    attrs: dict[str, Any] = {}
    for field in kind.__dataclass_fields__:  # type: ignore[attr-defined]
        value = getattr(numbers, field)
        attrs[field] = value if field == "index_vector_dim" else int_tuple(builder, op_name, value, field)
    return attrs
