"""Check HLO modules: read each (HLO text, a proto or a snapshot) and verify it; print each
problem as file:line:col and exit 1 if any module has one.

With `--all`, every verification error is printed, not only the first.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import HloError
from ..replay.load import load
from ..verifier import verify


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "modules", nargs="+", metavar="module", help="module files ('-' reads standard input)"
    )
    parser.add_argument("--all", action="store_true", help="report every error, not only the first")


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.modules:
        try:
            loaded = load(path)
        except HloError as e:
            print(str(e), file=sys.stderr)
            status = 1
            continue
        module, name = loaded.module, loaded.name
        errors = verify(module, all_errors=True)
        if not args.all:
            errors = errors[:1]
        for problem in errors:  # errors about a proto have no span: name the file
            print(str(problem) if problem.span is not None else f"{name}: {problem}", file=sys.stderr)
        if errors:
            status = 1
            continue
        count = sum(len(c.instructions) for c in module.computations)
        print(f"{name}: ok ({len(module.computations)} computations, {count} instructions)")
    return status
