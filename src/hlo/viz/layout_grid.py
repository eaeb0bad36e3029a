"""What `hlo layout` shows: for the two most minor dimensions of an array shape, each element's
linear index, its first-level tile and whether a cell is tile padding."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..layout import COMBINE_DIMENSION
from ..memory import PhysicalPlan, forward_index, plan, ravel_index
from ..shape import Shape


@dataclass(frozen=True)
class LayoutGrid:
    shape: Shape
    row_dim: int | None  # logical dimension along the rows (None for rank < 2)
    col_dim: int | None  # logical dimension along the columns (None for a scalar)
    rows: int  # cells shown, tile padding included
    cols: int
    logical_rows: int  # rows / columns that hold elements
    logical_cols: int
    linear: np.ndarray  # [rows, cols] linear index, -1 in padding cells
    tile: np.ndarray  # [rows, cols] first-level tile number, -1 where there is no tiling
    subtile: np.ndarray  # [rows, cols] second-level tile number, -1 without a second tile


def _padded_extent(p: PhysicalPlan, dim: int | None, from_minor: int) -> int:
    """The extent of logical dimension `dim` (the `from_minor`-th most minor) padded to whole
    first-level tiles, when that tile entry covers it alone (no '*' merging); else its size."""
    if dim is None:
        return 1
    size = p.dims[dim]
    layout = p.shape.layout
    if not p.steps or layout is None:
        return size
    entries = layout.tiles[0].dimensions
    k = len(entries)
    if from_minor >= k:
        return size
    entry = entries[k - 1 - from_minor]
    merged_into = k - 2 - from_minor >= 0 and entries[k - 2 - from_minor] == COMBINE_DIMENSION
    if entry == COMBINE_DIMENSION or merged_into:
        return size
    return -(-size // entry) * entry


def layout_grid(shape: Shape, max_rows: int = 16, max_cols: int = 16) -> LayoutGrid:
    p = plan(shape)
    rank = len(p.dims)
    col_dim = p.order[-1] if rank >= 1 else None
    row_dim = p.order[-2] if rank >= 2 else None
    logical_rows = p.dims[row_dim] if row_dim is not None else 1
    logical_cols = p.dims[col_dim] if col_dim is not None else 1
    rows = min(_padded_extent(p, row_dim, 1), max_rows)
    cols = min(_padded_extent(p, col_dim, 0), max_cols)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    index = [np.zeros_like(r) for _ in range(rank)]
    if row_dim is not None:
        index[row_dim] = r
    if col_dim is not None:
        index[col_dim] = c
    inside = (r < logical_rows) & (c < logical_cols)
    safe = [np.where(inside, i, 0) for i in index]
    linear = np.where(inside, ravel_index(forward_index(p, tuple(safe)), p.final_dims), -1)
    tile, subtile = (_tile_numbers(p, tuple(index), level, r) for level in (1, 2))
    return LayoutGrid(
        shape, row_dim, col_dim, rows, cols, logical_rows, logical_cols,
        np.asarray(linear) + np.zeros_like(r), tile, subtile,
    )  # fmt: skip


def _tile_numbers(p: PhysicalPlan, index: tuple[Any, ...], level: int, like: np.ndarray) -> np.ndarray:
    """Which tile of the `level`-th tiling each cell falls in (-1 without that many tiles)."""
    if len(p.steps) < level:
        return np.full_like(like, -1)
    step = p.steps[level - 1]
    after = forward_index(p, index, steps=level)
    head = step.prefix + len(step.tile)
    return np.asarray(ravel_index(after[:head], step.after[:head])) + np.zeros_like(like)
