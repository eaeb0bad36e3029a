"""The limits and engine switches of `hlo run`: a memory budget, a while-loop bound on by
default, a whole-run timeout (docs/HARDENING.md lists them with their defaults), fusion off."""

from __future__ import annotations

import argparse
import re

from ..errors import HloError

# A while loop that never ends stops after this many iterations on the command line: about a
# minute of a small loop body on one core (hlo.run itself has no default bound).
DEFAULT_MAX_ITERATIONS = 1_000_000

_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def memory_size(text: str) -> int:
    """A byte count: `1000000`, `512M`, `4G` (binary units), `0` for no limit."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)i?b?\s*", text.lower())
    if m is None:
        raise argparse.ArgumentTypeError(f"not a byte count: {text!r} (e.g. 4G, 512M, 1000000; 0 for none)")
    return int(m.group(1)) * _UNITS[m.group(2)]


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--memory-limit", type=memory_size, metavar="BYTES",
        help="the most one value may take (e.g. 4G; default: half the memory this process may use; 0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--no-fusion", action="store_true",
        help="run op by op (default: chains of elementwise ops over large arrays run block by "
        "block; the same values)",
    )  # fmt: skip


def run_limits(args: argparse.Namespace) -> dict[str, object]:
    """The RunOptions fields the limit arguments give."""
    iterations = args.max_iterations
    if iterations is None:
        iterations = DEFAULT_MAX_ITERATIONS
    if iterations < 0:
        raise HloError(f"hlo run: --max-iterations must be >= 0 (0: no limit): got {iterations}")
    if args.timeout is not None and not args.timeout > 0:
        raise HloError(f"hlo run: --timeout must be a positive number of seconds: got {args.timeout}")
    return {
        "max_iterations": iterations or None,
        "memory_limit": args.memory_limit,
        "timeout": args.timeout,
        "fuse": not args.no_fusion,
        "jit": getattr(args, "jit", "auto"),
    }
