"""Show how an array of a shape lies in memory: order, tiles, bytes, padding, a grid of indices.

For the two most minor dimensions, the grid gives each element's linear index (its position in the
physical buffer, in elements), with first-level tile boundaries drawn and tile padding as `.`.
"""

from __future__ import annotations

import argparse
import math

from ..errors import HloError
from ..layout import COMBINE_DIMENSION
from ..memory import plan
from ..shape import Shape
from ..text.shape_codec import parse_shape
from ..viz.layout_grid import LayoutGrid, layout_grid

EXAMPLES = {
    "tpu-bf16": "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}",
    "tiled-3x5": "f32[3,5]{1,0:T(2,2)}",
    "nested-4x8": "f32[4,8]{1,0:T(2,4)(2,1)}",
    "pred-1000": "pred[1000]{0:T(1024)}",
    "column-major": "f32[2,3]{0,1}",
    "int4-packed": "s4[4,6]{1,0:E(4)}",
    "combined": "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
}

MEMORY_SPACES = {0: "device memory (HBM)", 1: "on-chip vector memory (VMEM on TPU)", 5: "host memory"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shape", nargs="?", help="a shape as HLO prints it, e.g. 'f32[3,5]{1,0:T(2,2)}'")
    parser.add_argument("--example", choices=sorted(EXAMPLES), help="show a bundled example shape")
    parser.add_argument("--png", metavar="FILE", help="also draw the layout into a PNG (needs matplotlib)")
    parser.add_argument("--rows", type=int, default=16, help="rows of the grid to show (default 16)")
    parser.add_argument("--cols", type=int, default=16, help="columns of the grid to show (default 16)")


# The most cells a grid shows: the text grid, and the picture, whose every cell is a patch and a
# label for matplotlib (some kilobytes each: 2000x2000 cells took 14 GB).
MAX_TEXT_CELLS = 1 << 20
MAX_PNG_CELLS = 128 * 128


def check_grid_size(rows: int, cols: int, png: bool) -> None:
    if rows < 1 or cols < 1:
        raise HloError(f"hlo layout: --rows and --cols must be at least 1: got {rows} and {cols}")
    limit = MAX_PNG_CELLS if png else MAX_TEXT_CELLS
    if rows * cols > limit:
        what = "--png draws" if png else "the grid shows"
        raise HloError(
            f"hlo layout: {what} at most {limit:,} cells: --rows {rows} --cols {cols} asks for "
            f"{rows * cols:,}"
        )


def run(args: argparse.Namespace) -> int:
    text = EXAMPLES[args.example] if args.example else args.shape
    if text is None:
        print("hlo layout: give a SHAPE or --example NAME (one of: " + ", ".join(sorted(EXAMPLES)) + ")")
        return 2
    shape = parse_shape(text, "<command line>")
    check_grid_size(args.rows, args.cols, False)
    print(describe(shape))
    if shape.is_array and not shape.is_unbounded_dynamic:
        grid = layout_grid(shape, args.rows, args.cols)
        if args.png:
            check_grid_size(grid.rows, grid.cols, True)
        print()
        print(render_grid(grid))
        if args.png:
            from ..replay.output import check_writable
            from ..viz.layout_png import draw_layout

            check_writable(args.png)

            draw_layout(grid, args.png)
            print(f"\nwrote {args.png}")
    return 0


def _tile_text(dims: tuple[int, ...]) -> str:
    return "(" + ",".join("*" if d == COMBINE_DIMENSION else str(d) for d in dims) + ")"


def describe(shape: Shape) -> str:
    """The text summary of a shape's memory layout."""
    if not shape.is_array:
        kind = "tuple" if shape.is_tuple else shape.element_type.text
        lines = [str(shape), f"  a {kind} shape: it has no array elements of its own"]
        for index, leaf in shape.leaves():
            if leaf.is_array and index:
                lines.append(f"  element {{{','.join(map(str, index))}}}: {leaf}")
        return "\n".join(lines)
    et = shape.element_type
    p = plan(shape)
    layout = p.shape.layout
    assert layout is not None or not shape.dimensions
    count = math.prod(p.dims)
    bits = p.element_bits or et.byte_width * 8
    if p.element_bits and bits % 8:
        per = f"{bits} bits per element, packed"
    else:
        per = f"{bits // 8} byte{'s' if bits > 8 else ''} per element"
    lines = [
        str(shape),
        f"  element type   {et.text}: {et.bit_width}-bit {et.category.value}, {per}",
        f"  dimensions     [{','.join(map(str, p.dims))}]: {count} elements"
        + (" (dynamic dimensions at their bound)" if not shape.is_static else ""),
    ]
    if len(p.order) == 1:
        lines.append("  order          one dimension")
    elif p.order:
        minor, major = p.order[-1], p.order[0]
        lines.append(
            f"  order          minor to major {','.join(map(str, p.order[::-1]))}: dimension {minor} "
            f"(size {p.dims[minor]}) is most minor, dimension {major} (size {p.dims[major]}) most major"
        )
    if layout is not None and layout.padded_dimensions:
        lines.append(
            f"  legacy padding dimensions padded to [{','.join(map(str, p.storage_dims))}] "
            f"with {layout.padding_value.value} values"
        )
    if p.steps and layout is not None:
        dims = [d for d in p.storage_dims]
        lines.append(f"  physical dims  [{','.join(str(dims[d]) for d in p.order)}] (major to minor)")
        for tile, step in zip(layout.tiles, p.steps):
            lines.append(
                f"  tile {_tile_text(tile.dimensions):<10}{' '}[{','.join(map(str, step.after))}]: "
                f"{'x'.join(map(str, step.grid))} tile{'s' if math.prod(step.grid) != 1 else ''} of "
                f"{'x'.join(map(str, step.tile))}"
            )
    logical_bytes = count * (p.element_bits if p.element_bits else et.byte_width * 8) / 8
    overhead = p.byte_size / logical_bytes if logical_bytes else 1.0
    lines.append(
        f"  memory         {p.byte_size} bytes for {count} elements ({logical_bytes:.10g} bytes of data): "
        f"padding overhead {overhead:.2f}x ({p.physical_elements - count} padding elements)"
    )
    if layout is not None and layout.tail_padding_alignment_in_elements != 1:
        align = layout.tail_padding_alignment_in_elements
        lines.append(f"  tail padding   element count rounded up to a multiple of {align}")
    space = layout.memory_space if layout is not None else 0
    lines.append(f"  memory space   S({space}): {MEMORY_SPACES.get(space, 'a device-specific memory space')}")
    return "\n".join(lines)


def render_grid(grid: LayoutGrid) -> str:
    """The grid of linear indices with tile edges: '|' between tiles, '-' rows under them."""
    width = max(len(str(int(grid.linear.max(initial=0)))), len(str(grid.cols - 1)), 1)
    rows_label = f"dimension {grid.row_dim}" if grid.row_dim is not None else "one row"
    cols_label = f"dimension {grid.col_dim}" if grid.col_dim is not None else "a scalar"
    header = (
        f"Linear index of each element (rows: {rows_label}, columns: {cols_label}"
        + ("; other dimensions at 0" if grid.shape.rank > 2 else "")
        + "; '.' is tile padding):"
    )
    label_w = max(len(str(grid.rows - 1)), 1)

    def cell(r: int, c: int) -> str:
        v = int(grid.linear[r, c])
        return ("." if v < 0 else str(v)).rjust(width)

    def row_text(r: int, label: str, cells: list[str]) -> str:
        out = label.rjust(label_w) + "  "
        for c, text in enumerate(cells):
            if c and grid.tile[r, c] != grid.tile[r, c - 1]:
                out += " |"
            out += " " + text
        return out

    lines = [header, row_text(0, "", [str(c).rjust(width) for c in range(grid.cols)])]
    for r in range(grid.rows):
        if r and any(grid.tile[r, c] != grid.tile[r - 1, c] for c in range(grid.cols)):
            rule = row_text(r, "", ["-" * width for _ in range(grid.cols)])
            lines.append(" " * (label_w + 2) + rule[label_w + 2 :].replace(" |", "-+").replace(" ", "-"))
        lines.append(row_text(r, str(r), [cell(r, c) for c in range(grid.cols)]))
    more = []
    if grid.rows < grid.logical_rows:
        more.append(f"{grid.logical_rows} rows")
    if grid.cols < grid.logical_cols:
        more.append(f"{grid.logical_cols} columns")
    if more:
        lines.append(
            f"(showing the first {grid.rows}x{grid.cols} of {' and '.join(more)}; --rows/--cols show more)"
        )
    return "\n".join(lines)
