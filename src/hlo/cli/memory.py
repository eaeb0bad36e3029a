"""Show where a module's memory goes: each buffer's logical and physical bytes, the padding, the
engine's peak live set.

Physical bytes follow each buffer's layout (tile padding, element size, memory space); the worst
padding is explained by its tile (`hlo layout SHAPE` draws it).
"""

from __future__ import annotations

import argparse

from ..memory import plan
from ..replay.load import load
from ..viz.graph_select import find_computation
from ..viz.memory_report import Buffer, MemoryReport, memory_report
from .layout import MEMORY_SPACES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("module", help="a module file (HLO text, HloProto, snapshot; '-' reads stdin)")
    parser.add_argument("--computation", metavar="NAME", help="report this computation (default: the entry)")
    parser.add_argument(
        "--top", type=int, default=30, help="buffers to list, largest first (default 30; 0: all)"
    )


def run(args: argparse.Namespace) -> int:
    module = load(args.module).module
    if args.computation:
        find_computation(module, args.computation)
    print(render(memory_report(module, args.computation), args.top))
    return 0


def human(n: int) -> str:
    if n < 1024:
        return f"{n}B"
    size = float(n)
    for unit in ("KiB", "MiB", "GiB"):
        size /= 1024
        if size < 1024 or unit == "GiB":
            break
    return f"{size:.1f}{unit}"


def render(r: MemoryReport, top: int) -> str:
    shown = r.buffers if top <= 0 else r.buffers[:top]
    width = max([len(b.label) for b in shown] + [6])
    lines = [
        f"computation {r.computation}: {len(r.buffers)} buffers",
        f"  {'buffer':<{width}}  {'kind':<12} {'logical':>10} {'physical':>10} {'padding':>8}  shape",
    ]
    for b in shown:
        pad = f"{b.physical / b.logical:.2f}x" if b.logical and b.padding else ""
        space = f" S({b.memory_space})" if b.memory_space else ""
        lines.append(
            f"  {b.label:<{width}}  {b.kind:<12} {b.logical:>10} {b.physical:>10} {pad:>8}  {b.shape}{space}"
        )
    if len(shown) < len(r.buffers):
        lines.append(f"  ... {len(r.buffers) - len(shown)} smaller buffers (--top 0 lists all)")
    overhead = r.physical - r.logical
    share = f" ({overhead / r.physical:.1%} of physical)" if r.physical else ""
    lines += [
        "",
        f"total: {r.logical} logical bytes ({human(r.logical)}), {r.physical} physical ({human(r.physical)})",
        f"padding overhead: {overhead} bytes{share}",
    ]
    spaces = sorted({b.memory_space for b in r.buffers})
    if spaces != [0]:
        for s in spaces:
            total = sum(b.physical for b in r.buffers if b.memory_space == s)
            lines.append(f"  memory space {s} ({MEMORY_SPACES.get(s, 'backend-defined')}): {total} bytes")
    lines.append(
        f"peak live set: {r.peak_bytes} bytes ({human(r.peak_bytes)}) at %{r.peak_at}, "
        f"{len(r.peak_live)} values live (the engine's schedule, each value dropped after its last use)"
    )
    worst = max(r.buffers, key=lambda b: (b.padding, b.physical), default=None)
    if worst is not None and worst.padding > 0:
        lines.append("worst padding: " + explain(worst))
    return "\n".join(lines)


def explain(b: Buffer) -> str:
    """Why a buffer is bigger than its elements: the tiles round dimensions up, or the element
    takes more bits than its type has."""
    p = plan(b.shape)
    et = b.shape.element_type
    reasons = []
    if p.steps:
        first = p.steps[0]
        reasons.append(
            f"tile ({','.join(map(str, first.tile))}) rounds [{','.join(map(str, first.merged))}] up to "
            f"[{','.join(str(g * t) for g, t in zip(first.grid, first.tile))}]"
        )
    bits = p.element_bits or et.byte_width * 8
    if bits != et.bit_width and et.text != "pred":
        reasons.append(f"each {et.bit_width}-bit {et.text} element takes {bits} bits")
    why = "; ".join(reasons) or "layout padding"
    return (
        f"{b.label} {b.shape}: {b.logical} -> {b.physical} bytes ({b.physical / b.logical:.2f}x): {why} "
        f"(hlo layout '{b.shape}' draws it)"
    )
