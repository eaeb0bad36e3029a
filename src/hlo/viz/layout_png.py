"""Draw a layout grid like the figures of the tiled-layout page: a colour per tile, tile padding
shaded, each element's linear index in its cell. Needs matplotlib (the `viz` extra)."""

from __future__ import annotations

from ..errors import HloError
from .layout_grid import LayoutGrid


def draw_layout(grid: LayoutGrid, path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle
    except ImportError:
        raise HloError("--png needs matplotlib: pip install 'hlo[viz]'") from None

    cmap = plt.get_cmap("tab20")
    cell = 0.6
    fig_w = max(3.0, grid.cols * cell + 1.5)
    fig_h = max(2.5, grid.rows * cell + 1.5)
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    font = max(5.0, min(10.0, 28.0 / max(1, len(str(int(grid.linear.max(initial=0)))))))
    for r in range(grid.rows):
        for c in range(grid.cols):
            value = int(grid.linear[r, c])
            face: object
            tile = int(grid.tile[r, c])
            if value < 0:
                face, hatch, text = "#dddddd", "///", ""
            else:
                face = cmap(tile % 20) if tile >= 0 else "#cfe3f7"
                hatch, text = "", str(value)
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=face, edgecolor="white", hatch=hatch, lw=1))
            if text:
                ax.text(c + 0.5, r + 0.5, text, ha="center", va="center", fontsize=font)
    # Tile boundaries where the tile number changes: black for tiles, red for second-level tiles.
    for numbers, color, lw in ((grid.subtile, "red", 1.2), (grid.tile, "black", 2.0)):
        for r in range(grid.rows):
            for c in range(grid.cols):
                if c + 1 < grid.cols and numbers[r, c] != numbers[r, c + 1]:
                    ax.plot([c + 1, c + 1], [r, r + 1], color=color, lw=lw)
                if r + 1 < grid.rows and numbers[r, c] != numbers[r + 1, c]:
                    ax.plot([c, c + 1], [r + 1, r + 1], color=color, lw=lw)
    ax.add_patch(Rectangle((0, 0), grid.cols, grid.rows, fill=False, edgecolor="black", lw=2))
    ax.set_xlim(0, grid.cols)
    ax.set_ylim(grid.rows, 0)
    ax.set_aspect("equal")
    ax.set_xticks([c + 0.5 for c in range(grid.cols)], [str(c) for c in range(grid.cols)], fontsize=7)
    ax.set_yticks([r + 0.5 for r in range(grid.rows)], [str(r) for r in range(grid.rows)], fontsize=7)
    ax.xaxis.tick_top()
    ax.set_xlabel(f"dimension {grid.col_dim}" if grid.col_dim is not None else "")
    ax.xaxis.set_label_position("top")
    ax.set_ylabel(f"dimension {grid.row_dim}" if grid.row_dim is not None else "")
    fig.suptitle(str(grid.shape), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
