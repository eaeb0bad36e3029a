"""Check an HLO module: parse it and verify it; print each problem as file:line:col and exit 1
if there is any.

With `--all`, every verification error is printed, not only the first.
"""

from __future__ import annotations

import argparse
import sys

from ..verifier import verify
from .textfiles import parse_module, read_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("module", help="an HLO text file ('-' reads standard input)")
    parser.add_argument("--all", action="store_true", help="report every error, not only the first")


def run(args: argparse.Namespace) -> int:
    text, name = read_text(args.module)
    module = parse_module(text, name)
    errors = verify(module, all_errors=True)
    if not args.all:
        errors = errors[:1]
    for e in errors:
        print(str(e), file=sys.stderr)
    if errors:
        return 1
    count = sum(len(c.instructions) for c in module.computations)
    print(f"{name}: ok ({len(module.computations)} computations, {count} instructions)")
    return 0
