"""Draw a module's graph: Graphviz (svg, png, html, dot) or Model Explorer's JSON.

Ops are coloured by family, called computations are clusters, edges carry shapes. Big modules:
--computation NAME or --around INSTR --depth N draws a piece.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

from ..errors import HloError
from ..replay.load import load
from ..viz.graph_dot import to_dot
from ..viz.graph_model_explorer import to_model_explorer
from ..viz.graph_select import MAX_NODES, select

INSTALL = "install graphviz (apt-get install graphviz, brew install graphviz, or conda install graphviz)"
RENDERED = {".svg": "svg", ".png": "png", ".html": "svg"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("module", help="a module file (HLO text, HloProto, snapshot; '-' reads stdin)")
    parser.add_argument("-o", "--output", required=True, help="out.svg|png|html|dot|json")
    parser.add_argument(
        "--format",
        choices=("graphviz", "model-explorer"),
        default=None,
        help="graphviz (the default) or model-explorer (its graph JSON; default for .json)",
    )
    parser.add_argument("--computation", metavar="NAME", help="draw this computation (default: the entry)")
    parser.add_argument("--around", metavar="INSTR", help="draw only the instructions near INSTR")
    parser.add_argument("--depth", type=int, default=2, help="steps from --around INSTR (default 2)")
    parser.add_argument(
        "--max-nodes", type=int, default=MAX_NODES, help=f"refuse larger graphs (default {MAX_NODES})"
    )


def run(args: argparse.Namespace) -> int:
    module = load(args.module).module
    sel = select(module, args.computation, args.around, args.depth, args.max_nodes)
    out = Path(args.output)
    fmt = args.format or ("model-explorer" if out.suffix == ".json" else "graphviz")
    if fmt == "model-explorer":
        write(out, to_model_explorer(sel, args.max_nodes))
        print(f"wrote {out} ({sel.node_count} instructions; open it in Model Explorer)")
        return 0
    dot_text = to_dot(sel)
    if out.suffix not in RENDERED:
        if out.suffix != ".dot":
            raise HloError(f"{out}: the output's extension must be .svg, .png, .html, .dot or .json")
        write(out, dot_text)
        print(f"wrote {out} ({sel.node_count} instructions)")
        return 0
    dot = shutil.which("dot")
    if dot is None:
        fallback = out.with_suffix(".dot")
        write(fallback, dot_text)
        raise HloError(
            f"graphviz's dot is not installed: wrote {fallback} instead; {INSTALL} "
            f"and run: dot -T{RENDERED[out.suffix]} {fallback} -o {out}"
        )
    done = subprocess.run([dot, f"-T{RENDERED[out.suffix]}"], input=dot_text.encode(), capture_output=True)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise HloError(f"dot failed: {message[-1] if message else f'exit status {done.returncode}'}")
    data = done.stdout
    if out.suffix == ".html":
        data = html_page(module.name, data.decode())
    write(out, data)
    print(f"wrote {out} ({sel.node_count} instructions)")
    return 0


def html_page(title: str, svg: str) -> bytes:
    """The svg in a page that scrolls, for browsers that open local html more readily than svg."""
    start = svg.find("<svg")
    body = svg[start:] if start >= 0 else svg
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{title}</title></head>\n'
        f'<body style="margin:0;overflow:auto">\n{body}</body></html>\n'
    ).encode()


def write(path: Path, data: str | bytes) -> None:
    try:
        if isinstance(data, str):
            path.write_text(data)
        else:
            path.write_bytes(data)
    except OSError as e:
        raise HloError(f"{path}: cannot write: {e.strerror}") from None
