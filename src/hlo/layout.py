"""Layouts: how an array lies in memory (spec pages 000-002 and 004; XLA's layout.h/layout_util).

A `Layout` is a frozen value: `minor_to_major`, tiles (with `*` combined dimensions), tail padding
alignment `L(n)`, index/pointer types `#(t)`/`*(t)`, element size in bits `E(n)`, memory space
`S(n)`, split configs `SC(...)`, physical shape `P(...)`, dynamic-shape metadata prefix `M(n)`,
the sparse dim level types `D(...)`, and the older `padded_dimensions`/`padding_value` of pages
000/001, which have no text form in today's XLA and exist only through the API.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from .dtypes import PrimitiveType
from .errors import ShapeError

if TYPE_CHECKING:
    from .shape import Shape

COMBINE_DIMENSION = -(2**63)
"""XLA's Tile::kCombineDimension (INT64_MIN): a tile entry printed `*`, merging a dimension into
the next more minor one before tiling."""


@dataclass(frozen=True)
class Tile:
    """One level of tiling; `dimensions` are listed major to minor, as printed."""

    dimensions: tuple[int, ...]

    def __str__(self) -> str:
        return "(" + ",".join("*" if d == COMBINE_DIMENSION else str(d) for d in self.dimensions) + ")"


@dataclass(frozen=True)
class SplitConfig:
    """`SC(dimension:i,j,...)`: the physical dimension `dimension` (counted major to minor, as
    XLA's LayoutUtil::Major) is split into separate allocations at the given indices."""

    dimension: int
    split_indices: tuple[int, ...]

    def __str__(self) -> str:
        return f"({self.dimension}:{','.join(map(str, self.split_indices))})"


class DimLevelType(enum.Enum):
    """Sparse dimension level types of the `D(...)` layout field (`+` non-unique, `~` unordered)."""

    DENSE = "D"
    COMPRESSED = "C"
    SINGLETON = "S"
    LOOSE_COMPRESSED = "H"


class PaddingValue(enum.Enum):
    """The legacy layout padding value of pages 000/001 (xla_data.proto's PaddingValue)."""

    ZERO_PAD = "zero"
    ONE_PAD = "one"
    LOWEST_PAD = "lowest"
    HIGHEST_PAD = "highest"
    UNKNOWN_PAD = "unknown"


@dataclass(frozen=True)
class Layout:
    minor_to_major: tuple[int, ...]
    tiles: tuple[Tile, ...] = ()
    tail_padding_alignment_in_elements: int = 1
    index_primitive_type: PrimitiveType | None = None
    pointer_primitive_type: PrimitiveType | None = None
    element_size_in_bits: int = 0
    memory_space: int = 0
    split_configs: tuple[SplitConfig, ...] = ()
    physical_shape: Shape | None = None
    dynamic_shape_metadata_prefix_bytes: int = 0
    dim_level_types: tuple[DimLevelType, ...] = ()
    dim_unique: tuple[bool, ...] = ()
    dim_ordered: tuple[bool, ...] = ()
    padded_dimensions: tuple[int, ...] = field(default=(), compare=True)
    padding_value: PaddingValue = PaddingValue.ZERO_PAD

    def __str__(self) -> str:
        from .value_text.shape import print_layout

        return print_layout(self)

    @property
    def rank(self) -> int:
        return len(self.minor_to_major)

    @property
    def major_to_minor(self) -> tuple[int, ...]:
        return self.minor_to_major[::-1]

    def minor(self, i: int) -> int:
        """The logical dimension that is the i-th most minor (XLA's LayoutUtil::Minor)."""
        return self.minor_to_major[i]

    def major(self, i: int) -> int:
        """The logical dimension that is the i-th most major (XLA's LayoutUtil::Major)."""
        return self.minor_to_major[len(self.minor_to_major) - 1 - i]

    @property
    def is_sparse(self) -> bool:
        return any(t is not DimLevelType.DENSE for t in self.dim_level_types)

    @property
    def is_untiled(self) -> bool:
        return not self.tiles

    def replace(self, **changes: object) -> Layout:
        return replace(self, **changes)  # type: ignore[arg-type]

    # -- XLA's LayoutUtil / Layout helpers --------------------------------------------------
    def move_dim_to_major(self, dim: int) -> Layout:
        order = [d for d in self.minor_to_major if d != dim] + [dim]
        return self.replace(minor_to_major=tuple(order))

    def move_dim_to_minor(self, dim: int) -> Layout:
        order = [dim] + [d for d in self.minor_to_major if d != dim]
        return self.replace(minor_to_major=tuple(order))

    def delete_dimension(self, dim: int) -> Layout:
        """Drop logical dimension `dim`, renumbering the others (split configs too, as XLA)."""
        if not 0 <= dim < self.rank:
            raise ShapeError(f"cannot delete dimension {dim} from layout {self} of rank {self.rank}")
        position = self.minor_to_major.index(dim)
        m2m = tuple(d - (d > dim) for d in self.minor_to_major if d != dim)
        # Split configs name physical (major-to-minor) positions; the deleted one goes away.
        major_pos = self.rank - 1 - position
        splits = tuple(
            SplitConfig(s.dimension - (s.dimension > major_pos), s.split_indices)
            for s in self.split_configs
            if s.dimension != major_pos
        )
        return self.replace(minor_to_major=m2m, split_configs=splits)


def default_layout(rank: int) -> Layout:
    """XLA's default layout: major to minor, dimension 0 most major (`{rank-1,...,0}`)."""
    return Layout(tuple(range(rank - 1, -1, -1)))


def descending_layout(rank: int) -> Layout:
    return default_layout(rank)


def ascending_layout(rank: int) -> Layout:
    return Layout(tuple(range(rank)))


def validate_layout(layout: Layout, dimensions: tuple[int, ...], what: str = "shape") -> None:
    """The checks of XLA's ValidateLayoutForShape plus our own; raises ShapeError."""
    rank = len(dimensions)
    m2m = layout.minor_to_major
    if sorted(m2m) != list(range(rank)):
        raise ShapeError(
            f"layout {{{','.join(map(str, m2m))}}} of {what} is not a permutation of its {rank} dimensions"
        )
    for tile in layout.tiles:
        if not tile.dimensions or any(d <= 0 and d != COMBINE_DIMENSION for d in tile.dimensions):
            raise ShapeError(f"layout has invalid tiles: tile {tile} of {what} must list sizes > 0 or '*'")
    if layout.tail_padding_alignment_in_elements < 1:
        raise ShapeError(
            f"layout of {what}: tail padding alignment L({layout.tail_padding_alignment_in_elements})"
            " must be at least 1"
        )
    if layout.element_size_in_bits < 0:
        raise ShapeError(f"layout of {what}: element size E({layout.element_size_in_bits}) is negative")
    if layout.memory_space < 0:
        raise ShapeError(f"layout of {what}: memory space S({layout.memory_space}) is negative")
    if layout.dynamic_shape_metadata_prefix_bytes < 0:
        raise ShapeError(f"layout of {what}: M({layout.dynamic_shape_metadata_prefix_bytes}) is negative")
    for name in ("index_primitive_type", "pointer_primitive_type"):
        t = getattr(layout, name)
        if t is not None and not t.is_unsigned_integral:
            raise ShapeError(f"layout of {what}: {name} {t.text} is not an unsigned integer type")
    if layout.dim_level_types and len(layout.dim_level_types) != rank:
        raise ShapeError(
            f"layout of {what} has {len(layout.dim_level_types)} dim level types for {rank} dimensions"
        )
    if layout.is_sparse and layout.tiles:
        raise ShapeError(f"layout of {what} has tiles, but is for a sparse array")
    for split in layout.split_configs:
        if not 0 <= split.dimension < rank:
            raise ShapeError(f"layout of {what}: split config {split} names no dimension")
        size = dimensions[layout.major(split.dimension)]
        prev = 0
        for i in split.split_indices:
            if not prev < i < size:
                raise ShapeError(
                    f"layout of {what}: split config {split} indices must increase within (0, {size})"
                )
            prev = i
    if layout.padded_dimensions:
        if len(layout.padded_dimensions) != rank:
            raise ShapeError(
                f"layout of {what}: padded_dimensions has {len(layout.padded_dimensions)} entries "
                f"for {rank} dimensions"
            )
        for i, (d, p) in enumerate(zip(dimensions, layout.padded_dimensions)):
            if p < d:
                raise ShapeError(
                    f"layout of {what}: padded_dimensions[{i}]={p} is smaller than the dimension ({d})"
                )
